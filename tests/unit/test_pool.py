"""The prover's job pool (`--jobs`): results in the order of the jobs, jobs really side by side,
the first failure raised; and `--jobs` checked like any other option."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from obligations.cli import main
from obligations.prover.pool import cores, run_all

REPO = Path(__file__).resolve().parents[2]


def test_results_come_back_in_the_order_of_the_jobs() -> None:
    def slow_first(n: int) -> int:
        time.sleep(0.05 * (5 - n))   # the first job ends last
        return n * n
    assert run_all(slow_first, [0, 1, 2, 3, 4], 3) == [0, 1, 4, 9, 16]
    assert run_all(slow_first, [2, 1], 1) == [4, 1]


def test_two_jobs_run_at_the_same_time() -> None:
    met = threading.Barrier(2, timeout=10)   # one at a time, the first would wait here until the timeout
    assert run_all(lambda n: met.wait() >= 0 and n, [1, 2], 2) == [1, 2]


def test_the_first_failure_is_raised() -> None:
    def fail_on_two(n: int) -> int:
        if n == 2:
            raise RuntimeError("job 2 failed")
        return n
    with pytest.raises(RuntimeError, match="job 2 failed"):
        run_all(fail_on_two, [1, 2, 3], 2)


def test_jobs_zero_means_one_per_core_and_negative_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cores() >= 1
    assert main(["prove", str(REPO / "mechanisms" / "randomized_response.yaml"), "--jobs", "-1"]) == 2
    assert "--jobs must be 0 (one per core) or more" in capsys.readouterr().err


def test_cluster_without_dask_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)     # as if not installed: import fails
    assert main(["prove", str(REPO / "mechanisms" / "randomized_response.yaml"),
                 "--cluster", "tcp://127.0.0.1:8786"]) == 2
    assert "--cluster needs Dask's distributed: pip install 'obligations[cluster]'" in capsys.readouterr().err


class Interrupted(BaseException):
    """What Ctrl-C raises in the main thread (KeyboardInterrupt would stop pytest itself)."""


def test_an_interrupt_kills_the_processes_the_jobs_wait_on() -> None:
    import signal

    from obligations.prover import process
    ended: list[process.Completed] = []

    def job(_: int) -> None:
        ended.append(process.run(["sleep", "60"], timeout=120))

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted()
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(Interrupted):
            run_all(job, [1, 2], 2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # both sleeps were killed (SIGKILL), not waited for; nothing is left running
    assert [c.returncode for c in ended] == [-9, -9] and not process._LIVE
