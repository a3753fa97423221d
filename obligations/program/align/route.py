"""The generic alignment route from a checked spec to a rendered Coq file: search the
shifts, mine the loop invariant, render.  `decide` returns the rendered file with a note
saying which alignment was found, or the reason none was."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from obligations.core.templates import Rendered
from obligations.program.align import synth
from obligations.program.align.render import render
from obligations.program.align.spec import AlignSpec


@dataclass(frozen=True)
class Found:
    """An alignment and its invariant, rendered: Coq decides whether they hold."""

    alignment: synth.Alignment
    invariant: synth.Invariant
    rendered: Rendered

    @property
    def note(self) -> str:
        shifts = "; ".join(f"site {i}: {r.text()}" for i, r in enumerate(self.alignment.rules))
        return f"alignment: {shifts}; cost at most {self.alignment.C}/{self.alignment.W}·ε"


@dataclass(frozen=True)
class NotFound:
    reason: str


def decide(spec: AlignSpec) -> Union[Found, NotFound]:
    al = synth.search(spec)
    if isinstance(al, synth.NoAlignment):
        return NotFound(al.reason)
    inv = synth.mine(spec, al)
    return Found(al, inv, render(spec, al, inv))
