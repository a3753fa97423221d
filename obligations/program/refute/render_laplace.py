"""The Coq file of a refutation under continuous Laplace noise (`refute_laplace.v.j2`): the
program and the neighbour relation as the alignment route renders them, the event (the
released sequence the witness pins down), `NAME_boxed` (every tape in the box runs the
program on x into the event) and `NAME_unreached` (no tape runs it on x' into the event),
both by RunSym.v's `rrun`/`rrleaf`; then `~ rdp_prog` at the witness's stream length by
`not_rdp_of_rbox` (RealRefute.v) and, for a claim about every stream length, `~ rdp_all_k`.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from obligations import __version__
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.program.align.render import Terms, relation_term
from obligations.program.align.spec import AlignSpec
from obligations.program.align.synth import the_loop
from obligations.program.refute.real import Event, RealWitness
from obligations.program.refute.render import zlist

TEMPLATE = Path(__file__).with_name("refute_laplace.v.j2")
PRELUDE = "PreludeLaplaceRefute"


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
    theorems = (theorem(spec),)
    return render_template(TEMPLATE, name, ctx, PRELUDE, theorems)

