"""The alignment and loop invariant the search found, as a certificate records them.

`prove` searches the shifts and mines the invariant (`synth`); the certificate records
both (`record`), and `verify` renders the Coq file from the recorded ones (`adopt`)
instead of searching and mining again.  Nothing here is trusted: the shifts and the
invariant are hints of the generated file (its `NAME_shift`, `NAME_arith`), the
theorem's statement comes from the spec alone, and a wrong hint leaves the file
unproved (Coq disposes).  A malformed one is refused before Coq runs (`HintError`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from typing import Any

from obligations.core.model import HintError
from obligations.program.align import synth
from obligations.program.align.spec import AlignSpec, Relation

WHAT = ("the alignment (a shift per sampling site) and the loop invariant the search found: verify renders "
        "the Coq file from them instead of searching again; they are hints, Coq checks them (a wrong one "
        "leaves the file unproved) and the theorem's statement comes from the spec alone")
MODES = ("none", "next", "index")
OPS = ("=", "<=", "<>")
_NAME = re.compile(r"(?:[lra](\d+)|acc|J|D|w)\Z")


# ---------------------------------------------------------------- to JSON


def _term(t: synth.Term) -> list[int]:
    return [t.c, t.b]


def _lin(e: synth.Lin) -> dict[str, Any]:
    return {"terms": [[n, str(c)] for n, c in e.terms], "const": str(e.const)}


def _atom(a: synth.Atom) -> list[Any]:
    return [a.op, _lin(a.lhs), _lin(a.rhs)]


def _one(al: synth.Alignment, inv: synth.Invariant) -> dict[str, Any]:
    return {"shifts": [{"mode": r.mode, "t": _term(r.t), "f": _term(r.f)} for r in al.rules],
            "invariant": [{"guard": [_atom(a) for a in p.guard], "atoms": [_atom(a) for a in p.atoms]}
                          for p in inv.phases]}


def record(parts: list[tuple[synth.Alignment, synth.Invariant]]) -> dict[str, Any]:
    """The hint: one alignment and invariant, or two (answers up, then down: `monotone`)."""
    return {"what": WHAT, "parts": [_one(al, inv) for al, inv in parts]}


# ---------------------------------------------------------------- from JSON


def _int(v: Any, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise HintError(f"{where}: not an integer: {v!r}")
    return v


def _frac(v: Any, where: str) -> Fraction:
    try:
        return Fraction(str(v)) if isinstance(v, str) else Fraction(_int(v, where))
    except (ValueError, ZeroDivisionError):
        raise HintError(f"{where}: not a rational: {v!r}") from None


def _list(v: Any, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise HintError(f"{where}: not a list")
    return v


def _term_of(v: Any, where: str) -> synth.Term:
    c, b = (_int(x, where) for x in _pair(v, where))
    if b not in (0, 1):
        raise HintError(f"{where}: the factor of (center - center') is 0 or 1, not {b}")
    return synth.Term(c, b)


def _pair(v: Any, where: str) -> list[Any]:
    out = _list(v, where)
    if len(out) != 2:
        raise HintError(f"{where}: not a pair")
    return out


def _rule_of(v: Any, where: str, has_index: bool) -> synth.Rule:
    if not isinstance(v, dict) or set(v) != {"mode", "t", "f"}:
        raise HintError(f"{where}: a shift is {{mode, t, f}}")
    if v["mode"] not in MODES or (v["mode"] == "index" and not has_index):
        raise HintError(f"{where}: mode {v['mode']!r} is not one of the program's ({', '.join(MODES)})")
    return synth.Rule(v["mode"], _term_of(v["t"], f"{where}.t"), _term_of(v["f"], f"{where}.f"))


def _lin_of(v: Any, where: str, nvars: int) -> synth.Lin:
    if not isinstance(v, dict) or set(v) != {"terms", "const"}:
        raise HintError(f"{where}: a linear expression is {{terms, const}}")
    terms = []
    for n, t in enumerate(_list(v["terms"], where)):
        name, coef = _pair(t, f"{where}.terms[{n}]")
        m = _NAME.match(name) if isinstance(name, str) else None
        if m is None or (m.group(1) is not None and int(m.group(1)) >= nvars):
            raise HintError(f"{where}.terms[{n}]: {name!r} names no variable of the invariant")
        terms.append((name, _frac(coef, f"{where}.terms[{n}]")))
    return synth.Lin(tuple(terms), _frac(v["const"], f"{where}.const"))


def _atom_of(v: Any, where: str, nvars: int) -> synth.Atom:
    op, lhs, rhs = _triple(v, where)
    if op not in OPS:
        raise HintError(f"{where}: the relation {op!r} is not one of {', '.join(OPS)}")
    return synth.Atom(op, _lin_of(lhs, f"{where}[1]", nvars), _lin_of(rhs, f"{where}[2]", nvars))


def _triple(v: Any, where: str) -> list[Any]:
    out = _list(v, where)
    if len(out) != 3:
        raise HintError(f"{where}: an atom is [relation, lhs, rhs]")
    return out


def _found(spec: AlignSpec, v: Any, where: str) -> tuple[synth.Alignment, synth.Invariant]:
    """The alignment and invariant recorded for `spec`; what they do not say (the sites, the
    cost's units and bound, the prophecies) follows from the spec as the search's does."""
    if not isinstance(v, dict) or set(v) != {"shifts", "invariant"}:
        raise HintError(f"{where}: a part is {{shifts, invariant}}")
    ss = synth.sites(spec.body)
    idx = synth.index_mode(spec.body)
    raw = _list(v["shifts"], f"{where}.shifts")
    if len(raw) != len(ss):
        raise HintError(f"{where}.shifts: {len(raw)} shifts for the program's {len(ss)} sampling sites")
    rules = tuple(_rule_of(r, f"{where}.shifts[{n}]", idx is not None) for n, r in enumerate(raw))
    W = synth.units(spec, ss)
    _, loop = synth.the_loop(spec.body)
    index = idx if any(r.mode == "index" for r in rules) else None
    al = synth.Alignment(rules, W, int(spec.factor * W), any(r.mode == "next" for r in rules), index, ss, loop.x)
    phases = []
    for n, p in enumerate(_list(v["invariant"], f"{where}.invariant")):
        w = f"{where}.invariant[{n}]"
        if not isinstance(p, dict) or set(p) != {"guard", "atoms"}:
            raise HintError(f"{w}: a phase is {{guard, atoms}}")
        phases.append(synth.Phase(tuple(_atom_of(a, f"{w}.guard[{i}]", spec.nvars)
                                        for i, a in enumerate(_list(p["guard"], f"{w}.guard"))),
                                  tuple(_atom_of(a, f"{w}.atoms[{i}]", spec.nvars)
                                        for i, a in enumerate(_list(p["atoms"], f"{w}.atoms")))))
    if not phases:
        raise HintError(f"{where}.invariant: no phase")
    inv = synth.Invariant(phases, index, spec.relation.kind in ("one", "l1"),
                          synth.live_at_head(spec.body, spec.nvars))
    return al, inv


def parts(spec: AlignSpec, hint: Any) -> list[tuple[AlignSpec, synth.Alignment, synth.Invariant]]:
    """The recorded hint read against the spec: one part, or for the monotone relation the
    part for answers up and the part for answers down (each with its own spec, as the search
    makes them)."""
    if not isinstance(hint, dict) or set(hint) != {"what", "parts"}:
        raise HintError("the recorded alignment is {what, parts}")
    raw = _list(hint["parts"], "parts")
    specs = [spec] if spec.relation.kind != "monotone" else [
        replace(spec, name=f"{spec.name}_{suffix}", relation=Relation(kind, spec.relation.delta))
        for kind, suffix in (("increasing", "up"), ("decreasing", "down"))]
    if len(raw) != len(specs):
        raise HintError(f"parts: {len(raw)} recorded, the spec's relation has {len(specs)}")
    return [(s, *_found(s, p, f"parts[{n}]")) for n, (s, p) in enumerate(zip(specs, raw, strict=True))]
