"""The expression language of specs, parsed by a whitelist over Python's `ast`.

A spec string is parsed (never evaluated) with `ast.parse`, and every node
is checked against a short whitelist and turned into the small typed tree
below.  Nothing from the user reaches `eval`, `sympify` or `parse_expr`:
sympy expressions are built node by node from this tree.

Types: `int` (integers: literals, integer parameters, the row and column
values), `rat` (exact rationals), `real` (anything with ln or exp, allowed
only in claims) and `bool` (conditions).
"""
from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # sympy is imported by `to_sympy`, when a spec's number needs it (0.6 s at start-up)
    import sympy

MAX_LENGTH = 2000
MAX_DEPTH = 40
MAX_EXPONENT = 4096
MAX_LITERAL_DIGITS = 200
MAX_POWER_BITS = 100_000  # bits of any intermediate value: far beyond what Coq can read or compute with

INT, RAT, REAL, BOOL = "int", "rat", "real", "bool"

FUNCTIONS = {"ln": 1, "exp": 1, "abs": 1, "min": 2, "max": 2}
# Python's names for the same operators, accepted as synonyms.
FUNCTION_SYNONYMS = {"log": "ln"}
COMPARISONS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**",
          ast.FloorDiv: "//", ast.Mod: "%"}


class ExprError(ValueError):
    """An expression outside the language; the message says what is wrong."""


@dataclass(frozen=True)
class Num:
    value: Fraction


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg:
    operand: Expr


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Cond:
    test: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class Compare:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    values: tuple[Expr, ...]


@dataclass(frozen=True)
class Not:
    operand: Expr


@dataclass(frozen=True)
class BoolConst:
    value: bool


Expr = Num | Var | BinOp | Neg | Call | Cond | Compare | BoolOp | Not | BoolConst


def parse(text: str | int | float) -> Expr:
    """Parse one expression; raises ExprError with a plain message."""
    if isinstance(text, bool):
        raise ExprError("expected an expression, got a boolean")
    if isinstance(text, int):
        return Num(Fraction(text))
    if isinstance(text, float):
        if not math.isfinite(text):
            raise ExprError(f"{text!r} is not a finite number")
        return Num(Fraction(repr(text)))
    if not isinstance(text, str):
        raise ExprError(f"expected an expression as a string, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise ExprError("empty expression")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ExprError(f"not an expression: {text!r}") from exc
    return _convert(tree.body, text.strip(), 0)


def _convert(node: ast.AST, src: str, depth: int) -> Expr:  # noqa: C901 (one branch per node kind)
    if depth > MAX_DEPTH:
        raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels")
    d = depth + 1
    if isinstance(node, ast.Constant):
        return _constant(node, src)
    if isinstance(node, ast.Name):
        if node.id in ("True", "False"):
            return BoolConst(node.id == "True")
        return Var(node.id)
    if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
        return BinOp(BINOPS[type(node.op)], _convert(node.left, src, d), _convert(node.right, src, d))
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.USub):
            return Neg(_convert(node.operand, src, d))
        if isinstance(node.op, ast.UAdd):
            return _convert(node.operand, src, d)
        if isinstance(node.op, ast.Not):
            return Not(_convert(node.operand, src, d))
    if isinstance(node, ast.Call):
        return _call(node, src, d)
    if isinstance(node, ast.IfExp):
        return Cond(_convert(node.test, src, d), _convert(node.body, src, d), _convert(node.orelse, src, d))
    if isinstance(node, ast.Compare):
        return _compare(node, src, d)
    if isinstance(node, ast.BoolOp):
        op = "and" if isinstance(node.op, ast.And) else "or"
        return BoolOp(op, tuple(_convert(v, src, d) for v in node.values))
    segment = ast.get_source_segment(src, node) or type(node).__name__
    raise ExprError(f"{segment!r} is not allowed in an expression "
                    "(numbers, parameters, + - * / **, ln, exp, abs, min, max, "
                    "comparisons, and/or/not, 'a if cond else b')")


def _constant(node: ast.Constant, src: str) -> Expr:
    value = node.value
    if isinstance(value, bool):
        return BoolConst(value)
    if isinstance(value, int):
        if len(str(abs(int(value)))) > MAX_LITERAL_DIGITS:
            raise ExprError(f"number literal longer than {MAX_LITERAL_DIGITS} digits")
        return Num(Fraction(value))
    if isinstance(value, float):
        text = (ast.get_source_segment(src, node) or repr(value)).replace("_", "")
        if len(text) > MAX_LITERAL_DIGITS:
            raise ExprError(f"number literal longer than {MAX_LITERAL_DIGITS} digits")
        exponent = Decimal(text).as_tuple().exponent   # 'n', 'N' or 'F' for nan and infinity
        if not isinstance(exponent, int) or abs(exponent) > MAX_LITERAL_DIGITS:  # 1e999999999
            raise ExprError(f"number literal {text!r} has more than {MAX_LITERAL_DIGITS} digits")
        try:
            return Num(Fraction(text))  # exact: 0.1 is 1/10
        except (ValueError, ZeroDivisionError) as exc:
            raise ExprError(f"cannot read the number {text!r} exactly") from exc
    raise ExprError(f"constant {value!r} is not a number")


