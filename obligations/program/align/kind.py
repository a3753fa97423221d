"""The generic alignment route as the all-k kind sees it: check a spec, decide it by the
route (`route.decide`), give the pipeline its plan and Coq file.  A spec in the older
all-k form (one stream with a sensitivity, no public inputs) that the family theories
prove keeps its route; every other all-k spec comes here."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping

from obligations.core.document import DocumentBuilder
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.kinds.base import Unfolded
from obligations.program.align import route
from obligations.program.align.render import PRELUDE
from obligations.program.align.spec import AlignSpec, check as check_align


def check(data: Mapping[str, Any], file: str, sha256: str) -> AlignSpec:
    return check_align(data, file, sha256)


_DECIDED: dict[tuple[str, str, str], route.Found | route.NotFound] = {}


def decide(spec: AlignSpec) -> route.Found | route.NotFound:
    """The route's answer, once per spec text (expand and analyse both ask)."""
    key = (spec.path, spec.sha256, spec.name)
    if key not in _DECIDED:
        _DECIDED[key] = route.decide(spec)
    return _DECIDED[key]


def found(spec: AlignSpec) -> bool:
    return isinstance(decide(spec), route.Found)


def analyse(spec: AlignSpec) -> Unfolded:
    t0 = time.perf_counter()
    r = decide(spec)
    t1 = time.perf_counter()
    if isinstance(r, route.Found):
        plan = _plan(Verdict.PROVED, (r.note,))
        rendered = r.rendered
    else:
        more = f"; falling back to enumeration at small k: {spec.fallback}" if spec.fallback else \
            "; no fallback spec to enumerate (give `fallback:`)"
        plan = _plan(Verdict.UNDECIDED, (f"no alignment found: {r.reason}{more}",))
        rendered = Rendered(spec.name, DocumentBuilder().build(spec.name, "", PRELUDE), ())
    return Unfolded(spec, r, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})


def _plan(expected: Verdict, notes: tuple[str, ...]) -> Plan:
    return Plan(expected=expected, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=math.nan, notes=notes)
