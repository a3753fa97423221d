"""The Coq file of a floating-point pipeline claim (template `floating.v.j2`).

The statement is `dp_runs deltas inputs run ε 0` (`Program/RunsMech.v`) of the run
`float_run` (`Float/FloatPipeline.v`) that Coq computes with Flocq's operations, in
conjunction with the correctness of the logarithm table at every sampled u
(`Float/LnTable.v`).  The ln table, the outputs, the bound on e^ε and the witness
are hints: Coq checks each.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.core import finite_terms as T
from obligations.core.obligation import Plan, Verdict, Witness
from obligations.core.templates import Rendered, SharedModule, exp_obligation, header, render_text
from obligations.core.templates import render as render_template
from obligations.core.terms import chunked, comment, q_lit, signed_z, strip_outer, z_lit
from obligations.errors import InternalError
from obligations.float import arith as A
from obligations.float.analysis import FloatMechanism, FStep

TEMPLATE = Path(__file__).parent / "templates" / "floating.v.j2"
LN_TEMPLATE = Path(__file__).parent / "templates" / "ln_table.v.j2"
LN_CHUNK = 64   # mantissas per lemma, so a failure names its chunk


def fl(name: str, f: A.Float) -> str:
    """A float of the format, as the nearest float to m·2^e (exact: f is representable)."""
    m = -f.m if f.negative else f.m
    return f"(fl_dyadic {name}_prec {name}_emax {signed_z(m)} {signed_z(f.e)})"


def step(name: str, s: FStep) -> str:
    if s.op == "ln":
        return "FLn"
    if s.op == "sign":
        return "FSign"
    if s.op == "scale":
        assert s.value is not None
        return f"FScale {fl(name, s.value)}"
    if s.op == "add_query":
        return "FAddQuery " + (f"(Some {fl(name, s.value)})" if s.value is not None else "None")
    if s.op == "round":
        return f"FRound {signed_z(s.j)} {'TiesUp' if s.ties == 'up' else 'TiesEven'}"
    assert s.value is not None
    return f"FClamp {fl(name, s.value)}"


def key(f: A.Float) -> str:
    """`float_key` of FloatPipeline.v."""
    sign = "(OVal 1)" if f.negative else "(OVal 0)"
    if f.kind == "finite":
        return f"[{sign}; (OVal {z_lit(f.m)}); (OVal {signed_z(f.e)})]"
    if f.kind == "zero":
        return f"[{sign}; (OVal 0); (OVal 0)]"
    if f.kind == "inf":
        return f"[{sign}; OTop]"
    return "[OBot]"


def _entry(u: A.Float, lnu: A.Float) -> str:
    ml = 0 if lnu.kind == "zero" else (-lnu.m if lnu.negative else lnu.m)
    el = 0 if lnu.kind == "zero" else lnu.e
    return f"({signed_z(u.m)}, {signed_z(u.e)}, {signed_z(ml)}, {signed_z(el)})"


BRACKET_BITS = 96   # width of the brackets of ln m and ln 2 (2^-96): Python checks they decide every entry


def _brackets(m: FloatMechanism) -> tuple[dict[int, tuple[Fraction, Fraction]], tuple[Fraction, Fraction]]:
    """Brackets of ln m for every mantissa of a sampled u and of ln 2, checked (as Coq's
    `entry_check` does) to place every entry's logarithm strictly between its midpoints."""
    mants = {u.m: A.ln_bracket(Fraction(u.m), BRACKET_BITS) for u, _ in m.sampler}
    l2 = A.ln_bracket(Fraction(2), BRACKET_BITS)
    for u, lnu in ((u, m.ln[u]) for u, _ in m.sampler):
        a, b = mants[u.m]
        lo, hi = (a + u.e * l2[0], b + u.e * l2[1]) if u.e >= 0 else (a + u.e * l2[1], b + u.e * l2[0])
        below, above = A.neighbours(m.fmt, lnu)
        if not ((below + lnu.value) / 2 < lo and hi < (lnu.value + above) / 2):
            raise InternalError(f"ln({u.label()}) is too close to a rounding boundary for "
                                f"{BRACKET_BITS}-bit brackets")
    return mants, l2


