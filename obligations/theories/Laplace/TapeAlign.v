(** * Randomness alignment over Laplace noise on the reals, for every event

    The continuous counterpart of Coupling/Alignment.v.  A mechanism driven
    by a tape [v] of Laplace noise (scales [bs]) is a map [run] from lists
    of reals to outputs; [prob bs run S] is Pr[run(v) ∈ S], the integral of
    the indicator of [S ∘ run] against the law of the tape, for any [S]
    (when [S ∘ run] is not measurable this is the inner probability, see
    LowerIntegral.v).

    [tape_alignment]: if the tape moved by [sigma v] makes the neighbour's
    run [run'] produce the same output, the move costs at most ε, the move
    can be read back from the moved tape, and [sigma] takes countably many
    values on measurable pieces, then Pr[run ∈ S] ≤ e^ε Pr[run' ∈ S] for
    every [S].  [tape_alignment_output] is the shape of the discrete
    [alignment_event]: the move depends on the output only, and the read
    back is then automatic. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Obligations.Laplace Require Import LowerIntegral PieceAlign Noise LaplaceDensity LaplaceMass TapeMeasure.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section tape_align.
Variable R : realType.

Definition prob (bs : seq {posnum R}) {O : Type} (run : seq R -> O) (S : O -> bool) : \bar R :=
  (\int[lapn bs]_v ((S (run (tl v)))%:R)%:E)%E.

Lemma vadd_opp (w d : seq R) : vadd (vadd w (map -%R d)) d = w.
Proof.
elim: w d => [//|x w IH] [|a d] /=; first by rewrite !addr0 (IH [::]).
by rewrite addrNK IH.
Qed.

Lemma size_vadd (w d : seq R) : size (vadd w d) = size w.
Proof. by elim: w d => [//|x w IH] d /=; rewrite IH. Qed.

Section alignment.
Variables (bs : seq {posnum R}) (O : Type) (run run' : seq R -> O).
Variables (sigma : seq R -> seq R) (ds : nat -> seq R) (eps : R).
Local Notation n := (size bs).

Hypothesis sig_pres : forall v, size v = n -> run' (vadd v (sigma v)) = run v.
Hypothesis sig_cost : forall v, size v = n -> cost bs (sigma v) <= eps.
Hypothesis sig_back : forall v v', size v = n -> size v' = n ->
  vadd v (sigma v) = vadd v' (sigma v') -> sigma v = sigma v'.
Hypothesis sig_range : forall v, size v = n -> exists k, sigma v = ds k.
Hypothesis sig_meas : forall k, measurable [set w : tape R n | sigma (tl w) = ds k].

(** Piece [k]: the tapes moved by [ds k] and by no earlier [ds j]. *)
Let P k : set (tape R n) :=
  [set w | sigma (tl w) = ds k /\ forall j, (j < k)%N -> sigma (tl w) <> ds j].

Let mP k : measurable (P k).
Proof.
rewrite (_ : P k = [set w | sigma (tl w) = ds k] `&`
    \bigcap_(j in [set j | (j < k)%N]) ~` [set w | sigma (tl w) = ds j]).
  by apply: measurableI => //; apply: bigcap_measurable => j _; exact: measurableC.
by apply/seteqP; split => w /= [sk sj]; split.
Qed.

Let P_cover w : exists k, P k w.
Proof.
have [k sk] := sig_range (size_tl w).
have ex : exists k, `[< sigma (tl w) = ds k >] by exists k; exact/asboolP.
case: (ex_minnP ex) => m /asboolP sm mmin; exists m; split => // j jm sj.
have : `[< sigma (tl w) = ds j >] by exact/asboolP.
by move=> /mmin; rewrite leqNgt jm.
Qed.

Let P_disj k k' w : P k w -> P k' w -> k = k'.
Proof.
move=> [sk mk] [sk' mk']; case: (ltngtP k k') => [lt|lt|//].
  by case: (mk' k lt sk).
by case: (mk k' lt sk').
Qed.

Let psi k : tape R n -> tape R n := tsh (map -%R (ds k)).

Let tl_psi k u : tl (psi k u) = vadd (tl u) (map -%R (ds k)).
Proof. exact: tl_tsh. Qed.

Let psi_back k u : P k (psi k u) -> vadd (tl (psi k u)) (sigma (tl (psi k u))) = tl u.
Proof. by move=> [sk _]; rewrite sk tl_psi vadd_opp. Qed.

Theorem tape_alignment (S : O -> bool) :
  (prob bs run S <= (expR eps)%:E * prob bs run' S)%E.
Proof.
have c0 k : 0 <= expR (cost bs (ds k)) by exact/ltW/expR_gt0.
have cC k : (exists w, P k w) -> expR (cost bs (ds k)) <= expR eps.
  by move=> [w [sk _]]; rewrite ler_expR -sk; exact/sig_cost/size_tl.
have mpsi k : measurable_fun setT (psi k) by exact: measurable_tsh.
have shift k A : (exists w, P k w) -> measurable A ->
    (lapn bs A <= (expR (cost bs (ds k)))%:E * lapn bs (psi k @^-1` A))%E.
  by move=> _ mA; exact: lapn_shift.
have pres k u : P k (psi k u) -> S (run (tl (psi k u))) -> S (run' (tl u)).
  by move=> Pk; rewrite -(psi_back Pk) sig_pres// size_tl.
have inj k k' u : P k (psi k u) -> P k' (psi k' u) -> k = k'.
  move=> Pk Pk'; apply: P_disj (Pk) _.
  have e : sigma (tl (psi k u)) = sigma (tl (psi k' u)).
    by apply: sig_back; rewrite ?size_tl// !psi_back.
  by case: Pk' => sk' mk'; split; rewrite ?e// => j jk; exact: mk'.
exact: (@align_pieces _ _ R (lapn bs) O (run \o @tl R n) (run' \o @tl R n) S P psi
  (fun k => expR (cost bs (ds k))) (expR eps) mP P_cover P_disj mpsi c0 cC shift pres inj
  (ltW (expR_gt0 eps))).
Qed.

End alignment.

(** The move chosen from the output, as in the discrete [alignment_event]:
    the read back comes from the output, which the moved run reproduces. *)
Theorem tape_alignment_output (bs : seq {posnum R}) (O : Type) (run run' : seq R -> O)
    (shift : O -> seq R) (ds : nat -> seq R) (eps : R) :
  (forall v, size v = size bs -> run' (vadd v (shift (run v))) = run v) ->
  (forall v, size v = size bs -> cost bs (shift (run v)) <= eps) ->
  (forall v, size v = size bs -> exists k, shift (run v) = ds k) ->
  (forall k, measurable [set w : tape R (size bs) | shift (run (tl w)) = ds k]) ->
  forall S, (prob bs run S <= (expR eps)%:E * prob bs run' S)%E.
Proof.
move=> pres cst rng mes S.
have back v v' : size v = size bs -> size v' = size bs ->
    vadd v (shift (run v)) = vadd v' (shift (run v')) -> shift (run v) = shift (run v').
  by move=> vn v'n e; rewrite -(pres v vn) -(pres v' v'n) e.
exact: (@tape_alignment bs O run run' (fun v => shift (run v)) ds eps pres cst back rng mes S).
Qed.

End tape_align.
