"""Composed claims beyond the product table certified by `obligations prove` through the
accountant (theories/Accountant/), from both sides, and the smallest epsilon at delta: read from
the certificates Coq made (tests/committed.py); the points of `region --certify` in one theorem,
with real Coq now.  Cheap: 10 runs of the 1/2-geometric over {0..5}
(6^10 outputs; the exact delta(3) is 0.230771...) and 50 runs of 3-ary randomized response."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import committed
import inprocess
import pytest
import yaml

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parent.parent.parent
COMPOSITION = REPO / "tests" / "specs" / "composition"
LOW = COMPOSITION / "geometric_10_runs_delta_low.yaml"
RR3 = yaml.safe_load((COMPOSITION / "rr3_50_runs_at_delta.yaml").read_text())   # 50 runs, 3-ary RR


def obligations(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


def test_delta_just_below_the_exact_one_is_refuted_with_its_witness() -> None:
    _, results = committed.results(LOW)
    assert results[LOW.stem]["verdict"] == "refuted"
    cert = committed.record(LOW.stem)
    (theorem,) = cert["theorems"]
    assert theorem["statement"].startswith(
        "let L := loss_event geometric_10_runs_delta_low 0 1 (exp 3) in")
    assert theorem["statement"].endswith("~ dp nb_adjacent geometric_10_runs_delta_low 3 (2307 / 10000)")
    assert (cert["witness"]["x"], cert["witness"]["x_prime"]) == ("0", "1")
    assert "FloatAxioms.next_down_spec" in " ".join(cert["assumptions"])   # floats rounded down, allow-listed


def test_delta_just_above_the_exact_one_is_proved() -> None:
    _, results = committed.results(COMPOSITION / "geometric_10_runs.yaml")
    assert results["geometric_10_runs"]["verdict"] == "proved"
    (theorem,) = committed.record("geometric_10_runs")["theorems"]
    assert theorem["statement"] == "dp nb_adjacent geometric_10_runs 3 (577 / 2500)"


def test_the_smallest_epsilon_at_delta_is_proved_and_the_one_below_refuted() -> None:
    _, results = committed.results(COMPOSITION / "rr3_50_runs_at_delta.yaml")
    assert results["rr3_50_runs_at_delta"]["verdict"] == "proved"
    below, dp = committed.record("rr3_50_runs_at_delta")["theorems"]
    assert dp["statement"].startswith("dp nb_all rr3_50_runs_at_delta ") and dp["statement"].endswith("(1 / 1000)")
    assert below["statement"].endswith("(1 / 1000)") and "~ dp nb_all" in below["statement"]
    eps, eps_below = (epsilon_of(t["statement"]) for t in (dp, below))
    assert abs(eps - eps_below - 0.1) < 1e-9


def epsilon_of(statement: str) -> float:
    """ε of the statement's last `dp nb_all NAME ε δ`: an integer or (p / q)."""
    m = re.findall(r"dp nb_all \S+ (\((\d+) / (\d+)\)|(\d+)) ", statement)[-1]
    return int(m[3]) if m[3] else int(m[1]) / int(m[2])


def test_region_certifies_every_point_in_one_theorem(tmp_path: Path) -> None:
    spec = tmp_path / "rr3.yaml"
    spec.write_text(yaml.safe_dump(dict(RR3, name="rr3", claim={"epsilon": "55", "delta": "0.01"}), sort_keys=False))
    done = obligations("region", str(spec), "--compose", "50", "--epsilon", "50", "--delta", "1/10000",
                       "--certify", "--out", str(tmp_path / "out"), "--build", str(tmp_path / "build"), "--json")
    assert done.returncode == 0, done.stderr + done.stdout
    prof = json.loads(done.stdout)
    assert prof["certificate"]["verdict"] == "proved"
    statement = prof["certificate"]["statement"]
    assert statement.count("~ dp") == 2 and statement.count("/\\") == 3   # two points, both sides


CHAIN = REPO / "tests" / "specs" / "chain"


def test_a_chain_below_its_delta_is_refuted_and_its_smallest_epsilon_proved() -> None:
    """10 runs of randomized response keeping 2/3, then 20 keeping 1/2 (loss keys of base 2)."""
    tmp_path, results = committed.results(CHAIN / "rr3_chain_low.yaml", CHAIN / "rr3_chain_at_delta.yaml")
    assert {n: o["verdict"] for n, o in results.items()} == {"rr3_chain_low": "refuted", "rr3_chain_at_delta": "proved"}
    low = json.loads((tmp_path / "rr3_chain_low.json").read_text())
    assert low["verdict"] == "refuted"
    (theorem,) = low["theorems"]
    assert theorem["statement"].endswith("~ dp nb_all rr3_chain_low 12 (1 / 100)")
    assert [p["runs"] for p in low["claim"]["compose"]] == [10, 20]
    at = json.loads((tmp_path / "rr3_chain_at_delta.json").read_text())
    assert at["verdict"] == "proved"
    below, dp = at["theorems"]
    assert dp["statement"] == "dp nb_all rr3_chain_at_delta (213 / 10) (1 / 1000)"
    assert "~ dp nb_all rr3_chain_at_delta (106 / 5) (1 / 1000)" in below["statement"]


def test_an_adaptive_chain_is_proved_by_its_pairs_and_refuted_by_its_fixed_chain() -> None:
    """4 adaptive rounds dominated by randomized response's rows (a, b) (swap kernels) and by
    rr3_lean_c's (LP kernels): (3, 1/5) proved for every such sequence, (3, 1/100) refuted by
    the fixed sequence of the parts."""
    tmp_path, results = committed.results(CHAIN / "rr3_adaptive.yaml", CHAIN / "rr3_adaptive_low.yaml")
    assert {n: o["verdict"] for n, o in results.items()} == {"rr3_adaptive": "proved", "rr3_adaptive_low": "refuted"}
    proved = json.loads((tmp_path / "rr3_adaptive.json").read_text())
    (theorem,) = proved["theorems"]
    assert theorem["statement"].startswith(
        "(forall Rs : list adaptive_round, Forall2 (round_dominated nb_all 3) Rs (chain_of rr3_adaptive_dgroups) ->")
    assert "adp nb_all 3 Rs 3 (1 / 5))" in theorem["statement"]
    assert "pair_dominated M x x' D) (chain_of rr3_adaptive_groups) (chain_of rr3_adaptive_dgroups)" in \
        theorem["statement"]
    assert "every adaptive sequence" in proved["claim"]["adaptive"]["about"]
    low = json.loads((tmp_path / "rr3_adaptive_low.json").read_text())
    (theorem,) = low["theorems"]
    assert theorem["statement"].startswith("~ (forall Rs : list adaptive_round,")
    assert theorem["statement"].endswith("adp nb_all 3 Rs 3 (1 / 100))")
