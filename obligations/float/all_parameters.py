"""Route: binary snapping for ALL parameters, a claim about the closed form of the library's
`snap_binary64_dp_tight` (theories/Float/SnapTight64.v) for every binary64 lambda >= 2^-968,
Lambda in [lambda, 2 lambda], B in (0, 353 lambda], every tie rule and every logarithm within the
spec's error.  The generated file's theorem quantifies over all of them, with `uprob pr` (and the
log's error, for a log within k ulps) as hypotheses; it checks the claim's constants against the
library's (9 + 9m, 18 + 5m for a log within m*eta).
A claim below them is undecided: nothing is sent to Coq.  Template `binary_snapping_all.v.j2`;
docs/binary64.md.  A narrower range (grid rho0*lambda <= Lambda, clamp beta0*lambda <= B) goes through
SnapSeed64.v's `snap_binary64_dp_wide_ab` instead (hints in `wide_grid.py`, template
`binary_snapping_range.v.j2`): the seed's and Mironov's constants where the grid is wide; a range cell
that route does not reach goes through SnapTwoSided64.v's `snap_binary64_two_ab` (the two refinements,
hints `two_hints`, template `binary_snapping_two.v.j2`) when it does, else through SnapTwoSidedPieces64.v's
`snap_binary64_two_split_ab` (an input inside a bucket in eight pieces, hints `piece_hints`, template
`binary_snapping_pieces.v.j2`) when that does.  A range with a log within k ulps goes through
SnapSeedUlps.v's `snap_binary64_dp_wide_ulps_ab` (hints `wide_grid.hints`, checks `ulps_range`, template
`binary_snapping_ulps_range.v.j2`)."""
from __future__ import annotations

import math
from typing import Any

from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.float import ulps_range
from obligations.float.all_parameters_cases import case_lines, case_record
from obligations.float.all_parameters_document import BinarySnappingAllAnalysis, render
from obligations.float.all_parameters_spec import BinarySnappingAllSpec
from obligations.float.ulps_refuted import least_ulps, text_of, witness_of
from obligations.float.wide_grid import (
    PIECES,
    PROVED_RANGES,
    binary64_inputs_text,
    hints,
    least_beta0,
    piece_hints,
    two_hints,
)


class AllParameters(Route[BinarySnappingAllSpec, BinarySnappingAllAnalysis]):
    name = "for all parameters"

    def analyse(self, spec: BinarySnappingAllSpec) -> Analysed[BinarySnappingAllAnalysis]:
        if spec.beta0 is not None and spec.ulps is not None:
            a = _ulps_ranged(spec)
        elif spec.beta0 is not None:
            a = _ranged(spec)
        else:
            a = BinarySnappingAllAnalysis(spec, spec.a >= spec.lib_a and spec.b >= spec.lib_b)
        expected = Verdict.PROVED if a.provable else Verdict.UNDECIDED
        if not a.provable and spec.refuted_by is not None:
            expected = Verdict.REFUTED
        return Analysed(a, Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                                delta_at_claim_float=math.nan, notes=(note(a),)))

    def render(self, spec: BinarySnappingAllSpec, a: Analysed[BinarySnappingAllAnalysis]) -> Rendered:
        return render(a.mechanism)

    def witness(self, u: Unfolded[BinarySnappingAllSpec, BinarySnappingAllAnalysis]) -> Witness | None:
        name = u.spec.refuted_by
        if u.plan.expected != Verdict.REFUTED or name is None:
            return None
        w = witness_of(name)
        return {"text": w.text(name), "lambda": str(w.lam), "grid": str(w.grid), "bound": str(w.bound),
                "x": str(w.x), "x_prime": str(w.x_prime), "outputs": [w.output],
                "pr_x": str(w.pr_x), "pr_x_prime": str(w.pr_x_prime), "delta": "0", "inputs": w.inputs}

    def describe(self, u: Unfolded[BinarySnappingAllSpec, BinarySnappingAllAnalysis]) -> Description:
        s = u.spec
        h = u.mechanism.wide
        lib = {"per_B_over_lambda": str(s.lib_a), "constant": str(s.lib_b)} if h is None else \
            {"per_B_over_lambda": str(8 * h.c), "constant": str(11 * h.c), "c": str(h.c), "r0": str(h.r0)}
        if s.ulps is not None and h is not None:
            k = s.ulps
            lib = {"route": "snap_binary64_dp_wide_ulps_ab", "per_B_over_lambda": str(ulps_range.slope(k, h)),
                   "constant": str(ulps_range.offset(k, h)), "c": str(h.c), "r0": str(h.r0)}
        two = u.mechanism.two
        if two is not None:
            lib = {"route": "snap_binary64_two_ab", "r0": str(two.r0), "k1": str(two.k1), "k2": str(two.k2)}
        pieces = u.mechanism.pieces
        if pieces is not None:
            p = pieces.two
            lib = {"route": "snap_binary64_two_split_ab", "r0": str(p.r0), "k1": str(p.k1), "k2": str(p.k2),
                   "pieces": str(PIECES), "L1": str(pieces.l1)}
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "claim": s.claim.record(),
                                "library_constants": lib,
                                "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems),
                                **case_record(u.mechanism)}
        lines = [f"{s.name} ({s.path}): {summary(s)}", f"  {note(u.mechanism)}; Python expects: "
                 f"{u.plan.expected}"]
        lines += case_lines(u.mechanism)
        return item, lines


