"""The claim of a spec the accountant certifies by itself (the additive noise over Z and
the chain): (ε, δ)-DP, or with `tolerance` the smallest ε at δ (a multiple of the
tolerance), read once for both forms; every problem names the file and the field."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from obligations.core import expr as E
from obligations.core.spec import check_epsilon
from obligations.errors import SpecError
from obligations.table.form import Claim


@dataclass(frozen=True)
class ReadClaim:
    eps: E.Expr               # 0 under a tolerance: the search finds ε
    eps_text: str
    delta: Fraction
    tolerance: Fraction | None


def rational(file: str, field: str, text: Any) -> Fraction:
    """An exact rational constant (no parameters)."""
    try:
        return E.exact_constant(text)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None


def read_claim(file: str, claim: Claim, runs: int) -> ReadClaim:
    """The claim's ε (or tolerance) and δ, ε checked for `runs` runs."""
    if (claim.epsilon is None) == (claim.tolerance is None):
        raise SpecError(file, "claim.epsilon" if claim.epsilon is None else "claim.tolerance",
                        "give epsilon, or tolerance (the smallest epsilon at delta), exactly one of them")
    tolerance = None
    if claim.tolerance is not None:
        tolerance = rational(file, "claim.tolerance", claim.tolerance)
        if not 0 < tolerance <= 1:
            raise SpecError(file, "claim.tolerance", f"tolerance = {tolerance}: a rational in (0, 1]")
    try:
        eps = E.parse(claim.epsilon if claim.epsilon is not None else 0)
        E.typecheck(eps, {}, allow_real=True)
    except E.ExprError as exc:
        raise SpecError(file, "claim.epsilon", str(exc)) from None
    check_epsilon(file, "claim.epsilon", eps, {}, runs=runs)
    delta = rational(file, "claim.delta", claim.delta)
    if not 0 <= delta <= 1:
        raise SpecError(file, "claim.delta", f"delta = {delta} is not in [0, 1]")
    eps_text = f"min eps (tolerance {tolerance})" if tolerance is not None else str(claim.epsilon)
    return ReadClaim(eps, eps_text, delta, tolerance)
