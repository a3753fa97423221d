"""Binary snapping for ALL parameters: a claim about the closed form of the library's
`snap_binary64_dp` (theories/Float/SnapBinary64.v) for every lambda, Lambda in [lambda, 2 lambda],
B in (0, 353 lambda], every tie rule and every logarithm within the spec's error.  The generated
file's theorem quantifies over all of them, with `uprob pr` and `pipeline_ok` as hypotheses; it
checks the claim's constants against the library's (22 + 9m, 39 + 9m for a log within m*eta).
A claim below them is undecided: nothing is sent to Coq.  Template `binary_snapping_all.v.j2`;
docs/binary64.md."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import Plan, Verdict
from obligations.kinds.base import Unfolded
from obligations.kinds.binary_snapping_all import spec as all_spec
from obligations.kinds.binary_snapping_all.cases import case_lines, case_record
from obligations.kinds.binary_snapping_all.document import BinarySnappingAllAnalysis, render
from obligations.kinds.binary_snapping_all.spec import BinarySnappingAllFile, BinarySnappingAllSpec


class BinarySnappingAllKind:
    name = "binary_snapping_all"
    title = "floating-point snapping in binary64 for all parameters (snap_binary64_dp, closed form)"
    form = BinarySnappingAllFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return all_spec.is_binary_snapping_all(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> BinarySnappingAllSpec:
        return all_spec.check(data, file, sha256)

    def expand(self, spec: BinarySnappingAllSpec) -> list[BinarySnappingAllSpec]:
        return [spec]

    def derive(self, spec: BinarySnappingAllSpec, derived: Mapping[str, Any]) -> BinarySnappingAllSpec:
        raise ValueError("an all-parameters binary snapping claim has no derived claims")

    def analyse(self, spec: BinarySnappingAllSpec) -> Unfolded:
        t0 = time.perf_counter()
        a = BinarySnappingAllAnalysis(spec, spec.a >= spec.lib_a and spec.b >= spec.lib_b)
        expected = Verdict.PROVED if a.provable else Verdict.UNDECIDED
        plan = Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                    delta_at_claim_float=math.nan, notes=(note(a),))
        t1 = time.perf_counter()
        rendered = render(a)
        return Unfolded(spec, a, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return None

    def summary(self, spec: BinarySnappingAllSpec) -> str:
        return (f"binary64 snapping for every lambda >= 2^-968, Lambda in [lambda, 2 lambda], B in (0, 353 lambda], "
                f"ties {spec.ties}, log {spec.log_text}: claim loss {spec.loss_text} between inputs |x|, |x'| <= B")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s = u.spec
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "claim": s.claim_record,
                                "library_constants": {"per_B_over_lambda": str(s.lib_a), "constant": str(s.lib_b)},
                                "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems),
                                **case_record(u.rendered.text)}
        lines = [f"{s.name} ({s.path}): {self.summary(s)}", f"  {note(u.mechanism)}; Python expects: "
                 f"{u.plan.expected}"]
        lines += case_lines(u.rendered.text)
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: BinarySnappingAllSpec) -> None:
        return None


def _num(q: Any) -> str:
    return str(q) if q.denominator == 1 else f"{q} (= {float(q):.10g})"


def note(a: BinarySnappingAllAnalysis) -> str:
    s = a.spec
    head = (f"snap_binary64_dp proves the loss |x - x'|/lambda + a*eta*B/lambda + b*eta with a = 22 + 9m = "
            f"{_num(s.lib_a)}, b = 39 + 9m = {_num(s.lib_b)} (m = {_num(s.m)}: log {s.log_text})")
    if a.provable:
        return head + f"; claim a = {s.a_text}, b = {s.b_text} is at or above it"
    return (head + f"; claim a = {s.a_text}, b = {s.b_text} is below it: undecided (a claim below what the "
            "library theorem proves is never certified; it is not refuted either)")


BINARY_SNAPPING_ALL = BinarySnappingAllKind()

__all__ = ["BINARY_SNAPPING_ALL", "BinarySnappingAllKind"]
