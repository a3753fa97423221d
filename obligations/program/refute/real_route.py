"""Route: a program with continuous Laplace noise refuted over the reals.  When the generic
alignment route finds no alignment for a claim under continuous noise (at one stream length,
or for every length), `real.search` looks for an event reachable on a box of tapes from one
input and impossible from its neighbour; `render_laplace` renders the refutation
(`NAME_not_rdp`, or `NAME_not_rdp_all_k` from the failure at the witness's length).  When the
search finds nothing the route gives way: the discrete counterexample route then says, for a
claim about every length, that its counterexample is for the discrete form only."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.program.align import route as align
from obligations.program.align.spec import AlignSpec
from obligations.program.refute import ratio
from obligations.program.refute.real import RealWitness, Tail, search
from obligations.program.refute.render_laplace import event_text, render, tails_text

_FOUND: dict[tuple[str, str, str], RealWitness | None] = {}


def decided(spec: AlignSpec) -> RealWitness | None:
    """`search` (the zero case), else `ratio.search`, once per spec text (`applies` and
    `analyse` both ask)."""
    key = (spec.path, spec.sha256, spec.name)
    if key not in _FOUND:
        found = search(spec)
        _FOUND[key] = found if found is not None else ratio.search(spec)
    return _FOUND[key]


def witness_text(w: RealWitness) -> str:
    box = " x ".join(f"[{lo}, {hi}]" for lo, hi in w.box)
    head = (f"k = {w.k}, x = {list(w.x)}, x' = {list(w.x2)}, S = outputs {event_text(w.event)}: every tape "
            f"in the box {box} runs p(x) into S")
    r = w.ratio
    if r is None:
        return head + (" (Pr[p(x) in S] > 0) and no tape runs p(x') into S (Pr[p(x') in S] = 0), so no "
                       "e^(c*eps) covers the ratio")
    head += f" (Pr[p(x) in S] >= P(eps)*e^(-{r.a}*eps))"
    if r.pivot is not None:
        n = len(r.pieces)
        cuts = ", ".join(str(c) for c in r.cuts)
        prods = "; ".join(tails_text(p) for p in r.pieces)
        return head + (f" and every tape running p(x') into S lies, by where its position {r.pivot} falls among "
                       f"the cuts {cuts}, in one of {n} products of tails ({prods})"
                       f", each of probability at most e^(-{r.b}*eps) (Pr[p(x') in S] <= {n}*e^(-{r.b}*eps)); at "
                       f"eps = {r.eps} P(eps) >= {n} and {r.a} + c < {r.b}, so the ratio exceeds e^(c*eps)")
    return head + (f" and every tape running p(x') into S lies in "
                   f"the tails {tails_text(r.tails)} (Pr[p(x') in S] <= e^(-{r.b}*eps)); at eps = {r.eps} "
                   f"P(eps) >= 1 and {r.a} + c < {r.b}, so the ratio exceeds e^(c*eps)")


def record(w: RealWitness) -> dict[str, Any]:
    """The witness as certificates record it (`text` says what it shows)."""
    out: dict[str, Any] = {
        "text": "witness under continuous Laplace noise: " + witness_text(w), "k": w.k, "x": list(w.x),
        "x_prime": list(w.x2), "outputs": ["_" if o is None else str(o) for o in w.event],
        "box": [[str(lo), str(hi)] for lo, hi in w.box], "pr_x_prime": "0"}
    r = w.ratio
    if r is not None:
        out.update(pr_x_prime=f"at most e^(-{r.b}*eps)", far=[str(f) for f in r.far], eps=str(r.eps),
                   tails=_tails(r.tails))
        if r.pivot is not None:
            out.update(pr_x_prime=f"at most {len(r.pieces)}*e^(-{r.b}*eps)", pivot=r.pivot,
                       cuts=[str(c) for c in r.cuts], pieces=[_tails(p) for p in r.pieces])
    return out


def _tails(tails: Sequence[Tail]) -> list[str]:
    return ["_" if t is None else (">= " if t[0] else "<= ") + str(t[1]) for t in tails]


class ByRealCounterexample(Route[AlignSpec, RealWitness]):
    name = "by counterexample over the reals"

    def applies(self, spec: AlignSpec) -> bool:
        """A claim under continuous noise for which the alignment route found no alignment."""
        return spec.continuous and isinstance(align.decide(spec), align.NotFound)

    def analyse(self, spec: AlignSpec) -> Analysed[RealWitness] | None:
        r = align.decide(spec)
        w = decided(spec)
        if w is None or not isinstance(r, align.NotFound):
            return None
        which = f"at stream length {w.k}" if spec.length is not None else \
            f"for every stream length: it fails at length {w.k}"
        plan = Plan(expected=Verdict.REFUTED, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                    delta_at_claim=None, delta_at_claim_float=math.nan,
                    notes=(f"no alignment found: {r.reason}",
                           f"refuted under continuous Laplace noise {which}; counterexample: {witness_text(w)}"))
        return Analysed(w, plan)

    def render(self, spec: AlignSpec, a: Analysed[RealWitness]) -> Rendered:
        return render(spec, a.mechanism)

    def witness(self, u: Unfolded[AlignSpec, RealWitness]) -> dict[str, Any] | None:
        return record(u.mechanism)

    def describe(self, u: Unfolded[AlignSpec, RealWitness]) -> Description:
        item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems), "noise": u.spec.noise,
                                "witness": record(u.mechanism)}
        lines = [f"{u.spec.name} ({u.spec.path}): claim ({u.spec.epsilon_text}, 0)-DP",
                 f"  neighbours: {u.spec.neighbours}", f"  noise: {align.NOISE_TEXT[u.spec.noise]}",
                 *(f"  {n}" for n in u.plan.notes)]
        return item, lines


BY_REAL_COUNTEREXAMPLE = ByRealCounterexample()
