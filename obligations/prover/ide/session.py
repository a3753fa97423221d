"""One `coqidetop.opt` process, driven sentence by sentence over the XML protocol.

With `-async-proofs off` Coq only parses a sentence on Add (except commands
with immediate effect, like Require); it runs it when something observes the
document.  So every Add is followed by a Status call, which runs the document
up to its tip, and an error shows up in the answer to that Status.  Both calls
go out in one write (they are small), so a sentence costs one round trip.

A failure of Coq's (an error in a sentence) is a value: `Result.ok` is False.
A timeout kills the process group and is a value too (`Result.timed_out`); the
session must then be `restart()`ed.  Only a broken prover raises: a missing
binary `ProverMissing`, a coqidetop that exits `ProverCrashed`.
"""
from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from obligations.errors import InfrastructureError, ProverCrashed, ProverMissing
from obligations.prover.ide import protocol
from obligations.prover.ide.protocol import Answer, Goals, Message, Status
from obligations.prover.process import track, untrack

BINARY = "coqidetop.opt"
ARGS = ("-main-channel", "stdfds", "-async-proofs", "off", "-q")
PIPELINE_LIMIT = 16384   # bytes: above this, calls go one by one (a full pipe both ways would deadlock)


class SessionTimeout(InfrastructureError):
    """Coq did not answer a query in time (the process was killed)."""


@dataclass(frozen=True)
class Result:
    """What became of one sentence."""

    ok: bool
    sentence: str
    state: int | None = None                  # the state after the sentence, when ok
    error: str = ""
    location: tuple[int, int] | None = None   # characters of `sentence` Coq blames
    messages: tuple[Message, ...] = ()           # everything Coq printed meanwhile
    seconds: float = 0.0
    timed_out: bool = False

    @property
    def warnings(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.level in ("warning", "error"))


# -- sentences ------------------------------------------------------------

@dataclass(frozen=True)
class Sentence:
    text: str
    start: int     # character offsets in the source
    end: int


_FOCUS = re.compile(r"(?:\d+|\[\w+\])\s*:\s*\{")   # "2: {" focuses with a selector


def split_sentences(text: str) -> list[Sentence]:
    """Coq sentences: up to a '.' followed by blank or the end (not '..', not `Z.of_nat`),
    skipping nested comments and strings; bullets (- + * runs) and braces stand alone.
    Trailing text without a final '.' is returned as one (incomplete) sentence."""
    out: list[Sentence] = []
    i = _skip_blank(text, 0)
    while i < len(text):
        end = _sentence_end(text, i)
        out.append(Sentence(text[i:end], i, end))
        i = _skip_blank(text, end)
    return out


def _sentence_end(text: str, i: int) -> int:
    c = text[i]
    if c in "-+*":
        while i < len(text) and text[i] == c:
            i += 1
        return i
    if c in "{}":
        return i + 1
    focus = _FOCUS.match(text, i)
    if focus:
        return focus.end()
    n = len(text)
    while i < n:
        if text.startswith("(*", i):
            i = _skip_comment(text, i)
        elif text[i] == '"':
            i = _skip_string(text, i)
        elif text[i] == ".":
            if i + 1 < n and text[i + 1] == ".":      # '..' / '...' belong to notations
                while i < n and text[i] == ".":
                    i += 1
            elif i + 1 == n or text[i + 1].isspace():
                return i + 1
            else:
                i += 1
        else:
            i += 1
    return n


def _skip_blank(text: str, i: int) -> int:
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text.startswith("(*", i):
            i = _skip_comment(text, i)
        else:
            break
    return i


def _skip_comment(text: str, i: int) -> int:
    """Past the `*)` closing the comment at i; comments nest, and Coq lexes strings in them."""
    depth, i = 0, i
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*)", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        elif text[i] == '"':
            i = _skip_string(text, i)
        else:
            i += 1
    return len(text)


def _skip_string(text: str, i: int) -> int:
    """Past the string starting at i; "" inside a string is an escaped quote."""
    i += 1
    while i < len(text):
        if text[i] == '"':
            if text.startswith('""', i):
                i += 2
                continue
            return i + 1
        i += 1
    return len(text)


# -- the session ----------------------------------------------------------

