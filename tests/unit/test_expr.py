"""The spec expression language: what it accepts, how it types, exact values, and refusals."""
from __future__ import annotations

import builtins
import time
from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from obligations.core import expr as E
from obligations.core.expr import ExprError

F = Fraction
TYPES = {"alpha": E.RAT, "n": E.INT, "x": E.INT, "y": E.INT}
VALUES = {"alpha": F(1, 2), "n": F(5), "x": F(2), "y": F(3)}

# These limits catch hangs (a refused input must not be computed), not speed:
# speed is measured in bench/, never asserted.
HANG_GUARD_S = 30.0


def value(text: str | int | float, env: Mapping[str, Fraction] = VALUES) -> Fraction | bool:
    """Parse, type-check (exact) and evaluate, as the spec loader does for table entries."""
    e = E.parse(text)
    E.typecheck(e, {k: TYPES[k] for k in env}, allow_real=False)
    return E.compile_exact(e)(env)


def type_of(text: str, *, allow_real: bool = True) -> str:
    return E.typecheck(E.parse(text), TYPES, allow_real=allow_real)


@pytest.fixture
def no_eval(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if anything reaches eval or exec."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval/exec was called on spec text")
    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(builtins, "exec", refuse)
    yield


# ---------------------------------------------------------------- accepted forms

@pytest.mark.parametrize("text, expected", [
    ("3", F(3)),
    ("0.1", F(1, 10)),                   # exact decimal, not the binary float
    ("0.0705", F(141, 2000)),
    ("1_000", F(1000)),
    ("1.5e3", F(1500)),
    ("1/3", F(1, 3)),
    ("1/3 + 1/6", F(1, 2)),
    ("2 - 5", F(-3)),
    ("-alpha", F(-1, 2)),
    ("+alpha", F(1, 2)),
    ("3 * alpha", F(3, 2)),
    ("alpha ** 3", F(1, 8)),
    ("2 ** -2", F(1, 4)),
    ("alpha ** (n - x)", F(1, 8)),
    ("(1 - alpha) / (1 + alpha) * alpha ** abs(y - x)", F(1, 6)),
    ("abs(x - y)", F(1)),
    ("min(x, y)", F(2)),
    ("max(alpha, 1/3)", F(1, 2)),
    ("1 if y == 0 else 2", F(2)),
    ("1 if 0 < y < n else 2", F(1)),
    ("1 if x < y < 3 else 2", F(2)),    # chained: x < y and y < 3
    ("0.1 + 0.2 == 0.3", True),          # exact arithmetic
    ("x == 2 and not y == 2", True),
    ("x == 1 or y == 1", False),
    ("not (x < y)", False),
    ("True", True),
])
def test_accepted_forms_evaluate_exactly(text: str, expected: Fraction | bool) -> None:
    assert value(text) == expected


@pytest.mark.parametrize("raw, expected", [(3, F(3)), (0.1, F(1, 10)), (0.25, F(1, 4)), (-2, F(-2))])
def test_yaml_numbers_are_read_exactly(raw: int | float, expected: Fraction) -> None:
    """YAML gives ints and floats, not strings: 0.1 must still be 1/10."""
    assert value(raw) == expected


def test_chained_comparison_is_a_conjunction() -> None:
    e = E.parse("0 < y < n")
    assert isinstance(e, E.BoolOp) and e.op == "and" and len(e.values) == 2
    assert [value("0 < y < n", {"y": F(v), "n": F(5)}) for v in range(0, 7)] == \
        [False, True, True, True, True, False, False]


@pytest.mark.parametrize("text, expected", [
    ("ln(3)", sympy.log(3)),
    ("log(3)", sympy.log(3)),            # Python's name is a synonym
    ("-ln(alpha)", sympy.log(2)),
    ("2 * ln(3)", 2 * sympy.log(3)),
    ("exp(1)", sympy.E),
    ("ln(3) - 1/2", sympy.log(3) - sympy.Rational(1, 2)),
])
def test_real_claims(text: str, expected: sympy.Expr) -> None:
    assert type_of(text) == E.REAL
    assert sympy.simplify(E.to_sympy(E.parse(text), VALUES) - expected) == 0


