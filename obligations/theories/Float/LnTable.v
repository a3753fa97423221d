(** * A correctly rounded logarithm, given by a table
    The pipelines of FloatPipeline.v read [ln u] from a table of entries
    (u, L) = (mu · 2^eu, mL · 2^eL).  [ln_correct] says the value read for
    [u] is the real logarithm of [u] rounded to nearest, ties to even, in the
    format (Flocq's [round] with [FLT_exp]): what a correctly rounded [log]
    returns.  A generated file proves it for every sampled [u], entry by entry
    ([ln_entry_of_bracket]: the real logarithm lies strictly between the
    midpoints of [L] with its neighbours, which [interval] decides). *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Bool SpecFloat.
From Flocq Require Import Core.Core IEEE754.BinarySingleNaN.
From Obligations.Float Require Import FloatPipeline.
From Obligations.Core Require Import RealFacts.
From Obligations.Program Require Import Dist.
Import ListNotations.

Local Open Scope R_scope.

Section LnTable.

Variables prec emax : Z.
Context {Hprec : Prec_gt_0 prec} {Hmax : Prec_lt_emax prec emax}.

Notation float := (binary_float prec emax).
Notation fl := (fl_dyadic prec emax).

Definition ln_entry := (Z * Z * Z * Z)%type.

Definition entry_ur (t : ln_entry) : R := let '(mu, eu, _, _) := t in F2R (Float radix2 mu eu).
Definition entry_l (t : ln_entry) : float := let '(_, _, ml, el) := t in fl ml el.

(** Whether [t] is the entry of [u]: its (mu, eu) is [u]'s bit pattern (the
    table lists canonical mantissas and exponents). *)
Definition entry_is (u : float) (t : ln_entry) : bool :=
  let '(mu, eu, _, _) := t in
  match B2SF u with
  | S754_finite false m e => Z.eqb (Zpos m) mu && Z.eqb e eu
  | _ => false
  end.

(** The table as a binary search tree on the value of u, so that a lookup
    reads a few entries.  The lookup checks the entry it lands on
    ([entry_is]), so no ordering invariant is needed for correctness: a badly
    built tree only makes lookups fail, which [covers] would report. *)
Inductive ln_tree := Leaf | Node (l : ln_tree) (t : ln_entry) (r : ln_tree).

Fixpoint tree_elems (tr : ln_tree) : list ln_entry :=
  match tr with Leaf => [] | Node l t r => tree_elems l ++ t :: tree_elems r end.

Definition entry_sf (t : ln_entry) : spec_float :=
  let '(mu, eu, _, _) := t in S754_finite false (Z.to_pos mu) eu.

Fixpoint tree_find (u : float) (tr : ln_tree) : option ln_entry :=
  match tr with
  | Leaf => None
  | Node l t r =>
      match SFcompare (B2SF u) (entry_sf t) with
      | Some Lt => tree_find u l
      | Some Gt => tree_find u r
      | _ => Some t
      end
  end.

(** The value the table gives for [u] (NaN when [u] has no entry). *)
Definition ln_lookup (tr : ln_tree) (u : float) : float :=
  match tree_find u tr with
  | Some t => if entry_is u t then entry_l t else B754_nan
  | None => B754_nan
  end.

(** The correctly rounded logarithm of a real. *)
Definition round_ln_r (x : R) : R :=
  round radix2 (FLT_exp (SpecFloat.emin prec emax) prec) ZnearestE (ln x).

(** What a correctly rounded [log] gives at [u]: a finite float whose value is
    the real logarithm of [u] rounded to nearest, ties to even. *)
Definition ln_correct (lnf : float -> float) (u : float) : Prop :=
  is_finite (lnf u) = true /\ B2R (lnf u) = round_ln_r (B2R u).

Definition entry_ok (t : ln_entry) : Prop :=
  is_finite (entry_l t) = true /\ B2R (entry_l t) = round_ln_r (entry_ur t).

(** ** Every sampled [u] has an entry *)

Definition covers (tr : ln_tree) (sampler : dist float) : bool :=
  forallb (fun '(u, _) => match tree_find u tr with Some t => entry_is u t | None => false end) sampler.

Lemma entry_is_value (u : float) (t : ln_entry) : entry_is u t = true -> B2R u = entry_ur t.
Proof.
  destruct t as [[[mu eu] ml] el]. unfold entry_is, entry_ur. rewrite <- SF2R_B2SF.
  destruct (B2SF u) as [s|s| |[|] m e]; try discriminate.
  intros H. apply andb_true_iff in H as [Hm He]. apply Z.eqb_eq in Hm, He. subst. reflexivity.
Qed.

Lemma tree_find_in (u : float) (tr : ln_tree) (t : ln_entry) :
  tree_find u tr = Some t -> In t (tree_elems tr).
Proof.
  induction tr as [|l IHl t' r IHr]; cbn [tree_find tree_elems]; [discriminate|].
  intros H. apply in_or_app.
  destruct (SFcompare _ _) as [[]|]; try (injection H as <-; right; left; reflexivity).
  - left. exact (IHl H).
  - right. right. exact (IHr H).
Qed.

Lemma ln_lookup_correct (tr : ln_tree) (sampler : dist float) :
  covers tr sampler = true -> Forall entry_ok (tree_elems tr) ->
  forall u w, In (u, w) sampler -> ln_correct (ln_lookup tr) u.
Proof.
  intros Hc Hok u w Hin. unfold covers in Hc. rewrite forallb_forall in Hc.
  specialize (Hc _ Hin). cbn beta iota in Hc.
  unfold ln_correct, ln_lookup. destruct (tree_find u tr) as [t|] eqn:Hf; [|discriminate].
  rewrite Hc. apply tree_find_in in Hf. rewrite Forall_forall in Hok.
  destruct (Hok t Hf) as [Hfin HR]. split; [exact Hfin|]. rewrite HR.
  rewrite (entry_is_value _ _ Hc). reflexivity.
Qed.

(** ** Values of floats as rationals *)

Definition sf_q (x : spec_float) : Q :=
  match x with
  | S754_finite s m e =>
      let z := (if s then Zneg m else Zpos m) in
      match e with
      | Z0 => inject_Z z
      | Zpos p => inject_Z (z * Z.pow_pos 2 p)
      | Zneg p => Qmake z (Pos.pow 2 p)
      end
  | _ => 0%Q
  end.

Lemma sf_q_correct (x : spec_float) : Q2R (sf_q x) = SF2R radix2 x.
Proof.
  destruct x as [s|s| |s m e]; cbn [sf_q SF2R]; try (unfold Q2R; cbn; lra).
  unfold F2R. cbn [Fnum Fexp]. replace (cond_Zopp s (Zpos m)) with (if s then Zneg m else Zpos m)
    by (destruct s; reflexivity).
  destruct e as [|p|p]; unfold Q2R; cbn [Qnum Qden inject_Z].
  - rewrite Rinv_1, !Rmult_1_r. reflexivity.
  - rewrite Rinv_1, Rmult_1_r, mult_IZR. f_equal.
  - f_equal. cbn [bpow]. f_equal. rewrite Pos2Z.inj_pow_pos. reflexivity.
Qed.

Definition fq (x : float) : Q := sf_q (B2SF x).

Lemma fq_correct (x : float) : Q2R (fq x) = B2R x.
Proof. unfold fq. rewrite sf_q_correct. apply SF2R_B2SF. Qed.

(** ** An entry is right when the logarithm lies between the midpoints *)

Lemma entry_ok_of_midpoints (t : ln_entry) :
  is_finite (entry_l t) = true -> is_finite (Bsucc (entry_l t)) = true ->
  is_finite (Bpred (entry_l t)) = true ->
  (B2R (Bpred (entry_l t)) + B2R (entry_l t)) / 2 < ln (entry_ur t) ->
  ln (entry_ur t) < (B2R (entry_l t) + B2R (Bsucc (entry_l t))) / 2 ->
  entry_ok t.
Proof.
  set (L := entry_l t). intros Hfl Hfs Hfp Hlo Hhi.
  split; [exact Hfl|]. unfold round_ln_r.
  pose proof (Bsucc_correct prec emax Hprec Hmax L Hfl) as Hs.
  pose proof (Bpred_correct prec emax Hprec Hmax L Hfl) as Hp.
  destruct (Rlt_bool _ _) in Hs; [destruct Hs as [Hs _]|
    exfalso; rewrite <- is_finite_SF_B2SF, Hs in Hfs; discriminate].
  destruct (Rlt_bool _ _) in Hp; [destruct Hp as [Hp _]|
    exfalso; rewrite <- is_finite_SF_B2SF, Hp in Hfp; discriminate].
  change (fexp prec emax) with (FLT_exp (SpecFloat.emin prec emax) prec) in Hp, Hs.
  assert (HF : generic_format radix2 (FLT_exp (SpecFloat.emin prec emax) prec) (B2R L))
    by apply generic_format_B2R.
  apply Rle_antisym.
  - apply round_N_ge_midp; [apply FLT_exp_valid; exact Hprec|exact HF|]. rewrite Hp in Hlo. fold L. lra.
  - apply round_N_le_midp; [apply FLT_exp_valid; exact Hprec|exact HF|]. rewrite Hs in Hhi. fold L. lra.
Qed.

(** ** The logarithm of u from those of its mantissa and of 2

    ln (mu · 2^eu) = ln mu + eu · ln 2: one bracket per mantissa and one for
    ln 2 (each proved once, by [interval]) bound the logarithm of every entry,
    and a boolean check compares these bounds with the midpoints. *)

Definition mant_entry := (Z * Q * Q)%type.

Definition mant_ok (t : mant_entry) : Prop :=
  let '(m, lo, hi) := t in Q2R lo <= ln (IZR m) <= Q2R hi.

Definition ln2_ok (lo hi : Q) : Prop := Q2R lo <= ln 2 <= Q2R hi.

Definition ln_bounds (mants : list mant_entry) (l2lo l2hi : Q) (mu eu : Z) : option (Q * Q) :=
  match find (fun '(m, _, _) => Z.eqb m mu) mants with
  | Some (_, a, b) =>
      Some (if Z.leb 0 eu then (a + inject_Z eu * l2lo, b + inject_Z eu * l2hi)%Q
            else (a + inject_Z eu * l2hi, b + inject_Z eu * l2lo)%Q)
  | None => None
  end.

Definition qlt (a b : Q) : bool := negb (Qle_bool b a).

Definition entry_check (mants : list mant_entry) (l2lo l2hi : Q) (t : ln_entry) : bool :=
  let '(mu, eu, _, _) := t in
  let L := entry_l t in
  match ln_bounds mants l2lo l2hi mu eu with
  | Some (a, b) =>
      Z.ltb 0 mu && is_finite L && is_finite (Bsucc L) && is_finite (Bpred L) &&
      qlt ((fq (Bpred L) + fq L) / 2) a && qlt b ((fq L + fq (Bsucc L)) / 2)
  | None => false
  end.

Lemma qlt_spec (a b : Q) : qlt a b = true -> Q2R a < Q2R b.
Proof.
  unfold qlt. intros H. apply negb_true_iff in H. apply Qlt_Rlt. apply Qnot_le_lt.
  intros Hle. apply Qle_bool_iff in Hle. congruence.
Qed.

Lemma ln_entry_ur (mu eu : Z) :
  (0 < mu)%Z -> ln (F2R (Float radix2 mu eu)) = ln (IZR mu) + IZR eu * ln 2.
Proof.
  intros Hm. unfold F2R. cbn [Fnum Fexp]. rewrite ln_mult.
  - rewrite bpow_exp, ln_exp. reflexivity.
  - apply IZR_lt in Hm. exact Hm.
  - apply bpow_gt_0.
Qed.

Lemma q2r_inject_z (z : Z) : Q2R (inject_Z z) = IZR z.
Proof. unfold Q2R. cbn [Qnum Qden inject_Z]. rewrite Rinv_1, Rmult_1_r. reflexivity. Qed.

Lemma ln_bounds_spec (mants : list mant_entry) (l2lo l2hi a b : Q) (mu eu : Z) :
  Forall mant_ok mants -> ln2_ok l2lo l2hi -> (0 < mu)%Z ->
  ln_bounds mants l2lo l2hi mu eu = Some (a, b) ->
  Q2R a <= ln (F2R (Float radix2 mu eu)) <= Q2R b.
Proof.
  intros Hm [H2lo H2hi] Hmu Hb. unfold ln_bounds in Hb.
  destruct (find (fun '(m, _, _) => (m =? mu)%Z) mants) as [[[m lo] hi]|] eqn:Hf; [|discriminate].
  apply find_some in Hf as [Hin Heq]. apply Z.eqb_eq in Heq. subst m.
  rewrite Forall_forall in Hm. specialize (Hm _ Hin). cbn in Hm. destruct Hm as [Hlo Hhi].
  rewrite ln_entry_ur by exact Hmu.
  destruct (Z.leb_spec 0 eu) as [He|He]; injection Hb as <- <-;
    rewrite !Q2R_plus, !Q2R_mult, !q2r_inject_z.
  - apply IZR_le in He. split; apply Rplus_le_compat; try assumption;
      apply Rmult_le_compat_l; assumption.
  - apply IZR_lt in He. split; apply Rplus_le_compat; try assumption;
      apply Rmult_le_compat_neg_l; lra.
Qed.

Lemma entry_ok_of_check (mants : list mant_entry) (l2lo l2hi : Q) (t : ln_entry) :
  Forall mant_ok mants -> ln2_ok l2lo l2hi -> entry_check mants l2lo l2hi t = true -> entry_ok t.
Proof.
  intros Hm Hl2 Hc. destruct t as [[[mu eu] ml] el].
  unfold entry_check in Hc. fold (entry_l (mu, eu, ml, el)) in Hc.
  destruct (ln_bounds mants l2lo l2hi mu eu) as [[a b]|] eqn:Hb; [|discriminate].
  repeat (apply andb_true_iff in Hc as [Hc ?]).
  rename H into Hhi, H0 into Hlo, H1 into Hfp, H2 into Hfs, H3 into Hfl.
  apply Z.ltb_lt in Hc.
  apply qlt_spec in Hlo, Hhi. rewrite Q2R_div, Q2R_plus, !fq_correct in Hlo, Hhi by discriminate.
  replace (Q2R 2) with 2 in Hlo, Hhi by (unfold Q2R; cbn; lra).
  destruct (ln_bounds_spec _ _ _ _ _ _ _ Hm Hl2 Hc Hb) as [Ha Hb'].
  apply entry_ok_of_midpoints; try assumption; cbn [entry_ur]; lra.
Qed.

Lemma table_ok_of_check (mants : list mant_entry) (l2lo l2hi : Q) (table : list ln_entry) :
  Forall mant_ok mants -> ln2_ok l2lo l2hi -> forallb (entry_check mants l2lo l2hi) table = true ->
  Forall entry_ok table.
Proof.
  intros Hm H2 Hc. apply Forall_forall. intros t Ht. rewrite forallb_forall in Hc.
  apply (entry_ok_of_check mants l2lo l2hi); [exact Hm|exact H2|exact (Hc t Ht)].
Qed.

(** One mantissa's bracket, with [interval] on the goal it leaves. *)
Lemma mant_ok_intro (m : Z) (lo hi : Q) :
  Q2R lo <= ln (IZR m) <= Q2R hi -> mant_ok (m, lo, hi).
Proof. exact (fun H => H). Qed.

End LnTable.
