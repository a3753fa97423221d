(** * Measurable fibers: the pieces of an alignment, from the shift's shape

    [rdp_of_aligned] (RealAlignSound.v) asks that the tapes on which the
    aligned run shifts by given whole numbers form a measurable set: every
    fiber of the map from a tape to its shifts is measurable ([mfibers]).
    A proof computes that map on a tape ([mfibers_ext]), as a list of shifts each chosen by
    cases on the program's comparisons of noisy values, and then closes the
    duty with the lemmas below, without a hand proof of measurability:
    - a constant has measurable fibers ([mfibers_cst]);
    - a choice by cases on a measurable condition between maps with
      measurable fibers has measurable fibers ([mfibers_if]);
    - a list built of such maps has measurable fibers ([mfibers_cons],
      [mfibers_map]), and so has the rounding down of a measurable real
      ([mfibers_rfloor]);
    - the comparisons the semantics over the reals decides ([rleb],
      [rltb], RealTape.v) of measurable functions are measurable conditions
      ([measurable_rleb], [measurable_rltb]), tape values and constants are
      measurable ([measurable_rtape], [measurable_rcst]) and so are their
      sums and differences ([measurable_rplus], [measurable_rminus]). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral.
From Coq Require Import ZArith Lia Lra.
From Coq Require Reals.
From Obligations.Laplace Require Import Noise TapeMeasure TapeMeasurable RealTape.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

Section fibers.
Variables (S : realType) (n : nat).

(** Every fiber of [f] is a measurable set of tapes. *)
Definition mfibers (A : Type) (f : tape S n -> A) : Prop := forall a, measurable [set w | f w = a].

(** A map equal at every tape to one with measurable fibers (its computed form). *)
Lemma mfibers_ext (A : Type) (f g : tape S n -> A) : (forall w, f w = g w) -> mfibers g -> mfibers f.
Proof. by move=> fg mg a; rewrite (_ : [set w | _] = [set w | g w = a]) //; apply/seteqP; split => w /=; rewrite fg. Qed.

Lemma mfibers_cst (A : Type) (a : A) : mfibers (fun _ => a).
Proof.
move=> b; have [<-|ab] := pselect (a = b).
  by rewrite (_ : [set w | _] = setT); [exact: measurableT|apply/seteqP; split].
by rewrite (_ : [set w | _] = set0); [exact: measurable0|apply/seteqP; split].
Qed.

Lemma mfibers_if (A : Type) (b : tape S n -> bool) (f g : tape S n -> A) :
  measurable [set w | b w] -> mfibers f -> mfibers g -> mfibers (fun w => if b w then f w else g w).
Proof.
move=> mb mf mg a.
rewrite (_ : [set w | _] = [set w | if b w then [set w | f w = a] w else [set w | g w = a] w]).
  exact: measurable_cases.
by apply/seteqP; split => w /=; case: (b w).
Qed.

Lemma mfibers_cons (A : Type) (f : tape S n -> A) (g : tape S n -> seq A) :
  mfibers f -> mfibers g -> mfibers (fun w => f w :: g w).
Proof.
move=> mf mg [|a l].
  by rewrite (_ : [set w | _] = set0); [exact: measurable0|apply/seteqP; split].
rewrite (_ : [set w | _] = [set w | f w = a] `&` [set w | g w = l]); first exact: measurableI.
by apply/seteqP; split => w /=; [case=> -> ->|case=> -> ->].
Qed.

(** The shifts of all positions: [zshift]'s shape, a map over the positions. *)
Lemma mfibers_map (A B : Type) (f : B -> tape S n -> A) (s : seq B) :
  (forall b, mfibers (f b)) -> mfibers (fun w => map (fun b => f b w) s).
Proof.
move=> mf; elim: s => [|b s IH] /=; first exact: mfibers_cst.
exact: mfibers_cons.
Qed.

(** A map that agrees with [g] where [b] holds and with [h] elsewhere has measurable
    fibers when [b] is a measurable condition and [g], [h] have measurable fibers. *)
Lemma mfibers_split (A : Type) (b : tape S n -> bool) (f g h : tape S n -> A) :
  measurable [set w | b w] ->
  (forall w, b w = true -> f w = g w) -> (forall w, b w = false -> f w = h w) ->
  mfibers g -> mfibers h -> mfibers f.
Proof.
move=> mb fg fh mg mh.
apply: (@mfibers_ext A f (fun w => if b w then g w else h w)); last exact: mfibers_if.
by move=> w; case E: (b w); [exact: fg|exact: fh].
Qed.

End fibers.

(** Comparisons and sums of the reals of the semantics, on tapes of real noise. *)
Section real.
Variable n : nat.
Local Notation RR := (Real.sort real_realType).
Implicit Types f g : tape real_realType n -> RR.

Lemma measurable_rtape (i : nat) : measurable_fun setT (fun w : tape real_realType n => rtape (tl w) i : RR).
Proof.
rewrite (_ : (fun w => _) = @coord real_realType n i); first exact: measurable_coord.
apply/funext => w; rewrite coordE /rtape.
by elim: (tl w) i => [|x s IH] [|i] //=.
Qed.

Lemma measurable_rcst (c : R) : measurable_fun setT (fun _ : tape real_realType n => c : RR).
Proof. exact: measurable_fun_cst. Qed.

Lemma measurable_rplus f g : measurable_fun setT f -> measurable_fun setT g ->
  measurable_fun setT (fun w => Rdefinitions.Rplus (f w) (g w) : RR).
Proof. exact: measurable_funD. Qed.

Lemma measurable_rminus f g : measurable_fun setT f -> measurable_fun setT g ->
  measurable_fun setT (fun w => Rdefinitions.Rminus (f w) (g w) : RR).
Proof. exact: measurable_funB. Qed.

Lemma measurable_rleb f g : measurable_fun setT f -> measurable_fun setT g ->
  measurable [set w | rleb (f w) (g w)].
Proof.
move=> mf mg; rewrite (_ : [set w | _] = [set w | f w <= g w]); first exact: measurable_le.
apply/seteqP; split => w /=; rewrite /rleb; case: Reals.RIneq.Rle_dec => // h.
- by move=> _; apply/RleP.
- by move=> /RleP.
Qed.

Lemma measurable_rltb f g : measurable_fun setT f -> measurable_fun setT g ->
  measurable [set w | rltb (f w) (g w)].
Proof.
move=> mf mg; rewrite (_ : [set w | _] = [set w | f w < g w]); first exact: measurable_lt.
apply/seteqP; split => w /=; rewrite /rltb; case: Reals.RIneq.Rlt_dec => // h.
- by move=> _; apply/RltP.
- by move=> /RltP.
Qed.

Lemma measurable_reqb f g : measurable_fun setT f -> measurable_fun setT g ->
  measurable [set w | reqb (f w) (g w)].
Proof.
move=> mf mg; rewrite (_ : [set w | _] = [set w | f w <= g w] `&` [set w | g w <= f w]).
  by apply: measurableI; apply: measurable_le.
apply/seteqP; split => w /=; rewrite /reqb; case: Reals.RIneq.Req_EM_T => h //.
- by move=> _; rewrite h; split; apply/RleP; exact: Reals.RIneq.Rle_refl.
- by case=> /RleP h1 /RleP h2; exfalso; apply: h; exact: Reals.RIneq.Rle_antisym.
Qed.

(** Rounding down a measurable real ([rfloor], the semantics' reading of a shift): its fibers
    are the tapes where the real lies in [z, z + 1). *)
Lemma rfloor_eq (r : R) (z : Z) :
  rfloor r = z <-> Rdefinitions.Rle (IZR z) r /\ Rdefinitions.Rlt r (Rdefinitions.Rplus (IZR z) (IZR 1)).
Proof.
rewrite /rfloor; split.
  move=> <-; have [h1 h2] := Reals.Raxioms.archimed r.
  by rewrite Reals.RIneq.minus_IZR; split; lra.
move=> [h1 h2]; rewrite -(@Reals.R_Ifp.tech_up r (z + 1)%Z); first by lia.
- by rewrite Reals.RIneq.plus_IZR.
- by rewrite Reals.RIneq.plus_IZR; lra.
Qed.

Lemma mfibers_rfloor f : measurable_fun setT f -> mfibers (fun w => rfloor (f w)).
Proof.
move=> mf z; rewrite (_ : [set w | _] = [set w | IZR z <= f w] `&` [set w | f w < IZR z + IZR 1]).
  by apply: measurableI; [apply: measurable_le|apply: measurable_lt] => //; exact: measurable_fun_cst.
apply/seteqP; split => w /=; rewrite rfloor_eq.
  by case=> h1 h2; split; [apply/RleP|apply/RltP].
by case=> /RleP h1 /RltP h2.
Qed.

(** The reals a computed map holds, as a term ([rexp]): a generated proof reads a real of tape
    values and constants by sums and differences into an [rexp] (syntactically, by Ltac) and
    closes its measurability by one lemma ([measurable_rden]) instead of unifying each of
    the lemmas above with the goal, which cost seconds per step on the measure types. *)
Inductive rexp : Type :=
  | RTape (i : nat)
  | RCst (c : R)
  | RPlus (a b : rexp)
  | RMinus (a b : rexp).

Fixpoint rden (e : rexp) (v : seq R) : R :=
  match e with
  | RTape i => rtape v i
  | RCst c => c
  | RPlus a b => Rdefinitions.Rplus (rden a v) (rden b v)
  | RMinus a b => Rdefinitions.Rminus (rden a v) (rden b v)
  end.

Lemma measurable_rden (e : rexp) : measurable_fun setT (fun w : tape real_realType n => rden e (tl w) : RR).
Proof.
elim: e => [i|c|a IHa b IHb|a IHa b IHb] /=.
- exact: measurable_rtape.
- exact: measurable_rcst.
- exact: measurable_rplus.
- exact: measurable_rminus.
Qed.

Lemma measurable_rden_leb (a b : rexp) : measurable [set w : tape real_realType n | rleb (rden a (tl w)) (rden b (tl w))].
Proof. by apply: measurable_rleb; exact: measurable_rden. Qed.

Lemma measurable_rden_ltb (a b : rexp) : measurable [set w : tape real_realType n | rltb (rden a (tl w)) (rden b (tl w))].
Proof. by apply: measurable_rltb; exact: measurable_rden. Qed.

Lemma measurable_rden_eqb (a b : rexp) : measurable [set w : tape real_realType n | reqb (rden a (tl w)) (rden b (tl w))].
Proof. by apply: measurable_reqb; exact: measurable_rden. Qed.

Lemma mfibers_rden_floor (e : rexp) : mfibers (fun w : tape real_realType n => rfloor (rden e (tl w))).
Proof. exact/mfibers_rfloor/measurable_rden. Qed.

End real.
