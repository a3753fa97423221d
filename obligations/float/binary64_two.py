"""Route: a binary snapping claim at concrete parameters that `float_snap_dp_tight`'s K does not
reach, certified by the two-sided theorem: `float_snap_dp_two_correct` (theories/Float/
SnapTwoSidedDP.v; U*'s factor at one end per sign, each input's own distance to each end) for a
correctly rounded log, `float_snap_dp_two_log` (SnapTwoSidedLog.v) for a log within k ulps.  The
theorem takes K as a parameter; Python computes the least K its conditions allow at the spec's
parameters (`binary64_two_hints`, a hint) and the generated file proves each condition at the K it
states, e^(c*eta), with `interval`, and the claim 1/lambda + c*eta <= epsilon with `lra`.  The
theorem the file states is the tight route's (the same mechanism, the same claim).

The route is tried after the tight one (`Binary64` in binary64.py), which steps aside only when its
own K is above the claim and this one's is below it; a claim neither reaches stays the tight route's
undecided plan.  Template `binary_snapping_two_point.v.j2`, prelude `PreludeBinaryTwoSided`;
docs/binary64.md, docs/diffprivlib.md."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.float.binary64_document import float_parts, mu_term, summary
from obligations.float.binary64_spec import ETA, BinarySnappingSpec
from obligations.float.binary64_two_hints import TwoPoint, two_point

TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_two_point.v.j2"
PRELUDE = "PreludeBinaryTwoSided"
CORRECT = ("float_snap_dp_two_correct", "theories/Float/SnapTwoSidedDP.v")
WITHIN_ULPS = ("float_snap_dp_two_log", "theories/Float/SnapTwoSidedLog.v")


def theorem(spec: BinarySnappingSpec) -> tuple[str, str]:
    """The library theorem the file instantiates, and its file."""
    return CORRECT if spec.ulps is None else WITHIN_ULPS


def fits(spec: BinarySnappingSpec) -> bool:
    """Whether this route proves the claim (the tight route asks, to step aside)."""
    return spec.rounding == "exact" and two_point(spec).provable


class Binary64TwoSided(Route[BinarySnappingSpec, TwoPoint]):
    name = "for binary64, by the two-sided theorem"

    def analyse(self, spec: BinarySnappingSpec) -> Analysed[TwoPoint] | None:
        if spec.rounding != "exact":
            return None
        t = two_point(spec)
        if not t.provable:
            return None
        return Analysed(t, Plan(Verdict.PROVED, (), tight_epsilon=None, tight_epsilon_float=math.nan,
                                delta_at_claim=None, delta_at_claim_float=math.nan, notes=(note(spec, t),)))

    def render(self, spec: BinarySnappingSpec, a: Analysed[TwoPoint]) -> Rendered:
        return render(spec, a.mechanism)

    def hint(self, u: Unfolded[BinarySnappingSpec, TwoPoint]) -> dict[str, Any] | None:
        """Which theorem the file uses and the K it states (Coq checks every condition at it)."""
        name, where = theorem(u.spec)
        return {"theorem": name, "library_file": where, "K": f"exp({u.mechanism.c} * eta)",
                "sl": str(u.mechanism.sl)}

    def describe(self, u: Unfolded[BinarySnappingSpec, TwoPoint]) -> Description:
        s, t = u.spec, u.mechanism
        name, where = theorem(s)
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "theorem": f"{name} ({where})",
                                "ln_K_eta": str(t.c), "least_ln_K_eta": t.needed, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems),
                                "regions": {region: v for region, v in t.parts}}
        lines = [f"{s.name} ({s.path}): {summary(s)}", f"  {note(s, t)}; Python expects: {u.plan.expected}",
                 f"  the least K of each region of {name} (ln K/eta):"]
        lines += [f"    {region}: {v:.6g}" for region, v in t.parts]
        return item, lines


def note(s: BinarySnappingSpec, t: TwoPoint) -> str:
    name, where = theorem(s)
    return (f"lambda = {float(s.scale)!r}, Lambda = {float(s.grid)!r}, B = {s.bound}: float_snap_dp_tight's K is "
            f"above the claim; the two-sided theorem {name} ({where}) needs ln K = {t.needed:.6g} eta, the file "
            f"states K = e^({t.c} eta), and 1/lambda + {t.c} eta <= claim {s.claim_text} (the claim leaves "
            f"{float(t.room):.6g} eta; diffprivlib's accounting 12 eta B/lambda + 2 eta = "
            f"{float(12 * s.bound / s.scale + 2):.6g} eta)")


def undecided_note(s: BinarySnappingSpec) -> str:
    """What the two-sided theorem gives where neither route proves the claim (the tight route's note)."""
    if s.rounding != "exact":
        return ""
    t = two_point(s)
    name, _ = theorem(s)
    if not t.parts:
        return (f"; the two-sided theorem ({name}) does not apply: its premises need Lambda above about "
                "ln 2 * lambda and the narrowed buckets wider than U*'s factor twice")
    return (f"; the two-sided theorem ({name}) needs ln K = {t.needed:.6g} eta, "
            f"above the {float(t.room):.6g} eta the claim leaves: undecided by it too")


def render(s: BinarySnappingSpec, t: TwoPoint) -> Rendered:
    mant, exp = float_parts(s.scale)
    name, where = theorem(s)
    mu_arg = "(eta 53)" if s.ulps is None else f"{s.name}_mu"
    value = 1 / s.scale + t.c * ETA
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), lam=r_lit(s.scale), lam_text=repr(float(s.scale)),
        eps_text=comment(s.epsilon_text), grid=r_lit(s.grid), grid_text=repr(float(s.grid)),
        grid_auto=s.grid_auto, bound=r_lit(s.bound), g=math.ceil(s.bound / s.grid), mu=mu_term(s),
        log_text=comment(s.log_text), claim=r_lit(s.loss), claim_text=comment(s.claim_text),
        tie="TiesUp" if s.ties == "up" else "TiesDown", ties=s.ties, correct=s.ulps is None,
        lam_mant=mant, lam_exp=exp, lam_pow=2 ** abs(exp), theorem=name, theorem_file=where,
        c=r_lit(t.c), c_text=str(t.c), sl=r_lit(t.sl), needed=f"{t.needed:.6g}", near_first=t.near_first,
        mu_arg=mu_arg, args=f"{s.name}_grid {s.name}_B {s.name}_lam {s.name}_two_sl", bits=t.bits,
        value=f"{float(value):.17g}", parts=comment("; ".join(f"{r}: {v:.6g}" for r, v in t.parts)))
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, (f"{s.name}_dp",))


BINARY64_TWO = Binary64TwoSided()
