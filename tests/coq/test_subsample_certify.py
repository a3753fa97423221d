"""Read from the certificates Coq made (tests/committed.py): randomized response on a
Poisson-subsampled batch (rate 1/10), 10 runs, add/remove neighbours: (1, 1/500) proved and
(1, 1/2000) refuted about `fmech_power (fmech_subsample ...) 10` (theories/Finite/Subsample.v), by
the accountant's route (about 20 s CPU each, re-check included)."""
from __future__ import annotations

import json
from pathlib import Path

import committed
import pytest

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "subsample"


def test_both_sides() -> None:
    tmp_path, results = committed.results(*sorted(SPECS.glob("*.yaml")))
    assert {n: o["verdict"] for n, o in results.items()} == {"rr_sub_10_runs": "proved",
                                                             "rr_sub_10_runs_low": "refuted"}
    proved = json.loads((tmp_path / "rr_sub_10_runs.json").read_text())
    assert proved["verdict"] == "proved"
    assert proved["theorems"][-1]["statement"] == "dp (nb_remove 0) rr_sub_10_runs 1 (1 / 500)"
    low = json.loads((tmp_path / "rr_sub_10_runs_low.json").read_text())
    assert low["verdict"] == "refuted"
    assert low["theorems"][-1]["statement"].endswith("~ dp (nb_remove 0) rr_sub_10_runs_low 1 (1 / 2000)")
    text = (tmp_path / "rr_sub_10_runs.v").read_text()
    assert "fmech_subsample (1 # 10) 0 rr_sub_10_runs_spec" in text