def _ranged(spec: BinarySnappingAllSpec) -> BinarySnappingAllAnalysis:
    """SnapSeed64.v's route first (the certificates it proves keep their theorems), else the two
    refinements (SnapTwoSided64.v) where they reach the cell, else the input inside a bucket in pieces
    (SnapTwoSidedPieces64.v): each route keeps the certificates the previous ones prove."""
    assert spec.beta0 is not None
    h = hints(spec.rho0)
    if h.fits(spec.a, spec.b, spec.beta0):
        return BinarySnappingAllAnalysis(spec, True, h)
    two = two_hints(spec.rho0)
    if two is not None and two.fits(spec.a, spec.b, spec.rho0, spec.beta0):
        return BinarySnappingAllAnalysis(spec, True, h, two)
    pieces = piece_hints(spec.rho0)
    if pieces is not None and pieces.fits(spec.a, spec.b, spec.rho0, spec.beta0):
        return BinarySnappingAllAnalysis(spec, True, h, pieces=pieces)
    return BinarySnappingAllAnalysis(spec, False, h)


def _ulps_ranged(spec: BinarySnappingAllSpec) -> BinarySnappingAllAnalysis:
    """A range with a log within k ulps: SnapSeedUlps.v's `snap_binary64_dp_wide_ulps_ab` with SnapSeed64.v's
    hints r0, c (the same premises on them); the hints are kept when it does not fit, for the note."""
    assert spec.beta0 is not None and spec.ulps is not None
    h = hints(spec.rho0)
    return BinarySnappingAllAnalysis(spec, ulps_range.fits(spec.ulps, h, spec.a, spec.b, spec.beta0), h)


def summary(spec: BinarySnappingAllSpec) -> str:
    return (f"binary64 snapping for every lambda >= 2^-968, {spec.range_text}, "
            f"ties {spec.ties}, log {spec.log_text}: claim loss {spec.loss_text} between inputs |x|, |x'| <= B")


def _num(q: Any) -> str:
    return str(q) if q.denominator == 1 else f"{q} (= {float(q):.10g})"


def note(a: BinarySnappingAllAnalysis) -> str:
    s = a.spec
    if s.ulps is not None and s.beta0 is not None:
        return ulps_range_note(a)
    if a.wide is not None and s.beta0 is not None:
        return range_note(a)
    head = (f"snap_binary64_dp_tight proves the loss |x - x'|/lambda + a*eta*B/lambda + b*eta with a = 9 + 9m = "
            f"{_num(s.lib_a)}, b = 18 + 5m = {_num(s.lib_b)} (m = {_num(s.m)}: log {s.log_text})")
    if a.provable:
        return head + f"; claim a = {s.a_text}, b = {s.b_text} is at or above it"
    return head + f"; claim a = {s.a_text}, b = {s.b_text} is below it: {_below(s)}"


def _below(s: BinarySnappingAllSpec) -> str:
    """A claim below what the library proves: refuted when a library theorem refutes it (the seed's
    constant with real inputs near Lambda = lambda, the seed's or Mironov's at a small clamp with binary64
    inputs), else undecided."""
    name = s.refuted_by
    if name is None:
        return ("undecided (a claim below what the library theorem proves is never certified; "
                "it is not refuted either)")
    bound = "every a <= 16, b = 0" if name.startswith("snap_binary64_mironov") else "every a <= 12, b <= 2"
    if s.ulps is not None:
        return (f"refuted, {text_of(name)} ({name}_up at ties up, every k >= {least_ulps(name)} ulps, {bound}; "
                "the witness's inputs are binary64 floats)")
    if witness_of(name).floats:
        return (f"refuted, {text_of(name)} ({name}_up at ties up, {bound}; the witness's inputs are "
                "binary64 floats: the claim is false for binary64 inputs too)")
    return (f"refuted, {text_of(name)} ({name}_up at ties up, {bound}; the witness's "
            f"inputs are reals, not binary64 floats: {binary64_inputs_text(s.rho0, s.beta0, s.a, s.b)})")


ALL_PARAMETERS = AllParameters()



