"""Real Coq: Python knows the discrete Gaussian's window exactly.  TreeConv.v's `hconv` (the tree
convolution below 700 masses) and Python's `hconv` give the same floats, bit for bit, on random
lists of both kinds (tree and sequential); and the masses Python assumes (gauss.py) are at most
Coq's (GaussMass.v's 70-bit `hmasses`), so that Python's bracket contains Coq's."""
from __future__ import annotations

import random
import re
import subprocess
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from obligations.analysis import accountant as acc
from obligations.core.resources import THEORIES
from obligations.table import gauss

pytestmark = pytest.mark.coq

FLOAT = re.compile(r"([-+0-9a-fA-Fx.p]+)%float")


def _float(text: str) -> float:
    return float.fromhex(text) if "0x" in text else float(text)


def _lit(xs: list[float]) -> str:
    return "[" + "; ".join(f"{x.hex()}%float" for x in xs) + "]"


def _eval(tmp_path: Path, terms: list[str]) -> list[list[float]]:
    body = "".join(f"Eval vm_compute in {t}.\n" for t in terms)
    v = tmp_path / "Agree.v"
    v.write_text("From Coq Require Import List PrimFloat QArith.\n"
                 "From Obligations.Accountant Require Import DownFloat TreeConv GaussMass.\n"
                 "Import ListNotations.\n" + body)
    res = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    chunks = res.stdout.split("     = ")[1:]    # one answer per term
    assert len(chunks) == len(terms)
    return [[_float(h) for h in FLOAT.findall(c)] for c in chunks]


def test_python_and_coq_agree_on_the_tree_and_the_masses(tmp_path: Path) -> None:
    rng = random.Random(15)
    b = [rng.random() * 2.0 ** -rng.randrange(8) for _ in range(19)]
    d = [rng.random() for _ in range(13)]
    big = [rng.random() / 1000 for _ in range(701)]    # past TREE_CUT: the sequential fconv
    m0 = gauss.window(F(4))
    tree, seq, masses = _eval(tmp_path, [f"hconv {_lit(b)} {_lit(d)}", f"hconv {_lit(big)} {_lit(d[:3])}",
                                         f"hmasses (4 # 1) {m0}"])
    assert np.array_equal(np.array(tree), acc.hconv(np.array(b), np.array(d)))
    assert np.array_equal(np.array(seq), acc.hconv(np.array(big), np.array(d[:3])))
    assert len(masses) == m0 + 1
    assumed = gauss.masses(F(4), m0)[m0:]      # z = 0 .. m0
    assert all(a <= F(c) for a, c in zip(assumed, masses, strict=True))
