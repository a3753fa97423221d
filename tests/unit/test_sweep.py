"""`sweep:` for every kind (core/sweep.py): one claim per point, each checked by the kind
that claims it, re-derived from the file by `verify` (models.derive)."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.models import check, derive, expand, load, unfold

REPO = Path(__file__).resolve().parent.parent.parent
SWEEPS = REPO / "tests" / "specs" / "sweep"


def _data(name: str, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SWEEPS / name).read_text())
    data.update(changes)
    return data


def test_a_formula_sweep_is_one_claim_per_point() -> None:
    specs = expand(load(SWEEPS / "tgeom_alpha_sweep.yaml"))
    assert [s.name for s in specs] == ["tgeom_alpha_alpha_0", "tgeom_alpha_alpha_1", "tgeom_alpha_alpha_2"]
    assert [s.parameters["alpha"] for s in specs] == [Fraction(1, 4), Fraction(1, 3), Fraction(1, 2)]
    assert [s.epsilon_text for s in specs] == ["-ln(alpha)", "ln(3)", "ln(3/2)"]
    assert [s.derived for s in specs] == [{"name": s.name, "sweep": {"alpha": a}}
                                          for s, a in zip(specs, ["1/4", "1/3", "1/2"], strict=False)]
    assert [unfold(s).plan.expected for s in specs] == [Verdict.PROVED, Verdict.PROVED, Verdict.REFUTED]


def test_a_table_of_exp_entries_sweeps_too() -> None:
    specs = expand(load(SWEEPS / "krr_eps_sweep.yaml"))
    assert [(s.kind, s.name) for s in specs] == [("calibrated", "krr_eps_eps_0"), ("calibrated", "krr_eps_eps2")]
    assert all(unfold(s).plan.expected == Verdict.PROVED for s in specs)


def test_verify_finds_a_point_again_from_its_recorded_values() -> None:
    first = load(SWEEPS / "tgeom_alpha_sweep.yaml")
    point = derive(first, {"name": "tgeom_alpha_alpha_2", "sweep": {"alpha": "1/2"}})
    assert point.name == "tgeom_alpha_alpha_2" and point.epsilon_text == "ln(3/2)"
    with pytest.raises(SpecError, match="no sweep point"):
        derive(first, {"name": "x", "sweep": {"alpha": "1/5"}})


@pytest.mark.parametrize("sweep, field, message", [
    ([{"beta": 1}], "sweep[0].beta", "not a parameter"),
    ([], "sweep", "non-empty list"),
    ("alpha", "sweep", "non-empty list"),
    ([{"alpha": "1/4"}, {"alpha": "1/4"}], "sweep[1]", "the same point"),
    ([3], "sweep[0]", "a point is a mapping"),
    ([{"alpha": [1]}], "sweep[0].alpha", "a number or an expression"),
])
def test_bad_sweeps_are_refused_naming_the_field(sweep: Any, field: str, message: str) -> None:
    with pytest.raises(SpecError) as exc:
        check(_data("tgeom_alpha_sweep.yaml", sweep=sweep), "s.yaml")
    assert exc.value.field == field and message in str(exc.value)


def test_a_bad_point_is_refused_when_the_file_is_read() -> None:
    with pytest.raises(SpecError, match="claim.epsilon"):
        check(_data("tgeom_alpha_sweep.yaml", sweep=[{"alpha": "1/4"}, {"alpha": "1/3", "epsilon": "ln("}]),
              "s.yaml")


def _program_sweep(tmp_path: Path, points: list[dict[str, Any]]) -> Path:
    data = yaml.safe_load((REPO / "mechanisms" / "online_model.yaml").read_text())
    data["sweep"] = points
    spec = tmp_path / "online_model.yaml"
    spec.write_text(yaml.safe_dump(data))
    return spec


def test_a_program_sweep_repeating_a_stream_length_is_refused(tmp_path: Path) -> None:
    """One point true (ln 2), one false (ln(19/10)) at the same k: refused, neither dropped."""
    from inprocess import cli
    spec = _program_sweep(tmp_path, [{"k": 1, "epsilon": "ln(2)"}, {"k": 1, "epsilon": "ln(19/10)"}])
    for command in ("check", "prove"):
        run = cli(command, str(spec), "--out", str(tmp_path / "o"), "--build", str(tmp_path / "b")) \
            if command == "prove" else cli(command, str(spec))
        assert run.returncode == 2, run.stdout + run.stderr
        assert "sweep[1]: the same point as sweep[0] (k = 1)" in run.stderr
    assert not (tmp_path / "o").exists()


def test_a_program_sweep_point_is_found_again_by_its_values() -> None:
    first = load(REPO / "mechanisms" / "online_model.yaml")
    assert [s.name for s in expand(first)] == [f"online_model_k{k}" for k in range(1, 5)]
    point = derive(first, {"name": "online_model_k3", "sweep": {"k": "3"}})
    assert point.name == "online_model_k3" and point.epsilon_text == "ln(62777/16504)"


def test_points_with_the_same_values_and_other_claims_are_each_checked(tmp_path: Path) -> None:
    """Two points at alpha = 1/4 with different epsilons: two claims under two names, both
    loaded for prove, and each found again by the name its certificate records."""
    from obligations.certify.run import load_specs
    spec = tmp_path / "tgeom_alpha.yaml"
    spec.write_text(yaml.safe_dump(_data("tgeom_alpha_sweep.yaml", sweep=[
        {"alpha": "1/4", "epsilon": "ln(4)"}, {"alpha": "1/4", "epsilon": "ln(3)"}])))
    specs = load_specs([spec])
    assert [(s.name, s.epsilon_text) for s in specs] == [("tgeom_alpha_alpha_0", "ln(4)"),
                                                         ("tgeom_alpha_alpha_1", "ln(3)")]
    assert [unfold(s).plan.expected for s in specs] == [Verdict.PROVED, Verdict.REFUTED]
    for s in specs:
        assert derive(load(spec), s.derived).epsilon_text == s.epsilon_text
