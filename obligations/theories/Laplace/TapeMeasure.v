(** * Tapes of Laplace noise: the product measure and its shifts

    A tape of [n] noise values is a point of [tape n], the product of [n]
    copies of the noise carrier (and a last unused coordinate, so that the
    empty tape is a measurable type too).  [lapn bs] is the law of a tape
    whose position [i] is Laplace of scale [bs_i], independent: the product
    measure (mathcomp-analysis's [product_measure1]), built position by
    position; it is a probability ([lapn_setT]).  [tl] reads a tape as the
    list of its values.

    Moving a tape by the vector [d] ([tsh d]: position [i] plus [d_i])
    changes the probability of a measurable set by at most the factor
    [e^{cost bs d}], [cost bs d = Σ |d_i| / b_i] ([lapn_shift]): the
    one-variable bound (LaplaceDensity.v) at each position, through the
    sections of the set (Tonelli's measurability of sections). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity LaplaceMass.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section tape.
Variable R : realType.
Local Notation noise := (noise R).

Let nd : measure_display := @sigma_display _ (@ocitv R).

Fixpoint tdisp (n : nat) : measure_display :=
  match n with O => nd | n'.+1 => measure_prod_display (nd, tdisp n') end.

Fixpoint tape (n : nat) : measurableType (tdisp n) :=
  match n return measurableType (tdisp n) with
  | O => noise
  | n'.+1 => [the measurableType _ of (noise * tape n')%type]
  end.

(** The values of a tape, in order. *)
Fixpoint tl (n : nat) : tape n -> seq R :=
  match n return tape n -> seq R with
  | O => fun _ => [::]
  | n'.+1 => fun v => v.1 :: tl v.2
  end.

