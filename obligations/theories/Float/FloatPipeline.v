(** * Noise pipelines executed in a binary floating-point format
    A pipeline of the snapping family run in Flocq's [binary_float prec emax]:
    every arithmetic step is the IEEE operation rounding to nearest, ties to
    even ([Bmult], [Bplus]); the logarithm is read from a table (Float/LnTable.v
    proves each entry is the correctly rounded logarithm); the rounding to a
    multiple of [Λ = 2^j] is exact (as Mironov requires of an implementation).
    A run draws u from a finite sampler (weights in Q) and, when the pipeline
    has a [sign] step, S = ±1 with probability 1/2 each; its output is the
    final float, as a bit pattern ([float_key]: sign, mantissa, exponent; +0 and
    −0 are different outputs; every NaN is one output). *)
From Coq Require Import List ZArith QArith Bool SpecFloat.
From Flocq Require Import Core.Core IEEE754.BinarySingleNaN.
From Obligations.Core Require Import Sums.
From Obligations.Program Require Import Dist ProgramSyntax ProgramSem.
Import ListNotations.

Local Open Scope Z_scope.

(** How a rounding to the grid breaks ties. *)
Inductive ties := TiesUp | TiesEven.

Section Pipeline.

Variables prec emax : Z.
Context {Hprec : Prec_gt_0 prec} {Hmax : Prec_lt_emax prec emax}.

Notation float := (binary_float prec emax).

(** The float nearest to [m · 2^e] (exact when representable). *)
Definition fl_dyadic (m e : Z) : float := binary_normalize prec emax Hprec Hmax mode_NE m e false.

Inductive fstep :=
  | FLn                              (* u ↦ LN(u), from the table *)
  | FScale (c : float)               (* v ↦ v ⊗ c *)
  | FSign                            (* v ↦ S · v (exact) *)
  | FAddQuery (clampB : option float)(* v ↦ q ⊕ v, q the query value (clamped to [-B, B] first) *)
  | FRound (j : Z) (t : ties)        (* v ↦ the multiple of 2^j nearest to v (exact) *)
  | FClamp (b : float).              (* v ↦ max(-b, min(b, v)) *)

(** ** Exact rounding of a float to a multiple of [2^j] *)

(** The integer nearest to [m / 2^sh] for [m > 0], [sh > 0]; [tie] says which
    neighbour a tie goes to: 0 the lower, 1 the upper, 2 the even one. *)
Definition div_pow2_nearest (m sh : Z) (tie : nat) : Z :=
  let q := Z.shiftr m sh in
  let r := m - Z.shiftl q sh in
  let half := Z.shiftl 1 (sh - 1) in
  if r <? half then q
  else if half <? r then q + 1
  else match tie with
       | O => q
       | 1%nat => q + 1
       | _ => if Z.even q then q else q + 1
       end.

(** The multiple [k] of [2^j] nearest to [±m · 2^e] ([s]: negative).  Ties
    toward +∞ round a positive tie away from 0 and a negative one toward 0. *)
Definition grid_index (s : bool) (m e j : Z) (t : ties) : Z :=
  let k := if j <=? e then Z.shiftl m (e - j)
           else div_pow2_nearest m (j - e)
                  (match t with TiesUp => if s then O else 1%nat | TiesEven => 2%nat end) in
  if s then - k else k.

Definition round_grid_float (j : Z) (t : ties) (v : float) : float :=
  match B2SF v with
  | S754_finite s m e => fl_dyadic (grid_index s (Zpos m) e j t) j
  | S754_zero s => v
  | _ => v
  end.

Definition clamp_float (b v : float) : float :=
  if Bltb b v then b else if Bltb v (Bopp b) then Bopp b else v.

(** ** One run *)

Fixpoint run_steps (lnf : float -> float) (q : float) (s : bool) (steps : list fstep) (v : float) : float :=
  match steps with
  | [] => v
  | st :: rest =>
      let v' := match st with
                | FLn => lnf v
                | FScale c => Bmult mode_NE v c
                | FSign => if s then v else Bopp v
                | FAddQuery None => Bplus mode_NE q v
                | FAddQuery (Some b) => Bplus mode_NE (clamp_float b q) v
                | FRound j t => round_grid_float j t v
                | FClamp b => clamp_float b v
                end in
      run_steps lnf q s rest v'
  end.

