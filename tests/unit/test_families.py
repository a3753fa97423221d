"""Families without Coq: symbolic parameters checked, formulas matched to the library's
families, the verdict Python expects, and the finite kind's family route for instances."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis import families as F
from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.models import load, unfold
from obligations.table import family_analysis as A
from obligations.table import members as M

REPO = Path(__file__).resolve().parent.parent.parent
MECH = REPO / "mechanisms"
SPECS = REPO / "tests" / "specs" / "families"
REFUSED = REPO / "tests" / "data" / "families"   # refused by `check` (exit 2): not under tests/specs


def write(tmp_path: Path, base: Path, **changes: Any) -> Path:
    data = yaml.safe_load(base.read_text())
    data.update(changes)
    p = tmp_path / "spec.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    return p


def refused(path: Path) -> SpecError:
    with pytest.raises(SpecError) as info:
        unfold(load(path))
    return info.value


def test_the_family_spec_is_tgeom_for_every_alpha_and_n() -> None:
    spec = load(MECH / "truncated_geometric_family.yaml")
    assert spec.kind == "family" and [p.name for p in spec.symbols] == ["alpha", "n"]
    fa, plan = A.analyse(spec)
    assert fa.match.family.name == "tgeom" and dict(fa.match.binding) == {"a": "alpha", "n": "n"}
    assert plan.expected == Verdict.PROVED
    text = unfold(spec).rendered.text
    assert ("Theorem truncated_geometric_family_dp :\n  forall (p_alpha : Q) (p_n : Z), ((0 # 1) < p_alpha /\\ "
            "p_alpha < (1 # 1)) -> (1%Z <= p_n)%Z -> dp nb_adjacent (truncated_geometric_family p_alpha p_n) "
            "(- (ln (Q2R p_alpha))) 0.") in text
    assert "tgeom_dp_le" in text and "tgeom_distr" in text and "vm_c" not in text   # no table anywhere


def test_randomized_response_for_every_k_and_keep_probability() -> None:
    spec = load(MECH / "randomized_response_family.yaml")
    fa, plan = A.analyse(spec)
    assert fa.match.family.name == "krr" and plan.expected == Verdict.PROVED
    assert unfold(spec).rendered.theorems == ("randomized_response_family_distr", "randomized_response_family_dp")


def test_a_claim_below_the_family_epsilon_is_refuted_at_an_instance() -> None:
    fa, plan = A.analyse(load(SPECS / "tgeom_eps_ln_3o2.yaml"))
    assert plan.expected == Verdict.REFUTED
    assert fa.instance == {"alpha": Fraction(1, 2), "n": Fraction(1)}
    w = next(o for o in plan.obligations if type(o).__name__ == "Witness")
    assert (w.x, w.x2, w.outputs, w.pr_x, w.pr_x2) == (0, 1, (0,), Fraction(2, 3), Fraction(1, 3))


def test_a_looser_claim_is_not_guessed(tmp_path: Path) -> None:
    _, plan = A.analyse(load(write(tmp_path, MECH / "truncated_geometric_family.yaml",
                                   claim={"epsilon": "-2*ln(alpha)"})))
    assert plan.expected == Verdict.UNDECIDED and "not the family's" in plan.notes[0]


def test_a_formula_that_is_no_family_is_refused_naming_the_formula() -> None:
    err = refused(REFUSED / "tgeom_wrong_interior.yaml")
    assert err.field == "formula" and "no library family is this formula" in str(err)


def test_constraints_weaker_than_the_library_needs_are_refused() -> None:
    err = refused(REFUSED / "tgeom_n_from_0.yaml")
    assert err.field == "parameters.n" and "needs n integer >= 1" in str(err)


@pytest.mark.parametrize("param,message", [
    ({"range": "0, 1"}, "is not an interval"),
    ({"range": "(0, 1, 2)"}, "is not an interval"),
    ({"integer": "<= 3"}, "is not a bound"),
    ({"range": "(0, beta)"}, "unknown name 'beta'"),
    ({"rang": "(0, 1)"}, "did you mean 'range'"),
])
def test_bad_constraints_name_the_field(tmp_path: Path, param: dict[str, str], message: str) -> None:
    base = yaml.safe_load((MECH / "truncated_geometric_family.yaml").read_text())
    params = dict(base["parameters"], alpha=param)
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, MECH / "truncated_geometric_family.yaml", parameters=params))
    assert info.value.field.startswith("parameters.alpha") and message in str(info.value)


def test_a_family_claims_pure_dp_only(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        load(write(tmp_path, MECH / "truncated_geometric_family.yaml",
                   claim={"epsilon": "-ln(alpha)", "delta": "1/100"}))
    assert info.value.field == "claim.delta"


def test_instances_take_the_family_route_when_the_table_is_large() -> None:
    small = unfold(load(MECH / "truncated_geometric_formula.yaml"))        # n = 50: the table
    assert "tabulate_z" in small.rendered.text and "tgeom_dp_le" not in small.rendered.text
    big = unfold(load(MECH / "truncated_geometric_n500.yaml"))
    assert "tgeom_dp_le" in big.rendered.text and "tabulate_z" not in big.rendered.text
    assert big.rendered.theorems == ("truncated_geometric_n500_distr", "truncated_geometric_n500_dp")
    assert "Theorem truncated_geometric_n500_dp :\n  dp nb_adjacent truncated_geometric_n500 (- (ln (1 / 2))) 0." \
        in big.rendered.text     # the statement of the table route


def test_route_table_and_route_family_are_obeyed(tmp_path: Path) -> None:
    forced = unfold(load(write(tmp_path, MECH / "truncated_geometric_n500.yaml", route="table",
                               parameters={"alpha": "1/2", "n": 20})))
    assert "tgeom_dp_le" not in forced.rendered.text
    below = write(tmp_path, MECH / "truncated_geometric_n500.yaml", route="family", claim={"epsilon": "ln(3/2)"})
    err = refused(below)
    assert err.field == "route" and "below the family's epsilon ln(2)" in str(err)


def test_seed_002_tables_are_recognised_as_members() -> None:
    quarter = load(MECH / "geometric_threshold.yaml")
    match, values, _ = M.table_member(quarter)   # type: ignore[misc]
    assert match.family.name == "tgeom" and values == {"a": Fraction(1, 4), "n": Fraction(5)}
    half = load(MECH / "truncated_geometric.yaml")
    assert M.table_member(half)[1] == {"a": Fraction(1, 2), "n": Fraction(5)}   # type: ignore[index]
    assert "krr" in (M.member_line(load(MECH / "randomized_response.yaml")) or "")


def test_a_table_off_by_one_entry_is_no_member(tmp_path: Path) -> None:
    data = yaml.safe_load((MECH / "geometric_threshold.yaml").read_text())
    data["table"]["0"] = ["4/5", "3/20", "3/80", "3/320", "1/1280", "3/1280"]   # two entries swapped
    data.pop("profile")
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    assert M.table_member(load(p)) is None


def test_matching_compares_exactly() -> None:
    spec = load(REFUSED / "tgeom_wrong_interior.yaml")
    assert F.find(spec.types, A.spec_pmf(spec), A.spec_domain(spec), A.samples(spec), "adjacent") is None


# ---------------------------------------------------------------- basic composition

def composed(epsilon: str, delta: str, k: int) -> Any:
    from obligations.models import derive
    return derive(load(MECH / "randomized_response.yaml"),
                  {"name": "rr_composed", "epsilon": epsilon, "delta": delta, "compose": k})


def test_basic_composition_is_used_where_it_suffices() -> None:
    from obligations.table import by_basic_composition as B
    assert B.single_run_bound(composed("ln(27)", "0", 3), 3) == (Fraction(3), Fraction(0))
    u = unfold(composed("ln(27)", "0", 3))
    assert u.rendered.theorems == ("rr_composed_single_dp", "rr_composed_dp")
    assert "dp_power_basic_q" in u.rendered.text and "basic composition" in u.plan.notes[0]


def test_the_product_table_where_basic_composition_does_not_suffice() -> None:
    from obligations.table import by_basic_composition as B
    assert B.single_run_bound(composed("ln(3)", "3/8", 3), 3) is None     # the exact curve's point
    assert B.single_run_bound(composed("ln(26)", "0", 3), 3) is None      # false: refuted on the table
    u = unfold(composed("ln(26)", "0", 3))
    assert u.plan.expected == Verdict.REFUTED and "dp_power_basic_q" not in u.rendered.text


def test_an_instance_offers_the_table_proof_second() -> None:
    u = unfold(load(MECH / "truncated_geometric_n500.yaml"))
    (facts,) = [s for s in u.rendered.document.slots if s.name.endswith("_facts")]
    assert "family_cases_field" in facts.candidates[0].script
    assert "vm_cast_no_check" in facts.candidates[1].script and "family" not in facts.candidates[1].script
