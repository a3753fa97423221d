"""Noise pipelines (the snapping mechanism) for all parameter values: a sympy case table,
one Coq lemma per case (`theories/Snapping.v`, `SnapBound.v`, ...), template `snapping.v.j2`."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

import sympy

from obligations.errors import SpecError
from obligations.kinds import vacuous as V
from obligations.kinds.base import Unfolded
from obligations.core.obligation import Plan
from obligations.kinds.pipeline import document as snap_render
from obligations.kinds.pipeline import spec as pipeline_spec
from obligations.kinds.pipeline.spec import PipelineFile, PipelineSpec
from obligations.kinds.pipeline import analysis as snap


class PipelineKind:
    name = "pipeline"
    title = "noise pipeline"
    form = PipelineFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return pipeline_spec.is_pipeline(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> PipelineSpec:
        return pipeline_spec.check(dict(data), file, sha256)

    def expand(self, spec: PipelineSpec) -> list[PipelineSpec]:
        return [spec]

    def derive(self, spec: PipelineSpec, derived: Mapping[str, Any]) -> PipelineSpec:
        raise ValueError("a noise pipeline has no derived claims")

    def analyse(self, spec: PipelineSpec) -> Unfolded:
        t0 = time.perf_counter()
        try:
            su = snap.unfold(spec)
        except ValueError as exc:  # sympy could not invert the noise map or decide a case
            raise SpecError(spec.path, "pipeline.steps", f"beyond what the case analysis can do: {exc}") from None
        truth = str(su.truth)
        try:
            truth_float = float(su.truth)
        except TypeError:
            truth_float = math.nan    # symbolic
        p = Plan(expected=su.expected, obligations=(), tight_epsilon=truth, tight_epsilon_float=truth_float,
                 delta_at_claim=None, delta_at_claim_float=math.nan, notes=tuple(su.notes),
                 vacuous=V.sensitivity_zero(spec.sensitivity, "query answers"))
        t1 = time.perf_counter()
        rendered, lemmas = snap_render.render(su)
        return Unfolded(spec, su, p, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1},
                        tuple(lemmas))

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        w = u.mechanism.witness
        if w is None:
            return None
        e = sympy.exp(w.claim)
        rhs = float(e) * float(w.p2)
        return {
            "parameters": w.instance, "x": f"f(a) = {w.fa}", "x_prime": f"f(a') = {w.fa2}",
            "outputs": [w.output], "pr_x": snap.math_text(snap.tidy(w.p)),
            "pr_x_prime": snap.math_text(snap.tidy(w.p2)),
            "pr_x_float": f"{float(w.p):.12g}", "pr_x_prime_float": f"{float(w.p2):.12g}",
            "ratio": snap.math_text(snap.tidy(w.ratio)), "exp_epsilon": snap.math_text(e),
            "exp_epsilon_upper_bound": None,
            "delta": "0", "bound": f"{rhs:.12g}", "violation": f"{float(w.p) - rhs:.12g}",
        }

    def summary(self, spec: PipelineSpec) -> str:
        return f"noise pipeline, claim ({spec.epsilon_text}, 0)-DP"

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s = u.spec
        item: dict[str, Any] = {
            "name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
            "delta_at_claim": u.plan.delta_at_claim or f"{u.plan.delta_at_claim_float:.12g}",
            "obligations": [], "theorems": list(u.rendered.theorems),
            "case_table": snap.case_table(u.mechanism),
            "lemmas": [{"name": x.name, "statement": x.statement, "tactics": list(x.tactics)} for x in u.lemmas]}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, 0)-DP", item["case_table"],
                 f"  {len(item['lemmas'])} case-table lemmas for Coq; theorems: {', '.join(item['theorems'])}"]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: PipelineSpec) -> None:
        return None


PIPELINE = PipelineKind()
