"""The Coq file of an all-k claim (`svt.v.j2`): the program as a term of
`ProgramSyntax.v` for every stream length k, its runs under the tape semantics
(`Coupling/TapeSem.v`) proved equal to the sparse-vector function of
`Coupling/SparseVector.v`, the alignment's side conditions as obligations, and the
theorem `NAME_dp_all_k : dp_stream Δ NAME_prog NAME_ws nvars`.

The alignment's numbers are hints: the side conditions are stated with them and
proved by `lia`/`lra` in Coq; a wrong hint leaves the file unproved.  Identifiers
are the spec's name (checked by `names.py`) with fixed suffixes.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from obligations.core.document import Tactic
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, signed_z
from obligations.program import spec as P
from obligations.program.coupling_analysis import Alignment, RnmShape, Shape
from obligations.program.coupling_spec import K_LENGTH, STREAM_BASE, CouplingSpec, DGeom

TEMPLATE = Path(__file__).parent / "templates" / "svt.v.j2"
RNM_TEMPLATE = Path(__file__).parent / "templates" / "rnm.v.j2"
PRELUDE = "PreludeCoupling"
COST_TACTICS = (Tactic("intros eps He; cbn [Z.abs]; lra."), Tactic("intros eps He; cbn [Z.abs]; nra."),
                Tactic("intros eps He; cbn [Z.abs]; field_simplify; lra."))


class _Terms:
    """Coq terms of the IR, with the stream's base slot and its length k."""

    def __init__(self, nvars: int) -> None:
        self.nvars = nvars

    def aexp(self, a: P.AExp) -> str:
        if isinstance(a, P.AConst):
            return f"(AConst {signed_z(a.z)})"
        if isinstance(a, P.AVar):
            return f"(AVar {a.x})"
        if isinstance(a, P.AIdx):
            base = self.nvars if a.base == STREAM_BASE else a.base
            length = "k" if a.length == K_LENGTH else str(a.length)
            return f"(AIdx {base} {length} {self.aexp(a.i)})"
        if isinstance(a, P.AAbs):
            return f"(AAbs {self.aexp(a.a)})"
        if isinstance(a, P.ADivC):
            return f"({'ADiv' if a.op == 'div' else 'AMod'} {self.aexp(a.a)} {a.d})"
        name = {"add": "AAdd", "sub": "ASub", "mul": "AMul", "min": "AMin", "max": "AMax"}[a.op]
        return f"({name} {self.aexp(a.a)} {self.aexp(a.b)})"

    def bexp(self, b: P.BExp) -> str:
        if isinstance(b, P.BConst):
            return "BTrue" if b.value else "BFalse"
        if isinstance(b, P.BNot):
            return f"(BNot {self.bexp(b.b)})"
        if isinstance(b, P.BBin):
            return f"({'BAnd' if b.op == 'and' else 'BOr'} {self.bexp(b.b)} {self.bexp(b.c)})"
        name = {"lt": "BLt", "le": "BLe", "eq": "BEq"}[b.op]
        return f"({name} {self.aexp(b.a)} {self.aexp(b.b)})"

    def stmt(self, s: P.Stmt, indent: int, loop_body: str = "") -> str:
        pad = "  " * indent
        if isinstance(s, P.SAssign):
            return f"{pad}(SAssign {s.x} {self.aexp(s.a)})"
        if isinstance(s, P.SSample):
            d = s.d
            assert isinstance(d, DGeom)
            return f"{pad}(SSample {s.x} (DGeom {d.num} {d.den} {self.aexp(d.center)}))"
        if isinstance(s, P.SOut):
            return f"{pad}(SOut {self.aexp(s.a)})"
        if isinstance(s, P.SIf):
            return f"{pad}(SIf {self.bexp(s.b)}\n{self.block(s.then, indent + 1)}\n{self.block(s.orelse, indent + 1)})"
        if isinstance(s, P.SFor):
            n = "k" if s.n == K_LENGTH else str(s.n)
            return f"{pad}(SFor {s.x} {n} {loop_body})" if loop_body else \
                f"{pad}(SFor {s.x} {n}\n{self.block(s.body, indent + 1)})"
        return pad + {"top": "STop", "bot": "SBot", "stop": "SStop", "skip": "SSkip"}[s.kind]

    def block(self, stmts: Sequence[P.Stmt], indent: int, loop_body: str = "") -> str:
        pad = "  " * indent
        if not stmts:
            return f"{pad}SSkip"
        if len(stmts) == 1:
            return self.stmt(stmts[0], indent, loop_body)
        head = self.stmt(stmts[0], indent + 1, loop_body)
        return f"{pad}(SSeq\n{head}\n{self.block(stmts[1:], indent + 1, loop_body)})"


def render(spec: CouplingSpec, s: Shape, al: Alignment) -> Rendered:
    name = spec.name
    t = _Terms(spec.nvars)
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
    t = _Terms(spec.nvars)
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
