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

(** The value the table gives for [u] (NaN when [u] has no entry). *)
Definition ln_lookup (table : list ln_entry) (u : float) : float :=
  match find (entry_is u) table with
  | Some t => entry_l t
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

Definition covers (table : list ln_entry) (sampler : dist float) : bool :=
  forallb (fun '(u, _) => existsb (entry_is u) table) sampler.

Lemma entry_is_value (u : float) (t : ln_entry) : entry_is u t = true -> B2R u = entry_ur t.
Proof.
  destruct t as [[[mu eu] ml] el]. unfold entry_is, entry_ur. rewrite <- SF2R_B2SF.
  destruct (B2SF u) as [s|s| |[|] m e]; try discriminate.
  intros H. apply andb_true_iff in H as [Hm He]. apply Z.eqb_eq in Hm, He. subst. reflexivity.
Qed.

Lemma ln_lookup_correct (table : list ln_entry) (sampler : dist float) :
  covers table sampler = true -> Forall entry_ok table ->
  forall u w, In (u, w) sampler -> ln_correct (ln_lookup table) u.
Proof.
  intros Hc Hok u w Hin. unfold covers in Hc. rewrite forallb_forall in Hc.
  specialize (Hc _ Hin). cbn beta iota in Hc.
  unfold ln_correct, ln_lookup. destruct (find (entry_is u) table) as [t|] eqn:Hf.
  - apply find_some in Hf as [Ht Heq]. rewrite Forall_forall in Hok.
    destruct (Hok t Ht) as [Hfin HR]. split; [exact Hfin|]. rewrite HR.
    rewrite (entry_is_value _ _ Heq). reflexivity.
    (* no such entry: [covers] said there is one *)
  - exfalso. apply existsb_exists in Hc as [t [Ht Heq]].
    eapply find_none in Hf; [|exact Ht]. congruence.
Qed.

(** ** One entry, by bracketing the real logarithm *)

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

Definition entry_uq (t : ln_entry) : Q :=
  let '(mu, eu, _, _) := t in
  match mu with Zpos m => sf_q (S754_finite false m eu) | _ => 0%Q end.

Lemma entry_uq_correct (t : ln_entry) : (0 < Q2R (entry_uq t))%R -> Q2R (entry_uq t) = entry_ur t.
Proof.
  destruct t as [[[mu eu] ml] el]. cbn [entry_uq entry_ur].
  destruct mu as [|m|m]; try (unfold Q2R; cbn; lra).
  intros _. rewrite sf_q_correct. reflexivity.
Qed.

(** The boolean side of an entry: [u] is positive and finite, [L] and its
    neighbours are finite with the listed values. *)
Definition bracket_ok (t : ln_entry) (lo l hi uq : Q) : bool :=
  let L := entry_l t in
  negb (Qle_bool uq 0) && is_finite L && is_finite (Bsucc L) && is_finite (Bpred L) &&
  Qeq_bool (entry_uq t) uq && Qeq_bool (sf_q (B2SF L)) l &&
  Qeq_bool (sf_q (B2SF (Bpred L))) lo && Qeq_bool (sf_q (B2SF (Bsucc L))) hi.

Lemma b2r_sf_q (x : float) (q : Q) : Qeq_bool (sf_q (B2SF x)) q = true -> B2R x = Q2R q.
Proof.
  intros H. apply Qeq_bool_eq in H. rewrite <- SF2R_B2SF, <- sf_q_correct. apply Qeq_eqR, H.
Qed.

Lemma ln_entry_of_bracket (t : ln_entry) (lo l hi uq : Q) :
  bracket_ok t lo l hi uq = true ->
  (Q2R lo + Q2R l) / 2 < ln (Q2R uq) < (Q2R l + Q2R hi) / 2 ->
  entry_ok t.
Proof.
  unfold bracket_ok. intros Hb [Hlo Hhi].
  repeat (apply andb_true_iff in Hb as [Hb ?]).
  rename H into Hhiq, H0 into Hloq, H1 into Hlq, H2 into Huq, H3 into Hfp, H4 into Hfs.
  rename H5 into Hfl. apply negb_true_iff in Hb.
  assert (Hpos : (0 < Q2R uq)%R).
  { rewrite <- q2r_0. apply Qlt_Rlt. apply Qnot_le_lt. intros Hle. apply Qle_bool_iff in Hle. congruence. }
  set (L := entry_l t) in *.
  apply b2r_sf_q in Hhiq, Hloq, Hlq. apply Qeq_bool_eq, Qeq_eqR in Huq.
  assert (Hu : Q2R uq = entry_ur t).
  { rewrite <- Huq. apply entry_uq_correct. rewrite Huq.
    exact Hpos. }
  split; [exact Hfl|]. unfold round_ln_r. rewrite <- Hu. fold L. rewrite Hlq.
  pose proof (Bsucc_correct prec emax Hprec Hmax L Hfl) as Hs.
  pose proof (Bpred_correct prec emax Hprec Hmax L Hfl) as Hp.
  destruct (Rlt_bool _ _) in Hs; [destruct Hs as [Hs _]|
    exfalso; rewrite <- is_finite_SF_B2SF, Hs in Hfs; discriminate].
  destruct (Rlt_bool _ _) in Hp; [destruct Hp as [Hp _]|
    exfalso; rewrite <- is_finite_SF_B2SF, Hp in Hfp; discriminate].
  rewrite Hhiq in Hs. rewrite Hloq in Hp. rewrite Hlq in Hs, Hp.
  assert (HF : generic_format radix2 (FLT_exp (SpecFloat.emin prec emax) prec) (Q2R l)).
  { rewrite <- Hlq. apply generic_format_B2R. }
  apply Rle_antisym.
  - apply round_N_ge_midp; [apply FLT_exp_valid; exact Hprec|exact HF|].
    change (fexp prec emax) with (FLT_exp (SpecFloat.emin prec emax) prec) in Hp. rewrite <- Hp. lra.
  - apply round_N_le_midp; [apply FLT_exp_valid; exact Hprec|exact HF|].
    change (fexp prec emax) with (FLT_exp (SpecFloat.emin prec emax) prec) in Hs. rewrite <- Hs. lra.
Qed.

(** The entry for [u = 1]: [ln 1 = 0], and the table gives +0. *)
Definition one_ok (t : ln_entry) : bool :=
  Qeq_bool (entry_uq t) 1 &&
  match B2SF (entry_l t) with S754_zero false => true | _ => false end.

Lemma ln_entry_one (t : ln_entry) : one_ok t = true -> entry_ok t.
Proof.
  unfold one_ok. intros H. apply andb_true_iff in H as [Hu Hl].
  apply Qeq_bool_eq, Qeq_eqR in Hu. rewrite entry_uq_correct in Hu
    by (rewrite Hu; unfold Q2R; cbn; lra).
  unfold entry_ok, round_ln_r. rewrite Hu.
  replace (Q2R 1) with 1 by (unfold Q2R; cbn; lra). rewrite ln_1, round_0.
  - destruct (entry_l t) as [s|s| |s m e He]; cbn in Hl; try discriminate.
    destruct s; [discriminate|]. split; reflexivity.
  - apply valid_rnd_N.
Qed.

End LnTable.
