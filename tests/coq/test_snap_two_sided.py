"""The two refinements of the binary snapping bound, used at one point (theories/Float/SnapTwoSidedDP.v).

`float_snap_dp_two_correct` bounds every output's ratio by e^(|x - x'|/lambda)*K, K the largest of the
conditions of SnapTwoSidedCond.v at the displacement bounds of SnapTwoSidedDP.v (U*'s factor at one end
per sign, each input's own distance to each end, the clamped outputs with U*'s factor once).  At
lambda = 1, Lambda = 2*lambda, B = 2*lambda (binary64, a correctly rounded log) its K is about
e^(21.0*eta) (`python bench/snap_refined_bound.py --coq` prints the arithmetic): the seed's
12*eta*B/lambda + 2*eta = 26*eta follows there (snap_two_sided/seed_at_beta_2.v), which
`float_snap_dp_tight` (about 31.5*eta at these parameters) does not give.  Against 20.9*eta the
condition of an input inside a bucket (the largest here) is refused: the route is not slack in the
wrong direction."""
from __future__ import annotations

from pathlib import Path

from coqrun import coqc

INSTANCE = Path(__file__).resolve().parent / "snap_two_sided" / "seed_at_beta_2.v"
SEED = "Definition tw_K : R := exp (26 * eta 53)."


def test_the_seed_constant_follows_at_beta_2_from_the_two_sided_route(tmp_path: Path) -> None:
    text = INSTANCE.read_text(encoding="utf-8")
    assert text.count(SEED) == 1 and "exp (Rabs (x - x') / 1 + 26 * eta 53)" in text
    done = coqc(tmp_path, "TwoSidedSeed", text)
    assert done.returncode == 0, done.stderr + done.stdout


def test_a_constant_below_what_the_route_gives_is_refused(tmp_path: Path) -> None:
    text = INSTANCE.read_text(encoding="utf-8")
    # the prelude and the inside condition only, at 20.9*eta
    below = text[:text.index("Lemma tw_below")] + text[text.index("Lemma tw_inside"):text.index("Lemma tw_clamped")]
    done = coqc(tmp_path, "TwoSidedBelow", below.replace(SEED, "Definition tw_K : R := exp ((209 / 10) * eta 53)."))
    assert done.returncode != 0
    assert "Numerical evaluation failed to conclude" in done.stderr + done.stdout
