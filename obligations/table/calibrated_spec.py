"""Tables whose entries are exact reals built from rationals, exp and ln (the table form
of the finite kind, `kinds/finite/form.py`, with such entries), and formulas whose values
are, tabulated (`formula.py`): checked into a `CalibratedSpec`.  Entries are parsed by the
whitelist of `core/expr.py` and evaluated with sympy node by node (`to_sympy`); nothing from
the file reaches `sympify`."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from obligations.core import expr as E
from obligations.core.claims import ClaimsDp
from obligations.core.model import parse
from obligations.core.spec import Domain, Piece
from obligations.errors import SpecError
from obligations.table import calibrated_formula as F
from obligations.table.form import Spec
from obligations.table.spec import TableChecker

# Digits sympy evaluates an entry to, to decide signs and row sums it cannot simplify.
DIGITS = 60
MAX_CALIBRATED_ENTRIES = 400   # every entry is bracketed by its own `interval` proof


@dataclass(frozen=True)
class CalibratedSpec(ClaimsDp):
    """A table of real entries (exp and ln allowed) and a pure-DP claim about it."""

    path: str
    sha256: str
    name: str
    description: str
    parameters: Mapping[str, Fraction]
    parameter_types: Mapping[str, str]
    inputs: Domain
    outputs: Domain
    entries: tuple[tuple[E.Expr, ...], ...]
    values: tuple[tuple[sympy.Expr, ...], ...]   # the entries, exact, as sympy builds them
    neighbours: str | tuple[tuple[int, int], ...]
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    kind: str = "calibrated"
    derived: Mapping[str, Any] | None = None   # a sweep point: its name and values
    profile_epsilons: tuple[str, ...] = ()        # no privacy profiles: no rational table
    profile_compose: tuple[int, ...] = ()
    formula: str = ""   # a tabulated formula, as text (for the generated file's comment)


def claims(data: Mapping[str, Any]) -> bool:
    """A table with an exp or ln entry, or a formula with an exp or ln piece."""
    return has_real_entry(data) or F.has_real_formula(data)


def has_real_entry(data: Mapping[str, Any]) -> bool:
    """Whether a mapping is a table with an entry that calls exp or ln (parsed, never evaluated)."""
    table = data.get("table")
    if not isinstance(table, dict) or "formula" in data:
        return False
    for row in table.values():
        if not isinstance(row, list):
            continue
        for v in row:
            if isinstance(v, str) and ("exp" in v or "ln" in v or "log" in v):
                try:
                    if F.calls_real(E.parse(v)):
                        return True
                except E.ExprError:
                    continue
    return False


def check(data: Any, file: str, sha256: str = "") -> CalibratedSpec:
    spec = parse(Spec, data, file)
    c = TableChecker(file, sha256, spec)
    for field, given, default in (("distribution", spec.distribution, "full"), ("route", spec.route, "auto")):
        if given != default:
            raise SpecError(file, field, f"a table with exp or ln entries takes {field}: {default} only")
    for field in ("profile", "cw", "composition"):
        if getattr(spec, field) is not None:
            raise SpecError(file, field, f"'{field}' is not available for a table with exp or ln entries")
    run = c.run_names()
    params, types = run
    inputs = c.domain("inputs", spec.inputs, params, types)
    outputs = c.domain("outputs", spec.outputs, params, types)
    if inputs.size * outputs.size > MAX_CALIBRATED_ENTRIES:
        raise SpecError(file, "outputs", f"{inputs.size} inputs x {outputs.size} outputs: a table with exp "
                        f"or ln entries has at most {MAX_CALIBRATED_ENTRIES} entries (each is bracketed "
                        "by its own interval proof)")
    entries, values = (_formula(c, spec, inputs, outputs, params, types) if spec.formula is not None
                       else _table(c, spec, inputs, outputs, params, types))
    eps = c.epsilon("claim.epsilon", spec.claim.epsilon, params, types)
    delta = c.delta("claim.delta", spec.claim.delta, params, types)   # > 0: the hockey-stick check on brackets
    return CalibratedSpec(
        path=file, sha256=sha256, name=spec.name, description=spec.description, parameters=params,
        parameter_types=types, inputs=inputs, outputs=outputs, entries=entries, values=values,
        neighbours=c.neighbours(spec.neighbours, inputs), epsilon=eps, epsilon_text=str(spec.claim.epsilon),
        delta=delta, delta_text=str(spec.claim.delta), formula=_formula_text(c, spec, types))


def _table(c: TableChecker, spec: Spec, inputs: Domain, outputs: Domain, params: Mapping[str, Fraction],
           types: Mapping[str, str]) -> tuple[tuple[tuple[E.Expr, ...], ...], tuple[tuple[sympy.Expr, ...], ...]]:
    rows, values = [], []
    for label, row in c.rows("table", spec.table or {}, inputs, outputs):
        exprs, vals = [], []
        for j, text in enumerate(row):
            field = f"table.{label}[{j}]"
            e = c.expression(field, text, types, allow_real=True)
            unsupported = F.unsupported(e)
            if unsupported:
                raise c.fail(field, f"{unsupported} is not supported in an entry: entries are built from "
                             "rationals, parameters, + - * /, integer powers, exp and ln")
            try:
                v = E.to_sympy(e, params)
            except E.ExprError as exc:
                raise c.fail(field, str(exc)) from None
            _check_probability(c, field, v)
            exprs.append(e)
            vals.append(v)
        _check_row_sum(c, f"table.{label}", vals)
        rows.append(tuple(exprs))
        values.append(tuple(vals))
    return tuple(rows), tuple(values)


def _formula(c: TableChecker, spec: Spec, inputs: Domain, outputs: Domain, params: Mapping[str, Fraction],
             types: Mapping[str, str]) -> tuple[tuple[tuple[E.Expr, ...], ...], tuple[tuple[sympy.Expr, ...], ...]]:
    """The formula tabulated over the input and output ranges into a table of exact reals."""
    if inputs.values is None or outputs.values is None:
        raise c.fail("formula", "a formula needs integer inputs and outputs "
                     "(inputs: {range: [lo, hi]}, outputs: {range: [lo, hi]})")
    pieces = _pieces(c, spec, types)
    rows, values = [], []
    for row in F.points(inputs, outputs):
        exprs, vals = [], []
        for xv, yv in row:
            env = dict(params, x=Fraction(xv), y=Fraction(yv))
            e, field = _entry(c, pieces, env, xv, yv)
            try:
                v = E.to_sympy(e, params)
            except E.ExprError as exc:
                raise c.fail(field, f"at x = {xv}, y = {yv}: {exc}") from None
            _check_probability(c, field, v, f"at x = {xv}, y = {yv}: ")
            exprs.append(e)
            vals.append(v)
        _check_row_sum(c, "formula", vals, f"at x = {row[0][0]}: " if row else "")
        rows.append(tuple(exprs))
        values.append(tuple(vals))
    return tuple(rows), tuple(values)


def _pieces(c: TableChecker, spec: Spec, types: Mapping[str, str]) -> tuple[Piece, ...]:
    """The pieces, typed with exp and ln allowed in values (conditions stay exact)."""
    if spec.formula is None:
        return ()
    return c.pieces(spec.formula, types, allow_real=True, value_fields=True)


def _formula_text(c: TableChecker, spec: Spec, types: Mapping[str, str]) -> str:
    parts = [E.to_text(p.value) if p.when is None else f"{E.to_text(p.value)} if {E.to_text(p.when)}"
             for p in _pieces(c, spec, types)]
    return "; ".join(parts[:-1] + [f"otherwise {parts[-1]}"] if len(parts) > 1 else parts)


def _entry(c: TableChecker, pieces: tuple[Piece, ...], env: Mapping[str, Fraction], xv: int,
           yv: int) -> tuple[E.Expr, str]:
    """The entry at (x, y): the first piece that holds, specialised to the point; its field."""
    for p in pieces:
        try:
            if p.when is not None and not E.compile_exact(p.when)(env):
                continue
        except E.ExprError as exc:
            raise c.fail(p.field.replace(".value", ".when"), f"at x = {xv}, y = {yv}: {exc}") from None
        try:
            return F.specialise(p.value, env), p.field
        except E.ExprError as exc:
            raise c.fail(p.field, f"at x = {xv}, y = {yv}: {exc}") from None
    raise AssertionError("the last piece is 'otherwise'")   # guaranteed by the form


def _numeric(v: sympy.Expr) -> sympy.Float:
    return sympy.N(v, DIGITS)


def _check_probability(c: TableChecker, field: str, v: sympy.Expr, where: str = "") -> None:
    if not v.is_real:
        raise c.fail(field, f"{where}{v} is not a real number")
    n = _numeric(v)
    if v.is_negative or n < -sympy.Float(10) ** (-DIGITS // 2):
        raise c.fail(field, f"{where}probability {v} ~ {float(n):.6g} is negative")
    if (v - 1).is_positive or n > 1 + sympy.Float(10) ** (-DIGITS // 2):
        raise c.fail(field, f"{where}probability {v} ~ {float(n):.6g} is more than 1")


def _check_row_sum(c: TableChecker, field: str, vals: list[sympy.Expr], where: str = "") -> None:
    total = sympy.Add(*vals)
    if sympy.simplify(total - 1) == 0:
        return
    n = _numeric(total)
    if abs(n - 1) > sympy.Float(10) ** (-DIGITS // 2):
        raise c.fail(field, f"{where}the row sums to {float(n):.12g}, not 1")
    # Numerically 1 but sympy cannot show it: Coq's `field` decides (the row-sum lemma fails if not).
