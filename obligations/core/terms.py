"""Coq terms for numbers, expressions and labels.

Every identifier written here was validated by the spec layer; labels and
free text only ever go into comments, through `comment`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from obligations.core import expr as E
from obligations.core.names import unsafe_char

HEX_DIGITS = 24   # integers longer than this are written in hex (faster for Coq to read)
CHUNK = 1000      # list literals are split so Coq's parser never sees a huge flat list


def z_lit(k: int) -> str:
    """An integer literal for Coq, in hex when long."""
    if len(str(abs(k))) > HEX_DIGITS:
        return ("-" if k < 0 else "") + hex(abs(k))
    return str(k)


def q_lit(q: Fraction) -> str:
    """A Q literal `(p # d)`."""
    num = z_lit(q.numerator)
    if q.numerator < 0:
        num = f"({num})"
    return f"({num} # {z_lit(q.denominator)})"


def r_lit(q: Fraction) -> str:
    """An R literal: `3`, `(-3)`, `(141 / 2000)`."""
    num = str(q.numerator)
    if q.denominator == 1:
        return num if q >= 0 else f"({num})"
    return f"({num} / {q.denominator})"


def q_list(values: Sequence[Fraction]) -> str:
    return _list([q_lit(v) for v in values])


def _list(items: Sequence[str]) -> str:
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)] or [[]]
    return " ++ ".join("[" + "; ".join(c) + "]" for c in chunks)


def rows_literal(rows: Sequence[Sequence[Fraction]], indent: str = "    ") -> str:
    """The rows of a table as nested Coq lists, one row per line."""
    lines = [q_list(r) for r in rows]
    chunks = [lines[i:i + CHUNK] for i in range(0, len(lines), CHUNK)]
    return ("\n" + indent + "++ ").join(
        "[" + (";\n" + indent + " ").join(c) + "]" for c in chunks)


def comment(text: str) -> str:
    """Text made safe inside a Coq comment (no nesting, no string quotes, and no control
    characters or bidi overrides, which would hide or reorder what a reader sees)."""
    text = " ".join(text.split())
    text = "".join(f"\\u{{{ord(c):X}}}" if unsafe_char(c) else c for c in text)
    return text.replace("(*", "( *").replace("*)", "* )").replace('"', "''")


# ---------------------------------------------------------------- expressions


class Renderer:
    """Expressions of the spec language as Coq terms of type Z, Q, bool or R.

    `params` maps parameter names to their Coq names (for Z/Q terms) and to
    their values (for R terms, which show the numbers themselves).
    """

    def __init__(self, types: Mapping[str, str], coq_names: Mapping[str, str],
                 values: Mapping[str, Fraction]) -> None:
        self.types = dict(types)
        self.coq_names = dict(coq_names)
        self.values = dict(values)

    def type_of(self, e: E.Expr) -> str:
        return E.typecheck(e, self.types, allow_real=True)

    # -- Z, Q and bool (formulas)
    def z(self, e: E.Expr) -> str:
        if isinstance(e, E.Num):
            return f"{z_lit(e.value.numerator)}%Z" if e.value >= 0 else f"({z_lit(e.value.numerator)})%Z"
        if isinstance(e, E.Var):
            return self.coq_names[e.name]
        if isinstance(e, E.Neg):
            return f"(- {self.z(e.operand)})%Z"
        if isinstance(e, E.BinOp) and e.op in "+-*":
            return f"({self.z(e.left)} {e.op} {self.z(e.right)})%Z"
        if isinstance(e, E.Call) and e.fn in ("abs", "min", "max"):
            fn = {"abs": "Z.abs", "min": "Z.min", "max": "Z.max"}[e.fn]
            return f"({fn} " + " ".join(self.z(a) for a in e.args) + ")"
        if isinstance(e, E.Cond):
            return f"(if {self.bool(e.test)} then {self.z(e.then)} else {self.z(e.orelse)})"
        raise E.ExprError(f"{E.to_text(e)} is not an integer expression")

    def q(self, e: E.Expr) -> str:
        if self.type_of(e) == E.INT and not isinstance(e, E.Num):
            return f"(inject_Z {self.z(e)})"
        if isinstance(e, E.Num):
            return q_lit(e.value)
        if isinstance(e, E.Var):
            return self.coq_names[e.name]
        if isinstance(e, E.Neg):
            return f"(- {self.q(e.operand)})%Q"
        if isinstance(e, E.BinOp):
            if e.op == "**":
                return f"(Qpower {self.q(e.left)} {self.z(e.right)})"
            return f"({self.q(e.left)} {e.op} {self.q(e.right)})%Q"
        if isinstance(e, E.Call) and e.fn in ("abs", "min", "max"):
            fn = {"abs": "Qabs", "min": "Qmin", "max": "Qmax"}[e.fn]
            return f"({fn} " + " ".join(self.q(a) for a in e.args) + ")"
        if isinstance(e, E.Cond):
            return f"(if {self.bool(e.test)} then {self.q(e.then)} else {self.q(e.orelse)})"
        raise E.ExprError(f"{E.to_text(e)} cannot be computed exactly")

    def bool(self, e: E.Expr) -> str:
        if isinstance(e, E.BoolConst):
            return "true" if e.value else "false"
        if isinstance(e, E.Not):
            return f"(negb {self.bool(e.operand)})"
        if isinstance(e, E.BoolOp):
            op = " && " if e.op == "and" else " || "
            return "(" + op.join(self.bool(v) for v in e.values) + ")"
        if isinstance(e, E.Compare):
            return self._compare(e)
        raise E.ExprError(f"{E.to_text(e)} is not a condition")

    def _compare(self, e: E.Compare) -> str:
        ints = self.type_of(e.left) == E.INT and self.type_of(e.right) == E.INT
        a, b = (self.z(e.left), self.z(e.right)) if ints else (self.q(e.left), self.q(e.right))
        if ints:
            table = {"==": f"(Z.eqb {a} {b})", "!=": f"(negb (Z.eqb {a} {b}))",
                     "<": f"(Z.ltb {a} {b})", "<=": f"(Z.leb {a} {b})",
                     ">": f"(Z.ltb {b} {a})", ">=": f"(Z.leb {b} {a})"}
        else:
            table = {"==": f"(Qeq_bool {a} {b})", "!=": f"(negb (Qeq_bool {a} {b}))",
                     "<": f"(negb (Qle_bool {b} {a}))", "<=": f"(Qle_bool {a} {b})",
                     ">": f"(negb (Qle_bool {a} {b}))", ">=": f"(Qle_bool {b} {a})"}
        return table[e.op]

    # -- R (claims): parameters show their values
    def r(self, e: E.Expr) -> str:
        if isinstance(e, E.Num):
            return r_lit(e.value)
        if isinstance(e, E.Var):
            return r_lit(self.values[e.name])
        if isinstance(e, E.Neg):
            return f"(- {self.r(e.operand)})"
        if isinstance(e, E.BinOp):
            if e.op == "**":
                return f"(powerRZ {self.r(e.left)} {self.z_value(e.right)})"
            return f"({self.r(e.left)} {e.op} {self.r(e.right)})"
        if isinstance(e, E.Call):
            fn = {"ln": "ln", "exp": "exp", "abs": "Rabs", "min": "Rmin", "max": "Rmax"}[e.fn]
            return f"({fn} " + " ".join(self.r(a) for a in e.args) + ")"
        raise E.ExprError(f"{E.to_text(e)} is not allowed in a claim")

    def z_value(self, e: E.Expr) -> str:
        value = E.compile_exact(e)(self.values)
        return f"({z_lit(int(value))})%Z"


def strip_outer(term: str) -> str:
    """`(ln 3)` -> `ln 3`, for statements that read naturally."""
    if term.startswith("(") and term.endswith(")"):
        depth = 0
        for i, ch in enumerate(term):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(term) - 1:
                return term
        return term[1:-1]
    return term


def signed_z(z: int) -> str:
    """A Z literal an application can take as an argument: negative ones in parentheses."""
    return z_lit(z) if z >= 0 else f"({z_lit(z)})"


CHUNK = 200  # list literals are split so Coq's parser never sees a huge flat list


def chunked(items: Sequence[str], indent: str = "  ", per_line: int = 1) -> str:
    """A list literal, `per_line` items a line, split into lists of CHUNK joined by ++."""
    def body(c: Sequence[str]) -> str:
        lines = ["; ".join(c[i:i + per_line]) for i in range(0, len(c), per_line)]
        return "[" + (";\n" + indent + " ").join(lines) + "]"
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)] or [[]]
    return ("\n" + indent + "++ ").join(body(c) for c in chunks)
