"""The Coq file of a certified counterexample (`refute.v.j2`): the program, the neighbour
relation and the claim exactly as the alignment route renders them (`align.render`), and
`NAME_not_dp_all_k : ~ dp_all_k NAME_nb NAME_prog nvars c`, proved by
`not_dp_all_k_of_pruned` (`Coupling/Prune.v`) from the witness: the stream length, the
two inputs (their relation decided by a boolean checker), the event, ε = L·ln(q/p) and
the two balls' radii; `vm_compute` runs the program on the lower ball's vectors and on
the upper ball's tape prefixes until each subtree is decided.
Every number is rendered by `z_lit`; identifiers are the spec's checked name with fixed
suffixes.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from obligations import __version__
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit, signed_z
from obligations.program.align.render import Terms, relation_term
from obligations.program.align.spec import AlignSpec
from obligations.program.align.synth import the_loop
from obligations.program.refute.tape import Out
from obligations.program.refute.witness import Witness

TEMPLATE = Path(__file__).with_name("refute.v.j2")
PRELUDE = "PreludeRefute"


def zlist(xs: Sequence[int]) -> str:
    return "[" + "; ".join(signed_z(x) for x in xs) + "]%Z"


def _oval(o: object) -> str:
    if o == "top":
        return "OTop"
    if o == "bot":
        return "OBot"
    assert isinstance(o, int)
    return f"OVal {signed_z(o)}"


def event_term(event: Sequence[Out]) -> str:
    return "[" + "; ".join("[" + "; ".join(_oval(o) for o in out) + "]" for out in event) + "]"


def event_text(event: Sequence[Out]) -> str:
    return "{" + ", ".join("(" + ", ".join(str(o) for o in out) + ")" for out in event) + "}"


def _relation_b(spec: AlignSpec) -> tuple[str, str]:
    """The boolean checker of the spec's relation and the tactic proving it sound."""
    d = spec.relation.delta
    each = "intros a b; apply rel_each_b_ok"
    return {
        "each": (f"rel_each_b {signed_z(-d)} {signed_z(d)}", each),
        "increasing": (f"rel_each_b 0 {signed_z(d)}", each),
        "decreasing": (f"rel_each_b {signed_z(-d)} 0", each),
        "one": (f"rel_one_b {signed_z(d)}", "intros a b; apply rel_one_b_ok; lia"),
        "l1": (f"rel_l1_b {signed_z(d)}", "intros a b; apply rel_l1_b_ok"),
        "monotone": (f"rel_either_b (rel_each_b 0 {signed_z(d)}) (rel_each_b {signed_z(-d)} 0)",
                     "apply rel_either_b_ok; intros a b; apply rel_each_b_ok"),
    }[spec.relation.kind]


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator} (~{float(f):.4g})"


def render(spec: AlignSpec, w: Witness) -> Rendered:
    name, n, npub = spec.name, spec.nvars, spec.npub
    t = Terms(n + npub)
    _, loop = the_loop(spec.body)
    rel_b, rel_ok = _relation_b(spec)
    ctx = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name),
        slots=comment(", ".join(f"{i} = {v}" for i, v in enumerate(spec.slot_names))),
        inputs=comment(", ".join([*(f"{p} (public)" for p in spec.publics), f"{spec.stream} (the stream, length k)"])),
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        npub=npub, relation=relation_term(spec), relation_text=comment(spec.neighbours),
        relation_b=rel_b, relation_ok=rel_ok, nvars=n, factor=r_lit(spec.factor),
        factor_text=comment(str(spec.factor)),
        k=w.k, x=zlist(w.x), x2=zlist(w.x2), x_text=comment(str(list(w.x))), x2_text=comment(str(list(w.x2))),
        event=event_term(w.event), event_text=comment(event_text(w.event)),
        eps_text=comment(w.eps.text()), L=w.eps.L, p=w.eps.p, q=w.eps.q, M=w.M, R=w.R, R2=w.R2,
        runs=w.runs, lower_text=comment(_frac(w.bracket.lower)), upper_text=comment(_frac(w.bracket.upper)))
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_not_dp_all_k",))
