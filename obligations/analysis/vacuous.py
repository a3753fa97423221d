"""Vacuous claims in the routes that do not tabulate a finite mechanism: a claim that holds
whatever the mechanism does (no two distinct inputs are neighbours, or neighbours are
equal) is still proved, but `Plan.vacuous` says why, so that the CLI warns and the
certificate records it (the routes by a table use `analysis.finite.vacuity`)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from obligations.analysis.finite import neighbour_pairs
from obligations.core import expr as E
from obligations.core.obligation import Plan

NO_PAIRS = "no two distinct inputs are neighbours: the claim holds for any mechanism"


def flagged(plan: Plan, reasons: tuple[str, ...]) -> Plan:
    """The plan with these reasons (added to any it has)."""
    return replace(plan, vacuous=tuple(dict.fromkeys((*plan.vacuous, *reasons)))) if reasons else plan


def without_pairs(spec: Any) -> tuple[str, ...]:
    """A table-like spec (calibrated tables, the exponential mechanism): no distinct neighbours."""
    return () if neighbour_pairs(spec) else (NO_PAIRS,)


def geometric(n: int, distance: int) -> tuple[str, ...]:
    """The truncated geometric over 0..n with neighbours at distance <= d."""
    return () if n >= 1 and distance >= 1 else (NO_PAIRS,)


def family(inputs: tuple[E.Expr, E.Expr], neighbours: str) -> tuple[str, ...]:
    """A formula family: one input for every parameter value (constant bounds), or distance 0."""
    lo, hi = inputs
    if isinstance(lo, E.Num) and isinstance(hi, E.Num) and hi.value <= lo.value:
        return (f"the inputs are {lo.value}..{hi.value} for every parameter value: " + NO_PAIRS,)
    if neighbours == "distance:0":
        return ("neighbours are at distance 0, so they are equal: the claim holds for any mechanism",)
    return ()


def sensitivity_zero(sensitivity: E.Expr, what: str) -> tuple[str, ...]:
    """A pipeline over f(a) with |f(a) - f(a')| <= 0: neighbours give the same input."""
    if isinstance(sensitivity, E.Num) and sensitivity.value == 0:
        return (f"the sensitivity is 0, so neighbouring {what} are equal: the claim holds for any mechanism",)
    return ()
