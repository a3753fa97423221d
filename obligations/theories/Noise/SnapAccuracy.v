(** * (α, β)-accuracy of unclamped snapping, from the coupling with Laplace

    [snap_event mech P p]: [p] is Pr[P(mech u S)] for [u] uniform on (0,1]
    and a fair sign [S], when the event's preimage is an interval for each
    sign (the events of outputs [snap_prob] measures are the case
    [P y := y = y0]).

    The Laplace noise [Y = S·ln(u)/r] stays within [a] with probability
    exactly [1 - e^(-r a)] ([laplace_near]).  On the same sample, snapping is
    within [lam / 2] of Laplace (SnapUtility.v), so it is within [alpha] of
    the query value with probability at least [1 - e^(-r (alpha - lam/2))]
    ([snap_accuracy]): (α, e^(-r (α - Λ/2)))-accuracy for all parameters.
    [snap_near_total] shows that the event has a probability (its preimages
    are intervals), so the bound is about a probability that exists. *)
From Coq Require Import Reals Lra ZArith Classical.
From Flocq Require Import Raux.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Rounding Laplace Clamp Snapping SnapUtility.
Local Open Scope R_scope.

Definition snap_event (mech : R -> sign -> R) (P : R -> Prop) (p : R) : Prop :=
  exists m1 m2, umeasure (fun u => P (mech u SPlus)) m1 /\
                umeasure (fun u => P (mech u SMinus)) m2 /\ p = / 2 * (m1 + m2).

(** ** The measure is monotone *)

Lemma umeasure_mono (P Q : R -> Prop) m m' :
  (forall u, 0 < u <= 1 -> P u -> Q u) -> umeasure P m -> umeasure Q m' -> m <= m'.
