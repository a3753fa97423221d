"""The Kairouz–Oh–Viswanath bound certified for concrete (ε0, k) (`theories/Finite/KOV.v`).

Coq proves once (`dp_power_kov`) that the k-fold composition `fmech_power M k` of EVERY finite
mechanism M whose rows are distributions and which is (ε0, 0)-DP for a symmetric neighbour
relation is (ε, δ)-DP when δ is at least the KOV sum
    δ_KOV(ε) = Σ_i C(k, i) · max(0, r^(k−i) − e^ε · r^i) / (1 + r)^k,   r = e^ε0,
the hockey-stick divergence of k-fold binary randomized response with ratio r.  For concrete
numbers `render_kov` writes a file in which Coq evaluates that sum in outward-rounded interval
arithmetic (`kov_le_check`) and proves, at each ε, the claim (ε, upper) about every such M, and
refutes (ε, lower): randomized response with keep probability p, p/(1 − p) = r' ≤ e^ε0
(r' = r when r is rational, a rational just below it otherwise), is (ε0, 0)-DP and its k-fold
composition violates (ε, lower) on its loss event, so the general claim is false.
`kov_delta` is the sum in Python (mpmath): a hint for the bounds a file states."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from obligations.core.names import COQ_IDENT
from obligations.core.terms import q_lit
from obligations.table.pld import bracket

# e^(k·ε0) must be a binary64 number (below about e^709) for the interval evaluation.
MAX_RUNS_TIMES_EPS0 = 700


@dataclass(frozen=True)
class Exponent:
    """An exponent ε given exactly: `ln(value)` when `log` (then e^ε = value is rational),
    else the rational ε = value."""
    value: Fraction
    log: bool = False

    def __post_init__(self) -> None:
        if self.log and self.value <= 0:
            raise ValueError(f"ln needs a positive argument (got {self.value})")

    def mp(self) -> mpmath.mpf:
        """e^ε."""
        v = mpmath.mpf(self.value.numerator) / self.value.denominator
        return v if self.log else mpmath.exp(v)

    def log_value(self) -> mpmath.mpf:
        """ε itself."""
        v = mpmath.mpf(self.value.numerator) / self.value.denominator
        return mpmath.log(v) if self.log else v

    def text(self) -> str:
        return f"ln({self.value})" if self.log else str(self.value)

    def coq(self) -> str:
        """ε as a real term."""
        return f"(ln (Q2R {q_lit(self.value)}))" if self.log else f"(Q2R {q_lit(self.value)})"

    def interval(self) -> str:
        """An interval that contains e^ε (an I.type term)."""
        return f"(iq {q_lit(self.value)})" if self.log else f"(I.exp prec (iq {q_lit(self.value)}))"

    def interval_proof(self) -> str:
        """A proof of `has (interval) (exp ε)`."""
        q = q_lit(self.value)
        if self.log:
            return "rewrite exp_ln by (rewrite <- q2r_0; apply Qlt_Rlt; reflexivity); apply iq_correct"
        return f"exact (I.exp_correct prec (iq {q}) (Xreal (Q2R {q})) (iq_correct {q}))"


@dataclass(frozen=True)
class KovClaim:
    """At ε: every ε0-DP mechanism's k-fold composition is (ε, upper)-DP; (ε, lower) is false."""
    eps: Exponent
    upper: Fraction
    lower: Fraction


def kov_delta(eps0: Exponent, runs: int, eps: Exponent, dps: int = 50) -> mpmath.mpf:
    """Σ_i C(k, i) · max(0, r^(k−i) − e^ε · r^i) / (1 + r)^k with r = e^ε0, k = runs."""
    with mpmath.workdps(dps):
        r, t = eps0.mp(), eps.mp()
        total = mpmath.mpf(0)
        for i in range(runs + 1):
            w = r ** (runs - i) - t * r ** i
            if w > 0:
                total += mpmath.binomial(runs, i) * w
        return total / (1 + r) ** runs


def rr_ratio(eps0: Exponent, digits: int = 12) -> Fraction:
    """The ratio r' of the randomized response the refutations use: e^ε0 when it is rational,
    else e^ε0 rounded down to `digits` decimals."""
    if eps0.log:
        return eps0.value
    with mpmath.workdps(digits + 20):
        scale = 10 ** digits
        # one unit below the rounded-down value: a margin the interval for e^ε0 resolves
        return Fraction(int(mpmath.floor(eps0.mp() * scale)) - 1, scale)


def claims_for(eps0: Exponent, runs: int, epsilons: list[Exponent], digits: int = 6) -> list[KovClaim]:
    """At each ε: upper = the KOV sum rounded up, lower = rounded down (`digits` significant
    digits), and lower below the sum for the rational randomized response of `rr_ratio`."""
    r_rr = Exponent(rr_ratio(eps0), log=True)
    out = []
    for eps in epsilons:
        lo, up = bracket(kov_delta(eps0, runs, eps), digits)
        attained = kov_delta(r_rr, runs, eps)
        if not mpmath.mpf(lo.numerator) / lo.denominator < attained:
            raise ValueError(f"the randomized response with ratio {r_rr.value} does not reach {lo} at {eps.text()}")
        out.append(KovClaim(eps, up, lo))
    return out


def fits_in_floats(eps0: float | mpmath.mpf, runs: int) -> bool:
    """The interval evaluation needs e^(±k·ε0) inside the binary64 range (about e^±709)."""
    return runs * float(eps0) < MAX_RUNS_TIMES_EPS0


