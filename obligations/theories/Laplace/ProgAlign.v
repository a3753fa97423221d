(** * Programs with continuous Laplace noise: the claim, and its soundness from a shift of the tape

    The tape of a program [p] (RealTape.v) under continuous noise at ε: at
    each position of the program's layout, independent Laplace noise of
    scale num/(den·ε) ([scales], the law [lapn] of TapeMeasure.v).
    [rprog_prob] is Pr[p(x) ∈ S] for any event [S] on outputs (the inner
    probability when [S] is not measurable, LowerIntegral.v), and
    [rdp_prog nb p nvars c] the claim in the shape of TapeSem.v's [dp_prog]:
    for every ε > 0 and inputs related by [nb], Pr[p(x) ∈ S] ≤
    e^(c·ε) · Pr[p(x') ∈ S]; [rdp_all_k] for every stream length.

    [rdp_of_shift]: the soundness of alignment over the reals.  A shift
    [sh x x' v] of the tape [v] by whole numbers, one per position, that
    - makes the neighbour's run on the shifted tape release the left run's
      outputs,
    - costs at most [c] in units of ε ([wcost]: Σ |shift|·den/num),
    - can be read back from the shifted tape, and
    - is chosen on measurable sets of tapes,
    proves [rdp_prog].  These are the laws the discrete route's aligned run
    establishes once for every program (Coupling/Relational.v), with the
    measurability of the pieces as the one more duty over the reals. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Coq Require Import ZArith Lia.
From Coq Require Reals.
From Obligations.Program Require ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity LaplaceMass TapeMeasure TapeAlign.
From Obligations.Laplace Require Import RealTape.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

Lemma izr_pos_gt0 (a : positive) : 0 < IZR (Zpos a) :> R.
Proof. by apply/RltP; apply: RIneq.IZR_lt. Qed.

Lemma seq_size_length T (l : seq T) : size l = length l.
Proof. by elim: l => //= _ l ->. Qed.

(** ** Whole numbers, countably: a list of them from a natural number *)
Definition zdec (b : bool * nat) : Z := if b.1 then (- Z.of_nat b.2)%Z else Z.of_nat b.2.
Definition zenc (z : Z) : bool * nat := (Z.ltb z 0, Z.abs_nat z).

Lemma zencK (z : Z) : zdec (zenc z) = z.
Proof.
rewrite /zdec /zenc /=; case: (Z.ltb_spec z 0) => h; rewrite Zabs2Nat.id_abs; lia.
Qed.

Definition zlist (k : nat) : seq Z :=
  match @choice.unpickle [countType of seq (bool * nat)] k with Some l => map zdec l | None => [::] end.

Lemma zlistK (l : seq Z) : zlist (choice.pickle (map zenc l)) = l.
Proof. by rewrite /zlist choice.pickleK -map_comp (eq_map zencK) map_id. Qed.

(** ** The law of the tape *)

(** The Laplace scale num/(den·ε) of a position. *)
Definition lscale (e : {posnum R}) (w : positive * positive) : {posnum R} :=
  PosNum (divr_gt0 (izr_pos_gt0 w.1) (mulr_gt0 (izr_pos_gt0 w.2) [gt0 of e%:num])).

Definition scales (e : {posnum R}) (p : ProgramSyntax.stmt) : seq {posnum R} :=
  map (lscale e) (TapeSem.layout p).

Lemma size_scales e p : size (scales e p) = TapeSem.size p.
Proof. by rewrite size_map seq_size_length TapeSem.size_layout. Qed.

Definition rprog_prob (e : {posnum R}) (p : ProgramSyntax.stmt) (nvars : nat) (x : seq Z)
    (S : option (seq roval) -> bool) : \bar R :=
  prob (scales e p) (rtape_run p nvars x) S.

(** The claim: (c·ε, 0)-DP for every ε > 0, between inputs related by [nb]. *)
Definition rdp_prog (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R) : Prop :=
  forall e : {posnum R}, forall x x', nb x x' ->
  forall S, (rprog_prob e p nvars x S <= (expR (c * e%:num))%:E * rprog_prob e p nvars x' S)%E.

(** The claim for every stream length [k]. *)
Definition rdp_all_k (nb : nat -> seq Z -> seq Z -> Prop) (p : nat -> ProgramSyntax.stmt) (nvars : nat)
    (c : R) : Prop :=
  forall k, rdp_prog (nb k) (p k) nvars c.

(** ** The cost of a shift by whole numbers, in units of ε *)
Fixpoint wcost (lay : seq (positive * positive)) (z : seq Z) : R :=
  match lay with
  | [::] => 0
  | w :: lay' => `|IZR (head 0%Z z)| * IZR (Zpos w.2) / IZR (Zpos w.1) + wcost lay' (behead z)
  end.

Lemma cost_lscale (e : {posnum R}) lay (z : seq Z) :
  cost (map (lscale e) lay) (map IZR z) = e%:num * wcost lay z.
Proof.
elim: lay z => [|w lay IH] z /=; first by rewrite mulr0.
have -> : head 0 (map IZR z) = IZR (head 0%Z z) by case: z.
have -> : behead (map IZR z) = map IZR (behead z) by case: z.
rewrite IH mulrDr; congr (_ + _).
rewrite invf_div !mulrA; congr (_ * _).
by rewrite mulrC mulrA.
Qed.

(** ** Soundness *)
Section sound.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).
Variable sh : seq Z -> seq Z -> seq R -> seq Z.
Local Notation n := (TapeSem.size p).

Hypothesis sh_out : forall x x' v, nb x x' -> size v = n ->
  rtape_run p nvars x' (vadd v (map IZR (sh x x' v))) = rtape_run p nvars x v.
Hypothesis sh_cost : forall x x' v, nb x x' -> size v = n -> wcost (TapeSem.layout p) (sh x x' v) <= c.
Hypothesis sh_back : forall x x' v v', nb x x' -> size v = n -> size v' = n ->
  vadd v (map IZR (sh x x' v)) = vadd v' (map IZR (sh x x' v')) -> sh x x' v = sh x x' v'.
Hypothesis sh_meas : forall (e : {posnum R}) x x' (z : seq Z), nb x x' ->
  measurable [set w : tape real_realType (size (scales e p)) | sh x x' (tl w) = z].

Theorem rdp_of_shift : rdp_prog nb p nvars c.
Proof.
move=> e x x' nbx S; have sz := size_scales e p.
apply: (@tape_alignment real_realType (scales e p) _ (rtape_run p nvars x) (rtape_run p nvars x')
  (fun v => map IZR (sh x x' v)) (fun k => map IZR (zlist k)) (c * e%:num)).
- by move=> v; rewrite sz => vn; exact: sh_out.
- move=> v; rewrite sz => vn; rewrite cost_lscale mulrC.
  by apply: ler_wpmul2r; [exact: ltW|exact: sh_cost].
- by move=> v v'; rewrite sz => vn v'n ev; rewrite (sh_back nbx vn v'n ev).
- by move=> v _; exists (choice.pickle (map zenc (sh x x' v))); rewrite zlistK.
- move=> k; rewrite (_ : [set w | _] = [set w : tape real_realType (size (scales e p)) | sh x x' (tl w) = zlist k]).
    exact: sh_meas.
  by apply/seteqP; split => w /= h; [exact: (inj_map RIneq.eq_IZR)|rewrite h].
Qed.

End sound.