def test_log_is_read_as_ln() -> None:
    assert E.parse("log(2)") == E.parse("ln(2)") == E.Call("ln", (E.Num(F(2)),))


# ---------------------------------------------------------------- typing

@pytest.mark.parametrize("text, expected", [
    ("1", E.INT), ("n + x", E.INT), ("abs(x - n)", E.INT), ("0.5", E.RAT), ("alpha * n", E.RAT),
    ("n / 1", E.RAT), ("x == 1", E.BOOL), ("ln(2)", E.REAL), ("exp(alpha) * 2", E.REAL),
])
def test_types(text: str, expected: str) -> None:
    assert type_of(text) == expected


@pytest.mark.parametrize("text", ["2 ** 0.5", "2 ** alpha", "alpha ** (1/2)", "2 ** ln(2)"])
def test_exponent_must_be_an_integer(text: str) -> None:
    with pytest.raises(ExprError, match="exponent"):
        type_of(text)


@pytest.mark.parametrize("text", ["ln(2)", "exp(1)", "log(3) / 2", "alpha * exp(x)",
                                  "1 if x == 0 else ln(2)"])
def test_ln_and_exp_refused_in_exact_formulas(text: str) -> None:
    type_of(text, allow_real=True)  # fine in a claim
    with pytest.raises(ExprError, match="not exact"):
        type_of(text, allow_real=False)


@pytest.mark.parametrize("text, name", [("z + 1", "z"), ("alpha * beta", "beta"),
                                        ("__builtins__", "__builtins__"), ("os", "os")])
def test_unknown_names_are_refused_by_name(text: str, name: str) -> None:
    with pytest.raises(ExprError, match=f"unknown name '{name}'"):
        type_of(text)


@pytest.mark.parametrize("text, fragment", [
    ("(x > 1) + 1", "condition cannot be used as a number"),
    ("1 if 2 else 3", "must be a comparison"),
    ("ln(2) < 1", "exact numbers only"),
    ("x and y", "and/or/not take conditions"),
    ("not 1", "and/or/not take conditions"),
])
def test_mistyped_expressions(text: str, fragment: str) -> None:
    with pytest.raises(ExprError, match=fragment):
        type_of(text)


@pytest.mark.parametrize("text, fragment", [
    ("sqrt(2)", "unknown function 'sqrt'"),
    ("min(1)", "min takes 2 argument"),
    ("abs(1, 2)", "abs takes 1 argument"),
    ("ln(x=2)", "only ln, exp, abs, min, max may be called"),
])
def test_function_calls_are_checked(text: str, fragment: str) -> None:
    with pytest.raises(ExprError, match=fragment):
        E.parse(text)


# ---------------------------------------------------------------- exact evaluation

@pytest.mark.parametrize("text, fragment", [
    ("1/0", "division by zero"),
    ("1/(x - x)", "division by zero"),
    ("alpha / (n - 5)", "division by zero"),
    ("0 ** -1", "0 to a negative power"),
    ("2 ** 5000", "larger than"),
    ("alpha ** -5000", "larger than"),
])
def test_evaluation_errors(text: str, fragment: str) -> None:
    e = E.parse(text)
    with pytest.raises(ExprError, match=fragment):
        E.compile_exact(e)(VALUES)


HUGE_POWERS = ["9**9**9", "2**2**2**2**2**2", "(9**4096)**4096", "((2**4000)**4000)**4000"]


@pytest.mark.parametrize("text", HUGE_POWERS)
def test_huge_powers_are_refused_quickly(text: str) -> None:
    """Straight to the evaluator (no type check): the size guards must stop these, not the clock."""
    start = time.perf_counter()
    with pytest.raises(ExprError):
        E.compile_exact(E.parse(text))({})
    assert time.perf_counter() - start < HANG_GUARD_S


def test_huge_power_in_a_claim_is_refused_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(ExprError):
        E.to_sympy(E.parse("ln((9**4096)**4096)"), {})
    assert time.perf_counter() - start < HANG_GUARD_S


