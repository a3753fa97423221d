"""Why a table of real entries is undecided, when its brackets cannot tell: the claim may be
exactly the table's epsilon (a tie), which rational brackets never prove, and the table may be
a library family written out (the truncated geometric with alpha = e^(-eps)), which its own
form proves exactly.  Exact comparisons (sympy); a hint, nothing is sent to Coq."""
from __future__ import annotations

import sympy

from obligations.table.calibrated_spec import DIGITS, CalibratedSpec

CLOSE = sympy.Float(10) ** (-DIGITS // 2)
MAX_EXACT = 400    # entries compared exactly (sympy.simplify each): a hint need not be slow


def explain(spec: CalibratedSpec, eps: sympy.Expr, pairs: tuple[tuple[int, int], ...]) -> str | None:
    """A sentence for an undecided table: the exact tie, and the form that proves it."""
    if spec.inputs.size * spec.outputs.size > MAX_EXACT:
        return None
    tie = _tie(spec, eps, pairs)
    if tie is None:
        return None
    x, x2, y = tie
    text = (f"the claim is exactly the table's epsilon (M({spec.inputs.labels[x]})({spec.outputs.labels[y]}) "
            f"= e^eps * M({spec.inputs.labels[x2]})({spec.outputs.labels[y]})): rational brackets can only "
            "prove a claim with room to spare")
    n = _geometric(spec, eps)
    if n is not None:
        text += (f"; the table is the library's truncated geometric with alpha = e^(-({spec.epsilon_text})) over "
                 f"0..{n}: written as `geometric: {{epsilon: \"{spec.epsilon_text}\", n: {n}}}` it is proved "
                 "exactly (GeomExp.v)")
    return text


def _tie(spec: CalibratedSpec, eps: sympy.Expr, pairs: tuple[tuple[int, int], ...]) -> tuple[int, int, int] | None:
    e = sympy.exp(eps)
    for x, x2 in pairs:
        for y in range(spec.outputs.size):
            p, q = spec.values[x][y], spec.values[x2][y]
            gap = p - e * q
            if q != 0 and abs(sympy.N(gap, DIGITS)) < CLOSE and sympy.simplify(gap) == 0:
                return x, x2, y
    return None


def _geometric(spec: CalibratedSpec, eps: sympy.Expr) -> int | None:
    """n if the table is rgeom eps n (GeomExp.v: rgeom_pmf) over inputs and outputs 0..n."""
    n = spec.inputs.size - 1
    if n < 1 or spec.outputs.size != n + 1 or spec.neighbours != "adjacent":
        return None
    a = sympy.exp(-eps)
    for x in range(n + 1):
        for y in range(n + 1):
            if y == 0:
                want = a ** x / (1 + a)
            elif y == n:
                want = a ** (n - x) / (1 + a)
            else:
                want = (1 - a) / (1 + a) * a ** abs(y - x)
            gap = spec.values[x][y] - want
            if abs(sympy.N(gap, DIGITS)) > CLOSE or sympy.simplify(gap) != 0:
                return None
    return n