Lemma size_tl n (v : tape n) : size (tl v) = n.
Proof. by elim: n v => [//|n IH] [x v] /=; rewrite IH. Qed.

(** Adding a vector to a list of noise values (missing entries count 0). *)
Fixpoint vadd (v d : seq R) : seq R :=
  match v with
  | [::] => [::]
  | x :: v' => (x + head 0 d) :: vadd v' (behead d)
  end.

Fixpoint tsh (n : nat) (d : seq R) : tape n -> tape n :=
  match n return tape n -> tape n with
  | O => id
  | n'.+1 => fun v => (v.1 + head 0 d, tsh (behead d) v.2)
  end.

Lemma tl_tsh n d (v : tape n) : tl (tsh d v) = vadd (tl v) d.
Proof. by elim: n d v => [//|n IH] d [x v] /=; rewrite IH. Qed.

Lemma measurable_fst d1 d2 (T1 : measurableType d1) (T2 : measurableType d2) :
  measurable_fun setT (@fst T1 T2).
Proof. by have [] := (prod_measurable_funP (@id (T1 * T2)%type)).1 (@measurable_fun_id _ _ _). Qed.

Lemma measurable_snd d1 d2 (T1 : measurableType d1) (T2 : measurableType d2) :
  measurable_fun setT (@snd T1 T2).
Proof. by have [] := (prod_measurable_funP (@id (T1 * T2)%type)).1 (@measurable_fun_id _ _ _). Qed.

Lemma measurable_tsh n d : measurable_fun setT (@tsh n d).
Proof.
elim: n d => [|n IH] d /=; first exact: measurable_fun_id.
apply/prod_measurable_funP; split.
  exact: (measurable_fun_comp (measurable_tr (head 0 d)) (@measurable_fst _ _ noise (tape n))).
exact: (measurable_fun_comp (IH (behead d)) (@measurable_snd _ _ noise (tape n))).
Qed.

(** Moving a set of tapes by [d]: the tapes [u] with [u - d] in [E]. *)
Definition tmove n (d : seq R) (E : set (tape n)) : set (tape n) := tsh (map -%R d) @^-1` E.

Lemma measurable_tmove n d (E : set (tape n)) : measurable E -> measurable (tmove d E).
Proof. by move=> mE; rewrite /tmove -[X in measurable X]setTI; exact: measurable_tsh. Qed.

Fixpoint cost (bs : seq {posnum R}) (d : seq R) : R :=
  match bs with
  | [::] => 0
  | b :: bs' => `|head 0 d| / b%:num + cost bs' (behead d)
  end.

Lemma cost_ge0 bs d : 0 <= cost bs d.
Proof. by elim: bs d => [//|b bs IH] d /=; rewrite addr_ge0// divr_ge0. Qed.

Local Open Scope ereal_scope.

Let prob_sigma_finite d (T : measurableType d) (m : {measure set T -> \bar R}) :
  m setT = 1 -> sigma_finite setT m.
Proof.
move=> m1; exists (fun _ => setT); first by rewrite bigcup_const//; exists 0%N.
by move=> _; split => //; rewrite m1 ltry.
Qed.

Let dirac_prob : [the measure _ _ of @dirac _ noise 0%R R] setT = 1.
Proof. by rewrite /= /dirac indicT. Qed.

Let prod_prob (b : {posnum R}) n (m : {measure set tape n -> \bar R}) (m1 : m setT = 1) :
  [the measure _ _ of product_measure1 (lapm b) (prob_sigma_finite m1)] setT = 1.
Proof. by rewrite /= -setMTT product_measure1E// lapm_setT m1 mule1. Qed.

(** The law of a tape, with the proof that it is a probability. *)
Fixpoint lapn_prob (bs : seq {posnum R}) :
    {m : {measure set tape (size bs) -> \bar R} | m setT = 1} :=
  match bs return {m : {measure set tape (size bs) -> \bar R} | m setT = 1} with
  | [::] => exist _ [the measure _ _ of @dirac _ noise 0%R R] dirac_prob
  | b :: bs' =>
      exist _ [the measure _ _ of product_measure1 (lapm b) (prob_sigma_finite (proj2_sig (lapn_prob bs')))]
        (prod_prob b (proj2_sig (lapn_prob bs')))
  end.

Definition lapn (bs : seq {posnum R}) : {measure set tape (size bs) -> \bar R} :=
  proj1_sig (lapn_prob bs).

Lemma lapn_setT bs : lapn bs setT = 1.
Proof. exact: proj2_sig (lapn_prob bs). Qed.

Lemma lapn_sigma_finite bs : sigma_finite setT (lapn bs).
Proof. exact/prob_sigma_finite/lapn_setT. Qed.

Lemma lapn_nilE (E : set (tape 0)) : lapn [::] E = (\1_E 0%R)%:E.
Proof. by []. Qed.

Lemma lapn_consE b bs (E : set (tape (size bs).+1)) :
  lapn (b :: bs) E = \int[lapm b]_x lapn bs (xsection E x).
Proof. by []. Qed.

Let head_opp (d : seq R) : (head 0 (map -%R d) = - head 0 d)%R.
Proof. by case: d => [|a d] //=; rewrite oppr0. Qed.

Let behead_opp (d : seq R) : behead (map -%R d) = map -%R (behead d).
Proof. by case: d. Qed.

Let xsection_tmove n (d : seq R) (E : set (tape n.+1)) (x : noise) :
  xsection (tmove d E) (x + head 0 d)%R = tmove (behead d) (xsection E x).
Proof.
apply/seteqP; split => w; rewrite /xsection /tmove /preimage /mkset /= => /set_mem /=;
  rewrite head_opp behead_opp ?addrK => Ew; apply: mem_set => //=.
by rewrite addrK.
Qed.

(** Moving a measurable set of tapes by [d] changes its probability by at
    most [e^{cost bs d}]. *)
Lemma lapn_shift bs (d : seq R) (E : set (tape (size bs))) : measurable E ->
  lapn bs E <= (expR (cost bs d))%:E * lapn bs (tmove d E).
Proof.
elim: bs d E => [|b bs IH] d E mE.
  by rewrite /= expR0 mul1e /tmove /=.
rewrite !lapn_consE /=; set a := head 0%R d; set c' := cost bs (behead d).
have mE' : measurable (tmove d E) by exact: measurable_tmove.
have mG' : measurable_fun setT (fun u : noise => lapn bs (xsection (tmove d E) u)).
  exact: (measurable_fun_xsection (lapn_sigma_finite bs) (mem_set mE')).
apply: (@le_trans _ _ (\int[lapm b]_x ((expR c')%:E * lapn bs (xsection (tmove d E) (tr a x))))).
  apply: integral_le_any => x; first exact: measure_ge0.
  rewrite /tr xsection_tmove; apply: IH.
  exact: measurable_xsection.
rewrite ge0_integralM//; last 2 first.
- exact: measurable_fun_comp mG' (measurable_tr a).
- by rewrite lee_fin; exact/ltW/expR_gt0.
rewrite addrC expRD EFinM -muleA; apply: lee_wpmul2l; first by rewrite lee_fin; exact/ltW/expR_gt0.
by apply: lapm_shift_fun => // x; exact: measure_ge0.
Qed.

End tape.
