"""The case table `obligations show` prints for a binary snapping claim (kinds/binary_snapping/cases.py):
the outputs' cases with their library lemmas, and the generated file's obligations with their tactics
and numbers.  The obligations are checked against the rendered Coq file (same lemmas, same order, the
named tactic in each proof), so the table cannot drift from what Coq is given.  No Coq here."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from inprocess import cli

from obligations.float.binary64 import cases
from obligations.float.binary64_cases import interior_range
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path("mechanisms/diffprivlib_snapping.yaml")
NUMPY_LOG = Path("tests/specs/binary64/diffprivlib_snapping_numpy_log.yaml")
USER_EPS = Path("tests/specs/binary64/diffprivlib_snapping_user_eps.yaml")


def _proofs(text: str, name: str) -> list[tuple[str, str]]:
    """(lemma name without the prefix, its proof text) for each Lemma/Theorem of the generated file."""
    found = re.finditer(rf"^(?:Lemma|Theorem) {name}_(\w+)\b(.*?)Qed\.", text, re.S | re.M)
    return [(m.group(1), m.group(2).split("Proof.", 1)[1]) for m in found]


@pytest.mark.parametrize("path", [SHIPPED, NUMPY_LOG, USER_EPS], ids=lambda p: p.stem)
def test_obligations_are_the_generated_lemmas_with_their_tactics(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    u = unfold(load(path))
    table = cases(u.mechanism)
    proofs = _proofs(u.rendered.text, u.spec.name)
    assert [o.lemma for o in table.obligations] == [n for n, _ in proofs]
    for o, (_, proof) in zip(table.obligations, proofs, strict=False):
        for word in re.split(r"; |exact ", o.tactic.split(" (")[0]):
            assert word.strip() in proof, (o.lemma, o.tactic)
        if "i_prec" in o.tactic:
            assert o.tactic.split("(", 1)[1].rstrip(")") in proof, (o.lemma, o.tactic)


def test_show_prints_the_cases_and_the_numbers() -> None:
    done = cli("show", str(SHIPPED))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # the outputs: B = 100, Lambda = 2, so the interior grid points are k = -49..49
    assert "B = 100.0: tight_top_ratio (SnapTight.v)" in out
    assert "-B = -100.0: tight_bottom_ratio (SnapTight.v)" in out
    assert "k*Lambda, k = -49..49 (99 grid points strictly inside (-B, B)): tight_ratio (SnapTight.v)" in out
    assert "ln K = 1062.09 eta" in out
    assert "anything else: clamp_cases_3 (Clamp.v) in float_snap_dp_tight: probability 0 from every input" in out
    # the obligations, their count and tactics, and the numbers compared
    assert ("obligations of the generated file: 17 (field x1, float_snap_dp_tight_correct; exp_mono x1, "
            "generic_format_FLT; field x1, interval x7, lra x5, reflexivity x2)") in out
    assert "_g_ok (Hg): (g - 1)*Lambda < B <= g*Lambda -- lra [g = 50: 98.0 < 100.0 <= 100.0]" in out
    assert "B up to 353.698" in out      # the same limit the spec check prints (test_binary_snapping.py)
    assert "gap 1.553e-14" in out and "interval (i_prec 75)" in out
    assert "_lam_range (the pipeline's range): 2^-968 <= lambda -- interval [lambda = 1.0000000000001334" in out


def test_an_undecided_claim_shows_a_negative_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    u = unfold(load(USER_EPS))
    claim = next(o for o in cases(u.mechanism).obligations if o.lemma == "claim")
    assert "gap -4.313e-14" in claim.numbers


def test_a_log_within_ulps_adds_the_bound_on_mu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    table = cases(unfold(load(NUMPY_LOG)).mechanism)
    assert len(table.obligations) == 18
    mu = next(o for o in table.obligations if o.lemma == "mu_half")
    assert mu.statement == "0 <= mu <= 1/2" and "(1 ulp(s))" in mu.numbers


@pytest.mark.parametrize("bound, grid, expected", [
    (Fraction(100), Fraction(2), (-49, 49)),
    (Fraction(3), Fraction(2), (-1, 1)),
    (Fraction(4), Fraction(2), (-1, 1)),
    (Fraction(1, 3), Fraction(1), (0, 0)),
])
def test_interior_range(bound: Fraction, grid: Fraction, expected: tuple[int, int]) -> None:
    assert interior_range(bound, grid) == expected
