(** * Probabilistic programs: syntax

    The small language of program specs (issue 4).  Variables are slots
    [0 .. n-1] of an environment of integers; the spec's names are mapped to
    slots by the tool, in the order they are declared (inputs first).
    Everything is finite: distributions are finite lists of weighted values,
    loops run a constant number of times. *)
From Coq Require Import List ZArith QArith.
Import ListNotations.

(** Integer expressions. *)
Inductive aexp :=
| AConst (z : Z)
| AVar (x : nat)
(** [AIdx base len i]: slot [base + i] when [0 <= i < len], else [0]
    (a stream of [len] values stored from slot [base]). *)
| AIdx (base len : nat) (i : aexp)
| AAdd (a b : aexp)
| ASub (a b : aexp)
| AMul (a b : aexp)
| AMin (a b : aexp)
| AMax (a b : aexp)
| AAbs (a : aexp)
(** Division and remainder by a positive constant, rounding down
    ([Z.div], [Z.modulo]: [-7 / 2 = -4], [-7 mod 2 = 1]). *)
| ADiv (a : aexp) (d : positive)
| AMod (a : aexp) (d : positive).

(** Boolean expressions. *)
Inductive bexp :=
| BTrue
| BFalse
| BLt (a b : aexp)
| BLe (a b : aexp)
| BEq (a b : aexp)
| BNot (b : bexp)
| BAnd (b c : bexp)
| BOr (b c : bexp).

(** Named finite distributions over integers. *)
Inductive dexp :=
(** [DTable key key_lo val_lo rows]: row [key - key_lo] of [rows]; its entry [j]
    is the probability of [val_lo + j].  A key outside the table gives the empty
    sub-distribution. *)
| DTable (key : aexp) (key_lo val_lo : Z) (rows : list (list Q))
(** The truncated α-geometric mechanism over [lo .. hi] at [center]:
    clamp to [lo, hi] of [center + Z], Pr[Z = z] = (1-α)/(1+α) α^|z|. *)
| DTGeom (alpha : Q) (center : aexp) (lo hi : Z)
(** The two-sided geometric noise restricted to [lo .. hi] and renormalised:
    Pr[z] ∝ α^|z| for lo <= z <= hi. *)
| DTwoSided (alpha : Q) (lo hi : Z)
(** Bernoulli: 1 with probability p, 0 with probability 1 - p. *)
| DBernoulli (p : Q)
(** Uniform over [lo .. hi]. *)
| DUniform (lo hi : Z)
(** The untruncated two-sided geometric at [center] with scale [num/den]:
    center + Z, Pr[Z = z] ∝ e^(−ε·|z|·den/num) (Lap(scale/ε) in geometric
    form).  Infinite support: only the tape semantics
    (Coupling/TapeSem.v) gives it a meaning; the finite semantics
    ([dsem]) gives the empty sub-distribution. *)
| DGeom (num den : positive) (center : aexp).

(** One released value: ⊤, ⊥ or an integer. *)
Inductive oval := OTop | OBot | OVal (z : Z).

Inductive stmt :=
| SSkip
| SSeq (s1 s2 : stmt)
| SAssign (x : nat) (a : aexp)
| SSample (x : nat) (d : dexp)
| SIf (b : bexp) (s1 s2 : stmt)
(** [SFor x n body]: for x = 0 .. n-1 do body. *)
| SFor (x : nat) (n : nat) (body : stmt)
(** Release a value (appended to the output sequence). *)
| SOut (a : aexp)
| STop
| SBot
(** Stop: nothing after it runs. *)
| SStop.
