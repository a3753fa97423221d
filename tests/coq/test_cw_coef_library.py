"""The coefficient form of K runs on the same database (theories/Finite/CWCoef.v): hs(t) of
the two rows is gk K (g_i − t·g_j) (`hs_stream_gk`), and a state whose positive mass times
r^k is at most its negative mass has gk = 0 (`gk_dead`, r bounding M's rows' ratios).

3-ary randomized response (1/2 on the input, 1/4 elsewhere: ratio 2), priors on the points
0 and 1, one run: at t = 2 the coefficients (1, −2, 0) are dead, so hs(2) = 0 is proved from
the library's theorems alone; at t = 3/2 ((1, −3/2, 0), hs(3/2) = 1/8) the same proof is
refused by coqc.  Swapping inputs 0, 1 and outputs 0, 1 together leaves gk unchanged
(`gk_swap`); swapping outputs 0, 2 instead is refused.  Three coqc runs of about a second
each; the proof rests on the reals' axioms."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coqrun import coqc

from obligations.certify import allowlist
from obligations.prover.coq import assumption_names

REPO = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.coq

PROOF = r"""From Coq Require Import List QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import Sums.
From Obligations.Finite Require Import Mechanism Checker CheckerSound Compose CW PLD CWStream TypeClass CWCoef.
Import ListNotations.
Local Open Scope R_scope.

Definition rr3 : fmech := FMech 3 3 [[1#2; 1#4; 1#4]; [1#4; 1#2; 1#4]; [1#4; 1#4; 1#2]].
Definition f : list Q := [1; 0; 0]%Q.
Definition f' : list Q := [0; 1; 0]%Q.

Lemma rr3_ratio : forall x x' y, (x < n_in rr3)%nat -> (x' < n_in rr3)%nat -> (y < n_out rr3)%nat ->
  prob rr3 x y <= 2 * prob rr3 x' y.
Proof.
  intros x x' y Hx Hx' Hy. unfold prob, entry, rr3 in *. cbn [rows n_in n_out] in *.
  destruct x as [|[|[|]]]; try lia; destruct x' as [|[|[|]]]; try lia; destruct y as [|[|[|]]]; try lia;
    cbn [nth]; unfold Q2R; cbn [Qnum Qden]; lra.
Qed.

Theorem rr3_hs_zero : hs (fmech_cw (fmech_power rr3 1) f f') 0 1 (T) = 0.
Proof.
  rewrite hs_stream_gk by (reflexivity || (cbn; lia) || (apply rows_wf_spec; reflexivity)).
  apply (gk_dead rr3 (distr_of_check rr3 eq_refl) 2 rr3_ratio ltac:(lra)).
  unfold cpos, cneg, wt, rsum. cbn [cw_weights seq map nth f f' fold_right pow n_in rr3].
  unfold Q2R. cbn [Qnum Qden].
  unfold Rmax. repeat match goal with |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b) end; lra.
Qed.

Definition swap01 (x : nat) : nat := match x with 0 => 1 | 1 => 0 | _ => x end%nat.
Definition swap02 (x : nat) : nat := match x with 0 => 2 | 2 => 0 | _ => x end%nat.

(** Inputs 0, 1 and outputs (SG) permuted together: gk unchanged, if M cannot tell. *)
Lemma rr3_swap (c : nat -> R) : gk rr3 1 (fun x => c (swap01 x)) = gk rr3 1 c.
Proof.
  apply (gk_swap rr3 swap01 (SG)); unfold prob, entry, rr3; cbn [rows n_in n_out].
  - intros x Hx. destruct x as [|[|[|]]]; try lia; cbn; split; (lia || reflexivity).
  - intros y Hy. destruct y as [|[|[|]]]; try lia; cbn; split; (lia || reflexivity).
  - intros x y Hx Hy. destruct x as [|[|[|]]]; try lia; destruct y as [|[|[|]]]; try lia;
      cbn [nth swap01 swap02]; unfold Q2R; cbn [Qnum Qden]; lra.
Qed.
Set Printing Width 100000.
Print Assumptions rr3_hs_zero.
"""


def _coqc(tmp_path: Path, t: str, sg: str = "swap01") -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "coef_dead", PROOF.replace("(T)", f"({t})").replace("(SG)", sg))


def test_dead_coefficients_prove_hs_zero(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "2")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "rr3_hs_zero")      # the reals' axioms only
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_a_permutation_the_mechanism_can_tell_is_refused(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "2", sg="swap02")     # inputs 0, 1 swapped but outputs 0, 2: M(1)(2) <> M(0)(0)
    assert done.returncode != 0
    line = 1 + PROOF.splitlines().index("      cbn [nth swap01 swap02]; unfold Q2R; cbn [Qnum Qden]; lra.")
    assert f"line {line}," in done.stderr and "Cannot find witness" in done.stderr     # rr3_swap's Hsym


def test_live_coefficients_are_refused(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "3/2")                 # S+ * 2 = 2 > 3/2 = S-: gk_dead does not apply
    assert done.returncode != 0
    assert "Cannot find witness" in done.stderr
