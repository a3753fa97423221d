(** * diffprivlib's rounding to the grid leaves the grid: its Snapping is not pure DP
    diffprivlib 0.6.6 rounds the noisy sum w to a multiple of Λ with Python's float `%`:
    r = fmod(w, Λ) (exact), then r + Λ rounded when r < 0; then w − r + Λ (r > Λ/2),
    w + r (r = Λ/2) or w − r, each operation rounded ([dl_round]).  For Λ = 1 and the float
    w₀ = −1/2 + 2^−54 just above −1/2, r + 1 = 1/2 + 2^−54 is a tie that rounds (to even)
    to 1/2, and the tie branch returns w₀ + 1/2 = 2^−54: off the grid.  [dl_round_off_grid]:
    that is the only float w with dl_round w 1 = 2^−54.

    The mechanism as diffprivlib runs it, in scaled units ([dl_out]): the noise
    fl(λ·((−1)^bit·LN(u))) with u from U* and LN the correctly rounded ln (crlibm's log_rn),
    the sum fl(x + noise), [dl_round], the clamp to [−B, B]; binary64, ties to even
    ([even_tie], IEEE's default).  At diffprivlib's own parameters for ε = 1.5, sensitivity 1,
    bounds [0, nextafter(1.5, 2)] (B = 3/4 + 2^−53, λ = 1/ε′ = 6004799503160668·2^−53, Λ = 1,
    inside Mironov's range λ < B), the scaled inputs of 0.7500000000000001 and 1.0 are x = 0
    and x′ = 1/4 − 2^−53 (|x − x′| < 1): the output 2^−54 has probability exactly 2^−55 from x
    (one sample u₀ = 8509399323626886·2^−54, sign bit 0) and 0 from x′ (its sums are multiples
    of 2^−53 near −1/2, never w₀): [diffprivlib_not_dp], no ε at all.  (diffprivlib then maps
    the output to (r + B)·Δ + lower: 2^−54 becomes 0.7500000000000002, which x′ never outputs;
    checked with diffprivlib's own code in tests/unit/test_client_diffprivlib.py, not here.) *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Clamp.
From Obligations.Float Require Import RelError UStarMeasure SnapPipeline.

Local Open Scope R_scope.

Notation fmt64 := (FLT_exp (-1074) 53).
Notation F64 := (generic_format radix2 fmt64).

(** Ties to even (Flocq's ZnearestE). *)
Definition even_tie (z : Z) : bool := negb (Z.even z).

Notation fl := (rnd 53 (-1074) even_tie).

Local Instance dl_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Lemma fl_le : forall v v', v <= v' -> fl v <= fl v'.
Proof. intros v v' H. apply round_le; [apply FLT_exp_valid; exact dl_prec_gt_0|apply valid_rnd_N|exact H]. Qed.

Lemma fl_generic : forall f, F64 f -> fl f = f.
Proof. intros f Hf. apply round_generic; [apply valid_rnd_N|exact Hf]. Qed.

Lemma fl_format : forall v, F64 (fl v).
Proof. intros v. apply generic_format_round; [apply FLT_exp_valid; exact dl_prec_gt_0|apply valid_rnd_N]. Qed.

Lemma f64_bpow : forall e, (-1074 <= e)%Z -> F64 (bpow radix2 e).
Proof. intros e He. apply generic_format_bpow. unfold FLT_exp. lia. Qed.

(** ** Floats of one binade are multiples of its spacing *)
Lemma float_multiple : forall z e, F64 z -> bpow radix2 (e - 1) <= Rabs z < bpow radix2 e ->
  (-1074 <= e - 53)%Z -> exists j : Z, z = IZR j * bpow radix2 (e - 53).
Proof.
  intros z e Fz Hb He. exists (Ztrunc (scaled_mantissa radix2 fmt64 z)).
  rewrite Fz at 1. unfold F2R. cbn [Fnum Fexp]. f_equal.
  unfold cexp. rewrite (mag_unique radix2 z e Hb). unfold FLT_exp. f_equal. lia.
Qed.

(** ** The neighbours of a float m·2^e with 2^52 < |m| < 2^53 *)
Lemma float_pos_neighbours : forall m e, (4503599627370496 < m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  F64 (IZR m * bpow radix2 e) /\
  succ radix2 fmt64 (IZR m * bpow radix2 e) = IZR m * bpow radix2 e + bpow radix2 e /\
  pred radix2 fmt64 (IZR m * bpow radix2 e) = IZR m * bpow radix2 e - bpow radix2 e.
Proof.
  intros m e Hm He. set (f := IZR m * bpow radix2 e).
  assert (Hbe := bpow_gt_0 radix2 e).
  assert (Hm1 : 4503599627370496 < IZR m < 9007199254740992) by (split; apply IZR_lt; lia).
  assert (Hf0 : 0 < f) by (unfold f; nra).
  assert (Hmag : mag radix2 f = (e + 53)%Z :> Z).
  { apply mag_unique. rewrite Rabs_pos_eq by lra. unfold f.
    replace (e + 53 - 1)%Z with (52 + e)%Z by ring. rewrite !bpow_plus.
    change (bpow radix2 52) with (IZR (Z.pow_pos 2 52)). change (bpow radix2 53) with (IZR (Z.pow_pos 2 53)).
    change (Z.pow_pos 2 52) with 4503599627370496%Z. change (Z.pow_pos 2 53) with 9007199254740992%Z.
    split; nra. }
  assert (Hcexp : cexp radix2 fmt64 f = e).
  { unfold cexp. rewrite Hmag. unfold FLT_exp. lia. }
  assert (Ff : F64 f).
  { apply generic_format_FLT. exists (Float radix2 m e); [reflexivity| |cbn [Fexp]; lia].
    cbn [Fnum radix_val radix2 Z.pow]. change (Z.pow_pos 2 53) with 9007199254740992%Z. lia. }
  assert (Hulp : ulp radix2 fmt64 f = bpow radix2 e).
  { rewrite ulp_neq_0 by lra. rewrite Hcexp. reflexivity. }
  split; [exact Ff|]. split.
  - rewrite succ_eq_pos by lra. rewrite Hulp. reflexivity.
  - rewrite pred_eq_pos by lra. unfold pred_pos. rewrite Req_bool_false.
    + rewrite Hulp. reflexivity.
    + rewrite Hmag. replace (e + 53 - 1)%Z with (52 + e)%Z by ring. rewrite bpow_plus.
      change (bpow radix2 52) with (IZR (Z.pow_pos 2 52)). change (Z.pow_pos 2 52) with 4503599627370496%Z.
      unfold f. intros H. apply Rmult_eq_reg_r in H; lra.
Qed.

Lemma float_neighbours : forall m e, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  F64 (IZR m * bpow radix2 e) /\
  succ radix2 fmt64 (IZR m * bpow radix2 e) = IZR m * bpow radix2 e + bpow radix2 e /\
  pred radix2 fmt64 (IZR m * bpow radix2 e) = IZR m * bpow radix2 e - bpow radix2 e.
Proof.
  intros m e Hm He. destruct (Z_lt_le_dec 0 m) as [Hp|Hn].
  - apply float_pos_neighbours; [rewrite Z.abs_eq in Hm by lia; exact Hm|exact He].
  - destruct (float_pos_neighbours (- m) e ltac:(rewrite Z.abs_neq in Hm by lia; lia) He) as (F & S & P).
    rewrite opp_IZR in F, S, P.
    replace (IZR m * bpow radix2 e) with (- (- IZR m * bpow radix2 e)) by ring.
    split; [apply generic_format_opp; exact F|]. split.
    + rewrite succ_opp, P. ring.
    + rewrite pred_opp, S. ring.
Qed.

(** A real within half a spacing of m·2^e rounds to it (any tie rule). *)
Lemma fl_cell : forall m e v, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  IZR m * bpow radix2 e - bpow radix2 e / 2 < v < IZR m * bpow radix2 e + bpow radix2 e / 2 ->
  fl v = IZR m * bpow radix2 e.
Proof.
  intros m e v Hm He [H1 H2]. destruct (float_neighbours m e Hm He) as (F & S & P).
  apply Rle_antisym.
  - apply (round_N_le_midp radix2 fmt64 even_tie); [exact F|]. rewrite S. lra.
  - apply (round_N_ge_midp radix2 fmt64 even_tie); [exact F|]. rewrite P. lra.
Qed.

Lemma fl_lt_of_below : forall m e v, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  v < IZR m * bpow radix2 e - bpow radix2 e / 2 -> fl v < IZR m * bpow radix2 e.
Proof.
  intros m e v Hm He H. destruct (float_neighbours m e Hm He) as (F & _ & P).
  destruct (Rlt_le_dec (fl v) (IZR m * bpow radix2 e)) as [L|L]; [exact L|exfalso].
  assert (G := round_N_ge_ge_midp radix2 fmt64 even_tie _ v F L). rewrite P in G. lra.
Qed.

Lemma fl_gt_of_above : forall m e v, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  IZR m * bpow radix2 e + bpow radix2 e / 2 < v -> IZR m * bpow radix2 e < fl v.
Proof.
  intros m e v Hm He H. destruct (float_neighbours m e Hm He) as (F & S & _).
  destruct (Rlt_le_dec (IZR m * bpow radix2 e) (fl v)) as [L|L]; [exact L|exfalso].
  assert (G := round_N_le_le_midp radix2 fmt64 even_tie _ v F L). rewrite S in G. lra.
Qed.

(** ** diffprivlib's rounding to the grid *)
Definition fmod_exact (w grid : R) : R := w - grid * IZR (Ztrunc (w / grid)).

(** Python's float [w % grid] for grid > 0: fmod, then + grid (rounded) when negative. *)
Definition float_mod (w grid : R) : R :=
  let r := fmod_exact w grid in if Rlt_dec r 0 then fl (r + grid) else r.

Definition dl_round (w grid : R) : R :=
  let r := float_mod w grid in
  if Rlt_dec (grid / 2) r then fl (fl (w - r) + grid)
  else if Req_EM_T r (grid / 2) then fl (w + r)
  else fl (w - r).

Lemma bpow_m53 : bpow radix2 (-53) = / 9007199254740992.
Proof. change (bpow radix2 (-53)) with (/ IZR (Z.pow_pos 2 53)). reflexivity. Qed.

Lemma bpow_m54 : bpow radix2 (-54) = / 18014398509481984.
Proof. change (bpow radix2 (-54)) with (/ IZR (Z.pow_pos 2 54)). reflexivity. Qed.

Lemma bpow_m55 : bpow radix2 (-55) = / 36028797018963968.
Proof. change (bpow radix2 (-55)) with (/ IZR (Z.pow_pos 2 55)). reflexivity. Qed.

(** Only a real in (2^−55, 2^−53) rounds to 2^−54. *)
Lemma fl_small : forall v, fl v = bpow radix2 (-54) -> bpow radix2 (-55) < v < bpow radix2 (-53).
Proof.
  intros v H. rewrite bpow_m54 in H. rewrite bpow_m55, bpow_m53. split.
  - destruct (Rlt_le_dec (/ 36028797018963968) v) as [L|L]; [exact L|exfalso].
    assert (M := fl_le _ _ L). rewrite <- bpow_m55, (fl_generic (bpow radix2 (-55))) in M by (apply f64_bpow; lia).
    rewrite bpow_m55 in M. lra.
  - destruct (Rlt_le_dec v (/ 9007199254740992)) as [L|L]; [exact L|exfalso].
    assert (M := fl_le _ _ L). rewrite <- bpow_m53, (fl_generic (bpow radix2 (-53))) in M by (apply f64_bpow; lia).
    rewrite bpow_m53 in M. lra.
Qed.

Lemma no_float_above_minus_one : forall z, F64 z -> - 1 + / 36028797018963968 < z < - 1 + / 9007199254740992 -> False.
Proof.
  intros z Fz Hz.
  destruct (float_multiple z 0 Fz) as [j Hj].
  { rewrite Rabs_left by lra. change (bpow radix2 (0 - 1)) with (/ 2). change (bpow radix2 0) with 1. lra. }
  { lia. }
  change (0 - 53)%Z with (-53)%Z in Hj. rewrite bpow_m53 in Hj. subst z.
  assert (J1 : IZR (- 9007199254740992) < IZR j) by lra.
  assert (J2 : IZR j < IZR (- 9007199254740991)) by lra.
  apply lt_IZR in J1. apply lt_IZR in J2. lia.
Qed.

Lemma ztrunc_div_1 : forall w, Ztrunc (w / 1) = Ztrunc w.
Proof. intros w. f_equal. field. Qed.

(** The off-grid output comes from w₀ = −1/2 + 2^−54 and nothing else. *)
Theorem dl_round_off_grid : forall w, F64 w -> dl_round w 1 = bpow radix2 (-54) -> w = - / 2 + bpow radix2 (-54).
Proof.
  intros w Fw H. unfold dl_round, float_mod, fmod_exact in H.
  rewrite ztrunc_div_1, Rmult_1_l in H.
  set (k := Ztrunc w) in *. set (r := w - IZR k) in *.
  assert (Hsm := fl_small).
  destruct (Rlt_dec r 0) as [Hr|Hr].
  - (* w < 0, not an integer: r ∈ (−1, 0), r' = fl(r + 1) ∈ [0, 1] *)
    assert (Hw : w < 0).
    { destruct (Rlt_le_dec w 0) as [L|L]; [exact L|exfalso].
      unfold r, k in Hr. rewrite Ztrunc_floor in Hr by exact L. assert (Zf := Zfloor_lb w). lra. }
    assert (Hk : IZR k - 1 < w).
    { unfold k. rewrite Ztrunc_ceil by lra. assert (Zc := Zceil_lb w). lra. }
    set (r' := fl (r + 1)) in *.
    assert (Hr' : 0 <= r').
    { unfold r'. rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. unfold r. lra. }
    destruct (Rlt_dec (1 / 2) r') as [H1|H1].
    + apply Hsm in H. exfalso. apply (no_float_above_minus_one (fl (w - r'))); [apply fl_format|].
      rewrite bpow_m55, bpow_m53 in H. lra.
    + destruct (Req_EM_T r' (1 / 2)) as [H2|H2].
      * apply Hsm in H. rewrite H2 in H. rewrite bpow_m55, bpow_m53 in H.
        destruct (float_multiple w (-1) Fw) as [j Hj].
        { rewrite Rabs_left by lra. change (bpow radix2 (-1 - 1)) with (/ 4). change (bpow radix2 (-1)) with (/ 2).
          lra. }
        { lia. }
        change (-1 - 53)%Z with (-54)%Z in Hj. rewrite bpow_m54 in Hj.
        assert (J1 : IZR (- 9007199254740992) < IZR j) by (subst w; lra).
        assert (J2 : IZR j < IZR (- 9007199254740990)) by (subst w; lra).
        apply lt_IZR in J1. apply lt_IZR in J2. assert (j = (- 9007199254740991)%Z) by lia.
        subst j w. rewrite bpow_m54. field.
      * apply Hsm in H. rewrite bpow_m55 in H. exfalso. assert (0 < / 36028797018963968) by lra. lra.
  - (* r ≥ 0: w − r = k, an integer *)
    assert (Hwr : w - r = IZR k) by (unfold r; ring).
    exfalso. destruct (Rlt_dec (1 / 2) r) as [H1|H1].
    + apply Hsm in H. apply (no_float_above_minus_one (fl (w - r))); [apply fl_format|].
      rewrite bpow_m55, bpow_m53 in H. lra.
    + destruct (Req_EM_T r (1 / 2)) as [H2|H2].
      * apply Hsm in H. rewrite bpow_m55, bpow_m53 in H.
        assert (Hi : w + r = IZR (k + 1)) by (rewrite plus_IZR; lra).
        rewrite Hi in H. destruct H as [J1 J2].
        assert (0 < IZR (k + 1)) by lra. assert (IZR (k + 1) < 1) by lra.
        apply lt_IZR in H. apply lt_IZR in H0. lia.
      * apply Hsm in H. rewrite bpow_m55, bpow_m53, Hwr in H. destruct H as [J1 J2].
        assert (0 < IZR k) by lra. assert (IZR k < 1) by lra.
        apply lt_IZR in H. apply lt_IZR in H0. lia.
Qed.

(** The tie: 1/2 + 2^−54 rounds (to even) to 1/2. *)
Lemma fl_tie_half : fl (/ 2 + bpow radix2 (-54)) = / 2.
Proof.
  rewrite bpow_m54. set (x := / 2 + / 18014398509481984).
  unfold RelError.rnd, round, F2R, scaled_mantissa. cbn [Fnum Fexp].
  assert (Hc : cexp radix2 fmt64 x = (-53)%Z).
  { unfold cexp. rewrite (mag_unique radix2 x 0); [unfold FLT_exp; reflexivity|].
    rewrite Rabs_pos_eq by (unfold x; lra). change (bpow radix2 (0 - 1)) with (/ 2). change (bpow radix2 0) with 1.
    unfold x. lra. }
  rewrite Hc. change (bpow radix2 (- (-53))) with (IZR (Z.pow_pos 2 53)).
  change (bpow radix2 (-53)) with (/ IZR (Z.pow_pos 2 53)).
  change (Z.pow_pos 2 53) with 9007199254740992%Z.
  assert (Hy : x * 9007199254740992 = IZR 4503599627370496 + / 2) by (unfold x; field).
  rewrite Hy. unfold Znearest.
  rewrite (Zfloor_imp 4503599627370496) by (rewrite plus_IZR; lra).
  replace (IZR 4503599627370496 + / 2 - IZR 4503599627370496) with (/ 2) by ring.
  rewrite Rcompare_Eq by reflexivity. cbn. field.
Qed.

Theorem dl_round_w0 : dl_round (- / 2 + bpow radix2 (-54)) 1 = bpow radix2 (-54).
Proof.
  unfold dl_round, float_mod, fmod_exact. cbv zeta. rewrite ztrunc_div_1, Rmult_1_l.
  assert (Hw : - / 2 + bpow radix2 (-54) = - / 2 + / 18014398509481984) by (rewrite bpow_m54; reflexivity).
  assert (Ht : Ztrunc (- / 2 + bpow radix2 (-54)) = 0%Z).
  { rewrite Ztrunc_ceil by (rewrite Hw; lra). apply Zceil_imp. rewrite Hw. change (0 - 1)%Z with (-1)%Z. lra. }
  rewrite Ht. replace (- / 2 + bpow radix2 (-54) - IZR 0) with (- / 2 + bpow radix2 (-54)) by ring.
  destruct (Rlt_dec (- / 2 + bpow radix2 (-54)) 0) as [_|N]; [|exfalso; rewrite Hw in N; lra].
  replace (- / 2 + bpow radix2 (-54) + 1) with (/ 2 + bpow radix2 (-54)) by lra.
  rewrite fl_tie_half.
  destruct (Rlt_dec (1 / 2) (/ 2)) as [N|_]; [exfalso; lra|].
  destruct (Req_EM_T (/ 2) (1 / 2)) as [_|N]; [|exfalso; apply N; field].
  replace (- / 2 + bpow radix2 (-54) + / 2) with (bpow radix2 (-54)) by ring.
  apply fl_generic, f64_bpow. lia.
Qed.

(** ** The mechanism diffprivlib runs, in scaled units *)
Notation ustar64 := (ustar 53 (-1074)).

(** The rounded sum for the sign s = (−1)^bit: fl(x + fl(λ·(s·LN(u)))), LN correctly rounded. *)
Definition dl_sum (lam x s U : R) : R := fl (x + fl (lam * (s * fl (ln (ustar64 U))))).

Definition dl_out (lam grid B x s U : R) : R := clamp B (dl_round (dl_sum lam x s U) grid).

(** Both sign bits with probability 1/2; pr: U*'s measure ([uprob]). *)
Definition dl_prob (pr : (R -> Prop) -> R) (lam grid B x o : R) : R :=
  / 2 * pr (fun U => dl_out lam grid B x 1 U = o) + / 2 * pr (fun U => dl_out lam grid B x (-1) U = o).

(** ** The witness: diffprivlib's parameters for ε = 1.5, sensitivity 1, bounds [0, nextafter(1.5, 2)] *)
Definition dl_lam : R := IZR 6004799503160668 * bpow radix2 (-53).   (* 1/ε′, ε′ = (1.5 − 2η)/(1 + 12Bη) *)
Definition dl_B : R := IZR 6755399441055745 * bpow radix2 (-53).     (* 3/4 + 2^−53 *)
Definition dl_x : R := 0.                                            (* 0.7500000000000001, scaled *)
Definition dl_x' : R := IZR 2251799813685247 * bpow radix2 (-53).    (* 1.0, scaled: 1/4 − 2^−53 *)
Definition dl_o : R := bpow radix2 (-54).                            (* the off-grid output *)
Definition dl_w0 : R := IZR (-9007199254740991) * bpow radix2 (-54). (* −1/2 + 2^−54 *)
Definition dl_u0 : R := IZR 8509399323626886 * bpow radix2 (-54).    (* the one sample *)
Definition dl_u0m : R := IZR 8509399323626885 * bpow radix2 (-54).
Definition dl_u0p : R := IZR 8509399323626887 * bpow radix2 (-54).
Definition dl_L0 : R := IZR (-6755399441055736) * bpow radix2 (-53). (* LN(u₀) *)
Definition dl_Lm : R := IZR (-6755399441055737) * bpow radix2 (-53). (* LN(pred u₀) *)
Definition dl_Lp : R := IZR (-6755399441055735) * bpow radix2 (-53). (* LN(succ u₀) *)

Lemma eta_binary64' : eta 53 = / 9007199254740992.
Proof. unfold eta, Relative.u_ro. cbn. change (Z.pow_pos 2 52) with 4503599627370496%Z. field. Qed.

Lemma dl_w0_eq : dl_w0 = - / 2 + bpow radix2 (-54).
Proof. unfold dl_w0. rewrite bpow_m54. field. Qed.

Lemma dl_lam_pos : 0 < dl_lam.
Proof. unfold dl_lam. rewrite bpow_m53. lra. Qed.

Lemma dl_o_inside : - dl_B < dl_o < dl_B.
Proof. unfold dl_o, dl_B. rewrite bpow_m53, bpow_m54. lra. Qed.

(** The sum from the input 0 with sign bit 0, as a function of the sample u. *)
Definition dl_g (u : R) : R := fl (dl_x + fl (dl_lam * (1 * fl (ln u)))).

Lemma dl_sum_g : forall U, dl_sum dl_lam dl_x 1 U = dl_g (ustar64 U).
Proof. reflexivity. Qed.

Lemma dl_g_mono : forall u u', 0 < u -> u <= u' -> dl_g u <= dl_g u'.
Proof.
  intros u u' Hu H. unfold dl_g. apply fl_le. apply Rplus_le_compat_l. apply fl_le.
  apply Rmult_le_compat_l; [left; exact dl_lam_pos|]. rewrite !Rmult_1_l. apply fl_le. apply ln_mono; lra.
Qed.

Lemma dl_fl0 : forall y, F64 y -> fl (dl_x + y) = y.
Proof. intros y Fy. unfold dl_x. rewrite Rplus_0_l. apply fl_generic, Fy. Qed.

Lemma dl_g_u0 : dl_g dl_u0 = dl_w0.
Proof.
  unfold dl_g. assert (HL : fl (ln dl_u0) = dl_L0).
  { unfold dl_L0. apply fl_cell; [lia|lia|]. unfold dl_u0. rewrite bpow_m53, bpow_m54.
    split; interval with (i_prec 100). }
  rewrite HL, Rmult_1_l.
  assert (HN : fl (dl_lam * dl_L0) = dl_w0).
  { unfold dl_w0. apply fl_cell; [lia|lia|]. unfold dl_lam, dl_L0. rewrite bpow_m53, bpow_m54. split; lra. }
  rewrite HN. apply dl_fl0. rewrite <- HN. apply fl_format.
Qed.

Lemma dl_g_below : forall u, 0 < u -> u <= dl_u0m -> dl_g u < dl_w0.
Proof.
  intros u Hu H. apply Rle_lt_trans with (dl_g dl_u0m); [apply dl_g_mono; assumption|].
  unfold dl_g. destruct (float_neighbours (-6755399441055737) (-53) ltac:(lia) ltac:(lia)) as (F & S & _).
  assert (HL : fl (ln dl_u0m) <= dl_Lm).
  { unfold dl_Lm. apply (round_N_le_midp radix2 fmt64 even_tie); [exact F|]. rewrite S.
    unfold dl_u0m. rewrite bpow_m53, bpow_m54. interval with (i_prec 100). }
  assert (HP : fl (dl_lam * (1 * fl (ln dl_u0m))) <= fl (dl_lam * dl_Lm)).
  { apply fl_le. rewrite Rmult_1_l. apply Rmult_le_compat_l; [left; exact dl_lam_pos|exact HL]. }
  assert (HN : fl (dl_lam * dl_Lm) < dl_w0).
  { unfold dl_w0. apply fl_lt_of_below; [lia|lia|]. unfold dl_lam, dl_Lm. rewrite bpow_m53, bpow_m54. lra. }
  rewrite dl_fl0 by apply fl_format. lra.
Qed.

Lemma dl_g_above : forall u, dl_u0p <= u -> dl_w0 < dl_g u.
Proof.
  intros u H. apply Rlt_le_trans with (dl_g dl_u0p).
  2: { apply dl_g_mono; [unfold dl_u0p; rewrite bpow_m54; lra|exact H]. }
  unfold dl_g. destruct (float_neighbours (-6755399441055735) (-53) ltac:(lia) ltac:(lia)) as (F & _ & P).
  assert (HL : dl_Lp <= fl (ln dl_u0p)).
  { unfold dl_Lp. apply (round_N_ge_midp radix2 fmt64 even_tie); [exact F|]. rewrite P.
    unfold dl_u0p. rewrite bpow_m53, bpow_m54. interval with (i_prec 100). }
  assert (HP : fl (dl_lam * dl_Lp) <= fl (dl_lam * (1 * fl (ln dl_u0p)))).
  { apply fl_le. rewrite Rmult_1_l. apply Rmult_le_compat_l; [left; exact dl_lam_pos|exact HL]. }
  assert (HN : dl_w0 < fl (dl_lam * dl_Lp)).
  { unfold dl_w0. apply fl_gt_of_above; [lia|lia|]. unfold dl_lam, dl_Lp. rewrite bpow_m53, bpow_m54. lra. }
  rewrite dl_fl0 by apply fl_format. lra.
Qed.

(** The only sample U* maps to w₀ from 0 with sign bit 0: U in [u₀, succ u₀). *)
Lemma dl_event_x : forall U, 0 < U <= 1 ->
  (dl_out dl_lam 1 dl_B dl_x 1 U = dl_o <-> dl_u0 <= U < dl_u0p).
Proof.
  intros U HU.
  destruct (float_neighbours 8509399323626886 (-54) ltac:(lia) ltac:(lia)) as (Fu & Su & Pu).
  fold dl_u0 in Fu, Su, Pu.
  assert (Hsu : succ radix2 fmt64 dl_u0 = dl_u0p) by (rewrite Su; unfold dl_u0, dl_u0p; rewrite bpow_m54; lra).
  assert (Hpu : pred radix2 fmt64 dl_u0 = dl_u0m) by (rewrite Pu; unfold dl_u0, dl_u0m; rewrite bpow_m54; lra).
  assert (Fp : F64 dl_u0p) by (destruct (float_neighbours 8509399323626887 (-54) ltac:(lia) ltac:(lia)) as (F & _); exact F).
  assert (Hb : dl_u0m < dl_u0 < dl_u0p) by (unfold dl_u0m, dl_u0, dl_u0p; rewrite bpow_m54; lra).
  assert (Hb0 : 0 < dl_u0m) by (unfold dl_u0m; rewrite bpow_m54; lra).
  assert (Hp1 : dl_u0p < 1) by (unfold dl_u0p; rewrite bpow_m54; lra).
  assert (Ht : tiny (-1074) < dl_u0m) by (unfold tiny, dl_u0m; rewrite bpow_m54;
    change (-1074)%Z with (-54 + -1020)%Z; rewrite bpow_plus, bpow_m54;
    assert (0 < bpow radix2 (-1020)) by apply bpow_gt_0; assert (bpow radix2 (-1020) <= 1) by (apply (bpow_le radix2 (-1020) 0); lia);
    change (bpow radix2 0) with 1 in *; nra).
  unfold dl_out. rewrite (clamp_interior_iff _ _ _ dl_o_inside), dl_sum_g. split.
  - intros H. assert (Hw := dl_round_off_grid _ (fl_format _) H). rewrite <- dl_w0_eq in Hw. change (dl_g (ustar64 U) = dl_w0) in Hw.
    assert (Fs := ustar_format 53 (-1074) eq_refl ltac:(lia) U). assert (Hs := ustar_in 53 (-1074) eq_refl ltac:(lia) U).
    assert (E : ustar64 U = dl_u0).
    { destruct (Rle_lt_dec (ustar64 U) dl_u0m) as [L|L].
      - exfalso. assert (dl_g (ustar64 U) < dl_w0) by (apply dl_g_below; lra). lra.
      - destruct (Rle_lt_dec dl_u0p (ustar64 U)) as [L'|L'].
        + exfalso. assert (dl_w0 < dl_g (ustar64 U)) by (apply dl_g_above; exact L'). lra.
        + apply Rle_antisym.
          * destruct (Rle_lt_dec (ustar64 U) dl_u0) as [M|M]; [exact M|exfalso].
            assert (succ radix2 fmt64 dl_u0 <= ustar64 U) by (apply (succ_le_lt radix2 fmt64); [exact Fu|exact Fs|exact M]).
            rewrite Hsu in H0. lra.
          * destruct (Rle_lt_dec dl_u0 (ustar64 U)) as [M|M]; [exact M|exfalso].
            assert (ustar64 U <= pred radix2 fmt64 dl_u0) by (apply (pred_ge_gt radix2 fmt64); [exact Fs|exact Fu|exact M]).
            rewrite Hpu in H0. lra. }
    (* from the sample back to U *)
    unfold UStarMeasure.ustar in E.
    assert (Hr : rdn 53 (-1074) U = dl_u0).
    { assert (Ht' : tiny (-1074) < dl_u0) by lra.
      assert (He : dl_u0 < 1 - eta 53) by (rewrite eta_binary64'; unfold dl_u0; rewrite bpow_m54; lra).
      unfold Rmax, Rmin in E.
      repeat match goal with E : context [Rle_dec ?a ?b] |- _ => destruct (Rle_dec a b) end; lra. }
    split.
    + rewrite <- Hr. apply rdn_le. reflexivity.
    + destruct (Rlt_le_dec U dl_u0p) as [L|L]; [exact L|exfalso].
      assert (M : rdn 53 (-1074) dl_u0p <= rdn 53 (-1074) U)
        by (apply round_le; [apply FLT_exp_valid; exact dl_prec_gt_0|apply valid_rnd_DN|exact L]).
      unfold rdn in M at 1. rewrite round_generic in M by (apply valid_rnd_DN || exact Fp). lra.
  - intros [H1 H2].
    assert (Hr : rdn 53 (-1074) U = dl_u0) by (apply (round_DN_eq radix2 fmt64); [exact Fu|rewrite Hsu; lra]).
    rewrite (ustar_is_rdn 53 (-1074) eq_refl ltac:(lia) U) by lra. rewrite Hr, dl_g_u0, dl_w0_eq.
    apply dl_round_w0.
Qed.

(** With sign bit 1 the noise is positive: the sum from 0 is at least 0, never w₀. *)
Lemma dl_event_x_minus : forall U, dl_out dl_lam 1 dl_B dl_x (-1) U <> dl_o.
Proof.
  intros U H. unfold dl_out in H. rewrite (clamp_interior_iff _ _ _ dl_o_inside) in H.
  assert (Hw := dl_round_off_grid _ (fl_format _) H). rewrite <- dl_w0_eq in Hw.
  assert (Hs := ustar_in 53 (-1074) eq_refl ltac:(lia) U).
  assert (Hl : ln (ustar64 U) <= 0) by (rewrite <- ln_1; apply ln_mono; lra).
  assert (H0 : fl (ln (ustar64 U)) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. exact Hl. }
  assert (H1 : 0 <= fl (dl_lam * (-1 * fl (ln (ustar64 U))))).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le.
    assert (0 <= -1 * fl (ln (ustar64 U))) by lra. assert (L := dl_lam_pos). nra. }
  unfold dl_sum in Hw. rewrite dl_fl0 in Hw by apply fl_format.
  unfold dl_w0 in Hw. rewrite bpow_m54 in Hw. lra.
Qed.

(** From x′ = 1/4 − 2^−53 no sum is w₀: the sums near −1/2 are multiples of 2^−53. *)
Lemma dl_event_x' : forall s U, dl_out dl_lam 1 dl_B dl_x' s U <> dl_o.
Proof.
  intros s U H. unfold dl_out in H. rewrite (clamp_interior_iff _ _ _ dl_o_inside) in H.
  assert (Hw := dl_round_off_grid _ (fl_format _) H). rewrite <- dl_w0_eq in Hw.
  unfold dl_sum in Hw. set (n := fl (dl_lam * (s * fl (ln (ustar64 U))))) in Hw.
  assert (Fn : F64 n) by apply fl_format.
  destruct (float_neighbours (-9007199254740991) (-54) ltac:(lia) ltac:(lia)) as (Fw & Sw & Pw).
  fold dl_w0 in Fw, Sw, Pw.
  assert (L1 := round_N_ge_ge_midp radix2 fmt64 even_tie dl_w0 (dl_x' + n) Fw (Req_le _ _ (eq_sym Hw))).
  assert (L2 := round_N_le_le_midp radix2 fmt64 even_tie dl_w0 (dl_x' + n) Fw (Req_le _ _ Hw)).
  rewrite Pw in L1. rewrite Sw in L2. unfold dl_w0, dl_x' in L1, L2. rewrite bpow_m53, bpow_m54 in L1, L2.
  destruct (float_multiple n 0 Fn) as [j Hj].
  { rewrite Rabs_left by lra. change (bpow radix2 (0 - 1)) with (/ 2). change (bpow radix2 0) with 1. lra. }
  { lia. }
  change (0 - 53)%Z with (-53)%Z in Hj. rewrite bpow_m53 in Hj. rewrite Hj in L1, L2.
  (* 2^55 (x′ + n − w₀) = 4(2251799813685247 + j) + 2·9007199254740991, of absolute value at most 1 *)
  assert (K1 : IZR (-1) <= IZR (4 * (2251799813685247 + j) + 2 * 9007199254740991)).
  { rewrite plus_IZR, !mult_IZR, plus_IZR. lra. }
  assert (K2 : IZR (4 * (2251799813685247 + j) + 2 * 9007199254740991) <= IZR 1).
  { rewrite plus_IZR, !mult_IZR, plus_IZR. lra. }
  apply le_IZR in K1. apply le_IZR in K2. lia.
Qed.

Lemma ulen_u0 : ulen dl_u0 dl_u0p = bpow radix2 (-54).
Proof.
  unfold dl_u0, dl_u0p. rewrite bpow_m54. rewrite ulen_inside.
  - field.
  - split; lra.
  - lra.
Qed.

(** ** diffprivlib's Snapping (ties to even, crlibm's log, U* as the sampler) is not ε-DP for any ε:
       the output 2^−54 has probability exactly 2^−55 from x = 0 and 0 from x′ = 1/4 − 2^−53 *)
Theorem diffprivlib_not_dp : forall pr, uprob pr ->
  dl_prob pr dl_lam 1 dl_B dl_x dl_o = bpow radix2 (-55) /\
  dl_prob pr dl_lam 1 dl_B dl_x' dl_o = 0 /\
  Rabs (dl_x - dl_x') <= 1 /\
  forall eps, ~ (dl_prob pr dl_lam 1 dl_B dl_x dl_o <= exp eps * dl_prob pr dl_lam 1 dl_B dl_x' dl_o).
Proof.
  intros pr Hpr.
  assert (P1 : pr (fun U => dl_out dl_lam 1 dl_B dl_x 1 U = dl_o) = bpow radix2 (-54)).
  { rewrite <- ulen_u0. apply (uprob_len pr Hpr). right. exists Ico, dl_u0, dl_u0p. split; [|reflexivity].
    intros U HU. apply dl_event_x. exact HU. }
  assert (P2 : pr (fun U => dl_out dl_lam 1 dl_B dl_x (-1) U = dl_o) = 0).
  { apply (uprob_len pr Hpr). apply umeasure_empty. intros U _ H. exact (dl_event_x_minus U H). }
  assert (Q : forall s, pr (fun U => dl_out dl_lam 1 dl_B dl_x' s U = dl_o) = 0).
  { intros s. apply (uprob_len pr Hpr). apply umeasure_empty. intros U _ H. exact (dl_event_x' s U H). }
  assert (E1 : dl_prob pr dl_lam 1 dl_B dl_x dl_o = bpow radix2 (-55)).
  { unfold dl_prob. rewrite P1, P2, bpow_m54, bpow_m55. field. }
  assert (E2 : dl_prob pr dl_lam 1 dl_B dl_x' dl_o = 0) by (unfold dl_prob; rewrite !Q; ring).
  split; [exact E1|]. split; [exact E2|]. split.
  - unfold dl_x, dl_x'. rewrite bpow_m53. rewrite Rabs_left by lra. lra.
  - intros eps H. rewrite E1, E2, Rmult_0_r in H. assert (B := bpow_gt_0 radix2 (-55)). lra.
Qed.
