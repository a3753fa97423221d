"""`prove --cluster` without a scheduler: an infrastructure failure (exit 3), said in one line.
(A local cluster of two workers giving what `prove` gives: tests/coq/test_jobs.py, beside
`--jobs 2`, against the same serial run.)  Skipped when Dask's `distributed` (the optional
extra `cluster`) is not installed."""
from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

import pytest

from obligations.cli import main

# Whether the extra is installed, without importing it: every xdist worker collects this file,
# and importing `distributed` costs about 1 s of CPU (the run imports it when it needs it).
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="the Dask route is the optional extra 'cluster' (pip install 'obligations[cluster]')")

REPO = Path(__file__).resolve().parent.parent.parent


def prove(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["prove", *argv])
    return code, out.getvalue()


def test_no_scheduler_is_an_infrastructure_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = prove(str(REPO / "mechanisms" / "randomized_response.yaml"), "--out", str(tmp_path),
                    "--cluster", "tcp://127.0.0.1:9", "--timeout", "3")
    assert code == 3 and "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err
