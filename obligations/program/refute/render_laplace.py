"""The Coq file of a refutation under continuous Laplace noise (`refute_laplace.v.j2`): the
program and the neighbour relation as the alignment route renders them, the event (the
released sequence the witness pins down, released reals on a half-line in the ratio case),
`NAME_boxed` (every tape in the box runs the program on x into the event) and
`NAME_unreached` (no tape runs it on x' into the event), both by RunSym.v's `rrun`/`rrleaf`;
then `~ rdp_prog` at the witness's stream length by `not_rdp_of_rbox` (RealRefute.v) and, for
a claim about every stream length, `~ rdp_all_k`.  In the ratio case `NAME_tails` (every tape
running it on x' into the event lies in the tails, RunTails.v's `rrtail`) takes the place of
`NAME_unreached`, and `not_rdp_of_rratio` (RealRatio.v) that of `not_rdp_of_rbox`.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from obligations import __version__
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.program.align import sem as S
from obligations.program.align.render import Terms, relation_term
from obligations.program.align.spec import AlignSpec
from obligations.program.align.synth import the_loop
from obligations.program.refute.real import Event, Half, RealWitness, Tail
from obligations.program.refute.render import zlist
from obligations.program.refute.tape import layout

TEMPLATE = Path(__file__).with_name("refute_laplace.v.j2")
PRELUDE = "PreludeLaplaceRefute"
PRELUDE_RATIO = "PreludeLaplaceRatio"
PRELUDE_COVER = "PreludeLaplaceCover"


def theorem(spec: AlignSpec) -> str:
    """The certificate's theorem: the claim at the spec's length, or for every length."""
    return f"{spec.name}_not_rdp_all_k" if spec.length is None else f"{spec.name}_not_rdp"


def _pattern(event: Event) -> tuple[str, str]:
    """The match pattern of the released sequence and the test on its values."""
    pats, tests = [], []
    for i, o in enumerate(event):
        if o is None:
            pats.append("_")
        elif o == "top":
            pats.append("ROTop")
        elif o == "bot":
            pats.append("ROBot")
        elif isinstance(o, Half):
            pats.append(f"ROVal a{i}")
            u = f"{r_lit(o.u)}%R"
            tests.append(f"rleb {u} a{i}" if o.ge else f"rleb a{i} {u}")
        else:
            assert isinstance(o, int)
            pats.append(f"ROVal a{i}")
            tests.append(f"reqb a{i} {r_lit(Fraction(o))}%R")
    return "; ".join(pats), " && ".join(tests) or "true"


def event_text(event: Event) -> str:
    """The released sequence; `_` stands for any value (an output that depends on the noise)."""
    return "(" + ", ".join("_" if o is None else str(o) for o in event) + ")"


def _box(box: Sequence[tuple[Fraction, Fraction]]) -> str:
    return "[" + "; ".join(f"({r_lit(lo)}, {r_lit(hi)})" for lo, hi in box) + "]%R"


def _reals(values: Sequence[Fraction]) -> str:
    return "[" + "; ".join(r_lit(v) for v in values) + "]%R"


def _tail(t: Tail) -> str:
    if t is None:
        return "(@tany Rdefinitions.R)"
    return f"({'tge' if t[0] else 'tle'} {r_lit(t[1])}%R)"


def _tails(tails: Sequence[Tail]) -> str:
    return "[" + "; ".join(_tail(t) for t in tails) + "]"


def tails_text(tails: Sequence[Tail]) -> str:
    """The tails as the docs write them: `_` for anything, `>= t`, `<= t`."""
    return " x ".join("_" if t is None else (">= " if t[0] else "<= ") + str(t[1]) for t in tails)


def _layout(lay: Sequence[tuple[int, int]]) -> str:
    return "[" + "; ".join(f"({n}%positive, {d}%positive)" for n, d in lay) + "]"


def _box_text(box: Sequence[tuple[Fraction, Fraction]]) -> str:
    return " x ".join(f"[{lo}, {hi}]" for lo, hi in box) or "(no tape position)"


def _tape(m: int) -> tuple[str, str, str]:
    """The destruct pattern of a tape of m positions, its list, and the box's hypotheses."""
    pattern = "[|? ?]"
    for i in reversed(range(m)):
        pattern = f"[|v{i} {pattern}]"
    if m == 0:
        return "[|? ?]", "[]", "clear Hv."
    hyps = "_"
    for i in reversed(range(m)):
        hyps = f"[Hl{i} [Hh{i} {hyps}]]"
    names = ", ".join(f"Hl{i}, Hh{i}" for i in range(m))
    tape = "[" + "; ".join(f"v{i}" for i in range(m)) + "]"
    return pattern, tape, f"destruct Hv as {hyps}. cbn [fst snd] in {names}."


