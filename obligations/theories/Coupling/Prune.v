(** * The upper window of a counterexample, summed by pruning tape prefixes

    [bracket_check] (Refute.v) runs the program on every vector of the upper
    ball.  A run reads its tape in increasing order of positions (TapeSem.v),
    so a run on a tape prefix [u] (the positions below [length u]) either
    finishes without reading further, and then every tape extending [u] gives
    the same run, or stops at the first position it lacks, and then every run
    extending [u] releases the outputs so far followed by more.  When no
    sequence of the event starts with those outputs, every vector of the
    subtree below [u] runs outside the event.  Either way the subtree is
    decided, and its share of the window sum is its mass in closed form
    ([bmass]: a sum over the remaining coordinates, no run of the program).
    [pwalk] walks the ball's tree, deciding each prefix before expanding it
    (but a prefix with one child: the child is decided instead, or run whole);
    [pwalk_zsum] proves it equals the window sum [bracket_check] computes, so
    [not_dp_all_k_of_pruned] refutes the same claim with far fewer runs.  The
    masses are looked up in tables made once per suffix and radius ([mktabs],
    [pwalkt]). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import Lists.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import TapeSem InputRel Bracket RatDens Refute.
Import ListNotations.
Local Open Scope Z_scope.

(** ** Runs on a tape prefix *)

(** The run on the prefix [u]; the flag says it stopped at a position [u] lacks. *)
Fixpoint tfor_pre (step : nat -> tstate -> tstate * bool) (x : nat) (sb a : nat) (i : Z) (n : nat) (st : tstate)
    : tstate * bool :=
  match n with
  | O => (st, false)
  | S n' =>
      if thalted st then (st, false) else
      let r := step a (tset x i st) in
      if snd r then r else tfor_pre step x sb (a + sb) (Z.succ i) n' (fst r)
  end.

Fixpoint texec_pre (u : list Z) (s : stmt) (a : nat) (st : tstate) {struct s} : tstate * bool :=
  if thalted st then (st, false) else
  match s with
  | SSeq s1 s2 =>
      let r := texec_pre u s1 a st in
      if snd r then r else texec_pre u s2 (a + size s1) (fst r)
  | SSample x (DGeom _ _ c) =>
      if Nat.ltb a (length u) then (tset x (aeval (tenv st) c + nth a u 0) st, false) else (st, true)
  | SIf b s1 s2 =>
      if beval (tenv st) b then texec_pre u s1 a (tbranch true st)
      else texec_pre u s2 (a + size s1) (tbranch false st)
  | SFor x n body => tfor_pre (texec_pre u body) x (size body) a 0 n st
  | _ => (texec (fun _ => 0) s a st, false)
  end.

(** The full run only appends outputs. *)
Lemma tfor_out (v : nat -> Z) (body : stmt) (x sb : nat) :
  (forall a st, exists o, tout (texec v body a st) = tout st ++ o) ->
  forall n a i st, exists o, tout (tfor (texec v body) x sb a i n st) = tout st ++ o.
Proof.
  intros Hb n. induction n as [|n IH]; intros a i st; cbn [tfor]; [exists []; rewrite app_nil_r; reflexivity|].
  destruct (IH (a + sb)%nat (Z.succ i) (if thalted st then st else texec v body a (tset x i st))) as [o Ho].
  rewrite Ho. destruct (thalted st); [now exists o|].
  destruct (Hb a (tset x i st)) as [o' Ho']. rewrite Ho'. exists (o' ++ o). cbn. apply app_assoc_reverse.
Qed.

