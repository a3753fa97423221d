(** * The probability of an event bracketed by finite windows of noise vectors

    [prob_event ts run S] (Alignment.v) is a least upper bound of finite sums,
    so any finite sum over distinct noise vectors is a lower bound.  An upper
    bound needs the mass the window misses: for every list [l] of distinct
    vectors, Pr[run ∈ S] ≤ 1 − Σ_{v ∈ l, run v ∉ S} dens v (the complement's
    window), which is the window's sum plus the tail 1 − Σ_{v ∈ l} dens v.  Only
    "every finite sum of the density is ≤ 1" is used (Product.v): no total mass,
    no series.

    The windows used are boxes: the product of integer ranges [lo_i, hi_i], one
    per noise coordinate ([boxw]), duplicate-free. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import Lists Sums.
From Obligations.Program Require Import ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment.
Import ListNotations.
Local Open Scope R_scope.

(** ** Lower and upper bounds *)

Lemma prob_event_ge {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  fsum (fun v => dens ts v * indicator (S (run v))) l <= prob_event ts run S.
Proof.
  intros Hts Hl. unfold prob_event. apply tsum1_ge; [exact Hl|]. apply prob_event_sum_le; assumption.
Qed.

Lemma fsum_indicator_split {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  fsum (fun v => dens ts v * indicator (S (run v))) l
  + fsum (fun v => dens ts v * indicator (negb (S (run v)))) l = fsum (dens ts) l.
Proof.
  induction l as [|v l IH]; rewrite ?fsum_cons, ?fsum_nil; [ring|].
  rewrite <- IH. unfold indicator. destruct (S (run v)); cbn [negb]; ring.
Qed.

(** The upper bound by the complement's window. *)
Lemma prob_event_le {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  prob_event ts run S <= 1 - fsum (fun v => dens ts v * indicator (negb (S (run v)))) l.
Proof.
  intros Hts Hl. unfold prob_event. apply tsum1_le. intros l0 H0.
  set (u := nodup (list_eq_dec Z.eq_dec) (l0 ++ l)).
  assert (Hu : NoDup u) by apply NoDup_nodup.
  assert (Hin : forall v, In v l0 \/ In v l -> In v u).
  { intros v Hv. apply nodup_In, in_app_iff, Hv. }
  set (fS := fun v => dens ts v * indicator (S (run v))).
  set (fC := fun v => dens ts v * indicator (negb (S (run v)))).
  assert (Hnn : forall (b : bool) v, 0 <= dens ts v * indicator b).
  { intros b v. pose proof (dens_nonneg ts v Hts). unfold indicator; destruct b; lra. }
  assert (H1 : fsum fS l0 <= fsum fS u).
  { apply fsum_sub; [intros v; apply Hnn|exact H0|intros v Hv _; apply Hin; now left]. }
  assert (H2 : fsum fC l <= fsum fC u).
  { apply fsum_sub; [intros v; apply Hnn|exact Hl|intros v Hv _; apply Hin; now right]. }
  pose proof (fsum_indicator_split ts run S u) as E. fold fS fC in E.
  pose proof (dens_sum_le ts Hts u Hu). lra.
Qed.

(** The same, as the window's sum plus the mass it misses. *)
Lemma prob_event_le_tail {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  prob_event ts run S <= fsum (fun v => dens ts v * indicator (S (run v))) l + (1 - fsum (dens ts) l).
Proof.
  intros Hts Hl. pose proof (prob_event_le ts run S l Hts Hl).
  pose proof (fsum_indicator_split ts run S l). lra.
Qed.

(** ** Boxes *)

(** The vectors whose i-th entry lies in the i-th window [lo_i, hi_i]. *)
Fixpoint boxw (w : list (Z * Z)) : list (list Z) :=
  match w with
  | [] => [[]]
  | (lo, hi) :: w' => flat_map (fun z => map (cons z) (boxw w')) (zrange lo hi)
  end.

Lemma NoDup_zseq (z : Z) (n : nat) : NoDup (zseq z n).
Proof.
  revert z. induction n as [|n IH]; intros z; cbn [zseq]; constructor; [|apply IH].
  intros H. apply in_zseq in H. lia.
Qed.

Lemma NoDup_app_disj {A} (l1 l2 : list A) :
  NoDup l1 -> NoDup l2 -> (forall a, In a l1 -> ~ In a l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; intros H1 H2 Hd; [exact H2|].
  apply NoDup_cons_iff in H1 as [Ha H1]. cbn [app]. constructor.
  - intros H. apply in_app_iff in H as [H|H]; [contradiction|]. exact (Hd a (or_introl eq_refl) H).
  - apply IH; [exact H1|exact H2|]. intros b Hb. apply Hd. now right.
Qed.

Lemma NoDup_flat_map_cons (zs : list Z) (L : list (list Z)) :
  NoDup zs -> NoDup L -> NoDup (flat_map (fun z => map (cons z) L) zs).
Proof.
  intros Hz HL. induction zs as [|z zs IH]; cbn [flat_map]; [constructor|].
  apply NoDup_cons_iff in Hz as [Hza Hz]. apply NoDup_app_disj.
  - apply NoDup_map_on; [|exact HL]. intros a b _ _ H. injection H as H. exact H.
  - apply IH, Hz.
  - intros v Hv Hv'. apply in_map_iff in Hv as [a [<- _]].
    apply in_flat_map in Hv' as [y [Hy Hyv]]. apply in_map_iff in Hyv as [b [Hb _]].
    injection Hb as -> _. contradiction.
Qed.

Lemma boxw_NoDup (w : list (Z * Z)) : NoDup (boxw w).
Proof.
  induction w as [|[lo hi] w IH]; cbn [boxw]; [repeat constructor; intros []|].
  apply NoDup_flat_map_cons; [apply NoDup_zseq|exact IH].
Qed.

Lemma in_boxw (w : list (Z * Z)) (v : list Z) :
  In v (boxw w) -> Forall2 (fun z lh => (fst lh <= z <= snd lh)%Z) v w.
Proof.
  revert v. induction w as [|[lo hi] w IH]; intros v Hv; cbn [boxw] in Hv.
  - destruct Hv as [<-|[]]. constructor.
  - apply in_flat_map in Hv as [z [Hz Hzv]]. apply in_map_iff in Hzv as [v' [<- Hv']].
    apply in_zrange in Hz. constructor; [exact Hz|apply IH, Hv'].
Qed.
