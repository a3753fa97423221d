(** * (ε, δ) of the discrete Gaussian run K times, from both sides

    The noise [dgauss v] (DGauss.v, v = σ² a positive rational) added to an integer input,
    K times, inputs at distance at most Δ neighbours.  For a shift s = x − x' the pair's loss
    ratio is exactly b^(2sz + s²) with b = e^(1/2v) ([dgauss_shift]): the keys are exact,
    stride 2|s|, and the pair's PLD over the window [−m0, m0] is the list of the noise's masses
    there, whatever the sign of s (the noise is symmetric; [gauss_pair_ev]).  Those masses are
    irrational, so Coq computes float lower bounds of them ([gmasses]) from 70-bit intervals
    (GaussMass.v): each kernel value divided by an interval above the normaliser (the window's
    sum plus the proved tail bound [dg_norm_le]).  Raised to the power K in floats rounded
    down, summed as a tree (TreeConv.v), the window stays below the exact power; with the weights of
    Weights.v (ln b = 1/2v a rational) the upper end ∫L·w + (1 − ΣL) bounds every box sum of
    the untruncated noise ([zdp_gauss_acc], all inputs), and the lower end ∫L·w above δ refutes
    (ε, δ) with inputs 0 and −t and the loss event inside the box [−m0, m0]^K
    ([not_zdp_gauss_acc]). *)
From Coq Require Import List Bool ZArith PArith QArith Qreals Reals Lra Lia.
From Coq Require Import PrimFloat.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import PLD PLDCheck.
From Obligations.Coupling Require Import LubSum Geometric Product.
From Obligations.Accountant Require Import Below DownFloat TreeConv PLDBound Weights ComposeCheck NoiseBox NoiseDP NoiseCheck DGauss GaussMass.
Import ListNotations.

Local Open Scope R_scope.

(** ** Intervals for the kernel, the normaliser and the base *)

Lemma div_correct_r xi yi x y : has xi x -> has yi y -> y <> 0 -> has (I.div prec xi yi) (x / y).
Proof.
  intros Hx Hy Hy0. pose proof (I.div_correct prec xi yi (Xreal x) (Xreal y) Hx Hy) as H.
  unfold Xbind2, Xdiv' in H. rewrite is_zero_false in H by exact Hy0. exact H.
Qed.

Lemma exp_correct_r xi x : has xi x -> has (I.exp prec xi) (exp x).
Proof. intros H. exact (I.exp_correct prec xi (Xreal x) H). Qed.

(** The integers −m .. m in increasing order. *)
Definition asc (m : nat) : list Z := map (fun i => (Z.of_nat i - Z.of_nat m)%Z) (seq 0 (S (2 * m))).

(** Float lower bounds of the masses over [asc m]: those at 0 .. m from 70-bit intervals
    (GaussMass.v), at −z as at z. *)
Definition gmasses (v : Q) (m : nat) : list F.type :=
  let hm := hmasses v m in map (fun z => nth (Z.abs_nat z) hm F.zero) (asc m).

Lemma gmasses_lo (v : Q) (m : nat) : (0 < v)%Q -> Forall2 lo (gmasses v m) (map (dgauss (Q2R v)) (asc m)).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [_ Hp]. pose proof (hmasses_lo v m Hv) as H.
  assert (Hz : forall z, In z (asc m) -> lo (nth (Z.abs_nat z) (hmasses v m) F.zero) (dgauss (Q2R v) z)).
  { intros z Hz. unfold asc in Hz. apply in_map_iff in Hz as [i [<- Hi]]. apply in_seq in Hi.
    pose proof (nth_forall2 (A := F.type) _ _ _ (Z.abs_nat (Z.of_nat i - Z.of_nat m)) F.zero (dgauss (Q2R v) 0) H) as Hn.
    rewrite (map_nth (fun n => dgauss (Q2R v) (Z.of_nat n)) _ 0%nat), seq_nth in Hn by lia.
    rewrite (forall2_length _ _ _ H), map_length, seq_length in Hn. specialize (Hn ltac:(lia)).
    destruct (Z.abs_spec (Z.of_nat i - Z.of_nat m)) as [[_ E]|[_ E]].
    - rewrite Nat.add_0_l, Zabs2Nat.id_abs, E in Hn. exact Hn.
    - rewrite Nat.add_0_l, Zabs2Nat.id_abs, E, dgauss_opp in Hn by exact Hp. exact Hn. }
  unfold gmasses. induction (asc m) as [|z l IH]; cbn [map]; constructor.
  - apply Hz. left. reflexivity.
  - apply IH. intros z' Hz'. apply Hz. right. exact Hz'.
