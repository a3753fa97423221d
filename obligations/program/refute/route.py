"""Route: an all-k program refuted by a certified counterexample.  When the generic
alignment route finds no alignment, `decide` searches a violation with the untruncated
noise and renders its certificate (`NAME_not_dp_all_k`); `ByCounterexample` is the program
model's route over it.  It applies only when no alignment was found, and gives way to the
alignment route (which then says UNDECIDED) when the search finds nothing: a failed search
proves nothing."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from obligations.core.document import DocumentBuilder
from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.program.align import route as align
from obligations.program.align.render import PRELUDE
from obligations.program.align.spec import AlignSpec
from obligations.program.refute.render import event_text, render
from obligations.program.refute.search import search
from obligations.program.refute.witness import Witness


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


def decide(spec: AlignSpec) -> Refuted | None:
    w = search(spec)
    return None if w is None else Refuted(w, render(spec, w))


DISCRETE_ONLY = ("a counterexample for the discrete form (geometric noise at every site), not a refutation "
                 "under continuous Laplace noise (the search over the reals, for an event reachable on a box of "
                 "tapes from one input and impossible from its neighbour, or reached from the neighbour only on a "
                 "product of tails too unlikely for the ratio to stay within e^(c*eps), found none): ")

_REFUTED: dict[tuple[str, str, str], Refuted | None] = {}


def decided(spec: AlignSpec) -> Refuted | None:
    """`decide`, once per spec text."""
    key = (spec.path, spec.sha256, spec.name)
    if key not in _REFUTED:
        _REFUTED[key] = decide(spec)
    return _REFUTED[key]


class ByCounterexample(Route[AlignSpec, Refuted]):
    name = "by counterexample"

    def applies(self, spec: AlignSpec) -> bool:
        """Only when the alignment route found no alignment (its answer is cached), and for a
        claim about every stream length (a counterexample's length is the search's)."""
        return spec.length is None and isinstance(align.decide(spec), align.NotFound)

    def analyse(self, spec: AlignSpec) -> Analysed[Refuted] | None:
        r = align.decide(spec)
        c = decided(spec)
        if c is None or not isinstance(r, align.NotFound):
            return None
        if spec.continuous:   # the witness's bracket is computed for geometric noise
            plan = Plan(expected=Verdict.UNDECIDED, obligations=(), tight_epsilon=None,
                        tight_epsilon_float=math.nan, delta_at_claim=None, delta_at_claim_float=math.nan,
                        notes=(align.continuous_note(r), DISCRETE_ONLY + witness_text(c.witness)))
            return Analysed(c, plan)
        plan = Plan(expected=Verdict.REFUTED, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                    delta_at_claim=None, delta_at_claim_float=math.nan,
                    notes=(f"no alignment found: {r.reason}", c.note))
        return Analysed(c, plan)

    def render(self, spec: AlignSpec, a: Analysed[Refuted]) -> Rendered:
        if spec.continuous:   # the rendered refutation is the discrete form's: not this claim's
            return Rendered(spec.name, DocumentBuilder().build(spec.name, "", PRELUDE), ())
        return a.mechanism.rendered

    def witness(self, u: Unfolded[AlignSpec, Refuted]) -> dict[str, Any] | None:
        return None if u.spec.continuous else record(u.mechanism.witness)

    def describe(self, u: Unfolded[AlignSpec, Refuted]) -> Description:
        item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems), "noise": u.spec.noise}
        if not u.spec.continuous:
            item["witness"] = record(u.mechanism.witness)
        lines = [f"{u.spec.name} ({u.spec.path}): claim ({u.spec.epsilon_text}, 0)-DP",
                 f"  neighbours: {u.spec.neighbours}", f"  noise: {align.NOISE_TEXT[u.spec.noise]}",
                 *(f"  {n}" for n in u.plan.notes)]
        return item, lines


BY_COUNTEREXAMPLE = ByCounterexample()
