(** * Vectors of independent geometric noise

    [dens ts v] is the density of a noise vector [v] in Z^n whose i-th entry
    is drawn from [dlaplace t_i] independently ([ts] = [t_1; ...; t_n]); vectors
    of another length have density 0.  Every finite sum of the density over
    distinct vectors is at most 1: the vectors lie in a box [−m, m]^n whose
    sum is the product of window sums (no Fubini needed).  Shifting the vector
    by [s] costs at most [cost ts s] = Σ t_i·|s_i| in the density. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import Sums SubDistr.
From Obligations.Coupling Require Import LubSum Geometric.
Import ListNotations.
Local Open Scope R_scope.

Fixpoint dens (ts : list R) (v : list Z) : R :=
  match ts, v with
  | [], [] => 1
  | t :: ts', z :: v' => dlaplace t z * dens ts' v'
  | _, _ => 0
  end.

Definition rates_pos (ts : list R) : Prop := forall t, In t ts -> 0 < t.

Lemma rates_pos_cons (t : R) (ts : list R) : rates_pos (t :: ts) -> 0 < t /\ rates_pos ts.
Proof. intros H. split; [apply H; now left|intros u Hu; apply H; now right]. Qed.

Lemma dens_nonneg (ts : list R) (v : list Z) : rates_pos ts -> 0 <= dens ts v.
Proof.
  revert v. induction ts as [|t ts IH]; intros [|z v] Hts; cbn [dens]; try lra.
  apply rates_pos_cons in Hts as [Ht Hts].
  apply Rmult_le_pos; [apply dlaplace_nonneg, Ht|apply IH, Hts].
Qed.

Lemma dens_length (ts : list R) (v : list Z) : length v <> length ts -> dens ts v = 0.
Proof.
  revert v. induction ts as [|t ts IH]; intros [|z v] H; cbn [dens length] in *; try lia; try reflexivity.
  rewrite IH by lia. ring.
Qed.

(** ** The box [−m, m]^n *)

Fixpoint box (n m : nat) : list (list Z) :=
  match n with
  | O => [[]]
  | S n' => flat_map (fun z => map (cons z) (box n' m)) (win m)
  end.

Lemma in_box (n m : nat) (v : list Z) :
  length v = n -> (forall z, In z v -> (Z.abs_nat z <= m)%nat) -> In v (box n m).
Proof.
  revert v. induction n as [|n IH]; intros [|z v] Hl Hz; cbn [length box] in *; try lia.
  - now left.
  - apply in_flat_map. exists z. split; [apply in_win, Hz; now left|].
    apply in_map, IH; [lia|]. intros y Hy. apply Hz. now right.
Qed.

Lemma rsum_map_flat_map {A B} (f : B -> R) (g : A -> list B) (l : list A) :
  rsum (map f (flat_map g l)) = rsum (map (fun a => rsum (map f (g a))) l).
Proof.
  induction l as [|a l IH]; cbn [flat_map]; [reflexivity|]. rewrite rsum_map_app, rsum_map_cons, IH. reflexivity.
Qed.

Lemma dens_box_le (ts : list R) (m : nat) : rates_pos ts -> rsum (map (dens ts) (box (length ts) m)) <= 1.
Proof.
  induction ts as [|t ts IH]; intros Hts; cbn [length box].
  - rewrite rsum_map_cons, rsum_map_nil. cbn [dens]. lra.
  - apply rates_pos_cons in Hts as [Ht Hts]. rewrite rsum_map_flat_map.
    set (C := rsum (map (dens ts) (box (length ts) m))).
    assert (E : forall z, rsum (map (dens (t :: ts)) (map (cons z) (box (length ts) m))) = C * dlaplace t z).
    { intros z. rewrite rsum_map_map. cbn [dens]. rewrite rsum_scal. unfold C. ring. }
    rewrite (map_ext _ _ E).
    rewrite rsum_scal.
    pose proof (dlaplace_sum_le t Ht (win m) (win_NoDup m)).
    pose proof (rsum_map_nonneg (dlaplace t) (win m) (fun z => dlaplace_nonneg t z Ht)).
    pose proof (rsum_map_nonneg (dens ts) (box (length ts) m) (fun v => dens_nonneg ts v Hts)).
    specialize (IH Hts). fold C in IH. nra.
Qed.