(** The output as a bit pattern. *)
Definition float_key (v : float) : list oval :=
  match B2SF v with
  | S754_finite s m e => [OVal (if s then 1 else 0); OVal (Zpos m); OVal e]
  | S754_zero s => [OVal (if s then 1 else 0); OVal 0; OVal 0]
  | S754_infinity s => [OVal (if s then 1 else 0); OTop]
  | S754_nan => [OBot]
  end.

Definition has_sign (steps : list fstep) : bool :=
  existsb (fun st => match st with FSign => true | _ => false end) steps.

Definition signs (steps : list fstep) : dist bool :=
  if has_sign steps then [(true, (1 # 2)%Q); (false, (1 # 2)%Q)] else [(true, 1%Q)].

(** The query value of an input vector [x] (one slot). *)
Definition query_of (x : list Z) : float := fl_dyadic (hd 0 x) 0.

(** The distribution of the output on input [x]: [sampler] lists each value of
    u with its probability; equal outputs are merged ([compact], which keeps
    every probability: Dist.v, [dprob_compact]). *)
Definition float_run (lnf : float -> float) (sampler : dist float) (steps : list fstep)
    (x : list Z) : dist (list oval) :=
  let q := query_of x in
  compact ovals_eqb
    (bind sampler (fun u => bind (signs steps) (fun s => ret (float_key (run_steps lnf q s steps u))))).

(** ** The same runs, with the logarithm taken once per sampled u

    The checkers run every input on every sampled u; when the first step is
    [FLn], [float_run_pre] reads the table once per u for all inputs (the
    sampler mapped through the logarithm is shared), and it is [float_run]. *)

Definition ln_sampler (lnf : float -> float) (sampler : dist float) : dist float :=
  map (fun '(u, w) => (lnf u, w)) sampler.

Definition float_run_pre (lnf : float -> float) (lsampler : dist float) (steps : list fstep)
    (x : list Z) : dist (list oval) :=
  let q := query_of x in
  compact ovals_eqb
    (bind lsampler (fun v => bind (signs steps) (fun s => ret (float_key (run_steps lnf q s (tl steps) v))))).

Lemma bind_ln_sampler {B} (lnf : float -> float) (sampler : dist float) (f : float -> dist B) :
  bind (ln_sampler lnf sampler) f = bind sampler (fun u => f (lnf u)).
Proof.
  induction sampler as [|[u w] d IH]; [reflexivity|].
  cbn [ln_sampler map bind flat_map] in *. unfold bind in IH. rewrite <- IH. reflexivity.
Qed.

Lemma float_run_pre_eq (lnf : float -> float) (sampler : dist float) (steps : list fstep) (x : list Z) :
  hd_error steps = Some FLn ->
  float_run_pre lnf (ln_sampler lnf sampler) steps x = float_run lnf sampler steps x.
Proof.
  destruct steps as [|st rest]; [discriminate|]. intros H. injection H as ->.
  unfold float_run_pre, float_run. rewrite bind_ln_sampler. reflexivity.
Qed.

(** ** Samplers *)

(** u = k / 2^m for k = 1 .. 2^m, each with probability 2^-m, rounded to the
    format; equal floats are merged (the list stays in increasing order). *)
Fixpoint merge_runs (l : list (float * Q)) : list (float * Q) :=
  match l with
  | (a, w) :: ((b, w') :: rest) as tl =>
      match merge_runs tl with
      | (c, w'') :: rest' => if Beqb a c then (c, qplus_lcm w w'') :: rest' else (a, w) :: (c, w'') :: rest'
      | [] => [(a, w)]
      end
  | _ => l
  end.

(** [k, k + 1, ..., k + n - 1] (binary integers: no unary conversion per element). *)
Fixpoint zrange (k : Z) (n : nat) : list Z :=
  match n with O => [] | S n' => k :: zrange (k + 1) n' end.

Definition grid_sampler (m : positive) : dist float :=
  let n := Z.pow_pos 2 m in
  merge_runs (map (fun k => (fl_dyadic k (- Zpos m), (1 # Z.to_pos n)%Q)) (zrange 1 (Z.to_nat n))).

End Pipeline.

Arguments FLn {prec emax}.
Arguments FScale {prec emax} c.
Arguments FSign {prec emax}.
Arguments FAddQuery {prec emax} clampB.
Arguments FRound {prec emax} j t.
Arguments FClamp {prec emax} b.
