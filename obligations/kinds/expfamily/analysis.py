"""What Python proposes for the geometric calibrated with alpha = e^(-eps)
(`theories/Finite/GeomExp.v`): the verdict, from the exact comparison of the claim with
d·eps (sympy), and for a smaller claim the witness x = 0, x' = min(d, n), S = {0}, whose
ratio is e^(x'·eps).  Coq disposes: it proves the comparison (`lra`, else `interval`)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import sympy

from obligations.core.obligation import Plan, Verdict
from obligations.kinds.expfamily.spec import DIGITS, ExpFamilySpec

# Closer than this, the sign of claim - d*eps is not trusted to 60 digits (sympy could not simplify it).
TIE = sympy.Float(10) ** (-DIGITS // 2)


@dataclass(frozen=True)
class GeomWitness:
    x: int
    x2: int
    y: int
    ratio: float        # M(x)(y) / M(x')(y) = e^(x2 * eps)


@dataclass(frozen=True)
class ExpFamily:
    spec: ExpFamilySpec
    steps: int                       # min(d, n): the largest |x - x'| of neighbours in {0..n}
    witness: Optional[GeomWitness]


def _sign(v: sympy.Expr) -> Optional[int]:
    """The sign of an exact real: sympy's, else 60 digits when they are clear, else None."""
    if sympy.simplify(v) == 0:
        return 0
    n = sympy.N(v, DIGITS)
    if abs(n) < TIE:
        return None
    return 1 if n > 0 else -1


def analyse(spec: ExpFamilySpec) -> tuple[ExpFamily, Plan]:
    steps = min(spec.distance, spec.n)
    tight = steps * spec.calibration_value
    tight_float = float(sympy.N(tight, 30))
    tight_text = str(sympy.nsimplify(tight)) if tight.is_Rational else f"{tight_float:.12g}"
    notes = [f"the library's truncated geometric with alpha = exp(-({spec.calibration_text})) over "
             f"0..{spec.n} (GeomExp.v: rgeom_rdp_distance, for every eps >= 0, n and d) is "
             f"({spec.distance}*eps, 0)-DP for neighbours at distance {spec.distance}"]
    above = _sign(spec.epsilon_value - spec.distance * spec.calibration_value)
    below = _sign(spec.epsilon_value - tight)
    if above is not None and above >= 0:
        return ExpFamily(spec, steps, None), _plan(Verdict.PROVED, tight_text, tight_float, notes)
    if below is not None and below < 0:
        w = GeomWitness(0, steps, 0, math.exp(tight_float))
        notes.append(f"a smaller claim fails at x = 0, x' = {steps}, S = {{0}}: "
                     f"M(0)(0) / M({steps})(0) = e^({steps}*eps) ~ {w.ratio:.12g}")
        return ExpFamily(spec, steps, w), _plan(Verdict.REFUTED, tight_text, tight_float, notes)
    notes.append("undecided: the claim is neither at least d*eps (what the library proves) nor below "
                 f"min(d, n)*eps = {tight_text} (a witness); nothing is sent to Coq")
    return ExpFamily(spec, steps, None), _plan(Verdict.UNDECIDED, tight_text, tight_float, notes)


def _plan(verdict: Verdict, tight_text: str, tight_float: float, notes: list[str]) -> Plan:
    return Plan(expected=verdict, obligations=(), tight_epsilon=tight_text, tight_epsilon_float=tight_float,
                delta_at_claim=None, delta_at_claim_float=math.nan, notes=tuple(notes))
