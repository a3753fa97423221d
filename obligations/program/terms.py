"""Coq terms of the program IR (`theories/Program/ProgramSyntax.v`): expressions, the
finite distributions, statements, and blocks as right-nested `SSeq` (`SSkip` when empty).

One printer for every route of the program model: the finite program kind uses it as it
is; the all-k routes (`align/render.py`) resolve the stream's marks (its first slot, its
length k) and print their geometric sites, and may print the loop of the program as a
reference to its body's definition (`loop_body`).
"""
from __future__ import annotations

from collections.abc import Sequence

from obligations.core.terms import q_lit, signed_z
from obligations.program import spec as P

A_OPS = {"add": "AAdd", "sub": "ASub", "mul": "AMul", "min": "AMin", "max": "AMax"}
B_CMPS = {"lt": "BLt", "le": "BLe", "eq": "BEq"}
SIMPLE = {"top": "STop", "bot": "SBot", "stop": "SStop", "skip": "SSkip"}


class ProgramTerms:
    """The printer; a subclass says how an index's base and length, a loop's count and a
    distribution read (the finite program: as the IR has them)."""

    def index(self, a: P.AIdx) -> tuple[str, str]:
        """The base slot and the length of `AIdx`."""
        return str(a.base), str(a.length)

    def count(self, n: int) -> str:
        """The iterations of `SFor`."""
        return str(n)

    def dexp(self, d: P.DExp) -> str:
        if isinstance(d, P.DTable):
            rows = "; ".join("[" + "; ".join(q_lit(v) for v in r) + "]" for r in d.rows)
            return f"(DTable {self.aexp(d.key)} {signed_z(d.key_lo)} {signed_z(d.val_lo)} [{rows}])"
        if isinstance(d, P.DTGeom):
            return f"(DTGeom {q_lit(d.alpha)} {self.aexp(d.center)} {signed_z(d.lo)} {signed_z(d.hi)})"
        if isinstance(d, P.DTwoSided):
            return f"(DTwoSided {q_lit(d.alpha)} {signed_z(d.lo)} {signed_z(d.hi)})"
        if isinstance(d, P.DBernoulli):
            return f"(DBernoulli {q_lit(d.p)})"
        return f"(DUniform {signed_z(d.lo)} {signed_z(d.hi)})"

    def aexp(self, a: P.AExp) -> str:
        if isinstance(a, P.AConst):
            return f"(AConst {signed_z(a.z)})"
        if isinstance(a, P.AVar):
            return f"(AVar {a.x})"
        if isinstance(a, P.AIdx):
            base, length = self.index(a)
            return f"(AIdx {base} {length} {self.aexp(a.i)})"
        if isinstance(a, P.AAbs):
            return f"(AAbs {self.aexp(a.a)})"
        if isinstance(a, P.ADivC):
            return f"({'ADiv' if a.op == 'div' else 'AMod'} {self.aexp(a.a)} {a.d})"
        return f"({A_OPS[a.op]} {self.aexp(a.a)} {self.aexp(a.b)})"

    def bexp(self, b: P.BExp) -> str:
        if isinstance(b, P.BConst):
            return "BTrue" if b.value else "BFalse"
        if isinstance(b, P.BNot):
            return f"(BNot {self.bexp(b.b)})"
        if isinstance(b, P.BBin):
            return f"({'BAnd' if b.op == 'and' else 'BOr'} {self.bexp(b.b)} {self.bexp(b.c)})"
        return f"({B_CMPS[b.op]} {self.aexp(b.a)} {self.aexp(b.b)})"

    def stmt(self, s: P.Stmt, indent: int, loop_body: str = "") -> str:
        """One statement; with `loop_body`, a loop is `SFor x n loop_body` (its body defined apart)."""
        pad = "  " * indent
        if isinstance(s, P.SAssign):
            return f"{pad}(SAssign {s.x} {self.aexp(s.a)})"
        if isinstance(s, P.SSample):
            return f"{pad}(SSample {s.x} {self.dexp(s.d)})"
        if isinstance(s, P.SOut):
            return f"{pad}(SOut {self.aexp(s.a)})"
        if isinstance(s, P.SIf):
            return (f"{pad}(SIf {self.bexp(s.b)}\n{self.block(s.then, indent + 1, loop_body)}\n"
                    f"{self.block(s.orelse, indent + 1, loop_body)})")
        if isinstance(s, P.SFor):
            if loop_body:
                return f"{pad}(SFor {s.x} {self.count(s.n)} {loop_body})"
            return f"{pad}(SFor {s.x} {self.count(s.n)}\n{self.block(s.body, indent + 1)})"
        return pad + SIMPLE[s.kind]

    def block(self, stmts: Sequence[P.Stmt], indent: int, loop_body: str = "") -> str:
        pad = "  " * indent
        if not stmts:
            return f"{pad}SSkip"
        if len(stmts) == 1:
            return self.stmt(stmts[0], indent, loop_body)
        first, rest = self.stmt(stmts[0], indent + 1, loop_body), self.block(stmts[1:], indent + 1, loop_body)
        return f"{pad}(SSeq\n{first}\n{rest})"
