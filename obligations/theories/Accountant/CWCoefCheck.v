(** * The same database released K times: the coefficient recursion in floats rounded one way

    hs(t) of K runs on the same database is [gk K c] (CWCoef.v, [hs_stream_gk]) with
    c = g_i − t·g_j.  For randomized response (Pr[y = x] = lo·r, every other output lo)
    one run answering y multiplies c by lo and coordinate y by r, so every state of the
    recursion is λ·[vec key] with [vec key x = c(x)·r^(key x)]: a key (integer exponents)
    and a non-negative weight λ.  [levels] runs the recursion on floats: the weights are
    rounded the way [up] says ([rnd], DownFloat.v), keys are exact, and states with equal
    keys merge by adding weights (a trie of keys).  The bounds of r^z come from a tree by the
    binary digits of z ([ptab], [ppow]): the re-check (coqchk, no VM) walks log₂ z nodes
    where a list would walk z cells.  After each run a state is

    - dropped when no continuation can end above 0 ([gk_dead], decided on floats
      rounded against the decision),
    - summed when none can end below 0 ([gk_sure]: its weight times Σ_x c(x)),
    - finished when it is the last run or its weight is below [tau]: its weight times S₊
      when rounding up ([gk_le_pos]), nothing when rounding down ([gk_nonneg]),
    - else kept, its exponents shifted so the least exponent of a non-zero coefficient is 0,
      and two inputs with equal coefficients put in order ([gk_swap]).

    [coef_le] / [coef_gt]: the float sum of a run that keeps no state bounds [gk K c] from
    above / below; [cw_coef_dp_of_check] and [cw_coef_not_dp_of_check] turn both orders of
    the rows into (ε, δ)-CW-privacy of K runs on the same database, or its negation, with
    the product table's definition as the statement. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Float.Sig Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Checker CheckerSound BasicComposition CW PLD PLDCheck Compose CWStream TypeClass CWCoef.
From Obligations.Accountant Require Import DownFloat.
Import ListNotations.

Local Open Scope R_scope.

(** ** Keys, and a trie of weighted keys *)

Fixpoint zl_eqb (a b : list Z) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Z.eqb x y && zl_eqb a' b'
  | _, _ => false
  end.

Lemma zl_eqb_eq (a b : list Z) : zl_eqb a b = true -> a = b.
Proof.
  revert b. induction a as [|x a IH]; intros [|y b] H; cbn in H; try discriminate; [reflexivity|].
  apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1. subst. f_equal. apply IH, H2.
Qed.

(** The trie's path: the three low bits of each exponent, read off its binary digits by one
    match (no division; keys that share the path share a bucket, and correctness needs
    nothing of the path).  Both the path and the buckets cost under the kernel's plain
    reduction: at K = 30 the check with a byte of each exponent (a path of 41 bits) took
    coqchk 21 s, with the parities (6 bits, buckets of ~65 keys at K = 200) 9.4 s. *)
Definition zbits (z : Z) (p : positive) : positive :=
  match z with
  | Zpos (xI (xI (xI _))) => xI (xI (xI p)) | Zpos (xI (xI (xO _))) => xI (xI (xO p))
  | Zpos (xI (xO (xI _))) => xI (xO (xI p)) | Zpos (xI (xO (xO _))) => xI (xO (xO p))
  | Zpos (xO (xI (xI _))) => xO (xI (xI p)) | Zpos (xO (xI (xO _))) => xO (xI (xO p))
  | Zpos (xO (xO (xI _))) => xO (xO (xI p)) | Zpos (xO (xO (xO _))) => xO (xO (xO p))
  | Zpos (xI (xI xH)) => xI (xI (xI p)) | Zpos (xI (xO xH)) => xI (xO (xI p))
  | Zpos (xO (xI xH)) => xO (xI (xI p)) | Zpos (xO (xO xH)) => xO (xO (xI p))
  | Zpos (xI xH) => xI (xI p) | Zpos (xO xH) => xO (xI p) | Zpos xH => xI p
  | _ => p
  end.

Definition khash (k : list Z) : positive := fold_right zbits xH k.

Inductive trie (A : Type) := TL | TN (b : list (list Z * A)) (l r : trie A).
Arguments TL {A}.
Arguments TN {A} b l r.

Fixpoint binsert {A} (add : A -> A -> A) (k : list Z) (v : A) (b : list (list Z * A)) : list (list Z * A) :=
  match b with
  | [] => [(k, v)]
  | (k', v') :: b' => if zl_eqb k k' then (k', add v' v) :: b' else (k', v') :: binsert add k v b'
  end.

Definition tparts {A} (t : trie A) : list (list Z * A) * trie A * trie A :=
  match t with TL => ([], TL, TL) | TN b l r => (b, l, r) end.

Fixpoint tins {A} (add : A -> A -> A) (p : positive) (k : list Z) (v : A) (t : trie A) : trie A :=
  let '(b, l, r) := tparts t in
  match p with
  | xH => TN (binsert add k v b) l r
  | xO p' => TN b (tins add p' k v l) r
  | xI p' => TN b l (tins add p' k v r)
  end.

Fixpoint telems {A} (t : trie A) : list (list Z * A) :=
  match t with TL => [] | TN b l r => b ++ telems l ++ telems r end.

Definition tempty {A} (t : trie A) : bool := match telems t with [] => true | _ => false end.

(** A float trie and a trie of reals of the same shape: the same keys, each float bounding its real. *)
Definition krel (up : bool) (a : list Z * F.type) (g : list Z * R) : Prop := fst a = fst g /\ rnd up (snd a) (snd g).

Fixpoint trel (up : bool) (t : trie F.type) (tg : trie R) : Prop :=
  match t, tg with
  | TL, TL => True
  | TN b l r, TN bg lg rg => Forall2 (krel up) b bg /\ trel up l lg /\ trel up r rg
  | _, _ => False
  end.

Definition ksum (G : list Z -> R) (L : list (list Z * R)) : R := rsum (map (fun kw => snd kw * G (fst kw)) L).
Definition tsum (G : list Z -> R) (tg : trie R) : R := ksum G (telems tg).

Lemma binsert_rel (up : bool) (k : list Z) (f : F.type) (w : R) b bg :
  Forall2 (krel up) b bg -> rnd up f w -> Forall2 (krel up) (binsert (faddr up) k f b) (binsert Rplus k w bg).
Proof.
  intros H Hf. induction H as [|[k1 f1] [k2 w1] b bg [Hk H1] H IH]; cbn [binsert].
  - constructor; [split; [reflexivity|exact Hf]|constructor].
  - cbn [fst snd] in Hk, H1. subst k2. destruct (zl_eqb k k1).
    + constructor; [split; [reflexivity|apply fadd_rnd; assumption]|exact H].
    + constructor; [split; [reflexivity|exact H1]|exact IH].
Qed.

Lemma binsert_sum (G : list Z -> R) (k : list Z) (w : R) bg :
  ksum G (binsert Rplus k w bg) = ksum G bg + w * G k.
Proof.
  unfold ksum. induction bg as [|[k1 w1] bg IH]; cbn [binsert map fst snd].
  - rewrite rsum_cons, rsum_nil. cbn [fst snd]. ring.
  - destruct (zl_eqb k k1) eqn:E.
    + apply zl_eqb_eq in E. subst k1. cbn [map]. rewrite !rsum_cons. cbn [fst snd]. ring.
    + cbn [map]. rewrite !rsum_cons, IH. cbn [fst snd]. ring.
Qed.

Lemma tins_rel (up : bool) (p : positive) (k : list Z) (f : F.type) (w : R) (t : trie F.type) (tg : trie R) :
  trel up t tg -> rnd up f w -> trel up (tins (faddr up) p k f t) (tins Rplus p k w tg).
Proof.
  revert t tg. induction p as [p IH|p IH|]; intros t tg Ht Hf;
    destruct t as [|b l r], tg as [|bg lg rg]; cbn in Ht |- *; try contradiction.
  - split; [constructor|split; [exact I|apply IH; [exact I|exact Hf]]].
  - destruct Ht as (H1 & H2 & H3). split; [exact H1|split; [exact H2|apply IH; assumption]].
  - split; [constructor|split; [apply IH; [exact I|exact Hf]|exact I]].
  - destruct Ht as (H1 & H2 & H3). split; [exact H1|split; [apply IH; assumption|exact H3]].
  - split; [constructor; [split; [reflexivity|exact Hf]|constructor]|split; exact I].
  - destruct Ht as (H1 & H2 & H3). split; [apply binsert_rel; assumption|split; assumption].
Qed.

Lemma ksum_app (G : list Z -> R) L1 L2 : ksum G (L1 ++ L2) = ksum G L1 + ksum G L2.
Proof. unfold ksum. rewrite map_app, rsum_app. reflexivity. Qed.

Lemma ksum_nil (G : list Z -> R) : ksum G [] = 0.
Proof. reflexivity. Qed.

Lemma tins_sum (G : list Z -> R) (p : positive) (k : list Z) (w : R) (tg : trie R) :
  tsum G (tins Rplus p k w tg) = tsum G tg + w * G k.
Proof.
  unfold tsum. revert tg. induction p as [p IH|p IH|]; intros tg; destruct tg as [|bg lg rg];
    cbn [tins tparts telems]; rewrite ?ksum_app, ?IH; cbn [telems]; rewrite ?ksum_app, ?ksum_nil.
  - ring.
  - ring.
  - ring.
  - ring.
  - change ([(k, w)]) with (binsert Rplus k w []). rewrite binsert_sum, ksum_nil. ring.
  - rewrite binsert_sum. ring.
Qed.

Lemma telems_rel (up : bool) (t : trie F.type) (tg : trie R) :
  trel up t tg -> Forall2 (krel up) (telems t) (telems tg).
Proof.
  revert tg. induction t as [|b l IHl r IHr]; intros [|bg lg rg] H; cbn in H |- *; try contradiction; [constructor|].
  destruct H as (H1 & H2 & H3). apply Forall2_app; [exact H1|apply Forall2_app; [apply IHl|apply IHr]; assumption].
Qed.

Lemma trel_empty (up : bool) (t : trie F.type) (tg : trie R) (G : list Z -> R) :
  trel up t tg -> tempty t = true -> tsum G tg = 0.
