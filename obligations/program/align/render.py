"""The Coq file of the generic alignment route (`align.v.j2`): the program as a term of
`ProgramSyntax.v` for every stream length k, the neighbour relation, the shift function
and the loop invariant the search proposes, the symbolic-execution proofs (generic
tactics of `Coupling/AlignTactics.v`) and `NAME_dp_all_k : dp_all_k NAME_nb NAME_prog
nvars c`, from `dp_of_aligned` (`Coupling/AlignSound.v`).  The shift and the invariant are
hints: a wrong one leaves the file unproved.  Identifiers are the spec's name (checked)
with fixed suffixes; every number is rendered by `z_lit`.  The monotone relation
(`align_either.v.j2`): the same file for each direction (`align_parts.v.j2`, names suffixed
`_up` / `_down`) and the claim as written, from the two by `nb_input_either`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from obligations import __version__
from obligations.core.templates import Rendered, render_text
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit, signed_z
from obligations.program import spec as P
from obligations.program.align.spec import K_LENGTH, STREAM_BASE, AlignSpec, DGeom
from obligations.program.align.synth import Alignment, Atom, Invariant, Lin, Rule, Term, the_loop
from obligations.program.terms import ProgramTerms

TEMPLATE = Path(__file__).with_name("align.v.j2")
PARTS = Path(__file__).with_name("align_parts.v.j2")     # what follows the header: the proof of one claim
EITHER = Path(__file__).with_name("align_either.v.j2")   # two proofs joined (the monotone relation)
PRELUDE = "PreludeAlign"
# more phases than this: the step's leaves split the invariant's phases (`pphases`, AlignTactics.v)
SPLIT_PHASES = 2


class Terms(ProgramTerms):
    """Coq terms of the IR with the stream's marks resolved: its first slot is `base` (after
    the variables and the public inputs), its length k; every site draws `DGeom`."""

    def __init__(self, base: int) -> None:
        self.base = base

    def index(self, a: P.AIdx) -> tuple[str, str]:
        return (str(self.base if a.base == STREAM_BASE else a.base),
                "k" if a.length == K_LENGTH else str(a.length))

    def count(self, n: int) -> str:
        return "k" if n == K_LENGTH else str(n)

    def dexp(self, d: P.DExp | DGeom) -> str:
        assert isinstance(d, DGeom)
        return f"(DGeom {d.num} {d.den} {self.aexp(d.center)})"


def _term(t: Term, center: str) -> str:
    if t.b == 0:
        return signed_z(t.c)
    diff = f"(aeval (tenv L) {center} - aeval (tenv A) {center})"
    return diff if t.c == 0 else f"({signed_z(t.c)} + {diff})"


def _shift_case(site: int, r: Rule, center: str, al: Alignment) -> str:
    t, f = _term(r.t, center), _term(r.f, center)
    if r.mode == "none":
        return f"{site}%nat => {t}"
    if r.mode == "next":
        return (f"{site}%nat => match nth_error tr (length (ttr L)) with Some true => {t} "
                f"| Some false => {f} | None => 0 end")
    assert al.index is not None
    return (f"{site}%nat => match nth_error o {al.index.opos} with Some (OVal w) => "
            f"if Z.eqb (read (tenv L) {al.index.loop_var}) w then {t} else {f} | _ => {f} end")


def _name(n: str, npub: int) -> str:
    if n == "J":
        return "(Z.of_nat j)"
    if n == "D":
        return f"(l1pre j (skipn {npub} x) (skipn {npub} x'))"
    if n.startswith("a") and n[1:].isdigit():
        y = n[1:]
        return f"(Z.abs (r{y} - l{y}))"
    return n


def _lin(e: Lin, npub: int) -> tuple[str, int]:
    """The expression times its common denominator, and that denominator."""
    parts: list[str] = []
    den = math.lcm(1, e.const.denominator, *(c.denominator for _, c in e.terms))
    for n, c in e.terms:
        v = c * den
        parts.append(_name(n, npub) if v == 1 else f"{signed_z(int(v))} * {_name(n, npub)}")
    if e.const or not parts:
        parts.append(signed_z(int(e.const * den)))
    return " + ".join(parts), den


def _atom(a: Atom, npub: int) -> str:
    (lhs, dl), (rhs, dr) = _lin(a.lhs, npub), _lin(a.rhs, npub)
    if dl != 1 or dr != 1:   # both sides times the other's denominator
        lhs, rhs = (f"{signed_z(dr)} * ({lhs})" if dr != 1 else lhs), (f"{signed_z(dl)} * ({rhs})" if dl != 1 else rhs)
    op = {"=": "=", "<=": "<=", "<>": "<>"}[a.op]
    return f"{lhs} {op} {rhs}"


def _conj(atoms: Sequence[Atom], npub: int) -> str:
    return " /\\ ".join(f"({_atom(a, npub)})" for a in atoms) or "True"


def shared(inv: Invariant) -> tuple[Atom, ...]:
    """Equations `r<y> = e` (e free of r<y>) that every phase states, one per variable: the
    invariant states them once, before its phases, so the step substitutes them into the
    aligned run's state.  Then a test that reads the same variables in both runs (a counter
    the runs keep equal) reads the same term, and the symbolic run splits on it once, not on
    the two runs' decisions (AlignTactics.v, `pif_nf`).  Not under an output prophecy: its
    invariant is a `match` whose other case is `True`."""
    if inv.index is not None or not inv.phases:
        return ()
    out: dict[str, Atom] = {}
    for a in inv.phases[0].atoms:
        if a.op != "=" or a.lhs.const != 0 or len(a.lhs.terms) != 1:
            continue
        (n, c), = a.lhs.terms
        y = n[1:]
        if c != 1 or n[:1] != "r" or not y.isdigit() or n in out or \
                any(m in (n, f"a{y}") for m, _ in a.rhs.terms):   # a<y> is |r<y> - l<y>|
            continue
        if all(a in p.atoms for p in inv.phases[1:]):
            out[n] = a
    return tuple(out.values())


def _arith(inv: Invariant, npub: int, al: Alignment) -> str:
    common = shared(inv)
    if common:
        phases = " \\/\n    ".join(f"({_conj([*p.guard, *(a for a in p.atoms if a not in common)], npub)})"
                                    for p in inv.phases)
        return f"  ({_conj(common, npub)} /\\ (\n    {phases}))%Z"
    phases = " \\/\n    ".join(f"({_conj([*p.guard, *p.atoms], npub)})" for p in inv.phases)
    if inv.index is not None:
        return (f"  match nth_error o {inv.index.opos} with\n  | Some (OVal w) =>\n    ({phases})%Z\n"
                "  | _ => True\n  end")
    return f"  ({phases})%Z"


def relation_term(spec: AlignSpec) -> str:
    """The neighbour relation as the library states it (InputRel.v)."""
    d = spec.relation.delta
    return {"each": f"rel_each {signed_z(-d)} {signed_z(d)}", "increasing": f"rel_each 0 {signed_z(d)}",
            "decreasing": f"rel_each {signed_z(-d)} 0", "one": f"rel_one {signed_z(d)}", "l1": f"rel_l1 {signed_z(d)}",
            "monotone": f"rel_either (rel_each 0 {signed_z(d)}) (rel_each {signed_z(-d)} 0)"}[spec.relation.kind]


def _facts(spec: AlignSpec) -> tuple[list[str], list[str]]:
    npub, _d, kind = spec.npub, spec.relation.delta, spec.relation.kind
    step = [f"pose proof (nb_input_pub _ _ _ _ _ {i} Hnb ltac:(lia)) as Hp{i}." for i in range(npub)]
    final = list(step)
    if kind in ("each", "increasing", "decreasing"):
        step.append("pose proof (nb_input_each _ _ _ _ _ _ j Hnb Hj) as Hd. cbn [Nat.add] in Hd.")
    else:
        l1 = "Hnb" if kind == "l1" else "(nb_input_one_l1 _ _ _ _ _ Hnb)"
        step.append(f"destruct (nb_input_l1_step _ _ _ _ _ j {l1} Hj) as [HD HDb]. cbn [Nat.add] in HD.")
        final.append(f"pose proof (nb_input_l1_total _ _ _ _ _ k {l1}) as HDk.")
    return step, final


def render(spec: AlignSpec, al: Alignment, inv: Invariant) -> Rendered:
    return render_template(TEMPLATE, spec.name, _context(spec, al, inv), PRELUDE, (f"{spec.name}_dp_all_k",))


def render_either(spec: AlignSpec, up: tuple[AlignSpec, Alignment, Invariant],
                  down: tuple[AlignSpec, Alignment, Invariant]) -> Rendered:
    """The monotone relation: the claim proved once for answers that all move up and once
    for answers that all move down (each its own alignment, `up[0]` and `down[0]` the spec
    with the relation `increasing` and `decreasing` and its name suffixed), then joined by
    `nb_input_either`: the theorem is about the spec's program and relation as written."""
    parts = [render_text(PARTS, _context(*d)) for d in (up, down)]
    name, n = spec.name, spec.nvars
    t = Terms(n + spec.npub)
    _, loop = the_loop(spec.body)
    ctx = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), up=parts[0], down=parts[1], up_name=up[0].name,
        down_name=down[0].name, body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        npub=spec.npub, relation=relation_term(spec), relation_text=comment(spec.neighbours), nvars=n,
        factor=r_lit(spec.factor), factor_text=comment(str(spec.factor)))
    return render_template(EITHER, name, ctx, PRELUDE, (f"{name}_dp_all_k",))


