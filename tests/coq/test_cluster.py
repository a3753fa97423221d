"""Real Coq on a Dask cluster: `prove --cluster` on a local cluster of two worker processes
gives the verdicts, the report and the certificates `prove` gives (timings aside).
Skipped when Dask's `distributed` (the optional extra `cluster`) is not installed."""
from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip(
    "distributed", reason="the Dask route is the optional extra 'cluster' (pip install 'obligations[cluster]')")

from obligations.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parent.parent.parent
VARYING = {"timings_s", "peak_memory_kib", "certificate_sha256", "seconds"}   # "seconds": per obligation


def prove(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["prove", *argv])
    return code, out.getvalue()


def strip(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VARYING}
    return [strip(v) for v in x] if isinstance(x, list) else x


def certificates(where: Path) -> dict[str, Any]:
    return {p.name: strip(json.loads(p.read_text())) for p in sorted(where.glob("*.json"))}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cluster_of_two_workers_reports_and_certifies_what_prove_does(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("geometric_buggy_table.yaml", "rr_eps1_delta0.yaml"):
        shutil.copy(REPO / "tests" / "specs" / name, specs / name)
    shutil.copy(REPO / "mechanisms" / "randomized_response_eps1.yaml", specs)
    code, serial = prove(str(specs), "--out", str(tmp_path / "serial"), "--build", str(tmp_path / "b1"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        code_c, remote = prove(str(specs), "--out", str(tmp_path / "cluster"), "--build", str(tmp_path / "b2"),
                               "--cluster", cluster.scheduler_address)
    assert code == code_c == 1, remote                          # two refutations
    def report(text: str, where: str) -> list[str]:
        return [re.sub(r"\s+[0-9.]+$", "", line.replace(str(tmp_path / where), "DIR")) for line in text.splitlines()]
    assert report(serial, "serial") == report(remote, "cluster")
    assert "1 proved, 2 refuted" in remote
    assert certificates(tmp_path / "serial") == certificates(tmp_path / "cluster")
    assert len(certificates(tmp_path / "cluster")) == 3


def test_no_scheduler_is_an_infrastructure_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = prove(str(REPO / "mechanisms" / "randomized_response.yaml"), "--out", str(tmp_path),
                    "--cluster", "tcp://127.0.0.1:9", "--timeout", "3")
    assert code == 3 and "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err
