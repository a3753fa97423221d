"""Real Coq: seed 004's relative-error semantics (theories/Float/RelError.v, RelSemantics.v), the noise
factor, the outer and inner intervals of a snapping output (SnapNoise.v, SnapOuter.v), the probability
of an interval under Mironov's U* (UStarMeasure.v) and of one output (SnapOutput.v, SnapInterior.v,
SnapClamp.v), the ratios (SnapRatio.v, SnapTailRatio.v), the assembled bound (SnapFloatDP.v) and its
range premise from the parameters (SnapPipeline.v) and its closed form in binary64 for all parameters in
range (SnapBinary64.v) are proved on Flocq and rest only on the allow-listed axioms of the reals; a rule
without its range premise derives nothing (a cancelling subtraction, where the seed's OP rule derives an
interval)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from coqrun import coqc

from obligations.certify import allowlist
from obligations.prover.coq import assumption_names

THEOREMS = ["derives_sound", "derives_sound_real", "ln_rel_of_correct", "rnd_rel_within", "noise_rel_within",
            "outer_interval", "inner_interval", "outer_below", "outer_above", "inner_below", "inner_above",
            "rnd_plus_rel_within", "uprob_inner_len",
            "ustar_bracket", "ustar_is_rdn", "ustar_prob_upper", "ustar_prob_lower", "ustar_ln_upper", "ustar_ln_lower",
            "ustar_ln_below_upper", "ustar_ln_below_lower", "ustar_ln_above_upper", "ustar_ln_above_lower",
            "output_prob_upper", "output_prob_lower", "interior_prob_upper", "interior_prob_lower",
            "top_prob_upper", "top_prob_lower", "bottom_prob_upper", "bottom_prob_lower",
            "ustar_ln_upper_ulen", "ustar_ln_lower_ulen", "output_prob_upper_mass", "output_prob_lower_mass",
            "moved_le_snap_mass", "snap_mass_le_narrowed", "output_ratio_of_mass_bound",
            "snap_mass_widen", "output_ratio", "interior_ratio",
            "top_ratio", "bottom_ratio", "clamp_top_ratio", "clamp_bottom_ratio", "float_snap_dp",
            "ustar_format", "ustar_le", "ln_ustar_le", "pipeline_ok_of_log", "pipeline_ok_of_log_bpow",
            "correct_log_within", "pipeline_ok_correct", "pipeline_ok_binary64_log", "pipeline_ok_binary64_correct",
            "snap64_K_le", "snap_binary64_dp", "snap_binary64_dp_correct", "snap_binary64_dp_ulps"]


_HEADER = ("From Coq Require Import ZArith Reals Lra.\n"
           "From Obligations.Float Require Import RelError RelSemantics SnapNoise SnapOuter.\n"
           "From Obligations.Float Require Import UStarMeasure SnapOutput SnapInterior SnapClamp SnapRatio\n"
           "  SnapTailRatio SnapFloatDP SnapPipeline SnapBinary64.\n"
           "Set Printing Width 100000.\n")


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "Rel", _HEADER + body)


def test_semantics_rests_only_on_allowed_axioms(tmp_path: Path) -> None:
    # One `Print Assumptions` of the tuple of all the theorems: the union of their assumptions,
    # in one traversal of the library instead of one per theorem.
    done = _coqc(tmp_path, f"Definition audit_all := ({', '.join(THEOREMS)}).\nPrint Assumptions audit_all.\n")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


# Each statement test's Coq text: all of them in one file, compiled once (`statements`).
PIECES = {
    'soundness_states_the_seeds_theorem': (
        'Check (derives_sound : forall prec emin, (0 < prec)%Z -> forall choice lnf mu, (0 <= mu)%R ->\n'
        '  (forall v, (0 < v)%R -> (normal_min prec emin <= Rabs (ln v))%R -> rel_within mu (ln v) (lnf v)) ->\n'
        '  forall e lo hi, derives prec emin mu e lo hi ->\n'
        '  (lo <= float_eval prec emin choice lnf e <= hi)%R).\n'
    ),
    'pipeline_ok_needs_nothing_of_a_correctly_rounded_log': (
        'Check (pipeline_ok_binary64_correct : forall choice (lam : R), (powerRZ 2 (-968) <= lam)%R ->\n'
        '  pipeline_ok 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) (eta 53) lam).\n'
        'Check (pipeline_ok_binary64_log : forall choice (lnf : R -> R) (mu lam : R), (0 <= mu <= / 2)%R ->\n'
        '  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> (0 < v < 1)%R ->\n'
        '     rel_within mu (ln v) (lnf v)) ->\n'
        '  (powerRZ 2 (-968) <= lam)%R -> pipeline_ok 53 (-1074) choice lnf mu lam).\n'
    ),
    'cancelling_subtraction_has_no_derivation': (
        'Lemma no_derivation : forall prec emin mu lo hi,\n'
        '  ~ derives prec emin mu (EOp OSub (EInput 1) (EInput 1)) lo hi.\n'
        'Proof.\n'
        "  intros prec emin mu lo hi H. inversion H as [| |o e1 e2 l1 h1 l2 h2 lo' hi' D1 D2 Hbox Hn| ]; subst.\n"
        '  inversion D1; inversion D2; subst.\n'
        '  assert (Hb := Hbox 1%R 1%R (conj (Rle_refl _) (Rle_refl _)) (conj (Rle_refl _) (Rle_refl _))).\n'
        '  simpl in Hb. assert (0 < normal_min prec emin)%R by apply bpow_gt_0.\n'
        '  destruct Hn; lra.\n'
        'Qed.\n'
    ),
    'ustar_brackets_the_log_interval': (
        'Check (ustar_ln_lower : forall prec emin, (1 < prec)%Z ->\n'
        '  forall pr, uprob pr -> forall c d, (normal_min prec emin <= exp c)%R -> (d <= 0)%R ->\n'
        '  (exp d - exp c / (1 - 2 * eta prec) <= pr (fun U => c <= ln (ustar prec emin U) <= d))%R).\n'
        'Check (ustar_ln_upper : forall prec emin, (1 < prec)%Z ->\n'
        '  forall pr, uprob pr -> forall c d, (normal_min prec emin <= exp c)%R -> (c <= d)%R ->\n'
        '  (pr (fun U => c <= ln (ustar prec emin U) <= d) <= exp d / (1 - 2 * eta prec) - exp c)%R).\n'
    ),
    'the_probability_premise_is_satisfiable': (
        'Check (uprob_inner_len : uprob inner_len).\n'
    ),
    'interior_output_is_its_bucket': (
        'Check (float_snap_interior_iff TiesUp : forall grid B k w, (0 < grid)%R -> (- B < grid * IZR k < B)%R ->\n'
        '  float_snap TiesUp grid B w = (grid * IZR k)%R <->\n'
        '  ((IZR k - / 2) * grid <= w < (IZR k + / 2) * grid)%R).\n'
    ),
    'the_bound_states_the_claim': (
        'Check (float_snap_dp : forall prec emin, (1 < prec)%Z -> forall choice lnf mu, (0 <= mu)%R ->\n'
        '  forall pr, uprob pr -> forall t grid B g lam delta,\n'
        '  (0 < grid)%R -> (0 < B)%R -> ((IZR g - 1) * grid < B <= IZR g * grid)%R ->\n'
        '  pipeline_ok prec emin choice lnf mu lam -> (0 <= delta)%R ->\n'
        '  (eta prec * (B + grid) + noise_mu prec mu * (2 * B + grid + eta prec * (B + grid)) < delta)%R ->\n'
        '  (normal_min prec emin <= exp (- (2 * B + grid + delta) / lam))%R ->\n'
        '  (ratio_E prec lam delta * ratio_E prec lam delta < exp (grid / lam))%R ->\n'
        "  forall x x' out, generic_format radix2 (FLT_exp emin prec) x ->\n"
        "  generic_format radix2 (FLT_exp emin prec) x' -> (Rabs x <= B)%R -> (Rabs x' <= B)%R ->\n"
        '  (snap_output_prob prec emin choice lnf pr lam x (fun w => float_snap t grid B w = out) <=\n'
        "   exp (Rabs (x - x') / lam) * snap_K prec lam grid delta *\n"
        "   snap_output_prob prec emin choice lnf pr lam x' (fun w => float_snap t grid B w = out))%R).\n"
    ),
    'the_closed_form_states_the_claim': (
        'Check (snap_binary64_dp : forall (mu m : R) choice lnf pr (t : tie) (lam grid B : R),\n'
        '  (0 <= mu)%R -> (mu <= m * eta 53)%R -> (m <= 2 ^ 22)%R ->\n'
        '  uprob pr -> pipeline_ok 53 (-1074) choice lnf mu lam ->\n'
        '  (lam <= grid <= 2 * lam)%R -> (0 < B <= 353 * lam)%R ->\n'
        "  forall x x' out, generic_format radix2 (FLT_exp (-1074) 53) x ->\n"
        "  generic_format radix2 (FLT_exp (-1074) 53) x' -> (Rabs x <= B)%R -> (Rabs x' <= B)%R ->\n"
        '  (snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=\n'
        "   exp (Rabs (x - x') / lam + (22 + 9 * m) * eta 53 * (B / lam) + (39 + 9 * m) * eta 53) *\n"
        "   snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out))%R).\n"
        'Check (snap_binary64_dp_correct : forall choice lnf pr (t : tie) (lam grid B : R),\n'
        '  uprob pr -> pipeline_ok 53 (-1074) choice lnf (eta 53) lam ->\n'
        '  (lam <= grid <= 2 * lam)%R -> (0 < B <= 353 * lam)%R ->\n'
        "  forall x x' out, generic_format radix2 (FLT_exp (-1074) 53) x ->\n"
        "  generic_format radix2 (FLT_exp (-1074) 53) x' -> (Rabs x <= B)%R -> (Rabs x' <= B)%R ->\n"
        '  (snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=\n'
        "   exp (Rabs (x - x') / lam + 31 * eta 53 * (B / lam) + 48 * eta 53) *\n"
        "   snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out))%R).\n"
    ),
}
EXTRA_REQUIRES = 'From Flocq Require Import Core.Core.\nFrom Obligations.Noise Require Import Rounding.\n'


class Statements:
    """The statement tests' pieces compiled in one coqc run (one load of the library files
    instead of one per test); a piece is accepted if the run got past it."""

    def __init__(self, done: subprocess.CompletedProcess[str], lines: dict[str, range]) -> None:
        self.done, self.lines = done, lines

    def assert_ok(self, test: str) -> None:
        out = self.done.stderr + self.done.stdout
        if self.done.returncode == 0:
            return
        m = re.search(r"line (\d+),", out)
        failed = int(m.group(1)) if m else 0
        assert failed >= self.lines[test[5:]].stop, out    # this piece, or one before it, failed


@pytest.fixture(scope="module")
def statements(tmp_path_factory: pytest.TempPathFactory) -> Statements:
    text, lines = EXTRA_REQUIRES, {}
    header = _HEADER.count("\n")
    for name, piece in PIECES.items():
        start = header + text.count("\n") + 1
        text += piece
        lines[name] = range(start, header + text.count("\n") + 1)
    return Statements(_coqc(tmp_path_factory.mktemp("rel"), text), lines)


def test_soundness_states_the_seeds_theorem(statements: Statements) -> None:
    """The theorem's premises are the logarithm's error bound; its conclusion, the float value in the interval."""
    statements.assert_ok("test_soundness_states_the_seeds_theorem")


def test_pipeline_ok_needs_nothing_of_a_correctly_rounded_log(statements: Statements) -> None:
    """binary64: the correctly rounded ln and lambda >= 2^-968 give pipeline_ok, with no premise on the log;
    a log within mu <= 1/2 needs its error on the floats of (0, 1) only."""
    statements.assert_ok("test_pipeline_ok_needs_nothing_of_a_correctly_rounded_log")


def test_cancelling_subtraction_has_no_derivation(statements: Statements) -> None:
    """1 - 1 = 0 is not normal: no interval at all is derivable for it (the seed's OP rule
    would give the interval (0/(1+η), 0·(1+η)) from the real value alone)."""
    statements.assert_ok("test_cancelling_subtraction_has_no_derivation")


def test_ustar_brackets_the_log_interval(statements: Statements) -> None:
    """Pr[c <= ln u <= d] under U* is bracketed by e^d - e^c with relative factors 1/(1 - 2η) at the
    ends, for every probability that is monotone and gives intervals their length."""
    statements.assert_ok("test_ustar_brackets_the_log_interval")


def test_the_probability_premise_is_satisfiable(statements: Statements) -> None:
    """Every bound is stated for any monotone set function giving intervals their length; one
    exists (the inner length), so the premise uprob cannot make the theorems vacuous."""
    statements.assert_ok("test_the_probability_premise_is_satisfiable")


def test_interior_output_is_its_bucket(statements: Statements) -> None:
    """The float mechanism's interior output kΛ is the rounded sum in the half-open bucket its tie
    rule gives (ties up: [kΛ − Λ/2, kΛ + Λ/2))."""
    statements.assert_ok("test_interior_output_is_its_bucket")



def test_the_bound_states_the_claim(statements: Statements) -> None:
    """float_snap_dp's statement: every output's probability ratio between floats |x|, |x'| <= B is
    at most e^(|x - x'|/λ)·K, the range conditions as premises and nothing else assumed."""
    statements.assert_ok("test_the_bound_states_the_claim")


def test_the_closed_form_states_the_claim(statements: Statements) -> None:
    """snap_binary64_dp's statement: for ALL lambda, Lambda in [lambda, 2 lambda], B in (0, 353 lambda] and a
    log within mu <= m*eta, every output's ratio is at most e^(|x - x'|/lambda + (22 + 9m) eta B/lambda +
    (39 + 9m) eta); only uprob and pipeline_ok remain premises (delta and g are chosen inside)."""
    statements.assert_ok("test_the_closed_form_states_the_claim")
