"""Progress off a terminal: one plain line per finished spec or certificate, a heartbeat after
30 s without a line, nothing with --quiet (a fake clock; no Coq: the certificates here fail
their comparison with the spec before Coq would run)."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from obligations import cli
from obligations.certify.outcome import Settings
from obligations.certify.progress import HEARTBEAT, LogLines
from obligations.certify.verify import verify_many

REPO = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_heartbeat_after_thirty_silent_seconds_naming_the_stage() -> None:
    stream, clock = io.StringIO(), Clock()
    log = LogLines(stream, clock)
    log.beat()
    assert stream.getvalue() == ""                      # nothing runs yet: no heartbeat
    log.stage = "rr: coqc"                              # what `__call__` notes (without the thread)
    clock.now += HEARTBEAT - 1
    log.beat()
    assert stream.getvalue() == ""
    clock.now += 1
    log.beat()
    assert stream.getvalue() == "[  30.0 s] still running: rr: coqc\n"
    clock.now += 10
    log.finished("rr: PROVED")
    clock.now += HEARTBEAT - 1                          # 29 s after the last line: still quiet
    log.beat()
    clock.now += 1
    log.beat()
    assert stream.getvalue().splitlines()[1:] == ["[  40.0 s] rr: PROVED",
                                                  "[  70.0 s] still running: rr: coqc"]
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()   # plain lines for a log


def test_the_heartbeat_thread_starts_with_the_first_stage_and_stops_on_close() -> None:
    log = LogLines(io.StringIO())
    assert log.thread is None
    log("rr: analysing")
    assert log.thread is not None and log.thread.is_alive() and log.stage == "rr: analysing"
    log.close()
    assert not log.thread.is_alive()
    log("rr: coqc")                                     # after close: no new thread
    assert not log.thread.is_alive()


def _tampered(tmp_path: Path, names: list[str]) -> list[Path]:
    """Copies of committed certificates whose claim no longer matches their spec."""
    paths = []
    for name in names:
        record = json.loads((REPO / "certificates" / f"{name}.json").read_text())
        record["claim"]["epsilon"] = "ln(2)"
        shutil.copy(REPO / "certificates" / f"{name}.v", tmp_path / f"{name}.v")
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record))
        paths.append(path)
    return paths


def test_verify_tells_each_certificate_as_it_is_done(tmp_path: Path) -> None:
    lines: list[str] = []
    paths = _tampered(tmp_path, ["randomized_response", "above_threshold_k1"])
    results = verify_many(paths, Settings(build=tmp_path / "build", finished=lines.append))
    assert [r.ok for r in results] == [False, False]
    assert lines == [f"{paths[0]}: FAILED", f"{paths[1]}: FAILED"]


def test_the_cli_prints_log_lines_off_a_terminal_and_none_when_quiet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [path] = _tampered(tmp_path, ["randomized_response"])
    build = str(tmp_path / "build")
    assert cli.main(["verify", str(path), "--build", build]) == 1
    out, err = capsys.readouterr()
    assert f"{path}: FAILED" in out
    assert [line.split("] ", 1)[1] for line in err.splitlines()] == [f"{path}: FAILED"]
    assert cli.main(["verify", str(path), "--build", build, "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert f"{path}: FAILED" in out and err == ""