(** Every finite sum of the density over distinct vectors is at most 1. *)
Lemma dens_sum_le (ts : list R) : rates_pos ts -> sum_le (dens ts) 1.
Proof.
  intros Hts l Hnd.
  set (m := fold_right (fun v acc => fold_right (fun z a => Nat.max (Z.abs_nat z) a) acc v) O l).
  assert (Hm : forall v z, In v l -> In z v -> (Z.abs_nat z <= m)%nat).
  { unfold m. clear. induction l as [|w l IH]; cbn [In fold_right]; [tauto|].
    intros v z [->|Hv] Hz.
    - set (acc := fold_right _ O l). clear IH. induction v as [|y v IHv]; cbn [In fold_right] in *; [tauto|].
      destruct Hz as [<-|Hz]; [lia|]. specialize (IHv Hz). lia.
    - specialize (IH v z Hv Hz). set (acc := fold_right _ O l) in *. clear -IH.
      induction w as [|y w IHw]; cbn [fold_right]; lia. }
  eapply Rle_trans; [apply (rsum_map_sub _ _ (box (length ts) m))|apply dens_box_le, Hts].
  - intros v. apply dens_nonneg, Hts.
  - exact Hnd.
  - intros v Hv H0. apply in_box.
    + destruct (Nat.eq_dec (length v) (length ts)) as [E|E]; [exact E|].
      exfalso. apply H0, dens_length, E.
    + intros z Hz. apply (Hm v z Hv Hz).
Qed.

(** The density is a sub-distribution on Z^n (Core/SubDistr.v). *)
Lemma dens_subdistr_all (ts : list R) : rates_pos ts -> subdistr_all (dens ts).
Proof.
  intros Hts. apply sum_le_iff_subdistr_all; [intros v; apply dens_nonneg, Hts|apply dens_sum_le, Hts].
Qed.

(** ** Shifts *)

(** [v + s], entry by entry; [s] shorter than [v] is padded with zeros. *)
Fixpoint vadd (v s : list Z) : list Z :=
  match v, s with
  | z :: v', d :: s' => (z + d)%Z :: vadd v' s'
  | _, _ => v
  end.

(** The cost of the shift [s]: Σ t_i·|s_i|. *)
Fixpoint cost (ts : list R) (s : list Z) : R :=
  match ts, s with
  | t :: ts', d :: s' => t * IZR (Z.abs d) + cost ts' s'
  | _, _ => 0
  end.

Lemma vadd_length (v s : list Z) : length (vadd v s) = length v.
Proof.
  revert s. induction v as [|z v IH]; intros [|d s]; cbn [vadd length]; try reflexivity. now rewrite IH.
Qed.

Lemma vadd_inj (v v' s : list Z) : vadd v s = vadd v' s -> v = v'.
Proof.
  revert v' s. induction v as [|z v IH]; intros [|z' v'] [|d s]; cbn [vadd]; intros H;
    try discriminate; try exact H.
  injection H as Hz Hv. f_equal; [lia|]. exact (IH v' s Hv).
Qed.

(** Shifting costs at most [cost ts s] in the density. *)
Lemma dens_shift (ts : list R) (v s : list Z) : rates_pos ts ->
  dens ts v <= exp (cost ts s) * dens ts (vadd v s).
Proof.
  revert v s. induction ts as [|t ts IH]; intros v s Hts.
  - destruct v, s; cbn [dens vadd cost]; rewrite exp_0; lra.
  - apply rates_pos_cons in Hts as [Ht Hts].
    destruct v as [|z v]; [cbn [dens]; pose proof (exp_pos (cost (t :: ts) s)); destruct s; cbn; lra|].
    destruct s as [|d s].
    + cbn [vadd cost]. rewrite exp_0. lra.
    + cbn [dens vadd cost]. rewrite exp_plus.
      pose proof (dlaplace_shift t z d Ht). pose proof (IH v s Hts).
      pose proof (dlaplace_nonneg t z Ht). pose proof (dens_nonneg ts v Hts).
      pose proof (exp_pos (t * IZR (Z.abs d))). pose proof (exp_pos (cost ts s)).
      replace (exp (t * IZR (Z.abs d)) * exp (cost ts s) * (dlaplace t (z + d) * dens ts (vadd v s)))
        with ((exp (t * IZR (Z.abs d)) * dlaplace t (z + d)) * (exp (cost ts s) * dens ts (vadd v s))) by ring.
      apply Rmult_le_compat; lra.
Qed.

Lemma cost_nonneg (ts : list R) (s : list Z) : rates_pos ts -> 0 <= cost ts s.
Proof.
  revert s. induction ts as [|t ts IH]; intros [|d s] Hts; cbn [cost]; try lra.
  apply rates_pos_cons in Hts as [Ht Hts]. pose proof (IH s Hts).
  pose proof (IZR_le 0 _ (Z.abs_nonneg d)). nra.
Qed.
