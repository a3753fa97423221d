"""Real Coq: specs with explicit neighbour pairs (`neighbours: {pairs: ...}`) are proved
and refused like any other; the pairs reach Coq as `nb_list [(a%nat, b%nat); ...]`."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import committed
import inprocess
import yaml

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "pairs"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


def prove(spec: Path, tmp: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """`obligations prove SPEC --json`, and its one result."""
    run = cli("prove", str(spec), "--out", str(tmp), "--build", str(tmp / "build"), "--json")
    assert run.stdout, run.stderr
    results = json.loads(run.stdout)["results"]
    assert len(results) == 1, results
    return run, results[0]


def test_pairs_claim_is_proved() -> None:
    """Read from the certificate Coq made (tests/certificates/, tests/committed.py); the false
    variant and the integer labels below are proved now."""
    folder, results = committed.results(SPECS / "chain_pairs.yaml")
    o = results["chain_pairs"]
    assert o["verdict"] == "proved"
    # Only a~b and b~c: with every pair (a~c too) ln 2 would be false.
    assert o["statement"] == "dp (nb_list [(0%nat, 1%nat); (1%nat, 2%nat)]) chain_pairs (ln 2) 0"
    record = json.loads((folder / "chain_pairs.json").read_text())
    assert record["verdict"] == "proved"
    assert committed.rederived(folder / "chain_pairs.json") == []    # what verify re-derives


def test_pairs_false_claim_is_refuted_with_a_witness(tmp_path: Path) -> None:
    run, o = prove(SPECS / "chain_pairs_false.yaml", tmp_path)
    assert run.returncode == 1, run.stderr
    assert o["verdict"] == "refuted", o["message"]
    assert o["statement"].startswith("~ dp (nb_list [(0%nat, 1%nat); (1%nat, 2%nat); (2%nat, 0%nat)]) ")
    w = o["witness"]
    assert {w["x"], w["x_prime"]} == {"a", "c"}  # the pair the false variant adds
    assert float(w["violation"]) > 0
    record = json.loads((tmp_path / "chain_pairs_false.json").read_text())
    assert record["verdict"] == "refuted" and record["witness"] == w


def test_pairs_of_integer_labels_with_delta(tmp_path: Path) -> None:
    """Integer labels and a (0, delta) claim: the hockey-stick check over the listed pairs."""
    data = yaml.safe_load((SPECS / "chain_pairs.yaml").read_text())
    data.update(name="chain_pairs_int", inputs=[10, 20, 30], neighbours={"pairs": [[20, 10], [30, 20]]},
                table={"10": data["table"]["a"], "20": data["table"]["b"], "30": data["table"]["c"]},
                claim={"epsilon": "0", "delta": "1/4"})  # total variation 1/4 on each pair (1/2 for 10~30)
    spec = tmp_path / "chain_pairs_int.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    run, o = prove(spec, tmp_path / "out")
    assert run.returncode == 0, (o["message"], run.stderr)
    assert o["verdict"] == "proved"
    assert o["statement"] == "dp (nb_list [(1%nat, 0%nat); (2%nat, 1%nat)]) chain_pairs_int 0 (1 / 4)"
