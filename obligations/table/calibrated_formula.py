"""A formula whose pieces call exp or ln (the `formula:` form of the finite kind, over
integer ranges), tabulated into the same table of exact reals a calibrated table gives:
entry (x, y) is the piece that holds at (x, y), with x and y replaced by their values.

Conditions are exact (they compare no exp or ln: `core/expr.py` refuses that), so the piece
of each entry is chosen by exact evaluation.  Inside a piece, every subterm without exp or ln
that mentions x or y, or uses abs, min, max or 'a if cond else b', is folded to its exact
rational value: what remains is rationals, parameters, + - * /, integer powers, exp and ln,
which Coq reads as a real (`Renderer.r`).  Nothing from the file reaches `sympify`."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from obligations.core import expr as E
from obligations.core.spec import Domain

POINT = ("x", "y")


def has_real_formula(data: Mapping[str, Any]) -> bool:
    """Whether a mapping is a formula with a piece that calls exp or ln (parsed, never evaluated)."""
    f = data.get("formula")
    if isinstance(f, str):
        texts: list[Any] = [f]
    elif isinstance(f, dict) and isinstance(f.get("cases"), list):
        texts = [v for case in f["cases"] if isinstance(case, dict)
                 for k, v in case.items() if k in ("value", "otherwise")]
    else:
        return False
    for text in texts:
        if isinstance(text, str) and ("exp" in text or "ln" in text or "log" in text):
            try:
                if calls_real(E.parse(text)):
                    return True
            except E.ExprError:
                continue
    return False


def calls_real(e: E.Expr) -> bool:
    if isinstance(e, E.Call) and e.fn in ("exp", "ln"):
        return True
    return any(calls_real(c) for c in E.children(e))


def _num(v: Fraction) -> E.Expr:
    # A negative value as a negation: the rendered real reads `(- 3)` like a spec's `-3`.
    return E.Num(v) if v >= 0 else E.Neg(E.Num(-v))


def _folds(e: E.Expr) -> bool:
    """A rational subterm Coq's real rendering would not read as the spec means it."""
    if isinstance(e, E.Var):
        return e.name in POINT
    if isinstance(e, (E.Cond, E.Compare, E.BoolOp, E.Not, E.BoolConst)):
        return True
    if isinstance(e, E.Call) and e.fn in ("abs", "min", "max"):
        return True
    return any(_folds(c) for c in E.children(e))


def specialise(e: E.Expr, env: Mapping[str, Fraction]) -> E.Expr:
    """`e` at the point `env` (parameters, x and y): raises ExprError (division by zero, ...)."""
    if not calls_real(e):
        return _num(Fraction(E.compile_exact(e)(env))) if _folds(e) else e
    if isinstance(e, E.Cond):
        return specialise(e.then if E.compile_exact(e.test)(env) else e.orelse, env)
    if isinstance(e, E.Neg):
        return E.Neg(specialise(e.operand, env))
    if isinstance(e, E.BinOp):
        return E.BinOp(e.op, specialise(e.left, env), specialise(e.right, env))
    if isinstance(e, E.Call) and e.fn in ("exp", "ln"):
        return E.Call(e.fn, tuple(specialise(a, env) for a in e.args))
    if isinstance(e, E.Call):
        raise E.ExprError(f"{e.fn} of a term with exp or ln is not supported: {E.to_text(e)}")
    raise E.ExprError(f"{E.to_text(e)} is not a number")


def points(inputs: Domain, outputs: Domain) -> list[list[tuple[int, int]]]:
    """The (x, y) values of every entry, row by row."""
    return [[(xv, yv) for yv in outputs.values or ()] for xv in inputs.values or ()]


def unsupported(e: E.Expr) -> str:
    """What an exact real entry may not use (a function other than exp and ln, a conditional)."""
    if isinstance(e, E.Call) and e.fn not in ("exp", "ln"):
        return f"{e.fn}(...)"
    if isinstance(e, E.Cond):
        return "'a if cond else b'"
    return next((u for u in (unsupported(c) for c in E.children(e)) if u), "")