def _nb_proof(spec: AlignSpec, w: RealWitness) -> str:
    """The two inputs related, proved on the concrete lists."""
    kind, npub = spec.relation.kind, spec.npub
    head = "split; [reflexivity|split; [reflexivity|"
    each = "cbn; repeat apply Forall2_cons; try apply Forall2_nil; lia"
    if kind in ("each", "increasing", "decreasing"):
        return head + each + "]]"
    if kind == "monotone":
        up = all(b >= a for a, b in zip(w.x[npub:], w.x2[npub:], strict=True))
        return head + ("left; " if up else "right; ") + each + "]]"
    if kind == "l1":
        return head + "split; [reflexivity|cbn; lia]]]"
    diff = [i for i, (a, b) in enumerate(zip(w.x[npub:], w.x2[npub:], strict=True)) if a != b]
    j = diff[0] if diff else 0
    others = (f"intros i Hi; do {w.k} (destruct i as [|i]; [cbn; solve [reflexivity | lia]|]); "
              "cbn; destruct i; reflexivity")
    return head + f"split; [reflexivity|exists {j}%nat; split; [{others}|cbn; lia]]]]"


def render(spec: AlignSpec, w: RealWitness) -> Rendered:
    name, n, npub = spec.name, spec.nvars, spec.npub
    t = Terms(n + npub)
    _, loop = the_loop(spec.body)
    all_k = spec.length is None
    pattern, test = _pattern(w.event)
    tape_pattern, tape, box_hyps = _tape(len(w.box))
    ctx = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), all_k=all_k, k=w.k,
        slots=comment(", ".join(f"{i} = {v}" for i, v in enumerate(spec.slot_names))),
        inputs=comment(", ".join([*(f"{p} (public)" for p in spec.publics), f"{spec.stream} (the stream)"])),
        body=t.block(loop.body, 1), prog=t.block(spec.body, 1, loop_body=f"({name}_body k)"),
        npub=npub, relation=relation_term(spec), relation_text=comment(spec.neighbours),
        nb_at_k=f"({name}_nb {w.k})" if all_k else f"{name}_nb", nb_proof=_nb_proof(spec, w),
        nvars=n, factor=r_lit(spec.factor), factor_text=comment(str(spec.factor)),
        x=zlist(w.x), x2=zlist(w.x2), x_text=comment(str(list(w.x))), x2_text=comment(str(list(w.x2))),
        event_pattern=pattern, event_test=test, event_text=comment(event_text(w.event)),
        box=_box(w.box), box_text=comment(_box_text(w.box)), m=len(w.box), paths=w.paths,
        tape_pattern=tape_pattern, tape=tape, box_hyps=box_hyps)
    ctx.update(_ratio_ctx(spec, w))
    theorems = (theorem(spec),)
    return render_template(TEMPLATE, name, ctx, _prelude(w), theorems)


def _prelude(w: RealWitness) -> str:
    if w.ratio is None:
        return PRELUDE
    return PRELUDE_RATIO if w.ratio.pivot is None else PRELUDE_COVER


def _ratio_ctx(spec: AlignSpec, w: RealWitness) -> dict[str, object]:
    """What the ratio case adds to the template's context (nothing in the zero case)."""
    r = w.ratio
    if r is None:
        return {"ratio": False, "cover": False, "box_leaf": "rrleaf"}
    cover = {"cover": False} if r.pivot is None else dict(
        cover=True, pivot=r.pivot, npieces=len(r.pieces), cuts=_reals(r.cuts),
        cuts_text=comment(", ".join(str(c) for c in r.cuts)),
        pieces="[" + "; ".join(_tails(p) for p in r.pieces) + "]",
        pieces_text=comment("\n".join(f"      {tails_text(p)}" for p in r.pieces)))
    return cover | dict(ratio=True, box_leaf="rrbox", far=_reals(r.far), tails=_tails(r.tails),
                eps=r_lit(r.eps), eps_text=comment(str(r.eps)), a_text=comment(str(r.a)),
                b_text=comment(str(r.b)), tails_text=comment(tails_text(r.tails)),
                layout=_layout(layout(S.Ctx(spec.nvars, spec.npub, w.k), spec.body)))

