"""Exact K-fold composition of the truncated α-geometric by its privacy-loss distribution
(`theories/Finite/PLD.v`, `PLDCheck.v`, `PLDTwo.v`), without the product table.

Every adjacent pair of rows of the truncated α-geometric over {0..n} has two loss values,
P(y) = α^(-1)·Q(y) or P(y) = α·Q(y), and P-mass 1/(1+α) on the first: its PLD has two
atoms, and the K-fold PLD is the binomial one.  `two_point_delta` is the exact curve δ(ε)
in Python (a hint: the bounds a file states); `render_tgeom_power` writes the Coq file in
which Coq checks every pair's loss keys, computes the K-th convolution power in outward-
rounded interval arithmetic and proves, at each ε, (ε, upper)-DP of `fmech_power` and the
refutation of (ε, lower) with the pair (x, x') = (⌊n/2⌋, ⌊n/2⌋ + 1) and the event
`loss_event` as witness.  The bench and the Coq tests use it; specs with
`composition: {runs: K}` go through `pld_route.py`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from obligations.core.names import COQ_IDENT
from obligations.core.terms import q_lit


@dataclass(frozen=True)
class PldClaim:
    """At e^eps: the K-fold composition is (eps, upper)-DP and not (eps, lower)-DP."""
    eps: int
    upper: Fraction
    lower: Fraction


def two_point_delta(m_up: Fraction, ratio: int, runs: int, eps: float, dps: int = 40) -> mpmath.mpf:
    """δ(ε) = Σ_j C(K, j) m^j (1 − m)^(K − j) max(0, 1 − e^ε · ratio^−(2j − K)): the K-fold
    composition of a pair whose P-mass m_up has loss ratio `ratio` and the rest 1/ratio."""
    with mpmath.workdps(dps):
        t = mpmath.exp(eps)
        m = mpmath.mpf(m_up.numerator) / m_up.denominator
        total = mpmath.mpf(0)
        for j in range(runs + 1):
            z = 2 * j - runs
            weight = 1 - t * mpmath.power(ratio, -z)
            if weight > 0:
                total += mpmath.binomial(runs, j) * m ** j * (1 - m) ** (runs - j) * weight
        return total


def bracket(delta: mpmath.mpf, digits: int = 3) -> tuple[Fraction, Fraction]:
    """(lower, upper): δ rounded down and up to `digits` significant decimal digits."""
    if delta <= 0:
        return Fraction(0), Fraction(1, 10 ** 12)
    scale = 10 ** (digits - 1 - int(mpmath.floor(mpmath.log10(delta))))
    lo = int(mpmath.floor(delta * scale))
    return Fraction(lo, scale), Fraction(lo + 1, scale)


def claims_for(alpha: Fraction, runs: int, epsilons: list[int], digits: int = 3) -> list[PldClaim]:
    ratio = alpha.denominator // alpha.numerator
    m_up = 1 / (1 + alpha)
    out = []
    for eps in epsilons:
        lo, up = bracket(two_point_delta(m_up, ratio, runs, eps), digits)
        out.append(PldClaim(eps, up, lo))
    return out


def render_tgeom_power(name: str, alpha: Fraction, n: int, runs: int, claims: list[PldClaim]) -> str:
    """The Coq file: (ε, upper)-DP and the refutation of (ε, lower) of the `runs`-fold
    composition of the truncated α-geometric over {0..n}, adjacent inputs (α = 1/b)."""
    if not COQ_IDENT.fullmatch(name):
        raise ValueError(f"not a Coq identifier: {name!r}")
    if alpha.numerator != 1 or alpha.denominator < 2 or n < 1 or runs < 0 or not claims:
        raise ValueError("needs alpha = 1/b with b >= 2, n >= 1, runs >= 0 and at least one claim")
    b = alpha.denominator
    x = n // 2
    items = "; ".join(f"({name}_t {c.eps}, {q_lit(c.upper)}, {q_lit(c.lower)})" for c in claims)
    head = f"""(** * {name}: the {runs}-fold composition of the truncated 1/{b}-geometric over {{0..{n}}}, by its PLD *)
From Obligations Require Import PreludePLD.

