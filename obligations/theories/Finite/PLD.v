(** * Privacy-loss distributions: the hockey-stick divergence of a k-fold composition

    For two rows [P = M(x)], [Q = M(x')] of a finite mechanism whose outputs all have
    a privacy loss that is a power of one base [b]: [P(y) = b^(z_y) · Q(y)] (or
    [P(y) = 0]), the hockey-stick divergence of the k-fold composition
    [fmech_power M k] at any [t ≥ 0],
    hs_k(t) = Σ_y max(0, P_k(y) − t · Q_k(y)),
    depends on the rows only through their privacy-loss distribution (PLD): the
    P-mass [B_j] of the outputs of loss key [oB + d·j] (a stride [d] skips keys that
    carry nothing).  [hs_power_pld] proves
    hs_k(t) = Σ_i D_k(i) · max(0, 1 − t · b^(−(k·oB + d·i))) where [D_k] is the k-th
    convolution power of [B] ([cpow]): a list of [k · (length B − 1) + 1] masses,
    where the product table has [n_out^k] rows.  [pr_le_hs] turns it into the
    event-level DP inequality. *)
From Coq Require Import List ZArith QArith Qpower Qreals Reals Lra Lia Psatz.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Compose BasicComposition.
Import ListNotations.

(** ** Dense masses over consecutive loss keys, generic in the number type *)
Section Dense.
Context {A : Type} (add mul : A -> A -> A) (zero : A).

(** Pointwise sum of two mass lists that start at the same key. *)
Fixpoint dadd (l1 l2 : list A) : list A :=
  match l1, l2 with
  | [], _ => l2
  | _, [] => l1
  | a :: l1', b :: l2' => add a b :: dadd l1' l2'
  end.

(** Convolution (polynomial product): keys add, masses multiply. *)
Fixpoint conv (B D : list A) : list A :=
  match B with
  | [] => []
  | b :: B' => dadd (map (mul b) D) (zero :: conv B' D)
  end.

(** The k-th convolution power of [B], starting from the unit [[one]]. *)
Fixpoint cpow (B : list A) (one : A) (k : nat) : list A :=
  match k with
  | O => [one]
  | S k' => conv B (cpow B one k')
  end.
End Dense.

Local Open Scope R_scope.

(** [ev d o D h] = Σ_i D(i) · h(o + d·i): the masses [D] at keys [o, o + d, o + 2d, ...]
    integrated against [h] (a stride [d] > 1 leaves out keys that carry no mass). *)
Fixpoint ev (d o : Z) (D : list R) (h : Z -> R) : R :=
  match D with
  | [] => 0
  | a :: D' => a * h o + ev d (o + d)%Z D' h
  end.

Lemma ev_dadd (d o : Z) (D1 D2 : list R) (h : Z -> R) :
  ev d o (dadd Rplus D1 D2) h = ev d o D1 h + ev d o D2 h.
Proof.
  revert o D2. induction D1 as [|a D1 IH]; intros o [|b D2]; cbn [dadd ev]; try ring.
  rewrite IH. ring.
Qed.

Lemma ev_scale (d o : Z) (c : R) (D : list R) (h : Z -> R) :
  ev d o (map (Rmult c) D) h = c * ev d o D h.
Proof. revert o. induction D as [|a D IH]; intros o; cbn [map ev]; [ring|]. rewrite IH. ring. Qed.

Lemma ev_shift (d o s : Z) (D : list R) (h : Z -> R) :
  ev d o D (fun z => h (s + z)%Z) = ev d (s + o) D h.
Proof.
  revert o. induction D as [|a D IH]; intros o; cbn [ev]; [reflexivity|].
  rewrite IH. replace (s + (o + d))%Z with (s + o + d)%Z by ring. reflexivity.
Qed.

Lemma ev_ext (d o : Z) (D : list R) (h1 h2 : Z -> R) :
  (forall z, h1 z = h2 z) -> ev d o D h1 = ev d o D h2.
Proof. intros H. revert o. induction D as [|a D IH]; intros o; cbn [ev]; [reflexivity|]. rewrite H, IH. reflexivity. Qed.

(** Integrating the convolution is integrating one factor against the other. *)
Lemma ev_conv (d oB oD : Z) (B D : list R) (h : Z -> R) :
  ev d (oB + oD) (conv Rplus Rmult 0 B D) h = ev d oB B (fun z1 => ev d oD D (fun z2 => h (z1 + z2)%Z)).
Proof.
  revert oB. induction B as [|b B IH]; intros oB; cbn [conv ev]; [reflexivity|].
  rewrite ev_dadd, ev_scale. cbn [ev].
  replace (oB + oD + d)%Z with (oB + d + oD)%Z by ring. rewrite IH, ev_shift. ring.
Qed.

(** ** The hockey-stick divergence of two rows and its PLD form *)

(** max(0, 1 − t·b^(−z)): what one unit of P-mass at loss key [z] adds to hs(t). *)
Definition hs_weight (b : R) (t : R) (z : Z) : R := Rmax 0 (1 - t * powerRZ b (- z)).

