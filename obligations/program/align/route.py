"""Route: an all-k program decided by the generic alignment route.  `decide` searches the
shifts, mines the loop invariant and renders the Coq file; `ByGenericAlignment` is the
program model's route over it (the plan says which alignment was found, or why none)."""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from typing import Any

from obligations.core.document import DocumentBuilder
from obligations.core.model import Analysed, Description, HintError, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.spec import read
from obligations.core.templates import Rendered
from obligations.program.align import hint, render_laplace, render_laplace_all_k, synth
from obligations.program.align.render import PRELUDE, render, render_either
from obligations.program.align.spec import AlignSpec, Relation
from obligations.program.spec import check_program
from obligations.program.spec import expand as expand_program


@dataclass(frozen=True)
class Found:
    """An alignment and its invariant, rendered: Coq decides whether they hold."""

    alignment: synth.Alignment
    invariant: synth.Invariant | None   # None at a fixed stream length: the loop unrolls
    rendered: Rendered | None           # the discrete form's file (None at a fixed stream length)
    down: synth.Alignment | None = None   # the monotone relation: `alignment` for answers up, this down
    hint: dict[str, Any] | None = None    # the alignments and invariants as the certificate records them

    @property
    def note(self) -> str:
        if self.down is None:
            return "alignment: " + _shifts(self.alignment)
        return f"answers all up, alignment: {_shifts(self.alignment)}; answers all down, alignment: " \
               f"{_shifts(self.down)}"


def _shifts(al: synth.Alignment) -> str:
    shifts = "; ".join(f"site {i}: {r.text()}" for i, r in enumerate(al.rules))
    return f"{shifts}; cost at most {al.C}/{al.W}·ε"


@dataclass(frozen=True)
class NotFound:
    reason: str


Decided = Found | NotFound
_DECIDED: dict[tuple[str, str, str], Decided] = {}


def decide(spec: AlignSpec) -> Decided:
    """Search, mine, render; once per spec text (the claims' expansion and the route both ask)."""
    key = (spec.path, spec.sha256, spec.name)
    if key not in _DECIDED:
        _DECIDED[key] = _either(spec) if spec.relation.kind == "monotone" and spec.length is None else _one(spec)
    return _DECIDED[key]


def _found(spec: AlignSpec) -> tuple[synth.Alignment, synth.Invariant] | NotFound:
    al = synth.search(spec)
    if isinstance(al, synth.NoAlignment):
        return NotFound(al.reason)
    return al, synth.mine(spec, al)


def _one(spec: AlignSpec) -> Decided:
    if spec.length is not None:   # one length, over the reals: no loop invariant, no discrete file
        al = synth.search(spec)
        return NotFound(al.reason) if isinstance(al, synth.NoAlignment) else Found(al, None, None)
    r = _found(spec)
    return r if isinstance(r, NotFound) else Found(*r, render(spec, *r), hint=hint.record([r]))


def _either(spec: AlignSpec) -> Decided:
    """All answers up or all down: an alignment for each direction, the two proofs joined in
    one file."""
    parts = []
    for kind, suffix in (("increasing", "up"), ("decreasing", "down")):
        one = replace(spec, name=f"{spec.name}_{suffix}", relation=Relation(kind, spec.relation.delta))
        r = _found(one)
        if isinstance(r, NotFound):
            return NotFound(f"answers moving {suffix}: {r.reason}")
        parts.append((one, *r))
    (up, al, inv), down = parts
    return Found(al, inv, render_either(spec, (up, al, inv), down), down[1],
                 hint.record([(al, inv), (down[1], down[2])]))


@contextmanager
def adopted(spec: AlignSpec, recorded: Any) -> Iterator[None]:
    """Within the context, `spec` is decided by the alignments and invariants a certificate
    records (`hint`), not by searching: `verify` renders the file from them and Coq checks it.
    Afterwards the search's answer (if any) is back: a later `prove` in the same process never
    renders a certificate's hint.  A malformed record raises `HintError` on entry."""
    parts = hint.parts(spec, recorded)
    pairs = [(al, inv) for _, al, inv in parts]
    if len(parts) == 2:
        (up, al, inv), down = parts
        found = Found(al, inv, render_either(spec, (up, al, inv), down), down[1], hint.record(pairs))
    else:
        _, al, inv = parts[0]
        found = Found(al, inv, render(spec, al, inv), hint=hint.record(pairs))
    key = (spec.path, spec.sha256, spec.name)
    before = _DECIDED.get(key)
    _DECIDED[key] = found
    try:
        yield
    finally:
        if before is None:
            _DECIDED.pop(key, None)
        else:
            _DECIDED[key] = before


