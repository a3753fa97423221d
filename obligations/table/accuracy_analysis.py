"""The exact error of a finite mechanism: for every input x, Pr[|M(x) - x| > alpha] and
E|M(x) - x| in exact fractions, the verdict Python expects, and the witness input of a
refutation.  Hints only: Coq recomputes the same sums from the mechanism it defines."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from obligations.analysis.finite import FiniteMechanism, tabulate
from obligations.core.obligation import Verdict
from obligations.table.accuracy_spec import AccuracySpec


@dataclass(frozen=True)
class ErrorTable:
    """The finite mechanism and, per input, its exact tail probability and expected error."""

    spec: AccuracySpec
    table: FiniteMechanism
    tail: tuple[Fraction, ...]          # Pr[|M(x) - x| > alpha] (empty for an expected_error claim)
    expected: tuple[Fraction, ...]      # E|M(x) - x|
    verdict: Verdict
    witness: int | None = None       # the input that refutes the claim

    def value(self, x: int) -> int:
        values = self.spec.mech.inputs.values or ()
        return values[x]

    @property
    def worst_tail(self) -> Fraction:
        return max(self.tail, default=Fraction(0))

    @property
    def worst_expected(self) -> Fraction:
        return max(self.expected, default=Fraction(0))


def errors(spec: AccuracySpec) -> ErrorTable:
    m = tabulate(spec.mech)
    xs = spec.mech.inputs.values or ()
    ys = spec.mech.outputs.values or ()
    expected = tuple(sum((p * abs(y - x) for p, y in zip(row, ys, strict=False)), Fraction(0))
                     for row, x in zip(m.rows, xs, strict=False))
    if spec.form == "accuracy":
        assert spec.alpha is not None and spec.beta is not None
        tail = tuple(sum((p for p, y in zip(row, ys, strict=False) if abs(y - x) > spec.alpha), Fraction(0))
                     for row, x in zip(m.rows, xs, strict=False))
        worst = _argmax(tail)
        ok = tail[worst] <= spec.beta
    else:
        assert spec.bound is not None
        tail = ()
        worst = _argmax(expected)
        ok = expected[worst] <= spec.bound
    return ErrorTable(spec, m, tail, expected, Verdict.PROVED if ok else Verdict.REFUTED,
                      None if ok else worst)


def _argmax(values: tuple[Fraction, ...]) -> int:
    """The first input with the largest value (a fixed choice: verify re-derives it)."""
    return max(range(len(values)), key=lambda i: (values[i], -i))
