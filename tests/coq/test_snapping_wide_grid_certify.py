"""All-parameters snapping over a narrower range with real Coq: the shipped seed-constant spec is
proved and its theorem rests only on the reals' axioms (read from the certificate Coq made,
certificates/: tests/coq/test_committed_certificates.py keeps it current; compiling it again cost
~8 s CPU); the same form one unit of clamp past SnapSeed64.v's range (B >= 10 lambda), which Python
proves by the two refinements (SnapTwoSided64.v) instead, forced through SnapSeed64.v's route in Coq
(the file only, no coqchk: a few seconds), is refused at the
constant's inequality (Coq, not Python, decides)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import committed
import yaml
from coqrun import coqc

from obligations.certify import allowlist
from obligations.core.obligation import Verdict
from obligations.float.all_parameters_document import BinarySnappingAllAnalysis, render
from obligations.float.wide_grid import hints
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "mechanisms" / "binary64_snapping_seed_constant_wide_grid.yaml"


def _coqc(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "Wide", text)


def test_seed_constant_over_the_wide_grid_compiles_on_the_reals_axioms() -> None:
    assert unfold(load(SEED)).plan.expected == Verdict.PROVED
    folder, results = committed.results(SEED)
    assert results[SEED.stem]["verdict"] == "proved"
    record = committed.record(SEED.stem, folder)
    assert record["theorems"][-1]["name"] == "binary64_snapping_seed_constant_wide_grid_dp"
    assert record["assumptions"] and set(record["assumptions"]) <= allowlist.REALS
    assert allowlist.refused(record["assumptions"], uses_interval=False) == []


def test_seed_constant_past_the_range_is_refused_by_coq(tmp_path: Path) -> None:
    data = yaml.safe_load(SEED.read_text())
    data["snapping"]["bound"] = {"min_over_lambda": 10}
    path = tmp_path / "ten.yaml"
    path.write_text(yaml.safe_dump(data))
    u = unfold(load(path))
    assert u.plan.expected == Verdict.PROVED and u.mechanism.two is not None   # by the two refinements
    text = render(BinarySnappingAllAnalysis(u.spec, False, hints(u.spec.rho0))).text   # SnapSeed64.v's route
    forced = _coqc(tmp_path, text)
    assert forced.returncode != 0
    line = int(re.search(r"line (\d+),", forced.stderr).group(1))   # type: ignore[union-attr]
    lemmas = [t for t in text.splitlines()[:line] if t.startswith("Lemma ")]
    assert lemmas[-1].startswith("Lemma binary64_snapping_seed_constant_wide_grid_b_ok :"), forced.stderr


ONE_ULP = REPO / "tests" / "specs" / "binary64" / "binary64_snapping_mironov_constant_one_ulp.yaml"


def test_mironov_constant_for_a_log_within_one_ulp_compiles_and_a_smaller_clamp_is_refused(tmp_path: Path) -> None:
    """Mironov's (16, 0) for a log within 1 ulp over 1.99 lambda <= Lambda, B >= 95 lambda: the rendered file
    compiles and its theorem is SnapSeedUlps.v's snap64_constant_ulps 1 (199/100) 95 16 0 (Coq checks it); the
    same claim from B >= 94 lambda (Python: from 94.73 lambda on), forced through the route, is refused at the
    constant's inequality.  The files only, no coqchk."""
    u = unfold(load(ONE_ULP))
    assert u.plan.expected == Verdict.PROVED
    name = u.spec.name
    same = (f"\nExample {name}_is_the_library_form : snap64_constant_ulps 1 (199 / 100) 95 16 0.\n"
            f"Proof. intros choice lnf pr t. exact ({name}_dp t choice lnf pr). Qed.\n")
    proved = _coqc(tmp_path, u.rendered.text + same)
    assert proved.returncode == 0, proved.stderr
    data = yaml.safe_load(ONE_ULP.read_text())
    data["snapping"]["bound"] = {"min_over_lambda": 94}
    path = tmp_path / "ninety_four.yaml"
    path.write_text(yaml.safe_dump(data))
    below = unfold(load(path))
    assert below.plan.expected == Verdict.UNDECIDED
    text = render(BinarySnappingAllAnalysis(below.spec, True, hints(below.spec.rho0))).text
    forced = _coqc(tmp_path, text)
    assert forced.returncode != 0
    line = int(re.search(r"line (\d+),", forced.stderr).group(1))   # type: ignore[union-attr]
    lemmas = [t for t in text.splitlines()[:line] if t.startswith("Lemma ")]
    assert lemmas[-1].startswith(f"Lemma {name}_b_ok :"), forced.stderr
