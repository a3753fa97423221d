(** * Report-noisy-max: its runs, its alignment and its cost, for every k

    [rnm_go j best arg x ns] is the index a report-noisy-max run releases
    after the elements [j..] of the answers [x] with noise [ns], from the
    running maximum [best] at index [arg]: the first index of the largest
    noisy answer (a later answer must be strictly larger to win).  A generated
    file proves that its program's tape semantics is this function; the
    alignment is proved here once: shift only the winner's noise, by
    [f q q'], enough to lift it Δ above its own value; every other neighbour
    answer is at most Δ above the original, so the winner stays the first
    maximum.  The shift depends on the output (the winner) and costs
    rate·|f| once, whatever k. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import Product SeqTape.
Import ListNotations.
Local Open Scope R_scope.

Fixpoint rnm_go (j best arg : Z) (x ns : list Z) : Z :=
  match x, ns with
  | q :: x', n :: ns' =>
      if ((j =? 0) || (best <? q + n))%Z%bool then rnm_go (j + 1) (q + n) j x' ns'
      else rnm_go (j + 1) best arg x' ns'
  | _, _ => arg
  end.

Fixpoint rnm_sh (f : Z -> Z -> Z) (j w : Z) (x x' : list Z) : list Z :=
  match x, x' with
  | a :: x1, b :: x1' => (if (j =? w)%Z then f a b else 0%Z) :: rnm_sh f (j + 1) w x1 x1'
  | _, _ => []
  end.

Definition rnm_shift (f : Z -> Z -> Z) (x x' : list Z) (o : option (list oval)) : list Z :=
  match o with Some [OVal w] => rnm_sh f 0 w x x' | _ => [] end.

Lemma rnm_go_range (x : list Z) : forall ns j b a,
  rnm_go j b a x ns = a \/ (j <= rnm_go j b a x ns)%Z.
Proof.
  induction x as [|q x IH]; intros ns j b a; destruct ns as [|n ns]; cbn [rnm_go]; auto.
  destruct ((j =? 0) || (b <? q + n))%Z%bool.
  - destruct (IH ns (j + 1)%Z (q + n)%Z j) as [H|H]; right; lia.
  - destruct (IH ns (j + 1)%Z b a) as [H|H]; [left; exact H|right; lia].
Qed.

(** After the winner: the neighbour's aligned run keeps it. *)
Lemma rnm_after (delta : Z) (f : Z -> Z -> Z) (x x' : list Z) : stream_nb delta x x' ->
  forall ns j b b' w, length ns = length x -> (w < j)%Z -> (1 <= j)%Z ->
  rnm_go j b w x ns = w -> (b + delta <= b')%Z ->
  rnm_go j b' w x' (vadd ns (rnm_sh f j w x x')) = w.
Proof.
  intros Hnb. induction Hnb as [|q r x1 x1' Hqr Hnb IH]; intros ns j b b' w Hl Hw Hj Hgo Hb.
  - reflexivity.
  - destruct ns as [|n ns]; [discriminate|]. cbn [length] in Hl.
    cbn [rnm_go rnm_sh vadd] in *.
    replace (j =? 0)%Z with false in * by (symmetry; apply Z.eqb_neq; lia).
    replace (j =? w)%Z with false by (symmetry; apply Z.eqb_neq; lia). cbn [orb] in *.
    destruct (b <? q + n)%Z eqn:E.
    + exfalso. destruct (rnm_go_range x1 ns (j + 1) (q + n) j) as [H|H]; lia.
    + apply Z.ltb_ge in E.
      replace (b' <? r + (n + 0))%Z with false by (symmetry; apply Z.ltb_ge; lia).
      apply (IH ns (j + 1)%Z b b' w); lia || assumption.
Qed.

(** Up to the winner: the aligned best is at most Δ above the original's. *)
Lemma rnm_before (delta : Z) (f : Z -> Z -> Z) :
  (forall a b, (Z.abs (a - b) <= delta)%Z -> (a + delta <= b + f a b)%Z) ->
  forall x x', stream_nb delta x x' ->
  forall ns j b a b' a', length ns = length x -> (0 <= j)%Z ->
  ((j = 0 /\ a' = a) \/ (a < j /\ b' <= b + delta))%Z ->
  (j <= rnm_go j b a x ns)%Z ->
  rnm_go j b' a' x' (vadd ns (rnm_sh f j (rnm_go j b a x ns) x x')) = rnm_go j b a x ns.
Proof.
  intros Hf x x' Hnb. induction Hnb as [|q r x1 x1' Hqr Hnb IH]; intros ns j b a b' a' Hl Hj Hinv Hw.
  - cbn [rnm_go] in *. destruct ns; cbn; lia.
  - destruct ns as [|n ns]; [discriminate|]. cbn [length] in Hl.
    set (w := rnm_go j b a (q :: x1) (n :: ns)) in *.
    cbn [rnm_sh vadd rnm_go].
    destruct ((j =? 0) || (b <? q + n))%Z%bool eqn:E.
    + (* the original takes q + n at j *)
      assert (Hw' : w = rnm_go (j + 1) (q + n) j x1 ns) by (unfold w; cbn [rnm_go]; rewrite E; reflexivity).
      destruct (Z.eq_dec j w) as [Hjw|Hjw].
      * (* j is the winner *)
        rewrite <- Hjw, Z.eqb_refl.
        assert (Hb' : ((j =? 0) || (b' <? r + (n + f q r)))%Z%bool = true).
        { apply orb_true_iff. destruct (Z.eq_dec j 0) as [->|Hj0]; [left; reflexivity|right].
          destruct Hinv as [[H0 _]|[Ha Hb]]; [lia|].
          apply orb_true_iff in E as [E|E]; [apply Z.eqb_eq in E; lia|].
          apply Z.ltb_lt in E. apply Z.ltb_lt. specialize (Hf q r Hqr). lia. }
        rewrite Hb'.
        apply (rnm_after delta f x1 x1' Hnb ns (j + 1) (q + n) (r + (n + f q r)) j);
          [lia|lia|lia|rewrite <- Hjw in Hw'; symmetry; exact Hw'|specialize (Hf q r Hqr); lia].
      * replace (j =? w)%Z with false by (symmetry; apply Z.eqb_neq; exact Hjw).
        destruct (rnm_go_range x1 ns (j + 1) (q + n) j) as [H|H]; [exfalso; lia|].
        rewrite Hw'.
        destruct ((j =? 0) || (b' <? r + (n + 0)))%Z%bool eqn:E'.
        -- apply (IH ns (j + 1)%Z (q + n)%Z j (r + (n + 0))%Z j); [lia|lia| |exact H].
           right. split; [lia|]. specialize (Hqr). lia.
        -- apply (IH ns (j + 1)%Z (q + n)%Z j b' a'); [lia|lia| |exact H].
           right. split; [lia|].
           apply orb_false_iff in E' as [E1 _]. apply Z.eqb_neq in E1.
           destruct Hinv as [[H0 _]|[Ha Hb]]; [lia|].
           apply orb_true_iff in E as [E|E]; [apply Z.eqb_eq in E; lia|]. apply Z.ltb_lt in E. lia.
    + (* the original keeps its best at j *)
      assert (Hw' : w = rnm_go (j + 1) b a x1 ns) by (unfold w; cbn [rnm_go]; rewrite E; reflexivity).
      apply orb_false_iff in E as [E1 E2]. apply Z.eqb_neq in E1. apply Z.ltb_ge in E2.
      destruct Hinv as [[H0 _]|[Ha Hb]]; [lia|].
      assert (Hjw : j <> w).
      { intros Hjw. destruct (rnm_go_range x1 ns (j + 1) b a) as [H|H]; lia. }
      replace (j =? w)%Z with false by (symmetry; apply Z.eqb_neq; exact Hjw).
      replace (j =? 0)%Z with false by (symmetry; apply Z.eqb_neq; exact E1). cbn [orb].
      assert (Hw1 : (j + 1 <= rnm_go (j + 1) b a x1 ns)%Z) by lia.
      rewrite Hw'.
      destruct (b' <? r + (n + 0))%Z eqn:E'.
      * apply (IH ns (j + 1)%Z b a (r + (n + 0))%Z j); [lia|lia| |exact Hw1].
        right. split; [lia|]. lia.
      * apply (IH ns (j + 1)%Z b a b' a'); [lia|lia| |exact Hw1].
        right. split; lia.
Qed.

Lemma cost_rnm_sh_zero (f : Z -> Z -> Z) (w : Z) (x x' : list Z) : forall ts j, (w < j)%Z ->
  cost ts (rnm_sh f j w x x') = 0.
Proof.
  revert x'. induction x as [|a x IH]; intros [|b x'] ts j Hj; cbn [rnm_sh];
    try (destruct ts; reflexivity).
  replace (j =? w)%Z with false by (symmetry; apply Z.eqb_neq; lia).
  destruct ts as [|t ts]; [reflexivity|]. cbn [cost]. rewrite IH by lia. rewrite Z.abs_0. ring.
Qed.

Lemma cost_rnm_sh (delta m : Z) (f : Z -> Z -> Z) (rr : R) (w : Z) :
  0 <= rr -> (0 <= m)%Z -> (forall a b, (Z.abs (a - b) <= delta)%Z -> (Z.abs (f a b) <= m)%Z) ->
  forall x x', stream_nb delta x x' -> forall ts j, (forall t, In t ts -> t = rr) ->
  cost ts (rnm_sh f j w x x') <= rr * IZR m.
Proof.
  intros Hr Hm0 Hm x x' Hnb. induction Hnb as [|a b x1 x1' Hab Hnb IH]; intros ts j Hts.
  - cbn [rnm_sh]. destruct ts; cbn [cost]; apply Rmult_le_pos; [exact Hr|apply IZR_le, Hm0|exact Hr|apply IZR_le, Hm0].
  - destruct ts as [|t ts].
    { cbn [rnm_sh cost]. apply Rmult_le_pos; [exact Hr|apply IZR_le, Hm0]. }
    assert (Ht : t = rr) by (apply Hts; now left). subst t.
    cbn [rnm_sh cost]. destruct (j =? w)%Z eqn:E.
    + apply Z.eqb_eq in E. rewrite cost_rnm_sh_zero by lia. rewrite Rplus_0_r.
      apply Rmult_le_compat_l; [exact Hr|apply IZR_le, Hm, Hab].
    + rewrite Z.abs_0, Rmult_0_r, Rplus_0_l. apply IH. intros u Hu. apply Hts. now right.
Qed.

(** ** The DP of report-noisy-max, for every stream length and every ε

    A program whose tape semantics is [Some [OVal (rnm_go 0 0 0 x v)]] on the
    layout [repeat (nq, dq) k] is ε-DP for every k and ε > 0 when shifting
    the winner's noise by [f q q'] lifts it at least Δ above its value
    (|f| ≤ m) and m·dq/nq ≤ 1. *)
Theorem rnm_dp_stream (delta m : Z) (nq dq : positive) (f : Z -> Z -> Z) (p : nat -> stmt) (nvars : nat) :
  (forall k x v, length x = k -> length v = k ->
     tape_run (repeat (nq, dq) k) (p k) nvars x v = Some [OVal (rnm_go 0 0 0 x v)]) ->
  (forall a b, (Z.abs (a - b) <= delta)%Z -> (a + delta <= b + f a b)%Z) ->
  (forall a b, (Z.abs (a - b) <= delta)%Z -> (Z.abs (f a b) <= m)%Z) -> (0 <= m)%Z ->
  (forall eps, 0 < eps -> eps * IZR (Zpos dq) / IZR (Zpos nq) * IZR m <= eps) ->
  dp_stream delta p (fun k => repeat (nq, dq) k) nvars.
Proof.
  intros Hrun Hf Hm Hm0 Hcost.
  apply (dp_stream_of_alignment _ _ _ _ (rnm_shift f)).
  - intros k x x' v Hx Hnb Hv. rewrite repeat_length in Hv.
    pose proof (stream_nb_length _ _ _ Hnb) as Hx'.
    rewrite (Hrun k x v Hx Hv). cbn [rnm_shift].
    rewrite (Hrun k x' _ ltac:(lia)) by (rewrite vadd_length; exact Hv).
    do 3 f_equal.
    apply (rnm_before delta f Hf x x' Hnb v 0 0 0 0 0); [lia|lia|left; auto|].
    destruct (rnm_go_range x v 0 0 0) as [H|H]; lia.
  - intros k eps x x' v He Hx Hnb Hv. rewrite repeat_length in Hv.
    rewrite (Hrun k x v Hx Hv). cbn [rnm_shift]. unfold rates.
    eapply Rle_trans; [|apply (Hcost eps He)].
    apply (cost_rnm_sh delta m f); [|exact Hm0|exact Hm|exact Hnb|].
    + apply Rlt_le, Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact He|apply IZR_lt; lia]|apply IZR_lt; lia].
    + intros t Ht. apply in_map_iff in Ht as [w [<- Hw]]. apply repeat_spec in Hw. subst w. reflexivity.
Qed.

(** Position [j] of the layout [repeat (num, den) k] has the scale [num/den]. *)
Lemma scale_at_repeat_at (num den : positive) (k j : nat) :
  (j < k)%nat -> scale_at (repeat (num, den) k) j num den = true.
Proof.
  intros H. unfold scale_at. rewrite nth_error_repeat by exact H. rewrite !Pos.eqb_refl. reflexivity.
Qed.
