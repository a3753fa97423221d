"""The refutation route of an all-k program claim: search a violation with the untruncated
noise and render its certificate.  `decide` returns the rendered file with the witness, or
None when the search finds nothing (the claim stays undecided: no search failure is a proof)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from obligations.core.templates import Rendered
from obligations.program.align.spec import AlignSpec
from obligations.program.refute.render import event_text, render
from obligations.program.refute.search import Witness, search


@dataclass(frozen=True)
class Refuted:
    """A violation and its Coq file: Coq decides whether the bracket holds."""

    witness: Witness
    rendered: Rendered

    @property
    def note(self) -> str:
        return "counterexample: " + witness_text(self.witness)


def witness_text(w: Witness) -> str:
    return (f"k = {w.k}, x = {list(w.x)}, x' = {list(w.x2)}, S = {event_text(w.event)}, eps = {w.eps.text()}: "
            f"Pr[p(x) in S] >= {w.bracket.lower} > ({w.eps.q}/{w.eps.p})^{w.M} * {w.bracket.upper} "
            f">= e^(c*eps) * Pr[p(x') in S] (balls of radius {w.R} and {w.R2}, {w.runs} runs)")


def record(w: Witness) -> dict[str, Any]:
    """The witness as certificates record it (`text` says what it shows)."""
    return {"text": "witness: " + witness_text(w), "k": w.k, "x": list(w.x), "x_prime": list(w.x2),
            "outputs": [list(map(str, o)) for o in w.event], "epsilon": w.eps.text(),
            "exp_c_epsilon": f"({w.eps.q}/{w.eps.p})^{w.M}", "radius": w.R, "radius_prime": w.R2,
            "pr_x_at_least": str(w.bracket.lower), "pr_x_prime_at_most": str(w.bracket.upper)}


DEADLINE = 60.0     # seconds of search before the claim is left undecided


def decide(spec: AlignSpec) -> Optional[Refuted]:
    w = search(spec, deadline=DEADLINE)
    return None if w is None else Refuted(w, render(spec, w))
