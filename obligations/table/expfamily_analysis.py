"""What Python proposes for a family calibrated with e^eps:
- the geometric with alpha = e^(-eps) (`theories/Finite/GeomExp.v`): the verdict, from the
  exact comparison of the claim with d·eps (sympy), and for a smaller claim the witness
  x = 0, x' = min(d, n), S = {0}, whose ratio is e^(x'·eps);
- the exponential mechanism (`theories/Finite/ExpMech.v`): the scores' sensitivity Δ (Coq
  checks it by computation), the verdict from the claim against 2·c·Δ, and for a claim
  below the exact epsilon (60 digits) the pair and output of the largest ratio.
Coq disposes: it proves the comparisons (`lra`, else `interval`)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy

from obligations.analysis.finite import neighbour_pairs
from obligations.core.obligation import Plan, Verdict
from obligations.table.expfamily_spec import DIGITS, ExpFamilySpec

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
    witness: GeomWitness | None


def _sign(v: sympy.Expr) -> int | None:
    """The sign of an exact real: sympy's, else 60 digits when they are clear, else None."""
    if sympy.simplify(v) == 0:
        return 0
    n = sympy.N(v, DIGITS)
    if abs(n) < TIE:
        return None
    return 1 if n > 0 else -1


@dataclass(frozen=True)
class ExpMech:
    spec: ExpFamilySpec
    sensitivity: Fraction            # max |s(x, y) - s(x', y)| over neighbours and outputs
    bound: sympy.Expr                # 2 * c * sensitivity: what the library proves
    witness: GeomWitness | None   # the pair and output of the largest ratio, for a refutation


def geometric(spec: ExpFamilySpec) -> tuple[ExpFamily, Plan]:
    """The truncated geometric calibrated with e^eps: proved at or above d*eps, refuted below min(d, n)*eps."""
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


def exponential(spec: ExpFamilySpec) -> tuple[ExpMech, Plan]:
    """The exponential mechanism: proved at or above 2*c*sensitivity, refuted by the largest ratio."""
    pairs = neighbour_pairs(spec)
    s = spec.scores
    m = spec.outputs.size
    sens = max((abs(s[x][y] - s[x2][y]) for x, x2 in pairs for y in range(m)), default=Fraction(0))
    bound = 2 * spec.calibration_value * sympy.Rational(sens.numerator, sens.denominator)
    notes = [f"the scores have sensitivity {sens} for the neighbours (Coq checks it by computation); "
             f"the library's exponential mechanism (ExpMech.v: expmech_rdp, for every score table and "
             f"c >= 0) is (2*c*{sens}, 0)-DP = ({sympy.nsimplify(bound) if bound.is_Rational else bound}, 0)-DP"]
    with mpmath.workdps(DIGITS):
        c = mpmath.mpf(str(sympy.N(spec.calibration_value, DIGITS)))
        log_z = [mpmath.log(mpmath.fsum(mpmath.exp(c * mpmath.mpf(v.numerator) / v.denominator) for v in row))
                 for row in s]
        best, where = mpmath.mpf(0), None
        for x, x2 in pairs:
            for y in range(m):
                d = s[x][y] - s[x2][y]
                r = c * mpmath.mpf(d.numerator) / d.denominator + log_z[x2] - log_z[x]
                if where is None or r > best:
                    best, where = r, (x, x2, y)
        tight = float(best)
        claim = mpmath.mpf(str(sympy.N(spec.epsilon_value, DIGITS)))
        margin = claim - best
    tight_text = f"{tight:.12g}"
    above = _sign(spec.epsilon_value - bound)
    if above is not None and above >= 0:
        return ExpMech(spec, sens, bound, None), _plan(Verdict.PROVED, tight_text, tight, notes)
    if where is not None and margin < -mpmath.mpf(10) ** (-DIGITS // 2):
        x, x2, y = where
        w = GeomWitness(x, x2, y, math.exp(tight))
        notes.append(f"the claim is below the exact epsilon ~ {tight_text}: the largest ratio is at "
                     f"x = {spec.inputs.labels[x]}, x' = {spec.inputs.labels[x2]}, S = {{{spec.outputs.labels[y]}}}")
        return ExpMech(spec, sens, bound, w), _plan(Verdict.REFUTED, tight_text, tight, notes)
    notes.append(f"undecided: the claim is below the library's bound 2*c*sensitivity and not below the exact "
                 f"epsilon ~ {tight_text}; the table with exp entries (the calibrated kind) decides it "
                 "by brackets; nothing is sent to Coq")
    return ExpMech(spec, sens, bound, None), _plan(Verdict.UNDECIDED, tight_text, tight, notes)
