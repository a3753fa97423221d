"""Exact δ(ε) curves, composition and CW-privacy against values computed outside the project."""
from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import sympy

from obligations.analysis.compose import composed_curve, heterogeneous_curve, kov
from obligations.analysis.finite import tabulate
from obligations.analysis.region import Line, curve, envelope
from obligations.certify.profiles import profile
from obligations.models import load

REF = Path(__file__).resolve().parent.parent / "data" / "reference"
RR = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
BOTH = [(0, 1), (1, 0)]


def reference(name: str) -> dict[str, Any]:
    return json.loads((REF / f"{name}.json").read_text())


def t_of(eps_text: str) -> F:
    """e^ε for the reference files' 'N*ln(3)' and 'ln(3)' strings, without parsing them as code."""
    k, _, rest = eps_text.partition("*")
    mult, base = (int(k), rest) if rest else (1, k)
    assert base == "ln(3)"
    return F(3) ** mult


def test_envelope_is_the_max_of_its_lines() -> None:
    rng = random.Random(7)
    for _ in range(200):
        lines = [Line(F(rng.randint(0, 30), 30), F(rng.randint(0, 30), 30)) for _ in range(rng.randint(1, 9))]
        c = envelope(lines + [Line(F(0), F(0))])
        for t in (F(1), F(6, 5), F(2), F(7, 2), F(50)):
            assert c.delta(t) == max(max(ln.at(t) for ln in lines), 0)


def test_curve_equals_brute_force_over_output_sets() -> None:
    m = tabulate(load("mechanisms/geometric_threshold.yaml"))
    c = curve(m)
    for t in (F(1), F(3, 2), F(2), F(3), F(4), F(5)):
        brute = max(sum((m.rows[a][y] - t * m.rows[b][y] for y in S), F(0))
                    for a, b in m.pairs for r in range(7) for S in itertools.combinations(range(6), r))
        assert c.delta(t) == brute


def test_breakpoints_and_zero_of_shipped_mechanisms() -> None:
    c = curve(tabulate(load("mechanisms/truncated_geometric.yaml")))
    assert c.breakpoints == (F(2),) and c.t_zero == F(2)
    assert [(p.line.a, p.line.b) for p in c.pieces] == [(F(2, 3), F(1, 3)), (0, 0)]


@pytest.mark.parametrize("k", [10, 50])
def test_composition_matches_reference(k: int) -> None:
    data = reference(f"rr_p34_compose{k}")
    c = composed_curve(RR, BOTH, k)
    for point in data["delta_exact"]:
        if "delta" in point:
            assert c.delta(t_of(point["eps"])) == F(point["delta"]), point
        else:
            t = sympy.exp(sympy.Float(point["eps_float"], 50))
            approx = F(str(sympy.N(t, 45)))
            assert float(c.delta(approx)) == pytest.approx(point["delta_float"], abs=1e-12)


def test_composition_of_rr_is_kairouz_oh_viswanath() -> None:
    """Randomized response attains the optimal composition bound for (ln 3, 0)."""
    data = reference("kov_ln3")
    for case in data["cases"]:
        k = case["k"]
        c = composed_curve(RR, BOTH, k)
        bound = kov(sympy.log(3), F(0), k)
        for point, (_eps_i, delta_i) in zip(case["kov_points"], bound, strict=False):
            assert F(point["delta"]) == F(str(delta_i))
            assert c.delta(t_of(point["eps"])) == F(point["delta"])


def test_heterogeneous_composition_of_identical_mechanisms_is_the_power() -> None:
    geo = tabulate(load("mechanisms/truncated_geometric.yaml"))
    het = heterogeneous_curve([geo.rows, geo.rows, geo.rows], geo.pairs)
    hom = composed_curve(geo.rows, geo.pairs, 3)
    for t in (F(1), F(2), F(4), F(8), F(9)):
        assert het.delta(t) == hom.delta(t)


def test_cw_profile_with_non_uniform_prior() -> None:
    spec = load("mechanisms/randomized_response_cw.yaml")
    m = tabulate(spec)
    assert m.rows == ((F(7, 12), F(5, 12)), (F(5, 12), F(7, 12)))
    prof = profile(spec, ["0", "ln(7/5)", "ln(6/5)"])
    assert [p.delta for p in prof.points] == [F(1, 6), F(0), F(7, 12) - F(6, 5) * F(5, 12)]


def test_profile_brackets_irrational_points() -> None:
    prof = profile(load("mechanisms/randomized_response.yaml"), ["1"])
    p = prof.points[0]
    tight = 0.75 - 2.718281828459045 / 4
    assert p.delta is None and p.lower is not None
    assert float(p.lower) < tight < float(p.upper) and p.upper - p.lower <= F(3, 10**12)


def test_huge_compositions_are_refused_before_any_work(tmp_path: Path) -> None:
    """A composition Coq cannot certify is a spec/usage error, found without computing m^k."""
    from obligations.core.spec import derive
    from obligations.errors import SpecError
    spec = load("mechanisms/randomized_response.yaml")
    for k in (13, 10**9):
        with pytest.raises(SpecError, match="outputs; at most 4096"):
            derive(spec, name="rr_big", epsilon="ln(3)", delta=F(0), compose=k)
    assert derive(spec, name="rr_ok", epsilon="ln(3)", delta=F(0), compose=12).compose == 12