def _call(node: ast.Call, src: str, depth: int) -> Expr:
    if not isinstance(node.func, ast.Name) or node.keywords:
        raise ExprError(f"{ast.get_source_segment(src, node)!r}: only ln, exp, abs, min, max may be called")
    name = FUNCTION_SYNONYMS.get(node.func.id, node.func.id)
    if name not in FUNCTIONS:
        raise ExprError(f"unknown function {node.func.id!r} (allowed: {', '.join(sorted(FUNCTIONS))})")
    if len(node.args) != FUNCTIONS[name]:
        raise ExprError(f"{name} takes {FUNCTIONS[name]} argument(s), got {len(node.args)}")
    return Call(name, tuple(_convert(a, src, depth) for a in node.args))


def _compare(node: ast.Compare, src: str, depth: int) -> Expr:
    parts = [_convert(node.left, src, depth)] + [_convert(c, src, depth) for c in node.comparators]
    links: list[Expr] = []
    for i, op in enumerate(node.ops):
        if type(op) not in COMPARISONS:
            raise ExprError(f"comparison {type(op).__name__} is not allowed")
        links.append(Compare(COMPARISONS[type(op)], parts[i], parts[i + 1]))
    return links[0] if len(links) == 1 else BoolOp("and", tuple(links))


# ---------------------------------------------------------------- typing


def typecheck(e: Expr, env: Mapping[str, str], *, allow_real: bool) -> str:  # noqa: C901 (one branch per node kind)
    """The type of `e` given the types of its variables; raises ExprError."""
    if isinstance(e, Num):
        return INT if e.value.denominator == 1 else RAT
    if isinstance(e, BoolConst):
        return BOOL
    if isinstance(e, Var):
        if e.name not in env:
            known = ", ".join(sorted(env)) or "none"
            raise ExprError(f"unknown name {e.name!r} (known here: {known})")
        return env[e.name]
    if isinstance(e, Neg):
        return _numeric(typecheck(e.operand, env, allow_real=allow_real), "-")
    if isinstance(e, BinOp):
        lt = _numeric(typecheck(e.left, env, allow_real=allow_real), e.op)
        rt = _numeric(typecheck(e.right, env, allow_real=allow_real), e.op)
        if e.op == "**":
            if rt != INT:
                raise ExprError("the exponent of ** must be an integer expression "
                                "(integer literals and parameters, x, y, abs/min/max of those)")
            return lt if lt != INT else RAT  # negative exponents give rationals
        if e.op == "/":
            return REAL if REAL in (lt, rt) else RAT
        if e.op in ("//", "%") and (lt, rt) != (INT, INT):
            raise ExprError(f"{e.op} (rounding down) takes integers: {to_text(e)}")
        return _join(lt, rt)
    if isinstance(e, Call):
        ts = [_numeric(typecheck(a, env, allow_real=allow_real), e.fn) for a in e.args]
        if e.fn in ("ln", "exp"):
            if not allow_real:
                raise ExprError(f"{e.fn} is not exact: probabilities must be rational "
                                "(ln and exp are allowed in the claim's epsilon, in the entries of a table "
                                "and in the values of a formula, not in its conditions: docs/calibrated.md)")
            return REAL
        return _join(*ts)
    if isinstance(e, Cond):
        if typecheck(e.test, env, allow_real=allow_real) != BOOL:
            raise ExprError("the condition of 'a if cond else b' must be a comparison")
        return _join(_numeric(typecheck(e.then, env, allow_real=allow_real), "if"),
                     _numeric(typecheck(e.orelse, env, allow_real=allow_real), "else"))
    if isinstance(e, Compare):
        lt = _numeric(typecheck(e.left, env, allow_real=allow_real), e.op)
        rt = _numeric(typecheck(e.right, env, allow_real=allow_real), e.op)
        if REAL in (lt, rt):
            raise ExprError("conditions compare exact numbers only (no ln or exp)")
        return BOOL
    if isinstance(e, (BoolOp, Not)):
        operands = e.values if isinstance(e, BoolOp) else (e.operand,)
        for v in operands:
            if typecheck(v, env, allow_real=allow_real) != BOOL:
                raise ExprError("and/or/not take conditions")
        return BOOL
    raise ExprError(f"unexpected expression node {e!r}")