Definition {name}_M : fmech := tgeom_fmech (1 # {b}) {n}.
Definition {name}_t (e : Q) : I.type := I.exp prec (iq e).
Lemma {name}_t_ok (e : Q) : has ({name}_t e) (exp (Q2R e)).
Proof. exact (I.exp_correct prec (iq e) (Xreal (Q2R e)) (iq_correct e)). Qed.

(* Every row is a distribution; every adjacent pair has loss keys -1 and 1 (ratio {b}^±1). *)
Lemma {name}_pairs : (check_distr {name}_M && pairs2_ok nb_adjacent {name}_M {b} (-1) 1) = true.
Proof. vm_cast_no_check (eq_refl true). Qed.

(* The {runs}-fold PLD, in intervals: hs(e^eps) <= upper and > lower at each eps. *)
Definition {name}_claims : list (I.type * Q * Q) := [{items}].
Lemma {name}_pld : pld_checks {b} (-1) 2 (two_pld {b} (-1) 1) {runs} {name}_claims = true.
Proof. vm_cast_no_check (eq_refl true). Qed.
"""
    parts = [head]
    for i, c in enumerate(claims):
        up, lo = q_lit(c.upper), q_lit(c.lower)
        pick = f"ltac:(do {i} right; left; reflexivity)"
        parts.append(f"""
Theorem {name}_dp_{i} : dp nb_adjacent (fmech_power {name}_M {runs}) (Q2R {c.eps}) (Q2R {up}).
Proof.
  destruct (andb_prop _ _ {name}_pairs) as [H1 H2].
  destruct (pld_checks_spec _ _ _ _ _ _ ({name}_t {c.eps}) {up} {lo} {name}_pld {pick}) as [Hup _].
  assert (He : (0 <= Q2R {c.eps})%R) by (rewrite <- q2r_0; apply Qle_Rle; discriminate).
  assert (Hd : (0 <= {up})%Q) by discriminate.
  exact (dp_power_pld2 nb_adjacent {name}_M {b} (-1) 1 {runs} (Q2R {c.eps}) ({name}_t {c.eps}) {up}
           H1 H2 He Hd ({name}_t_ok {c.eps}) Hup).
Qed.

Theorem {name}_refuted_{i} :
  let S := loss_event (fmech_power {name}_M {runs}) {x} {x + 1} (exp (Q2R {c.eps})) in
  (exp (Q2R {c.eps}) * pr (fmech_power {name}_M {runs}) {x + 1} S + Q2R {lo} <
   pr (fmech_power {name}_M {runs}) {x} S)%R /\\
  ~ dp nb_adjacent (fmech_power {name}_M {runs}) (Q2R {c.eps}) (Q2R {lo}).
Proof.
  destruct (andb_prop _ _ {name}_pairs) as [H1 H2].
  destruct (pld_checks_spec _ _ _ _ _ _ ({name}_t {c.eps}) {up} {lo} {name}_pld {pick}) as [_ Hlo].
  assert (Hp : pair2_ok_rows (rows {name}_M) {b} (-1) 1 {x} {x + 1} = true) by (vm_cast_no_check (eq_refl true)).
  exact (not_dp_power_pld2 nb_adjacent {name}_M {b} (-1) 1 {runs} (Q2R {c.eps}) ({name}_t {c.eps}) {lo} {x} {x + 1} H1
           ltac:(apply Nat.ltb_lt; vm_compute; reflexivity) ltac:(apply Nat.ltb_lt; vm_compute; reflexivity)
           (eq_refl true) (eq_refl true) Hp ({name}_t_ok {c.eps}) Hlo).
Qed.
""")
    # The theorems differ only in their claim and rest on the same lemmas: one pair is audited
    # (each Print Assumptions walks the interval library, about 3.5 s).
    parts.append(f"\nSet Printing Width 100000.\nPrint Assumptions {name}_dp_0.\nPrint Assumptions {name}_refuted_0.\n")
    return "".join(parts)


def fits_in_floats(runs: int, b: int) -> bool:
    """The interval evaluation needs b^(±runs) inside the binary64 range (about 2^±1023)."""
    return runs * math.log2(b) < 1000
