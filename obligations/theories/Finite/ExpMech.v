(** * The exponential mechanism, for every score table and every coefficient c ≥ 0

    On input x, output y with probability e^(c·s(x, y)) / Σ_y' e^(c·s(x, y')) for a
    finite table of rational scores s (DP libraries take c = ε/(2Δ)).  [expmech c n m s]
    is that table of reals, never computed.
    - [expmech_rdp]: if the scores have sensitivity Δ for the neighbours
      (|s(x, y) − s(x', y)| ≤ Δ, [sensitive]), the mechanism is (2·c·Δ, 0)-DP: the
      weight of y grows by at most e^(cΔ) and the normaliser shrinks by at most e^(cΔ);
    - [check_sensitivity]: the boolean check of [sensitive] a generated file runs on its
      scores by computation ([check_sensitivity_sound]);
    - [expmech_rdistr]: every row is a distribution (m ≥ 1). *)
From Coq Require Import List Arith Bool ZArith QArith Qreals Reals Lra Lia Field.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours RealTable.
Import ListNotations.

Definition expmech_weight (c : R) (s : list (list Q)) (x y : nat) : R := exp (c * Q2R (qentry s x y)).

Definition expmech_norm (c : R) (m : nat) (s : list (list Q)) (x : nat) : R :=
  rsum (map (expmech_weight c s x) (seq 0 m)).

Definition expmech_pmf (c : R) (m : nat) (s : list (list Q)) (x y : nat) : R :=
  (expmech_weight c s x y / expmech_norm c m s x)%R.

Definition expmech (c : R) (n m : nat) (s : list (list Q)) : rmech :=
  RMech n m (map (fun x => map (expmech_pmf c m s x) (seq 0 m)) (seq 0 n)).

(** The scores have sensitivity Δ for the neighbours [nb]: |s(x, y) − s(x', y)| ≤ Δ. *)
Definition sensitive (nb : nat -> nat -> bool) (n m : nat) (s : list (list Q)) (D : Q) : Prop :=
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> (y < m)%nat ->
    (qentry s x y - qentry s x' y <= D)%Q /\ (qentry s x' y - qentry s x y <= D)%Q.

Definition check_sensitivity (nb : nat -> nat -> bool) (n m : nat) (s : list (list Q)) (D : Q) : bool :=
  forallb (fun x => forallb (fun x' => implb (nb x x')
    (forallb (fun y => Qle_bool (qentry s x y - qentry s x' y) D && Qle_bool (qentry s x' y - qentry s x y) D)
       (seq 0 m))) (seq 0 n)) (seq 0 n).

Lemma check_sensitivity_sound nb n m s D :
  check_sensitivity nb n m s D = true -> sensitive nb n m s D.
Proof.
  intros H x x' y Hx Hx' Hnb Hy. unfold check_sensitivity in H.
  rewrite forallb_forall in H. specialize (H x (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx))).
  rewrite forallb_forall in H. specialize (H x' (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx'))).
  rewrite Hnb in H. cbn [implb] in H.
  rewrite forallb_forall in H. specialize (H y (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hy))).
  apply andb_prop in H as [H1 H2]. split; apply Qle_bool_imp_le; assumption.
Qed.

Section ExpMech.
Local Open Scope R_scope.

Lemma expmech_entry (c : R) (n m : nat) (s : list (list Q)) (x y : nat) :
  (x < n)%nat -> (y < m)%nat -> rentry (expmech c n m s) x y = expmech_pmf c m s x y.
Proof.
  intros Hx Hy. unfold rentry, expmech. cbn [rrows].
  rewrite (nth_map_seq (fun x => map (expmech_pmf c m s x) (seq 0 m))) by exact Hx.
  apply nth_map_seq, Hy.
Qed.

Lemma rsum_pos_seq (f : nat -> R) (m : nat) :
  (1 <= m)%nat -> (forall y, 0 < f y) -> 0 < rsum (map f (seq 0 m)).
Proof.
  intros Hm Hf. destruct m as [|m]; [lia|]. cbn [seq map]. rewrite rsum_cons.
  pose proof (Hf 0%nat). pose proof (rsum_nonneg f (seq 1 m) (fun y _ => Rlt_le _ _ (Hf y))). lra.
Qed.

Lemma expmech_norm_pos (c : R) (m : nat) (s : list (list Q)) (x : nat) :
  (1 <= m)%nat -> 0 < expmech_norm c m s x.
Proof. intros Hm. apply rsum_pos_seq; [exact Hm|]. intros y. apply exp_pos. Qed.

