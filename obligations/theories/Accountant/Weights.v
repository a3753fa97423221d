(** * The weights max(0, 1 − e^ε·b^(−z)) of a window of loss keys, in intervals

    hs(e^ε) of a PLD integrates max(0, 1 − e^ε·b^(−z)) over its keys [z] ([hs_weight]).
    e^ε and b^(±z) leave the binary64 range long before the keys of a 1000-fold
    composition do, so the weights are computed from c_z = exp(ε − z·ln b), which is
    moderate near the keys that matter: one interval exponential at a pivot key, then
    one interval product per key, by b^(−d) upwards ([cup]) and by b^d downwards
    ([cdown]); far from the pivot the intervals underflow to [0, tiny] (weight 1) or
    grow past 1 (weight 0), both correctly.  [iev2] integrates a window of float masses
    against the weights, [isum] totals it. *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts.
From Obligations.Finite Require Import PLD PLDCheck.
From Obligations.Accountant Require Import Below DownFloat.
Import ListNotations.

Local Open Scope R_scope.

Definition cz (b eps : R) (z : Z) : R := exp (eps - IZR z * ln b).

Lemma cz_weight (b eps : R) (z : Z) : 0 < b -> hs_weight b (exp eps) z = Rmax 0 (1 - cz b eps z).
Proof.
  intros Hb. unfold hs_weight, cz. rewrite <- exp_Zmult_ln by exact Hb.
  rewrite <- exp_plus, opp_IZR. do 3 f_equal. ring.
Qed.

Lemma cz_shift (b eps : R) (z s : Z) : 0 < b -> cz b eps (z + s) = cz b eps z * powerRZ b (- s).
Proof.
  intros Hb. unfold cz. rewrite <- exp_Zmult_ln by exact Hb. rewrite <- exp_plus, plus_IZR, opp_IZR.
  f_equal. ring.
Qed.

Definition zkeys (d o : Z) (n : nat) : list Z := map (fun i => (o + d * Z.of_nat i)%Z) (seq 0 n).

Lemma zkeys_S (d o : Z) (n : nat) : zkeys d o (S n) = o :: zkeys d (o + d) n.
Proof.
  unfold zkeys. cbn [seq map]. rewrite Z.mul_0_r, Z.add_0_r. f_equal.
  rewrite <- seq_shift, map_map. apply map_ext. intros i. rewrite Nat2Z.inj_succ. ring.
Qed.

(** [W] holds intervals for c_z at the keys [o, o + d, ...]. *)
Definition cs_ok (b eps : R) (d o : Z) (W : list I.type) : Prop :=
  Forall2 (fun c z => has c (cz b eps z)) W (zkeys d o (length W)).

Fixpoint cup (mI : I.type) (n : nat) (c : I.type) : list I.type :=
  match n with
  | O => []
  | S n' => c :: cup mI n' (I.mul prec c mI)
  end.

Fixpoint cdown (pI : I.type) (n : nat) (c : I.type) (acc : list I.type) : list I.type :=
  match n with
  | O => acc
  | S n' => let c' := I.mul prec c pI in cdown pI n' c' (c' :: acc)
  end.

Section Keys.
Variables (b eps : R) (d : Z) (mI pI : I.type).
Hypothesis Hb : 0 < b.
Hypothesis HmI : has mI (powerRZ b (- d)).
Hypothesis HpI : has pI (powerRZ b d).

Lemma cup_ok (n : nat) (c : I.type) (z : Z) : has c (cz b eps z) -> cs_ok b eps d z (cup mI n c).
Proof.
  revert c z. induction n as [|n IH]; intros c z Hc; unfold cs_ok; cbn [cup length].
  - constructor.
  - rewrite zkeys_S. constructor; [exact Hc|]. apply IH. rewrite cz_shift by exact Hb.
    apply mul_correct; assumption.
Qed.

Lemma cup_length (n : nat) (c : I.type) : length (cup mI n c) = n.
Proof. revert c. induction n; intros c; cbn; [reflexivity|]. rewrite IHn. reflexivity. Qed.

Lemma cdown_ok (n : nat) (c : I.type) (z : Z) (acc : list I.type) :
  has c (cz b eps z) -> cs_ok b eps d z acc -> cs_ok b eps d (z - d * Z.of_nat n) (cdown pI n c acc).
Proof.
  revert c z acc. induction n as [|n IH]; intros c z acc Hc Hacc; cbn [cdown].
  - rewrite Z.mul_0_r, Z.sub_0_r. exact Hacc.
  - replace (z - d * Z.of_nat (S n))%Z with ((z - d) - d * Z.of_nat n)%Z by lia.
    assert (Hc' : has (I.mul prec c pI) (cz b eps (z - d))).
    { replace (cz b eps (z - d)) with (cz b eps z * powerRZ b d).
      - apply mul_correct; assumption.
      - replace (z - d)%Z with (z + - d)%Z by ring. rewrite cz_shift by exact Hb. rewrite Z.opp_involutive. reflexivity. }
    apply IH; [exact Hc'|]. unfold cs_ok in *. cbn [length]. rewrite zkeys_S.
    replace (z - d + d)%Z with z by ring. constructor; assumption.
Qed.

Lemma cdown_length (n : nat) (c : I.type) (acc : list I.type) : length (cdown pI n c acc) = (n + length acc)%nat.
Proof. revert c acc. induction n; intros c acc; cbn; [reflexivity|]. rewrite IHn. cbn. lia. Qed.
End Keys.

(** The intervals for c_z at the [n] keys [o, o + d, ...], from one exponential at the
    window key nearest to [z0]. *)
Definition window_cs (eI lbI mI pI : I.type) (d o z0 : Z) (n : nat) : list I.type :=
  let i0 := Z.to_nat (Z.max 0 (Z.min ((z0 - o) / d) (Z.of_nat n - 1))) in
  let zp := (o + d * Z.of_nat i0)%Z in
  let cp := I.exp prec (I.sub prec eI (I.mul prec (I.fromZ prec zp) lbI)) in
  cdown pI i0 cp (cup mI (n - i0) cp).

Lemma window_cs_ok (b eps : R) (eI lbI mI pI : I.type) (d o z0 : Z) (n : nat) :
  0 < b -> has eI eps -> has lbI (ln b) -> has mI (powerRZ b (- d)) -> has pI (powerRZ b d) ->
  length (window_cs eI lbI mI pI d o z0 n) = n /\ cs_ok b eps d o (window_cs eI lbI mI pI d o z0 n).
Proof.
  intros Hb He Hl Hm Hp. unfold window_cs.
  set (i0 := Z.to_nat (Z.max 0 (Z.min ((z0 - o) / d) (Z.of_nat n - 1)))).
  assert (Hi0 : (i0 <= n)%nat) by (unfold i0; lia).
  set (zp := (o + d * Z.of_nat i0)%Z).
  assert (Hcp : has (I.exp prec (I.sub prec eI (I.mul prec (I.fromZ prec zp) lbI))) (cz b eps zp)).
  { unfold cz, has. apply (I.exp_correct prec _ (Xreal (eps - IZR zp * ln b))).
    apply sub_correct; [exact He|]. apply mul_correct; [exact (I.fromZ_correct prec zp)|exact Hl]. }
  split.
  - rewrite cdown_length, cup_length. lia.
  - assert (E : (zp - d * Z.of_nat i0)%Z = o) by (unfold zp; ring).
    pose proof (cdown_ok b eps d pI Hb Hp i0 _ zp _ Hcp (cup_ok b eps d mI Hb Hm (n - i0) _ _ Hcp)) as H.
    rewrite E in H. exact H.
Qed.

(** ** Integrals of a window of float masses *)

Lemma bnd_has (f : F.type) : fval f -> has (I.bnd f f) (F.toR f).
Proof.
  intros Hf. unfold has. cbn [I.bnd I.convert].
  rewrite (fval_valid_lb f Hf), F.valid_ub_correct, (fval_real f Hf). cbn.
  rewrite (fval_toX f Hf). cbn. lra.
Qed.

Definition iweight1 (c : I.type) : I.type := imax0 (I.sub prec (I.fromZ prec 1) c).

Fixpoint iev2 (L : list F.type) (W : list I.type) : I.type :=
  match L, W with
  | f :: L', c :: W' => I.add prec (I.mul prec (I.bnd f f) (iweight1 c)) (iev2 L' W')
  | _, _ => I.zero
  end.

Fixpoint isum (L : list F.type) : I.type :=
  match L with
  | f :: L' => I.add prec (I.bnd f f) (isum L')
  | [] => I.zero
  end.

Lemma iev2_correct (b eps : R) (d o : Z) (L : list F.type) (W : list I.type) :
  0 < b -> Forall fval L -> length W = length L -> cs_ok b eps d o W ->
  has (iev2 L W) (ev d o (toRs L) (hs_weight b (exp eps))).
Proof.
  intros Hb HL. revert o W. induction HL as [|f L Hf HL IH]; intros o W Hl HW; cbn [iev2 toRs map ev].
  - exact zero_correct.
  - destruct W as [|c W]; [discriminate|]. cbn [length] in Hl. unfold cs_ok in HW. cbn [length] in HW.
    rewrite zkeys_S in HW. inversion HW as [|? ? ? ? Hc HW']; subst.
    apply add_correct.
    + apply mul_correct; [apply bnd_has, Hf|]. rewrite cz_weight by exact Hb.
      apply imax0_correct, sub_correct; [exact (I.fromZ_correct prec 1)|exact Hc].
    + apply IH; [lia|]. exact HW'.
Qed.

Lemma isum_correct (d o : Z) (L : list F.type) :
  Forall fval L -> has (isum L) (ev d o (toRs L) (fun _ => 1)).
Proof.
  intros HL. revert o. induction HL as [|f L Hf HL IH]; intros o; cbn [isum toRs map ev].
  - exact zero_correct.
  - rewrite Rmult_1_r. apply add_correct; [apply bnd_has, Hf|apply IH].
Qed.

Lemma hs_weight_01 (b t : R) (z : Z) : 0 < b -> 0 <= t -> 0 <= hs_weight b t z <= 1.
Proof.
  intros Hb Ht. unfold hs_weight. assert (0 <= t * powerRZ b (- z)) by (apply Rmult_le_pos; [exact Ht|apply Rlt_le, powerRZ_lt, Hb]).
  unfold Rmax. destruct (Rle_dec 0 (1 - t * powerRZ b (- z))); lra.
Qed.
