"""Adaptive composition of a chain's parts (`adaptive: true`, obligations/table/adaptive.py and
dominating.py): domination decided exactly, the kernels Coq checks, the part's dominating pair,
the refusals (a part without one: undecided; `adaptive` not a bool: exit 2 naming the field) and
what is rendered.  No Coq here (tests/coq/test_accountant_route_certify.py reads the certificates)."""
from __future__ import annotations

import contextlib
import io
from fractions import Fraction as F
from pathlib import Path

import yaml

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import AccountantCheck, Verdict
from obligations.models import load, witness
from obligations.table import dominating as dom

REPO = Path(__file__).resolve().parents[2]
CHAIN = REPO / "tests" / "specs" / "chain"
RR3 = [[F(2, 3), F(1, 6), F(1, 6)], [F(1, 6), F(2, 3), F(1, 6)], [F(1, 6), F(1, 6), F(2, 3)]]
LEAN = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 3), F(1, 3), F(1, 3)]]
TILTED = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 6), F(1, 3), F(1, 2)]]
ALL = [(a, b) for a in range(3) for b in range(3) if a != b]
ADJACENT = [(0, 1), (1, 0), (1, 2), (2, 1)]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_domination_is_the_hockey_stick_order_at_every_g() -> None:
    """Checked at the bends against a fine grid of g: the same answer."""
    grid = [F(i, 16) for i in range(0, 80)]
    for rows, pairs in ((RR3, ALL), (LEAN, ALL), (TILTED, ADJACENT)):
        for (x, x2), (u, u2) in ((p, q) for p in pairs for q in pairs):
            p, q, a, b = rows[x], rows[x2], rows[u], rows[u2]
            on_grid = all(dom.hs(a, b, g) <= dom.hs(p, q, g) for g in grid)
            assert dom.dominates(p, q, a, b) <= on_grid   # the bends include every grid answer's cause
            if not dom.dominates(p, q, a, b):
                assert any(dom.hs(a, b, g) > dom.hs(p, q, g) for g in dom._bends((p, q), (a, b)))


def test_randomized_response_relabels_its_outputs() -> None:
    pair = dom.dominating_pair(RR3, ALL)
    assert pair is not None and (pair.x, pair.x2) == (0, 1)
    kernels = {(u, u2): t for u, u2, t in pair.kernels}
    assert kernels[(1, 0)] == ((0, 1, 0), (1, 0, 0), (0, 0, 1))   # the swap
    assert all(set(v for col in t for v in col) <= {0, 1} for t in kernels.values())


def test_an_exact_lp_finds_the_kernels_no_relabelling_gives() -> None:
    pair = dom.dominating_pair(LEAN, ALL)
    assert pair is not None and (pair.x, pair.x2) == (0, 1)
    p, q = LEAN[0], LEAN[1]
    for u, u2, t in pair.kernels:
        assert dom.kernel_fits(t, p, q, LEAN[u], LEAN[u2])
        assert all(sum(col) == 1 for col in t)
    assert any(any(v not in (0, 1) for col in t for v in col) for _, _, t in pair.kernels)


def test_a_kernel_that_does_not_fit_is_told() -> None:
    (_, _, t), = [k for k in dom.dominating_pair(RR3, ALL).kernels if k[:2] == (1, 0)]  # type: ignore[union-attr]
    assert not dom.kernel_fits(t, RR3[0], RR3[1], RR3[0], RR3[1])


def test_no_pair_of_its_own_dominates_a_tilted_table() -> None:
    assert dom.dominating_pair(TILTED, ADJACENT) is None


def test_the_adaptive_claim_is_proved_by_the_pairs_chain() -> None:
    u = unfold(load((CHAIN / "rr3_adaptive.yaml").relative_to(REPO)))
    assert u.plan.expected == Verdict.PROVED
    assert u.rendered.theorems == ("rr3_adaptive_dp",)
    text = u.rendered.text
    assert "Theorem rr3_adaptive_dp :\n  (forall Rs : list adaptive_round," in text
    assert "parts_fit nb_all 3 rr3_adaptive_groups rr3_adaptive_dgroups rr3_adaptive_kernels = true" in text
    assert "[(rr3_adaptive_d0, 2%nat); (rr3_adaptive_d1, 2%nat)]" in text
    assert "not_adp_chain_acc" not in text
    assert any("rows (a, b)" in n for n in u.plan.notes)