Proof.
  intros H E. unfold tempty in E. pose proof (telems_rel up t tg H) as H2.
  destruct (telems t); [|discriminate]. unfold tsum. destruct (telems tg); [reflexivity|inversion H2].
Qed.

(** ** One-sided comparisons *)

(** [rbound up a b]: [a] bounds [b] from the side [up] says. *)
Definition rbound (up : bool) (a b : R) : Prop := if up then b <= a else a <= b.

Lemma rbound_eq (up : bool) (a b : R) : a = b -> rbound up a b.
Proof. intros ->. destruct up; cbn; lra. Qed.

Lemma rbound_trans (up : bool) (a b c : R) : rbound up a b -> rbound up b c -> rbound up a c.
Proof. destruct up; cbn; lra. Qed.

Lemma rbound_plus (up : bool) (a b c d : R) : rbound up a b -> rbound up c d -> rbound up (a + c) (b + d).
Proof. destruct up; cbn; lra. Qed.

Lemma rbound_debt (up : bool) (a b d : R) : rbound up a (b + d) -> rbound up (a - d) b.
Proof. destruct up; cbn; lra. Qed.

Lemma rbound_shift (up : bool) (p q v g d : R) : rbound up p (q + d) -> rbound up (q + g) v -> rbound up (p + g) (v + d).
Proof. destruct up; cbn; lra. Qed.

(** A float's own value: an upper bound of it, and of the weight rounded down. *)
Lemma rnd_up_val (f : F.type) : fval f -> rnd true f (F.toR f).
Proof.
  intros H. pose proof H as [E P]. split; [exact P|split].
  - rewrite F.valid_ub_correct, (fval_real f H). reflexivity.
  - rewrite E. cbn. lra.
Qed.

(** A weight rounded the way [up] says, as a ghost that it also bounds from above. *)
Lemma rnd_ghost (up : bool) (f : F.type) (w : R) :
  rnd up f w -> exists w', rnd true f w' /\ rnd up f w' /\ (if up then w' = w else w' <= w).
Proof.
  destruct up; intros H; [exists w; split; [exact H|split; [exact H|reflexivity]]|].
  destruct H as [Hf Hw]. exists (F.toR f). split; [apply rnd_up_val, Hf|split; [apply fval_lo, Hf|exact Hw]].
Qed.

Lemma ghost_rbound (up : bool) (wc wg v g : R) : (if up then wc = wg else wc <= wg) -> 0 <= g -> rbound up (v + wc * g) (v + wg * g).
Proof. intros H Hg. destruct up; cbn [rbound]; [subst; lra|]. pose proof (Rmult_le_compat_r g wc wg Hg H). lra. Qed.

(** ** Float bounds that need no mechanism *)

Lemma rnd_q (up : bool) (q : Q) : 0 <= Q2R q -> rnd up (fbnd up (iq q)) (Q2R q).
Proof. intros H. apply fbnd_rnd; [apply iq_correct|exact H]. Qed.

(** Bounds of r^p for positive p, a tree by the binary digits of p read from the top: the
    node of p has the children of 2p and 2p + 1 ([pnode] walks the log₂ p digits, where a
    list would walk p cells, in unary, under the kernel's plain reduction).  [pmk] squares its
    way down: r^(2p) = (r^p)², r^(2p+1) = (r^p)²·r. *)
Inductive ptab := PT0 | PTN (v : F.type) (l r : ptab).

Definition proot (d : F.type) (t : ptab) : F.type := match t with PT0 => d | PTN v _ _ => v end.
Definition pleft (t : ptab) : ptab := match t with PT0 => PT0 | PTN _ l _ => l end.
Definition pright (t : ptab) : ptab := match t with PT0 => PT0 | PTN _ _ r => r end.

Fixpoint pnode (p : positive) (t : ptab) : ptab :=
  match p with xH => t | xO p' => pleft (pnode p' t) | xI p' => pright (pnode p' t) end.

