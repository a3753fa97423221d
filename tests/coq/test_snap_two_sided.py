"""The two refinements of the binary snapping bound for all parameters of a range
(theories/Float/SnapTwoSided64.v): U*'s factor at one end per sign, each input's own distance to each
end, the clamped outputs with U*'s factor once (`float_snap_dp_two_correct`, SnapTwoSidedDP.v), in
binary64 with a correctly rounded log.  The cells state `snap64_constant` (the seed's (12, 2) for
Lambda >= 1.9 lambda from B >= 1.5 lambda, Mironov's (16, 0) from B >= 1.1 lambda, ...), and a cell below
what the route gives (the seed's from B >= 1.3 lambda: the inside form 5.4*beta + 11.2 is above 12*beta + 2
there) is refused at its `lra`.  (One point, lambda = 1, Lambda = 2 lambda, B = 2 lambda, checked with
`interval` against the theorem's own K: bench/snap_two_sided_instance.v, not run here.)
The generator's cell by the same route (the seed's at (1.9, 1.5), tests/specs/binary64/
binary64_snapping_seed_constant_two_sided.yaml: its file is what `prove` compiles) and the cell below it
(B >= 1.3 lambda), which Python calls undecided, forced through Coq and refused at the forms' lemma."""
from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from coqrun import coqc

from obligations.core.obligation import Verdict
from obligations.float.all_parameters_document import BinarySnappingAllAnalysis, render
from obligations.float.wide_grid import two_hints
from obligations.models import load, unfold

SPEC = Path(__file__).resolve().parents[1] / "specs" / "binary64" / "binary64_snapping_seed_constant_two_sided.yaml"

CELLS = {
    "snap_binary64_seed_constant_two": "snap64_constant (19 / 10) (3 / 2) 12 2",
    "snap_binary64_mironov_constant_two": "snap64_constant (19 / 10) (11 / 10) 16 0",
    "snap_binary64_seed_constant_two_162": "snap64_constant (81 / 50) (18 / 10) 12 2",
    "snap_binary64_mironov_constant_two_111": "snap64_constant (111 / 100) (215 / 10) 16 0",
}
HEAD = ("From Coq Require Import Reals Lra.\nFrom Obligations.Float Require Import SnapSeed64 SnapTwoSided64.\n"
        "Local Open Scope R_scope.\n")
CELL = "two64_cell (1176 / 1000) (176 / 1000) (6685 / 1000) exp_18999_ge.\n"   # SnapTwoSided64.v's tactic


def test_the_range_cells_state_snap64_constant(tmp_path: Path) -> None:
    typed = "".join(f"Definition stated_{i} : {s} := {n}.\n" for i, (n, s) in enumerate(CELLS.items()))
    done = coqc(tmp_path, "TwoSidedCells", HEAD + typed + "Lemma same_route : snap64_constant (19 / 10) (3 / 2) 12 2.\n"
                "Proof.\n" + CELL + "Qed.\n")
    assert done.returncode == 0, done.stderr + done.stdout


def test_a_cell_below_the_route_is_refused(tmp_path: Path) -> None:
    done = coqc(tmp_path, "TwoSidedCellBelow", HEAD + "Lemma below : snap64_constant (19 / 10) (13 / 10) 12 2.\n"
                "Proof.\n" + CELL + "Qed.\n")
    assert done.returncode != 0
    assert "Cannot find witness" in done.stderr + done.stdout


def test_the_generator_s_cell_below_is_refused_at_its_forms(tmp_path: Path) -> None:
    u = unfold(load(SPEC))
    assert u.plan.expected == Verdict.PROVED
    assert "From Obligations Require Import PreludeBinaryTwo." in u.rendered.text
    assert "snap_binary64_two_ab" in u.rendered.text
    below = replace(u.spec, beta0=Fraction(13, 10))
    h = two_hints(below.rho0)
    assert h is not None and not h.fits(below.a, below.b, below.rho0, Fraction(13, 10))
    forced = coqc(tmp_path, "TwoSidedBelow", render(BinarySnappingAllAnalysis(below, True, None, h)).text)
    assert forced.returncode != 0
    line = int(re.search(r"line (\d+),", forced.stderr).group(1))   # type: ignore[union-attr]
    lemmas = [t for t in render(BinarySnappingAllAnalysis(below, True, None, h)).text.splitlines()[:line]
              if t.startswith("Lemma ")]
    assert lemmas[-1].startswith(f"Lemma {u.spec.name}_forms :"), forced.stderr


# An input inside a bucket in eight pieces (theories/Float/SnapTwoSidedPieces64.v, `snap_binary64_two_split_ab`,
# no B >= lambda): the generator's cell of the seed's (12, 2) at (1.9, 0.8) (tests/specs/binary64/
# binary64_snapping_seed_constant_pieces.yaml), proved by the file `prove` compiles, and the cell below the
# route's edge (0.77 lambda), 0.76 lambda, which Python calls undecided, forced through Coq and refused at the
# forms' lemma (the first piece's pair is above 12*beta + 2 there).
PIECES_SPEC = SPEC.parent / "binary64_snapping_seed_constant_pieces.yaml"
PIECES_CELLS = {
    "snap_binary64_seed_constant_two_pw": "snap64_constant (19 / 10) (4 / 5) 12 2",
    "snap_binary64_mironov_constant_two_pw": "snap64_constant (19 / 10) (7 / 10) 16 0",
}


def test_the_pieces_cell_is_proved_and_the_cell_below_refused(tmp_path: Path) -> None:
    typed = "".join(f"Definition pieces_{i} : {s} := {n}.\n" for i, (n, s) in enumerate(PIECES_CELLS.items()))
    done = coqc(tmp_path, "PiecesCells", HEAD.replace("SnapTwoSided64.", "SnapTwoSided64 SnapTwoSidedPieces64.")
                + typed)
    assert done.returncode == 0, done.stderr + done.stdout
    u = unfold(load(PIECES_SPEC))
    assert u.plan.expected == Verdict.PROVED and u.mechanism.pieces is not None
    assert "From Obligations Require Import PreludeBinaryPieces." in u.rendered.text
    proved = coqc(tmp_path, "PiecesCell", u.rendered.text)
    assert proved.returncode == 0, proved.stderr + proved.stdout
    below = replace(u.spec, beta0=Fraction(76, 100))
    assert unfold_verdict(below) == Verdict.UNDECIDED
    text = render(BinarySnappingAllAnalysis(below, True, None, pieces=u.mechanism.pieces)).text
    forced = coqc(tmp_path, "PiecesBelow", text)
    assert forced.returncode != 0
    line = int(re.search(r"line (\d+),", forced.stderr).group(1))   # type: ignore[union-attr]
    lemmas = [t for t in text.splitlines()[:line] if t.startswith("Lemma ")]
    assert lemmas[-1].startswith(f"Lemma {u.spec.name}_forms :"), forced.stderr


def unfold_verdict(spec: Any) -> Verdict:
    """What Python expects of a spec changed in place (its range)."""
    from obligations.float.all_parameters import AllParameters
    return AllParameters().analyse(spec).plan.expected