(** One step of the scores: e^(c·s(x, y)) ≤ e^(cΔ)·e^(c·s(x', y)). *)
Lemma expmech_weight_step (c : R) (s : list (list Q)) (D : Q) (x x' y : nat) :
  0 <= c -> (qentry s x y - qentry s x' y <= D)%Q ->
  expmech_weight c s x y <= exp (c * Q2R D) * expmech_weight c s x' y.
Proof.
  intros Hc HD. unfold expmech_weight. rewrite <- exp_plus. apply exp_le_iff.
  apply Qle_Rle in HD. rewrite Q2R_minus in HD.
  assert (c * (Q2R (qentry s x y) - Q2R (qentry s x' y)) <= c * Q2R D) by (apply Rmult_le_compat_l; assumption).
  lra.
Qed.

(** ** (2·c·Δ, 0)-DP for scores of sensitivity Δ *)
Theorem expmech_rdp_le (nb : nat -> nat -> bool) (c : R) (n m : nat) (s : list (list Q)) (D : Q) (eps : R) :
  0 <= c -> (1 <= m)%nat -> sensitive nb n m s D -> 2 * c * Q2R D <= eps ->
  rdp nb (expmech c n m s) eps 0.
Proof.
  intros Hc Hm Hs Heps. apply rdp_of_pointwise.
  intros x x' y Hx Hx' Hnb Hy. cbn [expmech rn_in rn_out] in Hx, Hx', Hy.
  rewrite !expmech_entry by assumption. unfold expmech_pmf.
  pose proof (expmech_norm_pos c m s x Hm) as Zx. pose proof (expmech_norm_pos c m s x' Hm) as Zx'.
  set (e := exp (c * Q2R D)).
  assert (He : 0 < e) by apply exp_pos.
  assert (Hw : expmech_weight c s x y <= e * expmech_weight c s x' y)
    by (apply expmech_weight_step; [exact Hc|exact (proj1 (Hs x x' y Hx Hx' Hnb Hy))]).
  (* The normaliser of x' is at most e^(cΔ) times that of x, term by term. *)
  assert (HZ : expmech_norm c m s x' <= e * expmech_norm c m s x).
  { unfold expmech_norm. rewrite <- rsum_scal. apply rsum_le. intros y' Hy'. apply in_seq in Hy'.
    apply expmech_weight_step; [exact Hc|]. apply (Hs x x' y'); [exact Hx|exact Hx'|exact Hnb|lia]. }
  split.
  - apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|exact Zx'].
  - assert (Hee : e * e <= exp eps) by (unfold e; rewrite <- exp_plus; apply exp_le_iff; lra).
    apply Rle_trans with (e * e * (expmech_weight c s x' y / expmech_norm c m s x')).
    2: { apply Rmult_le_compat_r; [|exact Hee].
         apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|exact Zx']. }
    set (wx := expmech_weight c s x y) in *. set (wx' := expmech_weight c s x' y) in *.
    set (Z := expmech_norm c m s x) in *. set (Z' := expmech_norm c m s x') in *.
    assert (Hw' : 0 <= wx') by (apply Rlt_le, exp_pos).
    assert (Hinv : / Z <= e * / Z').
    { apply (Rmult_le_reg_r (Z * Z')); [nra|].
      replace (/ Z * (Z * Z')) with Z' by (field; lra).
      replace (e * / Z' * (Z * Z')) with (e * Z) by (field; lra). exact HZ. }
    unfold Rdiv. apply Rle_trans with (e * wx' * / Z).
    + apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Zx|exact Hw].
    + replace (e * e * (wx' * / Z')) with (e * wx' * (e * / Z')) by ring.
      apply Rmult_le_compat_l; [nra|exact Hinv].
Qed.

Theorem expmech_rdp (nb : nat -> nat -> bool) (c : R) (n m : nat) (s : list (list Q)) (D : Q) :
  0 <= c -> (1 <= m)%nat -> sensitive nb n m s D -> rdp nb (expmech c n m s) (2 * c * Q2R D) 0.
Proof. intros Hc Hm Hs. apply (expmech_rdp_le _ _ _ _ _ D); [exact Hc|exact Hm|exact Hs|apply Rle_refl]. Qed.

(** ** Every row is a distribution: Σ_y e^(c·s(x, y)) / Z(x) = Z(x) / Z(x) *)
Theorem expmech_rdistr (c : R) (n m : nat) (s : list (list Q)) : (1 <= m)%nat -> rdistr (expmech c n m s).
Proof.
  intros Hm x Hx. cbn [expmech rn_in rn_out] in *.
  pose proof (expmech_norm_pos c m s x Hm) as HZ. split.
  - intros y Hy. rewrite expmech_entry by assumption.
    apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|exact HZ].
  - unfold rpr, everything. cbn [rn_out expmech].
    rewrite (rsum_ext_in _ (fun y => / expmech_norm c m s x * expmech_weight c s x y)).
    + rewrite rsum_scal. fold (expmech_norm c m s x). field. lra.
    + intros y Hy. apply in_seq in Hy. rewrite expmech_entry by lia. unfold expmech_pmf, Rdiv. ring.
Qed.

End ExpMech.