Lemma rmax0_scale (c a : R) : 0 <= c -> Rmax 0 (c * a) = c * Rmax 0 a.
Proof.
  intros Hc. unfold Rmax. destruct (Rle_dec 0 (c * a)), (Rle_dec 0 a); try ring.
  - destruct (Req_dec c 0) as [->|Hc0]; [ring|]. exfalso. assert (a < 0) by lra.
    assert (0 < c) by lra. nra.
  - exfalso. apply n. apply Rmult_le_pos; lra.
Qed.

(** hs(t) of the rows [x], [x'] of [M]. *)
Definition hs (M : fmech) (x x' : nat) (t : R) : R :=
  rsum (map (fun y => Rmax 0 (prob M x y - t * prob M x' y)) (seq 0 (n_out M))).

(** Every event: Pr[M(x) ∈ S] ≤ t · Pr[M(x') ∈ S] + hs(t). *)
Lemma pr_le_hs (M : fmech) (x x' : nat) (t : R) (S : event) :
  (forall y, (y < n_out M)%nat -> 0 <= prob M x' y) -> 0 <= t ->
  pr M x S <= t * pr M x' S + hs M x x' t.
Proof.
  intros Hq Ht. unfold pr, hs. rewrite <- rsum_scal, <- rsum_plus. apply rsum_le.
  intros y Hy. apply in_seq in Hy as [_ Hy]. pose proof (Hq y Hy).
  destruct (S y); [pose proof (Rmax_r 0 (prob M x y - t * prob M x' y)); lra|].
  pose proof (Rmax_l 0 (prob M x y - t * prob M x' y)). lra.
Qed.

(** The hockey-stick event reaches hs(t): Pr[M(x) ∈ S⁺] = t · Pr[M(x') ∈ S⁺] + hs(t). *)
Definition loss_event (M : fmech) (x x' : nat) (t : R) : event :=
  fun y => if Rlt_dec (t * prob M x' y) (prob M x y) then true else false.

Lemma pr_loss_event (M : fmech) (x x' : nat) (t : R) :
  pr M x (loss_event M x x' t) = t * pr M x' (loss_event M x x' t) + hs M x x' t.
Proof.
  unfold pr, hs. rewrite <- rsum_scal, <- rsum_plus. apply rsum_ext_in. intros y _.
  unfold loss_event. destruct (Rlt_dec (t * prob M x' y) (prob M x y)).
  - rewrite Rmax_right by lra. ring.
  - rewrite Rmax_left by lra. ring.
Qed.

(** Output [y] of the pair has loss key [z]: P(y) = 0 or P(y) = b^z · Q(y). *)
Definition keyed (b p q : Q) (z : Z) : Prop := (p == 0 \/ p == b ^ z * q)%Q.

Section Power.
Variables (M : fmech) (x x' : nat) (b : Q) (keys : list Z) (oB d : Z) (B : list Q).
Hypothesis Hwf : fmech_wf M.
Hypothesis Hsub : subdistr M.
Hypothesis Hx : (x < n_in M)%nat.
Hypothesis Hx' : (x' < n_in M)%nat.
Hypothesis Hb : (0 < b)%Q.
Hypothesis Hkeys : forall y, (y < n_out M)%nat -> keyed b (entry M x y) (entry M x' y) (nth y keys 0%Z).
(** [B] is the PLD of the pair: Σ_y P(y) · F(z_y) = Σ_j B_j · F(oB + d·j) for every F. *)
Hypothesis HB : forall F : Z -> R,
  rsum (map (fun y => prob M x y * F (nth y keys 0%Z)) (seq 0 (n_out M))) = ev d oB (map Q2R B) F.

Definition pld_power (k : nat) : list R := cpow Rplus Rmult 0 (map Q2R B) 1 k.

Lemma power_wf (k : nat) : fmech_wf (fmech_power M k).
Proof.
  destruct (fmech_power_wf M k Hwf) as [H1 H2]. destruct (fmech_power_dims M k) as [D1 D2].
  split; [rewrite H1, D1; reflexivity|rewrite D2; exact H2].
Qed.

Lemma power_nonneg (k : nat) (z : nat) (y : nat) :
  (z < n_in M)%nat -> (y < n_out (fmech_power M k))%nat -> 0 <= prob (fmech_power M k) z y.
Proof.
  intros Hz Hy. destruct (fmech_power_dims M k) as [D1 _].
  destruct (dp_power_basic (fun _ _ => false) M 0 0 k Hwf Hsub (Rle_refl 0)) as [_ Hs].
  { intros a a' _ _ Hf. discriminate. }
  apply (proj1 (Hs z ltac:(rewrite D1; exact Hz))), Hy.
Qed.

Lemma bR_pos : 0 < Q2R b.
Proof. rewrite <- q2r_0. apply Qlt_Rlt, Hb. Qed.

Lemma q2r_qpower (z : Z) : Q2R (b ^ z) = powerRZ (Q2R b) z.
Proof.
  assert (Hb0 : ~ b == 0) by (intros E; rewrite E in Hb; discriminate).
  destruct z as [|p|p].
  - apply q2r_1.
  - change (powerRZ (Q2R b) (Zpos p)) with (Q2R b ^ Pos.to_nat p).
    rewrite <- q2r_qpower_nat, positive_nat_Z by exact Hb0. reflexivity.
  - change (b ^ Zneg p)%Q with (/ b ^ Zpos p)%Q.
    change (powerRZ (Q2R b) (Zneg p)) with (/ (Q2R b ^ Pos.to_nat p)).
    rewrite Q2R_inv by (apply (Qpower_not_0 b (Zpos p)); exact Hb0).
    rewrite <- q2r_qpower_nat, positive_nat_Z by exact Hb0. reflexivity.
Qed.

(** One output [y1] of the first run against the rest: max(0, p1·P − t·q1·Q)
    = p1 · max(0, P − t·b^(−z)·Q). *)
Lemma row_term (y1 : nat) (P Qv t : R) :
  (y1 < n_out M)%nat -> 0 <= Qv -> 0 <= t ->
  Rmax 0 (prob M x y1 * P - t * (prob M x' y1 * Qv)) =
  prob M x y1 * Rmax 0 (P - t * powerRZ (Q2R b) (- nth y1 keys 0%Z) * Qv).
Proof.
  intros Hy HQ Ht. assert (Hq1 : 0 <= prob M x' y1) by (apply (proj1 (Hsub x' Hx')), Hy).
  assert (Hp1 : 0 <= prob M x y1) by (apply (proj1 (Hsub x Hx)), Hy).
  destruct (Hkeys y1 Hy) as [E|E]; unfold prob in *; rewrite (Qeq_eqR _ _ E) in *.
  - rewrite q2r_0, Rmult_0_l, Rmax_left; [ring|]. rewrite Rminus_0_l.
    apply Ropp_le_cancel. rewrite Ropp_involutive, Ropp_0. apply Rmult_le_pos; [lra|apply Rmult_le_pos; lra].
  - rewrite Q2R_mult, q2r_qpower in *. set (w := powerRZ (Q2R b) (nth y1 keys 0%Z)) in *.
    assert (Hw : 0 < w) by (apply powerRZ_lt, bR_pos).
    rewrite powerRZ_neg' by (apply Rgt_not_eq, bR_pos). fold w.
    replace (w * Q2R (entry M x' y1) * P - t * (Q2R (entry M x' y1) * Qv))
      with (w * Q2R (entry M x' y1) * (P - t * / w * Qv)) by (field; lra).
    apply rmax0_scale. exact Hp1.
Qed.

Theorem hs_power_pld (k : nat) (t : R) :
  0 <= t ->
  hs (fmech_power M k) x x' t = ev d (Z.of_nat k * oB) (pld_power k) (hs_weight (Q2R b) t).
Proof.
  revert t. induction k as [|k IH]; intros t Ht.
  - unfold hs, pld_power, prob, entry. cbn - [Q2R Rmax].
    rewrite !nth_repeat_lt by assumption. cbn [nth]. rewrite q2r_1.
    unfold hs_weight. cbn [powerRZ Z.opp]. rewrite !Rmult_1_r, Rmult_1_l. reflexivity.
  - destruct (fmech_power_dims M k) as [D1 D2].
    unfold hs. cbn [fmech_power]. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
    transitivity (rsum (map (fun y1 => prob M x y1 *
        ev d (Z.of_nat k * oB) (pld_power k)
          (fun z2 => hs_weight (Q2R b) t (nth y1 keys 0%Z + z2)%Z)) (seq 0 (n_out M)))).
    + apply rsum_ext_in. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
      transitivity (prob M x y1 * hs (fmech_power M k) x x' (t * powerRZ (Q2R b) (- nth y1 keys 0%Z))).
      * unfold hs. rewrite <- rsum_scal. apply rsum_ext_in. intros y2 Hy2. apply in_seq in Hy2 as [_ Hy2].
        unfold prob at 1 2. rewrite !fmech_product_entry by (try apply power_wf; try assumption; lia).
        rewrite !Q2R_mult. apply row_term; [exact Hy1| |exact Ht]. apply power_nonneg; lia.
      * f_equal. rewrite IH.
        2:{ apply Rmult_le_pos; [exact Ht|]. apply Rlt_le, powerRZ_lt, bR_pos. }
        apply ev_ext. intros z2. unfold hs_weight. f_equal. f_equal.
        rewrite Rmult_assoc, <- powerRZ_add by (apply Rgt_not_eq, bR_pos). do 3 f_equal. ring.
    + rewrite (HB (fun z1 => ev d (Z.of_nat k * oB) (pld_power k) (fun z2 => hs_weight (Q2R b) t (z1 + z2)%Z))).
      rewrite <- ev_conv. unfold pld_power. cbn [cpow]. f_equal. lia.
Qed.

End Power.
