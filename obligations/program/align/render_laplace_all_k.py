"""The Coq file of a program claimed for every stream length under continuous Laplace noise
(`laplace_all_k.v.j2`): the discrete route's file (`align_parts.v.j2`) read over the reals.
The same program, neighbour relation, shift function (a difference of centres rounded down,
as at one length) and mined loop invariant; in the invariant a slot holding noise is a real
and a slot that only ever holds whole numbers (`noisy.whole_slots`) is `IZR` of an integer,
so each atom is stated over the integers (`lia`) unless it reads a noise slot (then over the
reals, `lra`).  `NAME_dp_all_k : rdp_all_k NAME_nb NAME_prog nvars c`, from
`rdp_all_k_of_aligned` with the measurable pieces by `zshift_mfibers` / `mshift`.  The shift
and the invariant are hints: a wrong one leaves the file unproved.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, signed_z
from obligations.program.align import render as disc
from obligations.program.align.noisy import whole_slots
from obligations.program.align.render_laplace import shift_case, term
from obligations.program.align.spec import AlignSpec
from obligations.program.align.synth import Alignment, Atom, Invariant, Lin, Rule

TEMPLATE = Path(__file__).with_name("laplace_all_k.v.j2")
PRELUDE = "PreludeLaplaceAll"
# the neighbour relations the generated proof reads (the monotone one joins two proofs: not yet)
RELATIONS = ("each", "increasing", "decreasing", "one", "l1")


def unsupported(spec: AlignSpec, al: Alignment) -> str:
    """Why this route does not render the alignment for every length ("" if it does)."""
    if spec.relation.kind not in RELATIONS:
        return f"neighbours `{spec.relation.kind}`: the proof over the reals for every length does not join two yet"
    if al.index is not None and al.index.var not in whole_slots(spec.body, spec.nvars):
        return "a shift reading a released index that may hold noise: not rendered over the reals"
    if any(t.b not in (0, 1) for r in al.rules for t in (r.t, r.f)):
        return "a shift with a multiple of the centres' difference: not rendered over the reals yet"
    return ""


Namer = Callable[[str], str]


def _namers(npub: int, whole: frozenset[int]) -> tuple[Namer, Namer]:
    """How an atom's names read over the integers and over the reals."""
    def z(n: str) -> str:
        return disc._name(n, npub)

    def r(n: str) -> str:
        y = n[1:]
        if n[:1] in "lr" and y.isdigit():
            return f"(IZR {n})" if int(y) in whole else n
        if n[:1] == "a" and y.isdigit():
            return f"(IZR (Z.abs (r{y} - l{y})))" if int(y) in whole else f"(Rabs (r{y} - l{y}))"
        return f"(IZR {disc._name(n, npub)})" if n != "acc" else "(IZR acc)"
    return z, r


def _real(a: Atom, whole: frozenset[int]) -> bool:
    """The atom reads a slot that may hold noise."""
    names = [n for n, _ in (*a.lhs.terms, *a.rhs.terms)]
    return any(n[:1] in "lra" and n[1:].isdigit() and int(n[1:]) not in whole for n in names)


def _lin(e: Lin, name: Namer) -> tuple[str, int]:
    parts: list[str] = []
    den = math.lcm(1, e.const.denominator, *(c.denominator for _, c in e.terms))
    for n, c in e.terms:
        v = c * den
        parts.append(name(n) if v == 1 else f"{signed_z(int(v))} * {name(n)}")
    if e.const or not parts:
        parts.append(signed_z(int(e.const * den)))
    return " + ".join(parts), den


def _equal_slots(inv: Invariant) -> frozenset[str]:
    """The distances |r<y> - l<y>| the invariant's shared equations make 0 (`r<y> = l<y>`)."""
    out = set()
    for a in disc.shared(inv):
        (n, _), = a.lhs.terms
        rhs = a.rhs.terms
        if a.lhs.const == 0 and a.rhs.const == 0 and len(rhs) == 1 and rhs[0][0] == f"l{n[1:]}" and rhs[0][1] == 1:
            out.add(f"a{n[1:]}")
    return frozenset(out)