Qed.

(** Keys of a shift of size t: offset t² − 2t·m, stride 2t. *)
Definition goff (m : nat) (t : Z) : Z := (t * t - 2 * t * Z.of_nat m)%Z.

(** The K-fold window of the shift of size t. *)
Definition gwindow (tau : F.type) (v : Q) (m K : nat) (t : Z) : Z * list F.type :=
  tpow tau (2 * t) (goff m t) (gmasses v m) (Pos.of_nat K).

Lemma gwindow_below (tau : F.type) (v : Q) (m K : nat) (t : Z) :
  (0 < v)%Q -> (0 < K)%nat ->
  let w := gwindow tau v m K t in
  Forall fval (snd w) /\
  below (2 * t) (fst w) (toRs (snd w)) (Z.of_nat K * goff m t) (cpow Rplus Rmult 0 (map (dgauss (Q2R v)) (asc m)) 1 K).
Proof.
  intros Hv HK w. pose proof (tpow_ok tau (2 * t) (goff m t) (gmasses v m) _ (gmasses_lo v m Hv) (Pos.of_nat K)) as H.
  rewrite Nat2Pos.id in H by lia. exact H.
Qed.

Definition gbase (v : Q) : R := exp (/ (2 * Q2R v)).

(** Intervals for ln b = 1/2v, b^(−2t), b^(2t). *)
Definition gconsts (v : Q) (t : Z) : I.type * I.type * I.type :=
  (iq (1 / (2 * v)), I.exp prec (iq (- inject_Z (2 * t) / (2 * v))), I.exp prec (iq (inject_Z (2 * t) / (2 * v)))).

Lemma gpow (v : Q) (k : Z) : (0 < v)%Q -> powerRZ (gbase v) k = exp (Q2R (inject_Z k / (2 * v))).
Proof.
  intros Hv. unfold gbase. rewrite <- exp_Zmult_ln by apply exp_pos. rewrite ln_exp, q2r_over_2v, q2r_inject_Z by exact Hv.
  reflexivity.
Qed.

Lemma gconsts_ok (v : Q) (t : Z) : (0 < v)%Q ->
  let '(lbI, mI, pI) := gconsts v t in
  has lbI (ln (gbase v)) /\ has mI (powerRZ (gbase v) (- (2 * t))) /\ has pI (powerRZ (gbase v) (2 * t)).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [_ Hp]. unfold gconsts. split; [|split].
  - unfold gbase. rewrite ln_exp. replace (/ (2 * Q2R v)) with (Q2R (1 / (2 * v))); [apply iq_correct|].
    rewrite q2r_over_2v, q2r_1 by exact Hv. field. lra.
  - rewrite gpow by exact Hv. apply exp_correct_r.
    replace (inject_Z (- (2 * t))) with (- inject_Z (2 * t))%Q by (unfold inject_Z, Qopp; reflexivity). apply iq_correct.
  - rewrite gpow by exact Hv. apply exp_correct_r, iq_correct.
Qed.

Lemma gwin_has (tau : F.type) (v : Q) (m K : nat) (t : Z) (eps : R) (eI : I.type) (z0 : Z) :
  (0 < v)%Q -> (0 < K)%nat -> has eI eps ->
  let w := gwindow tau v m K t in
  let L := ev (2 * t) (fst w) (toRs (snd w)) (hs_weight (gbase v) (exp eps)) in
  has (win_hs (gconsts v t) (2 * t) eI z0 w) L /\
  has (win_upper (gconsts v t) (2 * t) eI z0 w) (L + (1 - ev (2 * t) (fst w) (toRs (snd w)) (fun _ => 1))).
