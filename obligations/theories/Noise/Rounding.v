(** * Rounding to a grid, and the exp/ln bounds of the Laplace sample

    [round_grid t lam x] is the index [k] of the multiple [k * lam] nearest to
    [x], ties broken upwards ([TiesUp]) or downwards ([TiesDown]).  The
    lemmas here turn "the rounded value is [k]" (or "at least [k]", "at most
    [k]") into bounds on [x], and bounds on [x = c ± ln u / r] into bounds on
    [u]: this is how each output of the snapping mechanism becomes an
    interval of [u]. *)
From Coq Require Import Reals Lra Lia ZArith.
From Flocq Require Import Raux.
Local Open Scope R_scope.

Inductive tie := TiesUp | TiesDown.

Definition round_grid (t : tie) (lam x : R) : Z :=
  match t with
  | TiesUp => Zfloor (x / lam + / 2)
  | TiesDown => Zceil (x / lam - / 2)
  end.

(** ** Grid points *)

Lemma grid_eq_iff lam k k' : 0 < lam -> (lam * IZR k = lam * IZR k' <-> k = k').
Proof.
  intros Hl. split.
  - intros H. apply eq_IZR. apply Rmult_eq_reg_l with lam; [exact H|lra].
  - intros ->. reflexivity.
Qed.

(** Bounds on [x / lam] are bounds on [x]. *)
Lemma div_le_iff a x lam : 0 < lam -> (a <= x / lam <-> a * lam <= x).
Proof.
  intros Hl. split; intros H.
  - apply Rmult_le_compat_r with (r := lam) in H; [|lra].
    unfold Rdiv in H. rewrite Rmult_assoc, Rinv_l, Rmult_1_r in H by lra. exact H.
  - apply Rmult_le_reg_r with lam; [exact Hl|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

Lemma div_lt_iff a x lam : 0 < lam -> (a < x / lam <-> a * lam < x).
Proof.
  intros Hl. split; intros H.
  - apply Rmult_lt_compat_r with (r := lam) in H; [|lra].
    unfold Rdiv in H. rewrite Rmult_assoc, Rinv_l, Rmult_1_r in H by lra. exact H.
  - apply Rmult_lt_reg_r with lam; [exact Hl|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

Lemma div_le_iff_r a x lam : 0 < lam -> (x / lam <= a <-> x <= a * lam).
Proof.
  intros Hl. split; intros H.
  - destruct (Rle_or_lt x (a * lam)) as [|H']; [assumption|].
    apply (div_lt_iff a x lam Hl) in H'. lra.
  - destruct (Rle_or_lt (x / lam) a) as [|H']; [assumption|].
    apply (div_lt_iff a x lam Hl) in H'. lra.
Qed.

Lemma div_lt_iff_r a x lam : 0 < lam -> (x / lam < a <-> x < a * lam).
Proof.
  intros Hl. split; intros H.
  - destruct (Rlt_or_le x (a * lam)) as [|H']; [assumption|].
    apply (div_le_iff a x lam Hl) in H'. lra.
  - destruct (Rlt_or_le (x / lam) a) as [|H']; [assumption|].
    apply (div_le_iff a x lam Hl) in H'. lra.
Qed.

(** ** Preimages of one grid index *)

Lemma round_grid_up_iff lam x k : 0 < lam ->
  (round_grid TiesUp lam x = k <-> (IZR k - / 2) * lam <= x < (IZR k + / 2) * lam).
Proof.
  intros Hl. simpl. split.
  - intros <-. pose proof (Zfloor_lb (x / lam + / 2)). pose proof (Zfloor_ub (x / lam + / 2)).
    split.
    + apply div_le_iff; [exact Hl|lra].
    + apply div_lt_iff_r; [exact Hl|lra].
  - intros [H1 H2]. apply Zfloor_imp. rewrite plus_IZR.
    apply (div_le_iff _ _ _ Hl) in H1. apply (div_lt_iff_r _ _ _ Hl) in H2. lra.
Qed.

Lemma round_grid_down_iff lam x k : 0 < lam ->
  (round_grid TiesDown lam x = k <-> (IZR k - / 2) * lam < x <= (IZR k + / 2) * lam).
Proof.
  intros Hl. simpl. split.
  - intros <-. pose proof (Zceil_lb (x / lam - / 2)). pose proof (Zceil_ub (x / lam - / 2)).
    split.
    + apply div_lt_iff; [exact Hl|lra].
    + apply div_le_iff_r; [exact Hl|lra].
  - intros [H1 H2]. apply Zceil_imp. rewrite minus_IZR.
    apply (div_lt_iff _ _ _ Hl) in H1. apply (div_le_iff_r _ _ _ Hl) in H2. lra.
Qed.

(** ** Preimages of "index at least [k]" and "index at most [k]" (the tails) *)

Lemma round_grid_up_ge_iff lam x k : 0 < lam ->
  ((k <= round_grid TiesUp lam x)%Z <-> (IZR k - / 2) * lam <= x).
Proof.
  intros Hl. simpl. split.
  - intros H. apply IZR_le in H. pose proof (Zfloor_lb (x / lam + / 2)).
    apply div_le_iff; [exact Hl|lra].
  - intros H. apply Zfloor_lub. apply (div_le_iff _ _ _ Hl) in H. lra.
Qed.

Lemma round_grid_up_le_iff lam x k : 0 < lam ->
  ((round_grid TiesUp lam x <= k)%Z <-> x < (IZR k + / 2) * lam).
Proof.
  intros Hl. simpl. split.
  - intros H. apply IZR_le in H. pose proof (Zfloor_ub (x / lam + / 2)).
    apply div_lt_iff_r; [exact Hl|lra].
  - intros H. apply (div_lt_iff_r _ _ _ Hl) in H.
    assert (Hf : (Zfloor (x / lam + / 2) < k + 1)%Z).
    { apply lt_IZR. rewrite plus_IZR. pose proof (Zfloor_lb (x / lam + / 2)). simpl. lra. }
    lia.
Qed.

Lemma round_grid_down_ge_iff lam x k : 0 < lam ->
  ((k <= round_grid TiesDown lam x)%Z <-> (IZR k - / 2) * lam < x).
Proof.
  intros Hl. simpl. split.
  - intros H. apply IZR_le in H. pose proof (Zceil_lb (x / lam - / 2)).
    apply div_lt_iff; [exact Hl|lra].
  - intros H. apply (div_lt_iff _ _ _ Hl) in H.
    assert (Hc : (k - 1 < Zceil (x / lam - / 2))%Z).
    { apply lt_IZR. rewrite minus_IZR. pose proof (Zceil_ub (x / lam - / 2)). simpl. lra. }
    lia.
Qed.

Lemma round_grid_down_le_iff lam x k : 0 < lam ->
  ((round_grid TiesDown lam x <= k)%Z <-> x <= (IZR k + / 2) * lam).
Proof.
  intros Hl. simpl. split.
  - intros H. apply IZR_le in H. pose proof (Zceil_ub (x / lam - / 2)).
    apply div_le_iff_r; [exact Hl|lra].
  - intros H. apply Zceil_glb. apply (div_le_iff_r _ _ _ Hl) in H. lra.
Qed.

(** ** exp and ln *)

Lemma exp_le_iff a b : exp a <= exp b <-> a <= b.
Proof.
  split; intros H.
  - destruct (Rle_or_lt a b) as [|H']; [assumption|].
    apply exp_increasing in H'. lra.
  - destruct H as [H| ->]; [apply Rlt_le, exp_increasing, H|apply Rle_refl].
Qed.

Lemma exp_lt_iff a b : exp a < exp b <-> a < b.
Proof. split; [apply exp_lt_inv|apply exp_increasing]. Qed.

Lemma ln_ge_iff a u : 0 < u -> (a <= ln u <-> exp a <= u).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_le_iff. Qed.

Lemma ln_gt_iff a u : 0 < u -> (a < ln u <-> exp a < u).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_lt_iff. Qed.

Lemma ln_le_iff b u : 0 < u -> (ln u <= b <-> u <= exp b).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_le_iff. Qed.

Lemma ln_lt_iff b u : 0 < u -> (ln u < b <-> u < exp b).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_lt_iff. Qed.

Lemma ln_bounds_iff a b u : 0 < u -> (a <= ln u < b <-> exp a <= u < exp b).
Proof. intros Hu. rewrite ln_ge_iff, ln_lt_iff by exact Hu. tauto. Qed.

Lemma ln_bounds_oc_iff a b u : 0 < u -> (a < ln u <= b <-> exp a < u <= exp b).
Proof. intros Hu. rewrite ln_gt_iff, ln_le_iff by exact Hu. tauto. Qed.

(** ** Bounds on the Laplace sample [x = c ± ln u / r] as bounds on [u] *)

Lemma lap_plus_ge r c a u : 0 < r -> 0 < u -> (a <= c + / r * ln u <-> exp (r * (a - c)) <= u).
Proof.
  intros Hr Hu. rewrite <- ln_ge_iff by exact Hu. split; intros H.
  - apply Rmult_le_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (a - c))) with (a - c) by (field; lra). lra.
  - apply Rmult_le_compat_l with (r := / r) in H; [|apply Rlt_le, Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (a - c))) with (a - c) in H by (field; lra). lra.
Qed.

Lemma lap_plus_gt r c a u : 0 < r -> 0 < u -> (a < c + / r * ln u <-> exp (r * (a - c)) < u).
Proof.
  intros Hr Hu. rewrite <- ln_gt_iff by exact Hu. split; intros H.
  - apply Rmult_lt_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (a - c))) with (a - c) by (field; lra). lra.
  - apply Rmult_lt_compat_l with (r := / r) in H; [|apply Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (a - c))) with (a - c) in H by (field; lra). lra.
Qed.

Lemma lap_plus_le r c b u : 0 < r -> 0 < u -> (c + / r * ln u <= b <-> u <= exp (r * (b - c))).
Proof.
  intros Hr Hu. pose proof (lap_plus_gt r c b u Hr Hu).
  split; intros H'.
  - destruct (Rle_or_lt u (exp (r * (b - c)))); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rle_or_lt (c + / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

Lemma lap_plus_lt r c b u : 0 < r -> 0 < u -> (c + / r * ln u < b <-> u < exp (r * (b - c))).
Proof.
  intros Hr Hu. pose proof (lap_plus_ge r c b u Hr Hu).
  split; intros H'.
  - destruct (Rlt_or_le u (exp (r * (b - c)))); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rlt_or_le (c + / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

(** With the minus sign the inequalities flip. *)
Lemma lap_minus_ge r c a u : 0 < r -> 0 < u -> (a <= c - / r * ln u <-> u <= exp (r * (c - a))).
Proof.
  intros Hr Hu. rewrite <- ln_le_iff by exact Hu. split; intros H.
  - apply Rmult_le_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (c - a))) with (c - a) by (field; lra). lra.
  - apply Rmult_le_compat_l with (r := / r) in H; [|apply Rlt_le, Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (c - a))) with (c - a) in H by (field; lra). lra.
Qed.

Lemma lap_minus_gt r c a u : 0 < r -> 0 < u -> (a < c - / r * ln u <-> u < exp (r * (c - a))).
Proof.
  intros Hr Hu. rewrite <- ln_lt_iff by exact Hu. split; intros H.
  - apply Rmult_lt_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (c - a))) with (c - a) by (field; lra). lra.
  - apply Rmult_lt_compat_l with (r := / r) in H; [|apply Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (c - a))) with (c - a) in H by (field; lra). lra.
Qed.

Lemma lap_minus_le r c b u : 0 < r -> 0 < u -> (c - / r * ln u <= b <-> exp (r * (c - b)) <= u).
Proof.
  intros Hr Hu. pose proof (lap_minus_gt r c b u Hr Hu).
  split; intros H'.
  - destruct (Rle_or_lt (exp (r * (c - b))) u); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rle_or_lt (c - / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

Lemma lap_minus_lt r c b u : 0 < r -> 0 < u -> (c - / r * ln u < b <-> exp (r * (c - b)) < u).
Proof.
  intros Hr Hu. pose proof (lap_minus_ge r c b u Hr Hu).
  split; intros H'.
  - destruct (Rlt_or_le (exp (r * (c - b))) u); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rlt_or_le (c - / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.
