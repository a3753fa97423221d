"""What a run says: the settings it ran with and the verdict on one spec (`Outcome`).

Verdicts are values; faults are the exceptions of `errors`.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from obligations.core.library_location import library_dir
from obligations.core.obligation import Verdict
from obligations.models import Unfolded
from obligations.prover.coq import Coq


class LibraryCheck(str, Enum):
    """How a run makes sure coqchk accepted the library files its certificates load."""

    WHOLE = "whole"       # prove: this machine's record of the compiled library, else all of it, recorded
    CLOSURE = "closure"   # verify: the record, else only the files the checked files load
    RECHECK = "recheck"   # verify --recheck-library: no record; the files they load, once in this process


@dataclass(frozen=True)
class Settings:
    theories: Path = field(default_factory=library_dir)   # the package's, or its copy in the user's cache
    build: Path = Path("build")
    out: Path = Path("certificates")
    timeout: float = 600.0
    use_cache: bool = True
    transcript: Path | None = None
    library: LibraryCheck = LibraryCheck.WHOLE
    progress: Callable[[str], None] | None = None   # told each stage as it starts (the CLI's status line)
    finished: Callable[[str], None] | None = None   # told one line per spec or certificate done (logs)
    jobs: int = 1                   # files discharged, compiled and checked at once (`--jobs`)
    reuse_shared: bool = True       # reuse a shared module compiled and checked by an earlier run

    @property
    def shared(self) -> Path:
        """Where shared modules are compiled (`certify/shared.py`), inside the build directory."""
        return self.build / ".shared"

    def coq(self) -> Coq:
        return Coq(self.theories.resolve(), self.timeout, self.transcript, shared=self.shared.resolve())

    def say(self, stage: str) -> None:
        if self.progress is not None:
            self.progress(stage)

    def done(self, line: str) -> None:
        if self.finished is not None:
            self.finished(line)


@dataclass
class Outcome:
    """The verdict on one spec: proved, refuted, unproved, timeout or undecided."""

    name: str
    spec: str
    verdict: Verdict
    claim: str
    tight_epsilon: str | None = None
    delta_at_claim: str | None = None   # δ(ε) at the claimed ε, exact or to 12 digits
    theorem: str | None = None
    statement: str | None = None
    witness: dict[str, Any] | None = None
    certificate: str | None = None
    message: str = ""
    goal: str | None = None       # for an unproved claim: where Coq stopped, and its goal
    cached: bool = False             # a certificate this machine's Coq accepted before
    rechecked: bool = False          # a certificate found in the output folder, re-checked by Coq now
    choices: dict[str, str] = field(default_factory=dict)       # the proof of each obligation
    proofs: list[dict[str, Any]] = field(default_factory=list)  # which tactic closed which obligation
    vacuous: list[str] = field(default_factory=list)   # why the claim holds for any mechanism, if so
    timings: dict[str, float] = field(default_factory=dict)
    peak_kib: dict[str, int] = field(default_factory=dict)
    group: str = "DP claims"      # the summary table it is listed in (the claim's type)
    measured: bool = True         # whether that table has the columns of a finite mechanism's DP

    @classmethod
    def of(cls, u: Unfolded, verdict: Verdict, **fields: Any) -> Outcome:
        """An outcome for the claim of `u`, with what its analysis says."""
        plan = u.plan
        delta = plan.delta_at_claim or (f"{plan.delta_at_claim_float:.12g}"
                                        if math.isfinite(plan.delta_at_claim_float) else None)
        return cls(u.spec.name, u.spec.path, verdict, u.claim.text(), tight_epsilon=plan.tight_epsilon,
                   delta_at_claim=delta, vacuous=vacuity(u), group=u.claim.group, measured=u.claim.measured,
                   **fields)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["group"], out["measured"]   # how the text summary lays it out; the claim says it
        return out


def vacuity(u: Unfolded) -> list[str]:
    """Why the claim holds whatever the mechanism does (no two distinct neighbours, ...)."""
    return list(u.plan.vacuous)


def witness_json(u: Unfolded) -> dict[str, Any] | None:
    """The witness a refutation's certificate records (None for any other verdict)."""
    return u.witness() if u.plan.expected == Verdict.REFUTED else None
