"""Binary snapping at concrete parameters by the two-sided theorem (obligations/float/binary64_two.py):
what a diffprivlib user tried, epsilon = 0.5 on [0, 10] (mechanisms/diffprivlib_snapping_half_eps.yaml),
is beyond float_snap_dp_tight's K and proved through
float_snap_dp_two_correct, its file stating the tight route's theorem word for word; with numpy.log
(a log within 1 ulp) the file goes through float_snap_dp_two_log.  A claim just below what the
theorem gives (0.05 eta below 1/lambda + ln K) is undecided by Python, and its file forced through Coq
(K = e^(claim's room)) is refused at the conditions of an input below a bucket, the region that
needs the largest K.  (The proved files compile in about 22 s CPU, most of it the audit's
`Print Assumptions`: `prove` runs them, not this test; their renders are golden files.)"""
from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from coqrun import coqc

from obligations.core.obligation import Verdict
from obligations.float.binary64 import analyse
from obligations.float.binary64_document import render as render_tight
from obligations.float.binary64_spec import ETA
from obligations.float.binary64_two import render as render_two
from obligations.float.binary64_two_hints import two_point
from obligations.models import load, unfold

SPECS = Path(__file__).resolve().parents[1] / "specs" / "binary64"
HALF = Path(__file__).resolve().parents[2] / "mechanisms" / "diffprivlib_snapping_half_eps.yaml"
HALF_NUMPY = SPECS / "diffprivlib_snapping_half_eps_numpy_log.yaml"


def _theorem(text: str) -> str:
    """The claim's theorem as the file states it (up to its proof)."""
    return text[text.index("Theorem "):].split("Proof.")[0]


def test_the_users_claim_goes_through_the_two_sided_theorem_with_the_same_statement() -> None:
    u = unfold(load(HALF))
    assert u.plan.expected == Verdict.PROVED and u.route is not None
    assert u.route.name == "for binary64, by the two-sided theorem"
    assert "From Obligations Require Import PreludeBinaryTwoSided." in u.rendered.text
    assert "float_snap_dp_two_correct 53 (-1074)" in u.rendered.text
    assert u.hint() == {"theorem": "float_snap_dp_two_correct", "library_file": "theories/Float/SnapTwoSidedDP.v",
                        "K": "exp(249/10 * eta)", "sl": str(u.spec.scale / 2 ** 100)}
    # the tight route's K is above the claim; its file would state the same theorem
    tight = analyse(u.spec)
    assert not tight.provable
    assert _theorem(render_tight(tight).text) == _theorem(u.rendered.text)


def test_with_numpy_log_the_file_takes_the_log_within_one_ulp() -> None:
    u = unfold(load(HALF_NUMPY))
    assert u.plan.expected == Verdict.PROVED
    assert "float_snap_dp_two_log 53 (-1074)" in u.rendered.text
    assert "rel_within diffprivlib_snapping_half_eps_numpy_log_mu (ln v) (lnf v)" in _theorem(u.rendered.text)
    # the user's own 0.5 is undecided with numpy.log: the two-sided theorem needs 36 eta, diffprivlib leaves 32
    user = unfold(replace(u.spec, loss=Fraction(1, 2), claim_text="0.5"))
    assert user.plan.expected == Verdict.UNDECIDED
    assert "the two-sided theorem (float_snap_dp_two_log) needs ln K = 36.0171 eta" in user.plan.notes[0]


def test_a_claim_just_below_the_theorem_is_undecided_and_coq_refuses_it(tmp_path: Path) -> None:
    spec = load(HALF)
    needed = Fraction(two_point(spec).needed)
    below = replace(spec, loss=1 / spec.scale + (needed - Fraction(1, 20)) * ETA, claim_text="1/lambda + ln K - eta/20")
    u = unfold(below)
    assert u.plan.expected == Verdict.UNDECIDED and "undecided by it too" in u.plan.notes[0]
    t = two_point(below)
    assert not t.provable and t.c == (needed - Fraction(1, 20))
    text = render_two(below, t).text
    run = coqc(tmp_path, below.name, text)
    assert run.returncode != 0
    line = int(re.search(r"line (\d+),", run.stderr).group(1))
    lemmas = [x for x in text.splitlines()[:line] if x.startswith("Lemma ")]
    assert lemmas[-1].startswith(f"Lemma {below.name}_two_below :"), run.stderr


def test_an_odd_integer_lambda_and_a_clamp_below_half_the_grid(tmp_path: Path) -> None:
    """lambda = 1 (its format lemma at exponent 0) and B = 9/10 < Lambda/2 (two_near's max is 0): the
    file's lemmas up to the conditions compile (the conditions as for any spec)."""
    spec = replace(load(HALF), scale=Fraction(1), grid=Fraction(2), grid_auto=False, bound=Fraction(9, 10),
                   user_epsilon=None, loss=1 + 17 * ETA, claim_text="1 + 17 eta")
    t = two_point(spec)
    assert t.provable and not t.near_first and not analyse(spec).provable
    text = render_two(spec, t).text
    head = text[:text.index("Ltac ")]
    assert "change (bpow radix2 0) with 1. lra." in head and "rewrite Rmax_right" in head
    run = coqc(tmp_path, spec.name, head)
    assert run.returncode == 0, run.stderr


def test_a_grid_finer_than_ln2_lambda_is_not_the_two_sided_theorems() -> None:
    """Lambda = lambda/2: the tight route's premises hold, the two-sided theorem's (buckets wider than
    ln 2 * lambda) do not, so a claim below the tight K stays undecided, with the reason."""
    spec = replace(load(HALF), scale=Fraction(1), grid=Fraction(1, 2), grid_auto=False, bound=Fraction(10),
                   user_epsilon=None, loss=1 + 200 * ETA, claim_text="1 + 200 eta")
    assert not two_point(spec).provable
    u = unfold(spec)
    assert u.plan.expected == Verdict.UNDECIDED and "the two-sided theorem (float_snap_dp_two_correct) does not apply" \
        in u.plan.notes[0]