Lemma texec_out (v : nat -> Z) (s : stmt) : forall a st, exists o, tout (texec v s a st) = tout st ++ o.
Proof.
  induction s; intros pos st; cbn [texec]; destruct (thalted st); try (exists []; rewrite app_nil_r; reflexivity).
  all: try (exists []; cbn; rewrite app_nil_r; reflexivity).
  - destruct (IHs1 pos st) as [o1 H1]. destruct (IHs2 (pos + size s1)%nat (texec v s1 pos st)) as [o2 H2].
    exists (o1 ++ o2). rewrite H2, H1. apply app_assoc_reverse.
  - destruct d; exists []; cbn; rewrite app_nil_r; reflexivity.
  - destruct (beval (tenv st) b);
      [destruct (IHs1 pos (tbranch true st)) as [o H]|destruct (IHs2 (pos + size s1)%nat (tbranch false st)) as [o H]];
      exists o; exact H.
  - apply tfor_out, IHs.
  - now exists [OVal (aeval (tenv st) a)].
  - now exists [OTop].
  - now exists [OBot].
Qed.

(** A prefix run and a full run on a tape extending it. *)
Definition psim (r : tstate * bool) (st : tstate) : Prop :=
  if snd r then exists o, tout st = tout (fst r) ++ o else st = fst r.

Lemma psim_out (v : nat -> Z) (s : stmt) (a : nat) (r : tstate * bool) (st : tstate) :
  snd r = true -> psim r st -> psim r (texec v s a st).
