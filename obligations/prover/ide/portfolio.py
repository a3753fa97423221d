"""Proving one obligation by trying tactics in turn in a Coq session, and many in parallel.

Per obligation: `Lemma name : statement.` and `Proof.`, then each tactic as one
sentence followed by `Qed.`; a failure rewinds (Edit_at) to the state after
`Proof.`, a timeout restarts the session.  Whatever happens, the session ends
back at the state it started from, so that every obligation sees the same
document (and a restart, which replays only the prelude, changes nothing).
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from obligations.errors import InfrastructureError
from obligations.prover.ide.session import CoqSession, Result

Portfolio = Sequence[str]     # tactics, each one sentence, tried in order

DEFAULT_PORTFOLIO: tuple[str, ...] = (
    "vm_compute; reflexivity.",      # boolean checkers (`check ... = true`); fails fast on R
    "lra.",                          # linear real arithmetic
    "nra.",
    "field_simplify; lra.",
    "interval.",                     # bounds on exp/ln of constants
    "interval with (i_prec 80).",
    "rewrite exp_ln by lra; lra.",   # e^(ln q) = q
)

Outcome = Literal["proved", "failed", "timeout"]


@dataclass(frozen=True)
class TacticRun:
    tactic: str
    outcome: Outcome
    seconds: float          # the tactic and its Qed
    error: str = ""


@dataclass(frozen=True)
class Attempt:
    name: str
    statement: str
    proved: bool
    tactic: str | None            # the tactic that closed it
    runs: tuple[TacticRun, ...]
    goal: str = ""                   # not proved: the goal as Coq shows it after `Proof.`
    error: str = ""                  # the statement itself was refused (ill-typed, say)
    seconds: float = 0.0

    def report(self) -> str:
        if self.proved:
            return f"{self.name}: proved by `{self.tactic}`"
        if self.error:
            return f"{self.name}: the statement is refused: {self.error}"
        tried = ", ".join(f"`{r.tactic}` ({r.outcome})" for r in self.runs)
        return f"{self.name}: not proved; tried {tried}\n{self.goal}"


@dataclass(frozen=True)
class ProofTask:
    name: str
    statement: str
    tactics: Portfolio | None = None    # None: the portfolio given to prove_all


class TacticCache:
    """The tactic that last closed a statement, keyed by SHA-256 of (prelude, statement);
    kept in a JSON file when a path is given."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._choices: dict[str, str] = {}
        if path is not None and path.exists():
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
                self._choices = {k: v for k, v in loaded.items() if isinstance(v, str)}
            except (OSError, ValueError, AttributeError):
                self._choices = {}    # a damaged cache only costs time: start afresh

    @staticmethod
    def key(prelude: Sequence[str], statement: str) -> str:
        return hashlib.sha256(json.dumps([list(prelude), statement]).encode("utf-8")).hexdigest()

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._choices.get(key)

    def put(self, key: str, tactic: str) -> None:
        with self._lock:
            self._choices[key] = tactic

    def order(self, key: str, tactics: Portfolio) -> list[str]:
        """The tactics, the cached winner first."""
        won = self.get(key)
        return [won, *(t for t in tactics if t != won)] if won else list(tactics)

    def save(self) -> None:
        if self.path is None:
            return
        with self._lock:
            text = json.dumps(self._choices, indent=1, sort_keys=True)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(self.path)        # atomic: a reader never sees half a file


def prove_obligation(session: CoqSession, name: str, statement: str, tactics: Portfolio = DEFAULT_PORTFOLIO,
                     timeout: float = 10.0, cache: TacticCache | None = None) -> Attempt:
    """Try `tactics` in order on `Lemma name : statement.`, each within `timeout` seconds."""
    start = time.monotonic()
    base = session.tip
    key = TacticCache.key(session.prelude, statement)
    tactics = [_sentence(t) for t in tactics]
    order = list(dict.fromkeys(cache.order(key, tactics) if cache is not None else tactics))
    opened = _open(session, name, statement)
    if not opened.ok:
        _rewind(session, base)
        return Attempt(name, statement, False, None, (), error=opened.error,
                       seconds=time.monotonic() - start)
    runs: list[TacticRun] = []
    for tactic in order:
        run = _try(session, tactic, timeout)
        runs.append(run)
        if run.outcome == "proved":
            _rewind(session, base)
            if cache is not None:
                cache.put(key, tactic)
            return Attempt(name, statement, True, tactic, tuple(runs), seconds=time.monotonic() - start)
        if run.outcome == "timeout":   # the process was killed: a fresh one, back at `Proof.`
            base = _reopen(session, name, statement)
    goals = session.goals()
    _rewind(session, base)
    return Attempt(name, statement, False, None, tuple(runs), goal=goals.pretty() if goals else "",
                   seconds=time.monotonic() - start)


