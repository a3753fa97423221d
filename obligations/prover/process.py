"""Running a prover process: argv lists, a timeout that kills the whole
process group, peak memory, and an optional transcript log."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from obligations.errors import ProverMissing


@dataclass(frozen=True)
class Completed:
    argv: tuple[str, ...]
    returncode: int          # negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float
    peak_kib: int            # peak resident memory of the process, KiB
    timed_out: bool


def run(argv: Sequence[str], *, timeout: float, cwd: Path | None = None,
        transcript: Path | None = None, stdin: str = "",
        env: Mapping[str, str] | None = None) -> Completed:
    """Run `argv` (never through a shell) and wait at most `timeout` seconds; `env`: the
    process's whole environment (None: this one's)."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, env=env)
    except FileNotFoundError as exc:
        raise ProverMissing(f"{argv[0]} is not installed or not on PATH: install Coq "
                            "(`apt-get install coq libcoq-interval`) or run `make setup`") from exc
    track(proc.pid)
    try:
        return _finish(proc, argv, start, stdin, transcript, timeout)
    finally:
        untrack(proc.pid)


def _finish(proc: subprocess.Popen[bytes], argv: Sequence[str], start: float, stdin: str,
            transcript: Path | None, timeout: float) -> Completed:
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [threading.Thread(target=_drain, args=(proc.stdout, out), daemon=True),
               threading.Thread(target=_drain, args=(proc.stderr, err), daemon=True)]
    for t in readers:
        t.start()
    if proc.stdin:
        try:
            proc.stdin.write(stdin.encode())
            proc.stdin.close()
        except BrokenPipeError:
            pass
    try:
        status, peak, timed_out = _wait(proc, timeout)
    except BaseException:   # Ctrl-C while waiting: the process group goes with it
        _kill_group(proc.pid)
        raise
    for t in readers:
        t.join(timeout=5)
    for stream in (proc.stdout, proc.stderr, proc.stdin):
        if stream is not None:
            stream.close()
    done = Completed(tuple(argv), status, b"".join(out).decode("utf-8", "replace"),
                     b"".join(err).decode("utf-8", "replace"), time.monotonic() - start,
                     peak, timed_out)
    if transcript is not None:
        _log(transcript, done)
    return done


_LIVE: set[int] = set()        # process groups of the prover processes running now
_LIVE_LOCK = threading.Lock()


def track(pid: int) -> None:
    """Note a running prover process (its own process group) so that `kill_all` can end it."""
    with _LIVE_LOCK:
        _LIVE.add(pid)


def untrack(pid: int) -> None:
    with _LIVE_LOCK:
        _LIVE.discard(pid)


def kill_all() -> None:
    """End every prover process still running, with its group: when a parallel run is
    interrupted, its jobs' threads see their Coq die and return at once."""
    with _LIVE_LOCK:
        groups = list(_LIVE)
    for pgid in groups:
        _kill_group(pgid)


def _drain(stream: object, sink: list[bytes]) -> None:
    for chunk in iter(lambda: stream.read(65536), b""):  # type: ignore[attr-defined]
        sink.append(chunk)


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> tuple[int, int, bool]:
    """Reap the child with wait4 (for its peak memory); kill its group on timeout."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            _kill_group(proc.pid)  # stray grandchildren go too
            return proc.returncode, usage.ru_maxrss, False
        if time.monotonic() >= deadline:
            _kill_group(proc.pid)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, usage.ru_maxrss, True
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


_LOG_LOCK = threading.Lock()   # parallel jobs (`--jobs`) share one transcript


def _log(path: Path, done: Completed) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with _LOG_LOCK, path.open("a", encoding="utf-8") as f:
        f.write(f"$ {' '.join(done.argv)}\n# exit {done.returncode}, {done.seconds:.2f} s, "
                f"{done.peak_kib} KiB{', TIMED OUT' if done.timed_out else ''}\n")
        if done.stdout:
            f.write(done.stdout if done.stdout.endswith("\n") else done.stdout + "\n")
        if done.stderr:
            f.write("# stderr\n" + done.stderr + ("" if done.stderr.endswith("\n") else "\n"))
