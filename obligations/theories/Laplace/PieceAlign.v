(** * Alignment by countably many pieces, for every event

    The measure-theoretic core of randomness alignment over continuous
    noise.  The noise space [T] (with its law [mu]) is cut into countably
    many measurable pieces [P n]; on piece [n] the noise is moved by a map
    whose inverse is [psi n], and [mu] changes by a factor at most [c n]
    under it ([mu A <= c n * mu (psi n ^-1 A)]).  If a noise value of piece
    [n] whose run lands in [S] is moved to a noise value whose run on the
    neighbour lands in [S] ([align_pres]), and the moved pieces do not
    overlap ([align_inj]), then Pr[run ∈ S] ≤ C · Pr[run' ∈ S] for the bound
    [C] of the factors.

    [S] is any set of outputs: the probabilities are integrals of
    indicators that need not be measurable (lower integrals, see
    LowerIntegral.v), so a claim for every [S] needs no measurability of the
    events.  The pieces must be measurable. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral.
From Obligations.Laplace Require Import LowerIntegral.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section piece_align.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (R : realType) (mu : {measure set T -> \bar R}).
Variables (O : Type) (run run' : T -> O) (S : O -> bool).
Variables (P : nat -> set T) (psi : nat -> T -> T) (c : nat -> R) (C : R).

Hypothesis align_mP : forall n, measurable (P n).
Hypothesis align_cover : forall v, exists n, P n v.
Hypothesis align_disj : forall n m v, P n v -> P m v -> n = m.
Hypothesis align_mpsi : forall n, measurable_fun setT (psi n).
Hypothesis align_c0 : forall n, (0 <= c n)%R.
Hypothesis align_cC : forall n, (exists v, P n v) -> (c n <= C)%R.
Hypothesis align_shift : forall n A, (exists v, P n v) -> measurable A ->
  mu A <= (c n)%:E * mu (psi n @^-1` A).
Hypothesis align_pres : forall n u, P n (psi n u) -> S (run (psi n u)) -> S (run' u).
Hypothesis align_inj : forall n m u, P n (psi n u) -> P m (psi m u) -> n = m.

Local Notation F := (fun v => ((S (run v))%:R)%:E : \bar R).
Local Notation G := (fun v => ((S (run' v))%:R)%:E : \bar R).

(** The piece [n] of a minorant. *)
Let hp (h : {nnsfun T >-> R}) n (v : T) : \bar R := (h v)%:E * (\1_(P n) v)%:E.

Let hp_ge0 h n v : 0 <= hp h n v.
Proof. by apply: mule_ge0; rewrite lee_fin. Qed.

Let hp_mfun h n : measurable_fun setT (hp h n).
Proof.
apply: emeasurable_funM; apply/EFin_measurable_fun => //.
exact: measurable_fun_indic.
Qed.

Let hp_other h n m v : P m v -> n != m -> hp h n v = 0.
Proof.
move=> Pmv nm; rewrite /hp indicE memNset ?mule0//.
by move=> Pnv; move: nm; rewrite (align_disj Pnv Pmv) eqxx.
Qed.

Let hp_sum h v : \sum_(n <oo) hp h n v = (h v)%:E.
Proof.
have [m Pmv] := align_cover v.
rewrite (@eseries_single _ _ m) => [|n nm]; last exact: hp_other Pmv nm.
by rewrite /hp indicE mem_set// mule1.
Qed.

(** One piece: the factor [c n] and the move. *)
Let hp_piece h n : (exists v, P n v) ->
  \int[mu]_v hp h n v <= (c n)%:E * \int[mu]_u hp h n (psi n u).
Proof.
move=> Pn; pose nn := NngNum (align_c0 n).
pose pf := [the measure _ _ of pushforward mu (align_mpsi n)].
apply: (@le_trans _ _ (\int[mscale nn pf]_v hp h n v)).
  by apply: integral_le_measure => // A mA; exact: align_shift.
rewrite ge0_integral_mscale//; apply: lee_wpmul2l; first by rewrite lee_fin.
by rewrite integral_pushforward.
Qed.

Let moved_le (h : {nnsfun T >-> R}) : (forall v, (h v)%:E <= F v) ->
  forall u, \sum_(n <oo) hp h n (psi n u) <= G u.
Proof.
move=> hF u.
have [[m Pm]|none] := pselect (exists m, P m (psi m u)).
  rewrite (@eseries_single _ _ m) => [|n nm]; last first.
    rewrite /hp indicE memNset ?mule0// => Pn.
    by move: nm; rewrite (align_inj Pn Pm) eqxx.
  rewrite /hp indicE mem_set// mule1; apply: le_trans (hF _) _.
  case E: (S (run (psi m u))); last by rewrite /= lee_fin ler0n.
  by rewrite /= (align_pres Pm E).
rewrite eseries0 => [|n _]; first by rewrite lee_fin.
rewrite /hp indicE memNset ?mule0// => Pn; exact: none (ex_intro _ n Pn).
Qed.

Theorem align_pieces : (0 <= C)%R ->
  \int[mu]_v F v <= C%:E * \int[mu]_v G v.
Proof.
move=> C0; apply: integral_le_minorants => [v|h hF]; first by rewrite lee_fin.
have -> : \int[mu]_v (h v)%:E = \sum_(n <oo) \int[mu]_v hp h n v.
  rewrite -(integral_nneseries _ measurableT (fun n => hp_mfun h n) (fun n v _ => hp_ge0 h n v)).
  by apply: eq_integral => v _; rewrite hp_sum.
apply: (@le_trans _ _ (\sum_(n <oo) (C%:E * \int[mu]_u hp h n (psi n u)))).
  apply: lee_nneseries => [n _|n _]; first by apply: integral_ge0 => v _; exact: hp_ge0.
  have [Pn|none] := pselect (exists v, P n v); last first.
    rewrite (eq_integral (cst 0)) ?integral0; last first.
      by move=> v _; rewrite /hp indicE memNset ?mule0// => Pv; exact: none (ex_intro _ v Pv).
    by apply: mule_ge0; [rewrite lee_fin|apply: integral_ge0 => v _; exact: hp_ge0].
  apply: le_trans (hp_piece h Pn) _; apply: lee_wpmul2r; last by rewrite lee_fin align_cC.
  by apply: integral_ge0 => v _; exact: hp_ge0.
rewrite nneseriesrM => [|n _]; last by apply: integral_ge0 => v _; exact: hp_ge0.
apply: lee_wpmul2l; first by rewrite lee_fin.
have mf n : measurable_fun setT (fun u => hp h n (psi n u)).
  exact: measurable_fun_comp (hp_mfun h n) (align_mpsi n).
rewrite -(integral_nneseries _ measurableT mf (fun n v _ => hp_ge0 h n (psi n v))).
apply: integral_le_any => u; last exact: moved_le.
by apply: nneseries_ge0 => n _; exact: hp_ge0.
Qed.

End piece_align.
