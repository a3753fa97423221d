"""Refutations under continuous Laplace noise, rendered by a route (no Coq): the search over
the reals finds badsparsevector1's event impossible from the neighbour and renders the
negation of the claim it was given (every stream length, or one); badpartialsum's violation
is a ratio (an event possible from both inputs, its probability from one above e^eps times
the other's: a box against a tail), rendered with RealRatio.v's lemma; badsparsevector2's
against a union of products of tails cut on the threshold's noise (RatioCover.v); private
programs get no witness, and a buggy one whose neighbour's runs nothing of this holds is
undecided."""
from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

import yaml

from obligations.core.obligation import Verdict
from obligations.core.templates import ANALYSIS_PRELUDES
from obligations.models import load, unfold
from obligations.program.align import spec as S
from obligations.program.align.spec import AlignSpec
from obligations.program.refute import ratio, real
from obligations.program.refute.real_route import BY_REAL_COUNTEREXAMPLE, record
from obligations.program.refute.render_laplace import PRELUDE, PRELUDE_COVER, PRELUDE_RATIO, render
from obligations.program.refute.route import DISCRETE_ONLY

REPO = Path(__file__).resolve().parent.parent.parent
CHECKDP = REPO / "mechanisms" / "checkdp"
SHIPPED = CHECKDP / "badsparsevector1_laplace.yaml"


def _spec(tmp_path: Path, text: str) -> AlignSpec:
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return S.check(yaml.safe_load(text), str(p), hashlib.sha256(text.encode()).hexdigest())


def _continuous(name: str, claim: str = "{for_all_k: true}") -> str:
    text = (CHECKDP / f"{name}.yaml").read_text().replace("geometric:", "laplace:")
    return text.replace("claim: {for_all_k: true}", f"claim: {claim}")


def test_badsparsevector1_is_refuted_for_every_length_by_its_failure_at_length_2() -> None:
    s = load(SHIPPED)
    assert isinstance(s, AlignSpec) and s.continuous and s.length is None
    a = BY_REAL_COUNTEREXAMPLE.analyse(s)
    assert a is not None and a.plan.expected == Verdict.REFUTED
    w = a.mechanism
    # T = 0, q = (0, 1) releases (0, 1) when T_bar lies in (0, 1]; from q' = (0, 0) it needs 0 < T_bar <= 0
    assert (w.k, w.x, w.x2, w.event) == (2, (0, 0, 1), (0, 0, 0), (0, 1))
    assert w.box == ((Fraction(1, 4), Fraction(3, 4)),)
    r = BY_REAL_COUNTEREXAMPLE.render(s, a)
    assert r.theorems == ("badsparsevector1_laplace_not_rdp_all_k",)
    assert "Theorem badsparsevector1_laplace_not_rdp_all_k : ~ rdp_all_k badsparsevector1_laplace_nb " \
           "badsparsevector1_laplace_prog 6 1%R." in r.text
    assert "(H 2%nat)" in r.text and r.uses_analysis() and PRELUDE in ANALYSIS_PRELUDES
    assert any("for every stream length: it fails at length 2" in n for n in a.plan.notes)


def test_a_claim_at_one_length_is_negated_at_that_length(tmp_path: Path) -> None:
    s = _spec(tmp_path, _continuous("badsparsevector1", "{stream_length: 2}"))
    a = BY_REAL_COUNTEREXAMPLE.analyse(s)
    assert a is not None and a.plan.expected == Verdict.REFUTED
    r = render(s, a.mechanism)
    assert r.theorems == ("badsparsevector1_not_rdp",)
    assert ("Theorem badsparsevector1_not_rdp : ~ rdp_prog badsparsevector1_nb (badsparsevector1_prog 2) 6 1%R."
            in r.text)
    assert "rdp_all_k" not in r.text


def test_at_length_1_badsparsevector1_is_not_refuted(tmp_path: Path) -> None:
    """One threshold test of one noise value: private at length 1 (ratio at most e^(eps/2))."""
    s = _spec(tmp_path, _continuous("badsparsevector1", "{stream_length: 1}"))
    assert real.search(s) is None


def test_an_output_without_noise_is_an_event_with_any_value_elsewhere(tmp_path: Path) -> None:
    """badsmartsum releases sum + q_i without noise at every other answer: the event fixes that
    output and leaves the noisy one free (`_`)."""
    s = _spec(tmp_path, _continuous("badsmartsum"))
    w = real.search(s)
    assert w is not None and w.k == 2 and w.event == (None, 0)
    assert "Some [_; ROVal a1] => reqb a1 0%R" in render(s, w).text


def test_a_private_program_gets_no_witness(tmp_path: Path) -> None:
    assert real.search(_spec(tmp_path, _continuous("noisymax"))) is None


def test_badpartialsum_is_refuted_by_a_ratio_at_length_1() -> None:
    """sum + Lap(1/(2 eps)): every output is possible from both inputs; the event "released
    value >= 0" has probability at least P(eps)·e^(-3/4·eps) from q = (0) (the box [1/8, 3/8])
    and at most e^(-2·eps) from q' = (-1) (the noise at least 1): at eps = 4 the ratio
    exceeds e^eps (RealRatio.v's not_rdp_of_rratio)."""
    s = load(CHECKDP / "badpartialsum_laplace.yaml")
    assert isinstance(s, AlignSpec) and s.continuous
    a = BY_REAL_COUNTEREXAMPLE.analyse(s)
    assert a is not None and a.plan.expected == Verdict.REFUTED
    w = a.mechanism
    assert (w.k, w.x, w.x2, w.event) == (1, (0,), (-1,), (real.Half(True, Fraction(0)),))
    assert w.ratio is not None and w.ratio.tails == ((True, Fraction(1)),)
    assert w.ratio.b - w.ratio.a > s.factor and w.ratio.eps == 4
    r = BY_REAL_COUNTEREXAMPLE.render(s, a)
    assert r.theorems == ("badpartialsum_laplace_not_rdp_all_k",) and r.uses_analysis()
    assert PRELUDE_RATIO in r.text and PRELUDE_RATIO in ANALYSIS_PRELUDES
    assert "Some [ROVal a0] => rleb 0%R a0" in r.text and "rincyl v [(tge 1%R)]" in r.text
    assert "not_rdp_of_rratio" in r.text and "_unreached" not in r.text
    assert BY_REAL_COUNTEREXAMPLE.witness(unfold(s))["tails"] == [">= 1"]   # type: ignore[index]


