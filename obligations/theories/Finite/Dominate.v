(** * Dominating pairs: the hockey-stick order of pairs of finite distributions

    For masses [A], [B] on the outputs [0 .. m - 1] and g ≥ 0, the hockey-stick
    divergence is H_g(A‖B) = Σ_z max(0, A(z) − g·B(z)) ([hsv]); it is the largest
    A(S) − g·B(S) over sets S of outputs.  The pair (A, B) is dominated by the pair
    (P, Q) on [0 .. k - 1] when H_g(A‖B) ≤ H_g(P‖Q) for every g ≥ 0 ([dominated]):
    whatever a test can tell between A and B, it can tell at least as well between
    P and Q.

    A witness Coq checks by computation: a Markov kernel T (T(z|w) ≥ 0, each
    column summing to at most 1) with A = T·P and B = T·Q.  Then (A, B) is dominated
    by (P, Q) ([dominated_of_kernel]): max(0, Σ_w T(z|w)·(P(w) − g·Q(w))) is at most
    Σ_w T(z|w)·max(0, P(w) − g·Q(w)), and summing over z leaves at most
    Σ_w max(0, P(w) − g·Q(w)).  [kernel_fits] checks such a T exactly on rationals
    and [pair_dominated_of_kernels] gives, from one kernel per ordered pair of
    neighbours, that every pair of rows of a finite mechanism is dominated by a
    two-row table's rows. *)
From Coq Require Import List Bool QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Finite Require Import Mechanism.
Import ListNotations.

Local Open Scope R_scope.

(** H_g(A‖B) on the outputs [0 .. m - 1]. *)
Definition hsv (m : nat) (A B : nat -> R) (g : R) : R :=
  rsum (map (fun z => Rmax 0 (A z - g * B z)) (seq 0 m)).

(** The two-parameter form Σ_z max(0, a·A(z) − b·B(z)). *)
Definition hs2v (m : nat) (A B : nat -> R) (a b : R) : R :=
  rsum (map (fun z => Rmax 0 (a * A z - b * B z)) (seq 0 m)).

(** (A, B) on [0 .. m - 1] is dominated by (P, Q) on [0 .. k - 1]. *)
Definition dominated (m : nat) (A B : nat -> R) (k : nat) (P Q : nat -> R) : Prop :=
  forall g, 0 <= g -> hsv m A B g <= hsv k P Q g.

Lemma rmax0_scale_pos (c u : R) : 0 <= c -> Rmax 0 (c * u) = c * Rmax 0 u.
Proof.
  intros Hc. destruct (Rle_dec 0 u) as [Hu|Hu].
  - rewrite !Rmax_right by (try apply Rmult_le_pos; lra). reflexivity.
  - rewrite (Rmax_left 0 u) by lra. rewrite Rmult_0_r. apply Rmax_left.
    assert (0 <= c * - u) by (apply Rmult_le_pos; lra). lra.
Qed.

Lemma hs2v_nonneg (m : nat) (A B : nat -> R) (a b : R) : 0 <= hs2v m A B a b.
Proof. apply rsum_map_nonneg. intros z. apply Rmax_l. Qed.

Lemma hsv_nonneg (m : nat) (A B : nat -> R) (g : R) : 0 <= hsv m A B g.
Proof. apply rsum_map_nonneg. intros z. apply Rmax_l. Qed.

(** For a > 0 the two-parameter form is a·H_{b/a}. *)
Lemma hs2v_of_hsv (m : nat) (A B : nat -> R) (a b : R) : 0 < a -> hs2v m A B a b = a * hsv m A B (b / a).
Proof.
  intros Ha. unfold hs2v, hsv. rewrite <- rsum_scal. apply rsum_ext_in. intros z _.
  rewrite <- rmax0_scale_pos by lra. f_equal. field. lra.
Qed.

(** For a = 0 it is 0 when B is non-negative. *)
Lemma hs2v_at_0 (m : nat) (A B : nat -> R) (b : R) :
  (forall z, (z < m)%nat -> 0 <= B z) -> 0 <= b -> hs2v m A B 0 b = 0.
Proof.
  intros HB Hb. unfold hs2v. apply rsum_zero. intros z Hz. apply in_seq in Hz as [_ Hz].
  apply Rmax_left. pose proof (HB z Hz). assert (0 <= b * B z) by (apply Rmult_le_pos; lra). lra.
Qed.

(** Domination in the two-parameter form, a, b ≥ 0. *)
Lemma dominated_hs2v (m k : nat) (A B P Q : nat -> R) :
  dominated m A B k P Q -> (forall z, (z < m)%nat -> 0 <= B z) ->
  forall a b, 0 <= a -> 0 <= b -> hs2v m A B a b <= hs2v k P Q a b.
Proof.
  intros HD HB a b Ha Hb. destruct (Rle_lt_or_eq_dec 0 a Ha) as [Ha'|<-].
  - rewrite !hs2v_of_hsv by exact Ha'. apply Rmult_le_compat_l; [lra|]. apply HD.
    unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
  - rewrite hs2v_at_0 by assumption. apply hs2v_nonneg.
Qed.

(** max(0, Σ c·u) ≤ Σ c·max(0, u) for non-negative c. *)
Lemma rmax0_rsum_le (l : list nat) (c u : nat -> R) :
  (forall w, In w l -> 0 <= c w) ->
  Rmax 0 (rsum (map (fun w => c w * u w) l)) <= rsum (map (fun w => c w * Rmax 0 (u w)) l).
Proof.
  induction l as [|w l IH]; intros Hc; cbn [map]; rewrite ?rsum_nil, ?rsum_cons.
  - rewrite Rmax_left by lra. lra.
  - assert (Hw : 0 <= c w) by (apply Hc; left; reflexivity).
    assert (IH' : Rmax 0 (rsum (map (fun w => c w * u w) l)) <= rsum (map (fun w => c w * Rmax 0 (u w)) l))
      by (apply IH; intros v Hv; apply Hc; right; exact Hv).
    rewrite <- rmax0_scale_pos by exact Hw.
    pose proof (Rmax_l 0 (c w * u w)). pose proof (Rmax_r 0 (c w * u w)).
    pose proof (Rmax_l 0 (rsum (map (fun w => c w * u w) l))). pose proof (Rmax_r 0 (rsum (map (fun w => c w * u w) l))).
    apply Rmax_lub; lra.
Qed.

(** Post-processing: a kernel T mapping P to A and Q to B. *)
Lemma dominated_of_kernel (m k : nat) (T : nat -> nat -> R) (A B P Q : nat -> R) :
  (forall w z, (w < k)%nat -> (z < m)%nat -> 0 <= T w z) ->
  (forall w, (w < k)%nat -> rsum (map (T w) (seq 0 m)) <= 1) ->
  (forall z, (z < m)%nat -> A z = rsum (map (fun w => T w z * P w) (seq 0 k))) ->
  (forall z, (z < m)%nat -> B z = rsum (map (fun w => T w z * Q w) (seq 0 k))) ->
  dominated m A B k P Q.
Proof.
  intros HT Hs HA HB g Hg. unfold hsv.
  apply Rle_trans with (rsum (map (fun z => rsum (map (fun w => T w z * Rmax 0 (P w - g * Q w)) (seq 0 k))) (seq 0 m))).
  { apply rsum_le. intros z Hz. apply in_seq in Hz as [_ Hz].
    rewrite (HA z Hz), (HB z Hz), <- rsum_scal, <- rsum_minus.
    rewrite (rsum_ext_in _ (fun w => T w z * (P w - g * Q w))) by (intros w _; ring).
    apply (rmax0_rsum_le (seq 0 k) (fun w => T w z) (fun w => P w - g * Q w)).
    intros w Hw. apply in_seq in Hw as [_ Hw]. apply HT; assumption. }
  rewrite (rsum_swap (fun z w => T w z * Rmax 0 (P w - g * Q w))).
  apply rsum_le. intros w Hw. apply in_seq in Hw as [_ Hw].
  rewrite (rsum_ext_in _ (fun z => Rmax 0 (P w - g * Q w) * T w z)) by (intros z _; ring).
  rewrite rsum_scal. pose proof (Rmax_l 0 (P w - g * Q w)). pose proof (Hs w Hw).
  rewrite <- (Rmult_1_r (Rmax 0 (P w - g * Q w))) at 2. apply Rmult_le_compat_l; lra.
Qed.

(** ** The kernel checked on rationals *)

Local Open Scope Q_scope.

(** T(z|w), the kernel given as one list of masses per w. *)
Definition qker (T : list (list Q)) (w z : nat) : Q := nth z (nth w T []) 0.

(** T ≥ 0, every column of T sums to at most 1, A = T·P and B = T·Q on [0 .. m - 1]. *)
Definition kernel_fits (m k : nat) (T : list (list Q)) (P Q A B : list Q) : bool :=
  forallb (fun w => forallb (fun z => Qle_bool 0 (qker T w z)) (seq 0 m) &&
                    Qle_bool (qsumf (seq 0 m) (qker T w)) 1) (seq 0 k) &&
  forallb (fun z => Qeq_bool (nth z A 0) (qsumf (seq 0 k) (fun w => qker T w z * nth w P 0)) &&
                    Qeq_bool (nth z B 0) (qsumf (seq 0 k) (fun w => qker T w z * nth w Q 0))) (seq 0 m).

Local Open Scope R_scope.

Lemma rsum_q2r_mult (l : list nat) (f g : nat -> Q) :
  rsum (map (fun w => Q2R (f w) * Q2R (g w)) l) = Q2R (qsumf l (fun w => f w * g w)%Q).
Proof. rewrite <- rsum_q2r. apply rsum_ext_in. intros w _. rewrite Q2R_mult. reflexivity. Qed.

Lemma dominated_of_kernel_fits (m k : nat) (T : list (list Q)) (P Q A B : list Q) :
  kernel_fits m k T P Q A B = true ->
  dominated m (fun z => Q2R (nth z A 0%Q)) (fun z => Q2R (nth z B 0%Q)) k
              (fun w => Q2R (nth w P 0%Q)) (fun w => Q2R (nth w Q 0%Q)).
Proof.
  unfold kernel_fits. rewrite andb_true_iff, !forallb_forall. intros [HT HAB].
  apply (dominated_of_kernel m k (fun w z => Q2R (qker T w z))).
  - intros w z Hw Hz. specialize (HT w ltac:(apply in_seq; lia)).
    apply andb_prop in HT as [HT _]. rewrite forallb_forall in HT.
    specialize (HT z ltac:(apply in_seq; lia)). rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, HT.
  - intros w Hw. specialize (HT w ltac:(apply in_seq; lia)). apply andb_prop in HT as [_ HT].
    rewrite rsum_q2r, <- q2r_1. apply Qle_Rle, Qle_bool_imp_le, HT.
  - intros z Hz. specialize (HAB z ltac:(apply in_seq; lia)). apply andb_prop in HAB as [HA _].
    rewrite rsum_q2r_mult. apply Qeq_eqR, Qeq_bool_eq, HA.
  - intros z Hz. specialize (HAB z ltac:(apply in_seq; lia)). apply andb_prop in HAB as [_ HB].
    rewrite rsum_q2r_mult. apply Qeq_eqR, Qeq_bool_eq, HB.
Qed.

(** ** Rows of a finite mechanism dominated by a two-row table's *)

(** The rows x and x' of [M] are dominated by the rows 0 and 1 of [D]. *)
Definition pair_dominated (M : fmech) (x x' : nat) (D : fmech) : Prop :=
  dominated (n_out M) (prob M x) (prob M x') (n_out D) (prob D 0) (prob D 1).

(** Every ordered pair of distinct neighbours among the inputs [0 .. n - 1] has a kernel in
    [Ks] that maps the rows of [D] to its rows of [M]. *)
Definition kernels_fit (nb : nat -> nat -> bool) (n : nat) (M D : fmech) (Ks : list (nat * nat * list (list Q))) : bool :=
  forallb (fun x => forallb (fun x' => if nb x x' && negb (Nat.eqb x x') then
    existsb (fun '(u, u', T) => Nat.eqb u x && Nat.eqb u' x' &&
      kernel_fits (n_out M) (n_out D) T (nth 0 (rows D) []) (nth 1 (rows D) []) (nth x (rows M) []) (nth x' (rows M) []))
      Ks else true) (seq 0 n)) (seq 0 n).

Lemma pair_dominated_of_kernels (nb : nat -> nat -> bool) (n : nat) (M D : fmech) Ks :
  kernels_fit nb n M D Ks = true ->
  forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> x <> x' -> pair_dominated M x x' D.
Proof.
  unfold kernels_fit. rewrite forallb_forall. intros H x x' Hx Hx' Hnb Hne.
  specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H x' ltac:(apply in_seq; lia)). apply Nat.eqb_neq in Hne. rewrite Hnb, Hne in H. cbn [andb negb] in H.
  apply existsb_exists in H as [[[u u'] T] [_ H]].
  apply andb_prop in H as [H Hk]. apply andb_prop in H as [Hu Hu'].
  apply Nat.eqb_eq in Hu, Hu'. subst u u'.
  exact (dominated_of_kernel_fits _ _ _ _ _ _ _ Hk).
Qed.