def render_kov(name: str, eps0: Exponent, runs: int, claims: list[KovClaim]) -> str:
    """The Coq file: for every (ε, upper, lower) of `claims`, the theorem that the `runs`-fold
    composition of every (ε0, 0)-DP finite mechanism is (ε, upper)-DP, and the refutation of
    (ε, lower) by randomized response."""
    if not COQ_IDENT.fullmatch(name):
        raise ValueError(f"not a Coq identifier: {name!r}")
    r = eps0.mp()
    if r <= 1 or runs < 1 or not claims:
        raise ValueError("needs eps0 > 0, runs >= 1 and at least one claim")
    if not fits_in_floats(mpmath.log(r), runs):
        raise ValueError(f"runs * eps0 must stay below 700 for the interval evaluation (got {runs} * {eps0.text()})")
    e0 = eps0.coq()
    rr = rr_ratio(eps0)
    p = rr / (1 + rr)
    b = q_lit(rr)
    rr_le = ("rewrite exp_ln by (rewrite <- q2r_0; apply Qlt_Rlt; reflexivity). apply Rle_refl." if eps0.log else
             f"apply (ge_check_correct _ _ _ {name}_r_ok). vm_cast_no_check (eq_refl true).")
    title = f"the Kairouz–Oh–Viswanath bound for {runs} runs of any ({eps0.text()}, 0)-DP mechanism"
    parts = [f"""(** * {name}: {title} *)
From Obligations Require Import PreludePLD.

Definition {name}_r : I.type := {eps0.interval()}.
Lemma {name}_r_ok : has {name}_r (exp {e0}).
Proof. unfold {name}_r. {eps0.interval_proof()}. Qed.

(* Randomized response with keep probability p = {p}: ratio p/(1 - p) = {rr} <= e^eps0. *)
Definition {name}_rr : fmech := krr_fmech {q_lit(p)} 2.
Lemma {name}_rr_checks :
  (check_distr {name}_rr && pair2_ok_rows (rows {name}_rr) {b} (-1) 1 0 1 && two_ok {b} (-1) 1
)%bool = true.
Proof. vm_cast_no_check (eq_refl true). Qed.

Lemma {name}_rr_dp : dp nb_all {name}_rr {e0} 0.
Proof.
  apply krr_dp_le; [discriminate|split; [discriminate|reflexivity]|].
  rewrite (Qeq_eqR _ {b}) by reflexivity. {rr_le}
Qed.
"""]
    for i, c in enumerate(claims):
        up, lo, e = q_lit(c.upper), q_lit(c.lower), c.eps.coq()
        parts.append(f"""
(** ** eps = {c.eps.text()}: (eps, {c.upper}) holds for every mechanism, (eps, {c.lower}) does not *)
Definition {name}_t_{i} : I.type := {c.eps.interval()}.
Lemma {name}_t_{i}_ok : has {name}_t_{i} (exp {e}).
Proof. unfold {name}_t_{i}. {c.eps.interval_proof()}. Qed.

Lemma {name}_check_{i} :
  (kov_le_check {name}_r {name}_t_{i} {runs} {up}
   && gt_check (pld_delta {b} (-1) 2 (two_pld {b} (-1) 1) {runs} {name}_t_{i}) {lo})%bool = true.
Proof. vm_cast_no_check (eq_refl true). Qed.

Theorem {name}_dp_{i} (nb : nat -> nat -> bool) (M : fmech) :
  symmetric nb -> fmech_wf M -> distr M -> dp nb M {e0} 0 ->
  dp nb (fmech_power M {runs}) {e} (Q2R {up}).
Proof.
  intros Hs Hw Hd Hdp. destruct (andb_prop _ _ {name}_check_{i}) as [Hc _].
  exact (dp_power_kov_check nb M _ _ {runs} _ _ {up} Hs Hw Hd Hdp {name}_r_ok {name}_t_{i}_ok Hc).
Qed.

Theorem {name}_refuted_{i} :
  let S := loss_event (fmech_power {name}_rr {runs}) 0 1 (exp {e}) in
  (exp {e} * pr (fmech_power {name}_rr {runs}) 1 S + Q2R {lo} < pr (fmech_power {name}_rr {runs}) 0 S)%R /\\
  ~ (forall (nb : nat -> nat -> bool) (M : fmech), symmetric nb -> fmech_wf M -> distr M -> dp nb M {e0} 0 ->
     dp nb (fmech_power M {runs}) {e} (Q2R {lo})).
Proof.
  destruct (andb_prop _ _ {name}_check_{i}) as [_ Hgt].
  destruct (andb_prop _ _ {name}_rr_checks) as [H2 Hs]. destruct (andb_prop _ _ H2) as [Hd Hp].
  destruct (not_dp_power_pld2 nb_all {name}_rr {b} (-1) 1 {runs} {e} {name}_t_{i} {lo} 0 1 Hd
              ltac:(apply Nat.ltb_lt; vm_compute; reflexivity) ltac:(apply Nat.ltb_lt; vm_compute; reflexivity)
              eq_refl Hs Hp {name}_t_{i}_ok Hgt) as [Hv Hn].
  split; [exact Hv|]. intros Hall. apply Hn.
  destruct (wf_of_check_distr _ Hd) as [Hw _].
  exact (Hall nb_all {name}_rr nb_all_symmetric Hw (distr_of_check _ Hd) {name}_rr_dp).
Qed.
""")
    parts.append(f"\nSet Printing Width 100000.\nPrint Assumptions {name}_dp_0.\nPrint Assumptions {name}_refuted_0.\n")
    return "".join(parts)
