(** * The same database released K times, by coefficient vectors

    hs(t) of the rows i, j of K runs on the same database,
    [fmech_cw (fmech_power M K) f f'], is [gk K c] at c = g_i − t·g_j ([hs_stream_gk]),
    where for a coefficient vector c on the inputs

      gk k c = Σ_{ys of length k} max(0, Σ_x c(x)·Pr[M^k(x) = ys]).

    [gk] needs no classes of sequences: [gk_0] and [gk_S] (one more run multiplies c by a
    column of M) compute it step by step, and [gk_scal] (homogeneity) lets states that
    are positive multiples of one another merge, which equal likelihood vectors alone
    do not.  A state is decided before the last run ([gk_dead], [gk_sure]) when M's rows
    are within a factor r of one another ([ratio_le]): with S₊ and S₋ the masses of the
    positive and of the negative coefficients and k runs to go, S₊·r^k ≤ S₋ gives 0 and
    S₋·r^k ≤ S₊ gives S₊ − S₋.  Setting one coefficient to 0 moves [gk] by at most its
    magnitude ([gk_drop_le], [gk_drop_ge]).  Without any decision, max(0, Σ_x c(x)) ≤ gk ≤ S₊
    ([gk_ge_sum], [gk_le_pos]).  Permuting inputs and outputs together in a
    way M cannot tell apart leaves [gk] unchanged ([gk_swap]): for randomized response
    with equal prior weights, states that differ by swapping two inputs merge.  The
    decisions and the dropping are for distributions ([distr M]). *)
From Coq Require Import List QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Compose CW PLD CWStream TypeClass.
Import ListNotations.

Local Open Scope R_scope.

Section Coef.
Variable M : fmech.

(** Σ_x c(x)·Pr[M^k(x) = ys] over the inputs. *)
Definition cdot (c : nat -> R) (ys : list nat) : R :=
  rsum (map (fun x => c x * lik M ys x) (seq 0 (n_in M))).

Definition gk (k : nat) (c : nat -> R) : R :=
  rsum (map (fun ys => Rmax 0 (cdot c ys)) (seqs (n_out M) k)).

(** c ⊙ M(·)(y): the coefficients after one more run answering y. *)
Definition ccol (c : nat -> R) (y : nat) : nat -> R := fun x => c x * prob M x y.

(** The positive and the negative mass of c. *)
Definition cpos (c : nat -> R) : R := rsum (map (fun x => Rmax 0 (c x)) (seq 0 (n_in M))).
Definition cneg (c : nat -> R) : R := rsum (map (fun x => Rmax 0 (- c x)) (seq 0 (n_in M))).

Lemma lik_nil (x : nat) : lik M [] x = 1.
Proof. unfold lik. cbn [run_prob]. apply q2r_1. Qed.

Lemma lik_cons' (y : nat) (ys : list nat) (x : nat) : lik M (y :: ys) x = prob M x y * lik M ys x.
Proof. unfold lik, prob. cbn [run_prob]. apply Q2R_mult. Qed.

Lemma gk_0 (c : nat -> R) : gk 0 c = Rmax 0 (rsum (map c (seq 0 (n_in M)))).
Proof.
  unfold gk, cdot. cbn [seqs map]. rewrite rsum_cons, rsum_nil, Rplus_0_r. f_equal.
  apply rsum_ext_in. intros x _. rewrite lik_nil. ring.
Qed.

Lemma gk_S (k : nat) (c : nat -> R) :
  gk (S k) c = rsum (map (fun y => gk k (ccol c y)) (seq 0 (n_out M))).
Proof.
  unfold gk. cbn [seqs]. rewrite rsum_flat_map. apply rsum_ext_in. intros y _.
  rewrite map_map. apply rsum_ext_in. intros ys _. f_equal. unfold cdot, ccol.
  apply rsum_ext_in. intros x _. rewrite lik_cons'. ring.
Qed.

Lemma rmax0_scal (l a : R) : 0 <= l -> Rmax 0 (l * a) = l * Rmax 0 a.
Proof.
  intros Hl. unfold Rmax. destruct (Rle_dec 0 (l * a)), (Rle_dec 0 a); try ring.
  - destruct (Req_dec l 0) as [->|Hl0]; [ring|]. exfalso. nra.
  - exfalso. apply n. apply Rmult_le_pos; lra.
Qed.

Lemma gk_scal (k : nat) (l : R) (c : nat -> R) : 0 <= l -> gk k (fun x => l * c x) = l * gk k c.
Proof.
  intros Hl. unfold gk. rewrite <- rsum_scal. apply rsum_ext_in. intros ys _.
  rewrite <- rmax0_scal by exact Hl. f_equal. unfold cdot. rewrite <- rsum_scal.
  apply rsum_ext_in. intros x _. ring.
Qed.

Lemma gk_ext (k : nat) (c c' : nat -> R) :
  (forall x, (x < n_in M)%nat -> c x = c' x) -> gk k c = gk k c'.
Proof.
  intros H. unfold gk. apply rsum_ext_in. intros ys _. f_equal. unfold cdot.
  apply rsum_ext_in. intros x Hx. apply in_seq in Hx. rewrite H by lia. reflexivity.
Qed.

Lemma gk_nonneg (k : nat) (c : nat -> R) : 0 <= gk k c.
Proof. unfold gk. apply rsum_nonneg. intros ys _. apply Rmax_l. Qed.

Hypothesis HM : distr M.

Lemma lik_nonneg (ys : list nat) (x : nat) :
  (x < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys -> 0 <= lik M ys x.
Proof.
  intros Hx Hys. induction Hys as [|y ys Hy _ IH]; [rewrite lik_nil; lra|].
  rewrite lik_cons'. apply Rmult_le_pos; [apply (proj1 (HM x Hx)), Hy|exact IH].
Qed.

(** Each row of M^k is a distribution over the sequences. *)
Lemma lik_mass (k x : nat) : (x < n_in M)%nat -> rsum (map (fun ys => lik M ys x) (seqs (n_out M) k)) = 1.
Proof.
  intros Hx. induction k as [|k IH].
  - cbn [seqs map]. rewrite rsum_cons, rsum_nil, lik_nil. ring.
  - cbn [seqs]. rewrite rsum_flat_map.
    transitivity (rsum (map (fun y => prob M x y) (seq 0 (n_out M)))).
    + apply rsum_ext_in. intros y _. rewrite map_map.
      transitivity (rsum (map (fun ys => prob M x y * lik M ys x) (seqs (n_out M) k))).
      * apply rsum_ext_in. intros ys _. apply lik_cons'.
      * rewrite rsum_scal, IH. ring.
    + destruct (HM x Hx) as [_ H1]. unfold pr, everything in H1. exact H1.
Qed.

(** Σ_ys cdot c ys = Σ_x c(x): the rows have mass 1. *)
Lemma cdot_sum (c : nat -> R) (L : list (list nat)) :
  rsum (map (cdot c) L) = rsum (map (fun x => c x * rsum (map (fun ys => lik M ys x) L)) (seq 0 (n_in M))).
Proof.
  induction L as [|ys L IH]; cbn [map].
  - symmetry. apply rsum_zero. intros x _. cbn [map rsum fold_right]. ring.
  - rewrite rsum_cons, IH. unfold cdot at 1. rewrite <- rsum_plus. apply rsum_ext_in. intros x _.
    rewrite rsum_cons. ring.
Qed.

(** Σ_ys cdot c ys = Σ_x c(x): the rows have mass 1. *)
Lemma cdot_mass (k : nat) (c : nat -> R) :
  rsum (map (cdot c) (seqs (n_out M) k)) = rsum (map c (seq 0 (n_in M))).
Proof.
  rewrite cdot_sum. apply rsum_ext_in. intros x Hx. apply in_seq in Hx.
  rewrite lik_mass by lia. ring.
Qed.

(** Bounds that need no decision: max(0, Σ_x c(x)) ≤ gk k c ≤ S₊ (every state may be
    summed at once, from below or from above). *)
Lemma gk_ge_sum (k : nat) (c : nat -> R) : Rmax 0 (rsum (map c (seq 0 (n_in M)))) <= gk k c.
Proof.
  apply Rmax_lub; [apply gk_nonneg|]. rewrite <- (cdot_mass k c). unfold gk. apply rsum_le.
  intros ys _. apply Rmax_r.
Qed.

(** The rows are within a factor r of one another, output by output. *)
Variable r : R.
Hypothesis Hr : forall x x' y, (x < n_in M)%nat -> (x' < n_in M)%nat -> (y < n_out M)%nat ->
  prob M x y <= r * prob M x' y.

Lemma ratio_le (ys : list nat) (x x' : nat) :
  (x < n_in M)%nat -> (x' < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys ->
  lik M ys x <= r ^ length ys * lik M ys x'.
Proof.
  intros Hx Hx' Hys. induction Hys as [|y ys Hy Hys IH]; cbn [length pow].
  - rewrite !lik_nil. lra.
  - rewrite !lik_cons'.
    pose proof (proj1 (HM x Hx) y Hy). pose proof (proj1 (HM x' Hx') y Hy).
    pose proof (lik_nonneg ys x Hx Hys). pose proof (lik_nonneg ys x' Hx' Hys).
    pose proof (Hr x x' y Hx Hx' Hy).
    apply Rle_trans with ((r * prob M x' y) * lik M ys x); [apply Rmult_le_compat_r; assumption|].
    replace (r * (r ^ length ys) * (prob M x' y * lik M ys x'))
      with ((r * prob M x' y) * (r ^ length ys * lik M ys x')) by ring.
    apply Rmult_le_compat_l; [|exact IH]. lra.
Qed.

(** Σ_x c⁺(x)·lik(x) ≤ S₊·r^k·lik(x') for every input x'. *)
Lemma pos_le (ys : list nat) (c : nat -> R) (x' : nat) :
  (x' < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys ->
  rsum (map (fun x => Rmax 0 (c x) * lik M ys x) (seq 0 (n_in M))) <= cpos c * r ^ length ys * lik M ys x'.
Proof.
  intros Hx' Hys. unfold cpos. rewrite Rmult_assoc, Rmult_comm, <- rsum_scal. apply rsum_le.
  intros x Hx. apply in_seq in Hx. rewrite (Rmult_comm _ (Rmax 0 (c x))).
  apply Rmult_le_compat_l; [apply Rmax_l|]. apply ratio_le; [lia|exact Hx'|exact Hys].
Qed.

Lemma cdot_split (c : nat -> R) (ys : list nat) :
  cdot c ys = rsum (map (fun x => Rmax 0 (c x) * lik M ys x) (seq 0 (n_in M))) -
              rsum (map (fun x => Rmax 0 (- c x) * lik M ys x) (seq 0 (n_in M))).
Proof.
  unfold cdot. rewrite <- rsum_minus. apply rsum_ext_in. intros x _.
  unfold Rmax. destruct (Rle_dec 0 (c x)), (Rle_dec 0 (- c x)); try ring.
  - replace (c x) with 0 by lra. ring.
  - lra.
Qed.

Lemma gk_le_pos (k : nat) (c : nat -> R) : gk k c <= cpos c.
Proof.
  unfold cpos. rewrite <- (cdot_mass k (fun x => Rmax 0 (c x))). unfold gk. apply rsum_le.
  intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [_ Hf]. rewrite cdot_split.
  assert (0 <= rsum (map (fun x => Rmax 0 (- c x) * lik M ys x) (seq 0 (n_in M)))).
  { apply rsum_nonneg. intros x Hx. apply in_seq in Hx. apply Rmult_le_pos; [apply Rmax_l|apply lik_nonneg; [lia|exact Hf]]. }
  assert (0 <= cdot (fun x => Rmax 0 (c x)) ys).
  { unfold cdot. apply rsum_nonneg. intros x Hx. apply in_seq in Hx. apply Rmult_le_pos; [apply Rmax_l|apply lik_nonneg; [lia|exact Hf]]. }
  apply Rmax_lub; [assumption|]. unfold cdot in *. lra.
Qed.

(** No continuation can end above 0. *)
Lemma cdot_dead (c : nat -> R) (ys : list nat) :
  Forall (fun y => y < n_out M)%nat ys -> 0 <= r -> cpos c * r ^ length ys <= cneg c -> cdot c ys <= 0.
Proof.
  intros Hys Hr0 Hc. rewrite cdot_split.
  set (A := rsum (map (fun x => Rmax 0 (c x) * lik M ys x) (seq 0 (n_in M)))).
  set (B := rsum (map (fun x => Rmax 0 (- c x) * lik M ys x) (seq 0 (n_in M)))).
  assert (HA0 : 0 <= A).
  { apply rsum_nonneg. intros x Hx. apply in_seq in Hx. apply Rmult_le_pos; [apply Rmax_l|apply lik_nonneg; [lia|exact Hys]]. }
  assert (HB0 : 0 <= B).
  { apply rsum_nonneg. intros x Hx. apply in_seq in Hx. apply Rmult_le_pos; [apply Rmax_l|apply lik_nonneg; [lia|exact Hys]]. }
  (* cneg·A ≤ S₊ r^k · B ≤ cneg · B *)
  assert (H1 : cneg c * A <= cpos c * r ^ length ys * B).
  { unfold cneg, B. rewrite (Rmult_comm (rsum _) A), <- !rsum_scal. apply rsum_le. intros x' Hx'. apply in_seq in Hx'.
    pose proof (pos_le ys c x' ltac:(lia) Hys) as H. fold A in H.
    pose proof (Rmax_l 0 (- c x')). nra. }
  assert (Hp : 0 <= cpos c) by (apply rsum_nonneg; intros; apply Rmax_l).
  assert (Hrk : 0 <= r ^ length ys) by (apply pow_le, Hr0).
  assert (H2 : cpos c * r ^ length ys * B <= cneg c * B) by (apply Rmult_le_compat_r; assumption).
  destruct (Req_dec (cneg c) 0) as [Hz|Hz].
  - (* no negative mass: then no positive mass either, A = 0 *)
    rewrite Hz in Hc.
    assert (A <= 0).
    { destruct (Nat.eq_dec (n_in M) 0) as [E0|E0].
      - unfold A. rewrite E0. cbn. lra.
      - pose proof (pos_le ys c 0%nat ltac:(lia) Hys) as H. fold A in H.
        pose proof (lik_nonneg ys 0 ltac:(lia) Hys) as Hl.
        set (X := cpos c * r ^ length ys) in *. assert (X * lik M ys 0 <= 0) by nra. lra. }
    lra.
  - assert (Hn : 0 < cneg c) by (assert (0 <= cneg c) by (apply rsum_nonneg; intros; apply Rmax_l); lra).
    assert (cneg c * A <= cneg c * B) by lra.
    apply Rmult_le_reg_l in H; [lra|exact Hn].
Qed.

Lemma cpos_opp (c : nat -> R) : cpos (fun x => - c x) = cneg c.
Proof. reflexivity. Qed.

Lemma cneg_opp (c : nat -> R) : cneg (fun x => - c x) = cpos c.
Proof. unfold cneg, cpos. apply rsum_ext_in. intros x _. rewrite Ropp_involutive. reflexivity. Qed.

Lemma cdot_opp (c : nat -> R) (ys : list nat) : cdot (fun x => - c x) ys = - cdot c ys.
Proof.
  unfold cdot. rewrite <- (Rmult_1_l (rsum (map (fun x => c x * lik M ys x) _))), Ropp_mult_distr_l, <- rsum_scal.
  apply rsum_ext_in. intros x _. ring.
Qed.

Hypothesis Hr0 : 0 <= r.

(** k runs to go and S₊·r^k ≤ S₋: [gk] is 0. *)
Theorem gk_dead (k : nat) (c : nat -> R) : cpos c * r ^ k <= cneg c -> gk k c = 0.
Proof.
  intros Hc. unfold gk. apply rsum_zero. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [Hl Hf].
  subst k. pose proof (cdot_dead c ys Hf Hr0 Hc). unfold Rmax. destruct (Rle_dec 0 (cdot c ys)); lra.
Qed.

(** k runs to go and S₋·r^k ≤ S₊: [gk] is Σ_x c(x) = S₊ − S₋. *)
Theorem gk_sure (k : nat) (c : nat -> R) : cneg c * r ^ k <= cpos c -> gk k c = rsum (map c (seq 0 (n_in M))).
Proof.
  intros Hc. rewrite <- (cdot_mass k c). unfold gk. apply rsum_ext_in. intros ys Hys.
  destruct (seqs_spec _ _ _ Hys) as [Hl Hf]. subst k.
  pose proof (cdot_dead (fun x => - c x) ys Hf Hr0) as H. rewrite cpos_opp, cneg_opp in H.
  specialize (H Hc). rewrite cdot_opp in H. apply Rmax_right. lra.
Qed.

Lemma csum_pos_neg (c : nat -> R) : rsum (map c (seq 0 (n_in M))) = cpos c - cneg c.
Proof.
  unfold cpos, cneg. rewrite <- rsum_minus. apply rsum_ext_in. intros x _.
  unfold Rmax. destruct (Rle_dec 0 (c x)), (Rle_dec 0 (- c x)); lra.
Qed.

(** c with the coefficient of x0 set to 0. *)
Definition cdrop (c : nat -> R) (x0 : nat) : nat -> R := fun x => if Nat.eqb x x0 then 0 else c x.

Lemma cdot_drop (c : nat -> R) (x0 : nat) (ys : list nat) :
  (x0 < n_in M)%nat -> cdot c ys = cdot (cdrop c x0) ys + c x0 * lik M ys x0.
Proof.
  intros Hx0. enough (E : cdot c ys - cdot (cdrop c x0) ys = c x0 * lik M ys x0) by lra.
  unfold cdot. rewrite <- rsum_minus.
  rewrite (rsum_single Nat.eq_dec _ (seq 0 (n_in M)) x0 (seq_NoDup _ _) ltac:(apply in_seq; lia)).
  - unfold cdrop. rewrite Nat.eqb_refl. ring.
  - intros x Hne. unfold cdrop. destruct (Nat.eqb_spec x x0); [congruence|]. ring.
Qed.

Lemma rmax0_plus_le (a b : R) : Rmax 0 (a + b) <= Rmax 0 a + Rmax 0 b.
Proof. unfold Rmax. destruct (Rle_dec 0 (a + b)), (Rle_dec 0 a), (Rle_dec 0 b); lra. Qed.

(** A positive coefficient dropped lowers [gk] by at most its value, a negative one raises
    it by at most its magnitude. *)
Theorem gk_drop_le (k x0 : nat) (c : nat -> R) :
  (x0 < n_in M)%nat -> gk k c <= gk k (cdrop c x0) + Rmax 0 (c x0).
Proof.
  intros Hx0. unfold gk. rewrite <- (Rmult_1_r (Rmax 0 (c x0))), <- (lik_mass k x0 Hx0), <- rsum_scal, <- rsum_plus.
  apply rsum_le. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [_ Hf].
  rewrite (cdot_drop c x0 ys Hx0). eapply Rle_trans; [apply rmax0_plus_le|]. apply Rplus_le_compat_l.
  rewrite (Rmult_comm (c x0)), rmax0_scal by (apply lik_nonneg; assumption). rewrite Rmult_comm. apply Rle_refl.
Qed.

Theorem gk_drop_ge (k x0 : nat) (c : nat -> R) :
  (x0 < n_in M)%nat -> gk k (cdrop c x0) <= gk k c + Rmax 0 (- c x0).
Proof.
  intros Hx0. unfold gk. rewrite <- (Rmult_1_r (Rmax 0 (- c x0))), <- (lik_mass k x0 Hx0), <- rsum_scal, <- rsum_plus.
  apply rsum_le. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [_ Hf].
  replace (cdot (cdrop c x0) ys) with (cdot c ys + (- c x0) * lik M ys x0) by (rewrite (cdot_drop c x0 ys Hx0); ring).
  eapply Rle_trans; [apply rmax0_plus_le|]. apply Rplus_le_compat_l.
  rewrite (Rmult_comm (- c x0)), rmax0_scal by (apply lik_nonneg; assumption). rewrite Rmult_comm. apply Rle_refl.
Qed.

(** ** Symmetry: permuting inputs and outputs together in a way M cannot tell apart *)

(** A sum over [0 .. n - 1] reindexed by an involution of [0 .. n - 1]. *)
Lemma rsum_involution (n : nat) (p : nat -> nat) (F : nat -> R) :
  (forall x, (x < n)%nat -> (p x < n)%nat /\ p (p x) = x) ->
  rsum (map (fun x => F (p x)) (seq 0 n)) = rsum (map F (seq 0 n)).
Proof.
  intros Hp.
  transitivity (rsum (map (fun x => rsum (map (fun z => if (x <? n)%nat && (z =? p x)%nat then F z else 0)
                                              (seq 0 n))) (seq 0 n))).
  - apply rsum_ext_in. intros x Hx. apply in_seq in Hx. destruct (Hp x ltac:(lia)) as [H1 _].
    rewrite (rsum_single Nat.eq_dec _ (seq 0 n) (p x) (seq_NoDup _ _) ltac:(apply in_seq; lia)).
    + rewrite (proj2 (Nat.ltb_lt x n)) by lia. rewrite Nat.eqb_refl. reflexivity.
    + intros z Hz. destruct (Nat.eqb_spec z (p x)); [congruence|]. rewrite andb_false_r. reflexivity.
  - rewrite rsum_swap. apply rsum_ext_in. intros z Hz. apply in_seq in Hz. destruct (Hp z ltac:(lia)) as [H1 H2].
    rewrite (rsum_single Nat.eq_dec _ (seq 0 n) (p z) (seq_NoDup _ _) ltac:(apply in_seq; lia)).
    + rewrite (proj2 (Nat.ltb_lt (p z) n)) by lia. rewrite H2, Nat.eqb_refl. reflexivity.
    + intros x Hx. destruct (Nat.ltb_spec x n); [|reflexivity]. destruct (Nat.eqb_spec z (p x)); [|reflexivity].
      exfalso. apply Hx. subst z. symmetry. apply (Hp x), H.
Qed.

Section Swap.
Variables (pi sg : nat -> nat).
Hypothesis Hpi : forall x, (x < n_in M)%nat -> (pi x < n_in M)%nat /\ pi (pi x) = x.
Hypothesis Hsg : forall y, (y < n_out M)%nat -> (sg y < n_out M)%nat /\ sg (sg y) = y.
Hypothesis Hsym : forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> prob M (pi x) (sg y) = prob M x y.

Lemma lik_swap (ys : list nat) (x : nat) :
  (x < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys -> lik M (map sg ys) (pi x) = lik M ys x.
Proof.
  intros Hx Hys. induction Hys as [|y ys Hy _ IH]; cbn [map]; [rewrite !lik_nil; reflexivity|].
  rewrite !lik_cons', Hsym, IH by assumption. reflexivity.
Qed.

Lemma seqs_swap (k : nat) (H : list nat -> R) :
  rsum (map (fun ys => H (map sg ys)) (seqs (n_out M) k)) = rsum (map H (seqs (n_out M) k)).
Proof.
  revert H. induction k as [|k IH]; intros H; [reflexivity|]. cbn [seqs]. rewrite !rsum_flat_map.
  transitivity (rsum (map (fun y => rsum (map (fun ys => H (sg y :: ys)) (seqs (n_out M) k))) (seq 0 (n_out M)))).
  - apply rsum_ext_in. intros y _. rewrite !map_map. cbn [map]. apply (IH (fun zs => H (sg y :: zs))).
  - rewrite <- (rsum_involution (n_out M) sg (fun y' => rsum (map H (map (cons y') (seqs (n_out M) k)))) Hsg).
    apply rsum_ext_in. intros y _. rewrite map_map. reflexivity.
Qed.

(** gk is unchanged when the coefficients are permuted by [pi]. *)
Theorem gk_swap (k : nat) (c : nat -> R) : gk k (fun x => c (pi x)) = gk k c.
Proof.
  unfold gk. rewrite <- (seqs_swap k (fun ys => Rmax 0 (cdot (fun x => c (pi x)) ys))).
  apply rsum_ext_in. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [_ Hf]. f_equal. unfold cdot.
  transitivity (rsum (map (fun x => (fun z => c z * lik M (map sg ys) (pi z)) (pi x)) (seq 0 (n_in M)))).
  - apply rsum_ext_in. intros x Hx. apply in_seq in Hx. destruct (Hpi x ltac:(lia)) as [_ H2]. rewrite H2. reflexivity.
  - rewrite (rsum_involution (n_in M) pi (fun z => c z * lik M (map sg ys) (pi z)) Hpi).
    apply rsum_ext_in. intros x Hx. apply in_seq in Hx.
    rewrite lik_swap by (lia || assumption). reflexivity.
Qed.

End Swap.

End Coef.

(** hs(t) of the rows i, j of K runs on the same database is [gk K] at g_i − t·g_j. *)
Theorem hs_stream_gk (M : fmech) (f f' : list Q) (K i j : nat) (t : R) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (j < 2)%nat ->
  hs (fmech_cw (fmech_power M K) f f') i j t =
  gk M K (fun x => wt (cw_weights f f' i) x - t * wt (cw_weights f f' j) x).
Proof.
  intros W Hf Hf' Hi Hj. rewrite hs_stream by assumption. unfold gk. apply rsum_ext_in. intros ys _.
  f_equal. unfold pv, cdot. rewrite <- rsum_scal, <- rsum_minus. apply rsum_ext_in. intros x _. ring.
Qed.
