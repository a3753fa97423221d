"""Routes whose analysis chooses the very claims Coq is asked (the accountant's forms beyond
a single table: additive noise over Z, chains of mechanisms): the smallest ε at δ, or the side
of the bracket a claim falls on, decides which theorems the document states, so the analysis
renders the document with them and `render` hands it on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from obligations.core.model import Analysed, Description, Unfolded
from obligations.core.obligation import Plan
from obligations.core.templates import Rendered

M = TypeVar("M")


@dataclass(frozen=True)
class Chosen(Generic[M]):
    """The analysis object and the document rendered with the claims it chose."""

    analysis: M
    rendered: Rendered


def chosen(analysis: M, plan: Plan, rendered: Rendered) -> Analysed[Chosen[M]]:
    return Analysed(Chosen(analysis, rendered), plan)


def describe_plan(u: Unfolded[Any, Any], summary: str) -> Description:
    """`show` for these routes: the summary, the verdict Python expects and the notes."""
    s = u.spec
    item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                            "theorems": list(u.rendered.theorems)}
    lines = [f"{s.name} ({s.path}): {summary}", f"  Python expects: {u.plan.expected}"]
    lines += [f"  {n}" for n in u.plan.notes]
    return item, lines
