(** * The coefficient DP of 5-ary randomized response in primitive floats: a cost measurement

    hs(t) of K releases on the same database (priors 1/2, 1/2 on inputs 0, 1 against 2, 3;
    Pr[y = x] = 17/25, else 2/25) as G_K(f - t f'), states merged up to a common power of
    r = 17/2 and up to swapping inputs 0 and 1 or 2 and 3, decided early (dropped when no
    continuation can end above 0, summed when none can end below 0): see
    obligations/analysis/cw_coef.py and theories/Finite/CWCoef.v.  A state is a packed key,
    the exponents of inputs 1, 2, 3 less that of input 0 (u, v, w, offset 512, base 1024;
    canonical when u <= 0 and v <= w), and the four coefficient magnitudes.  Every output
    shifts the keys of a sorted list by a constant, so the five extensions (and the two
    lists of states that a swap makes canonical again) stay sorted and are merged without
    sorting.  Floats rounded to nearest and nothing proved: this file measures what coqc
    and coqchk pay for the computation a certified route would reduce
    (bench/cw_stream_coef.py --coq), not a certificate. *)
From Coq Require Import List PrimFloat Uint63 ZArith Bool.
Import ListNotations.
Local Open Scope uint63_scope.

(* offsets u = k1 - k0, v = k2 - k0, w = k3 - k0, each + 512, base 1024; canonical u <= 0, v <= w *)
Definition B : int := 1024.
Definition OFF : int := 512.
Definition cu (k : int) : int := k land 1023.
Definition cv (k : int) : int := (k >> 10) land 1023.
Definition cw (k : int) : int := (k >> 20) land 1023.

Record cs := { c0 : float; c1 : float; c2 : float; c3 : float }.
Definition sv := (int * cs)%type.

Fixpoint mergev (A : list sv) : list sv -> list sv :=
  match A with
  | [] => fun B => B
  | (a, x) :: A' =>
      fix merge_a (B : list sv) : list sv :=
        match B with
        | [] => A
        | (b, y) :: B' =>
            if a <? b then (a, x) :: mergev A' B
            else if b <? a then (b, y) :: merge_a B'
            else (a, Build_cs (c0 x + c0 y) (c1 x + c1 y) (c2 x + c2 y) (c3 x + c3 y))%float :: mergev A' B'
        end
  end.

Definition R : float := 8.5.
Definition W : float := 0x1.47ae147ae147bp-4.
Definition RW : float := (R * W)%float.
Fixpoint fpow_aux (fuel : nat) (b : float) (e : int) (acc : float) : float :=
  match fuel with O => acc | S f =>
    if e =? 0 then acc else fpow_aux f (b * b)%float (e >> 1) (if (e land 1) =? 1 then (acc * b)%float else acc) end.
Definition rpow (e : int) : float := fpow_aux 12 R e 1%float.

(* decide: None if dead (no contribution) or sure (contribution), Some if alive *)
Definition decide (rr : float) (a : cs) : bool * float :=
  let p := (c0 a + c1 a)%float in let n := (c2 a + c3 a)%float in
  if PrimFloat.leb (p * rr)%float n then (false, 0%float)
  else if PrimFloat.leb (n * rr)%float p then (false, (p - n)%float)
  else (true, 0%float).

(* one letter over the whole sorted list: the kept states (sorted), the fx-ups (sorted), the sum decided *)
Fixpoint letter (x : int) (rr : float) (L : list sv) (acc : float) : list sv * list sv * float :=
  match L with
  | [] => ([], [], acc)
  | (k, c) :: L' =>
    let '(keep, fx, acc) := letter x rr L' acc in
    let a := if x =? 0 then Build_cs (RW * c0 c) (W * c1 c) (W * c2 c) (W * c3 c)
             else if x =? 1 then Build_cs (W * c0 c) (RW * c1 c) (W * c2 c) (W * c3 c)
             else if x =? 2 then Build_cs (W * c0 c) (W * c1 c) (RW * c2 c) (W * c3 c)
             else if x =? 3 then Build_cs (W * c0 c) (W * c1 c) (W * c2 c) (RW * c3 c)
             else Build_cs (W * c0 c) (W * c1 c) (W * c2 c) (W * c3 c) in
    let '(alive, d) := decide rr a in
    let acc := (acc + d)%float in
    if negb alive then (keep, fx, acc) else
    if x =? 0 then ((k - (1 + B + B * B), a) :: keep, fx, acc)
    else if x =? 1 then
      (if cu k =? OFF then (keep, (k - (1 + B + B * B), Build_cs (c1 a) (c0 a) (c2 a) (c3 a)) :: fx, acc)
       else ((k + 1, a) :: keep, fx, acc))
    else if x =? 2 then
      (if cv k =? cw k then (keep, (k + B * B, Build_cs (c0 a) (c1 a) (c3 a) (c2 a)) :: fx, acc)
       else ((k + B, a) :: keep, fx, acc))
    else if x =? 3 then ((k + B * B, a) :: keep, fx, acc)
    else ((k, a) :: keep, fx, acc)
  end.

Definition step (rr : float) (L : list sv) (acc : float) : list sv * float :=
  let '(k0, f0, a) := letter 0 rr L acc in
  let '(k1, f1, a) := letter 1 rr L a in
  let '(k2, f2, a) := letter 2 rr L a in
  let '(k3, f3, a) := letter 3 rr L a in
  let '(k4, f4, a) := letter 4 rr L a in
  (mergev (mergev (mergev k0 k1) (mergev k2 k3)) (mergev (mergev k4 f1) f2), a).

Fixpoint run (fuel : nat) (K k : int) (L : list sv) (acc : float) (steps : int) : float * int :=
  match fuel with O => (acc, steps) | S f =>
    if K <=? k then (acc, steps) else
    let '(l, a) := step (rpow (K - k - 1)) L acc in
    run f K (k + 1) l a (steps + of_Z (Z.of_nat (List.length l)))
  end.
