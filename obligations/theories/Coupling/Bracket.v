(** * The probability of an event bracketed by finite windows of noise vectors

    [prob_event ts run S] (Alignment.v) is a least upper bound of finite sums,
    so any finite sum over distinct noise vectors is a lower bound.  An upper
    bound needs the mass the window misses: for every list [l] of distinct
    vectors, Pr[run ∈ S] ≤ 1 − Σ_{v ∈ l, run v ∉ S} dens v (the complement's
    window), which is the window's sum plus the tail 1 − Σ_{v ∈ l} dens v.  Only
    "every finite sum of the density is ≤ 1" is used (Product.v): no total mass,
    no series.

    The windows used are balls: the vectors with Σ n_i·|v_i| ≤ R ([ball]),
    duplicate-free; with densities proportional to Π a^(n_i·|v_i|) (RatDens.v)
    they are the vectors of density at least a bound, so a ball holds nearly all
    the mass with few vectors. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import Lists Sums.
From Obligations.Program Require Import ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment.
Import ListNotations.
Local Open Scope R_scope.

(** ** Lower and upper bounds *)

Lemma prob_event_ge {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  rsum (map (fun v => dens ts v * indicator (S (run v))) l) <= prob_event ts run S.
Proof.
  intros Hts Hl. unfold prob_event. apply tsum1_ge; [exact Hl|]. apply prob_event_sum_le; assumption.
Qed.

Lemma fsum_indicator_split {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rsum (map (fun v => dens ts v * indicator (S (run v))) l)
  + rsum (map (fun v => dens ts v * indicator (negb (S (run v)))) l) = rsum (map (dens ts) l).
Proof.
  induction l as [|v l IH]; rewrite ?rsum_map_cons, ?rsum_map_nil; [ring|].
  rewrite <- IH. unfold indicator. destruct (S (run v)); cbn [negb]; ring.
Qed.

(** The upper bound by the complement's window. *)
Lemma prob_event_le {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  prob_event ts run S <= 1 - rsum (map (fun v => dens ts v * indicator (negb (S (run v)))) l).
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
  assert (H1 : rsum (map fS l0) <= rsum (map fS u)).
  { apply rsum_map_sub; [intros v; apply Hnn|exact H0|intros v Hv _; apply Hin; now left]. }
  assert (H2 : rsum (map fC l) <= rsum (map fC u)).
  { apply rsum_map_sub; [intros v; apply Hnn|exact Hl|intros v Hv _; apply Hin; now right]. }
  pose proof (fsum_indicator_split ts run S u) as E. fold fS fC in E.
  pose proof (dens_sum_le ts Hts u Hu). lra.
Qed.

(** The same, as the window's sum plus the mass it misses. *)
Lemma prob_event_le_tail {O} (ts : list R) (run : list Z -> O) (S : O -> bool) (l : list (list Z)) :
  rates_pos ts -> NoDup l ->
  prob_event ts run S <= rsum (map (fun v => dens ts v * indicator (S (run v))) l) + (1 - rsum (map (dens ts) l)).
Proof.
  intros Hts Hl. pose proof (prob_event_le ts run S l Hts Hl).
  pose proof (fsum_indicator_split ts run S l). lra.
Qed.

(** ** Balls *)

(** The vectors of [length ns] integers with Σ n_i·|v_i| ≤ R ([ns] non-negative weights):
    the noise vectors of density at least a fixed bound, when the i-th coordinate's
    density falls by a factor a^(n_i) per unit. *)
Fixpoint zexp (ns v : list Z) : Z :=
  match ns, v with
  | n :: ns', z :: v' => (n * Z.abs z + zexp ns' v')%Z
  | _, _ => 0%Z
  end.

Fixpoint ball (ns : list Z) (R : Z) : list (list Z) :=
  match ns with
  | [] => if (R <? 0)%Z then [] else [[]]
  | n :: ns' => flat_map (fun z => map (cons z) (ball ns' (R - n * Z.abs z))) (zrange (- (R / n)) (R / n))
  end.

Lemma nodup_zseq (z : Z) (n : nat) : NoDup (zseq z n).
Proof.
  revert z. induction n as [|n IH]; intros z; cbn [zseq]; constructor; [|apply IH].
  intros H. apply in_zseq in H. lia.
Qed.

Lemma nodup_app_disj {A} (l1 l2 : list A) :
  NoDup l1 -> NoDup l2 -> (forall a, In a l1 -> ~ In a l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; intros H1 H2 Hd; [exact H2|].
  apply NoDup_cons_iff in H1 as [Ha H1]. cbn [app]. constructor.
  - intros H. apply in_app_iff in H as [H|H]; [contradiction|]. exact (Hd a (or_introl eq_refl) H).
  - apply IH; [exact H1|exact H2|]. intros b Hb. apply Hd. now right.
Qed.

Lemma nodup_flat_map_cons (zs : list Z) (L : Z -> list (list Z)) :
  NoDup zs -> (forall z, NoDup (L z)) -> NoDup (flat_map (fun z => map (cons z) (L z)) zs).
Proof.
  intros Hz HL. induction zs as [|z zs IH]; cbn [flat_map]; [constructor|].
  apply NoDup_cons_iff in Hz as [Hza Hz]. apply nodup_app_disj.
  - apply nodup_map_on; [|apply HL]. intros a b _ _ H. injection H as H. exact H.
  - apply IH, Hz.
  - intros v Hv Hv'. apply in_map_iff in Hv as [a [<- _]].
    apply in_flat_map in Hv' as [y [Hy Hyv]]. apply in_map_iff in Hyv as [b [Hb _]].
    injection Hb as -> _. contradiction.
Qed.

Lemma ball_NoDup (ns : list Z) (R : Z) : NoDup (ball ns R).
Proof.
  revert R. induction ns as [|n ns IH]; intros R; cbn [ball].
  - destruct (R <? 0)%Z; repeat constructor. intros [].
  - apply nodup_flat_map_cons; [apply nodup_zseq|intros z; apply IH].
Qed.

Lemma in_ball (ns : list Z) (R : Z) (v : list Z) :
  In v (ball ns R) -> length v = length ns /\ (zexp ns v <= R)%Z.
Proof.
  revert R v. induction ns as [|n ns IH]; intros R v Hv; cbn [ball] in Hv.
  - destruct (Z.ltb_spec R 0); [destruct Hv|]. destruct Hv as [<-|[]]. cbn. lia.
  - apply in_flat_map in Hv as [z [_ Hzv]]. apply in_map_iff in Hzv as [v' [<- Hv']].
    destruct (IH _ _ Hv') as [H1 H2]. cbn [length zexp]. lia.
Qed.
