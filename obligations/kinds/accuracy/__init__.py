"""Accuracy claims about finite mechanisms: (alpha, beta)-accuracy and the exact expected
absolute error, decided exactly in Python and certified by reflection in Coq
(`theories/Finite/Accuracy.v`), template `accuracy.v.j2`."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import Plan
from obligations.kinds.accuracy import spec as acc_spec
from obligations.kinds.accuracy.analysis import ErrorTable, errors
from obligations.kinds.accuracy.document import render
from obligations.kinds.accuracy.spec import AccuracyFile, AccuracySpec
from obligations.kinds.base import Unfolded


class AccuracyKind:
    name = "accuracy"
    title = "accuracy claim about a table or formula"
    form = AccuracyFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return acc_spec.is_accuracy(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> AccuracySpec:
        return acc_spec.check(data, file, sha256)

    def expand(self, spec: AccuracySpec) -> list[AccuracySpec]:
        return [spec]

    def derive(self, spec: AccuracySpec, derived: Mapping[str, Any]) -> AccuracySpec:
        raise ValueError("an accuracy claim has no derived claims")

    def analyse(self, spec: AccuracySpec) -> Unfolded:
        t0 = time.perf_counter()
        t = errors(spec)
        p = Plan(expected=t.verdict, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                 delta_at_claim=None, delta_at_claim_float=math.nan, notes=(_note(t),))
        t1 = time.perf_counter()
        rendered = render(t)
        return Unfolded(spec, t, p, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        t: ErrorTable = u.mechanism
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

    def summary(self, spec: AccuracySpec) -> str:
        m = spec.mech
        return f"{m.inputs.size} inputs, {m.outputs.size} outputs, claim {spec.claim_text}"

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        t: ErrorTable = u.mechanism
        s = t.spec
        xs = s.mech.inputs.values or ()
        item: dict[str, Any] = {
            "name": s.name, "expected": u.plan.expected, "claim": s.claim_record,
            "expected_error": {str(x): str(e) for x, e in zip(xs, t.expected)},
            "tail": {str(x): str(p) for x, p in zip(xs, t.tail)},
            "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim {s.claim_text}", f"  {_note(t)}; Python expects: {u.plan.expected}"]
        lines += [f"  x = {x}: E|M(x) - x| = {e}" + (f", Pr[|M(x) - x| > {s.texts[0]}] = {t.tail[i]}" if t.tail else "")
                  for i, (x, e) in enumerate(zip(xs, t.expected))]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: AccuracySpec) -> None:
        return None


def _note(t: ErrorTable) -> str:
    if t.spec.form == "accuracy":
        return f"largest Pr[|M(x) - x| > {t.spec.texts[0]}] over the inputs: {t.worst_tail}"
    return f"largest E|M(x) - x| over the inputs: {t.worst_expected}"


ACCURACY = AccuracyKind()