Proof.
  intros HPQ HP HQ.
  destruct (umeasure_sandwich P m HP) as (lo & hi & [InP OutP] & ->).
  destruct (umeasure_sandwich Q m' HQ) as (lo' & hi' & [InQ OutQ] & ->).
  destruct (Rle_or_lt hi lo) as [Hle | Hlt].
  - rewrite (Rmax_left 0 (hi - lo)) by lra. apply Rmax_l.
  - (* every point of (lo, hi) is in Q, so within [lo', hi'] *)
    assert (Hin : forall u, lo < u < hi -> lo' <= u <= hi').
    { intros u Hu. apply OutQ. destruct (InP u Hu) as [Hu1 HPu]. split; [exact Hu1|].
      exact (HPQ u Hu1 HPu). }
    assert (Hlo : lo' <= lo).
    { destruct (Rle_or_lt lo' lo) as [Hx|Hx]; [exact Hx|].
      destruct (Rle_or_lt lo' hi) as [Hy|Hy].
      - pose proof (Hin ((lo + lo') / 2) ltac:(lra)). lra.
      - pose proof (Hin ((lo + hi) / 2) ltac:(lra)). lra. }
    assert (Hhi : hi <= hi').
    { destruct (Rle_or_lt hi hi') as [Hx|Hx]; [exact Hx|].
      destruct (Rle_or_lt hi' lo) as [Hy|Hy].
      - pose proof (Hin ((hi + lo) / 2) ltac:(lra)). lra.
      - pose proof (Hin ((hi + hi') / 2) ltac:(lra)). lra. }
    apply Rle_trans with (hi' - lo'); [rewrite Rmax_right by lra; lra | apply Rmax_r].
Qed.

Lemma snap_event_mono (mech mech' : R -> sign -> R) (P P' : R -> Prop) p p' :
  (forall u s, 0 < u <= 1 -> P (mech u s) -> P' (mech' u s)) ->
  snap_event mech P p -> snap_event mech' P' p' -> p <= p'.
Proof.
  intros H (m1 & m2 & H1 & H2 & ->) (n1 & n2 & G1 & G2 & ->).
  pose proof (umeasure_mono _ _ _ _ (fun u Hu => H u SPlus Hu) H1 G1).
  pose proof (umeasure_mono _ _ _ _ (fun u Hu => H u SMinus Hu) H2 G2). lra.
Qed.

Lemma snap_event_ext (mech mech' : R -> sign -> R) (P : R -> Prop) p :
  (forall u s, 0 < u <= 1 -> mech u s = mech' u s) -> snap_event mech P p -> snap_event mech' P p.
Proof.
  intros Heq (m1 & m2 & H1 & H2 & Hp). exists m1, m2. repeat split; [| |exact Hp].
  - revert H1. apply umeasure_ext. intros u Hu. rewrite (Heq u SPlus Hu). tauto.
  - revert H2. apply umeasure_ext. intros u Hu. rewrite (Heq u SMinus Hu). tauto.
Qed.

(** ** Laplace noise stays within [a] with probability [1 - e^(-r a)] *)

Lemma laplace_near (r a : R) : 0 < r -> 0 <= a ->
  snap_event (fun u s => sgn s * (/ r * ln u)) (fun y => Rabs y <= a) (1 - exp (- r * a)).
Proof.
  intros Hr Ha.
  assert (He : 0 < exp (- r * a) <= 1).
  { split; [apply exp_pos|]. rewrite <- exp_0. apply exp_le_iff. nra. }
  assert (Hiff : forall u, 0 < u <= 1 -> (Rabs (/ r * ln u) <= a <-> exp (- r * a) <= u)).
  { intros u Hu. assert (Hln : ln u <= 0) by (apply ln_le_iff; [lra | rewrite exp_0; lra]).
    assert (Hneg : / r * ln u <= 0).
    { pose proof (Rinv_0_lt_compat r Hr). nra. }
    rewrite Rabs_left1 by exact Hneg.
    pose proof (lap_plus_ge r 0 (- a) u Hr (proj1 Hu)) as H.
    replace (r * (- a - 0)) with (- r * a) in H by ring.
    rewrite <- H. lra. }
  exists (ulen_from (exp (- r * a))), (ulen_from (exp (- r * a))). split; [| split].
  - apply umeasure_Ici. intros u Hu. cbn. rewrite Rmult_1_l. apply Hiff, Hu.
  - apply umeasure_Ici. intros u Hu. cbn.
    replace (-1 * (/ r * ln u)) with (- (/ r * ln u)) by ring. rewrite Rabs_Ropp. apply Hiff, Hu.
  - rewrite ulen_from_inside by lra. field.
Qed.

(** ** Snapping: within [alpha] of the query value with probability at least
    [1 - e^(-r (alpha - lam/2))] *)

Definition snap_unclamped (t : tie) (r lam c : R) (u : R) (s : sign) : R :=
  lam * IZR (round_grid t lam (c + sgn s * (/ r * ln u))).

Theorem snap_accuracy (t : tie) (r lam c alpha p : R) :
  0 < r -> 0 < lam -> lam / 2 <= alpha ->
  snap_event (snap_unclamped t r lam c) (fun y => Rabs (y - c) <= alpha) p ->
  1 - exp (- r * (alpha - lam / 2)) <= p.
Proof.
  intros Hr Hl Ha Hp.
  apply (snap_event_mono (fun u s => sgn s * (/ r * ln u)) (snap_unclamped t r lam c)
           (fun y => Rabs y <= alpha - lam / 2) (fun y => Rabs (y - c) <= alpha));
    [| exact (laplace_near r (alpha - lam / 2) Hr ltac:(lra)) | exact Hp].
  intros u s _ HY. unfold snap_unclamped.
  pose proof (snap_lap_dist_unclamped t lam c (sgn s * (/ r * ln u)) Hl) as Hd.
  set (z := lam * IZR (round_grid t lam (c + sgn s * (/ r * ln u)))) in *.
  set (Y := sgn s * (/ r * ln u)) in *.
  revert Hd HY. unfold Rabs.
  repeat match goal with |- context [Rcase_abs ?x] => destruct (Rcase_abs x) end; intros; lra.
Qed.

(** ** The event has a probability: its preimage is an interval for each sign *)

Lemma grid_near_iff (lam c alpha : R) (k : Z) : 0 < lam ->
  (Rabs (lam * IZR k - c) <= alpha <->
   (Zceil ((c - alpha) / lam) <= k)%Z /\ (k <= Zfloor ((c + alpha) / lam))%Z).
Proof.
  intros Hl. split.
  - intros H. apply Rabs_le_inv in H. split.
    + apply Zceil_glb. apply div_le_iff_r; [exact Hl|]. lra.
    + apply Zfloor_lub. apply div_le_iff; [exact Hl|]. lra.
  - intros [H1 H2]. apply IZR_le in H1. apply IZR_le in H2.
    pose proof (Zceil_ub ((c - alpha) / lam)). pose proof (Zfloor_lb ((c + alpha) / lam)).
    assert (Hlo : (c - alpha) / lam <= IZR k) by lra.
    assert (Hhi : IZR k <= (c + alpha) / lam) by lra.
    apply (div_le_iff_r _ _ _ Hl) in Hlo. apply (div_le_iff _ _ _ Hl) in Hhi.
    apply Rabs_le. lra.
Qed.

(** The preimage, for each tie rule and sign, between the Laplace samples
    [lo = (⌈(c - alpha)/lam⌉ - 1/2)·lam] and [hi = (⌊(c + alpha)/lam⌋ + 1/2)·lam]. *)
(** The exact probability, for both tie rules, with
    [lo = (⌈(c - alpha)/lam⌉ - 1/2)·lam] and [hi = (⌊(c + alpha)/lam⌋ + 1/2)·lam]:
    half the clipped length of [exp (r (lo - c)), exp (r (hi - c))] (S = +1) plus
    half that of [exp (r (c - hi)), exp (r (c - lo))] (S = -1). *)
Definition snap_near_prob (r lam c alpha : R) : R :=
  let lo := (IZR (Zceil ((c - alpha) / lam)) - / 2) * lam in
  let hi := (IZR (Zfloor ((c + alpha) / lam)) + / 2) * lam in
  / 2 * (ulen (exp (r * (lo - c))) (exp (r * (hi - c))) + ulen (exp (r * (c - hi))) (exp (r * (c - lo)))).

Lemma snap_near_exact (t : tie) (r lam c alpha : R) : 0 < r -> 0 < lam ->
  snap_event (snap_unclamped t r lam c) (fun y => Rabs (y - c) <= alpha) (snap_near_prob r lam c alpha).
Proof.
  intros Hr Hl. unfold snap_near_prob.
  set (lo := (IZR (Zceil ((c - alpha) / lam)) - / 2) * lam).
  set (hi := (IZR (Zfloor ((c + alpha) / lam)) + / 2) * lam).
  unfold snap_event, snap_unclamped.
  destruct t.
  - assert (Hiff : forall x, Rabs (lam * IZR (round_grid TiesUp lam x) - c) <= alpha <-> lo <= x < hi).
    { intros x. rewrite grid_near_iff by exact Hl.
      rewrite round_grid_up_ge_iff, round_grid_up_le_iff by exact Hl. unfold lo, hi. tauto. }
    exists (ulen (exp (r * (lo - c))) (exp (r * (hi - c)))),
           (ulen (exp (r * (c - hi))) (exp (r * (c - lo)))).
    split; [| split; [| reflexivity]].
    + apply umeasure_Ico. intros u Hu. rewrite Hiff, sgn_plus_x.
      rewrite (lap_plus_ge r c lo u Hr (proj1 Hu)), (lap_plus_lt r c hi u Hr (proj1 Hu)). tauto.
    + apply umeasure_Ioc. intros u Hu. rewrite Hiff, sgn_minus_x.
      rewrite (lap_minus_ge r c lo u Hr (proj1 Hu)), (lap_minus_lt r c hi u Hr (proj1 Hu)). tauto.
  - assert (Hiff : forall x, Rabs (lam * IZR (round_grid TiesDown lam x) - c) <= alpha <-> lo < x <= hi).
    { intros x. rewrite grid_near_iff by exact Hl.
      rewrite round_grid_down_ge_iff, round_grid_down_le_iff by exact Hl. unfold lo, hi. tauto. }
    exists (ulen (exp (r * (lo - c))) (exp (r * (hi - c)))),
           (ulen (exp (r * (c - hi))) (exp (r * (c - lo)))).
    split; [| split; [| reflexivity]].
    + apply umeasure_Ioc. intros u Hu. rewrite Hiff, sgn_plus_x.
      rewrite (lap_plus_gt r c lo u Hr (proj1 Hu)), (lap_plus_le r c hi u Hr (proj1 Hu)). tauto.
    + apply umeasure_Ico. intros u Hu. rewrite Hiff, sgn_minus_x.
      rewrite (lap_minus_gt r c lo u Hr (proj1 Hu)), (lap_minus_le r c hi u Hr (proj1 Hu)). tauto.
Qed.

Lemma snap_near_total (t : tie) (r lam c alpha : R) : 0 < r -> 0 < lam ->
  exists p, snap_event (snap_unclamped t r lam c) (fun y => Rabs (y - c) <= alpha) p.
Proof. intros Hr Hl. eexists. exact (snap_near_exact t r lam c alpha Hr Hl). Qed.

(** ** Clamped snapping, cases 1 to 4: the same, shifted by the clamping bias

    With [c] outside [-B, B] every output is at least [|c| - B] away from [c].
    On the same sample, [|snap - c| <= max(0, |c| - B) + lam/2 + |Y|] (clamping
    is 1-Lipschitz and fixes [clamp B c]); so with probability at least
    [1 - e^(-r a)] (the Laplace event [|Y| <= a], whose probability exists and
    is exact, [laplace_near]) the clamped output is within
    [max(0, |c| - B) + lam/2 + a] of [c]. *)

Definition snap_clamped (t : tie) (r lam B c : R) (u : R) (s : sign) : R :=
  snap_value t lam B c (sgn s * (/ r * ln u)).

Lemma snap_clamped_near (t : tie) (r lam B c Y : R) :
  0 < lam -> 0 <= B ->
  Rabs (snap_value t lam B c Y - c) <= Rmax 0 (Rabs c - B) + lam / 2 + Rabs Y.
Proof.
  intros Hl HB. unfold snap_value.
  set (z := lam * IZR (round_grid t lam (clamp B c + Y))).
  pose proof (round_grid_dist t lam (clamp B c + Y) Hl) as Hd. fold z in Hd.
  pose proof (clamp_lipschitz B z (clamp B c) HB) as Hlip.
  rewrite (clamp_id B (clamp B c) (clamp_in_range B c HB)) in Hlip.
  assert (Hbias : Rabs (clamp B c - c) <= Rmax 0 (Rabs c - B)).
  { destruct (Rle_or_lt c B) as [Hc1 | Hc1]; [destruct (Rle_or_lt (- B) c) as [Hc2 | Hc2] |].
    - rewrite (clamp_id B c (conj Hc2 Hc1)), Rminus_diag_eq, Rabs_R0 by reflexivity. apply Rmax_l.
    - unfold clamp. rewrite (Rmin_right B c) by lra. rewrite (Rmax_left (- B) c) by lra.
      rewrite (Rabs_left c) by lra. rewrite (Rmax_right 0 (- c - B)) by lra.
      rewrite Rabs_right by lra. lra.
    - unfold clamp. rewrite (Rmin_left B c) by lra. rewrite (Rmax_right (- B) B) by lra.
      rewrite (Rabs_right c) by lra. rewrite (Rmax_right 0 (c - B)) by lra.
      rewrite Rabs_left by lra. lra. }
  revert Hd Hlip Hbias. generalize (Rmax 0 (Rabs c - B)) (clamp B z) (clamp B c). intros m w d.
  unfold Rabs. repeat match goal with |- context [Rcase_abs ?x] => destruct (Rcase_abs x) end;
  intros; lra.
Qed.

Theorem snap_accuracy_clamped (t : tie) (r lam B c alpha p : R) :
  0 < r -> 0 < lam -> 0 <= B -> Rmax 0 (Rabs c - B) + lam / 2 <= alpha ->
  snap_event (snap_clamped t r lam B c) (fun y => Rabs (y - c) <= alpha) p ->
  1 - exp (- r * (alpha - lam / 2 - Rmax 0 (Rabs c - B))) <= p.
Proof.
  intros Hr Hl HB Ha Hp.
  apply (snap_event_mono (fun u s => sgn s * (/ r * ln u)) (snap_clamped t r lam B c)
           (fun y => Rabs y <= alpha - lam / 2 - Rmax 0 (Rabs c - B)) (fun y => Rabs (y - c) <= alpha));
    [| exact (laplace_near r (alpha - lam / 2 - Rmax 0 (Rabs c - B)) Hr ltac:(lra)) | exact Hp].
  intros u s _ HY. unfold snap_clamped.
  pose proof (snap_clamped_near t r lam B c (sgn s * (/ r * ln u)) Hl HB). lra.
Qed.

(** ** Every convex event of a monotone mechanism has a probability

    A subset of (0,1] that contains every point between two of its points is
    an interval (its endpoints are its infimum and supremum, [completeness]);
    a mechanism nondecreasing in [u] for [S = +1] and nonincreasing for
    [S = -1] pulls an interval of outputs back to such a set.  This gives the
    probability of [|M - c| <= alpha] for clamped snapping. *)

Lemma umeasure_convex (P : R -> Prop) :
  (forall u v w, 0 < u -> u <= v -> v <= w -> w <= 1 -> P u -> P w -> P v) ->
  exists m, umeasure P m.
Proof.
  intros Hc.
  set (E := fun u => (0 < u <= 1) /\ P u).
  destruct (classic (exists u, E u)) as [[u0 Eu0] | Hno].
  2: { exists 0. apply umeasure_empty. intros u Hu Pu. apply Hno. exists u. split; assumption. }
  destruct (completeness E) as [hi Hhi].
  { exists 1. intros u [Hu _]. lra. }
  { exists u0. exact Eu0. }
  destruct (completeness (fun v => E (- v))) as [nlo Hlo].
  { exists 0. intros v [Hv _]. lra. }
  { exists (- u0). rewrite Ropp_involutive. exact Eu0. }
  set (lo := - nlo).
  assert (Hub : forall u, E u -> u <= hi) by (intros u Eu; exact (proj1 Hhi u Eu)).
  assert (Hlb : forall u, E u -> lo <= u).
  { intros u Eu. unfold lo. assert (- u <= nlo); [| lra].
    apply (proj1 Hlo). rewrite Ropp_involutive. exact Eu. }
  assert (Hin : forall v, lo < v < hi -> 0 < v <= 1 -> P v).
  { intros v Hv Hv01.
    destruct (classic (exists w, E w /\ v <= w)) as [[w [Ew Hvw]] | Hnw].
    2: { exfalso. assert (hi <= v); [| lra].
         apply (proj2 Hhi). intros w Ew. destruct (Rle_or_lt w v) as [Hw | Hw]; [exact Hw |].
         exfalso. apply Hnw. exists w. split; [exact Ew | lra]. }
    destruct (classic (exists w, E w /\ w <= v)) as [[w' [Ew' Hw'v]] | Hnw'].
    2: { exfalso. assert (nlo <= - v); [| unfold lo in Hv; lra].
         apply (proj2 Hlo). intros x Ex. destruct (Rle_or_lt x (- v)) as [Hx | Hx]; [exact Hx |].
         exfalso. apply Hnw'. exists (- x). split; [exact Ex | lra]. }
    destruct Ew as [Hw Pw]. destruct Ew' as [Hw' Pw'].
    exact (Hc w' v w (proj1 Hw') Hw'v Hvw (proj2 Hw) Pw' Pw). }
  assert (Hiff : forall u, 0 < u <= 1 ->
            (P u <-> (lo <= u <= hi /\ (u = lo -> E lo) /\ (u = hi -> E hi)))).
  { intros u Hu. split.
    - intros Pu. assert (Eu : E u) by (split; assumption).
      split; [split; [apply Hlb, Eu | apply Hub, Eu] |].
      split; intros Heq; rewrite <- Heq; exact Eu.
    - intros [[H1 H2] [Hl Hh]].
      destruct (Req_dec u lo) as [Heq | Hne1]; [rewrite Heq; exact (proj2 (Hl Heq)) |].
      destruct (Req_dec u hi) as [Heq | Hne2]; [rewrite Heq; exact (proj2 (Hh Heq)) |].
      apply Hin; [lra | exact Hu]. }
  destruct (classic (E lo)) as [Pl | Pl]; destruct (classic (E hi)) as [Ph | Ph].
  - exists (ivl_len Icc lo hi). apply umeasure_ivl. intros u Hu. rewrite (Hiff u Hu). cbn.
    split; [intros [H _]; exact H | intros H; split; [exact H | split; intros _; assumption]].
  - exists (ivl_len Ico lo hi). apply umeasure_ivl. intros u Hu. rewrite (Hiff u Hu). cbn. split.
    + intros [[H1 H2] [_ Hh]]. split; [exact H1 |].
      destruct (Rle_lt_or_eq_dec u hi H2) as [Hlt | Heq]; [exact Hlt | exfalso; exact (Ph (Hh Heq))].
    + intros [H1 H2]. split; [lra |]. split; intros Heq; [exact Pl | lra].
  - exists (ivl_len Ioc lo hi). apply umeasure_ivl. intros u Hu. rewrite (Hiff u Hu). cbn. split.
    + intros [[H1 H2] [Hl _]]. split; [| exact H2].
      destruct (Rle_lt_or_eq_dec lo u H1) as [Hlt | Heq];
        [exact Hlt | exfalso; exact (Pl (Hl (eq_sym Heq)))].
    + intros [H1 H2]. split; [lra |]. split; intros Heq; [lra | exact Ph].
  - exists (ivl_len Ioo lo hi). apply umeasure_ivl. intros u Hu. rewrite (Hiff u Hu). cbn. split.
    + intros [[H1 H2] [Hl Hh]]. split.
      * destruct (Rle_lt_or_eq_dec lo u H1) as [Hlt | Heq];
          [exact Hlt | exfalso; exact (Pl (Hl (eq_sym Heq)))].
      * destruct (Rle_lt_or_eq_dec u hi H2) as [Hlt | Heq]; [exact Hlt | exfalso; exact (Ph (Hh Heq))].
    + intros [H1 H2]. split; [lra |]. split; intros Heq; lra.
Qed.

Lemma snap_event_convex (mech : R -> sign -> R) (C : R -> Prop) :
  (forall y1 y2 y3, y1 <= y2 -> y2 <= y3 -> C y1 -> C y3 -> C y2) ->
  (forall u v, 0 < u -> u <= v -> v <= 1 -> mech u SPlus <= mech v SPlus) ->
  (forall u v, 0 < u -> u <= v -> v <= 1 -> mech v SMinus <= mech u SMinus) ->
  exists p, snap_event mech C p.
Proof.
  intros HC Hp Hm.
  destruct (umeasure_convex (fun u => C (mech u SPlus))) as [m1 H1].
  { intros u v w Hu Huv Hvw Hw Cu Cw.
    exact (HC _ _ _ (Hp u v Hu Huv ltac:(lra)) (Hp v w ltac:(lra) Hvw Hw) Cu Cw). }
  destruct (umeasure_convex (fun u => C (mech u SMinus))) as [m2 H2].
  { intros u v w Hu Huv Hvw Hw Cu Cw.
    exact (HC _ _ _ (Hm v w ltac:(lra) Hvw Hw) (Hm u v Hu Huv ltac:(lra)) Cw Cu). }
  exists (/ 2 * (m1 + m2)), m1, m2. auto.
Qed.

Lemma round_grid_mono (t : tie) (lam x x' : R) :
  0 < lam -> x <= x' -> (round_grid t lam x <= round_grid t lam x')%Z.
Proof.
  intros Hl Hx. assert (x / lam <= x' / lam).
  { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Hl | exact Hx]. }
  destruct t; cbn; [apply Zfloor_le | apply Zceil_le]; lra.
Qed.

Lemma snap_value_mono (t : tie) (lam B c Y Y' : R) :
  0 < lam -> Y <= Y' -> snap_value t lam B c Y <= snap_value t lam B c Y'.
Proof.
  intros Hl HY. unfold snap_value.
  pose proof (round_grid_mono t lam (clamp B c + Y) (clamp B c + Y') Hl ltac:(lra)) as Hk.
  apply IZR_le in Hk.
  set (z := lam * IZR (round_grid t lam (clamp B c + Y))).
  set (z' := lam * IZR (round_grid t lam (clamp B c + Y'))).
  assert (Hz : z <= z') by (unfold z, z'; apply Rmult_le_compat_l; lra).
  clearbody z z'. unfold clamp, Rmax, Rmin.
  repeat match goal with
  | |- context [Rle_dec ?x ?y] =>
      lazymatch x with context [Rle_dec _ _] => fail | _ =>
      lazymatch y with context [Rle_dec _ _] => fail | _ => destruct (Rle_dec x y) end end
  end; lra.
Qed.

Lemma laplace_sample_mono (r u v : R) : 0 < r -> 0 < u -> u <= v ->
  sgn SPlus * (/ r * ln u) <= sgn SPlus * (/ r * ln v) /\
  sgn SMinus * (/ r * ln v) <= sgn SMinus * (/ r * ln u).
Proof.
  intros Hr Hu Huv. assert (Hln : ln u <= ln v).
  { apply ln_le_iff; [exact Hu |]. rewrite exp_ln by lra. exact Huv. }
  pose proof (Rinv_0_lt_compat r Hr). cbn. split; nra.
Qed.

Theorem snap_near_total_clamped (t : tie) (r lam B c alpha : R) : 0 < r -> 0 < lam ->
  exists p, snap_event (snap_clamped t r lam B c) (fun y => Rabs (y - c) <= alpha) p.
Proof.
  intros Hr Hl. apply snap_event_convex.
  - intros y1 y2 y3 H12 H23 H1 H3. apply Rabs_le.
    apply Rabs_le_inv in H1. apply Rabs_le_inv in H3. lra.
  - intros u v Hu Huv Hv. unfold snap_clamped. apply snap_value_mono; [exact Hl |].
    exact (proj1 (laplace_sample_mono r u v Hr Hu Huv)).
  - intros u v Hu Huv Hv. unfold snap_clamped. apply snap_value_mono; [exact Hl |].
    exact (proj2 (laplace_sample_mono r u v Hr Hu Huv)).
Qed.