Fixpoint pmk (up : bool) (rf : F.type) (d : nat) (v : F.type) : ptab :=
  match d with
  | O => PT0
  | S d' => let v2 := fmulr up v v in PTN v (pmk up rf d' v2) (pmk up rf d' (fmulr up v2 rf))
  end.

(** r^z for z ≥ 0 ([one] bounds r^0 = 1). *)
Definition ppow (up : bool) (one : F.type) (t : ptab) (z : Z) : F.type :=
  match z with Z0 => one | Zpos p => proot (fnone up) (pnode p t) | Zneg _ => fnone up end.

(** Every node of the tree, at p, bounds r^p. *)
Fixpoint pgood (up : bool) (r : R) (t : ptab) (p : positive) : Prop :=
  match t with PT0 => True | PTN v l rt => rnd up v (r ^ Pos.to_nat p) /\ pgood up r l (xO p) /\ pgood up r rt (xI p) end.

Lemma pgood_pmk (up : bool) (r : R) (rf : F.type) (d : nat) :
  rnd up rf r -> forall v p, rnd up v (r ^ Pos.to_nat p) -> pgood up r (pmk up rf d v) p.
Proof.
  intros Hrf. induction d as [|d IH]; intros v p Hv; cbn [pmk pgood]; [exact I|].
  split; [exact Hv|split; apply IH].
  - replace (r ^ Pos.to_nat (xO p)) with (r ^ Pos.to_nat p * r ^ Pos.to_nat p)
      by (rewrite Pos2Nat.inj_xO, <- pow_add; f_equal; lia).
    apply fmul_rnd; exact Hv.
  - replace (r ^ Pos.to_nat (xI p)) with (r ^ Pos.to_nat p * r ^ Pos.to_nat p * r)
      by (rewrite Pos2Nat.inj_xI; replace (S (2 * Pos.to_nat p)) with (Pos.to_nat p + Pos.to_nat p + 1)%nat by lia;
          rewrite !pow_add, pow_1; reflexivity).
    apply fmul_rnd; [apply fmul_rnd; exact Hv|exact Hrf].
Qed.

Lemma pgood_pnode (up : bool) (r : R) (t : ptab) (p : positive) : pgood up r t xH -> pgood up r (pnode p t) p.
Proof.
  intros H. induction p as [p IH|p IH|]; cbn [pnode]; [| |exact H];
    destruct (pnode p t) as [|v l rt]; cbn [pleft pright]; try exact I; apply IH.
Qed.

Lemma ppow_rnd (up : bool) (r : R) (rf one : F.type) (d : nat) (z : Z) :
  0 <= r -> rnd up rf r -> rnd up one 1 -> (0 <= z)%Z -> rnd up (ppow up one (pmk up rf d rf) z) (powerRZ r z).
Proof.
  intros Hr Hrf H1 Hz. destruct z as [|p|p]; [exact H1| |lia]. cbn [ppow powerRZ].
  assert (Hg : pgood up r (pmk up rf d rf) xH) by (apply pgood_pmk; [exact Hrf|rewrite Pos2Nat.inj_1, pow_1; exact Hrf]).
  pose proof (pgood_pnode up r _ p Hg) as H. destruct (pnode p (pmk up rf d rf)) as [|v l rt]; cbn [proot pgood] in H |- *.
  - apply rnd_none, pow_le, Hr.
  - exact (proj1 H).
Qed.

(** Σ_x g(x)·b(x), with [Fb] and [B] float bounds of g and b on [l]. *)
Definition fdot (up : bool) (l : list nat) (Fb : nat -> F.type) (B : nat -> F.type) : F.type :=
  fold_right (fun x acc => faddr up (fmulr up (Fb x) (B x)) acc) F.zero l.

Lemma fdot_rnd (up : bool) (l : list nat) (Fb B : nat -> F.type) (g b : nat -> R) :
  (forall x, In x l -> rnd up (Fb x) (g x) /\ rnd up (B x) (b x)) ->
  rnd up (fdot up l Fb B) (rsum (map (fun x => g x * b x) l)).
Proof.
  intros H. induction l as [|x l IH]; cbn [fdot fold_right map]; [rewrite rsum_nil; apply rnd_zero|].
  rewrite rsum_cons. destruct (H x (or_introl eq_refl)) as [H1 H2].
  apply fadd_rnd; [apply fmul_rnd; assumption|apply IH; intros z Hz; apply H; right; exact Hz].
Qed.

(** [k x] with [x] evaluated first: plain reduction (coqchk) would otherwise carry the running
    sum as one unevaluated chain of additions to the end. *)
Definition fseq {A} (x : F.type) (k : F.type -> A) : A := match F.cmp x x with Xeq => k x | _ => k x end.

Lemma fseq_eq {A} (x : F.type) (k : F.type -> A) : fseq x k = k x.
Proof. unfold fseq. destruct (F.cmp x x); reflexivity. Qed.

Lemma rsum_filter_zero (g : nat -> R) (p : nat -> bool) (l : list nat) :
  (forall x, p x = false -> g x = 0) -> rsum (map g (filter p l)) = rsum (map g l).
Proof.
  intros H. induction l as [|x l IH]; [reflexivity|]. cbn [filter map]. destruct (p x) eqn:E.
  - cbn [map]. rewrite !rsum_cons, IH. reflexivity.
  - rewrite rsum_cons, IH, (H x E). ring.
Qed.

(** ** The recursion for randomized response *)

Section Coef.
Variables (M : fmech) (lo r : R) (c : nat -> R) (live : nat -> bool) (sw : list (nat * nat)).
Hypothesis HM : distr M.
Hypothesis Hn : n_out M = n_in M.
Hypothesis Hlo : 0 <= lo.
Hypothesis Hr1 : 1 <= r.
Hypothesis HRR : forall x y, (x < n_in M)%nat -> (y < n_in M)%nat -> prob M x y = lo * r ^ (if Nat.eqb x y then 1 else 0).
Hypothesis Hlive : forall x, live x = false -> c x = 0.
Hypothesis Hsw : forall p, In p sw -> (fst p < n_in M)%nat /\ (snd p < n_in M)%nat /\ c (fst p) = c (snd p).

(** Float bounds of lo, of |c| by sign, and of r^z for z ≥ 0. *)
Variables (lob : bool -> F.type) (Pb Nb : bool -> nat -> F.type) (Tb : bool -> Z -> F.type) (tau : F.type).
Hypothesis Hlob : forall up, rnd up (lob up) lo.
Hypothesis HP : forall up x, (x < n_in M)%nat -> rnd up (Pb up x) (Rmax 0 (c x)).
Hypothesis HN : forall up x, (x < n_in M)%nat -> rnd up (Nb up x) (Rmax 0 (- c x)).
Hypothesis HT : forall up z, (0 <= z)%Z -> rnd up (Tb up z) (powerRZ r z).
(** The inputs of positive and of negative coefficients (S₊ and S₋ sum over them only). *)
Variables (ppos pneg : nat -> bool) (lpos lneg : list nat).
Hypothesis Hppos : forall x, ppos x = false -> c x <= 0.
Hypothesis Hpneg : forall x, pneg x = false -> 0 <= c x.
Hypothesis Hlpos : lpos = filter ppos (seq 0 (n_in M)).
Hypothesis Hlneg : lneg = filter pneg (seq 0 (n_in M)).

Let m := n_in M.

Lemma r_pos : 0 < r.
Proof. lra. Qed.

Lemma powerRZ_nonneg (z : Z) : 0 <= powerRZ r z.
Proof. apply Rlt_le, powerRZ_lt, r_pos. Qed.

(** r^z for an exponent z ≥ 0; a negative exponent marks a dropped coefficient (0). *)
Definition pz (z : Z) : R := if (z <? 0)%Z then 0 else powerRZ r z.

Lemma pz_nonneg (z : Z) : 0 <= pz z.
Proof. unfold pz. destruct (z <? 0)%Z; [lra|apply powerRZ_nonneg]. Qed.

Definition vec (k : list Z) : nat -> R := fun x => c x * pz (nth x k 0%Z).

Definition G (rem : nat) (k : list Z) : R := gk M rem (vec k).

Definition kmap (h : nat -> Z) : list Z := map h (seq 0 m).

Lemma nth_kmap (h : nat -> Z) (x : nat) : (x < m)%nat -> nth x (kmap h) 0%Z = h x.
Proof.
  intros Hx. unfold kmap. rewrite nth_indep with (d' := h 0%nat) by (rewrite map_length, seq_length; exact Hx).
  rewrite map_nth, seq_nth by exact Hx. reflexivity.
Qed.

(** One more run answering y (a dropped coefficient stays dropped); the exponents shifted
    down by the least exponent of a coefficient neither 0 nor dropped, the others marked
    dropped; a coefficient dropped; inputs swapped. *)
Definition bump (y : nat) (k : list Z) : list Z :=
  kmap (fun x => if Nat.eqb x y && (0 <=? nth x k 0) then nth x k 0 + 1 else nth x k 0)%Z.

Definition kon (k : list Z) (x : nat) : bool := live x && (0 <=? nth x k 0)%Z.

Definition kmin (k : list Z) : Z :=
  fold_left (fun acc x => if kon k x then Z.min acc (nth x k 0%Z) else acc) (seq 0 m) (2 ^ 30)%Z.

Definition kshift (d : Z) (k : list Z) : list Z := kmap (fun x => if kon k x then nth x k 0 - d else -1)%Z.

Definition kdrop (x : nat) (k : list Z) : list Z := kmap (fun z => if Nat.eqb z x then (-1)%Z else nth z k 0%Z).

(** No coefficient left. *)
Definition kgone (k : list Z) : bool := forallb (fun x => negb (kon k x)) (seq 0 m).

Definition tswap (a b x : nat) : nat := if Nat.eqb x a then b else if Nat.eqb x b then a else x.

Definition kswap (p : nat * nat) (k : list Z) : list Z :=
  if (nth (snd p) k 0 <? nth (fst p) k 0)%Z then kmap (fun x => nth (tswap (fst p) (snd p) x) k 0%Z) else k.

Definition kswaps (k : list Z) : list Z := fold_left (fun k p => kswap p k) sw k.

Lemma vec_bump (k : list Z) (y x : nat) : (x < m)%nat -> (y < m)%nat -> ccol M (vec k) y x = lo * vec (bump y k) x.
Proof.
  intros Hx Hy. unfold ccol, vec, bump. rewrite nth_kmap by exact Hx. rewrite HRR by assumption.
  destruct (Nat.eqb x y); cbn [andb].
  - unfold pz. destruct (Z.leb_spec 0 (nth x k 0%Z)) as [He|He].
    + destruct (Z.ltb_spec (nth x k 0%Z) 0%Z); [lia|]. destruct (Z.ltb_spec (nth x k 0 + 1)%Z 0%Z); [lia|].
      rewrite powerRZ_add by lra. cbn [powerRZ pow]. rewrite Pos2Nat.inj_1. cbn [pow]. ring.
    + destruct (Z.ltb_spec (nth x k 0%Z) 0%Z); [|lia]. ring.
  - cbn [pow]. ring.
Qed.

Lemma fold_min_le (p : nat -> bool) (v : nat -> Z) (l : list nat) (a : Z) :
  (fold_left (fun acc x => if p x then Z.min acc (v x) else acc) l a <= a)%Z /\
  forall x, In x l -> p x = true -> (fold_left (fun acc x => if p x then Z.min acc (v x) else acc) l a <= v x)%Z.
Proof.
  revert a. induction l as [|y l IH]; intros a; cbn [fold_left]; [split; [lia|intros x []]|].
  destruct (IH (if p y then Z.min a (v y) else a)) as [H1 H2]. split.
  - destruct (p y); lia.
  - intros x [<-|Hx] Hp; [rewrite Hp in H1 |- *; lia|apply H2; assumption].
Qed.

Lemma kmin_le (k : list Z) (x : nat) : (x < m)%nat -> kon k x = true -> (kmin k <= nth x k 0)%Z.
Proof.
  intros Hx Hk. unfold kmin. apply (proj2 (fold_min_le (kon k) (fun z => nth z k 0%Z) (seq 0 m) (2 ^ 30)%Z)); [|exact Hk].
  apply in_seq. lia.
Qed.

Lemma vec_shift (k : list Z) (x : nat) : (x < m)%nat -> vec k x = powerRZ r (kmin k) * vec (kshift (kmin k) k) x.
Proof.
  intros Hx. unfold vec, kshift. rewrite nth_kmap by exact Hx. destruct (kon k x) eqn:E.
  - pose proof (kmin_le k x Hx E) as Hm. unfold kon in E. apply andb_prop in E as [_ E]. apply Z.leb_le in E.
    unfold pz. destruct (Z.ltb_spec (nth x k 0%Z) 0%Z); [lia|]. destruct (Z.ltb_spec (nth x k 0 - kmin k)%Z 0%Z); [lia|].
    transitivity (c x * (powerRZ r (kmin k) * powerRZ r (nth x k 0 - kmin k)%Z)); [|ring].
    rewrite <- powerRZ_add by lra. do 2 f_equal. ring.
  - replace (pz (-1)%Z) with 0 by reflexivity. unfold kon in E. destruct (live x) eqn:El.
    + cbn [andb] in E. unfold pz. destruct (Z.ltb_spec (nth x k 0%Z) 0%Z); [ring|]. apply Z.leb_le in H. congruence.
    + rewrite (Hlive x El). ring.
Qed.

Lemma vec_kdrop (x : nat) (k : list Z) (z : nat) : (z < m)%nat -> vec (kdrop x k) z = cdrop (vec k) x z.
Proof.
  intros Hz. unfold vec, kdrop, cdrop. rewrite nth_kmap by exact Hz. destruct (Nat.eqb z x); [|reflexivity].
  replace (pz (-1)%Z) with 0 by reflexivity. ring.
Qed.

Lemma kgone_vec (k : list Z) (x : nat) : kgone k = true -> (x < m)%nat -> vec k x = 0.
Proof.
  intros H Hx. unfold kgone in H. rewrite forallb_forall in H. specialize (H x ltac:(apply in_seq; lia)).
  apply negb_true_iff in H. unfold kon in H. unfold vec. destruct (live x) eqn:El; [|rewrite (Hlive x El); ring].
  cbn [andb] in H. unfold pz. destruct (Z.ltb_spec (nth x k 0%Z) 0%Z); [ring|]. apply Z.leb_le in H0. congruence.
Qed.

Lemma tswap_inv (a b x : nat) : tswap a b (tswap a b x) = x.
Proof.
  unfold tswap. destruct (Nat.eqb_spec x a) as [->|Ha].
  - destruct (Nat.eqb_spec b a) as [->|Hb]; [reflexivity|]. rewrite Nat.eqb_refl. reflexivity.
  - destruct (Nat.eqb_spec x b) as [->|Hb].
    + rewrite Nat.eqb_refl. reflexivity.
    + destruct (Nat.eqb_spec x a); [contradiction|]. destruct (Nat.eqb_spec x b); [contradiction|reflexivity].
Qed.

Lemma tswap_ok (a b : nat) (x : nat) : (a < m)%nat -> (b < m)%nat -> (x < m)%nat ->
  (tswap a b x < m)%nat /\ tswap a b (tswap a b x) = x.
Proof.
  intros Ha Hb Hx. split; [|apply tswap_inv]. unfold tswap.
  destruct (Nat.eqb x a); [exact Hb|]. destruct (Nat.eqb x b); assumption.
Qed.

Lemma tswap_eqb (a b : nat) (x y : nat) : Nat.eqb (tswap a b x) (tswap a b y) = Nat.eqb x y.
Proof.
  destruct (Nat.eqb_spec x y) as [->|Hne]; [apply Nat.eqb_refl|]. apply Nat.eqb_neq. intros E. apply Hne.
  rewrite <- (tswap_inv a b x), <- (tswap_inv a b y), E. reflexivity.
Qed.

Lemma kswap_gk (rem : nat) (p : nat * nat) (k : list Z) : In p sw -> G rem (kswap p k) = G rem k.
Proof.
  intros Hp. destruct (Hsw p Hp) as (Ha & Hb & Hc). destruct p as [a b]. cbn [fst snd] in *.
  unfold G, kswap. cbn [fst snd]. destruct (nth b k 0 <? nth a k 0)%Z; [|reflexivity].
  assert (Hpi : forall x, (x < n_in M)%nat -> (tswap a b x < n_in M)%nat /\ tswap a b (tswap a b x) = x)
    by (intros x Hx; apply tswap_ok; assumption).
  rewrite <- (gk_swap M (tswap a b) (tswap a b) Hpi) with (c := vec k).
  - apply gk_ext. intros x Hx. unfold vec. rewrite nth_kmap by exact Hx. f_equal.
    unfold tswap. destruct (Nat.eqb_spec x a); [subst; congruence|].
    destruct (Nat.eqb_spec x b); [subst; congruence|reflexivity].
  - rewrite Hn. exact Hpi.
  - intros x y Hx Hy. rewrite Hn in Hy. destruct (Hpi x Hx) as [Hx' _]. destruct (Hpi y Hy) as [Hy' _].
    rewrite !HRR by assumption. rewrite tswap_eqb. reflexivity.
Qed.

Lemma kswaps_gk (rem : nat) (k : list Z) : G rem (kswaps k) = G rem k.
Proof.
  unfold kswaps. assert (H : forall p, In p sw -> In p sw) by auto. revert H. generalize sw at 1 3.
  intros l Hl. revert k. induction l as [|p l IH]; intros k; [reflexivity|]. cbn [fold_left].
  rewrite IH by (intros q Hq; apply Hl; right; exact Hq). apply kswap_gk, Hl. left. reflexivity.
Qed.

(** One more run answering y, and the exponents shifted (the power of r taken out). *)
Lemma bump_gk (rem y : nat) (k : list Z) : (y < m)%nat -> gk M rem (ccol M (vec k) y) = lo * G rem (bump y k).
Proof.
  intros Hy. unfold G. rewrite (gk_ext M rem _ (fun x => lo * vec (bump y k) x)) by (intros x Hx; apply vec_bump; assumption).
  apply gk_scal, Hlo.
Qed.

Lemma shift_gk (rem : nat) (k : list Z) : G rem k = powerRZ r (kmin k) * G rem (kswaps (kshift (kmin k) k)).
Proof.
  rewrite kswaps_gk. unfold G.
  rewrite (gk_ext M rem (vec k) (fun x => powerRZ r (kmin k) * vec (kshift (kmin k) k) x)) by (intros x Hx; apply vec_shift, Hx).
  apply gk_scal, powerRZ_nonneg.
Qed.

Lemma kgone_gk (rem : nat) (k : list Z) : kgone k = true -> G rem k = 0.
Proof.
  intros H. unfold G. rewrite (gk_ext M rem (vec k) (fun x => 0 * vec k x)) by (intros x Hx; rewrite (kgone_vec k x H Hx); ring).
  rewrite gk_scal by lra. ring.
Qed.

(** Float bounds of r^z (a shift) and of [pz z] (a coefficient's power). *)
Definition fpr (up : bool) (z : Z) : F.type :=
  if (z <? 0)%Z then fnone up else Tb up z.

Lemma fpr_rnd (up : bool) (z : Z) : rnd up (fpr up z) (powerRZ r z).
Proof. unfold fpr. destruct (Z.ltb_spec z 0); [apply rnd_none, powerRZ_nonneg|apply HT, H]. Qed.

Definition fpz (up : bool) (z : Z) : F.type :=
  if (z <? 0)%Z then F.zero else Tb up z.

Lemma fpz_rnd (up : bool) (z : Z) : rnd up (fpz up z) (pz z).
Proof.
  unfold fpz, pz. destruct (Z.ltb_spec z 0); [apply rnd_zero|apply HT, H].
Qed.

Lemma rmax_vec (k : list Z) (x : nat) : Rmax 0 (vec k x) = Rmax 0 (c x) * pz (nth x k 0%Z).
Proof. unfold vec. rewrite Rmult_comm, rmax0_scal by apply pz_nonneg. ring. Qed.

Lemma rmax_vec_opp (k : list Z) (x : nat) : Rmax 0 (- vec k x) = Rmax 0 (- c x) * pz (nth x k 0%Z).
Proof.
  unfold vec. replace (- (c x * pz (nth x k 0%Z))) with (pz (nth x k 0%Z) * - c x) by ring.
  rewrite rmax0_scal by apply pz_nonneg. ring.
Qed.

Lemma cpos_vec (k : list Z) : cpos M (vec k) = rsum (map (fun x => Rmax 0 (c x) * pz (nth x k 0%Z)) (seq 0 m)).
Proof. unfold cpos. apply rsum_ext_in. intros x _. apply rmax_vec. Qed.

Lemma cneg_vec (k : list Z) : cneg M (vec k) = rsum (map (fun x => Rmax 0 (- c x) * pz (nth x k 0%Z)) (seq 0 m)).
Proof. unfold cneg. apply rsum_ext_in. intros x _. apply rmax_vec_opp. Qed.

Definition fpos (up : bool) (k : list Z) : F.type := fdot up lpos (Pb up) (fun x => fpz up (nth x k 0%Z)).
Definition fneg (up : bool) (k : list Z) : F.type := fdot up lneg (Nb up) (fun x => fpz up (nth x k 0%Z)).

Lemma fpos_rnd (up : bool) (k : list Z) : rnd up (fpos up k) (cpos M (vec k)).
Proof.
  rewrite cpos_vec, <- (rsum_filter_zero _ ppos). replace (filter ppos (seq 0 m)) with lpos by exact Hlpos.
  - apply fdot_rnd. intros x Hx. rewrite Hlpos in Hx. apply filter_In in Hx as [Hx _]. apply in_seq in Hx.
    split; [apply HP; lia|apply fpz_rnd].
  - intros x E. rewrite Rmax_left by exact (Hppos x E). ring.
Qed.

Lemma fneg_rnd (up : bool) (k : list Z) : rnd up (fneg up k) (cneg M (vec k)).
Proof.
  rewrite cneg_vec, <- (rsum_filter_zero _ pneg). replace (filter pneg (seq 0 m)) with lneg by exact Hlneg.
  - apply fdot_rnd. intros x Hx. rewrite Hlneg in Hx. apply filter_In in Hx as [Hx _]. apply in_seq in Hx.
    split; [apply HN; lia|apply fpz_rnd].
  - intros x E. pose proof (Hpneg x E). rewrite Rmax_left by lra. ring.
Qed.

Lemma rr_prob_le (x x' y : nat) : (x < n_in M)%nat -> (x' < n_in M)%nat -> (y < n_out M)%nat -> prob M x y <= r * prob M x' y.
Proof.
  intros Hx Hx' Hy. rewrite Hn in Hy. rewrite !HRR by assumption.
  assert (H1 : 0 <= lo * (r - 1)) by (apply Rmult_le_pos; lra).
  assert (H2 : 0 <= lo * (r - 1) * r) by (apply Rmult_le_pos; lra).
  assert (H3 : 0 <= lo * (r - 1) * (r + 1)) by (apply Rmult_le_pos; lra).
  destruct (Nat.eqb x y), (Nat.eqb x' y); cbn [pow]; nra.
Qed.

(** ** One state after one more run: dropped, summed, finished or kept *)
Section Side.
Variable up : bool.

Definition decide (rem : nat) (ru : F.type) (k : list Z) (w : F.type) (st : trie F.type * F.type) : trie F.type * F.type :=
  let '(nt, acc) := st in
  let pu := fpos true k in let pl := fpos false k in
  let nu := fneg true k in let nl := fneg false k in
  if fle (fmulr true pu ru) nl then (nt, acc)
  else if fle (fmulr true nu ru) pl then
    fseq (faddr up acc (fmulr up w (fsubr up (if up then pu else pl) (if up then nl else nu)))) (fun a => (nt, a))
  else if Nat.eqb rem 0 || fle (fmulr true w pu) tau then
    (if up then fseq (faddr true acc (fmulr true w pu)) (fun a => (nt, a)) else (nt, acc))
  else (tins (faddr up) (khash k) k w nt, acc).

(** What a pair (trie, sum) stands for, at [rem] runs to go, against a ghost pair. *)
Definition stands (rem : nat) (st : trie F.type * F.type) (V : R) : Prop :=
  exists tg a, trel up (fst st) tg /\ rnd up (snd st) a /\ rbound up (a + tsum (G rem) tg) V.

Lemma stands_of (rem : nat) (st : trie F.type * F.type) (tg : trie R) (a : R) :
  trel up (fst st) tg -> rnd up (snd st) a -> stands rem st (a + tsum (G rem) tg).
Proof. intros H1 H2. exists tg, a. split; [exact H1|split; [exact H2|apply rbound_eq; reflexivity]]. Qed.

Lemma stands_weaken (rem : nat) (st : trie F.type * F.type) (V V' : R) : stands rem st V -> rbound up V V' -> stands rem st V'.
Proof. intros (tg & a & H1 & H2 & H3) H. exists tg, a. split; [exact H1|split; [exact H2|eapply rbound_trans; eassumption]]. Qed.

Lemma decide_ok (rem : nat) (ru : F.type) (k : list Z) (w : F.type) (wg : R) (st : trie F.type * F.type) (tg : trie R) (a : R) :
  rnd true ru (r ^ rem) -> trel up (fst st) tg -> rnd up (snd st) a -> rnd up w wg ->
  stands rem (decide rem ru k w st) (a + tsum (G rem) tg + wg * G rem k).
Proof.
  intros Hru Ht Ha Hw. destruct st as [nt acc]. cbn [fst snd] in Ht, Ha. unfold decide. rewrite !fseq_eq.
  pose proof (rnd_nonneg up w wg Hw) as Hw0.
  assert (Hr0 : 0 <= r) by lra.
  destruct (fle (fmulr true (fpos true k) ru) (fneg false k)) eqn:Ed.
  { (* dead *)
    apply fle_rnd with (a := cpos M (vec k) * r ^ rem) (b := cneg M (vec k)) in Ed;
      [|apply fmul_rnd; [apply fpos_rnd|exact Hru]|apply fneg_rnd].
    unfold G at 2. rewrite (gk_dead M HM r rr_prob_le Hr0 rem (vec k) Ed), Rmult_0_r, Rplus_0_r.
    apply stands_of; assumption. }
  destruct (fle (fmulr true (fneg true k) ru) (fpos false k)) eqn:Es.
  { (* sure *)
    apply fle_rnd with (a := cneg M (vec k) * r ^ rem) (b := cpos M (vec k)) in Es;
      [|apply fmul_rnd; [apply fneg_rnd|exact Hru]|apply fpos_rnd].
    assert (Hle : cneg M (vec k) <= cpos M (vec k)).
    { pose proof (pow_R1_Rle r rem Hr1). pose proof (rnd_nonneg _ _ _ (fneg_rnd true k)). nra. }
    unfold G at 2. rewrite (gk_sure M HM r rr_prob_le Hr0 rem (vec k) Es), csum_pos_neg.
    replace (a + tsum (G rem) tg + wg * (cpos M (vec k) - cneg M (vec k)))
      with (a + wg * (cpos M (vec k) - cneg M (vec k)) + tsum (G rem) tg) by ring.
    apply stands_of; [exact Ht|]. cbn [snd]. apply fadd_rnd; [exact Ha|]. apply fmul_rnd; [exact Hw|].
    apply fsub_rnd; [destruct up; apply fpos_rnd|destruct up; apply fneg_rnd|exact Hle]. }
  destruct (Nat.eqb rem 0 || fle (fmulr true w (fpos true k)) tau).
  { (* finished *)
    unfold stands. cbn [fst snd]. destruct up eqn:Eu.
    - exists tg, (a + wg * cpos M (vec k)). split; [exact Ht|split].
      + apply fadd_rnd; [exact Ha|apply fmul_rnd; [exact Hw|apply fpos_rnd]].
      + cbn [rbound]. pose proof (gk_le_pos M HM rem (vec k)). change (G rem k) with (gk M rem (vec k)). nra.
    - exists tg, a. split; [exact Ht|split; [exact Ha|]].
      cbn [rbound]. pose proof (gk_nonneg M rem (vec k)). change (G rem k) with (gk M rem (vec k)). nra. }
  (* kept *)
  rewrite Rplus_assoc, <- tins_sum with (p := khash k). apply stands_of; [|exact Ha]. cbn [fst]. apply tins_rel; assumption.
Qed.

(** ** Dropping a coefficient

    A coefficient of a new state whose mass (its weight times |c(x)|·r^key(x)) is below [tau]
    is set to 0 ([kdrop]; [gk_drop_le], [gk_drop_ge]).  Rounding up, the mass goes into the
    sum: gk can only have been lowered by it.  Rounding down, it goes into a debt, rounded
    up, that the final comparison subtracts: gk can only have been raised by it. *)

(** A run's state: the trie of states kept and the sum, rounded the way [up] says, and the
    debt (rounded up; 0 when rounding up). *)
Definition cstate : Type := (trie F.type * F.type) * F.type.

Definition stands2 (rem : nat) (s : cstate) (V : R) : Prop :=
  exists b, rnd true (snd s) b /\ stands rem (fst s) (V + b).

Lemma stands2_weaken (rem : nat) (s : cstate) (V V' : R) : stands2 rem s V -> rbound up V V' -> stands2 rem s V'.
Proof.
  intros (b & H1 & H2) H. exists b. split; [exact H1|]. eapply stands_weaken; [exact H2|].
  apply rbound_plus; [exact H|apply rbound_eq; reflexivity].
Qed.

Definition cut1 (w : F.type) (ks : list Z * cstate) (x : nat) : list Z * cstate :=
  let '(k, ((nt, acc), debt)) := ks in
  let e := nth x k 0%Z in
  if kon k x then
    let ms := fmulr true w (fmulr true (faddr true (Pb true x) (Nb true x)) (fpz true e)) in
    if fle ms tau then
      (if up then fseq (faddr true acc ms) (fun a => (kdrop x k, ((nt, a), debt)))
       else fseq (faddr true debt ms) (fun b => (kdrop x k, ((nt, acc), b))))
    else ks
  else ks.

Definition cut (w : F.type) (k : list Z) (s : cstate) : list Z * cstate := fold_left (cut1 w) (seq 0 m) (k, s).

(** The state (k, s) with a new state of key k and weight [wg] not yet added. *)
Definition cinv (rem : nat) (wg : R) (ks : list Z * cstate) (V : R) : Prop :=
  exists X, stands2 rem (snd ks) X /\ rbound up (X + wg * G rem (fst ks)) V.

Lemma cut1_ok (rem : nat) (w : F.type) (wg : R) (ks : list Z * cstate) (x : nat) (V : R) :
  (x < m)%nat -> rnd true w wg -> cinv rem wg ks V -> cinv rem wg (cut1 w ks x) V.
Proof.
  intros Hx Hw Hc. destruct ks as [k [[nt acc] debt]]. unfold cut1. cbv beta iota zeta.
  destruct (kon k x); [|exact Hc].
  match goal with |- context [fle ?ms tau] => destruct (fle ms tau) end; [|exact Hc].
  rewrite !fseq_eq. pose proof (rnd_nonneg _ _ _ Hw) as Hw0.
  set (e := nth x k 0%Z). set (mr := wg * ((Rmax 0 (c x) + Rmax 0 (- c x)) * pz e)).
  assert (Hm : rnd true (fmulr true w (fmulr true (faddr true (Pb true x) (Nb true x)) (fpz true e))) mr).
  { apply fmul_rnd; [exact Hw|apply fmul_rnd; [apply fadd_rnd; [apply HP|apply HN]; exact Hx|apply fpz_rnd]]. }
  pose proof (Rmax_l 0 (c x)). pose proof (Rmax_l 0 (- c x)). pose proof (pz_nonneg e).
  assert (Hle : wg * G rem k <= wg * G rem (kdrop x k) + mr).
  { unfold mr, G. rewrite <- Rmult_plus_distr_l. apply Rmult_le_compat_l; [exact Hw0|].
    rewrite (gk_ext M rem (vec (kdrop x k)) (cdrop (vec k) x)) by (intros z Hz; apply vec_kdrop, Hz).
    eapply Rle_trans; [apply (gk_drop_le M HM), Hx|]. rewrite rmax_vec. fold e. nra. }
  assert (Hge : wg * G rem (kdrop x k) <= wg * G rem k + mr).
  { unfold mr, G. rewrite <- Rmult_plus_distr_l. apply Rmult_le_compat_l; [exact Hw0|].
    rewrite (gk_ext M rem (vec (kdrop x k)) (cdrop (vec k) x)) by (intros z Hz; apply vec_kdrop, Hz).
    eapply Rle_trans; [apply (gk_drop_ge M HM), Hx|]. rewrite rmax_vec_opp. fold e. nra. }
  destruct Hc as (X & (b & Hb & tg & a & Ht & Ha & Hr) & HX). cbn [fst snd] in *.
  unfold cinv, stands2, stands. cbn [fst snd]. destruct up.
  - exists (X + mr). split.
    + exists b. split; [exact Hb|]. exists tg, (a + mr). split; [exact Ht|split; [apply fadd_rnd; assumption|]].
      cbn [rbound fst snd] in *. lra.
    + cbn [rbound fst snd] in *. lra.
  - exists (X - mr). split.
    + exists (b + mr). split; [apply fadd_rnd; assumption|]. exists tg, a. split; [exact Ht|split; [exact Ha|]].
      cbn [rbound fst snd] in *. lra.
    + cbn [rbound fst snd] in *. lra.
Qed.

Lemma cut_ok (rem : nat) (w : F.type) (wg : R) (k : list Z) (s : cstate) (V : R) :
  rnd true w wg -> cinv rem wg (k, s) V -> cinv rem wg (cut w k s) V.
Proof.
  intros Hw. unfold cut. assert (Hl : forall x, In x (seq 0 m) -> (x < m)%nat) by (intros x Hx; apply in_seq in Hx; lia).
  revert Hl. generalize (seq 0 m) (k, s). intros l. induction l as [|x l IH]; intros ks Hl Hc; cbn [fold_left]; [exact Hc|].
  apply IH; [intros z Hz; apply Hl; right; exact Hz|]. apply cut1_ok; [apply Hl; left; reflexivity|exact Hw|exact Hc].
Qed.

(** The state (k, w) after one more run answering y: its small coefficients dropped, then
    shifted, then decided. *)
Definition extend (rem : nat) (ru : F.type) (y : nat) (k : list Z) (w : F.type) (s : cstate) : cstate :=
  let w1 := fmulr up w (lob up) in
  let '(k2, s2) := cut w1 (bump y k) s in
  if kgone k2 then s2 else
  let d := kmin k2 in
  let '(st, debt) := s2 in (decide rem ru (kswaps (kshift d k2)) (fmulr up w1 (fpr up d)) st, debt).

Lemma extend_ok (rem : nat) (ru : F.type) (y : nat) (k : list Z) (w : F.type) (wg : R) (s : cstate) (V : R) :
  rnd true ru (r ^ rem) -> (y < m)%nat -> rnd up w wg -> stands2 rem s V -> stands2 rem (extend rem ru y k w s) (V + wg * gk M rem (ccol M (vec k) y)).
Proof.
  intros Hru Hy Hw Hs. rewrite bump_gk by exact Hy. unfold extend.
  assert (Hw1 : rnd up (fmulr up w (lob up)) (wg * lo)) by (apply fmul_rnd; [exact Hw|apply Hlob]).
  destruct (rnd_ghost up _ _ Hw1) as (wc & Hc1 & Hc2 & Hc3).
  assert (Hgh : rbound up (V + wc * G rem (bump y k)) (V + wg * (lo * G rem (bump y k)))).
  { rewrite <- Rmult_assoc. apply ghost_rbound; [exact Hc3|apply gk_nonneg]. }
  assert (Hcut : cinv rem wc (bump y k, s) (V + wc * G rem (bump y k))).
  { exists V. split; [exact Hs|apply rbound_eq; reflexivity]. }
  apply (cut_ok rem _ wc (bump y k) s _ Hc1) in Hcut.
  destruct (cut (fmulr up w (lob up)) (bump y k) s) as [k2 s2]. destruct Hcut as (X & HX & Hb). cbn [fst snd] in HX, Hb.
  destruct (kgone k2) eqn:Eg.
  - rewrite (kgone_gk rem k2 Eg), Rmult_0_r, Rplus_0_r in Hb.
    eapply stands2_weaken; [exact HX|]. eapply rbound_trans; [exact Hb|exact Hgh].
  - destruct s2 as [st debt]. destruct HX as (b & Hdb & tg & a & Ht & Ha & Hr). cbn [fst snd] in *.
    exists b. split; [exact Hdb|]. cbn [fst].
    eapply stands_weaken; [apply (decide_ok rem ru _ _ (wc * powerRZ r (kmin k2)) st tg a Hru Ht Ha)|].
    + apply fmul_rnd; [exact Hc2|apply fpr_rnd].
    + replace (wc * powerRZ r (kmin k2) * G rem (kswaps (kshift (kmin k2) k2))) with (wc * G rem k2)
        by (rewrite (shift_gk rem k2); ring).
      eapply rbound_trans; [apply (rbound_shift up _ X _ _ b Hr Hb)|].
      apply rbound_plus; [exact Hgh|apply rbound_eq; reflexivity].
Qed.

Definition extend_all (rem : nat) (ru : F.type) (k : list Z) (w : F.type) (s : cstate) : cstate :=
  fold_left (fun s y => extend rem ru y k w s) (seq 0 m) s.

Lemma extend_all_ok (rem : nat) (ru : F.type) (k : list Z) (w : F.type) (wg : R) (s : cstate) (V : R) :
  rnd true ru (r ^ rem) -> rnd up w wg -> stands2 rem s V -> stands2 rem (extend_all rem ru k w s) (V + wg * G (S rem) k).
Proof.
  intros Hru Hw. unfold extend_all, G. rewrite gk_S, Hn. change (n_in M) with m.
  assert (Hl : forall y, In y (seq 0 m) -> (y < m)%nat) by (intros y Hy; apply in_seq in Hy; lia).
  revert Hl. generalize (seq 0 m). intros l. revert s V.
  induction l as [|y l IH]; intros s V Hl Hs; cbn [fold_left map].
  - rewrite rsum_nil, Rmult_0_r, Rplus_0_r. exact Hs.
  - rewrite rsum_cons. replace (V + wg * (gk M rem (ccol M (vec k) y) + rsum (map (fun y0 => gk M rem (ccol M (vec k) y0)) l)))
      with ((V + wg * gk M rem (ccol M (vec k) y)) + wg * rsum (map (fun y0 => gk M rem (ccol M (vec k) y0)) l)) by ring.
    apply IH; [intros z Hz; apply Hl; right; exact Hz|]. apply extend_ok; [exact Hru|apply Hl; left; reflexivity|exact Hw|exact Hs].
Qed.

Fixpoint steps (rem : nat) (ru : F.type) (L : list (list Z * F.type)) (s : cstate) : cstate :=
  match L with
  | [] => s
  | (k, w) :: L' => let '((nt, acc), debt) := extend_all rem ru k w s in steps rem ru L' ((nt, acc), debt)
  end.

Lemma steps_ok (rem : nat) (ru : F.type) (L : list (list Z * F.type)) (Lg : list (list Z * R)) (s : cstate) (V : R) :
  rnd true ru (r ^ rem) -> Forall2 (krel up) L Lg -> stands2 rem s V -> stands2 rem (steps rem ru L s) (V + ksum (G (S rem)) Lg).
Proof.
  intros Hru HL. revert s V. induction HL as [|[k w] [k' wg] L Lg [Hk Hw] HL IH]; intros s V Hs; cbn [steps].
  - unfold ksum. cbn [map]. rewrite rsum_nil, Rplus_0_r. exact Hs.
  - cbn [fst snd] in Hk, Hw. subst k'. unfold ksum. cbn [map]. rewrite rsum_cons. cbn [fst snd].
    rewrite <- Rplus_assoc. pose proof (extend_all_ok rem ru k w wg s V Hru Hw Hs) as H.
    destruct (extend_all rem ru k w s) as [[nt acc] debt]. apply IH, H.
Qed.

Fixpoint levels (rem : nat) (t : trie F.type) (acc debt : F.type) : cstate :=
  match rem with
  | O => ((t, acc), debt)
  | S r' => let '((nt, a), b) := steps r' (Tb true (Z.of_nat r')) (telems t) ((TL, acc), debt) in levels r' nt a b
  end.

Lemma levels_ok (rem : nat) (t : trie F.type) (acc debt : F.type) (tg : trie R) (a b : R) :
  trel up t tg -> rnd up acc a -> rnd true debt b -> stands2 0 (levels rem t acc debt) (a - b + tsum (G rem) tg).
Proof.
  revert t acc debt tg a b. induction rem as [|rem IH]; intros t acc debt tg a b Ht Ha Hb; cbn [levels].
  - exists b. split; [exact Hb|]. replace (a - b + tsum (G 0) tg + b) with (a + tsum (G 0) tg) by ring.
    apply stands_of; assumption.
  - assert (Hs : stands2 rem ((TL, acc), debt) (a - b + 0)).
    { exists b. split; [exact Hb|]. replace (a - b + 0 + b) with (a + tsum (G rem) TL) by (unfold tsum; cbn [telems]; rewrite ksum_nil; ring).
      apply stands_of; [exact I|exact Ha]. }
    assert (Hru : rnd true (Tb true (Z.of_nat rem)) (r ^ rem)) by (rewrite pow_powerRZ; apply HT, Nat2Z.is_nonneg).
    pose proof (steps_ok rem _ (telems t) (telems tg) _ _ Hru (telems_rel up t tg Ht) Hs) as H.
    destruct (steps rem (Tb true (Z.of_nat rem)) (telems t) ((TL, acc), debt)) as [[nt a'] b'].
    destruct H as (b'' & Hb'' & tg' & a'' & H1 & H2 & H3). cbn [fst snd] in *.
    eapply stands2_weaken; [apply (IH nt a' b' tg' a'' b''); assumption|].
    replace (a'' - b'' + tsum (G rem) tg') with ((a'' + tsum (G rem) tg') - b'') by ring. apply rbound_debt.
    replace (a - b + tsum (G (S rem)) tg + b'') with (a - b + 0 + ksum (G (S rem)) (telems tg) + b'') by (unfold tsum; ring).
    exact H3.
Qed.

Definition run (K : nat) (one : F.type) : cstate :=
  levels K (TN [(kmap (fun _ => 0%Z), one)] TL TL) F.zero F.zero.

(** What a run that keeps no state proves: its sum less its debt bounds [gk K c] from the
    side [up] says. *)
Theorem run_ok (K : nat) (one : F.type) :
  rnd up one 1 -> tempty (fst (fst (run K one))) = true ->
  exists a b, rnd up (snd (fst (run K one))) a /\ rnd true (snd (run K one)) b /\ rbound up (a - b) (gk M K c).
Proof.
  intros H1 He. pose proof (levels_ok K (TN [(kmap (fun _ => 0%Z), one)] TL TL) F.zero F.zero (TN [(kmap (fun _ => 0%Z), 1)] TL TL) 0 0)
    as (b & Hb & tg & a & Ht & Ha & Hok).
  - cbn. split; [constructor; [split; [reflexivity|exact H1]|constructor]|split; exact I].
  - apply rnd_zero.
  - apply rnd_zero.
  - exists a, b. split; [exact Ha|split; [exact Hb|]]. rewrite (trel_empty up _ tg (G 0) Ht He), Rplus_0_r in Hok.
    apply rbound_debt. eapply rbound_trans; [exact Hok|]. apply rbound_eq. f_equal.
    unfold tsum, ksum. cbn [telems app map fst snd]. rewrite rsum_cons, rsum_nil.
    unfold G. rewrite Rplus_0_r, Rmult_1_l, Rminus_0_r, Rplus_0_l. apply gk_ext. intros x Hx. unfold vec.
    rewrite nth_kmap by exact Hx. replace (pz 0) with 1 by reflexivity. ring.
Qed.

End Side.
End Coef.

(** ** The check, from the table, the priors and t *)

Definition qpos (q : Q) : Q := if Qle_bool 0 q then q else 0.

Lemma qpos_r (q : Q) : Q2R (qpos q) = Rmax 0 (Q2R q).
Proof.
  unfold qpos. destruct (Qle_bool 0 q) eqn:E.
  - apply Qle_bool_imp_le, Qle_Rle in E. rewrite q2r_0 in E. rewrite Rmax_right; [reflexivity|lra].
  - rewrite q2r_0, Rmax_left; [reflexivity|].
    assert (H : ~ (0 <= q)%Q) by (intros H; apply Qle_bool_iff in H; congruence).
    apply Qnot_le_lt, Qlt_Rlt in H. rewrite q2r_0 in H. lra.
Qed.

(** Randomized response: as many outputs as inputs, Pr[y = x] = lo·r, every other output lo. *)
Definition check_rr (M : fmech) (loq rq : Q) : bool :=
  Nat.eqb (n_out M) (n_in M) && Qle_bool 0 loq && Qle_bool 1 rq &&
  forallb (fun x => forallb (fun y => Qeq_bool (entry M x y) (if Nat.eqb x y then loq * rq else loq)%Q)
                            (seq 0 (n_in M))) (seq 0 (n_in M)).

Lemma rr_of_check (M : fmech) (loq rq : Q) :
  check_rr M loq rq = true ->
  n_out M = n_in M /\ 0 <= Q2R loq /\ 1 <= Q2R rq /\
  forall x y, (x < n_in M)%nat -> (y < n_in M)%nat -> prob M x y = Q2R loq * Q2R rq ^ (if Nat.eqb x y then 1 else 0).
Proof.
  unfold check_rr. rewrite !andb_true_iff. intros [[[H1 H2] H3] H4].
  apply Nat.eqb_eq in H1. apply Qle_bool_imp_le, Qle_Rle in H2, H3. rewrite q2r_0 in H2. rewrite q2r_1 in H3.
  split; [exact H1|split; [exact H2|split; [exact H3|]]]. intros x y Hx Hy.
  rewrite forallb_forall in H4. specialize (H4 x ltac:(apply in_seq; lia)). rewrite forallb_forall in H4.
  specialize (H4 y ltac:(apply in_seq; lia)). apply Qeq_bool_eq, Qeq_eqR in H4. unfold prob. rewrite H4.
  destruct (Nat.eqb x y); cbn [pow]; [rewrite Q2R_mult|]; ring.
Qed.

Lemma nth_map_lt {A B} (h : A -> B) (l : list A) (x : nat) (d : A) (d' : B) :
  (x < length l)%nat -> nth x (map h l) d' = h (nth x l d).
Proof. intros Hx. rewrite (nth_indep _ d' (h d)) by (rewrite map_length; exact Hx). apply map_nth. Qed.

Section Run.
Variables (M : fmech) (loq rq : Q) (swaps : list (nat * nat)) (tau : F.type) (K : nat).

Definition coefs (fi fj : list Q) (t : Q) : list Q := map (fun x => nth x fi 0 - t * nth x fj 0)%Q (seq 0 (n_in M)).

(** The run on the coefficients g_i − t·g_j: every rational bound computed once. *)
Definition coef_run (up : bool) (fi fj : list Q) (t : Q) : cstate :=
  let cs := coefs fi fj t in
  let lv := map (fun q => negb (Qeq_bool q 0)) cs in
  let sw := filter (fun p => Nat.ltb (fst p) (n_in M) && Nat.ltb (snd p) (n_in M) &&
                             Qeq_bool (nth (fst p) cs 0%Q) (nth (snd p) cs 0%Q)) swaps in
  let PT := map (fun q => fbnd true (iq (qpos q))) cs in let PF := map (fun q => fbnd false (iq (qpos q))) cs in
  let NT := map (fun q => fbnd true (iq (qpos (- q)))) cs in let NF := map (fun q => fbnd false (iq (qpos (- q)))) cs in
  let TT := pmk true (fbnd true (iq rq)) (S (Nat.log2 K)) (fbnd true (iq rq)) in
  let TF := pmk false (fbnd false (iq rq)) (S (Nat.log2 K)) (fbnd false (iq rq)) in
  let OT := fbnd true (iq 1) in let OF := fbnd false (iq 1) in
  let LT := fbnd true (iq loq) in let LF := fbnd false (iq loq) in
  let pp := map (fun q => negb (Qle_bool q 0)) cs in let pn := map (fun q => negb (Qle_bool 0 q)) cs in
  let lp := filter (fun x => nth x pp false) (seq 0 (n_in M)) in
  let ln := filter (fun x => nth x pn false) (seq 0 (n_in M)) in
  run M (fun x => nth x lv false) sw (fun u => if u then LT else LF)
    (fun u x => nth x (if u then PT else PF) (fnone u)) (fun u x => nth x (if u then NT else NF) (fnone u))
    (fun u => if u then ppow true OT TT else ppow false OF TF) tau lp ln up K (if up then OT else OF).

Lemma coef_run_ok (up : bool) (fi fj : list Q) (t : Q) :
  check_distr M = true -> check_rr M loq rq = true -> tempty (fst (fst (coef_run up fi fj t))) = true ->
  exists a b, rnd up (snd (fst (coef_run up fi fj t))) a /\ rnd true (snd (coef_run up fi fj t)) b /\
    rbound up (a - b) (gk M K (fun x => Q2R (nth x (coefs fi fj t) 0%Q))).
Proof.
  intros HD HR He. destruct (rr_of_check M loq rq HR) as (Hn & Hlo & Hr1 & HRR).
  set (cs := coefs fi fj t) in *. set (c := fun x => Q2R (nth x cs 0%Q)).
  assert (Hlen : length cs = n_in M) by (unfold cs, coefs; rewrite map_length, seq_length; reflexivity).
  assert (Hrq : forall u, rnd u (fbnd u (iq rq)) (Q2R rq)) by (intros u; apply rnd_q; lra).
  assert (H1 : forall u, rnd u (fbnd u (iq 1)) 1) by (intros u; pose proof (rnd_q u 1) as H; rewrite q2r_1 in H; apply H; lra).
  unfold coef_run in *. fold cs in He |- *.
  apply (run_ok M (Q2R loq) (Q2R rq) c) with (ppos := fun x => nth x (map (fun q => negb (Qle_bool q 0)) cs) false)
    (pneg := fun x => nth x (map (fun q => negb (Qle_bool 0 q)) cs) false); auto; try solve [destruct up; apply H1].
  - apply distr_of_check, HD.
  - intros x E. unfold c. destruct (Nat.lt_ge_cases x (length cs)) as [Hx|Hx].
    + rewrite (nth_map_lt _ _ _ 0%Q) in E by exact Hx.
      apply negb_false_iff, Qeq_bool_eq, Qeq_eqR in E. rewrite E. apply q2r_0.
    + rewrite nth_overflow by exact Hx. apply q2r_0.
  - intros p Hp. apply filter_In in Hp as [_ Hp]. rewrite !andb_true_iff in Hp. destruct Hp as [[Ha Hb] Hc].
    apply Nat.ltb_lt in Ha, Hb. apply Qeq_bool_eq, Qeq_eqR in Hc. unfold c. auto.
  - intros u. destruct u; apply rnd_q; exact Hlo.
  - intros u x Hx. rewrite <- Hlen in Hx. destruct u;
      (rewrite (nth_map_lt _ _ _ 0%Q) by exact Hx;
       unfold c; rewrite <- qpos_r; apply rnd_q; rewrite qpos_r; apply Rmax_l).
  - intros u x Hx. rewrite <- Hlen in Hx. destruct u;
      (rewrite (nth_map_lt _ _ _ 0%Q) by exact Hx;
       unfold c; rewrite <- Q2R_opp, <- qpos_r; apply rnd_q; rewrite qpos_r; apply Rmax_l).
  - intros u z Hz. destruct u; apply ppow_rnd; auto; lra.
  - intros x E. unfold c. destruct (Nat.lt_ge_cases x (length cs)) as [Hx|Hx].
    + rewrite (nth_map_lt _ _ _ 0%Q) in E by exact Hx.
      apply negb_false_iff, Qle_bool_imp_le, Qle_Rle in E. rewrite q2r_0 in E. exact E.
    + rewrite nth_overflow by exact Hx. rewrite q2r_0. lra.
  - intros x E. unfold c. destruct (Nat.lt_ge_cases x (length cs)) as [Hx|Hx].
    + rewrite (nth_map_lt _ _ _ 0%Q) in E by exact Hx.
      apply negb_false_iff, Qle_bool_imp_le, Qle_Rle in E. rewrite q2r_0 in E. exact E.
    + rewrite nth_overflow by exact Hx. rewrite q2r_0. lra.
Qed.

Definition coef_le (fi fj : list Q) (t delta : Q) : bool :=
  let res := coef_run true fi fj t in tempty (fst (fst res)) && fle (snd (fst res)) (fbnd false (iq delta)).

(** Rounded down: the sum above δ plus the debt. *)
Definition coef_gt (fi fj : list Q) (t delta : Q) : bool :=
  let res := coef_run false fi fj t in
  tempty (fst (fst res)) && flt (faddr true (fbnd true (iq delta)) (snd res)) (snd (fst res)).

(** hs(t) of the rows i, j of K runs on the same database is [gk K] at the coefficients. *)
Lemma hs_coefs (f f' : list Q) (i j : nat) (t : Q) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (j < 2)%nat ->
  hs (fmech_cw (fmech_power M K) f f') i j (Q2R t) =
  gk M K (fun x => Q2R (nth x (coefs (cw_weights f f' i) (cw_weights f f' j) t) 0%Q)).
Proof.
  intros W Hf Hf' Hi Hj. rewrite hs_stream_gk by assumption. apply gk_ext. intros x Hx.
  unfold coefs. rewrite nth_map_seq by exact Hx. unfold wt. rewrite Q2R_minus, Q2R_mult. reflexivity.
Qed.

Lemma coef_le_ok (f f' : list Q) (i j : nat) (t delta : Q) :
  check_distr M = true -> check_rr M loq rq = true -> length f = n_in M -> length f' = n_in M ->
  (i < 2)%nat -> (j < 2)%nat -> 0 <= Q2R delta ->
  coef_le (cw_weights f f' i) (cw_weights f f' j) t delta = true ->
  hs (fmech_cw (fmech_power M K) f f') i j (Q2R t) <= Q2R delta.
Proof.
  intros HD HR Hf Hf' Hi Hj Hd Hc. unfold coef_le in Hc. apply andb_prop in Hc as [He Hle].
  destruct (coef_run_ok true _ _ t HD HR He) as (a & b & Ha & Hb & Hok). cbn [rbound] in Hok.
  rewrite (hs_coefs f f' i j t (proj1 (wf_of_check_distr M HD)) Hf Hf' Hi Hj).
  pose proof (fle_rnd _ _ a (Q2R delta) Ha (rnd_q false delta Hd) Hle). pose proof (rnd_nonneg _ _ _ Hb). lra.
Qed.

Lemma coef_gt_ok (f f' : list Q) (i j : nat) (t delta : Q) :
  check_distr M = true -> check_rr M loq rq = true -> length f = n_in M -> length f' = n_in M ->
  (i < 2)%nat -> (j < 2)%nat -> 0 <= Q2R delta ->
  coef_gt (cw_weights f f' i) (cw_weights f f' j) t delta = true ->
  Q2R delta < hs (fmech_cw (fmech_power M K) f f') i j (Q2R t).
Proof.
  intros HD HR Hf Hf' Hi Hj Hd Hc. unfold coef_gt in Hc. apply andb_prop in Hc as [He Hlt].
  destruct (coef_run_ok false _ _ t HD HR He) as (a & b & Ha & Hb & Hok). cbn [rbound] in Hok.
  rewrite (hs_coefs f f' i j t (proj1 (wf_of_check_distr M HD)) Hf Hf' Hi Hj).
  pose proof (flt_rnd _ _ (Q2R delta + b) a (fadd_rnd true _ _ _ _ (rnd_q true delta Hd) Hb) Ha Hlt). lra.
Qed.

(** (ε, δ)-CW-privacy of K runs on the same database, both orders of the rows, at 1 ≤ t ≤ e^ε. *)
Definition check_coef_dp (f f' : list Q) (t delta : Q) : bool :=
  check_distr M && check_prior (n_in M) f && check_prior (n_in M) f' && check_rr M loq rq &&
  Qle_bool 1 t && Qle_bool 0 delta && coef_le f f' t delta && coef_le f' f t delta.

(** Not (ε, δ): the rows ([dir] false: database then scrubbed; true: the other order) at t ≥ e^ε. *)
Definition check_coef_refute (f f' : list Q) (t delta : Q) (dir : bool) : bool :=
  check_distr M && check_prior (n_in M) f && check_prior (n_in M) f' && check_rr M loq rq &&
  Qle_bool 0 t && Qle_bool 0 delta && (if dir then coef_gt f' f t delta else coef_gt f f' t delta).

Lemma t_subdistr' (f f' : list Q) :
  check_distr M = true -> prior (n_in M) f -> prior (n_in M) f' -> subdistr (fmech_cw (fmech_power M K) f f').
Proof.
  intros HD Hf Hf'. destruct (wf_of_check_distr M HD) as [W HM].
  apply cw_subdistr; [apply power_wf', W|apply power_subdistr; assumption|apply prior_power, Hf|apply prior_power, Hf'].
Qed.

(** Both orders of the rows at 1 ≤ t ≤ e^ε within δ: (ε, δ)-CW-privacy. *)
Lemma cw_coef_dp_of_hs (f f' : list Q) (t delta : Q) (eps : R) :
  Q2R t <= exp eps -> check_distr M = true -> prior (n_in M) f -> prior (n_in M) f' -> 1 <= Q2R t -> 0 <= Q2R delta ->
  hs (fmech_cw (fmech_power M K) f f') 0 1 (Q2R t) <= Q2R delta ->
  hs (fmech_cw (fmech_power M K) f f') 1 0 (Q2R t) <= Q2R delta ->
  cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht HD Hf Hf' Ht1 Hd H01 H10.
  pose proof (t_subdistr' f f' HD Hf Hf') as HT.
  assert (He : 1 <= exp eps) by lra.
  intros i j Hi Hj _ S. cbn [fmech_cw n_in] in Hi, Hj.
  assert (Hpair : forall i' j', (i' < 2)%nat -> (j' < 2)%nat ->
            hs (fmech_cw (fmech_power M K) f f') i' j' (Q2R t) <= Q2R delta ->
            pr (fmech_cw (fmech_power M K) f f') i' S <= exp eps * pr (fmech_cw (fmech_power M K) f f') j' S + Q2R delta).
  { intros i' j' Hi' Hj' Hh.
    eapply Rle_trans; [apply pr_le_hs; [intros y Hy; apply (proj1 (HT j' ltac:(cbn; lia))), Hy|apply exp_nonneg]|].
    apply Rplus_le_compat_l. eapply Rle_trans; [|exact Hh].
    apply hs_anti; [intros y Hy; apply (proj1 (HT j' ltac:(cbn; lia))), Hy|exact Ht]. }
  destruct i as [|[|]], j as [|[|]]; try lia.
  - pose proof (pr_nonneg _ 0%nat S (proj1 (HT 0%nat ltac:(cbn; lia)))). nra.
  - apply Hpair; [lia|lia|exact H01].
  - apply Hpair; [lia|lia|exact H10].
  - pose proof (pr_nonneg _ 1%nat S (proj1 (HT 1%nat ltac:(cbn; lia)))). nra.
Qed.

Theorem cw_coef_dp_of_check (f f' : list Q) (t delta : Q) (eps : R) :
  Q2R t <= exp eps -> check_coef_dp f f' t delta = true -> cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht Hc. unfold check_coef_dp in Hc. rewrite !andb_true_iff in Hc.
  destruct Hc as [[[[[[[HD Hf] Hf'] HR] Ht1] Hd0] H01] H10].
  apply prior_of_check in Hf, Hf'. apply Qle_bool_imp_le, Qle_Rle in Ht1, Hd0. rewrite q2r_1 in Ht1. rewrite q2r_0 in Hd0.
  apply (cw_coef_dp_of_hs f f' t delta eps); auto.
  - apply (coef_le_ok f f' 0 1 t delta HD HR (proj1 Hf) (proj1 Hf')); auto.
  - apply (coef_le_ok f f' 1 0 t delta HD HR (proj1 Hf) (proj1 Hf')); auto.
Qed.

(** ** One order for both, by a symmetry of the priors

    An involution [p] of the inputs that swaps the priors (f' = f ∘ p and f = f' ∘ p):
    randomized response cannot tell inputs apart, so the rows (alt, D) at t have the same
    hs as (D, alt) ([gk_swap]), and one run of the recursion proves both orders. *)
Definition pfun (p : list nat) (x : nat) : nat := nth x p 0%nat.

Definition check_sym (p : list nat) (f f' : list Q) : bool :=
  forallb (fun x => Nat.ltb (pfun p x) (n_in M) && Nat.eqb (pfun p (pfun p x)) x &&
                    Qeq_bool (nth x f' 0) (nth (pfun p x) f 0) && Qeq_bool (nth x f 0) (nth (pfun p x) f' 0))%Q
    (seq 0 (n_in M)).

Lemma gk_sym (p : list nat) (f f' : list Q) (t : Q) :
  check_rr M loq rq = true -> check_sym p f f' = true ->
  gk M K (fun x => Q2R (nth x (coefs f' f t) 0%Q)) = gk M K (fun x => Q2R (nth x (coefs f f' t) 0%Q)).
Proof.
  intros HR HS. destruct (rr_of_check M loq rq HR) as (Hn & _ & _ & HRR).
  unfold check_sym in HS. rewrite forallb_forall in HS.
  assert (Hp : forall x, (x < n_in M)%nat -> (pfun p x < n_in M)%nat /\ pfun p (pfun p x) = x /\
                 (nth x f' 0 == nth (pfun p x) f 0)%Q /\ (nth x f 0 == nth (pfun p x) f' 0)%Q).
  { intros x Hx. specialize (HS x ltac:(apply in_seq; lia)). rewrite !andb_true_iff in HS.
    destruct HS as [[[H1 H2] H3] H4]. apply Nat.ltb_lt in H1. apply Nat.eqb_eq in H2. apply Qeq_bool_eq in H3, H4. auto. }
  assert (Hpi : forall x, (x < n_in M)%nat -> (pfun p x < n_in M)%nat /\ pfun p (pfun p x) = x)
    by (intros x Hx; destruct (Hp x Hx) as (H1 & H2 & _); auto).
  set (c := fun x => Q2R (nth x (coefs f f' t) 0%Q)).
  transitivity (gk M K (fun x => c (pfun p x))).
  - apply gk_ext. intros x Hx. destruct (Hp x Hx) as (H1 & H2 & H3 & H4). unfold c, coefs.
    rewrite !nth_map_seq by assumption. rewrite !Q2R_minus, !Q2R_mult, (Qeq_eqR _ _ H3), (Qeq_eqR _ _ H4). reflexivity.
  - apply (gk_swap M (pfun p) (pfun p)); [exact Hpi|rewrite Hn; exact Hpi|].
    intros x y Hx Hy. rewrite Hn in Hy. destruct (Hpi x Hx) as [Hx' Hxx]. destruct (Hpi y Hy) as [Hy' Hyy].
    rewrite !HRR by assumption. replace (Nat.eqb (pfun p x) (pfun p y)) with (Nat.eqb x y); [reflexivity|].
    destruct (Nat.eqb_spec x y) as [->|Hne]; [rewrite !Nat.eqb_refl; reflexivity|]. symmetry. apply Nat.eqb_neq.
    intros E. apply Hne. rewrite <- Hxx, <- Hyy, E. reflexivity.
Qed.

(** (ε, δ)-CW-privacy from one order of the rows and a symmetry of the priors. *)
Definition check_coef_dp_sym (p : list nat) (f f' : list Q) (t delta : Q) : bool :=
  check_distr M && check_prior (n_in M) f && check_prior (n_in M) f' && check_rr M loq rq &&
  Qle_bool 1 t && Qle_bool 0 delta && check_sym p f f' && coef_le f f' t delta.

Theorem cw_coef_dp_sym_of_check (p : list nat) (f f' : list Q) (t delta : Q) (eps : R) :
  Q2R t <= exp eps -> check_coef_dp_sym p f f' t delta = true -> cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht Hc. unfold check_coef_dp_sym in Hc. rewrite !andb_true_iff in Hc.
  destruct Hc as [[[[[[[HD Hf] Hf'] HR] Ht1] Hd0] HS] H01].
  apply prior_of_check in Hf, Hf'. apply Qle_bool_imp_le, Qle_Rle in Ht1, Hd0. rewrite q2r_1 in Ht1. rewrite q2r_0 in Hd0.
  pose proof (coef_le_ok f f' 0 1 t delta HD HR (proj1 Hf) (proj1 Hf') ltac:(lia) ltac:(lia) Hd0 H01) as H.
  apply (cw_coef_dp_of_hs f f' t delta eps); auto.
  rewrite (hs_coefs f f' 1 0 t (proj1 (wf_of_check_distr M HD)) (proj1 Hf) (proj1 Hf')) by lia.
  rewrite (hs_coefs f f' 0 1 t (proj1 (wf_of_check_distr M HD)) (proj1 Hf) (proj1 Hf')) in H by lia.
  cbn [cw_weights] in H |- *. rewrite (gk_sym p f f' t HR HS). exact H.
Qed.

Theorem cw_coef_not_dp_of_check (f f' : list Q) (t delta : Q) (dir : bool) (eps : R) :
  exp eps <= Q2R t -> check_coef_refute f f' t delta dir = true -> ~ cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht Hc Hdp. unfold check_coef_refute in Hc. rewrite !andb_true_iff in Hc.
  destruct Hc as [[[[[[HD Hf] Hf'] HR] Ht0] Hd0] Hc].
  apply prior_of_check in Hf, Hf'. apply Qle_bool_imp_le, Qle_Rle in Ht0, Hd0. rewrite q2r_0 in Ht0, Hd0.
  pose proof (t_subdistr' f f' HD Hf Hf') as HT.
  set (T := fmech_cw (fmech_power M K) f f') in *.
  assert (Hpair : forall i' j', (i' < 2)%nat -> (j' < 2)%nat -> Q2R delta < hs T i' j' (Q2R t) -> False).
  { intros i' j' Hi' Hj' Hh. specialize (Hdp i' j' ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (loss_event T i' j' (exp eps))).
    rewrite pr_loss_event in Hdp.
    assert (hs T i' j' (Q2R t) <= hs T i' j' (exp eps)) by (apply hs_anti; [intros y Hy; apply (proj1 (HT j' ltac:(cbn; lia))), Hy|exact Ht]).
    fold T in Hdp. lra. }
  destruct dir.
  - apply (Hpair 1 0)%nat; [lia|lia|]. apply (coef_gt_ok f f' 1 0 t delta HD HR (proj1 Hf) (proj1 Hf')); auto.
  - apply (Hpair 0 1)%nat; [lia|lia|]. apply (coef_gt_ok f f' 0 1 t delta HD HR (proj1 Hf) (proj1 Hf')); auto.
Qed.

End Run.
