(** * The discrete Laplace with a rational ratio, as noise for the accountant

    [dlap α] is the two-sided geometric distribution over Z with ratio α ∈ (0, 1),
    Pr[z] = (1 − α)/(1 + α)·α^|z| (Coupling/Geometric.v's [dlaplace] at scale t = −ln α,
    whose total mass 1 is proved there as a series); [dlap_q α z] is the same mass as a
    rational, so its PLDs are checked exactly (NoiseCheck.v). *)
From Coq Require Import ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts.
From Obligations.Finite Require Import PLD.
From Obligations.Coupling Require Import LubSum Geometric.

Definition dlap_q (alpha : Q) (z : Z) : Q := ((1 - alpha) / (1 + alpha) * alpha ^ Z.abs z)%Q.

Definition dlap (alpha : Q) : Z -> R := dlaplace (- ln (Q2R alpha)).

Local Open Scope R_scope.

Section Alpha.
Variable alpha : Q.
Hypothesis Ha : (0 < alpha)%Q.
Hypothesis Ha1 : (alpha < 1)%Q.

Lemma alpha_r : 0 < Q2R alpha < 1.
Proof. split; [rewrite <- q2r_0|rewrite <- q2r_1]; apply Qlt_Rlt; assumption. Qed.

Lemma dlap_rate : 0 < - ln (Q2R alpha).
Proof.
  destruct alpha_r as [H0 H1]. assert (ln (Q2R alpha) < ln 1) by (apply ln_increasing; lra).
  rewrite ln_1 in H. lra.
Qed.

Lemma dlap_q_correct (z : Z) : dlap alpha z = Q2R (dlap_q alpha z).
Proof.
  destruct alpha_r as [H0 H1]. unfold dlap, dlaplace, dlap_q.
  rewrite Ropp_involutive, exp_ln by exact H0.
  rewrite Q2R_mult, Q2R_div by (intros E; apply Qeq_eqR in E; rewrite Q2R_plus, q2r_1, q2r_0 in E; lra).
  rewrite Q2R_minus, Q2R_plus, q2r_1, (q2r_qpower alpha Ha).
  replace (Z.abs z) with (Z.of_nat (Z.abs_nat z)) by lia. rewrite <- pow_powerRZ. reflexivity.
Qed.

Lemma dlap_nonneg (z : Z) : 0 <= dlap alpha z.
Proof. apply dlaplace_nonneg, dlap_rate. Qed.

Lemma dlap_sum_le : sum_le (dlap alpha) 1.
Proof. apply dlaplace_sum_le, dlap_rate. Qed.

Lemma dlap_mass : tsum1 (dlap alpha) = 1.
Proof. apply dlaplace_mass, dlap_rate. Qed.
End Alpha.