def _numeric(t: str, where: str) -> str:
    if t == BOOL:
        raise ExprError(f"a condition cannot be used as a number (at {where!r})")
    return t


def _join(*ts: str) -> str:
    if REAL in ts:
        return REAL
    return RAT if RAT in ts else INT


def names(e: Expr) -> set[str]:
    """The variable names an expression uses."""
    if isinstance(e, Var):
        return {e.name}
    out: set[str] = set()
    for child in children(e):
        out |= names(child)
    return out


def children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, BinOp):
        return (e.left, e.right)
    if isinstance(e, (Neg, Not)):
        return (e.operand,)
    if isinstance(e, Call):
        return e.args
    if isinstance(e, Cond):
        return (e.test, e.then, e.orelse)
    if isinstance(e, Compare):
        return (e.left, e.right)
    if isinstance(e, BoolOp):
        return e.values
    return ()


def to_text(e: Expr) -> str:
    """Readable, fully parenthesised text of an expression (for messages and comments)."""
    if isinstance(e, Num):
        return str(e.value)
    if isinstance(e, Var):
        return e.name
    if isinstance(e, BoolConst):
        return str(e.value)
    if isinstance(e, Neg):
        return f"-{to_text(e.operand)}"
    if isinstance(e, BinOp):
        return f"({to_text(e.left)} {e.op} {to_text(e.right)})"
    if isinstance(e, Call):
        return f"{e.fn}({', '.join(to_text(a) for a in e.args)})"
    if isinstance(e, Cond):
        return f"({to_text(e.then)} if {to_text(e.test)} else {to_text(e.orelse)})"
    if isinstance(e, Compare):
        return f"{to_text(e.left)} {e.op} {to_text(e.right)}"
    if isinstance(e, BoolOp):
        return "(" + f" {e.op} ".join(to_text(v) for v in e.values) + ")"
    if isinstance(e, Not):
        return f"not {to_text(e.operand)}"
    raise ExprError(f"unexpected expression node {e!r}")


# ---------------------------------------------------------------- exact evaluation

Value = Fraction | bool
Evaluator = Callable[[Mapping[str, Fraction]], Value]


def _q(v: Value) -> Fraction:
    """A value as a number (a comparison's True is 1, as in Python and in the formulas)."""
    return v if isinstance(v, Fraction) else Fraction(int(v))


def compile_exact(e: Expr) -> Evaluator:  # noqa: C901 (one branch per node kind)
    """A closure computing `e` exactly with Fractions (no ln/exp).

    Division by zero and oversized exponents raise ExprError, so that a
    formula Coq would read differently (Coq's x/0 is 0) is refused instead.
    """
    if isinstance(e, Num):
        v = e.value
        return lambda env: v
    if isinstance(e, BoolConst):
        b = e.value
        return lambda env: b
    if isinstance(e, Var):
        name = e.name
        return lambda env: env[name]
    if isinstance(e, Neg):
        f = compile_exact(e.operand)
        return lambda env: -_q(f(env))
    if isinstance(e, BinOp):
        return _compile_binop(e)
    if isinstance(e, Call):
        fs = [compile_exact(a) for a in e.args]
        if e.fn == "abs":
            return lambda env: abs(_q(fs[0](env)))
        if e.fn == "min":
            return lambda env: min(_q(fs[0](env)), _q(fs[1](env)))
        if e.fn == "max":
            return lambda env: max(_q(fs[0](env)), _q(fs[1](env)))
        raise ExprError(f"{e.fn} is not exact")
    if isinstance(e, Cond):
        test, then, orelse = compile_exact(e.test), compile_exact(e.then), compile_exact(e.orelse)
        return lambda env: then(env) if test(env) else orelse(env)
    if isinstance(e, Compare):
        return _compile_compare(e)
    if isinstance(e, BoolOp):
        parts = [compile_exact(v) for v in e.values]
        if e.op == "and":
            return lambda env: all(f(env) for f in parts)
        return lambda env: any(f(env) for f in parts)
    if isinstance(e, Not):
        f = compile_exact(e.operand)
        return lambda env: not f(env)
    raise ExprError(f"unexpected expression node {e!r}")


def exact_constant(text: str | int | float) -> Fraction:
    """A rational constant written without names (`1/100`, `2**-10`); raises ExprError with a
    plain message, an unknown name included."""
    e = parse(text)
    typecheck(e, {}, allow_real=False)
    return _q(compile_exact(e)({}))


def _sized(v: Fraction, e: Expr) -> Fraction:
    """Refuse a value too large to be a probability's numerator or denominator."""
    if max(v.numerator.bit_length(), v.denominator.bit_length()) > MAX_POWER_BITS:
        raise ExprError(f"{to_text(e)} is larger than {MAX_POWER_BITS} bits")
    return v