def _mant_chunks(mants: dict[int, tuple[Fraction, Fraction]]) -> list[dict[str, Any]]:
    items = sorted(mants.items())
    return [{"entries": "[" + ";\n    ".join(f"({signed_z(k)}%Z, {q_lit(lo)}, {q_lit(hi)})"
                                            for k, (lo, hi) in part) + "]"}
            for part in (items[i:i + LN_CHUNK] for i in range(0, len(items), LN_CHUNK))]


def ln_module(m: FloatMechanism) -> SharedModule:
    """The certified logarithm table of the sampled u as a shared module: the same format
    and sampler give the same text, hence one module proved once for every spec using it."""
    mants, l2 = _brackets(m)
    chunks = _mant_chunks(mants)
    ctx: dict[str, Any] = dict(
        precision=m.fmt.precision, emax=m.fmt.emax, n_ln=len(m.sampler),
        ln_tree=_tree([_entry(u, m.ln[u]) for u, _ in m.sampler]),
        mant_chunks=chunks, n_mants=len(mants), bits=BRACKET_BITS,
        mants=" ++ ".join(f"mants_c{i}" for i in range(len(chunks))),
        mants_ok=_forall_app("mants_ok_", len(chunks)), l2lo=q_lit(l2[0]), l2hi=q_lit(l2[1]))
    return SharedModule("LnTable", render_text(LN_TEMPLATE, ctx))


def _tree(entries: Sequence[str], indent: str = "  ") -> str:
    """A balanced search tree of the entries (given in increasing order of u)."""
    if not entries:
        return "Leaf"
    mid = len(entries) // 2
    left, right = _tree(entries[:mid], indent + " "), _tree(entries[mid + 1:], indent + " ")
    return f"(Node {left}\n{indent}{entries[mid]}\n{indent}{right})"


def _forall_app(prefix: str, n: int) -> str:
    term = f"{prefix}{n - 1}"
    for i in range(n - 2, -1, -1):
        term = f"(proj2 (Forall_app _ _ _) (conj {prefix}{i} {term}))"
    return term


def render_floating(m: FloatMechanism, plan: Plan) -> Rendered:
    spec = m.spec
    pipe = spec.program
    name = spec.name
    renderer = T.renderer(spec)
    obligations = [T.obligation(o) for o in plan.obligations]
    epsilon = strip_outer(renderer.r(spec.epsilon))
    exp = next((o for o in obligations if o["kind"] in ("exp_lower", "exp_upper")), None)
    if exp is not None:
        exp = exp_obligation(name, exp, epsilon)
    main = next((o for o in obligations if o["kind"] in ("pointwise", "witness")), None)
    if main is not None and main["kind"] == "witness":
        w = next(o for o in plan.obligations if isinstance(o, Witness))
        main["event"] = chunked([key(m.output_floats[y]) for y in w.outputs], "    ")
        main["event_text"] = comment(", ".join(m.output_label(y) for y in w.outputs))
        main["x_text"] = comment(m.input_label(w.x))
        main["x2_text"] = comment(m.input_label(w.x2))
        main["one_sided"] = w.pr_x2 == 0
    theorem = f"{name}_not_dp" if plan.expected == Verdict.REFUTED else f"{name}_dp"
    table = ln_module(m)
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description),
        precision=pipe.fmt.precision, emax=pipe.fmt.emax, grid_bits=pipe.grid_bits,
        step_text=comment("; ".join(pipe.step_texts)),
        steps="[" + "; ".join(step(name, s) for s in pipe.steps) + "]",
        n_ln=len(m.sampler), ln_module=table.name,
        inputs="[" + "; ".join(f"[{signed_z(x)}]" for x in pipe.inputs) + "]", n_inputs=len(pipe.inputs),
        sensitivity=pipe.sensitivity,
        n_outs=len(m.output_floats), outs=chunked([key(f) for f in m.output_floats]),
        outs_text=comment(_outs_text(m.output_floats)),
        exp=exp, main=main, epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), theorem=theorem,
    )
    theorems = (theorem,) if plan.expected in (Verdict.PROVED, Verdict.REFUTED) else ()
    return render_template(TEMPLATE, name, ctx, "PreludeFloat", theorems, shared=(table,))


def _outs_text(outs: Sequence[A.Float]) -> str:
    if len(outs) <= 12:
        return ", ".join(f.label() for f in outs)
    return ", ".join(f.label() for f in outs[:6]) + ", ..., " + ", ".join(f.label() for f in outs[-3:])

