"""The Coq file of an all-k claim (`svt.v.j2`): the program as a term of
`ProgramSyntax.v` for every stream length k, its runs under the tape semantics
(`Coupling/TapeSem.v`) proved equal to the sparse-vector function of
`Coupling/SparseVector.v`, the alignment's side conditions as obligations, and the
theorem `NAME_dp_all_k : dp_stream Δ NAME_prog NAME_ws nvars`.

The alignment's numbers are hints: the side conditions are stated with them and
proved by `lia`/`lra` in Coq; a wrong hint leaves the file unproved.  Identifiers
are the spec's name (checked by `names.py`) with fixed suffixes.  The program's terms
are printed as the generic alignment route prints them (`align/render.py`, `Terms`).
"""
from __future__ import annotations

from pathlib import Path

from obligations.core.document import Tactic
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, signed_z
from obligations.program import spec as P
from obligations.program.align.render import Terms
from obligations.program.coupling_analysis import Alignment, RnmShape, Shape
from obligations.program.coupling_spec import CouplingSpec

TEMPLATE = Path(__file__).parent / "templates" / "svt.v.j2"
RNM_TEMPLATE = Path(__file__).parent / "templates" / "rnm.v.j2"
PRELUDE = "PreludeCoupling"
COST_TACTICS = (Tactic("intros eps He; cbn [Z.abs]; lra."), Tactic("intros eps He; cbn [Z.abs]; nra."),
                Tactic("intros eps He; cbn [Z.abs]; field_simplify; lra."))


def render(spec: CouplingSpec, s: Shape, al: Alignment) -> Rendered:
    name = spec.name
    t = Terms(spec.nvars)
    loop = spec.body[-1]
    assert isinstance(loop, P.SFor) and s.sq is not None and s.cutoff is not None
    sq_num, sq_den = s.sq
    st_num, st_den = s.st
    cost_statement = (f"forall eps, (0 < eps)%R -> (eps * IZR {st_den} / IZR {st_num} * IZR (Z.abs {signed_z(al.dt)}) "
                      f"+ eps * IZR {sq_den} / IZR {sq_num} * IZR {al.m} * IZR {s.cutoff} <= eps)%R")
    ctx = dict(
        **header(name, spec.path, spec.sha256, spec.description),
        slots=comment(", ".join(f"{i} = {n}" for i, n in enumerate(spec.slot_names))),
        stream=comment(spec.stream), nvars=spec.nvars,
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        st_num=st_num, st_den=st_den, sq_num=sq_num, sq_den=sq_den,
        st_text=comment(_frac(st_num, st_den)), sq_text=comment(_frac(sq_num, sq_den)),
        counted=s.counted, cutoff=s.cutoff, threshold=signed_z(s.threshold), slot_i=loop.x,
        delta=spec.delta_q, dt=signed_z(al.dt), top_a=signed_z(al.top[0]), top_b=signed_z(al.top[1]), m=al.m,
        top_text=comment(al.top_text()), cost_text=comment(str(al.cost)),
        cost_statement=cost_statement, side_tactics=_side_tactics(name), cost_tactics=COST_TACTICS)
    # the main theorem last: the one outcomes print
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_no_fault", f"{name}_dp_all_k"))


def render_rnm(spec: CouplingSpec, s: RnmShape, al: Alignment) -> Rendered:
    name = spec.name
    t = Terms(spec.nvars)
    loop = spec.body[2]
    assert isinstance(loop, P.SFor)
    sq_num, sq_den = s.sq
    cost_statement = (f"forall eps, (0 < eps)%R -> (eps * IZR {sq_den} / IZR {sq_num} * IZR {al.m} <= eps)%R")
    ctx = dict(
        **header(name, spec.path, spec.sha256, spec.description),
        slots=comment(", ".join(f"{i} = {n}" for i, n in enumerate(spec.slot_names))),
        stream=comment(spec.stream), nvars=spec.nvars,
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        sq_num=sq_num, sq_den=sq_den, sq_text=comment(_frac(sq_num, sq_den)),
        delta=spec.delta_q, top_a=signed_z(al.top[0]), top_b=signed_z(al.top[1]), m=al.m,
        top_text=comment(al.top_text()), cost_text=comment(str(al.cost)),
        cost_statement=cost_statement, side_tactics=_side_tactics(name), cost_tactics=COST_TACTICS)
    return render_template(RNM_TEMPLATE, name, ctx, PRELUDE, (f"{name}_no_fault", f"{name}_dp_all_k"))


def _side_tactics(name: str) -> tuple[Tactic, ...]:
    return (Tactic(f"unfold {name}_ftop; lia."), Tactic("lia."), Tactic(f"unfold {name}_ftop; nia."))


def _frac(num: int, den: int) -> str:
    return str(num) if den == 1 else f"{num}/{den}"
