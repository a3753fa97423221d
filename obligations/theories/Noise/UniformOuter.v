(** * The uniform law of (0,1] on every set: Lebesgue outer measure

    [umeasure] (UniformMeasure.v) gives an interval its length.  A coupling of
    the noise, or an event made of infinitely many outputs, needs the
    probability of any set of [u].  [uouter P] is the Lebesgue outer measure of
    [P ∩ (0,1]]: the greatest lower bound of the total lengths of the countable
    families of closed intervals that cover it.  It is defined for every set,
    with values in [0, 1].  Proved here:

    - it gives an interval its clipped length ([uouter_umeasure]; the lower
      bound is Heine–Borel, [heine_borel_seq], and the finite case,
      [finite_cover_len]), so [uouter (fun _ => True) = 1];
    - it is monotone ([uouter_mono]), subadditive ([uouter_union]), a point
      has outer measure 0 ([uouter_point]), and a cut splits it exactly
      ([uouter_cut]);
    - a map that is monotone and [L]-Lipschitz on an interval moves the outer
      measure of a set by at most the factor [L] ([uouter_image]).

    That it is countably additive on the Lebesgue-measurable sets
    (Carathéodory's theorem) is not formalised: the statements built on it
    hold for every set, the measurable ones included. *)
From Coq Require Import Reals Lra Lia List Classical.
From Obligations.Core Require Import Sums.
From Obligations.Noise Require Import UniformMeasure.
Import ListNotations.
Local Open Scope R_scope.

(** ** Lengths and partial sums *)

(** Length of the closed interval [a, b] (0 when it is empty). *)
Definition ilen (a b : R) : R := Rmax 0 (b - a).

(** [f 0 + ... + f (N - 1)]. *)
Definition psum (f : nat -> R) (N : nat) : R := rsum (map f (seq 0 N)).

Lemma ilen_nonneg a b : 0 <= ilen a b.
Proof. unfold ilen. apply Rmax_l. Qed.

Lemma psum_zero f : psum f 0 = 0.
Proof. reflexivity. Qed.

Lemma psum_succ f N : psum f (S N) = psum f N + f N.
Proof.
  unfold psum. rewrite seq_S, map_app, rsum_app. cbn [map Nat.add]. rewrite rsum_cons, rsum_nil. ring.
Qed.

Lemma psum_nonneg f N : (forall n, 0 <= f n) -> 0 <= psum f N.
Proof.
  intros Hf. induction N as [|N IH]; [rewrite !psum_zero; lra|].
  rewrite psum_succ. pose proof (Hf N). lra.
Qed.

Lemma psum_mono f N M : (forall n, 0 <= f n) -> (N <= M)%nat -> psum f N <= psum f M.
Proof.
  intros Hf HNM. induction HNM as [|M HNM IH]; [lra|].
  rewrite psum_succ. pose proof (Hf M). lra.
Qed.

Lemma psum_le f g N : (forall n, f n <= g n) -> psum f N <= psum g N.
Proof.
  intros Hfg. induction N as [|N IH]; [rewrite !psum_zero; lra|].
  rewrite !psum_succ. pose proof (Hfg N). lra.
Qed.

Lemma psum_ext f g N : (forall n, f n = g n) -> psum f N = psum g N.
Proof. intros H. unfold psum. f_equal. apply map_ext. exact H. Qed.

Lemma psum_plus f g N : psum (fun n => f n + g n) N = psum f N + psum g N.
Proof. induction N as [|N IH]; [rewrite !psum_zero; cbn [pow]; ring|]. rewrite !psum_succ, IH. ring. Qed.

Lemma psum_scal c f N : psum (fun n => c * f n) N = c * psum f N.
Proof. induction N as [|N IH]; [rewrite !psum_zero; cbn [pow]; ring|]. rewrite !psum_succ, IH. ring. Qed.

(** [1/2 + 1/4 + ... + 1/2^N = 1 - 1/2^N]. *)
Lemma psum_half_pow_eq N : psum (fun n => (/ 2) ^ S n) N = 1 - (/ 2) ^ N.
Proof.
  induction N as [|N IH]; [rewrite psum_zero; cbn [pow]; ring|].
  rewrite psum_succ, IH. cbn [pow]. field.
Qed.

Lemma psum_half_pow N : psum (fun n => (/ 2) ^ S n) N <= 1.
Proof. rewrite psum_half_pow_eq. pose proof (pow_lt (/ 2) N ltac:(lra)). lra. Qed.

(** Two sequences, one at the even indices, the other at the odd ones. *)
Definition interleave (f g : nat -> R) (n : nat) : R :=
  if Nat.even n then f (Nat.div2 n) else g (Nat.div2 n).

Lemma interleave_even f g n : interleave f g (2 * n) = f n.
Proof.
  unfold interleave. replace (Nat.even (2 * n)) with true.
  - rewrite Nat.div2_double. reflexivity.
  - symmetry. apply Nat.even_spec. exists n. reflexivity.
Qed.

Lemma interleave_odd f g n : interleave f g (S (2 * n)) = g n.
Proof.
  unfold interleave. rewrite Nat.even_succ. replace (Nat.odd (2 * n)) with false.
  - rewrite Nat.div2_succ_double. reflexivity.
  - symmetry. apply Bool.not_true_iff_false. rewrite Nat.odd_spec. intros [m Hm]. lia.
Qed.

Lemma psum_interleave f g N : psum (interleave f g) (2 * N) = psum f N + psum g N.
Proof.
  induction N as [|N IH]; [rewrite !psum_zero; cbn [pow]; ring|].
  replace (2 * S N)%nat with (S (S (2 * N))) by lia.
  rewrite !psum_succ, IH, interleave_even, interleave_odd. ring.
Qed.

(** If the partial sums of [f] and [g] add up to at most [s], then [s] splits
    into a bound for each. *)
Lemma psum_split_bound f g s :
  (forall n, 0 <= f n) -> (forall n, 0 <= g n) -> (forall N, psum f N + psum g N <= s) ->
  exists s1, (forall N, psum f N <= s1) /\ (forall N, psum g N <= s - s1).
Proof.
  intros Hf Hg Hs.
  assert (Hb : bound (fun x => exists N, x = psum f N)).
  { exists s. intros x [N ->]. pose proof (Hs N). pose proof (psum_nonneg g N Hg). lra. }
  destruct (completeness _ Hb (ex_intro _ (psum f 0) (ex_intro _ 0%nat eq_refl))) as [m [Hub Hlub]].
  exists m. split.
  - intros N. apply Hub. exists N. reflexivity.
  - intros N. assert (m <= s - psum g N); [|lra].
    apply Hlub. intros x [M ->].
    pose proof (Hs (max N M)).
    pose proof (psum_mono f M (max N M) Hf (Nat.le_max_r N M)).
    pose proof (psum_mono g N (max N M) Hg (Nat.le_max_l N M)). lra.
Qed.

(** [x <= y] from [x <= y + η] for every [η > 0]. *)
Lemma le_of_eps x y : (forall eta, 0 < eta -> x <= y + eta) -> x <= y.
Proof.
  intros H. destruct (Rle_or_lt x y) as [Hle|Hlt]; [exact Hle|].
  specialize (H ((x - y) / 2) ltac:(lra)). lra.
Qed.

(** ** Covers and the outer measure *)

(** The closed intervals [[a n, b n]] cover [P]. *)
Definition covers (P : R -> Prop) (a b : nat -> R) : Prop :=
  forall u, P u -> exists n, a n <= u <= b n.

(** Their total length is at most [s]. *)
Definition cost_le (a b : nat -> R) (s : R) : Prop :=
  forall N, psum (fun n => ilen (a n) (b n)) N <= s.

(** [P ∩ (0,1]] has a cover of total length at most [s]. *)
Definition cover_cost (P : R -> Prop) (s : R) : Prop :=
  exists a b, covers (fun u => 0 < u <= 1 /\ P u) a b /\ cost_le a b s.

Lemma cover_cost_nonneg (P : R -> Prop) s : cover_cost P s -> 0 <= s.
Proof. intros (a & b & _ & Hs). specialize (Hs 0%nat). unfold psum in Hs. cbn in Hs. lra. Qed.

(** One interval [[lo, hi]], the others empty. *)
Definition one_end (x : R) (n : nat) : R := match n with O => x | S _ => 0 end.

Lemma cover_cost_one (P : R -> Prop) lo hi :
  (forall u, 0 < u <= 1 -> P u -> lo <= u <= hi) -> cover_cost P (ilen lo hi).
Proof.
  intros H. exists (one_end lo), (one_end hi). split.
  - intros u [Hu HP]. exists 0%nat. exact (H u Hu HP).
  - intros N. destruct N as [|N]; [unfold psum; cbn; apply ilen_nonneg|].
    rewrite (psum_ext _ (fun n => match n with O => ilen lo hi | S _ => 0 end)).
    + clear H. induction N as [|N IH].
      * unfold psum. cbn. lra.
      * rewrite psum_succ. lra.
    + intros [|n]; cbn; [reflexivity|]. unfold ilen. rewrite Rminus_0_r, Rmax_left; lra.
Qed.

Lemma cover_cost_inhabited (P : R -> Prop) : exists x, (fun x => cover_cost P (- x)) x.
Proof.
  exists (- ilen 0 1). rewrite Ropp_involutive. apply cover_cost_one. intros u Hu _. lra.
Qed.

Lemma cover_cost_bound (P : R -> Prop) : bound (fun x => cover_cost P (- x)).
Proof. exists 0. intros x Hx. pose proof (cover_cost_nonneg P _ Hx). lra. Qed.

(** The outer measure of [P ∩ (0,1]]. *)
Definition uouter (P : R -> Prop) : R :=
  - proj1_sig (completeness _ (cover_cost_bound P) (cover_cost_inhabited P)).

Lemma uouter_lub (P : R -> Prop) : is_lub (fun x => cover_cost P (- x)) (- uouter P).
Proof.
  unfold uouter. rewrite Ropp_involutive. destruct completeness as [m Hm]. exact Hm.
Qed.

Lemma uouter_le_cost (P : R -> Prop) s : cover_cost P s -> uouter P <= s.
Proof.
  intros H. destruct (uouter_lub P) as [Hub _].
  assert (- s <= - uouter P); [|lra]. apply Hub. rewrite Ropp_involutive. exact H.
Qed.

Lemma uouter_ge_cost (P : R -> Prop) m : (forall s, cover_cost P s -> m <= s) -> m <= uouter P.
Proof.
  intros H. destruct (uouter_lub P) as [_ Hlub].
  assert (- uouter P <= - m); [|lra]. apply Hlub. intros x Hx. pose proof (H _ Hx). lra.
Qed.

(** Covers of total length arbitrarily close to the outer measure. *)
Lemma uouter_approx (P : R -> Prop) eta : 0 < eta -> exists s, cover_cost P s /\ s < uouter P + eta.
Proof.
  intros He. destruct (classic (exists s, cover_cost P s /\ s < uouter P + eta)) as [H|H]; [exact H|].
  exfalso. assert (uouter P + eta <= uouter P); [|lra].
  apply uouter_ge_cost. intros s Hs. destruct (Rlt_or_le s (uouter P + eta)) as [Hlt|Hle]; [|exact Hle].
  exfalso. apply H. exists s. split; assumption.
Qed.

Lemma uouter_nonneg (P : R -> Prop) : 0 <= uouter P.
Proof. apply uouter_ge_cost. apply cover_cost_nonneg. Qed.

Lemma uouter_le_1 (P : R -> Prop) : uouter P <= 1.
Proof.
  replace 1 with (ilen 0 1) by (unfold ilen; rewrite Rmax_right; lra).
  apply uouter_le_cost, cover_cost_one. intros u Hu _. lra.
Qed.

Lemma uouter_mono (P Q : R -> Prop) :
  (forall u, 0 < u <= 1 -> P u -> Q u) -> uouter P <= uouter Q.
Proof.
  intros HPQ. apply uouter_ge_cost. intros s (a & b & Hc & Hs). apply uouter_le_cost.
  exists a, b. split; [|exact Hs]. intros u [Hu HP]. apply Hc. split; [exact Hu|]. exact (HPQ u Hu HP).
Qed.

Lemma uouter_ext (P Q : R -> Prop) :
  (forall u, 0 < u <= 1 -> (P u <-> Q u)) -> uouter P = uouter Q.
Proof.
  intros H. apply Rle_antisym; apply uouter_mono; intros u Hu; apply H, Hu.
Qed.

(** A set that misses (0,1] has outer measure 0. *)
Lemma uouter_null (P : R -> Prop) : (forall u, 0 < u <= 1 -> ~ P u) -> uouter P = 0.
Proof.
  intros H. apply Rle_antisym; [|apply uouter_nonneg].
  replace 0 with (ilen 0 0) by (unfold ilen; rewrite Rminus_0_r, Rmax_left; lra).
  apply uouter_le_cost, cover_cost_one. intros u Hu HP. exfalso. exact (H u Hu HP).
Qed.

Lemma uouter_point p : uouter (fun u => u = p) = 0.
Proof.
  apply Rle_antisym; [|apply uouter_nonneg].
  replace 0 with (ilen p p) by (unfold ilen; rewrite Rminus_diag_eq, Rmax_left; lra).
  apply uouter_le_cost, cover_cost_one. intros u _ ->. lra.
Qed.

(** ** Subadditivity and cuts *)

Lemma uouter_union (P Q1 Q2 : R -> Prop) :
  (forall u, 0 < u <= 1 -> P u -> Q1 u \/ Q2 u) -> uouter P <= uouter Q1 + uouter Q2.
Proof.
  intros HP. apply le_of_eps. intros eta He.
  destruct (uouter_approx Q1 (eta / 2) ltac:(lra)) as (s1 & (a1 & b1 & C1 & S1) & H1).
  destruct (uouter_approx Q2 (eta / 2) ltac:(lra)) as (s2 & (a2 & b2 & C2 & S2) & H2).
  apply Rle_trans with (s1 + s2); [|lra].
  apply uouter_le_cost. exists (interleave a1 a2), (interleave b1 b2). split.
  - intros u [Hu Hq]. destruct (HP u Hu Hq) as [H|H].
    + destruct (C1 u (conj Hu H)) as [n Hn]. exists (2 * n)%nat. rewrite !interleave_even. exact Hn.
    + destruct (C2 u (conj Hu H)) as [n Hn]. exists (S (2 * n)). rewrite !interleave_odd. exact Hn.
  - intros N.
    rewrite (psum_ext _ (interleave (fun n => ilen (a1 n) (b1 n)) (fun n => ilen (a2 n) (b2 n))))
      by (intros n; unfold interleave; destruct (Nat.even n); reflexivity).
    apply Rle_trans with (psum (interleave (fun n => ilen (a1 n) (b1 n)) (fun n => ilen (a2 n) (b2 n))) (2 * N)).
    + apply psum_mono; [|lia]. intros n. unfold interleave. destruct (Nat.even n); apply ilen_nonneg.
    + rewrite psum_interleave. pose proof (S1 N). pose proof (S2 N). lra.
Qed.

(** Removing one point does not change the outer measure. *)
Lemma uouter_but_point (P : R -> Prop) p :
  uouter P = uouter (fun u => P u /\ u <> p).
Proof.
  apply Rle_antisym.
  - rewrite <- (Rplus_0_r (uouter (fun u => P u /\ u <> p))), <- (uouter_point p).
    apply uouter_union. intros u _ Hu. destruct (Req_dec u p); [right|left]; tauto.
  - apply uouter_mono. tauto.
Qed.

(** The pieces of an interval on each side of [p]. *)
Lemma ilen_cut a b p : ilen a (Rmin b p) + ilen (Rmax a p) b <= ilen a b.
Proof. unfold ilen. split_minmax; lra. Qed.

(** A cover splits at [p] into covers of both sides. *)
Lemma uouter_cut_ge (P : R -> Prop) p :
  uouter (fun u => P u /\ u <= p) + uouter (fun u => P u /\ p <= u) <= uouter P.
Proof.
  apply le_of_eps. intros eta He.
  destruct (uouter_approx P eta He) as (s & (a & b & C & S) & H).
  destruct (psum_split_bound (fun n => ilen (a n) (Rmin (b n) p)) (fun n => ilen (Rmax (a n) p) (b n)) s)
    as (s1 & H1 & H2).
  - intros n. apply ilen_nonneg.
  - intros n. apply ilen_nonneg.
  - intros N. rewrite <- psum_plus. eapply Rle_trans; [|exact (S N)]. apply psum_le. intros n. apply ilen_cut.
  - assert (uouter (fun u => P u /\ u <= p) <= s1).
    { apply uouter_le_cost. exists a, (fun n => Rmin (b n) p). split; [|exact H1].
      intros u [Hu [HP Hp]]. destruct (C u (conj Hu HP)) as [n Hn]. exists n.
      split; [lra|]. apply Rmin_glb; lra. }
    assert (uouter (fun u => P u /\ p <= u) <= s - s1).
    { apply uouter_le_cost. exists (fun n => Rmax (a n) p), b. split; [|exact H2].
      intros u [Hu [HP Hp]]. destruct (C u (conj Hu HP)) as [n Hn]. exists n.
      split; [apply Rmax_lub; lra|lra]. }
    lra.
Qed.

(** A cut at [p] splits the outer measure exactly. *)
Lemma uouter_cut (P : R -> Prop) p :
  uouter P = uouter (fun u => P u /\ u < p) + uouter (fun u => P u /\ p < u).
Proof.
  apply Rle_antisym.
  - rewrite (uouter_but_point P p). apply uouter_union. intros u _ [HP Hne].
    destruct (Rtotal_order u p) as [H|[H|H]]; [left|contradiction|right]; tauto.
  - pose proof (uouter_cut_ge P p).
    pose proof (uouter_mono (fun u => P u /\ u < p) (fun u => P u /\ u <= p) ltac:(intros u _ [H1 H2]; split; [exact H1|lra])).
    pose proof (uouter_mono (fun u => P u /\ p < u) (fun u => P u /\ p <= u) ltac:(intros u _ [H1 H2]; split; [exact H1|lra])).
    lra.
Qed.

(** ** Images under monotone Lipschitz maps *)

Lemma ilen_minmax x y : ilen (Rmin x y) (Rmax x y) = Rabs (y - x).
Proof. unfold ilen, Rabs. destruct (Rcase_abs (y - x)); split_minmax; lra. Qed.

(** If every point of [A] is [g y] for a [y] of [Y] in [[lo, hi]], where [g] is
    monotone and [L]-Lipschitz, then [A] is at most [L] times as large as [Y]. *)
Lemma uouter_image (g : R -> R) (L lo hi : R) (A Y : R -> Prop) :
  0 <= L ->
  (forall y z, lo <= y -> y <= z -> z <= hi -> Rabs (g z - g y) <= L * (z - y)) ->
  (forall y z w, lo <= y -> y <= z -> z <= w -> w <= hi ->
     Rmin (g y) (g w) <= g z <= Rmax (g y) (g w)) ->
  (forall x, 0 < x <= 1 -> A x -> exists y, lo <= y <= hi /\ 0 < y <= 1 /\ Y y /\ x = g y) ->
  uouter A <= L * uouter Y.
Proof.
  intros HL Hlip Hbet HA. apply le_of_eps. intros eta He.
  set (e := eta / (L + 1)).
  assert (He' : 0 < e) by (unfold e; apply Rdiv_lt_0_compat; lra).
  assert (HLe : L * e <= eta).
  { unfold e. apply (Rmult_le_reg_r (L + 1)); [lra|].
    replace (L * (eta / (L + 1)) * (L + 1)) with (L * eta) by (field; lra). nra. }
  destruct (uouter_approx Y e He') as (s & (a & b & C & S) & H).
  set (al := fun n => Rmax (a n) lo).
  set (be := fun n => Rmax (al n) (Rmin (b n) hi)).
  assert (uouter A <= L * s); [|nra].
  apply uouter_le_cost. exists (fun n => Rmin (g (al n)) (g (be n))), (fun n => Rmax (g (al n)) (g (be n))).
  split.
  - intros x [Hx HAx]. destruct (HA x Hx HAx) as (y & Hy & Hy01 & HY & ->).
    destruct (C y (conj Hy01 HY)) as [n Hn]. exists n.
    assert (Hal : lo <= al n <= y) by (unfold al; split; [apply Rmax_r|apply Rmax_lub; lra]).
    assert (Hmin : y <= Rmin (b n) hi) by (apply Rmin_glb; lra).
    assert (Hbe : be n = Rmin (b n) hi) by (unfold be; apply Rmax_right; lra).
    rewrite Hbe. apply Hbet; [lra|lra|lra|apply Rmin_r].
  - intros N. apply Rle_trans with (L * psum (fun n => ilen (a n) (b n)) N);
      [|apply Rmult_le_compat_l; [exact HL|exact (S N)]].
    rewrite <- psum_scal. apply psum_le. intros n. rewrite ilen_minmax.
    destruct (Rle_or_lt (al n) (Rmin (b n) hi)) as [Hle|Hlt].
    + assert (Hbe : be n = Rmin (b n) hi) by (unfold be; apply Rmax_right; lra).
      rewrite Hbe. eapply Rle_trans; [apply Hlip; [unfold al; apply Rmax_r|lra|apply Rmin_r]|].
      apply Rmult_le_compat_l; [exact HL|]. unfold ilen, al in *.
      pose proof (Rmax_l (a n) lo). pose proof (Rmin_l (b n) hi).
      eapply Rle_trans; [|apply Rmax_r]. lra.
    + assert (Hbe : be n = al n) by (unfold be; apply Rmax_left; lra).
      rewrite Hbe, Rminus_diag_eq, Rabs_R0 by reflexivity.
      apply Rmult_le_pos; [exact HL|apply ilen_nonneg].
Qed.

(** The two maps the couplings of the noise use. *)
Lemma uouter_image_scale (k : R) (A Y : R -> Prop) :
  0 <= k ->
  (forall x, 0 < x <= 1 -> A x -> exists y, 0 < y <= 1 /\ Y y /\ x = k * y) ->
  uouter A <= k * uouter Y.
Proof.
  intros Hk HA. apply (uouter_image (fun y => k * y) k 0 1).
  - exact Hk.
  - intros y z Hy Hyz Hz. rewrite <- Rmult_minus_distr_l, Rabs_mult, Rabs_right, Rabs_right; lra.
  - intros y z w _ Hyz Hzw _. split; split_minmax; nra.
  - intros x Hx HAx. destruct (HA x Hx HAx) as (y & Hy & HY & ->). exists y. repeat split; lra || exact HY.
Qed.

Lemma uouter_image_inv (p lo : R) (A Y : R -> Prop) :
  0 <= p -> 0 < lo <= 1 ->
  (forall x, 0 < x <= 1 -> A x -> exists y, lo <= y <= 1 /\ Y y /\ x = p / y) ->
  uouter A <= p / (lo * lo) * uouter Y.
Proof.
  intros Hp Hlo HA. apply (uouter_image (fun y => p / y) (p / (lo * lo)) lo 1).
  - unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; nra].
  - intros y z Hy Hyz Hz.
    replace (p / z - p / y) with (- (p * (z - y) / (y * z))) by (field; lra).
    rewrite Rabs_Ropp, Rabs_right.
    + unfold Rdiv. rewrite Rmult_assoc, (Rmult_comm (z - y)), <- Rmult_assoc.
      apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat_l; [exact Hp|].
      apply Rinv_le_contravar; nra.
    + apply Rle_ge. unfold Rdiv. apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; nra].
  - intros y z w Hy Hyz Hzw _.
    assert (p / w <= p / z) by (unfold Rdiv; apply Rmult_le_compat_l; [lra|apply Rinv_le_contravar; lra]).
    assert (p / z <= p / y) by (unfold Rdiv; apply Rmult_le_compat_l; [lra|apply Rinv_le_contravar; lra]).
    split; split_minmax; lra.
  - intros x Hx HAx. destruct (HA x Hx HAx) as (y & Hy & HY & ->). exists y. repeat split; lra || exact HY.
Qed.

(** ** Intervals: Heine–Borel and the length *)

(** Finitely many open intervals that cover [[x, y]] have total length at
    least [y - x] (counted inside [[x, y]]). *)
Lemma finite_cover_len (a b : nat -> R) N : forall x y,
  (forall t, x <= t <= y -> exists n, (n < N)%nat /\ a n < t < b n) ->
  y - x <= psum (fun n => ilen (Rmax (a n) x) (Rmin (b n) y)) N.
Proof.
  induction N as [|N IH]; intros x y Hc.
  - destruct (Rle_or_lt x y) as [Hxy|Hxy].
    + destruct (Hc x ltac:(lra)) as (n & Hn & _). lia.
    + unfold psum. cbn. lra.
  - destruct (Rle_or_lt x y) as [Hxy|Hxy];
      [|pose proof (psum_nonneg (fun n => ilen (Rmax (a n) x) (Rmin (b n) y)) (S N) (fun n => ilen_nonneg _ _)); lra].
    rewrite psum_succ.
    assert (Hrest : forall t, x <= t <= y -> ~ (a N < t < b N) -> exists n, (n < N)%nat /\ a n < t < b n).
    { intros t Ht Hnot. destruct (Hc t Ht) as (n & Hn & Hab).
      destruct (Nat.eq_dec n N) as [->|Hne]; [contradiction|]. exists n. split; [lia|exact Hab]. }
    destruct (Rle_or_lt (b N) (a N)) as [Hempty|Hne].
    + pose proof (IH x y ltac:(intros t Ht; apply Hrest; [exact Ht|lra])).
      pose proof (ilen_nonneg (Rmax (a N) x) (Rmin (b N) y)). lra.
    + set (y1 := Rmin (a N) y). set (x2 := Rmax (b N) x).
      pose proof (IH x y1 ltac:(intros t Ht; apply Hrest; unfold y1 in Ht;
                                [pose proof (Rmin_r (a N) y); lra|pose proof (Rmin_l (a N) y); lra])) as HL.
      pose proof (IH x2 y ltac:(intros t Ht; apply Hrest; unfold x2 in Ht;
                                [pose proof (Rmax_r (b N) x); lra|pose proof (Rmax_l (b N) x); lra])) as HR.
      assert (Hpt : forall n,
        ilen (Rmax (a n) x) (Rmin (b n) y1) + ilen (Rmax (a n) x2) (Rmin (b n) y) <=
        ilen (Rmax (a n) x) (Rmin (b n) y)).
      { intros n. assert (y1 <= x2) by (unfold y1, x2; split_minmax; lra).
        assert (y1 <= y) by (unfold y1; apply Rmin_r).
        assert (x <= x2) by (unfold x2; apply Rmax_r).
        clearbody y1 x2. unfold ilen. split_minmax; lra. }
      assert (Hsum : psum (fun n => ilen (Rmax (a n) x) (Rmin (b n) y1)) N +
                     psum (fun n => ilen (Rmax (a n) x2) (Rmin (b n) y)) N <=
                     psum (fun n => ilen (Rmax (a n) x) (Rmin (b n) y)) N).
      { rewrite <- psum_plus. apply psum_le. exact Hpt. }
      pose proof (psum_nonneg (fun n => ilen (Rmax (a n) x) (Rmin (b n) y1)) N (fun n => ilen_nonneg _ _)) as Hn1.
      pose proof (psum_nonneg (fun n => ilen (Rmax (a n) x2) (Rmin (b n) y)) N (fun n => ilen_nonneg _ _)) as Hn2.
      assert (Hend : y - x <= Rmax 0 (y1 - x) + Rmax 0 (y - x2) + ilen (Rmax (a N) x) (Rmin (b N) y)).
      { unfold y1, x2, ilen. split_minmax; lra. }
      pose proof (Rmax_lub 0 (y1 - x) _ Hn1 HL).
      pose proof (Rmax_lub 0 (y - x2) _ Hn2 HR). lra.
Qed.

(** Heine–Borel for a sequence of open intervals covering [[x, y]]. *)
Lemma heine_borel_seq (a b : nat -> R) x y : x <= y ->
  (forall t, x <= t <= y -> exists n, a n < t < b n) ->
  exists N, forall t, x <= t <= y -> exists n, (n < N)%nat /\ a n < t < b n.
Proof.
  intros Hxy Hc.
  set (X := fun z => x <= z <= y /\ exists N, forall t, x <= t <= z -> exists n, (n < N)%nat /\ a n < t < b n).
  assert (HX0 : X x).
  { split; [lra|]. destruct (Hc x ltac:(lra)) as [n Hn]. exists (S n).
    intros t Ht. exists n. split; [lia|]. replace t with x by lra. exact Hn. }
  assert (Hb : bound X) by (exists y; intros z [Hz _]; lra).
  destruct (completeness X Hb (ex_intro _ x HX0)) as [m [Hub Hlub]].
  assert (Hm : x <= m <= y) by (split; [apply Hub, HX0|apply Hlub; intros z [Hz _]; lra]).
  destruct (Hc m Hm) as [k Hk].
  (* some point of X lies beyond a k *)
  assert (Hz : exists z, X z /\ a k < z).
  { destruct (classic (exists z, X z /\ a k < z)) as [H|H]; [exact H|].
    exfalso. assert (m <= a k); [|lra]. apply Hlub. intros z HXz.
    destruct (Rle_or_lt z (a k)) as [Hle|Hlt]; [exact Hle|]. exfalso. apply H. exists z. split; assumption. }
  destruct Hz as (z & [Hzr [Nz HNz]] & Hzk).
  set (z' := Rmin y ((m + b k) / 2)).
  assert (HXz' : X z').
  { split; [unfold z'; split_minmax; lra|]. exists (max Nz (S k)). intros t Ht.
    destruct (Rle_or_lt t z) as [Htz|Htz].
    - destruct (HNz t ltac:(lra)) as (n & Hn & Hab). exists n. split; [lia|exact Hab].
    - exists k. split; [lia|]. split; [lra|]. unfold z' in Ht. pose proof (Rmin_r y ((m + b k) / 2)). lra. }
  assert (Hz'm : z' <= m) by (apply Hub, HXz').
  assert (Hy : z' = y).
  { unfold z' in *. destruct (Rle_or_lt y ((m + b k) / 2)) as [H|H].
    - apply Rmin_left, H.
    - rewrite Rmin_right in Hz'm by lra. lra. }
  destruct HXz' as [_ [N HN]]. exists N. intros t Ht. apply HN. lra.
Qed.

(** A countable family of closed intervals that covers [[x, y]] has total
    length at least [y - x]. *)
Lemma cover_closed_len (a b : nat -> R) s x y : x <= y ->
  (forall t, x <= t <= y -> exists n, a n <= t <= b n) -> cost_le a b s -> y - x <= s.
Proof.
  intros Hxy Hc Hs. apply le_of_eps. intros eta He.
  set (w := fun n => eta / 2 * (/ 2) ^ S n).
  assert (Hw : forall n, 0 < w n) by (intros n; unfold w; apply Rmult_lt_0_compat; [lra|apply pow_lt; lra]).
  destruct (heine_borel_seq (fun n => a n - w n) (fun n => b n + w n) x y Hxy) as [N HN].
  { intros t Ht. destruct (Hc t Ht) as [n Hn]. exists n. pose proof (Hw n). lra. }
  pose proof (finite_cover_len _ _ N x y HN) as H.
  eapply Rle_trans; [exact H|].
  apply Rle_trans with (psum (fun n => ilen (a n) (b n) + 2 * w n) N).
  - apply psum_le. intros n. pose proof (Hw n). unfold ilen. split_minmax; lra.
  - rewrite psum_plus, psum_scal. unfold w. rewrite psum_scal.
    pose proof (Hs N). pose proof (psum_half_pow N). nra.
Qed.

Lemma uouter_closed_ge (P : R -> Prop) x y : 0 < x -> x <= y -> y <= 1 ->
  (forall t, x <= t <= y -> P t) -> y - x <= uouter P.
Proof.
  intros Hx Hxy Hy HP. apply uouter_ge_cost. intros s (a & b & C & S).
  apply (cover_closed_len a b s x y Hxy); [|exact S].
  intros t Ht. apply C. split; [lra|]. apply HP, Ht.
Qed.

(** The outer measure of an interval is its clipped length. *)
Lemma uouter_umeasure (P : R -> Prop) m : umeasure P m -> uouter P = m.
Proof.
  intros Hm. destruct (umeasure_sandwich P m Hm) as (lo & hi & [In Out] & ->).
  apply Rle_antisym.
  - apply uouter_le_cost, cover_cost_one. intros u Hu HP. apply Out. split; assumption.
  - destruct (Rle_or_lt hi lo) as [Hle|Hlt].
    + rewrite Rmax_left by lra. apply uouter_nonneg.
    + rewrite Rmax_right by lra. apply le_of_eps. intros eta He.
      set (e := Rmin (eta / 2) ((hi - lo) / 4)).
      assert (He1 : 0 < e) by (unfold e; apply Rmin_glb_lt; lra).
      assert (He2 : e <= eta / 2) by apply Rmin_l.
      assert (He3 : e <= (hi - lo) / 4) by apply Rmin_r.
      assert (Hlo : 0 < lo + e) by (destruct (In (lo + e) ltac:(lra)) as [[H _] _]; exact H).
      assert (Hhi : hi - e <= 1) by (destruct (In (hi - e) ltac:(lra)) as [[_ H] _]; exact H).
      pose proof (uouter_closed_ge P (lo + e) (hi - e) Hlo ltac:(lra) Hhi
                   ltac:(intros t Ht; destruct (In t ltac:(lra)) as [_ H]; exact H)).
      lra.
Qed.

Lemma uouter_all : uouter (fun _ => True) = 1.
Proof.
  rewrite (uouter_umeasure _ (ulen 0 1)).
  - unfold ulen. split_minmax; lra.
  - apply umeasure_Ioc. intros u Hu. tauto.
Qed.