def _context(spec: AlignSpec, al: Alignment, inv: Invariant) -> dict[str, object]:
    name, n, npub = spec.name, spec.nvars, spec.npub
    t = Terms(n + npub)
    li, loop = the_loop(spec.body)
    emits = any(isinstance(s, P.SOut) or (isinstance(s, P.SSimple) and s.kind in ("top", "bot"))
                for s in P.statements(loop.body))
    pre_emits = any(isinstance(s, P.SOut) or (isinstance(s, P.SSimple) and s.kind in ("top", "bot"))
                    for s in P.statements(spec.body[:li]))
    literal_out = not emits and not pre_emits
    lv = " ".join(f"l{i}" for i in range(n))
    rv = " ".join(f"r{i}" for i in range(n))
    out_vars = "" if literal_out else " OL OA"
    substs = ("" if literal_out else " OA") + (" TA" if al.ctr else "")
    pattern_parts = ([] if literal_out else ["HO"]) + (["HT"] if al.ctr else []) + ["Hi"]
    names = [*(f"l{i}" for i in range(n)), *(f"r{i}" for i in range(n)), *out_vars.split(), "TL", "TA",
             "HL", "HA", "Hb", *pattern_parts]
    pattern = names[-1]
    for p in reversed(names[:-1]):
        pattern = f"[{p} {pattern}]"
    step_facts, final_facts = _facts(spec)
    centers = [t.aexp(s.dist.center) for s in al.sites]
    site0 = sum(1 for s in al.sites if not s.in_loop and s.index < _first_loop_site(al))
    factor = spec.factor
    ctx = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name),
        slots=comment(", ".join(f"{i} = {v}" for i, v in enumerate(spec.slot_names))),
        inputs=comment(", ".join([*(f"{p} (public)" for p in spec.publics), f"{spec.stream} (the stream, length k)"])),
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        npub=npub, relation=relation_term(spec), relation_text=comment(spec.neighbours),
        shift_text=comment("\n".join(f"    site {i}: {r.text()}" for i, r in enumerate(al.rules))),
        shift_cases=[_shift_case(i, r, centers[i], al) for i, r in enumerate(al.rules)],
        W=al.W, C=al.C, ctr="true" if al.ctr else "false", lvars=lv, rvars=rv,
        lvars_list="; ".join(f"l{i}" for i in range(n)), rvars_list="; ".join(f"r{i}" for i in range(n)),
        out_vars=out_vars, out_l="[]" if literal_out else "OL", out_r="[]" if literal_out else "OA",
        out_eq="" if literal_out else " OL = OA /\\", tr_eq=" TL = TA /\\" if al.ctr else "",
        lcons=" :: ".join(f"l{i}" for i in range(n)), rcons=" :: ".join(f"r{i}" for i in range(n)),
        intro_hyps=("" if literal_out else " OL = OA ->") + (" TL = TA ->" if al.ctr else ""),
        witnesses=", ".join(names[:2 * n + len(out_vars.split()) + 2]),   # the invariant's, in its order
        inv_pattern=pattern, substs=substs, arith=_arith(inv, npub, al), facts=step_facts, final_facts=final_facts,
        prophecy=al.index is not None, opos=al.index.opos if al.index else 0,
        split_phases=len(inv.phases) > SPLIT_PHASES, shared=_shared_tactic(inv),
        site0=site0, loop_var=loop.x, nvars=n,
        factor=r_lit(factor), factor_text=comment(str(factor)))
    return ctx


def _shared_tactic(inv: Invariant) -> str:
    """The step's and the final part's destructuring of the shared equations, and their substitution."""
    names = [a.lhs.terms[0][0] for a in shared(inv)]
    if not names:
        return ""
    pattern = "Hi"
    for i in reversed(range(len(names))):
        pattern = f"[He{i} {pattern}]"
    return f"destruct Hi as {pattern}. subst {' '.join(names)}."


def _first_loop_site(al: Alignment) -> int:
    return next((s.index for s in al.sites if s.in_loop), len(al.sites))
