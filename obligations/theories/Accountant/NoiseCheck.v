(** * (ε, δ) of additive rational noise over Z run K times, from both sides

    For noise whose masses are rationals [pq z] (the discrete Laplace with a rational ratio
    α: (1 − α)/(1 + α)·α^|z|), the inputs at distance at most Δ and K runs: for each shift
    s = x − x' (0 < |s| ≤ Δ) the pair's loss keys and PLD over the window [−m0, m0] are
    checked exactly ([noise_pair_ok]); the noise truncated to that window is below the noise,
    and what it misses is counted in the bound (NoiseBox.v, [hsbox_trunc]), so one finite
    PLD bounds every box: [zdp_noise_acc] proves (ε, δ)-DP of the untruncated mechanism for all
    inputs.  [not_zdp_noise_acc] refutes it with inputs 0 and −s and the loss event inside
    the box [−m0, m0]^K. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import PLD PLDCheck.
From Obligations.Coupling Require Import LubSum Geometric Product.
From Obligations.Accountant Require Import Below DownFloat PLDBound PairKeys Weights ComposeCheck NoiseBox NoiseDP.
Import ListNotations.

Definition noise_idx (up : bool) (b : Q) (pq : Z -> Q) (s oB d : Z) (n : nat) (z : Z) : nat :=
  find_idx up b (pq z) (pq (z + s)%Z) oB d 0 n 0.

Definition noise_key (up : bool) (b : Q) (pq : Z -> Q) (s oB d : Z) (n : nat) (z : Z) : Z :=
  key_at oB d (noise_idx up b pq s oB d n z).

(** The pair (noise, noise shifted by s) over [−m0, m0]: keys on the [up] side, PLD [B]. *)
Definition noise_pair_ok (up : bool) (pq : Z -> Q) (m0 : nat) (s : Z) (b : Q) (pld : Z * list Q) : bool :=
  let '(oB, B) := pld in
  let n := length B in
  let zs := win m0 in
  forallb (fun z => Nat.ltb (noise_idx up b pq s oB 1 n z) n &&
                    keyed_ord_b up b (pq z) (pq (z + s)%Z) (noise_key up b pq s oB 1 n z)) zs &&
  qlist_eqb (densify_at n (map pq zs) (map (noise_idx up b pq s oB 1 n) zs)) B.

Local Open Scope R_scope.

Lemma rsum_seq_nth {A} (g : A -> R) (l : list A) (dflt : A) :
  rsum (map (fun i => g (nth i l dflt)) (seq 0 (length l))) = rsum (map g l).
Proof.
  induction l as [|a l IH]; [reflexivity|]. cbn [length seq map nth]. rewrite !rsum_cons.
  rewrite <- seq_shift, map_map. cbn [nth]. rewrite IH. reflexivity.
Qed.

Lemma noise_pair_spec (up : bool) (pq : Z -> Q) (m0 : nat) (s : Z) (b : Q) (oB : Z) (B : list Q) :
  noise_pair_ok up pq m0 s b (oB, B) = true ->
  let key := noise_key up b pq s oB 1 (length B) in
  (forall z, In z (win m0) -> keyed_ord up b (pq z) (pq (z + s)%Z) (key z)) /\
  (forall F : Z -> R, rsum (map (fun z => Q2R (pq z) * F (key z)) (win m0)) = ev 1 oB (map Q2R B) F).
Proof.
  intros H key. unfold noise_pair_ok in H. apply andb_prop in H as [Hall Heq]. split.
  - intros z Hz. rewrite forallb_forall in Hall. destruct (andb_prop _ _ (Hall z Hz)) as [_ H2].
    apply keyed_ord_b_correct, H2.
  - intros F. rewrite <- (qlist_eqb_map _ _ Heq). rewrite densify_at_ev.
    + rewrite map_length. rewrite <- (rsum_seq_nth _ (win m0) 0%Z). apply rsum_ext_in. intros i Hi.
      apply in_seq in Hi as [_ Hi].
      rewrite nth_indep with (d' := pq 0%Z) by (rewrite map_length; exact Hi). rewrite map_nth.
      rewrite nth_indep with (d' := noise_idx up b pq s oB 1 (length B) 0%Z) by (rewrite map_length; exact Hi).
      rewrite map_nth. reflexivity.
    + rewrite !map_length. reflexivity.
    + apply Forall_forall. intros j Hj. apply in_map_iff in Hj as [z [<- Hz]].
      rewrite forallb_forall in Hall. destruct (andb_prop _ _ (Hall z Hz)) as [H1 _]. apply Nat.ltb_lt, H1.
Qed.

(** A non-negative family that vanishes outside x + [−m0, m0] sums over [−m, m] as over the
    shifted small window, when [m] is large enough. *)
Lemma fsum_window_shift (f : Z -> R) (x : Z) (m0 m : nat) :
  (forall y, 0 <= f y) -> (forall y, f y <> 0 -> (Z.abs_nat (y - x) <= m0)%nat) -> (m0 + Z.abs_nat x <= m)%nat ->
  rsum (map f (win m)) = rsum (map (fun z => f (z + x)%Z) (win m0)).
Proof.
  intros Hf Hs Hm. rewrite <- (rsum_map_map f (fun z => (z + x)%Z)).
  assert (Hnd : NoDup (map (fun z => (z + x)%Z) (win m0))) by (apply nodup_map_on; [intros a c _ _ E; lia|apply win_NoDup]).
  apply Rle_antisym.
  - apply rsum_map_sub; [exact Hf|apply win_NoDup|]. intros y _ H0. apply in_map_iff. exists (y - x)%Z.
    split; [lia|]. apply in_win, Hs, H0.
  - apply rsum_map_sub; [exact Hf|exact Hnd|]. intros y Hy H0. apply in_win. pose proof (Hs y H0). lia.
Qed.

Section Pair.
Variables (pq : Z -> Q) (noise : Z -> R) (m0 : nat) (b : Q) (s : Z) (oB : Z) (B : list Q).
Hypothesis Hnoise : forall z, noise z = Q2R (pq z).
Hypothesis Hnn : forall z, 0 <= noise z.
Hypothesis Hb : (0 < b)%Q.
Hypothesis HBnn : forallb (Qle_bool 0) B = true.

(** The noise truncated to [−m0, m0], centred at x. *)
Definition trunc (x : Z) (y : Z) : R := if Nat.leb (Z.abs_nat (y - x)) m0 then noise (y - x)%Z else 0.

Lemma trunc_bounds (x y : Z) : 0 <= trunc x y <= noise (y - x)%Z.
Proof. unfold trunc. destruct (Nat.leb _ _); split; try lra; apply Hnn. Qed.

Lemma nonneg_B : nonneg (map Q2R B).
Proof.
  clear -HBnn. induction B as [|q B' IH]; cbn in HBnn |- *; [constructor|]. apply andb_prop in HBnn as [H1 H2].
  constructor; [|apply IH, H2]. rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, H1.
Qed.

(** The box bound of the pair (x, x − s) from the checked PLD, for every large enough box. *)
Lemma noise_box_ord (up : bool) (x : Z) (m : nat) (K : nat) (t : R) :
  noise_pair_ok up pq m0 s b (oB, B) = true -> (m0 + Z.abs_nat x <= m)%nat -> 0 <= t ->
  ord up (hsbox (trunc x) (fun y => noise (y - (x - s))%Z) K m t)
         (ev 1 (Z.of_nat K * oB) (cpow Rplus Rmult 0 (map Q2R B) 1 K) (hs_weight (Q2R b) t)) /\
  rsum (map (trunc x) (win m)) = ev 1 oB (map Q2R B) (fun _ => 1).
Proof.
  intros Hok Hm Ht. destruct (noise_pair_spec up pq m0 s b oB B Hok) as [Hk HB].
  set (key := noise_key up b pq s oB 1 (length B)) in *.
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  assert (HBm : forall F : Z -> R, (forall z, 0 <= F z) ->
            rsum (map (fun y => trunc x y * F (key (y - x)%Z)) (win m)) = ev 1 oB (map Q2R B) F).
  { intros F HF. rewrite (fsum_window_shift _ x m0 m); [| |intros y Hy|exact Hm].
    - rewrite <- HB. apply rsum_ext_in. intros z Hz. unfold trunc.
      replace (z + x - x)%Z with z by ring. apply in_win in Hz. apply Nat.leb_le in Hz. rewrite Hz, Hnoise. reflexivity.
    - intros y. apply Rmult_le_pos; [apply trunc_bounds|apply HF].
    - unfold trunc in Hy. destruct (Nat.leb _ _) eqn:E; [apply Nat.leb_le, E|]. exfalso. apply Hy. ring. }
  split.
  - apply (hsbox_ord up (trunc x) (fun y => noise (y - (x - s))%Z) m (Q2R b) (fun y => key (y - x)%Z) oB 1 (map Q2R B));
      [intros y; apply trunc_bounds|intros y; apply Hnn|exact Hb'|exact nonneg_B| |exact HBm|exact Ht].
    intros y _. unfold trunc. destruct (Nat.leb _ _) eqn:E; [|left; reflexivity].
    apply Nat.leb_le in E. destruct (Hk (y - x)%Z ltac:(apply in_win; exact E)) as [H0|H0].
    + left. rewrite Hnoise, (Qeq_eqR _ _ H0). apply q2r_0.
    + right. rewrite !Hnoise. replace (y - (x - s))%Z with (y - x + s)%Z by ring.
      destruct up; cbn in H0 |- *; apply Qle_Rle in H0; rewrite Q2R_mult, (q2r_qpower b Hb) in H0; exact H0.
  - rewrite <- (HBm (fun _ => 1)) by (intros; lra). apply rsum_ext_in. intros y _. ring.
Qed.
End Pair.

(** ** The theorems *)

Local Open Scope Q_scope.

(** The shifts s = x − x' with 0 < |s| ≤ Δ. *)
Definition shifts (Delta : nat) : list Z := filter (fun s => negb (Z.eqb s 0)) (win Delta).

(** Every shift has a PLD in [plds], checked; at each claim (eI, z0, up) every PLD's K-fold
    window gives at most [up]. *)
Definition noise_checks (pq : Z -> Q) (m0 Delta : nat) (b : Q) (K : nat) (tau : F.type)
    (plds : list (Z * (Z * list Q))) (cu : list (I.type * Z * Q)) : bool :=
  let c := base_consts b 1 in
  let Ws := map (fun sp => pld_window tau 1 K (snd sp)) plds in
  negb (Qle_bool b 0) && Nat.ltb 0 K &&
  forallb (fun s => existsb (fun sp => Z.eqb (fst sp) s) plds) (shifts Delta) &&
  forallb (fun sp => noise_pair_ok true pq m0 (fst sp) b (snd sp) && forallb (Qle_bool 0) (snd (snd sp))) plds &&
  forallb (fun '(eI, z0, up) => forallb (fun w => le_check (win_upper c 1 eI z0 w) up) Ws) cu.

Local Open Scope R_scope.

Section Theorems.
Variables (pq : Z -> Q) (noise : Z -> R) (m0 : nat) (b : Q).
Hypothesis Hnoise : forall z, noise z = Q2R (pq z).
Hypothesis Hnn : forall z, 0 <= noise z.
Hypothesis Hsum : sum_le noise 1.

(** The upper end of the window's interval bounds the box sums of the shift's pair. *)
Lemma noise_upper (s : Z) (oB : Z) (B : list Q) (K : nat) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z)
    (delta : Q) (x : Z) (m : nat) :
  (0 < b)%Q -> (0 < K)%nat -> noise_pair_ok true pq m0 s b (oB, B) = true -> forallb (Qle_bool 0) B = true ->
  has eI eps -> le_check (win_upper (base_consts b 1) 1 eI z0 (pld_window tau 1 K (oB, B))) delta = true ->
  (m0 + Z.abs_nat x <= m)%nat ->
  hsbox (fun y => noise (y - x)%Z) (fun y => noise (y - (x - s))%Z) K m (exp eps) <= Q2R delta.
Proof.
  intros Hb HK Hok HBnn HeI Hle Hm. set (t := exp eps). assert (Ht : 0 < t) by apply exp_pos.
  destruct (noise_box_ord pq noise m0 b s oB B Hnoise Hnn Hb HBnn true x m K t Hok Hm (Rlt_le _ _ Ht)) as [Hord Hsum0].
  cbn [ord] in Hord.
  destruct (hsbox_trunc (fun y => noise (y - x)%Z) (trunc noise m0 x) (fun y => noise (y - (x - s))%Z) K m t
              (trunc_bounds noise m0 Hnn x) (fun y => Hnn _) (Rlt_le _ _ Ht)) as [_ Htr].
  pose proof (shifted_window_le noise Hsum x m) as H1.
  assert (HpK : (rsum (map (fun y => noise (y - x)%Z) (win m))) ^ K <= 1).
  { rewrite <- (pow1 K). apply pow_incr. split; [apply rsum_map_nonneg; intros; apply Hnn|exact H1]. }
  destruct (pld_window_below tau 1 K oB B HK HBnn) as [Hf Hbl].
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  pose proof (ev_below_bracket _ _ _ _ _ (hs_weight (Q2R b) t) Hbl (fun z => hs_weight_01 (Q2R b) t z Hb' (Rlt_le _ _ Ht))) as [_ H2].
  unfold pld_power in H2. rewrite ev_cpow_one in H2.
  destruct (win_has tau b 1 K oB B eps eI z0 Hb HK HBnn HeI) as [_ Hu].
  pose proof (le_check_correct _ _ _ Hu Hle) as H3. fold t in H3.
  rewrite Hsum0 in Htr. lra.
Qed.

Theorem zdp_noise_acc (Delta K : nat) (tau : F.type) (plds : list (Z * (Z * list Q))) (cu : list (I.type * Z * Q))
    (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  noise_checks pq m0 Delta b K tau plds cu = true -> In (eI, z0, delta) cu -> 0 <= eps -> (0 <= delta)%Q ->
  has eI eps -> zdp noise (Z.of_nat Delta) K eps (Q2R delta).
Proof.
  intros Hc Hin He Hd HeI x x' HD S. unfold noise_checks in Hc. cbv zeta in Hc.
  apply andb_prop in Hc as [Hc Hcu]. apply andb_prop in Hc as [Hc Hok]. apply andb_prop in Hc as [Hc Hsh].
  apply andb_prop in Hc as [Hb HK]. apply negb_true_iff in Hb. apply Nat.ltb_lt in HK.
  assert (Hb' : (0 < b)%Q) by (apply Qnot_le_lt; intros E; apply Qle_bool_iff in E; rewrite E in Hb; discriminate).
  destruct (Z.eq_dec x x') as [<-|Hne].
  { assert (0 <= zpr noise x K S) by apply tsum1_nonneg.
    assert (1 <= exp eps) by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta) by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  set (s := (x - x')%Z).
  assert (Hs : In s (shifts Delta)).
  { unfold shifts. apply filter_In. split; [apply in_win; unfold s; lia|]. apply negb_true_iff, Z.eqb_neq. unfold s. lia. }
  rewrite forallb_forall in Hsh. destruct (proj1 (existsb_exists _ _) (Hsh s Hs)) as [[s' [oB B]] [Hsp Heq]].
  cbn [fst] in Heq. apply Z.eqb_eq in Heq. subst s'.
  rewrite forallb_forall in Hok. destruct (andb_prop _ _ (Hok _ Hsp)) as [Hpair HBnn]. cbn [fst snd] in Hpair, HBnn.
  rewrite forallb_forall in Hcu. specialize (Hcu _ Hin). cbv beta iota in Hcu. rewrite forallb_forall in Hcu.
  assert (Hle : le_check (win_upper (base_consts b 1) 1 eI z0 (pld_window tau 1 K (oB, B))) delta = true).
  { apply Hcu. apply in_map_iff. exists (s, (oB, B)). split; [reflexivity|exact Hsp]. }
  apply (zdp_pair_of_box noise K Hnn Hsum x x' eps (Q2R delta) (m0 + Z.abs_nat x)).
  intros m Hm. replace x' with (x - s)%Z by (unfold s; ring).
  apply (noise_upper s oB B K tau eps eI z0 delta x m Hb' HK Hpair HBnn HeI Hle Hm).
Qed.

(** Lower side: inputs 0 and −s, the shift's pair with keys rounded down, and the loss event
    inside the box [−m0, m0]^K. *)
Theorem not_zdp_noise_acc (Delta K : nat) (tau : F.type) (s : Z) (lo : Z * list Q) (eps : R) (eI : I.type)
    (z0 : Z) (delta : Q) :
  (0 < b)%Q -> (0 < K)%nat -> (Z.abs s <= Z.of_nat Delta)%Z -> noise_pair_ok false pq m0 s b lo = true ->
  forallb (Qle_bool 0) (snd lo) = true -> has eI eps ->
  gt_check (win_hs (base_consts b 1) 1 eI z0 (pld_window tau 1 K lo)) delta = true ->
  let S := loss_box noise K 0 (0 - s) m0 (exp eps) in
  exp eps * zpr noise (0 - s) K S + Q2R delta < zpr noise 0 K S /\ ~ zdp noise (Z.of_nat Delta) K eps (Q2R delta).
Proof.
  intros Hb HK HD Hok HBnn HeI Hgt S. destruct lo as [oB B]. cbn [snd] in HBnn.
  set (t := exp eps). assert (Ht : 0 < t) by apply exp_pos.
  destruct (noise_box_ord pq noise m0 b s oB B Hnoise Hnn Hb HBnn false 0 m0 K t Hok ltac:(cbn; lia) (Rlt_le _ _ Ht))
    as [Hord _].
  cbn [ord] in Hord.
  destruct (hsbox_trunc (fun y => noise (y - 0)%Z) (trunc noise m0 0) (fun y => noise (y - (0 - s))%Z) K m0 t
              (trunc_bounds noise m0 Hnn 0) (fun y => Hnn _) (Rlt_le _ _ Ht)) as [Htr _].
  destruct (pld_window_below tau 1 K oB B HK HBnn) as [Hf Hbl].
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  pose proof (Hbl (hs_weight (Q2R b) t) (fun z => proj1 (hs_weight_01 (Q2R b) t z Hb' (Rlt_le _ _ Ht)))) as H2.
  destruct (win_has tau b 1 K oB B eps eI z0 Hb HK HBnn HeI) as [Hl _].
  pose proof (gt_check_correct _ _ _ Hl Hgt) as H3. fold t in H3.
  apply (not_zdp_of_box noise K Hnn Hsum (Z.of_nat Delta) 0 (0 - s) eps (Q2R delta) m0); [lia|].
  fold t. unfold pld_power in H2. lra.
Qed.
End Theorems.