class CoqSession:
    """A `coqidetop.opt` process with a prelude, usable as a context manager.

    `load_path` are coqtop arguments such as ["-Q", "theories", "Obligations"];
    the prelude (text or sentences) runs at start and again on `restart()`.
    """

    def __init__(self, load_path: Sequence[str] = (), prelude: str | Sequence[str] = (), *,
                 timeout: float = 60.0, start_timeout: float = 300.0, cwd: Path | None = None,
                 transcript: Path | None = None, binary: str = BINARY,
                 extra_args: Sequence[str] = ()) -> None:
        self.load_path = list(load_path)
        self.argv = [binary, *ARGS, *extra_args, *load_path]
        self.prelude: tuple[str, ...] = tuple(
            s.text for s in split_sentences(prelude)) if isinstance(prelude, str) else tuple(prelude)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.cwd = cwd
        self.transcript = transcript
        self.tip = 0                   # the state the next sentence goes after
        self.prelude_state = 0         # the tip after the prelude
        self.restarts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._log: IO[str] | None = None
        self._decoder = protocol.Decoder()
        self._backlog: list[protocol.Decoded] = []
        self._stopped = ""             # why the process is gone, when it is

    # -- life cycle
    def __enter__(self) -> CoqSession:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start coqidetop and run the prelude."""
        self.close()          # never two processes for one session
        self._spawn()
        answer, _ = self._exchange([protocol.init()], self.start_timeout)[0]
        if not answer.ok or not isinstance(answer.value, int):
            raise ProverCrashed(f"coqidetop refused Init: {answer.error or answer.value!r}")
        self.tip = answer.value
        for sentence in self.prelude:
            r = self.add(sentence, timeout=self.start_timeout)
            if not r.ok:
                self.close()
                where = " ".join(self.load_path) or "none"
                raise InfrastructureError(f"the session prelude fails at `{sentence}`: {r.error}\n"
                                          f"(load path: {where}; is the library built?)")
        self.prelude_state = self.tip

    def restart(self) -> None:
        """Kill the process and start again from the prelude (after a timeout, say)."""
        self.close()
        self.restarts += 1
        self.start()

    def close(self) -> None:
        """Kill the whole process group: coqidetop and anything it started."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _kill_group(proc)
            self._stopped = self._stopped or "closed"
        for f in (self._stderr, self._log):
            if f is not None:
                f.close()
        self._stderr = self._log = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- the document
    def add(self, sentence: str, timeout: float | None = None) -> Result:
        """Add one sentence after the tip and run it; on an error, the tip stays where it was."""
        start = time.monotonic()
        before = self.tip
        try:
            (added, m1), (ran, m2) = self._exchange([protocol.add(sentence, before), protocol.status()],
                                                    timeout or self.timeout)
        except SessionTimeout as exc:
            return Result(False, sentence, error=str(exc), seconds=time.monotonic() - start, timed_out=True)
        messages = tuple(m1 + m2)
        if not added.ok:
            # a parse error (state 0) leaves the tip; an immediate command (Require) that
            # failed was already undone by Coq, back to the state it names
            self.tip = added.state or before
            return _failure(sentence, added, messages, start)
        if not ran.ok:
            self.edit_at(before)
            return _failure(sentence, ran, messages, start)
        self.tip = protocol.added_state(added)
        return Result(True, sentence, self.tip, messages=messages, seconds=time.monotonic() - start)

    def run(self, text: str, timeout: float | None = None) -> list[Result]:
        """Add the sentences of `text` one by one, stopping after the first that fails."""
        results: list[Result] = []
        for s in split_sentences(text):
            results.append(self.add(s.text, timeout))
            if not results[-1].ok:
                break
        return results

    def goals(self, timeout: float | None = None) -> Goals | None:
        """The goals at the tip; None outside a proof."""
        answer, _ = self._exchange([protocol.goal()], timeout or self.timeout)[0]
        if not answer.ok:
            raise InfrastructureError(f"Coq cannot show the goals at state {self.tip}: {answer.error}")
        return answer.value if isinstance(answer.value, Goals) else None

    def status(self, timeout: float | None = None) -> Status:
        answer, _ = self._exchange([protocol.status()], timeout or self.timeout)[0]
        if not answer.ok or not isinstance(answer.value, Status):
            raise InfrastructureError(f"Coq's Status failed at state {self.tip}: {answer.error}")
        return answer.value

    def edit_at(self, state: int, timeout: float | None = None) -> None:
        """Rewind: `state` becomes the tip, and what came after it is forgotten."""
        answer, _ = self._exchange([protocol.edit_at(state)], timeout or self.timeout)[0]
        if not answer.ok:
            raise InfrastructureError(f"Coq cannot go back to state {state}: {answer.error}")
        self.tip = state

    # -- the process
    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()   # a file, not a pipe: it can never fill up and block Coq
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, cwd=self.cwd, bufsize=0,
                                          start_new_session=True)
        except FileNotFoundError as exc:
            self._stderr.close()
            self._stderr = None
            raise ProverMissing(f"{self.argv[0]} is not installed or not on PATH: install Coq "
                                "(`apt-get install coq`)") from exc
        track(self._proc.pid)
        self._decoder = protocol.Decoder()
        self._backlog = []
        self._stopped = ""
        if self.transcript is not None:
            self.transcript.parent.mkdir(parents=True, exist_ok=True)
            self._log = self.transcript.open("a", encoding="utf-8")
            self._note("$", " ".join(self.argv))

    def _exchange(self, calls: list[str], timeout: float) -> list[tuple[Answer, list[Message]]]:
        """Send calls, and read one answer per call with the messages that came before it."""
        payload = "".join(calls).encode("utf-8")
        if len(calls) > 1 and len(payload) > PIPELINE_LIMIT:
            return [a for c in calls for a in self._exchange([c], timeout)]
        deadline = time.monotonic() + timeout
        answers: list[tuple[Answer, list[Message]]] = []
        messages: list[Message] = []
        try:
            self._write(payload)
            while len(answers) < len(calls):
                item = self._next(deadline, timeout)
                if isinstance(item, Answer):
                    answers.append((item, messages))
                    messages = []
                elif item.message is not None:
                    messages.append(item.message)
        except (SessionTimeout, ProverCrashed):
            raise                       # the process is already gone
        except BaseException:           # a garbled stream, Ctrl-C: no half-read session survives
            self._stopped = "stopped after an error"
            self.close()
            raise
        return answers

    def _write(self, payload: bytes) -> None:
        proc = self._live()
        self._note(">", payload.decode("utf-8"))
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(proc.stdin.fileno(), view):]  # type: ignore[union-attr]
        except (BrokenPipeError, OSError) as exc:
            raise self._crashed("while sending a call") from exc

    def _next(self, deadline: float, timeout: float) -> protocol.Decoded:
        """The next decoded element, reading more when none is waiting."""
        while not self._backlog:
            proc = self._live()
            fd = proc.stdout.fileno()  # type: ignore[union-attr]
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                self._note("#", f"no answer within {timeout:g} s: killing the process group")
                self._stopped = f"timed out after {timeout:g} s"
                self.close()
                raise SessionTimeout(f"Coq did not answer within {timeout:g} s")
            data = os.read(fd, 1 << 16)
            if not data:
                raise self._crashed("while waiting for an answer")
            self._note("<", data.decode("utf-8", "replace"))
            self._backlog.extend(self._decoder.feed(data))
        return self._backlog.pop(0)

    def _live(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            raise InfrastructureError(f"the Coq session is not running ({self._stopped or 'not started'});"
                                      " start() or restart() it")
        return self._proc

    def _crashed(self, when: str) -> ProverCrashed:
        """The process went away: collect its exit status and stderr, and clean up."""
        proc = self._live()
        try:
            code = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        err = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            err = self._stderr.read()[-2000:].decode("utf-8", "replace").strip()
        self._stopped = f"crashed (exit {code})"
        self._note("#", f"coqidetop exited ({code}) {when}")
        self.close()
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with {code}"
        return ProverCrashed(f"coqidetop {how} {when}" + (f":\n{err}" if err else ""))

    def _note(self, direction: str, text: str) -> None:
        if self._log is not None:
            self._log.write(f"{time.time():.3f} [{self.pid}] {direction} {text}\n")
            self._log.flush()


def _failure(sentence: str, answer: Answer, messages: tuple[Message, ...], start: float) -> Result:
    loc = answer.location.chars(sentence) if answer.location is not None else None
    return Result(False, sentence, error=answer.error, location=loc, messages=messages,
                  seconds=time.monotonic() - start)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    untrack(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


# -- replaying a file -----------------------------------------------------

@dataclass(frozen=True)
class FailedGoal:
    """Where a .v file stops going through, and what Coq was looking at."""

    lemma: str | None     # the Lemma/Theorem being proved, if any
    sentence: str
    error: str
    goal: str                # the goals just before the sentence ("" outside a proof)
    line: int                # 1-based line of the sentence in the file
    timed_out: bool = False


_STATEMENT = re.compile(r"\s*(?:#\[[^\]]*\]\s*)?(?:Local\s+|Global\s+)?"
                        r"(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition|Example|Goal)\s+([\w']+)?")


def goal_at_failure(vfile: Path, load_path: list[str], timeout: float) -> FailedGoal | None:
    """Replay `vfile` sentence by sentence (each within `timeout` seconds) and describe the
    first failing sentence; None when the whole file goes through."""
    text = vfile.read_text(encoding="utf-8")
    sentences = split_sentences(text)
    with CoqSession(load_path, timeout=timeout, start_timeout=timeout, cwd=vfile.parent,
                    extra_args=["-topfile", str(vfile)]) as session:
        for k, s in enumerate(sentences):
            r = session.add(s.text)
            if r.ok:
                continue
            if r.timed_out:       # the process is gone: rebuild the state before the sentence
                session.restart()
                for prev in sentences[:k]:
                    session.add(prev.text)
            goals = session.goals()
            lemma = session.status().proof_name or _statement_name(s.text)
            return FailedGoal(lemma, s.text, r.error, goals.pretty() if goals else "",
                              text.count("\n", 0, s.start) + 1, r.timed_out)
    return None


def _statement_name(sentence: str) -> str | None:
    m = _STATEMENT.match(sentence)
    return m.group(1) if m else None