def test_a_false_adaptive_claim_is_refuted_by_the_fixed_chain() -> None:
    u = unfold(load((CHAIN / "rr3_adaptive_low.yaml").relative_to(REPO)))
    assert u.plan.expected == Verdict.REFUTED
    c = next(o for o in u.plan.obligations if isinstance(o, AccountantCheck))
    assert c.refuted and c.runs == 4
    w = witness(u)
    assert w is not None and "fixed (non-adaptive) sequence" in w["text"]
    text = u.rendered.text
    assert "Theorem rr3_adaptive_low_refuted :\n  ~ (forall Rs : list adaptive_round," in text
    assert "(not_adp_chain_acc nb_all" in text and "(adp_chain_acc nb_all" not in text


def test_a_part_without_a_dominating_pair_is_left_undecided(tmp_path: Path) -> None:
    code, out, err = run("prove", str(CHAIN / "tilted3_adaptive.yaml"), "--out", str(tmp_path / "out"),
                         "--build", str(tmp_path / "build"), "-q")
    assert code == 1, out + err
    assert "undecided: no shared dominating pair among its own pairs for compose[0] (tilted3)" in out
    assert "without `adaptive: true`" in out
    assert not (tmp_path / "out" / "tilted3_adaptive.json").exists()


def test_adaptive_must_be_a_bool(tmp_path: Path) -> None:
    for part in ("rr3_keep_2_3.yaml", "rr3_lean_c.yaml"):
        (tmp_path / part).write_text((CHAIN / part).read_text())
    data = yaml.safe_load((CHAIN / "rr3_adaptive.yaml").read_text())
    spec = tmp_path / "bad.yaml"
    spec.write_text(yaml.safe_dump(dict(data, adaptive="yes")))
    code, out, err = run("check", str(spec))
    assert code == 2 and "adaptive" in out + err


def _tolerance_spec(tmp_path: Path, tolerance: str) -> Path:
    for part in ("rr3_keep_2_3.yaml", "rr3_lean_c.yaml"):
        (tmp_path / part).write_text((CHAIN / part).read_text())
    data = yaml.safe_load((CHAIN / "rr3_adaptive.yaml").read_text())
    spec = tmp_path / "rr3_adaptive_tol.yaml"
    spec.write_text(yaml.safe_dump(dict(data, name="rr3_adaptive_tol", claim={"delta": "1/5", "tolerance": tolerance})))
    return spec


def test_the_smallest_epsilon_at_delta_is_bracketed_off_the_tolerance_grid(tmp_path: Path) -> None:
    """On the grid of 1/2 the point 5/2 lies inside the accountants' bracket of δ = 1/5 (neither
    side can tell); a grid of 1/4 gives ε = 11/4 proved and 9/4 refuted, still within 1/2."""
    u = unfold(load(_tolerance_spec(tmp_path, "1/2")))
    assert u.plan.expected == Verdict.PROVED
    c = next(o for o in u.plan.obligations if isinstance(o, AccountantCheck))
    assert c.proved == ((F(11, 4), F(1, 5)),) and c.refuted == ((F(9, 4), F(1, 5)),)
    assert set(u.rendered.theorems) == {"rr3_adaptive_tol_dp", "rr3_adaptive_tol_below"}


def test_a_tolerance_finer_than_the_bracket_is_refused_naming_it(tmp_path: Path) -> None:
    code, out, err = run("check", str(_tolerance_spec(tmp_path, "1/100")))
    assert code == 2 and "claim.tolerance" in out + err and "finer than the bracket" in out + err


def test_the_record_says_what_the_theorem_is_about() -> None:
    claim = load((CHAIN / "rr3_adaptive.yaml").relative_to(REPO)).claim.record()
    assert [p["runs"] for p in claim["adaptive"]["compose"]] == [2, 2]
    assert "every adaptive sequence" in claim["adaptive"]["about"]
    assert "compose" not in claim   # a non-adaptive chain's record is unchanged
    assert "compose" in load((CHAIN / "rr3_chain_low.yaml").relative_to(REPO)).claim.record()


def test_the_exact_lp_finds_a_point_or_says_there_is_none() -> None:
    one, zero = F(1), F(0)
    assert dom.feasible_point([[one, one], [one, -one]], [F(1), F(0)]) == [F(1, 2), F(1, 2)]
    assert dom.feasible_point([[one, one]], [F(-1)]) is None                  # x + y = -1, x, y >= 0
    assert dom.feasible_point([[one, zero], [one, zero]], [F(1), F(1)]) == [one, zero]   # redundant rows


def test_a_degenerate_kernel_lp_terminates() -> None:
    """4-ary randomized response against a uniform row: degenerate, where sympy's simplex stalled."""
    k = 4
    rows = [[F(1, 2) if y == x else F(1, 6) for y in range(k)] for x in range(k - 1)] + [[F(1, k)] * k]
    t = dom.kernel(rows[0], rows[1], rows[0], rows[k - 1])
    assert dom.kernel_fits(t, rows[0], rows[1], rows[0], rows[k - 1])
