"""A CW claim about K runs on the SAME database (`composition: {runs: K, same_database: true}`)
is certified by classes of output sequences (table/by_stream.py,
theories/Finite/TypeClass.v), without the 5^6-row product table.

5-ary randomized response, priors ½/½ on {0, 1} against {2, 3}, 6 releases: at
ε = 6·ln(19/4), where 6 releases on fresh databases are (ε, 0)-private, the same
database has δ(ε) = 0.16018; (ε, 17/100) is proved and (ε, 0) refuted with the loss event.
(The docs' example is 12 releases, `rr5_cw_stream_k12.yaml`: the same route, whose re-check
takes minutes; its values are tested without Coq in tests/unit/test_cw_stream_classes.py.)
Beyond the classes (20 releases, 10 626 > 5000), the composition theorem with the accountant
(table/by_stream_theorem.py, theories/Accountant/CWStreamAcc.v) proves (30, 19/100), in the
same `prove` run.  8-ary randomized response on the same supports, 6 releases, goes by 5
letters (the outputs 4..7 agree on the supports: one block of 4), 210 classes; the file
with forged letters (a wrong block size, or output 3 put in the outside block) is refused
by coqc.  The verdicts are read from the certificates Coq made of the specs
(tests/committed.py); one is re-checked by `verify`, and the forged files go to coqc now.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import committed
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "cw_compose"

pytestmark = pytest.mark.coq


def unqualified(statement: str) -> str:
    return re.sub(r"\b[A-Z][A-Za-z0-9_]*\.", "", statement)


Run = tuple[Path, dict[str, dict[str, Any]]]
NAMES = ("rr5_cw_stream_k6", "rr5_cw_stream_k6_fresh", "rr5_cw_stream_k20_theorem", "rr8_cw_stream_k6")


@pytest.fixture(scope="module")
def proved() -> Run:
    """The four claims, read from the certificates Coq made of them (tests/committed.py)."""
    return committed.results(*(SPECS / f"{n}.yaml" for n in NAMES))


def test_the_claim_is_proved_and_the_fresh_database_value_refuted(proved: Run) -> None:
    out, by_name = proved
    assert len(by_name) == 4
    ok, bad = by_name["rr5_cw_stream_k6"], by_name["rr5_cw_stream_k6_fresh"]
    assert ok["verdict"] == "proved"
    assert unqualified(ok["statement"]) == "dp nb_all rr5_cw_stream_k6 (6 * ln (19 / 4)) (17 / 100)"
    assert bad["verdict"] == "refuted"
    assert unqualified(bad["statement"]) == "~ dp nb_all rr5_cw_stream_k6_fresh (6 * ln (19 / 4)) 0"
    record = json.loads((out / "rr5_cw_stream_k6_fresh.json").read_text())
    assert record["witness"]["runs"] == 6 and record["witness"]["delta_exact"].startswith("0.16017")


def test_beyond_the_classes_the_theorem_proves(proved: Run) -> None:
    out, by_name = proved
    ok = by_name["rr5_cw_stream_k20_theorem"]
    assert ok["verdict"] == "proved"
    assert unqualified(ok["statement"]) == "dp nb_all rr5_cw_stream_k20_theorem 30 (19 / 100)"
    v = (out / "rr5_cw_stream_k20_theorem.v").read_text()
    assert ("Definition rr5_cw_stream_k20_theorem : fmech :=\n  fmech_cw (fmech_power "
            "rr5_cw_stream_k20_theorem_table 20) rr5_cw_stream_k20_theorem_prior "
            "rr5_cw_stream_k20_theorem_alt_prior.") in v
    assert "cw_stream_acc" in v and "supp_nb" in v


def test_the_certified_mechanism_is_the_same_database_power(proved: Run) -> None:
    out, _ = proved
    v = (out / "rr5_cw_stream_k6.v").read_text()
    assert ("Definition rr5_cw_stream_k6 : fmech :=\n  fmech_cw (fmech_power rr5_cw_stream_k6_table 6) "
            "rr5_cw_stream_k6_prior rr5_cw_stream_k6_alt_prior.") in v
    assert "cw_stream_dp_of_check" in v


def test_verify_rederives_the_classes_route(proved: Run) -> None:
    """`verify` re-derives the route's certificate from its spec (committed.rederived; its Coq
    re-check repeats the proof just made, and is the same for every route)."""
    out, _ = proved
    assert committed.rederived(out / "rr5_cw_stream_k6.json") == []


LETTERS = ("[(0%nat, 1%positive); (1%nat, 1%positive); (2%nat, 1%positive); (3%nat, 1%positive); "
           "(4%nat, 4%positive)]")


def test_letters_prove_eight_outputs(proved: Run) -> None:
    out, by_name = proved
    ok = by_name["rr8_cw_stream_k6"]
    assert ok["verdict"] == "proved"
    assert unqualified(ok["statement"]) == "dp nb_all rr8_cw_stream_k6 10 (1 / 4)"
    v = (out / "rr8_cw_stream_k6.v").read_text()
    assert f"Definition rr8_cw_stream_k6_letters : list letter :=\n  {LETTERS}." in v
    assert "Definition rr8_cw_stream_k6_blk : list nat := [0; 1; 2; 3; 4; 4; 4; 4]%nat." in v


@pytest.mark.parametrize("forged", [
    (LETTERS.replace("(4%nat, 4%positive)", "(4%nat, 5%positive)"), None),
    (LETTERS.replace("(3%nat, 1%positive); ", ""), "[0; 1; 2; 3; 3; 3; 3; 3]"),
], ids=["block-size", "output-3-outside"])
def test_forged_letters_are_refused(proved: Run, tmp_path: Path, forged: tuple[str, str | None]) -> None:
    out, _ = proved
    letters, blk = forged
    v = (out / "rr8_cw_stream_k6.v").read_text()
    assert LETTERS in v
    v = v.replace(LETTERS, letters)
    if blk is not None:
        v = v.replace("[0; 1; 2; 3; 4; 4; 4; 4]", blk)
    (tmp_path / "rr8_cw_stream_k6.v").write_text(v)
    done = subprocess.run(["coqc", "-Q", str(REPO / "obligations" / "theories"), "Obligations", "rr8_cw_stream_k6.v"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "check_stream_dp" in done.stdout + done.stderr
