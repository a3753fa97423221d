"""The all-k route without Coq: the fragment, the alignment search, the fallback and
bad input."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from obligations.errors import SpecError
from obligations.models import expand, load
from obligations.program import coupling_analysis as A

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "coupling"


def shape_of(path: Path) -> A.Shape:
    s = A.shape(load(path))
    assert isinstance(s, A.Shape)
    return s


def test_above_threshold_alignment_is_the_textbook_one() -> None:
    s = shape_of(REPO / "mechanisms/above_threshold_all_k.yaml")
    assert (s.threshold, s.st, s.sq, s.release, s.cutoff, s.counted) == (1, (2, 1), (4, 1), "top", 1, False)
    assert A.search(s) == A.Alignment(dt=1, top=(1, -1), m=2, cost=Fraction(1))


def test_lyu_su_li_cutoff_c() -> None:
    s = shape_of(REPO / "mechanisms/sparse_vector_lsl_all_k.yaml")
    assert (s.sq, s.cutoff, s.counted) == ((12, 1), 3, True)
    found = A.search(s)
    assert isinstance(found, A.Alignment) and found.cost == 1


def test_report_noisy_max_moves_only_the_winner() -> None:
    s = A.shape(load(REPO / "mechanisms/report_noisy_max_all_k.yaml"))
    assert s == A.RnmShape((2, 1), 1)
    assert A.search_rnm(s) == A.Alignment(dt=0, top=(1, -1), m=2, cost=Fraction(1))
    assert isinstance(A.search_rnm(A.RnmShape((3, 2), 1)), A.NoAlignment)   # Lap(1.5/eps): costs 4/3


def test_report_noisy_max_releasing_the_value_is_outside() -> None:
    s = A.shape(load(SPECS / "rnm_all_k_value.yaml"))
    assert isinstance(s, A.Outside) and s.field == "program.body[3]" and "index" in s.message


@pytest.mark.parametrize("name,why", [
    ("at_all_k_noisy_value", "cost grows with k"),
    ("at_all_k_no_query_noise", "no noise to shift"),
    ("at_all_k_no_cutoff", "unboundedly many"),
])
def test_buggy_variants_have_no_alignment(name: str, why: str) -> None:
    found = A.search(shape_of(SPECS / f"{name}.yaml"))
    assert isinstance(found, A.NoAlignment) and why in found.reason


def test_too_little_noise_costs_more_than_eps() -> None:
    s = A.Shape(1, (2, 1), (2, 1), "top", 1, False, 1)
    found = A.search(s)
    assert isinstance(found, A.NoAlignment) and "3/2" in found.reason


def test_fallback_expands_to_the_finite_claims() -> None:
    specs = expand(load(SPECS / "at_all_k_noisy_value.yaml"))
    assert [s.name for s in specs] == ["at_all_k_noisy_value", "at_noisy_value_small_k_k1"]
    assert [s.kind for s in specs] == ["coupling", "program"]
    assert [s.name for s in expand(load(REPO / "mechanisms/above_threshold_all_k.yaml"))] == \
        ["above_threshold_all_k"]


def write(tmp_path: Path, body: str, extra: str = "") -> Path:
    p = tmp_path / "s.yaml"
    p.write_text("schema_version: 1\nname: cspec\nparameters: {T: 1}\nprogram:\n  inputs:\n"
                 "    q: {stream: k, sensitivity: 1}\n  body:\n" + body + "claim: {for_all_k: true}\n" + extra)
    return p


AT_LOOP = ("    - for: {var: i, in: q, value: a}\n      do:\n"
           "        - sample: {var: an, from: {geometric: {scale: 4, center: a}}}\n"
           "        - if: \"an >= tn\"\n          then: [top, stop]\n          else: [bot]\n")


def test_outside_the_fragment_says_which_construct(tmp_path: Path) -> None:
    body = "    - assign: {var: tn, value: T}\n" + AT_LOOP
    s = A.shape(load(write(tmp_path, body)))
    assert isinstance(s, A.Outside) and s.field == "program.body[0]" and "noisy threshold" in s.message


@pytest.mark.parametrize("body,field,words", [
    ("    - sample: {var: tn, from: {geometric: {scale: 0, center: T}}}\n" + AT_LOOP,
     "program.body[0].sample.from.geometric.scale", "positive"),
    ("    - sample: {var: tn, from: {geometric: {scale: 2, center: T / 2}}}\n" + AT_LOOP,
     "program.body[0].sample.from.geometric.center", "integer"),
    ("    - sample: {var: tn, from: {geometric: {scale: 2, center: T}}}\n"
     "    - for: {var: i, in: 3}\n      do: [bot]\n", "program.body[1].for", "outside the fragment"),
    ("    - sample: {var: tn, from: {tgeom: {alpha: 1/2, center: T, range: [0, 2]}}}\n" + AT_LOOP,
     "program.body", ""),
])
def test_bad_input_names_the_field(tmp_path: Path, body: str, field: str, words: str) -> None:
    with pytest.raises(SpecError) as e:
        load(write(tmp_path, body))
    assert e.value.field.startswith(field) and words in e.value.message


def test_missing_fallback_file(tmp_path: Path) -> None:
    body = "    - sample: {var: tn, from: {geometric: {scale: 2, center: T}}}\n" + AT_LOOP
    with pytest.raises(SpecError) as e:
        load(write(tmp_path, body, "fallback: nowhere.yaml\n"))
    assert e.value.field == "fallback"
