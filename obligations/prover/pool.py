"""Running independent prover jobs side by side (`--jobs N`).

Each job (discharge and compile one file, or coqchk one batch) spends its time in the
Coq processes this layer starts; the Python between them is a few milliseconds of
bookkeeping. So the jobs run on threads: while a thread waits on its coqc, the others
start theirs, and N Coq processes run at once on N cores. Nothing is pickled, and the
results come back in the order of the jobs, whatever order they finish in, so a parallel
run reports exactly what a serial one does."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import TypeVar

from obligations.prover.process import kill_all

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on (what `--jobs 0` means)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # not Linux
        return max(1, os.cpu_count() or 1)


def run_all(fn: Callable[[T], R], items: Sequence[T], jobs: int) -> list[R]:
    """fn on every item, at most `jobs` at once; the results in the order of `items`.
    With jobs <= 1 (or one item) everything runs here, in order. The first exception stops
    the jobs not yet started and is raised once the running ones have ended (their Coq
    processes end by themselves or at their timeout); an interrupt (Ctrl-C) kills those
    processes first, so that it does not wait for them."""
    if jobs <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(jobs, len(items)), thread_name_prefix="prover") as pool:
        futures: list[Future[R]] = [pool.submit(fn, x) for x in items]
        try:
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        except BaseException:    # Ctrl-C: start nothing more, end the Coq processes the jobs wait on
            for f in futures:
                f.cancel()
            kill_all()
            raise
        failed = next((f for f in futures if f in done and f.exception() is not None), None)
        if failed is not None:
            for f in futures:
                f.cancel()
            raise failed.exception()   # type: ignore[misc]
        return [f.result() for f in futures]