def _compile_binop(e: BinOp) -> Evaluator:
    f, g = compile_exact(e.left), compile_exact(e.right)
    if e.op == "+":
        return lambda env: _q(f(env)) + _q(g(env))
    if e.op == "-":
        return lambda env: _q(f(env)) - _q(g(env))
    if e.op == "*":
        return lambda env: _sized(_q(f(env)) * _q(g(env)), e)
    if e.op == "/":
        return _divide(f, g, e)
    if e.op in ("//", "%"):
        return _floor_divide(f, g, e)
    return _power(f, g, e)


def _divide(f: Evaluator, g: Evaluator, e: BinOp) -> Evaluator:
    def div(env: Mapping[str, Fraction]) -> Fraction:
        d = _q(g(env))
        if d == 0:
            raise ExprError(f"division by zero in {to_text(e)}")
        return _sized(_q(f(env)) / d, e)
    return div


def _floor_divide(f: Evaluator, g: Evaluator, e: BinOp) -> Evaluator:
    """`//` and `%`, rounding toward minus infinity (Python's and the program semantics')."""
    def floor(env: Mapping[str, Fraction]) -> Fraction:
        a, d = _q(f(env)), _q(g(env))
        if d == 0:
            raise ExprError(f"division by zero in {to_text(e)}")
        return Fraction(a // d) if e.op == "//" else a - d * (a // d)
    return floor


def _power(f: Evaluator, g: Evaluator, e: BinOp) -> Evaluator:
    def power(env: Mapping[str, Fraction]) -> Fraction:
        base, k = _q(f(env)), _q(g(env))
        if abs(k) > MAX_EXPONENT:
            raise ExprError(f"exponent {k} in {to_text(e)} is larger than {MAX_EXPONENT}")
        if base == 0 and k < 0:
            raise ExprError(f"0 to a negative power in {to_text(e)}")
        if abs(k) * max(base.numerator.bit_length(), base.denominator.bit_length()) > MAX_POWER_BITS:
            raise ExprError(f"{to_text(e)} is larger than {MAX_POWER_BITS} bits")
        return base ** int(k)
    return power


def _compile_compare(e: Compare) -> Evaluator:
    f, g = compile_exact(e.left), compile_exact(e.right)
    ops: dict[str, Callable[[Fraction, Fraction], bool]] = {
        "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    }
    op = ops[e.op]
    return lambda env: op(_q(f(env)), _q(g(env)))


# ---------------------------------------------------------------- sympy

def to_sympy(e: Expr, env: Mapping[str, Fraction]) -> sympy.Expr:  # noqa: C901 (one branch per node kind)
    """The exact sympy expression of a numeric `e`, with variables replaced by `env`."""
    import sympy
    if isinstance(e, Num):
        return sympy.Rational(e.value.numerator, e.value.denominator)
    if isinstance(e, Var):
        v = env[e.name]
        return sympy.Rational(v.numerator, v.denominator)
    if isinstance(e, Neg):
        return -to_sympy(e.operand, env)
    if isinstance(e, BinOp):
        a, b = to_sympy(e.left, env), to_sympy(e.right, env)
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        if e.op == "/":
            if b == 0:
                raise ExprError(f"division by zero in {to_text(e)}")
            return a / b
        if e.op in ("//", "%"):
            if b == 0:
                raise ExprError(f"division by zero in {to_text(e)}")
            return sympy.floor(a / b) if e.op == "//" else a - b * sympy.floor(a / b)
        if not b.is_Integer or abs(int(b)) > MAX_EXPONENT:
            raise ExprError(f"exponent of {to_text(e)} must be an integer of at most {MAX_EXPONENT}")
        if a == 0 and b < 0:
            raise ExprError(f"0 to a negative power in {to_text(e)}")
        if a.is_Rational and abs(int(b)) * max(int(a.p).bit_length(), int(a.q).bit_length()) > MAX_POWER_BITS:
            raise ExprError(f"{to_text(e)} is larger than {MAX_POWER_BITS} bits")
        return a ** b
    if isinstance(e, Call):
        args = [to_sympy(a, env) for a in e.args]
        if e.fn == "ln":
            if args[0].is_positive is not True:
                raise ExprError(f"ln of a number that is not positive in {to_text(e)}")
            return sympy.log(args[0])
        if e.fn == "exp":
            return sympy.exp(args[0])
        if e.fn == "abs":
            return sympy.Abs(args[0])
        if e.fn == "min":
            return sympy.Min(*args)
        return sympy.Max(*args)
    if isinstance(e, Cond):
        raise ExprError("'a if cond else b' is not allowed here")
    raise ExprError(f"{to_text(e)} is not a number")
