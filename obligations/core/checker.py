"""The checks every spec form shares, once: the expression checker (parse through the `ast`
whitelist of `core/expr.py`, type, evaluate exactly), the names that reach Coq, the
parameters and the (ε, δ) claim.  Every problem is a SpecError naming the file and the field.
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from obligations.core import expr as E
from obligations.core.names import coq_name_problem, spec_name_problem
from obligations.core.spec import INDEX_VARS, Piece, check_epsilon
from obligations.core.vocabulary import Number, Otherwise, Piecewise
from obligations.errors import SpecError

Types = Mapping[str, str]


class Checker:
    """The checks of one spec file; a form's checker adds its own (`table/spec.py`, ...)."""

    # How a message shows a condition, and what an integer expression may use, in this form.
    condition_example = "\"y == 0\" or \"0 < y < n\""
    integer_hint = ""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, field: str, message: str) -> SpecError:
        return SpecError(self.file, field, message)

    def typed(self, field: str, text: Number, types: Types, *, allow_real: bool) -> tuple[E.Expr, str]:
        """A spec expression parsed through the whitelist and typed: the expression, its type."""
        try:
            e = E.parse(text)
            return e, E.typecheck(e, types, allow_real=allow_real)
        except E.ExprError as exc:
            raise self.fail(field, str(exc)) from None

    def expression(self, field: str, text: Number, types: Types, *, allow_real: bool = False,
                   want: str | None = None) -> E.Expr:
        """A spec expression parsed and typed; `want` E.BOOL (a condition) or E.INT."""
        e, t = self.typed(field, text, types, allow_real=allow_real)
        if want == E.BOOL and t != E.BOOL:
            raise self.fail(field, f"expected a condition, e.g. {self.condition_example}")
        if want != E.BOOL and t == E.BOOL:
            raise self.fail(field, "expected a number, got a condition")
        if want == E.INT and t != E.INT:
            raise self.fail(field, "expected an integer expression" + self.integer_hint)
        return e

    def value(self, field: str, e: E.Expr, env: Mapping[str, Fraction]) -> Fraction:
        """The exact value of an expression over `env`."""
        try:
            v = E.compile_exact(e)(env)
        except E.ExprError as exc:
            raise self.fail(field, str(exc)) from None
        return Fraction(v)

    def name(self, name: str) -> None:
        """The spec's name: a Coq module and the prefix of its definitions."""
        problem = spec_name_problem(name)
        if problem:
            raise self.fail("name", problem)

    def parameter_name(self, field: str, name: str) -> None:
        """A parameter's name: a Coq identifier that is neither x, y nor a function."""
        problem = coq_name_problem(name)
        if problem or name in INDEX_VARS or name in E.FUNCTIONS or name in E.FUNCTION_SYNONYMS:
            raise self.fail(field, problem or f"{name!r} is reserved (x and y are the row and "
                            "column values; ln, exp, abs, min, max are functions)")

    def exact_parameters(self, given: Mapping[str, Number]) -> tuple[dict[str, Fraction], dict[str, str]]:
        """Named exact constants, each over the earlier ones; their values and types."""
        params: dict[str, Fraction] = {}
        types: dict[str, str] = {}
        for name, text in given.items():
            field = f"parameters.{name}"
            self.parameter_name(field, name)
            v = self.value(field, self.expression(field, text, types), params)
            params[name] = v
            types[name] = E.INT if v.denominator == 1 else E.RAT
        return params, types

    def epsilon(self, field: str, text: Number, params: Mapping[str, Fraction], types: Types) -> E.Expr:
        """The claim's ε: an exact real (ln and exp allowed), finite, nonnegative, not huge."""
        eps = self.expression(field, text, types, allow_real=True)
        check_epsilon(self.file, field, eps, params)
        return eps

    def delta(self, field: str, text: Number, params: Mapping[str, Fraction], types: Types) -> Fraction:
        """The claim's δ: an exact rational in [0, 1]."""
        d = self.value(field, self.expression(field, text, types), params)
        if not 0 <= d <= 1:
            raise self.fail(field, f"delta = {d} is not in [0, 1]")
        return d

    def pieces(self, f: Number | Piecewise, types: Types, *, allow_real: bool = False,
               value_fields: bool = False) -> tuple[Piece, ...]:
        """A formula Pr[M(x) = y] over x, y and the parameters: one expression or piecewise
        (conditions exact; values real when `allow_real`).  A piece's field is its case's, or
        with `value_fields` its value's (where a tabulated entry's errors point)."""
        env = dict(types, x=E.INT, y=E.INT)
        if not isinstance(f, Piecewise):
            return (Piece(None, self.expression("formula", f, env, allow_real=allow_real), "formula"),)
        pieces = []
        for k, case in enumerate(f.cases):
            field = f"formula.cases[{k}]"
            if isinstance(case, Otherwise):
                value = self.expression(f"{field}.otherwise", case.otherwise, env, allow_real=allow_real)
                pieces.append(Piece(None, value, f"{field}.otherwise" if value_fields else field))
            else:
                when = self.expression(f"{field}.when", case.when, env, want=E.BOOL)
                value = self.expression(f"{field}.value", case.value, env, allow_real=allow_real)
                pieces.append(Piece(when, value, f"{field}.value" if value_fields else field))
        return tuple(pieces)


ACCURACY_CLAIMS = ("accuracy", "expected_error")   # claims about a table's error, not its privacy


def refuse_accuracy(data: Mapping[str, object], file: str, what: str, hint: str = "") -> None:
    """An accuracy claim on a form that has none (a program, a noise pipeline, ...): exit 2
    naming the field, before the form's schema reads the claim."""
    claim = data.get("claim")
    key = next((k for k in ACCURACY_CLAIMS if k in claim), None) if isinstance(claim, dict) else None
    if key is not None:
        raise SpecError(file, f"claim.{key}", f"{what} takes no {key} claim: accuracy claims are "
                        f"for finite tables and formulas over integer ranges{hint}")
