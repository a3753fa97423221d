"""A rendered Coq file as a document: fixed text, and proof slots.

The renderer decides every character of a generated file except the proof
scripts of its obligations.  Each obligation is a slot with the statement and
the candidate tactic scripts the renderer proposes; the prover may fill a slot
only with one of them.  `verify` and the prove cache re-render the document
from the spec and require the file on disk to be `fill(choices)` for choices
drawn from the candidates, byte for byte: no other text can hide in a file.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# Sentinels the template environment writes where a slot or the prelude goes.
# They contain NUL, which no rendered text may contain (comments escape it).
_SENTINEL = re.compile("\x00(SLOT\\d+|PRELUDE)\x00")
PRELUDE_MARK = "\x00PRELUDE\x00"


class DocumentError(ValueError):
    """A fill that the document does not allow (the message says which slot)."""


@dataclass(frozen=True)
class Tactic:
    """A candidate proof script and the prelude it needs (None: the document's)."""

    script: str
    prelude: str | None = None


@dataclass(frozen=True)
class Slot:
    """An obligation: `Lemma name : statement.` whose proof is one of `candidates`."""

    name: str
    statement: str
    candidates: tuple[Tactic, ...]

    def scripts(self) -> tuple[str, ...]:
        return tuple(t.script for t in self.candidates)

    def text(self, script: str) -> str:
        return f"Lemma {self.name} : {self.statement}.\nProof. {script} Qed."


Choices = Mapping[str, str]   # slot name -> chosen script


@dataclass(frozen=True)
class Document:
    """Text chunks around slots: chunks[0] slots[0] chunks[1] ... slots[-1] chunks[-1]."""

    module: str
    chunks: tuple[str, ...]
    slots: tuple[Slot, ...]
    prelude: str                     # the base prelude module the file imports
    stronger_preludes: tuple[str, ...] = ()   # preludes that include the base one, weakest first
    session_first: bool = False      # discharge every slot in a session before compiling

    @classmethod
    def verbatim(cls, module: str, text: str, prelude: str = "Prelude") -> Document:
        """A document with no slots: a hand-written file, for checking what Coq makes of it."""
        return cls(module, (text,), (), prelude)

    def defaults(self) -> dict[str, str]:
        return {s.name: s.candidates[0].script for s in self.slots}

    def resolve(self, choices: Choices | None = None) -> dict[str, Tactic]:
        """The chosen candidate of every slot (default: the first); refuses anything else."""
        choices = dict(choices or {})
        unknown = sorted(set(choices) - {s.name for s in self.slots})
        if unknown:
            raise DocumentError(f"no such obligation in the document: {', '.join(unknown)}")
        out: dict[str, Tactic] = {}
        for s in self.slots:
            script = choices.get(s.name, s.candidates[0].script)
            tactic = next((t for t in s.candidates if t.script == script), None)
            if tactic is None:
                raise DocumentError(f"the proof of {s.name} is not one the renderer proposes: {script!r}")
            out[s.name] = tactic
        return out

    def prelude_for(self, choices: Choices | None = None) -> str:
        """The prelude the chosen proofs need."""
        return self._strongest(self.resolve(choices).values())

    def strongest_prelude(self, slot: Slot) -> str:
        """The prelude under which every candidate of `slot` can be tried."""
        return self._strongest(slot.candidates)

    def _strongest(self, tactics: Iterable[Tactic]) -> str:
        needed = {t.prelude for t in tactics if t.prelude}
        return next((p for p in reversed(self.stronger_preludes) if p in needed), self.prelude)

    def fill(self, choices: Choices | None = None, prelude: str | None = None) -> str:
        """The Coq file with these proofs (each one of its slot's candidates)."""
        chosen = self.resolve(choices)
        prelude = prelude or self.prelude_for(choices)
        parts = [self.chunks[0].replace(PRELUDE_MARK, prelude)]
        for slot, chunk in zip(self.slots, self.chunks[1:], strict=False):
            parts.append(slot.text(chosen[slot.name].script))
            parts.append(chunk.replace(PRELUDE_MARK, prelude))
        return "".join(parts)

    def before(self, name: str, choices: Choices | None = None, prelude: str | None = None) -> str:
        """The filled text that precedes obligation `name` (what a session must run first)."""
        text = self.fill(choices, prelude)
        return text[:self.offset(name, choices, prelude)]

    def offset(self, name: str, choices: Choices | None = None, prelude: str | None = None) -> int:
        chosen = self.resolve(choices)
        prelude = prelude or self.prelude_for(choices)
        pos = len(self.chunks[0].replace(PRELUDE_MARK, prelude))
        for slot, chunk in zip(self.slots, self.chunks[1:], strict=False):
            if slot.name == name:
                return pos
            pos += len(slot.text(chosen[slot.name].script)) + len(chunk.replace(PRELUDE_MARK, prelude))
        raise DocumentError(f"the document has no obligation {name}")

    def slot_at_line(self, line: int, choices: Choices | None = None) -> Slot | None:
        """The obligation whose text spans 1-based `line` of the filled file, if any."""
        text = self.fill(choices)
        chosen = self.resolve(choices)
        for s in self.slots:
            start = text.count("\n", 0, self.offset(s.name, choices)) + 1
            if start <= line <= start + s.text(chosen[s.name].script).count("\n"):
                return s
        return None


class DocumentBuilder:
    """Collects slots while a template renders; `build` splits the output at the sentinels."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []

    def obligation(self, name: str, statement: str, candidates: tuple[Tactic, ...] | list[Tactic]) -> str:
        if not candidates:
            raise DocumentError(f"obligation {name} has no candidate proof")
        if any(s.name == name for s in self.slots):
            raise DocumentError(f"obligation {name} appears twice")
        self.slots.append(Slot(name, statement, tuple(candidates)))
        return f"\x00SLOT{len(self.slots) - 1}\x00"

    def build(self, module: str, rendered: str, prelude: str,
              stronger_preludes: tuple[str, ...] = (), session_first: bool = False) -> Document:
        pieces = _SENTINEL.split(rendered)
        chunks: list[str] = [pieces[0]]
        order: list[int] = []
        for tag, text in zip(pieces[1::2], pieces[2::2], strict=False):
            if tag == "PRELUDE":
                chunks[-1] += PRELUDE_MARK + text
            else:
                order.append(int(tag[4:]))
                chunks.append(text)
        if order != list(range(len(self.slots))):
            raise DocumentError("the template wrote its obligations out of order or twice")
        if any("\x00" in c.replace(PRELUDE_MARK, "") for c in chunks):
            raise DocumentError("a NUL character reached the rendered text")
        return Document(module, tuple(chunks), tuple(self.slots), prelude, stronger_preludes, session_first)