def range_note(a: BinarySnappingAllAnalysis) -> str:
    s, h = a.spec, a.wide
    assert h is not None and s.beta0 is not None
    head = (f"snap_binary64_dp_wide_ab at rho0 = {s.rho0}: r0 = {h.r0} <= e^(rho0 - 10^-4), c = {h.c}, "
            f"so the loss is at most c*(8*B/lambda + 11)*eta = {_num(8 * h.c)}*eta*B/lambda + "
            f"{_num(11 * h.c)}*eta over |x - x'|/lambda")
    if a.two is not None:
        return head + f"; claim a = {s.a_text}, b = {s.b_text} does not follow from it for B >= {s.beta0}*lambda: " \
            + two_note(a)
    if a.pieces is not None:
        return head + f"; claim a = {s.a_text}, b = {s.b_text} does not follow from it for B >= {s.beta0}*lambda, " \
            "nor from the two refinements with an input inside a bucket at once: " + pieces_note(a)
    if a.provable:
        return head + f"; claim a = {s.a_text}, b = {s.b_text} follows for B >= {s.beta0}*lambda"
    least = least_beta0(h, s.a, s.b)
    where = (f"the slope 8c = {_num(8 * h.c)} is above a = {s.a_text} at this grid" if least is None else
             f"it follows only for B >= {_num(least)}*lambda, not from {s.beta0}*lambda")
    if s.refuted_by is not None:
        return head + f"; claim a = {s.a_text}, b = {s.b_text}: {where}: {_below(s)}"
    return (head + f"; claim a = {s.a_text}, b = {s.b_text}: {where}: undecided (never certified; "
            f"it is not refuted either). Proved for all parameters of a range: {PROVED_RANGES}")


def ulps_range_note(a: BinarySnappingAllAnalysis) -> str:
    """A range with a log within k ulps: proved by SnapSeedUlps.v where its constants reach, else refuted where
    the library refutes it, else undecided."""
    s, h = a.spec, a.wide
    assert h is not None and s.ulps is not None and s.beta0 is not None
    k = s.ulps
    head = (f"a log {s.log_text} over {s.range_text}: snap_binary64_dp_wide_ulps_ab (SnapSeedUlps.v) at "
            f"rho0 = {s.rho0}: r0 = {h.r0} <= e^(rho0 - 10^-4), c = {h.c}, so the loss is at most "
            f"c*({4 + 8 * k}*B/lambda + {4 * k + 10})*eta = {_num(ulps_range.slope(k, h))}*eta*B/lambda + "
            f"{_num(ulps_range.offset(k, h))}*eta over |x - x'|/lambda")
    claim = f"claim a = {s.a_text}, b = {s.b_text}"
    if a.provable:
        return head + f"; {claim} follows for B >= {s.beta0}*lambda"
    least = ulps_range.least_beta0(k, h, s.a, s.b)
    where = (f"the slope {_num(ulps_range.slope(k, h))} is at or above a = {s.a_text} at this grid" if least is None
             else f"it follows only for B >= {_num(least)}*lambda, not from {s.beta0}*lambda")
    if s.refuted_by is not None:
        return head + f"; {claim}: {where}: {_below(s)}"
    return head + f"; {claim}: {where}: undecided (never certified; it is not refuted either)"


def pieces_note(a: BinarySnappingAllAnalysis) -> str:
    """The cell by the input inside a bucket in pieces: the hints and what Coq checks."""
    s, h = a.spec, a.pieces
    assert h is not None
    return (f"the input inside a bucket in {PIECES} pieces proves it (snap_binary64_two_split_ab, "
            f"theories/Float/SnapTwoSidedPieces64.v): r0 = {h.two.r0} <= e^(rho0 - 10^-4), k1 = {h.two.k1}, "
            f"k2 = {h.two.k2}, L1 = {h.l1} with L1^{PIECES} <= r0, and a*B/lambda + b is above the forms (outside a "
            f"bucket, the first piece, the clamp, the {PIECES - 1} centre conditions) at every {s.beta0} <= B/lambda "
            f"<= 353, {s.rho0} <= Lambda/lambda <= 2")


def two_note(a: BinarySnappingAllAnalysis) -> str:
    """The cell by the two refinements: the hints and what Coq checks."""
    s, h = a.spec, a.two
    assert h is not None
    return (f"the two refinements prove it (snap_binary64_two_ab, theories/Float/SnapTwoSided64.v): r0 = {h.r0} "
            f"<= e^(rho0 - 10^-4), k1 = {h.k1}, k2 = {h.k2}, and a*B/lambda + b is above the three forms "
            f"(tail, inside, clamp) at every {s.beta0} <= B/lambda <= 353, {s.rho0} <= Lambda/lambda <= 2")
