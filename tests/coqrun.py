"""coqc on a file a Coq test writes or edits, and what its `Print Assumptions` printed: one
helper for the tests that compile Coq themselves instead of going through `prove` (a library
lemma's statement, a hand-written proof, a claim Coq must refuse)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.core.resources import THEORIES


def coqc(folder: Path, name: str, text: str | None = None, *, logical: str | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """coqc on `folder/name.v` (first written with `text` if given), run in `folder`, with the
    library as `Obligations` and, if `logical` is given, `folder` as that logical path (for
    files that load each other)."""
    vfile = folder / f"{name}.v"
    if text is not None:
        vfile.write_text(text, encoding="utf-8")
    argv = ["coqc", "-Q", str(THEORIES), "Obligations"]
    if logical is not None:
        argv += ["-Q", str(folder), logical]
    return subprocess.run([*argv, vfile.name], cwd=folder, capture_output=True, text=True, timeout=timeout)


def assumption_blocks(stdout: str) -> list[list[str]]:
    """The lines of each `Print Assumptions` output of a coqc run, in order (each from its
    `Axioms:` on)."""
    return [("Axioms:" + block).splitlines() for block in stdout.split("Axioms:")[1:]]


def one_audit(text: str, theorems: tuple[str, ...]) -> str:
    """`text` with its `Print Assumptions` of each of `theorems` (its last lines) replaced by one of
    their tuple: the union of their assumptions, in one traversal of what they share (the
    library's interval proofs: ~4 s CPU each, once for the tuple)."""
    tail = "".join(f"Print Assumptions {t}.\n" for t in theorems)
    assert text.endswith(tail), text[-500:]
    return text[:-len(tail)] + tuple_audit(theorems)


def tuple_audit(theorems: tuple[str, ...]) -> str:
    """One `Print Assumptions` of the tuple of `theorems` (`@`: no implicit argument to infer)."""
    name = "audit_" + theorems[0]
    return f"Definition {name} := ({', '.join('@' + t for t in theorems)}).\nPrint Assumptions {name}.\n"