def _drop(e: Lin, zero: frozenset[str]) -> Lin:
    return Lin(tuple((n, c) for n, c in e.terms if n not in zero), e.const)


def _atom(a: Atom, npub: int, whole: frozenset[int], zero: frozenset[str] = frozenset()) -> str:
    """Over the reals when it reads a noise slot, else over the integers; a distance the shared
    equations make 0 is left out (over the reals its absolute value would cost `lra` cases)."""
    a = Atom(a.op, _drop(a.lhs, zero), _drop(a.rhs, zero))
    real = _real(a, whole)
    name = _namers(npub, whole)[1 if real else 0]
    (lhs, dl), (rhs, dr) = _lin(a.lhs, name), _lin(a.rhs, name)
    if dl != 1 or dr != 1:
        lhs, rhs = (f"{signed_z(dr)} * ({lhs})" if dr != 1 else lhs), (f"{signed_z(dl)} * ({rhs})" if dl != 1 else rhs)
    return f"({lhs} {a.op} {rhs})%{'R' if real else 'Z'}"


def _conj(atoms: Sequence[Atom], npub: int, whole: frozenset[int], zero: frozenset[str] = frozenset()) -> str:
    return " /\\ ".join(_atom(a, npub, whole, zero) for a in atoms) or "True"


def _arith(inv: Invariant, npub: int, whole: frozenset[int]) -> str:
    """The invariant's arithmetic (under an output prophecy: its phases, which the template
    states for a released value that is a whole number `w`, an integer in the atoms)."""
    common, zero = disc.shared(inv), _equal_slots(inv)
    phases = " \\/\n    ".join(
        f"({_conj([*p.guard, *(a for a in p.atoms if a not in common)], npub, whole, zero)})" for p in inv.phases)
    if common:
        return f"  {_conj(common, npub, whole)} /\\ (\n    {phases})"
    return f"  ({phases})"


def _binders(n: int, whole: frozenset[int]) -> str:
    return " ".join(f"({s}{i} : {'Z' if i in whole else 'R'})" for s in "lr" for i in range(n))


def _env(side: str, n: int, whole: frozenset[int]) -> list[str]:
    return [f"IZR {side}{i}" if i in whole else f"{side}{i}" for i in range(n)]


def _shift_case(site: int, r: Rule, center: str, al: Alignment) -> str:
    """A site's shift; on the released index: whether the left run's loop index is the value
    the output prophecy releases (ReleasedIndex.v's `released_at`, a comparison of reals)."""
    if r.mode != "index":
        return shift_case(site, r, center)
    assert al.index is not None
    index = f"raeval (renv L) (AVar {al.index.loop_var})"
    return (f"{site}%nat => if released_at o {al.index.opos} ({index}) then {term(r.t, center)} "
            f"else {term(r.f, center)}")


def render(spec: AlignSpec, al: Alignment, inv: Invariant) -> Rendered:
    assert spec.length is None and not unsupported(spec, al)
    n = spec.nvars
    whole = whole_slots(spec.body, n)
    ctx = disc._context(spec, al, inv)
    t = disc.Terms(n + spec.npub)
    centers = [t.aexp(s.dist.center) for s in al.sites]
    names = spec.slot_names
    ctx.update(
        shift_cases=[_shift_case(i, r, centers[i], al) for i, r in enumerate(al.rules)],
        binders=_binders(n, whole), arith=_arith(inv, spec.npub, whole),
        lenv_list="; ".join(_env("l", n, whole)), renv_list="; ".join(_env("r", n, whole)),
        lcons=" :: ".join(_env("l", n, whole)), rcons=" :: ".join(_env("r", n, whole)),
        whole_text=comment(", ".join(names[i] for i in sorted(whole)) or "none"),
        nwitness=2 * n + len(str(ctx["out_vars"]).split()) + 2)
    return render_template(TEMPLATE, spec.name, ctx, PRELUDE, (f"{spec.name}_dp_all_k",))