Proof.
  unfold psim. intros H. rewrite H. intros [o Ho]. destruct (texec_out v s a st) as [o' Ho'].
  exists (o ++ o'). rewrite Ho', Ho. apply app_assoc_reverse.
Qed.

Lemma texec_pre_sim (u : list Z) (v : nat -> Z) :
  (forall a, (a < length u)%nat -> v a = nth a u 0) ->
  forall s a st, psim (texec_pre u s a st) (texec v s a st).
Proof.
  intros Hv s. induction s; intros pos st; cbn [texec_pre texec]; destruct (thalted st) eqn:Hh;
    try (unfold psim; cbn [fst snd]; reflexivity); try (unfold psim; cbn [fst snd texec]; rewrite Hh; reflexivity).
  - destruct (texec_pre u s1 pos st) as [st1 b1] eqn:E1. pose proof (IHs1 pos st) as H1. rewrite E1 in H1.
    cbn [snd fst]. destruct b1.
    + apply (psim_out v s2 (pos + size s1) (st1, true)); [reflexivity|exact H1].
    + unfold psim in H1. cbn [fst snd] in H1. rewrite H1. apply IHs2.
  - unfold psim. destruct d; cbn [fst snd texec]; rewrite ?Hh; try reflexivity.
    destruct (Nat.ltb_spec pos (length u)) as [Hl|Hl]; cbn [fst snd]; [rewrite Hv by exact Hl; reflexivity|].
    exists []. rewrite app_nil_r. reflexivity.
  - destruct (beval (tenv st) b); [apply IHs1|apply IHs2].
  - generalize 0%Z. revert pos st Hh. induction n as [|n IHn]; intros pos st Hh i; cbn [tfor_pre tfor]; rewrite ?Hh;
      [unfold psim; reflexivity|].
    destruct (texec_pre u s pos (tset x i st)) as [st1 b1] eqn:E1. pose proof (IHs pos (tset x i st)) as H1.
    rewrite E1 in H1. unfold psim in H1 |- *. cbn [snd fst] in H1 |- *. destruct b1.
    + destruct H1 as [o Ho].
      destruct (tfor_out v s x (size s) (texec_out v s) n (pos + size s)%nat (Z.succ i)
        (texec v s pos (tset x i st))) as [o' Ho'].
      exists (o ++ o'). rewrite Ho', Ho. apply app_assoc_reverse.
    + rewrite H1. destruct (thalted st1) eqn:Hh1.
      * destruct n; cbn [tfor_pre tfor]; [reflexivity|]. rewrite Hh1, tfor_halted by exact Hh1. reflexivity.
      * apply IHn, Hh1.
Qed.

(** ** Deciding a prefix *)

Fixpoint prefixb (a s : list oval) : bool :=
  match a, s with
  | [], _ => true
  | o :: a', o' :: s' => oval_eqb o o' && prefixb a' s'
  | _, [] => false
  end.

Lemma outs_eqb_prefix (a o s : list oval) : outs_eqb (a ++ o) s = true -> prefixb a s = true.
Proof.
  revert s. induction a as [|y a IH]; intros [|z s] H; cbn in H |- *; try reflexivity; try discriminate.
  apply andb_prop in H as [H1 H2]. rewrite H1. apply IH, H2.
Qed.

(** [Some b]: every tape extending [u] runs outside (b = true) or inside the
    event [in_outs S]; [None]: undecided. *)
Definition pdec (p : stmt) (nvars : nat) (x : list Z) (S : list (list oval)) (u : list Z) : option bool :=
  let r := texec_pre u p 0 (tinit nvars x) in
  if snd r then (if existsb (prefixb (tout (fst r))) S then None else Some true)
  else Some (negb (in_outs S (if tfault (fst r) then None else Some (tout (fst r))))).

Lemma pdec_ok (p : stmt) (nvars : nat) (x : list Z) (S : list (list oval)) (u : list Z) (b : bool) :
  pdec p nvars x S u = Some b -> forall w, negb (in_outs S (tape_run p nvars x (u ++ w))) = b.
Proof.
  intros H w. unfold pdec in H. unfold tape_run.
  assert (Hv : forall a, (a < length u)%nat -> tape (u ++ w) a = nth a u 0).
  { intros a Ha. unfold tape. apply app_nth1, Ha. }
  pose proof (texec_pre_sim u (tape (u ++ w)) Hv p 0 (tinit nvars x)) as Hs.
  destruct (texec_pre u p 0 (tinit nvars x)) as [st b0]. unfold psim in Hs. cbn [fst snd] in H, Hs.
  destruct b0.
  - destruct (existsb (prefixb (tout st)) S) eqn:E; [discriminate|]. injection H as <-.
    destruct Hs as [o Ho]. destruct (tfault _); [reflexivity|]. cbn [in_outs]. rewrite Ho.
    destruct (existsb (outs_eqb (tout st ++ o)) S) eqn:E'; [|reflexivity].
    apply existsb_exists in E' as [s [Hs1 Hs2]]. apply outs_eqb_prefix in Hs2.
    assert (existsb (prefixb (tout st)) S = true) by (apply existsb_exists; eauto). congruence.
  - rewrite Hs. injection H as H. exact H.
Qed.

(** ** Sums over the ball's tree *)

Definition gsum (g : list Z -> Z) (l : list (list Z)) : Z := fold_right (fun w acc => g w + acc) 0 l.

Definition zsumz (h : Z -> Z) (zs : list Z) : Z := fold_right (fun z acc => h z + acc) 0 zs.

Lemma gsum_app (g : list Z -> Z) (l1 l2 : list (list Z)) : gsum g (l1 ++ l2) = gsum g l1 + gsum g l2.
Proof. unfold gsum. induction l1 as [|w l1 IH]; cbn [fold_right app]; [reflexivity|]. rewrite IH. ring. Qed.

Lemma gsum_ext (g g' : list Z -> Z) (l : list (list Z)) :
  (forall w, In w l -> g w = g' w) -> gsum g l = gsum g' l.
Proof.
  unfold gsum. induction l as [|w l IH]; intros H; cbn [fold_right]; [reflexivity|].
  rewrite H by now left. rewrite IH by (intros; apply H; now right). reflexivity.
Qed.

Lemma zsumz_ext (h h' : Z -> Z) (zs : list Z) : (forall z, In z zs -> h z = h' z) -> zsumz h zs = zsumz h' zs.
Proof.
  unfold zsumz. induction zs as [|z zs IH]; intros H; cbn [fold_right]; [reflexivity|].
  rewrite H by now left. rewrite IH by (intros; apply H; now right). reflexivity.
Qed.

Lemma gsum_scale (c : Z) (g : list Z -> Z) (l : list (list Z)) : c * gsum g l = gsum (fun w => c * g w) l.
Proof. unfold gsum. induction l as [|w l IH]; cbn [fold_right]; [ring|]. rewrite <- IH. ring. Qed.

Lemma gsum_flat (g : list Z -> Z) (zs : list Z) (L : Z -> list (list Z)) :
  gsum g (flat_map (fun z => map (cons z) (L z)) zs) = zsumz (fun z => gsum (fun w => g (z :: w)) (L z)) zs.
Proof.
  induction zs as [|z zs IH]; cbn [flat_map]; [reflexivity|]. rewrite gsum_app, IH. cbn [zsumz fold_right].
  f_equal. unfold gsum. induction (L z) as [|w l IHl]; cbn [fold_right map]; [reflexivity|]. rewrite IHl.
  reflexivity.
Qed.

Lemma zsum_gsum (p q E : Z) (ns : list Z) (b : list Z -> bool) (l : list (list Z)) :
  zsum p q E ns b l = gsum (fun v => if b v then zterm p q E ns v else 0) l.
Proof. unfold gsum. induction l as [|v l IH]; cbn [zsum fold_right]; [reflexivity|]. rewrite IH. reflexivity. Qed.

(** Σ over the ball of radius [r] of p^e·q^(r − e), e the vector's exponent. *)
Fixpoint bmass (pp qq : Z) (ns : list Z) (r : Z) : Z :=
  match ns with
  | [] => if r <? 0 then 0 else qq ^ r
  | n :: ns' => zsumz (fun z => pp ^ (n * Z.abs z) * bmass pp qq ns' (r - n * Z.abs z)) (zrange (- (r / n)) (r / n))
  end.

Lemma pow_split (pp qq r n z e : Z) : 0 <= n -> 0 <= e ->
  pp ^ (n * Z.abs z + e) * qq ^ (r - (n * Z.abs z + e)) = pp ^ (n * Z.abs z) * (pp ^ e * qq ^ (r - n * Z.abs z - e)).
Proof.
  intros Hn He. rewrite Z.pow_add_r by nia. replace (r - (n * Z.abs z + e)) with (r - n * Z.abs z - e) by ring.
  ring.
Qed.

Lemma bmass_ok (pp qq : Z) (ns : list Z) : Forall (fun n => 0 <= n) ns ->
  forall r, bmass pp qq ns r = gsum (fun w => pp ^ zexp ns w * qq ^ (r - zexp ns w)) (ball ns r).
Proof.
  induction ns as [|n ns IH]; intros Hns r; cbn [bmass ball].
  - destruct (r <? 0); unfold gsum; cbn [fold_right zexp]; [reflexivity|]. rewrite Z.sub_0_r, Z.pow_0_r. ring.
  - apply Forall_cons_iff in Hns as [Hn Hns]. rewrite gsum_flat. apply zsumz_ext. intros z _.
    rewrite IH, gsum_scale by exact Hns. apply gsum_ext. intros w _. cbn [zexp].
    symmetry. apply pow_split; [exact Hn|apply zexp_nonneg, Hns].
Qed.

(** The window sum, walking the ball's tree and deciding each prefix with [dec]. *)
Fixpoint pwalk (dec : list Z -> option bool) (b : list Z -> bool) (pp qq : Z) (pre : list Z) (pe : Z)
    (ns : list Z) (r : Z) : Z :=
  match ns with
  | [] => if r <? 0 then 0 else if b pre then pe * qq ^ r else 0
  | n :: ns' =>
      match (if r / n =? 0 then None else dec pre) with
      | Some bb => if bb then pe * bmass pp qq ns r else 0
      | None => zsumz (fun z => pwalk dec b pp qq (pre ++ [z]) (pe * pp ^ (n * Z.abs z)) ns' (r - n * Z.abs z))
                  (zrange (- (r / n)) (r / n))
      end
  end.

Lemma pwalk_ok (dec : list Z -> option bool) (b : list Z -> bool) (pp qq : Z) :
  (forall u bb, dec u = Some bb -> forall w, b (u ++ w) = bb) ->
  forall ns, Forall (fun n => 0 <= n) ns -> forall pre pe r,
  pwalk dec b pp qq pre pe ns r
  = gsum (fun w => if b (pre ++ w) then pe * (pp ^ zexp ns w * qq ^ (r - zexp ns w)) else 0) (ball ns r).
Proof.
  intros Hdec ns. induction ns as [|n ns IH]; intros Hns pre pe r; cbn [pwalk ball].
  - destruct (r <? 0); unfold gsum; cbn [fold_right zexp]; [reflexivity|]. rewrite app_nil_r.
    destruct (b pre); [|reflexivity]. rewrite Z.sub_0_r, Z.pow_0_r. ring.
  - destruct (if r / n =? 0 then None else dec pre) as [bb|] eqn:Hd.
    + transitivity (gsum (fun w => if bb then pe * (pp ^ zexp (n :: ns) w * qq ^ (r - zexp (n :: ns) w)) else 0)
        (ball (n :: ns) r)).
      * destruct bb.
        -- rewrite bmass_ok, gsum_scale by exact Hns. reflexivity.
        -- cbn [ball]. induction (flat_map _ _) as [|w l IHl]; cbn; [reflexivity|]. exact IHl.
      * apply gsum_ext. intros w _. destruct (r / n =? 0); [discriminate|]. rewrite (Hdec pre bb Hd w). reflexivity.
    + apply Forall_cons_iff in Hns as [Hn Hns]. rewrite gsum_flat. apply zsumz_ext. intros z _.
      rewrite IH by exact Hns. apply gsum_ext. intros w _. rewrite <- app_assoc. cbn [app zexp].
      destruct (b (pre ++ z :: w)); [|reflexivity].
      rewrite pow_split by (exact Hn || apply zexp_nonneg, Hns). ring.
Qed.

Lemma pwalk_zsum (p : stmt) (nvars : nat) (x : list Z) (S : list (list oval)) (pp qq E : Z) (ns : list Z) :
  Forall (fun n => 0 <= n) ns ->
  pwalk (pdec p nvars x S) (fun v => negb (in_outs S (tape_run p nvars x v))) pp qq [] 1 ns E
  = zsum pp qq E ns (fun v => negb (in_outs S (tape_run p nvars x v))) (ball ns E).
Proof.
  intros Hns. rewrite pwalk_ok by (exact Hns || apply pdec_ok). rewrite zsum_gsum. apply gsum_ext.
  intros w _. cbn [app]. unfold zterm. destruct (negb _); ring.
Qed.

(** ** The subtrees' masses, tabulated

    [bmass] depends only on the remaining coordinates and the radius left, so
    the walk looks it up in tables made once, one per suffix of [ns], each
    indexed by the radius 0..R ([mktabs]: each table from the next one). *)
Fixpoint mktabs (pp qq : Z) (ns : list Z) (R : Z) : list (list Z) :=
  match ns with
  | [] => [map (fun r => qq ^ r) (zrange 0 R)]
  | n :: ns' =>
      let ts := mktabs pp qq ns' R in
      map (fun r => zsumz (fun z => pp ^ (n * Z.abs z) * nth (Z.to_nat (r - n * Z.abs z)) (hd [] ts) 0)
                      (zrange (- (r / n)) (r / n))) (zrange 0 R) :: ts
  end.

Lemma nth_zseq (z : Z) (k i : nat) : (i < k)%nat -> nth i (zseq z k) 0 = z + Z.of_nat i.
Proof.
  revert z i. induction k as [|k IH]; intros z i Hi; [lia|]. destruct i as [|i]; cbn [zseq nth]; [lia|].
  rewrite IH by lia. lia.
Qed.

Lemma zseq_length (z : Z) (k : nat) : length (zseq z k) = k.
Proof. revert z. induction k as [|k IH]; intros z; cbn [zseq length]; [reflexivity|]. now rewrite IH. Qed.

Lemma nth_map_zrange (f : Z -> Z) (R r : Z) : 0 <= r <= R -> nth (Z.to_nat r) (map f (zrange 0 R)) 0 = f r.
Proof.
  intros Hr. unfold zrange.
  assert (Hi : (Z.to_nat r < Z.to_nat (R - 0 + 1))%nat) by lia.
  rewrite (nth_indep _ 0 (f 0)) by (rewrite map_length, zseq_length; exact Hi).
  rewrite map_nth, nth_zseq by exact Hi. f_equal. lia.
Qed.

Lemma step_bound (n r z : Z) : 0 <= n -> 0 <= r -> In z (zrange (- (r / n)) (r / n)) -> 0 <= r - n * Z.abs z <= r.
Proof.
  intros Hn Hr Hz. apply in_zrange in Hz. destruct (Z.eq_dec n 0) as [->|Hn0]; [lia|].
  pose proof (Z.mul_div_le r n ltac:(lia)). assert (Z.abs z <= r / n) by lia.
  assert (n * Z.abs z <= n * (r / n)) by (apply Z.mul_le_mono_nonneg_l; lia). lia.
Qed.

Lemma mktabs_hd (pp qq R : Z) (ns : list Z) : Forall (fun n => 0 <= n) ns ->
  forall r, 0 <= r <= R -> nth (Z.to_nat r) (hd [] (mktabs pp qq ns R)) 0 = bmass pp qq ns r.
Proof.
  induction ns as [|n ns IH]; intros Hns r Hr; cbn [mktabs hd bmass].
  - rewrite nth_map_zrange by exact Hr. destruct (Z.ltb_spec r 0); [lia|reflexivity].
  - apply Forall_cons_iff in Hns as [Hn Hns]. rewrite nth_map_zrange by exact Hr. apply zsumz_ext.
    intros z Hz. pose proof (step_bound n r z Hn (proj1 Hr) Hz). rewrite IH by (exact Hns || lia). reflexivity.
Qed.

Fixpoint tabs_ok (pp qq R : Z) (ns : list Z) (tabs : list (list Z)) : Prop :=
  match ns with
  | [] => True
  | n :: ns' =>
      (forall r, 0 <= r <= R -> nth (Z.to_nat r) (hd [] tabs) 0 = bmass pp qq ns r) /\ tabs_ok pp qq R ns' (tl tabs)
  end.

Lemma mktabs_ok (pp qq R : Z) (ns : list Z) : Forall (fun n => 0 <= n) ns -> tabs_ok pp qq R ns (mktabs pp qq ns R).
Proof.
  induction ns as [|n ns IH]; intros Hns; cbn [tabs_ok]; [exact I|]. split.
  - apply mktabs_hd, Hns.
  - apply Forall_cons_iff in Hns as [_ Hns]. cbn [mktabs tl]. apply IH, Hns.
Qed.

(** [pwalk], the pruned subtrees' masses looked up in [tabs]. *)
Fixpoint pwalkt (dec : list Z -> option bool) (b : list Z -> bool) (pp qq : Z) (pre : list Z) (pe : Z)
    (ns : list Z) (tabs : list (list Z)) (r : Z) : Z :=
  match ns with
  | [] => if r <? 0 then 0 else if b pre then pe * qq ^ r else 0
  | n :: ns' =>
      match (if r / n =? 0 then None else dec pre) with
      | Some bb => if bb then pe * nth (Z.to_nat r) (hd [] tabs) 0 else 0
      | None => zsumz (fun z => pwalkt dec b pp qq (pre ++ [z]) (pe * pp ^ (n * Z.abs z)) ns' (tl tabs)
                                  (r - n * Z.abs z))
                  (zrange (- (r / n)) (r / n))
      end
  end.

Lemma pwalkt_eq (dec : list Z -> option bool) (b : list Z -> bool) (pp qq R : Z) (ns : list Z) :
  Forall (fun n => 0 <= n) ns -> forall tabs pre pe r, tabs_ok pp qq R ns tabs -> 0 <= r <= R ->
  pwalkt dec b pp qq pre pe ns tabs r = pwalk dec b pp qq pre pe ns r.
Proof.
  induction ns as [|n ns IH]; intros Hns tabs pre pe r Ht Hr; cbn [pwalkt pwalk]; [reflexivity|].
  destruct Ht as [Ht1 Ht2]. destruct (if r / n =? 0 then None else dec pre) as [[|]|]; [rewrite Ht1 by exact Hr; reflexivity|reflexivity|].
  apply Forall_cons_iff in Hns as [Hn Hns]. apply zsumz_ext. intros z Hz.
  pose proof (step_bound n r z Hn (proj1 Hr) Hz). apply IH; (exact Hns || exact Ht2 || lia).
Qed.

(** ** The check, pruned *)

(** [bracket_check] at the event [in_outs S], the upper window summed by [pwalk]. *)
Definition bracket_check_pruned (p : stmt) (nvars : nat) (x x' : list Z) (S : list (list oval))
    (L : positive) (pp qq : Z) (M : nat) (R R' : Z) : bool :=
  let ns := rexps L (layout p) in
  let zS := zsum pp qq R ns (fun v => in_outs S (tape_run p nvars x v)) (ball ns R) in
  let zN := pwalkt (pdec p nvars x' S) (fun v => negb (in_outs S (tape_run p nvars x' v))) pp qq [] 1 ns
               (mktabs pp qq ns R') R' in
  let cn := cnum pp qq ns in
  let cd := cden pp qq ns in
  forallb (expo_ok L) (layout p) && (0 <? pp) && (pp <? qq) && (0 <=? R) && (0 <=? R') &&
  (qq ^ Z.of_nat M * qq ^ R * (cd * qq ^ R' - cn * zN) <? pp ^ Z.of_nat M * cn * zS * qq ^ R').

Lemma bracket_check_pruned_ok (p : stmt) (nvars : nat) (x x' : list Z) (S : list (list oval))
    (L : positive) (pp qq : Z) (M : nat) (R R' : Z) :
  bracket_check_pruned p nvars x x' S L pp qq M R R' = true -> bracket_check p nvars x x' (in_outs S) L pp qq M R R' = true.
Proof.
  unfold bracket_check_pruned, bracket_check. cbv zeta. intros H.
  destruct (Z.leb_spec 0 R') as [HR|HR].
  - rewrite pwalkt_eq with (R := R'), pwalk_zsum in H by
      (apply rexps_nonneg || apply mktabs_ok, rexps_nonneg || lia). exact H.
  - rewrite andb_false_r in H. discriminate H.
Qed.

Theorem not_dp_all_k_of_pruned (nb : nat -> list Z -> list Z -> Prop) (p : nat -> stmt) (nvars : nat) (c : R)
    (k : nat) (x x' : list Z) (S : list (list oval)) (L : positive) (pp qq : Z) (M : nat) (R R' : Z) :
  nb k x x' -> (c * IZR (Zpos L))%R = INR M ->
  bracket_check_pruned (p k) nvars x x' S L pp qq M R R' = true ->
  ~ dp_all_k nb p nvars c.
Proof.
  intros Hnb Hc Hb. apply bracket_check_pruned_ok in Hb.
  exact (not_dp_all_k_of_bracket nb p nvars c k x x' (in_outs S) L pp qq M R R' Hnb Hc Hb).
Qed.