def _holds(a: real.Atom, v: tuple[Fraction, ...]) -> bool:
    val = sum((c * t for c, t in zip(a.lin, v, strict=False)), Fraction(a.lin[-1]))
    return val > 0 if a.strict else val >= 0


def test_badsparsevector2_is_refuted_by_a_ratio_against_pieces_of_the_thresholds_noise() -> None:
    """At length 3, T = 0, q = (0, 0, 0) releases (1, 1, 0) on a box near 0; from
    q' = (-1, -1, 1) it needs η1, η2 ≥ η0 + 1 and η3 < η0 - 1, unbounded in each position
    alone.  Cut on η0, each piece lies in a product of tails: every product's exponent beats
    A + 1, and P(ε) ≥ N at the witness's ε (the arithmetic `not_rdp_of_rcover` asks of Coq);
    sampled tapes of the neighbour's runs into the event lie in the product of the piece their
    pivot falls in (what `rrcover` proves in Coq).  (The route's `analyse` runs the alignment
    search first: 6 s of CPU, left out.)"""
    s = load(CHECKDP / "badsparsevector2_laplace.yaml")
    assert isinstance(s, AlignSpec) and s.continuous and s.length is None
    w = ratio.search(s)
    assert w is not None and (w.k, w.x, w.x2, w.event) == (3, (0, 0, 0, 0), (0, -1, -1, 1), (1, 1, 0))
    r = w.ratio
    assert r is not None and r.pivot == 0 and len(r.pieces) == len(r.cuts) + 1
    assert list(r.cuts) == sorted(r.cuts)
    wts = ratio._weights(s, w.k)
    assert all(ratio.exponent(p, wts) > r.a + s.factor for p in r.pieces)
    poly = Fraction(1)
    for (lo, hi), wt in zip(w.box, wts, strict=True):
        poly *= (hi - lo) * r.eps * wt / 2
    assert poly >= len(r.pieces)
    text = render(s, w).text
    assert PRELUDE_COVER in text and PRELUDE_COVER in ANALYSIS_PRELUDES
    assert "not_rdp_of_rcover" in text and "rrcover v0 [" in text and "_tails" not in text
    assert record(w)["pivot"] == 0 and len(record(w)["pieces"]) == len(r.pieces)
    regs = ratio.regions(real.SymExec(s, w.k).paths(w.x2), w.event, len(w.box))
    hits = 0
    for t0 in (Fraction(i, 4) for i in range(-12, 13)):
        for t1, t3 in ((t0 + 1, t0 - 1), (t0 + 2, t0 - 3), (t0 + 1, t0 - 2)):
            v = (t0, t1, t1 + Fraction(1, 2), t3)
            if any(all(_holds(a, v) for a in reg) for reg in regs):
                hits += 1
                prod = r.pieces[sum(1 for c in r.cuts if c < t0)]
                assert all(t is None or (x >= t[1] if t[0] else x <= t[1]) for x, t in zip(v, prod, strict=True))
    assert hits > 40


def test_no_product_of_tails_holds_the_neighbours_runs_undecided_with_the_discrete_counterexample_named(
        tmp_path: Path) -> None:
    """badsparsevector2 at length 2: the run from q' into "outputs (1, 0)" needs the answers'
    noise above and below the threshold's, a region no product of tails holds (the threshold's
    noise is unbounded there), and the pieces cut on it do no better than exponent 1 (the
    neighbour's tapes nearest 0 cost ε/2 per answer): undecided, nothing claimed.  (For every
    stream length the message also names the discrete form's counterexample as such,
    DISCRETE_ONLY: 7.6 s of CPU, left out.)"""
    s = _spec(tmp_path, _continuous("badsparsevector2", "{stream_length: 2}"))
    assert real.search(s) is None and ratio.search(s) is None and BY_REAL_COUNTEREXAMPLE.analyse(s) is None
    u = unfold(s)
    assert u.plan.expected == Verdict.UNDECIDED
    assert any("no alignment found" in n and "nothing is claimed" in n for n in u.plan.notes)
    assert "Theorem" not in u.rendered.text
    assert "or reached from the neighbour only on a product of tails" in DISCRETE_ONLY


def test_private_programs_get_no_ratio_witness(tmp_path: Path) -> None:
    """partialsum and prefixsum under Laplace noise (eps-DP): no event, box and tails compare."""
    for name in ("partialsum", "prefixsum"):
        assert ratio.search(_spec(tmp_path, _continuous(name))) is None


def test_linear_feasibility_keeps_strict_and_non_strict_apart() -> None:
    t = (1, 0)                     # t > 0 and t <= 0: empty; t >= 0 and t <= 0: the point 0
    assert not real.feasible([real.Atom(t, True), real.Atom((-1, 0), False)], 1)
    assert real.feasible([real.Atom(t, False), real.Atom((-1, 0), False)], 1)
    assert real.interior([real.Atom(t, False), real.Atom((-1, 0), False)], 1) is None
    assert real.interior([real.Atom((1, 0), True), real.Atom((-1, 1), True)], 1) == (Fraction(1, 2),)