def _sentence(tactic: str) -> str:
    """A tactic as one sentence: Coq would parse `lra` without its '.' as incomplete."""
    tactic = tactic.strip()
    return tactic if tactic.endswith(".") else tactic + "."


def _open(session: CoqSession, name: str, statement: str) -> Result:
    """`Lemma` and `Proof.`; on an error the caller rewinds to its base."""
    lemma = session.add(f"Lemma {name} : {statement}.")
    return session.add("Proof.") if lemma.ok else lemma


def _reopen(session: CoqSession, name: str, statement: str) -> int:
    """Restart the session and open the lemma again; returns the new base state."""
    session.restart()
    base = session.tip
    opened = _open(session, name, statement)
    if not opened.ok:
        raise InfrastructureError(f"after a restart, Coq refuses `Lemma {name}` it accepted before: "
                                  f"{opened.error}")
    return base


def _try(session: CoqSession, tactic: str, timeout: float) -> TacticRun:
    """One tactic and its Qed, within `timeout` together; leaves the tip after `Proof.`
    unless it proved (then after `Qed.`) or timed out (then the process is gone)."""
    start = time.monotonic()
    proof = session.tip
    r = session.add(tactic, timeout)
    if r.ok:
        r = session.add("Qed.", max(0.1, timeout - (time.monotonic() - start)))
    seconds = time.monotonic() - start
    if r.timed_out:
        return TacticRun(tactic, "timeout", seconds, r.error)
    if r.ok:
        return TacticRun(tactic, "proved", seconds)
    _rewind(session, proof)    # the tactic went through but Qed did not
    return TacticRun(tactic, "failed", seconds, r.error)


def _rewind(session: CoqSession, state: int) -> None:
    if session.tip != state:
        session.edit_at(state)


def prove_all(obligations: Sequence[ProofTask], prelude: str | Sequence[str],
              n_sessions: int | None = None, *, load_path: Sequence[str] = (),
              tactics: Portfolio = DEFAULT_PORTFOLIO, timeout: float = 10.0,
              cache: TacticCache | None = None, cwd: Path | None = None,
              transcript: Path | None = None) -> list[Attempt]:
    """Prove every obligation over `n_sessions` sessions (default: one per CPU), one worker
    thread each; the attempts come back in the order of `obligations`."""
    tasks = list(obligations)
    attempts: list[Attempt | None] = [None] * len(tasks)
    n = max(1, min(n_sessions or os.cpu_count() or 1, len(tasks)))
    lock = threading.Lock()
    queue = iter(range(len(tasks)))
    stop = threading.Event()          # a crashed worker stops the others early

    def take() -> int | None:
        with lock:
            return None if stop.is_set() else next(queue, None)

    def work() -> None:
        try:
            with CoqSession(load_path, prelude, cwd=cwd, transcript=transcript) as session:
                while (k := take()) is not None:
                    t = tasks[k]
                    attempts[k] = prove_obligation(session, t.name, t.statement, t.tactics or tactics,
                                                   timeout, cache)
        except BaseException:
            stop.set()
            raise

    try:
        if tasks:
            with ThreadPoolExecutor(max_workers=n, thread_name_prefix="coq-session") as pool:
                for future in [pool.submit(work) for _ in range(n)]:
                    future.result()      # re-raises ProverCrashed and the like
    finally:
        if cache is not None:
            cache.save()              # what was learnt before a failure still counts
    return [a for a in attempts if a is not None]


def prove_in_order(obligations: Sequence[ProofTask], prelude: str | Sequence[str], *,
                   load_path: Sequence[str] = (), tactics: Portfolio = DEFAULT_PORTFOLIO,
                   timeout: float = 10.0, cwd: Path | None = None,
                   transcript: Path | None = None) -> list[Attempt]:
    """Prove obligations that build on each other, in one session: each proved lemma stays
    in the document for the ones after it.  Stops at the first obligation no tactic proves
    (its Attempt carries the goal); the attempts come back in order, up to that one."""
    attempts: list[Attempt] = []
    with CoqSession(load_path, prelude, cwd=cwd, transcript=transcript) as session:
        for t in obligations:
            a = prove_obligation(session, t.name, t.statement, t.tactics or tactics, timeout)
            attempts.append(a)
            if not a.proved or a.tactic is None:
                break
            sentences = (f"Lemma {t.name} : {t.statement}.", "Proof.", a.tactic, "Qed.")
            kept = [session.add(x, timeout) for x in sentences]
            if not all(r.ok for r in kept):
                raise InfrastructureError(f"Coq accepted `{a.tactic}` for {t.name} once, then refused it: "
                                          + next(r.error for r in kept if not r.ok))
            session.prelude += sentences    # a restart (after a timeout) replays it too
    return attempts