def test_largest_allowed_exponent_still_works() -> None:
    assert value(f"alpha ** {E.MAX_EXPONENT}") == F(1, 2 ** E.MAX_EXPONENT)


def test_exact_evaluation_of_a_closed_form() -> None:
    text = "(1 - alpha) / (1 + alpha) * alpha ** abs(y - x)"
    got = [value(text, {"alpha": F(1, 4), "x": F(2), "y": F(v)}) for v in range(5)]
    assert got == [F(3, 5) * F(1, 4) ** abs(v - 2) for v in range(5)]


# ---------------------------------------------------------------- hostile input

HOSTILE = [
    "__import__('os').system('touch {sentinel}')",
    "__import__('os')",
    "open('{sentinel}', 'w')",
    "exec('1')",
    "eval('1')",
    "().__class__.__bases__[0].__subclasses__()",
    "alpha.real",                        # attribute access
    "alpha.__class__",
    "x[0]",                               # subscripts
    "[1, 2][0]",
    "(1, 2)",
    "[1]",
    "{1: 2}",
    "{1}",
    "lambda: 1",
    "(lambda: 1)()",
    "[i for i in range(10)]",            # comprehensions
    "(i for i in range(10))",
    "{i for i in range(3)}",
    "{i: i for i in range(3)}",
    "f'{1}'",                            # f-strings
    "f'{__import__(\"os\")}'",
    "'abc'",
    "b'abc'",
    "None",
    "...",
    "1j",
    "(y := 1)",                          # walrus
    "1; import os",
    "import os",
    "1\nimport os",
    "yield 1",
    "await x",
    "1 << 1000000",
    "~1",
    "7 % 2",
    "7 // 2",
    "1 in [1]",
    "x is None",
    "abs(*[1])",
    "min(**{'a': 1})",
    "1 if True else __import__('os')",
    "ln(2).real",
    "globals()",
    "getattr(1, 'real')",
]


@pytest.mark.parametrize("template", HOSTILE, ids=[h[:40] for h in HOSTILE])
def test_hostile_strings_are_refused_without_evaluation(template: str, tmp_path: Path, no_eval: None) -> None:
    sentinel = tmp_path / "pwned"
    text = template.replace("{sentinel}", str(sentinel))
    start = time.perf_counter()
    with pytest.raises(ExprError):
        e = E.parse(text)
        E.typecheck(e, TYPES, allow_real=True)  # a parse that succeeds must still fail typing
    assert time.perf_counter() - start < HANG_GUARD_S
    assert not sentinel.exists()


LONG_OR_DEEP = [
    ("1+" * 5000 + "1", "longer than"),
    ("x" * (E.MAX_LENGTH + 1), "longer than"),
    ("9" * (E.MAX_LITERAL_DIGITS + 1), "longer than"),
    ("1e999999999", "digits"),           # an 11-character literal for 10**999999999
    ("1.5e-999999999", "digits"),
    ("1+" * 500 + "1", "nested deeper"),
    ("-" * 1500 + "1", "nested deeper"),
    ("abs(" * 150 + "1" + ")" * 150, "nested deeper"),
    ("abs(" * 300 + "1" + ")" * 300, "not an expression"),  # Python's own limit on nesting
    ("(" * 900 + "1" + ")" * 900, "not an expression"),
    ("[" * 900 + "]" * 900, "not an expression"),
    ("", "empty"),
    ("   ", "empty"),
    ("1 +", "not an expression"),
]


@pytest.mark.parametrize("text, fragment", LONG_OR_DEEP, ids=[f"{t[:12]}..{len(t)}" for t, _ in LONG_OR_DEEP])
def test_long_and_deep_input_is_refused_quickly(text: str, fragment: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ExprError, match=fragment):
        E.typecheck(E.parse(text), TYPES, allow_real=True)
    assert time.perf_counter() - start < HANG_GUARD_S


@pytest.mark.parametrize("raw", [True, False, None, [1], {"a": 1}, float("inf"), float("-inf"), float("nan")])
def test_non_expressions_are_refused(raw: object) -> None:
    with pytest.raises(ExprError):
        E.parse(raw)  # type: ignore[arg-type]