class ByGenericAlignment(Route[AlignSpec, Decided]):
    name = "by alignment (generic)"

    def analyse(self, spec: AlignSpec) -> Analysed[Decided]:
        r = decide(spec)
        if spec.continuous:
            return Analysed(r, _at_length(spec, r) if spec.length is not None else _every_length(spec, r))
        if isinstance(r, Found):
            return Analysed(r, _plan(Verdict.PROVED, (r.note,), _vacuity(spec)))
        more = f"; falling back to enumeration at small k: {spec.fallback}" if spec.fallback else \
            "; no fallback spec to enumerate (give `fallback:`)"
        return Analysed(r, _plan(Verdict.UNDECIDED, (f"no alignment found: {r.reason}{more}",)))

    def hint(self, u: Unfolded[AlignSpec, Decided]) -> dict[str, Any] | None:
        r = u.mechanism
        return r.hint if isinstance(r, Found) and _takes_hint(u.spec) else None

    def adopt(self, spec: AlignSpec, recorded: Any) -> AbstractContextManager[None]:
        if not _takes_hint(spec):
            raise HintError("the certificate records an alignment, this claim's file takes none")
        return adopted(spec, recorded)

    def render(self, spec: AlignSpec, a: Analysed[Decided]) -> Rendered:
        r = a.mechanism
        if isinstance(r, Found) and not spec.continuous and r.rendered is not None:   # the discrete form's
            return r.rendered
        if isinstance(r, Found) and a.plan.expected == Verdict.PROVED and r.invariant is not None:
            return render_laplace_all_k.render(spec, r.alignment, r.invariant)   # every length, over the reals
        if isinstance(r, Found) and a.plan.expected == Verdict.PROVED:   # at a fixed length, over the reals
            return render_laplace.render(spec, r.alignment)
        return Rendered(spec.name, DocumentBuilder().build(spec.name, "", PRELUDE), ())

    def describe(self, u: Unfolded[AlignSpec, Decided]) -> Description:
        item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems)}
        item["noise"] = u.spec.noise
        lines = [f"{u.spec.name} ({u.spec.path}): claim ({u.spec.epsilon_text}, 0)-DP",
                 f"  neighbours: {u.spec.neighbours}", f"  noise: {NOISE_TEXT[u.spec.noise]}",
                 *(f"  {n}" for n in u.plan.notes)]
        return item, lines


def _takes_hint(spec: AlignSpec) -> bool:
    """Whether the claim's file is rendered from one recorded alignment and invariant: the
    discrete form's (every length), and over the reals for every length with one alignment (the
    monotone relation's two are not rendered over the reals; at one length the loop unrolls and
    takes no invariant).  `verify` then renders from the record instead of searching and mining."""
    if not spec.continuous:
        return spec.length is None
    return spec.length is None and spec.relation.kind != "monotone"


NOISE_TEXT = {"discrete_laplace": "discrete Laplace (two-sided geometric) at every sampling site",
              "laplace": "continuous Laplace (over the reals) at every sampling site"}


def _at_length(spec: AlignSpec, r: Decided) -> Plan:
    """A continuous-noise claim at one stream length: the loop unrolls over the reals."""
    if isinstance(r, NotFound):
        return _plan(Verdict.UNDECIDED, (f"continuous Laplace noise at stream length {spec.length}: "
                                         f"no alignment found ({r.reason}); nothing is claimed",))
    why = render_laplace.unsupported(spec, r.alignment)
    if why:
        return _plan(Verdict.UNDECIDED, (f"continuous Laplace noise at stream length {spec.length}: {why}; "
                                         "nothing is claimed",))
    return _plan(Verdict.PROVED, (f"{r.note}; over the reals at stream length {spec.length}",), _vacuity(spec))


def _every_length(spec: AlignSpec, r: Decided) -> Plan:
    """A continuous-noise claim for every stream length: the discrete form's alignment and loop
    invariant, read over the reals (one alignment; the monotone relation joins two)."""
    if not isinstance(r, Found) or r.invariant is None or r.down is not None:
        return _plan(Verdict.UNDECIDED, (continuous_note(r),))
    why = render_laplace_all_k.unsupported(spec, r.alignment)
    if why:
        return _plan(Verdict.UNDECIDED, (f"continuous Laplace noise for every stream length: {why}; "
                                         "nothing is claimed",))
    return _plan(Verdict.PROVED, (f"{r.note}; over the reals for every stream length",), _vacuity(spec))


def continuous_note(r: Decided) -> str:
    """Why a continuous-noise claim for every stream length is undecided: no alignment was
    found (the search runs the discrete form of the program), or the one found joins two
    alignments (neighbours all up or all down), which is not rendered over the reals yet."""
    if isinstance(r, Found):
        return ("continuous Laplace noise: the proof over the reals for every stream length does not join two "
                "alignments yet (neighbours all up or all down), so nothing is claimed; the search found them for "
                f"the discrete form ({r.note})")
    return f"continuous Laplace noise: no alignment found ({r.reason}), so nothing is claimed over the reals"


def fallback_claims(spec: AlignSpec) -> list[Any]:
    """The spec; and when no alignment is found, its fallback's finite claims after it."""
    if spec.fallback is None or isinstance(decide(spec), Found):
        return [spec]
    data, file, sha = read(spec.fallback)
    return [spec, *expand_program(check_program(data, file, sha))]


def _plan(expected: Verdict, notes: tuple[str, ...], vacuous: tuple[str, ...] = ()) -> Plan:
    return Plan(expected=expected, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=math.nan, notes=notes, vacuous=vacuous)


def _vacuity(spec: AlignSpec) -> tuple[str, ...]:
    """Why the claim holds for any program, if it does: neighbouring streams are equal."""
    if spec.relation.delta == 0:
        return (f"the stream {spec.stream}'s neighbours differ by at most 0, so neighbouring streams are equal: "
                "the claim holds for any program",)
    return ()


BY_GENERIC_ALIGNMENT = ByGenericAlignment()
