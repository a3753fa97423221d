"""What `prove` and `verify` say on stderr while they run.

On a terminal: one status line rewritten in place (`StatusLine`). Off a terminal (CI, a log
file, a pipe), a rewritten line is noise and stdout may be block-buffered until the end, so
`LogLines` prints one plain line per finished spec or certificate and, when nothing was
printed for `interval` seconds, a heartbeat naming the stage that runs."""
from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from typing import TextIO

Clock = Callable[[], float]
HEARTBEAT = 30.0        # seconds of silence before a heartbeat line


class StatusLine:
    """One line on stderr saying what runs now and for how long the command has run,
    rewritten in place; `clear` before printing results."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.start, self.shown = stream, time.monotonic(), False
        self.lock = threading.Lock()   # with --jobs, several workers say what they start

    def __call__(self, stage: str) -> None:
        width = max(20, shutil.get_terminal_size((100, 20)).columns - 1)
        text = f"[{time.monotonic() - self.start:6.1f} s] {stage}"
        with self.lock:
            self.stream.write("\r\x1b[K" + text[:width])
            self.stream.flush()
            self.shown = True

    def clear(self) -> None:
        with self.lock:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self.shown = False

    def close(self) -> None:
        self.clear()


class LogLines:
    """Plain lines for a log: `finished` prints one, `__call__` only notes the stage that
    starts, and `beat` prints a heartbeat with that stage once `interval` seconds passed
    without a line. `start_heartbeat` runs `beat` from a daemon thread until `close`; the
    tests drive `beat` with their own clock instead."""

    def __init__(self, stream: TextIO, clock: Clock = time.monotonic, interval: float = HEARTBEAT) -> None:
        self.stream, self.clock, self.interval = stream, clock, interval
        self.start = self.last = clock()
        self.stage: str | None = None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, stage: str) -> None:
        with self.lock:
            self.stage = stage
        self.start_heartbeat()

    def finished(self, line: str) -> None:
        with self.lock:
            self._write(line)

    def beat(self) -> None:
        with self.lock:
            if self.stage is not None and self.clock() - self.last >= self.interval:
                self._write(f"still running: {self.stage}")

    def _write(self, text: str) -> None:
        now = self.clock()
        self.stream.write(f"[{now - self.start:6.1f} s] {text}\n")
        self.stream.flush()
        self.last = now

    def start_heartbeat(self) -> None:
        with self.lock:
            if self.thread is not None or self.stop.is_set():
                return
            self.thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(1.0):
            self.beat()

    def clear(self) -> None:
        """Nothing to erase: every line stays."""

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()


def reporter(stream: TextIO, quiet: bool, json: bool) -> StatusLine | LogLines | None:
    """The status line on a terminal (none with --json: the results are the output), log
    lines off a terminal (stderr, so --json's stdout stays clean), nothing with --quiet."""
    if quiet:
        return None
    if stream.isatty():
        return None if json else StatusLine(stream)
    return LogLines(stream)