Proof.
  intros Hv HK He w L. destruct (gwindow_below tau v m K t Hv HK) as [Hf _]. fold w in Hf.
  pose proof (gconsts_ok v t Hv) as Hc. unfold win_upper, win_hs.
  destruct (gconsts v t) as [[lbI mI] pI] eqn:Ec. destruct Hc as (Hl & Hm & Hp).
  assert (Hb : 0 < gbase v) by apply exp_pos.
  destruct (window_cs_ok (gbase v) eps eI lbI mI pI (2 * t) (fst w) z0 (length (snd w)) Hb He Hl Hm Hp) as [Hlen Hcs].
  assert (H1 : has (iev2 (snd w) (window_cs eI lbI mI pI (2 * t) (fst w) z0 (length (snd w)))) L)
    by (apply iev2_correct; assumption).
  split; [exact H1|]. apply add_correct; [exact H1|]. apply sub_correct; [exact (I.fromZ_correct prec 1)|].
  apply isum_correct, Hf.
Qed.

(** ** The pair's PLD: the masses over the window, for either sign of the shift *)

Lemma ev_map_seq (d o : Z) (h : nat -> R) (a n : nat) (F : Z -> R) :
  ev d o (map h (seq a n)) F = rsum (map (fun i => h i * F (o + d * (Z.of_nat i - Z.of_nat a))%Z) (seq a n)).
Proof.
  revert a o. induction n as [|n IH]; intros a o; cbn [seq map ev]; [reflexivity|].
  rewrite rsum_cons, IH. f_equal; [do 2 f_equal; lia|].
  f_equal. apply map_ext. intros i. do 2 f_equal. lia.
Qed.

(** Two duplicate-free lists with the elements of the window sum a non-negative family alike. *)
Lemma fsum_same_win (f : Z -> R) (l : list Z) (m : nat) :
  (forall z, 0 <= f z) -> NoDup l -> (forall z, In z l <-> In z (win m)) -> rsum (map f l) = rsum (map f (win m)).
Proof.
  intros Hf Hnd Hl. apply Rle_antisym.
  - apply rsum_map_sub; [exact Hf|exact Hnd|]. intros z Hz _. apply Hl, Hz.
  - apply rsum_map_sub; [exact Hf|apply win_NoDup|]. intros z Hz _. apply Hl, Hz.
Qed.

Lemma asc_spec (m : nat) : NoDup (asc m) /\ (forall z, In z (asc m) <-> In z (win m)).
Proof.
  split.
  - apply nodup_map_on; [intros a c _ _ E; lia|apply seq_NoDup].
  - intros z. rewrite in_win. unfold asc. rewrite in_map_iff. split.
    + intros [i [<- Hi]]. apply in_seq in Hi. lia.
    + intros Hz. exists (Z.to_nat (z + Z.of_nat m)). split; [lia|]. apply in_seq. lia.
Qed.

Lemma ev_asc (d o : Z) (g : Z -> R) (m : nat) (F : Z -> R) :
  (forall z, 0 <= g z) -> (forall z, 0 <= F z) ->
  ev d o (map g (asc m)) F = rsum (map (fun z => g z * F (o + d * (z + Z.of_nat m))%Z) (win m)).
Proof.
  intros Hg HF. unfold asc at 1. rewrite map_map, ev_map_seq.
  destruct (asc_spec m) as [Hnd Hin].
  rewrite <- (fsum_same_win _ (asc m) m); [|intros z; apply Rmult_le_pos; [apply Hg|apply HF]|exact Hnd|exact Hin].
  unfold asc. rewrite rsum_map_map. f_equal. apply map_ext. intros i. do 2 f_equal. lia.
Qed.

(** The pair (noise, noise shifted by s ≠ 0) has, over the window, the masses in increasing
    order as its PLD at the keys 2sz + s² (offset t² − 2t·m, stride 2t, t = |s|). *)
Lemma gauss_pair_ev (vr : R) (m : nat) (s : Z) (F : Z -> R) :
  0 < vr -> (s <> 0)%Z -> (forall z, 0 <= F z) ->
  rsum (map (fun z => dgauss vr z * F (2 * s * z + s * s)%Z) (win m)) =
  ev (2 * Z.abs s) (goff m (Z.abs s)) (map (dgauss vr) (asc m)) F.
Proof.
  intros Hv Hs HF. rewrite ev_asc by (intros; first [apply dgauss_nonneg, Hv|apply HF]).
  destruct (Z.abs_spec s) as [[Hs0 E]|[Hs0 E]]; rewrite E; unfold goff.
  - f_equal. apply map_ext. intros z. do 2 f_equal. ring.
  - assert (Hopp : NoDup (map Z.opp (win m)) /\ forall z, In z (map Z.opp (win m)) <-> In z (win m)).
    { split; [apply nodup_map_on; [intros a c _ _ E'; lia|apply win_NoDup]|].
      intros z. rewrite in_map_iff, in_win. split; [intros [y [<- Hy]]; apply in_win in Hy; lia|].
      intros Hz. exists (- z)%Z. split; [lia|apply in_win; lia]. }
    destruct Hopp as [Hnd Hin].
    rewrite <- (fsum_same_win _ (map Z.opp (win m)) m); [| |exact Hnd|exact Hin].
    + rewrite rsum_map_map. f_equal. apply map_ext. intros z. rewrite dgauss_opp by exact Hv.
      do 2 f_equal. ring.
    + intros z. apply Rmult_le_pos; [apply dgauss_nonneg, Hv|apply HF].
Qed.

(** ** Box bounds *)

Section Box.
Variables (v : Q) (m0 : nat).
Hypothesis Hv : (0 < v)%Q.

Local Notation vr := (Q2R v).
Local Notation p := (dgauss (Q2R v)).
Lemma vr_pos : 0 < vr.
Proof. exact (proj2 (q2r_2v v Hv)). Qed.

Lemma p_nonneg (z : Z) : 0 <= p z.
Proof. apply dgauss_nonneg, vr_pos. Qed.

Lemma nonneg_RB : nonneg (map p (asc m0)).
Proof. apply Forall_forall. intros r Hr. apply in_map_iff in Hr as [z [<- _]]. apply p_nonneg. Qed.

(** The box sum of the noise truncated to the window around x, against the untruncated
    noise around x − s, is the K-th power's integral, from either side. *)
Lemma gauss_box_ord (up : bool) (x s : Z) (m K : nat) (tt : R) :
  (s <> 0)%Z -> (m0 + Z.abs_nat x <= m)%nat -> 0 <= tt ->
  ord up (hsbox (trunc p m0 x) (fun y => p (y - (x - s))%Z) K m tt)
         (ev (2 * Z.abs s) (Z.of_nat K * goff m0 (Z.abs s)) (cpow Rplus Rmult 0 (map p (asc m0)) 1 K) (hs_weight (gbase v) tt)) /\
  rsum (map (trunc p m0 x) (win m)) = ev (2 * Z.abs s) (goff m0 (Z.abs s)) (map p (asc m0)) (fun _ => 1).
Proof.
  intros Hs Hm Ht. pose proof vr_pos as Hvr.
  set (key := fun y => (2 * s * (y - x) + s * s)%Z).
  assert (HB : forall F : Z -> R, (forall z, 0 <= F z) ->
            rsum (map (fun y => trunc p m0 x y * F (key y)) (win m)) = ev (2 * Z.abs s) (goff m0 (Z.abs s)) (map p (asc m0)) F).
  { intros F HF. rewrite (fsum_window_shift _ x m0 m); [| |intros y Hy|exact Hm].
    - rewrite <- (gauss_pair_ev vr m0 s F Hvr Hs HF). apply rsum_ext_in. intros z Hz.
      unfold trunc, key. replace (z + x - x)%Z with z by ring. apply in_win in Hz. apply Nat.leb_le in Hz. rewrite Hz.
      reflexivity.
    - intros y. apply Rmult_le_pos; [apply trunc_bounds, p_nonneg|apply HF].
    - unfold trunc in Hy. destruct (Nat.leb _ _) eqn:E; [apply Nat.leb_le, E|]. exfalso. apply Hy. ring. }
  split.
  - apply (hsbox_ord up (trunc p m0 x) (fun y => p (y - (x - s))%Z) m (gbase v) key (goff m0 (Z.abs s)) (2 * Z.abs s)
             (map p (asc m0)));
      [intros y; apply trunc_bounds, p_nonneg|intros y; apply p_nonneg|apply exp_pos|exact nonneg_RB| |exact HB|exact Ht].
    intros y _. unfold trunc. destruct (Nat.leb _ _); [right|left; reflexivity].
    apply ord_eq. unfold key. rewrite (dgauss_shift vr Hvr (y - x) s). unfold gbase.
    f_equal. f_equal. ring.
  - rewrite <- (HB (fun _ => 1)) by (intros; lra). apply rsum_ext_in. intros y _. ring.
Qed.

Lemma gauss_upper (s : Z) (K : nat) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) (x : Z) (m : nat) :
  (s <> 0)%Z -> (0 < K)%nat -> has eI eps ->
  le_check (win_upper (gconsts v (Z.abs s)) (2 * Z.abs s) eI z0 (gwindow tau v m0 K (Z.abs s))) delta = true ->
  (m0 + Z.abs_nat x <= m)%nat ->
  hsbox (fun y => p (y - x)%Z) (fun y => p (y - (x - s))%Z) K m (exp eps) <= Q2R delta.
Proof.
  intros Hs HK HeI Hle Hm. set (t := exp eps). assert (Ht : 0 < t) by apply exp_pos.
  destruct (gauss_box_ord true x s m K t Hs Hm (Rlt_le _ _ Ht)) as [Hord Hsum0]. cbn [ord] in Hord.
  destruct (hsbox_trunc (fun y => p (y - x)%Z) (trunc p m0 x) (fun y => p (y - (x - s))%Z) K m t
              (trunc_bounds p m0 p_nonneg x) (fun y => p_nonneg _) (Rlt_le _ _ Ht)) as [_ Htr].
  pose proof (shifted_window_le p (dgauss_sum_le vr vr_pos) x m) as H1.
  assert (HpK : (rsum (map (fun y => p (y - x)%Z) (win m))) ^ K <= 1).
  { rewrite <- (pow1 K). apply pow_incr. split; [apply rsum_map_nonneg; intros; apply p_nonneg|exact H1]. }
  destruct (gwindow_below tau v m0 K (Z.abs s) Hv HK) as [Hf Hbl].
  pose proof (ev_below_bracket _ _ _ _ _ (hs_weight (gbase v) t) Hbl
                (fun z => hs_weight_01 (gbase v) t z (exp_pos _) (Rlt_le _ _ Ht))) as [_ H2].
  rewrite ev_cpow_one in H2.
  destruct (gwin_has tau v m0 K (Z.abs s) eps eI z0 Hv HK HeI) as [_ Hu].
  pose proof (le_check_correct _ _ _ Hu Hle) as H3. fold t in H3.
  rewrite Hsum0 in Htr. lra.
Qed.
End Box.

(** ** The theorems *)

Local Open Scope Q_scope.

(** The shift sizes 1 .. Δ. *)
Definition gshifts (Delta : nat) : list Z := map Z.of_nat (seq 1 Delta).

(** v > 0, K > 0, and at each claim (eI, z0, up) every shift size's K-fold window gives at most [up]. *)
Definition gauss_checks (v : Q) (m0 Delta K : nat) (tau : F.type) (cu : list (I.type * Z * Q)) : bool :=
  negb (Qle_bool v 0) && Nat.ltb 0 K &&
  forallb (fun t => let w := gwindow tau v m0 K t in
                    forallb (fun '(eI, z0, up) => le_check (win_upper (gconsts v t) (2 * t) eI z0 w) up) cu)
          (gshifts Delta).

Local Open Scope R_scope.

Theorem zdp_gauss_acc (v : Q) (m0 Delta K : nat) (tau : F.type) (cu : list (I.type * Z * Q))
    (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  gauss_checks v m0 Delta K tau cu = true -> In (eI, z0, delta) cu -> 0 <= eps -> (0 <= delta)%Q ->
  has eI eps -> zdp (dgauss (Q2R v)) (Z.of_nat Delta) K eps (Q2R delta).
Proof.
  intros Hc Hin He Hd HeI x x' HD S. unfold gauss_checks in Hc.
  apply andb_prop in Hc as [Hc Hall]. apply andb_prop in Hc as [Hv HK].
  apply negb_true_iff in Hv. apply Nat.ltb_lt in HK.
  assert (Hv' : (0 < v)%Q) by (apply Qnot_le_lt; intros E; apply Qle_bool_iff in E; rewrite E in Hv; discriminate).
  pose proof (vr_pos v Hv') as Hvr.
  destruct (Z.eq_dec x x') as [<-|Hne].
  { assert (0 <= zpr (dgauss (Q2R v)) x K S) by apply tsum1_nonneg.
    assert (1 <= exp eps) by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta) by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  set (s := (x - x')%Z). assert (Hs : (s <> 0)%Z) by (unfold s; lia).
  assert (Ht : In (Z.abs s) (gshifts Delta)).
  { unfold gshifts. apply in_map_iff. exists (Z.abs_nat s). split; [lia|]. apply in_seq. unfold s in *. lia. }
  rewrite forallb_forall in Hall. specialize (Hall _ Ht). cbv zeta in Hall. rewrite forallb_forall in Hall.
  specialize (Hall _ Hin). cbv beta iota in Hall.
  apply (zdp_pair_of_box (dgauss (Q2R v)) K (fun z => dgauss_nonneg _ Hvr z) (dgauss_sum_le _ Hvr)
           x x' eps (Q2R delta) (m0 + Z.abs_nat x)).
  intros m Hm. replace x' with (x - s)%Z by (unfold s; ring).
  apply (gauss_upper v m0 Hv' s K tau eps eI z0 delta x m Hs HK HeI Hall Hm).
Qed.

(** Lower side: inputs 0 and −t, and the loss event inside the box [−m0, m0]^K. *)
Theorem not_zdp_gauss_acc (v : Q) (m0 Delta K : nat) (tau : F.type) (t : Z) (eps : R) (eI : I.type)
    (z0 : Z) (delta : Q) :
  (0 < v)%Q -> (0 < K)%nat -> (0 < t <= Z.of_nat Delta)%Z -> has eI eps ->
  gt_check (win_hs (gconsts v t) (2 * t) eI z0 (gwindow tau v m0 K t)) delta = true ->
  let S := loss_box (dgauss (Q2R v)) K 0 (0 - t) m0 (exp eps) in
  exp eps * zpr (dgauss (Q2R v)) (0 - t) K S + Q2R delta < zpr (dgauss (Q2R v)) 0 K S /\
  ~ zdp (dgauss (Q2R v)) (Z.of_nat Delta) K eps (Q2R delta).
Proof.
  intros Hv HK HD HeI Hgt S. pose proof (vr_pos v Hv) as Hvr.
  set (p := dgauss (Q2R v)). set (tt := exp eps). assert (Htt : 0 < tt) by apply exp_pos.
  assert (Hs : (t <> 0)%Z) by lia.
  destruct (gauss_box_ord v m0 Hv false 0 t m0 K tt Hs ltac:(cbn; lia) (Rlt_le _ _ Htt)) as [Hord _].
  cbn [ord] in Hord. rewrite Z.abs_eq in Hord by lia.
  destruct (hsbox_trunc (fun y => p (y - 0)%Z) (trunc p m0 0) (fun y => p (y - (0 - t))%Z) K m0 tt
              (trunc_bounds p m0 (fun z => dgauss_nonneg _ Hvr z) 0) (fun y => dgauss_nonneg _ Hvr _) (Rlt_le _ _ Htt))
    as [Htr _].
  destruct (gwindow_below tau v m0 K t Hv HK) as [Hf Hbl].
  pose proof (Hbl (hs_weight (gbase v) tt) (fun z => proj1 (hs_weight_01 (gbase v) tt z (exp_pos _) (Rlt_le _ _ Htt)))) as H2.
  destruct (gwin_has tau v m0 K t eps eI z0 Hv HK HeI) as [Hl _].
  pose proof (gt_check_correct _ _ _ Hl Hgt) as H3. fold tt in H3.
  apply (not_zdp_of_box p K (fun z => dgauss_nonneg _ Hvr z) (dgauss_sum_le _ Hvr) (Z.of_nat Delta) 0 (0 - t) eps (Q2R delta) m0).
  - replace (0 - (0 - t))%Z with t by ring. rewrite Z.abs_eq by (apply Z.lt_le_incl, HD). apply HD.
  - unfold p, tt in *. lra.
Qed.

(** ** One window per shift for both sides

    A re-check without a virtual machine (coqchk) reduces every checked boolean afresh, so a
    window named in two lemmas is computed twice.  [gauss_all] names each shift's window once
    and checks the upper claims [cu] and the lower claims [cl] (shift size, ε, pivot, δ) on
    it; [gauss_all_checks] and [gauss_all_low] give the two theorems' hypotheses. *)

Local Open Scope Q_scope.

(** Masses below 2^-52 dropped at the window's ends: at 1000 runs of σ = 5 they add about
    10⁻¹² to the mass the floats miss, and the window is a third shorter than at 2^-100. *)
Definition tau52 : F.type := 0x1p-52%float.

Definition gauss_shift_ok (v : Q) (m0 K : nat) (tau : F.type) (cu : list (I.type * Z * Q))
    (cl : list (Z * I.type * Z * Q)) (t : Z) : bool :=
  let w := gwindow tau v m0 K t in
  forallb (fun '(eI, z0, up) => le_check (win_upper (gconsts v t) (2 * t) eI z0 w) up) cu &&
  forallb (fun '(t', eI, z0, lo) => implb (Z.eqb t' t) (gt_check (win_hs (gconsts v t) (2 * t) eI z0 w) lo)) cl.

Definition gauss_all (v : Q) (m0 Delta K : nat) (tau : F.type) (cu : list (I.type * Z * Q))
    (cl : list (Z * I.type * Z * Q)) : bool :=
  negb (Qle_bool v 0) && Nat.ltb 0 K && forallb (gauss_shift_ok v m0 K tau cu cl) (gshifts Delta).

Lemma gauss_all_checks (v : Q) (m0 Delta K : nat) (tau : F.type) (cu : list (I.type * Z * Q))
    (cl : list (Z * I.type * Z * Q)) :
  gauss_all v m0 Delta K tau cu cl = true -> gauss_checks v m0 Delta K tau cu = true.
Proof.
  unfold gauss_all, gauss_checks. intros H. apply andb_prop in H as [H0 H]. rewrite H0. cbn [andb].
  rewrite forallb_forall in H |- *. intros t Ht. specialize (H t Ht).
  unfold gauss_shift_ok in H. apply andb_prop in H as [H _]. exact H.
Qed.

Lemma gshifts_in (Delta : nat) (t : Z) : (0 < t <= Z.of_nat Delta)%Z -> In t (gshifts Delta).
Proof.
  intros Ht. unfold gshifts. apply in_map_iff. exists (Z.to_nat t). split; [lia|]. apply in_seq. lia.
Qed.

Lemma gauss_all_low (v : Q) (m0 Delta K : nat) (tau : F.type) (cu : list (I.type * Z * Q))
    (cl : list (Z * I.type * Z * Q)) (t : Z) (eI : I.type) (z0 : Z) (delta : Q) :
  gauss_all v m0 Delta K tau cu cl = true -> In (t, eI, z0, delta) cl -> (0 < t <= Z.of_nat Delta)%Z ->
  gt_check (win_hs (gconsts v t) (2 * t) eI z0 (gwindow tau v m0 K t)) delta = true.
Proof.
  unfold gauss_all. intros H Hin Ht. apply andb_prop in H as [_ H]. rewrite forallb_forall in H.
  specialize (H t (gshifts_in Delta t Ht)). unfold gauss_shift_ok in H. apply andb_prop in H as [_ H].
  rewrite forallb_forall in H. specialize (H _ Hin). cbv beta iota in H. rewrite Z.eqb_refl in H. exact H.
Qed.
