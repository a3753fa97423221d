"""Real Coq: the float convolution of Accountant/DownFloat.v evaluates each entry as its list
cell is built, so the kernel's lazy reduction (coqchk's only one) keeps one list per
convolution and not every product.  The same convolution written without `fcons` holds the
products unevaluated until the sum needs them: its peak memory, checked the same way (the
kernel's conversion at Qed, as coqchk does), is measurably higher.  This is what made coqchk
run out of memory on the discrete Gaussian's 1000-fold certificates."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from obligations.core.resources import THEORIES

pytestmark = pytest.mark.coq

N = 200   # three lists of N ones: about N^2 + 2N^2 products
HEAD = ("From Coq Require Import List Uint63.\nFrom Obligations.Accountant Require Import DownFloat.\n"
        "Import ListNotations.\n")
LAZY = """Fixpoint laxpy (b : F.type) (D acc : list F.type) : list F.type :=
  match D with
  | [] => acc
  | e :: D' => match acc with
               | [] => fmul b e :: laxpy b D' []
               | a :: acc' => fadd a (fmul b e) :: laxpy b D' acc'
               end
  end.
Fixpoint lconv (B D : list F.type) : list F.type :=
  match B with [] => [] | b :: B' => laxpy b D (F.zero :: lconv B' D) end.
"""
# The length is computed first (the spine, as trim does), then the sum (the entries).
CHECK = """Definition flat (n : nat) : list F.type := repeat (PrimFloat.of_uint63 1%uint63) n.
Definition total (L : list F.type) : F.type := fold_right fadd F.zero L.
Definition big (n : nat) : bool :=
  let L := CONV (CONV (flat n) (flat n)) (flat n) in Nat.eqb (length L) (3 * n - 2) && fsmall (total L) F.zero.
Lemma big_ok : big NUM = true.
Proof. exact_no_check (eq_refl true). Qed.
"""


def _peak_kib(tmp_path: Path, name: str, text: str) -> int:
    v = tmp_path / f"{name}.v"
    v.write_text(text)
    log = tmp_path / f"{name}.log"
    with log.open("wb") as out:   # os.wait4: this child's own peak, not every child's
        proc = subprocess.Popen(["coqc", "-Q", str(THEORIES), "Obligations", str(v)], cwd=tmp_path,
                                stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, log.read_text()
    return int(usage.ru_maxrss)


def test_strict_convolution_memory(tmp_path: Path) -> None:
    check = CHECK.replace("NUM", str(N))
    strict = _peak_kib(tmp_path, "StrictConv", HEAD + check.replace("CONV", "fconv"))
    lazy = _peak_kib(tmp_path, "LazyConv", HEAD + LAZY + check.replace("CONV", "lconv"))
    # measured: about 494 MB against 574 MB at N = 200 (514 against 698 at N = 300, for 4 s CPU
    # more; the library's own load is about 450 MB): twice the margin asked
    assert lazy - strict > 40_000, (strict, lazy)
