"""Real Coq: the discrete Gaussian's certificate checks the upper claims and the refutations on
one window per shift (GaussCheck.v's `gauss_all`), so a re-check without a virtual machine
(coqchk) computes each window once.  A small spec (sigma = 2, 10 runs, the smallest epsilon at
delta = 1/1000: one claim proved, the one below refuted; tests/specs/additive/) passed coqc and
coqchk in seconds when Coq made its certificate (tests/certificates/); the same file with the
refuted claim's delta raised above the bracket is refused by coqc."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import committed
import pytest
from coqrun import coqc

from obligations.certify.run import unfold
from obligations.models import load

pytestmark = pytest.mark.coq

SPEC_PATH = Path(__file__).resolve().parents[1] / "specs" / "additive" / "dgauss_2_10_runs_at_delta.yaml"
SPEC = SPEC_PATH.read_text()
NAME = "dgauss_2_10_runs_at_delta"


def _rendered(tmp_path: Path) -> str:
    spec = tmp_path / f"{NAME}.yaml"
    spec.write_text(SPEC)
    u = unfold(load(spec))
    assert u.rendered.theorems == (f"{NAME}_below", f"{NAME}_dp")
    return u.rendered.text


def _coqc(folder: Path, text: str) -> subprocess.CompletedProcess[str]:
    folder.mkdir()
    return coqc(folder, NAME, text)


def test_both_sides_on_one_window() -> None:
    """The certificate Coq made of the spec (tests/specs/additive/, tests/certificates/: coqc and
    coqchk accepted its file; tests/coq/test_committed_certificates.py keeps it today's render with
    the recorded proofs): compiling and checking the render again here cost ~17 s of CPU."""
    _, results = committed.results(SPEC_PATH)
    assert results[NAME]["verdict"] == "proved"
    record = committed.record(NAME)
    assert [t["name"] for t in record["theorems"]] == [f"{NAME}_below", f"{NAME}_dp"]
    assert record["timings_s"]["coqc"] > 0 and record["timings_s"]["coqchk"] > 0
    text = (committed.TEST_CERTS / f"{NAME}.v").read_text()
    assert text.count("gwindow") == 0 and text.count(f"gauss_all {NAME}_v") == 1
    assert f"Definition {NAME}_to_refute : list (Z * I.type * Z * Q) := [(1%Z, iq (11 # 2), " in text


def test_a_refutation_above_the_bracket_is_refused(tmp_path: Path) -> None:
    text = _rendered(tmp_path)
    # delta(11/2) is about 1.16e-3: refuting (11/2, 1/100) is false, and the shared check must fail
    bad, n = re.subn(r"(_to_refute : list \(Z \* I\.type \* Z \* Q\) := "
                     r"\[\(1%Z, iq \(11 # 2\), \(\d+\)%Z, )\(1 # 1000\)", r"\1(1 # 100)", text)
    assert n == 1
    res = _coqc(tmp_path / "bad", bad)
    assert res.returncode != 0 and f"{NAME}_to_refute =" in res.stdout + res.stderr


def test_region_certifies_the_points_of_the_same_mechanism_in_one_theorem(tmp_path: Path) -> None:
    """`region --certify` of the spec: δ(5) bracketed from both sides and the smallest ε at
    10^-3 (5.6 proved, 5.59 refuted), by the same library theorems `prove` uses, in one file
    whose one theorem is their conjunction; coqc and coqchk both ran (about 20 s of CPU)."""
    import json

    import inprocess
    spec = tmp_path / f"{NAME}.yaml"
    spec.write_text(SPEC)
    done = inprocess.cli("region", str(spec), "--epsilon", "5", "--delta", "1/1000", "--certify", "--json",
                         "--out", str(tmp_path / "out"), "--build", str(tmp_path / "build"), "--quiet")
    assert done.returncode == 0, done.stderr + done.stdout
    cert = json.loads(done.stdout)["certificate"]
    assert cert["verdict"] == "proved" and cert["theorem"].endswith("_profile")
    statement = cert["statement"]
    assert statement.count("~ zdp") == 2 and statement.count("/\\") == 3, statement
    assert statement.endswith(" 1 10 (559 / 100) (1 / 1000)")
    record = json.loads(Path(cert["certificate"]).read_text())
    assert record["derived"]["compose"] == 10 and record["timings_s"]["coqchk"] > 0
