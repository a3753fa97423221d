"""The Coq file of a program claim: the program as a term of `ProgramSyntax.v`,
its inputs and output sequences, then one reflective check.

The statement is `dp_prog deltas inputs prog nslots ε δ` (`Program/ProgramDP.v`):
DP of the program's own semantics, which Coq computes from the term; the
outputs list and the bound on e^ε are hints (Coq checks that no mass escapes
the listed outputs).  Identifiers here are the spec's name (checked by
`names.py`) with fixed suffixes; every other name from the spec only appears
in comments.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from obligations.core import finite_terms as T
from obligations.core.obligation import Plan, Verdict, Witness
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import chunked, comment, q_lit, r_lit, signed_z, strip_outer
from obligations.program import spec as P
from obligations.program.analysis import BOT, TOP, ProgramMechanism
from obligations.program.terms import ProgramTerms


def program_term(prog: P.Program) -> str:
    return ProgramTerms().block(prog.body, 1)


def oval(o: Any) -> str:
    if o == TOP:
        return "OTop"
    if o == BOT:
        return "OBot"
    return f"(OVal {signed_z(int(o))})"


def ovals(outs: Sequence[Any]) -> str:
    return "[" + "; ".join(oval(o) for o in outs) + "]"


def slot_ranges(prog: P.Program) -> list[tuple[int, int]]:
    """The declared range (lo, hi) of every input slot, in slot order (a stream: one per value)."""
    out: list[tuple[int, int]] = []
    for c in sorted(prog.components, key=lambda c: c.base):
        assert c.base == len(out), "input slots are numbered in the order of the components"
        out.extend([(c.lo, c.hi)] * (c.length or 1))
    return out


TEMPLATE = Path(__file__).parent / "templates" / "program.v.j2"


def render_program(m: ProgramMechanism, plan: Plan) -> Rendered:
    spec = m.spec
    prog: P.Program = spec.program
    name = spec.name
    renderer = T.renderer(spec)
    obligations = [T.obligation(o) for o in plan.obligations]
    exp = next((o for o in obligations if o["kind"] in ("exp_lower", "exp_upper")), None)
    epsilon = strip_outer(renderer.r(spec.epsilon))
    if exp is not None:
        exp = exp_obligation(name, exp, epsilon)
    main = next((o for o in obligations if o["kind"] in ("pointwise", "hockey", "witness")), None)
    if main is not None and main["kind"] == "witness":
        w = next(o for o in plan.obligations if isinstance(o, Witness))
        main["event"] = chunked([ovals(m.sequences[y]) for y in w.outputs], "    ")
        main["event_text"] = comment(", ".join(m.output_label(y) for y in w.outputs))
        main["x_text"] = comment(m.input_label(w.x))
        main["x2_text"] = comment(m.input_label(w.x2))
    theorem = f"{name}_not_dp" if plan.expected == Verdict.REFUTED else f"{name}_dp"
    slots = ", ".join(f"{i} = {comment(n)}" for i, n in enumerate(prog.slot_names))
    comps = []
    for c in prog.components:
        what = f"a stream of {c.length} values" if c.length else "a value"
        nb = "public (equal in neighbours)" if c.public else f"sensitivity {c.delta}"
        comps.append(comment(f"{c.name}: {what} in {c.lo}..{c.hi}, {nb}"))
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description),
        derived=comment(", ".join(f"{k} = {v}" for k, v in (prog.point or {}).items())),
        slots=slots, components=comps, nslots=prog.nslots, program=program_term(prog),
        deltas="[" + "; ".join(signed_z(d) for d in prog.deltas) + "]",
        ranges="[" + "; ".join(f"({signed_z(lo)}, {signed_z(hi)})" for lo, hi in slot_ranges(prog)) + "]",
        inputs=chunked(["[" + "; ".join(signed_z(v) for v in vec) + "]" for vec in prog.inputs], "  ",
                       max(1, 60 // (4 * max(1, len(prog.deltas)) + 2))),
        n_inputs=len(prog.inputs), n_outs=len(m.sequences),
        outs=chunked([ovals(o) for o in m.sequences]),
        exp=exp, main=main,
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text),
        delta=r_lit(spec.delta), delta_q=q_lit(spec.delta), delta_text=comment(spec.delta_text),
        theorem=theorem,
    )
    theorems = (theorem,) if plan.expected in (Verdict.PROVED, Verdict.REFUTED) else ()
    return render_template(TEMPLATE, name, ctx, "Prelude", theorems, (INTERVAL_PRELUDE,))