def test_profile_certificates_are_named_by_their_epsilon() -> None:
    """Certifying another ε later must not overwrite a point's certificate: names carry ε."""
    from obligations.certify.profiles import epsilon_slug
    texts = ["0", "1", "ln(3)", "ln(27/8)", "ln(293/8)", "-ln(1/2)", "1/2", "0.5", "2*ln(3)", "ln(3)+1"]
    slugs = [epsilon_slug(t) for t in texts]
    assert slugs[:4] == ["0", "1", "ln_3", "ln_27o8"]
    assert len(set(slugs)) == len(slugs)
    assert all(s.replace("_", "a").isalnum() for s in slugs)   # part of a Coq identifier


def test_a_long_composition_prints_decimals_unless_exact_is_asked() -> None:
    """700 (and 400) runs of the truncated geometric: its breakpoints e^eps have hundreds of digits.
    They are not read back as expressions (which refuses numbers that long), and the printed
    curve (700 runs: the accountant's brackets) shows decimals unless --exact is given."""
    import contextlib
    import io

    from obligations.cli import main

    def region(k: int, *extra: str) -> tuple[int, str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["region", "mechanisms/truncated_geometric.yaml", "--compose", str(k), *extra])
        return code, out.getvalue()
    code, text = region(700)
    assert code == 0
    # beyond the product table the accountant answers, in decimals: a certified bracket per point
    assert max(len(line) for line in text.splitlines()) < 200 and "certified in a bracket by the accountant" in text
    code, exact = region(400, "--exact")   # --exact is about certified claims' fractions: the table stays short
    assert code == 0 and max(len(line) for line in exact.splitlines()) < 200 and "e-0" in exact


@pytest.mark.parametrize("k", [1, 2, 5, 10, 11])
def test_kov_curve_is_composed_randomized_response_between_its_points(k: int) -> None:
    """The figures' KOV curve: through the theorem's points, and exact k-fold RR everywhere else."""
    import math

    from obligations.analysis.compose import kov_curve
    c = kov_curve(math.log(3), 0.0, k)
    for eps_i, delta_i in kov(sympy.log(3), F(0), k):
        assert c.delta(float(eps_i)) == pytest.approx(float(delta_i), abs=1e-12)
    exact = composed_curve(RR, BOTH, k)
    for t in (F(1), F(3, 2), F(2), F(5), F(10), F(100), F(3) ** k, F(3) ** k * 2):
        assert c.delta(math.log(t)) == pytest.approx(float(exact.delta(t)), abs=1e-12)


def test_kov_curve_for_long_compositions_neither_overflows_nor_loses_tiny_deltas() -> None:
    import math

    from obligations.analysis.compose import kov_curve
    c = kov_curve(math.log(2), 0.0, 1000)
    assert c.delta(0.0) == pytest.approx(1.0) and c.delta(1000 * math.log(2) + 1) == 0.0
    assert 0 < c.delta(600.0) < 1e-80         # 18 standard deviations above the mean loss
    assert kov_curve(math.log(2), 1e-9, 1000).delta(600.0) == pytest.approx(1 - (1 - 1e-9) ** 1000)


def test_irrational_points_have_their_exact_closed_form(capsys: pytest.CaptureFixture[str]) -> None:
    """δ(1) of 3-fold randomized response is 27/32 − e·5/32 (its piece on [0, ln 3]), not only a decimal."""
    from obligations.cli import main
    spec = load("mechanisms/randomized_response.yaml")
    prof = profile(spec, ["1", "2", "ln(2)", "1/2"], compose=3)
    forms = [p.closed_form for p in prof.points]
    assert forms == ["27/32 - e·5/32", "27/64 - e^2·1/64", None, "27/32 - e^(1/2)·5/32"]
    assert prof.points[2].delta == F(27, 32) - 2 * F(5, 32)          # e^ε rational: exact anyway
    assert prof.points[0].to_json()["delta_closed_form"] == "27/32 - e·5/32"
    # the closed form and the certified bracket agree
    value = 27 / 32 - 2.718281828459045 * 5 / 32
    assert float(prof.points[0].lower) < value < float(prof.points[0].upper)
    assert main(["region", "mechanisms/randomized_response.yaml", "--compose", "3", "--epsilon", "1", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "eps = 1 (1): delta = 27/32 - e·5/32 = 0.419018464303" in out
    assert "delta = 0 - e^eps" not in out and "eps in [ln(27), oo]: delta = 0\n" in out


def test_region_of_a_spec_without_a_finite_table_says_what_the_spec_is() -> None:
    from inprocess import cli
    done = cli("region", "tests/specs/kov/kov_eps1_100_runs_delta_low.yaml", "--epsilon", "46")
    assert done.returncode == 2 and "region needs a finite mechanism" in done.stderr
    assert "this spec is a KOV claim (use `obligations show`)" in done.stderr, done.stderr
