(** * The coefficient DP of 5-ary randomized response in primitive floats: a cost measurement

    hs(t) of K releases on the same database (priors 1/2, 1/2 on inputs 0, 1 against 2, 3;
    Pr[y = x] = 17/25, else 2/25) as G_K(f - t f'), states merged up to a common power of
    r = 17/2 and up to swapping inputs 0 and 1 or 2 and 3, decided early (dropped when no
    continuation can end above 0, summed when none can end below 0): see
    obligations/analysis/cw_coef.py.  A state is a packed key (the exponents, base 256)
    and the four coefficient magnitudes.  Floats rounded to nearest and nothing proved:
    this file measures what coqc and coqchk pay for the computation a certified route
    would reduce (bench/cw_stream_coef.py --coq), not a certificate. *)
From Coq Require Import List PrimFloat Uint63 ZArith Bool.
Import ListNotations.
Local Open Scope uint63_scope.

Definition coord (k : int) (x : int) : int := (k >> (8 * x)) land 255.
Definition unit (x : int) : int := 1 << (8 * x).
Definition diag : int := 1 + (1 << 8) + (1 << 16) + (1 << 24).

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
Fixpoint pairsv (L : list (list sv)) : list (list sv) :=
  match L with a :: b :: r => mergev a b :: pairsv r | _ => L end.
Fixpoint msortv_aux (fuel : nat) (L : list (list sv)) : list sv :=
  match L with
  | [] => [] | [a] => a
  | _ => match fuel with O => concat L | S f => msortv_aux f (pairsv L) end
  end.
Definition msortv (l : list sv) : list sv := msortv_aux 40 (map (fun s => [s]) l).

Definition R : float := 8.5.
Definition W : float := 0x1.47ae147ae147bp-4.
Fixpoint fpow_aux (fuel : nat) (b : float) (e : int) (acc : float) : float :=
  match fuel with O => acc | S f =>
    if e =? 0 then acc else fpow_aux f (b * b)%float (e >> 1) (if (e land 1) =? 1 then (acc * b)%float else acc) end.
Definition rpow (e : int) : float := fpow_aux 12 R e 1%float.

(* extend by letter x (4: the output off the supports), canonical key: shift to min 0, sort the pairs *)
Definition ext (sym : bool) (rr : float) (s : sv) (x : int) : option sv * float :=
  let '(k, c) := s in
  let k1 := if x <? 4 then k + unit x else k in
  let a := Build_cs (if x =? 0 then R * W * c0 c else W * c0 c) (if x =? 1 then R * W * c1 c else W * c1 c)
                    (if x =? 2 then R * W * c2 c else W * c2 c) (if x =? 3 then R * W * c3 c else W * c3 c) in
  let p := (c0 a + c1 a)%float in let n := (c2 a + c3 a)%float in
  if PrimFloat.leb (p * rr)%float n then (None, 0%float)
  else if PrimFloat.leb (n * rr)%float p then (None, (p - n)%float)
  else
  let k2 := if (0 <? coord k1 0) && (0 <? coord k1 1) && (0 <? coord k1 2) && (0 <? coord k1 3) then k1 - diag else k1 in
  let '(k3, a) := if sym && (coord k2 1 <? coord k2 0)
                  then (k2 + unit 0 * (coord k2 1) + unit 1 * (coord k2 0) - unit 0 * (coord k2 0) - unit 1 * (coord k2 1),
                        Build_cs (c1 a) (c0 a) (c2 a) (c3 a)) else (k2, a) in
  let '(k4, a) := if sym && (coord k3 3 <? coord k3 2)
                  then (k3 + unit 2 * (coord k3 3) + unit 3 * (coord k3 2) - unit 2 * (coord k3 2) - unit 3 * (coord k3 3),
                        Build_cs (c0 a) (c1 a) (c3 a) (c2 a)) else (k3, a) in
  (Some (k4, a), 0%float).

Definition step (sym : bool) (rr : float) (L : list sv) (acc : float) : list sv * float :=
  fold_left (fun '(l, a) s =>
    fold_left (fun '(l, a) x => let '(o, d) := ext sym rr s x in
      (match o with Some s' => s' :: l | None => l end, (a + d)%float)) [0; 1; 2; 3; 4] (l, a)) L ([], acc).

Fixpoint run (sym : bool) (fuel : nat) (K k : int) (L : list sv) (acc : float) (steps : int) : float * int :=
  match fuel with O => (acc, steps) | S f =>
    if K <=? k then (acc, steps) else
    let '(l, a) := step sym (rpow (K - k - 1)) L acc in
    let l := msortv l in
    run sym f K (k + 1) l a (steps + of_Z (Z.of_nat (List.length l)))
  end.
