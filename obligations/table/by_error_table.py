"""Route: accuracy claims about a table or formula, (alpha, beta)-accuracy and the exact
expected absolute error, decided exactly in Python on the error table and certified by
reflection in Coq (`theories/Finite/Accuracy.v`), template `accuracy.v.j2`."""
from __future__ import annotations

import math
from typing import Any

from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan
from obligations.core.templates import Rendered
from obligations.table.accuracy_analysis import ErrorTable, errors
from obligations.table.accuracy_document import render
from obligations.table.accuracy_spec import AccuracySpec


class ByErrorTable(Route[AccuracySpec, ErrorTable]):
    name = "by the error table"

    def analyse(self, spec: AccuracySpec) -> Analysed[ErrorTable]:
        t = errors(spec)
        return Analysed(t, Plan(expected=t.verdict, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                                delta_at_claim=None, delta_at_claim_float=math.nan, notes=(_note(t),)))

    def render(self, spec: AccuracySpec, a: Analysed[ErrorTable]) -> Rendered:
        return render(a.mechanism)

    def witness(self, u: Unfolded[AccuracySpec, ErrorTable]) -> Witness | None:
        t = u.mechanism
        if t.witness is None:
            return None
        s = t.spec
        x = t.value(t.witness)
        if s.form == "accuracy":
            p = t.tail[t.witness]
            text = (f"witness: on input x = {x}, Pr[|M(x) - x| > {s.texts[0]}] = {p} "
                    f"(~{float(p):.6g}) > beta = {s.texts[1]}")
            return {"x": str(x), "probability": str(p), "probability_float": f"{float(p):.12g}",
                    "alpha": str(s.alpha), "beta": str(s.beta), "text": text}
        e = t.expected[t.witness]
        text = f"witness: on input x = {x}, E|M(x) - x| = {e} (~{float(e):.6g}) > {s.texts[0]}"
        return {"x": str(x), "expected_error": str(e), "expected_error_float": f"{float(e):.12g}",
                "at_most": str(s.bound), "text": text}

    def describe(self, u: Unfolded[AccuracySpec, ErrorTable]) -> Description:
        t = u.mechanism
        s = t.spec
        xs = s.mech.inputs.values or ()
        item: dict[str, Any] = {
            "name": s.name, "expected": u.plan.expected, "claim": s.claim.record(),
            "expected_error": {str(x): str(e) for x, e in zip(xs, t.expected, strict=False)},
            "tail": {str(x): str(p) for x, p in zip(xs, t.tail, strict=False)},
            "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim {s.claim.text()}", f"  {_note(t)}; Python expects: {u.plan.expected}"]
        lines += [f"  x = {x}: E|M(x) - x| = {e}" + (f", Pr[|M(x) - x| > {s.texts[0]}] = {t.tail[i]}" if t.tail else "")
                  for i, (x, e) in enumerate(zip(xs, t.expected, strict=False))]
        return item, lines


def _note(t: ErrorTable) -> str:
    if t.spec.form == "accuracy":
        return f"largest Pr[|M(x) - x| > {t.spec.texts[0]}] over the inputs: {t.worst_tail}"
    return f"largest E|M(x) - x| over the inputs: {t.worst_expected}"


BY_ERROR_TABLE = ByErrorTable()
