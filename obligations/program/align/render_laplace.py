"""The Coq file of a program claimed at one stream length under continuous Laplace noise
(`laplace.v.j2`): the program as the all-k route renders it, run at that length over the
reals; the neighbour relation; the shift function the search found for the discrete form,
read over the reals (a difference of centres rounded down); `NAME_good` (the aligned run
void or good, by RealSym.v's generic tactics) and `NAME_dp : rdp_prog NAME_nb (NAME_prog n)
nvars c`, from `rdp_of_aligned` with the measurable pieces closed by FiberSym.v's
`mfibers_zshift`.  The shift is a hint: a wrong one leaves the file unproved.
"""
from __future__ import annotations

from pathlib import Path

from obligations import __version__
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit, signed_z
from obligations.program.align.render import Terms, relation_term
from obligations.program.align.spec import AlignSpec
from obligations.program.align.synth import Alignment, Rule, Term, the_loop

TEMPLATE = Path(__file__).with_name("laplace.v.j2")
PRELUDE = "PreludeLaplace"
# the neighbour relations whose facts the generated proof reads (`rfacts_each`: answer by answer)
RELATIONS = ("each", "increasing", "decreasing")


def unsupported(spec: AlignSpec, al: Alignment) -> str:
    """Why this route does not render the alignment at a fixed length ("" if it does)."""
    if spec.relation.kind not in RELATIONS:
        return (f"neighbours `{spec.relation.kind}`: at a fixed stream length the generated proof reads "
                "`each`, `increasing` and `decreasing` neighbours only")
    if al.index is not None or any(r.mode == "index" for r in al.rules):
        return "a shift reading the released index: not rendered over the reals yet"
    if any(t.b not in (0, 1) for r in al.rules for t in (r.t, r.f)):
        return "a shift with a multiple of the centres' difference: not rendered over the reals yet"
    return ""


def term(t: Term, center: str) -> str:
    """c + b·(centre_L − centre_A), b in {0, 1}: a whole number, the difference rounded down."""
    if t.b == 0:
        return signed_z(t.c)
    diff = f"raeval (renv L) {center} - raeval (renv A) {center}"
    return f"rfloor ({diff})%R" if t.c == 0 else f"rfloor (IZR {signed_z(t.c)} + ({diff}))%R"


def shift_case(site: int, r: Rule, center: str) -> str:
    t, f = term(r.t, center), term(r.f, center)
    if r.mode == "none":
        return f"{site}%nat => {t}"
    return (f"{site}%nat => match nth_error tr (length (rtr L)) with Some true => {t} "
            f"| Some false => {f} | None => 0 end")


def _pattern(prefix: str, n: int) -> str:
    """The destruct pattern naming a list of exactly n entries prefix0 .. prefix(n-1)."""
    inner = "[|? ?]"
    for i in reversed(range(n)):
        inner = f"[|{prefix}{i} {inner}]"
    return inner


def render(spec: AlignSpec, al: Alignment) -> Rendered:
    assert spec.length is not None and not unsupported(spec, al)
    name, n, npub = spec.name, spec.nvars, spec.npub
    t = Terms(n + npub)
    _, loop = the_loop(spec.body)
    centers = [t.aexp(s.dist.center) for s in al.sites]
    entries = npub + spec.length
    ctx = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), length=spec.length,
        slots=comment(", ".join(f"{i} = {v}" for i, v in enumerate(spec.slot_names))),
        inputs=comment(", ".join([*(f"{p} (public)" for p in spec.publics),
                                  f"{spec.stream} (the stream, length {spec.length})"])),
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        npub=npub, relation=relation_term(spec), relation_text=comment(spec.neighbours),
        shift_text=comment("\n".join(f"    site {i}: {r.text()}" for i, r in enumerate(al.rules))),
        shift_cases=[shift_case(i, r, centers[i]) for i, r in enumerate(al.rules)],
        W=al.W, C=al.C, ctr="true" if al.ctr else "false", nvars=n,
        pattern=_pattern("x", entries), pattern_r=_pattern("y", entries),
        factor=r_lit(spec.factor), factor_text=comment(str(spec.factor)))
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_dp",))
