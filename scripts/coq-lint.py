"""The house rules of the Coq library, checked on its sources (`make lint`).

    python scripts/coq-lint.py [FILE.v ...]   (default: every file of obligations/theories/_CoqProject,
                                              and the templates obligations/**/*.v.j2 for the first rule)

- nothing assumed: no `Admitted`, `admit`, `give_up`, `Axiom(s)`, `Parameter(s)`, `Conjecture`,
  and no `Variable`/`Hypothesis`/`Context` outside a section (there they are axioms);
- every file opens with its `(** * Title *)` header (one concept per file);
- lemma names start with a lowercase letter (type first: `subdistr_mass_le`);
- every `Require` at the top, before the first definition, lemma or section;
- no bare `simpl` in a file that loads the reals (use `cbn [..]` or `change`: `simpl` unfolds
  real-number terms unpredictably); `simpl f` restricted to a constant is allowed.
Comments and strings are ignored.  Exit 1 with one line per violation (file:line: rule).
"""
from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
THEORIES = REPO / "obligations" / "theories"

ASSUMED = re.compile(r"\b(Admitted|admit|give_up|Axioms?|Parameters?|Conjecture)\b")
SECTION_LOCAL = re.compile(r"^\s*(Variables?|Hypothes[ie]s|Context)\b", re.M)
LEMMA = re.compile(r"^\s*(?:Local\s+|Global\s+)?(Lemma|Theorem|Corollary|Proposition|Fact|Remark|Example)"
                   r"\s+([^\s:({\[]+)", re.M)
REQUIRE = re.compile(r"^\s*(?:From\s+\S+\s+)?Require\b", re.M)
BODY_START = re.compile(r"^\s*(?:Local\s+|Global\s+|#\[[^\]]*\]\s*)?(Definition|Fixpoint|CoFixpoint|Lemma|Theorem|"
                        r"Corollary|Proposition|Fact|Remark|Example|Inductive|CoInductive|Variant|Record|"
                        r"Structure|Class|Instance|Section|Module|Ltac|Notation|Let|Hint|Arguments)\b", re.M)
BARE_SIMPL = re.compile(r"\bsimpl\b(?!\s+[A-Za-z_(])|\bsimpl(?=\s+in\b)")
SECTION = re.compile(r"^\s*(Section|End)\s+([A-Za-z_][A-Za-z0-9_']*)\s*\.", re.M)
HEADER = re.compile(r"\A\s*\(\*\* \* \S")


def blank_comments(text: str) -> str:
    """`text` with its (nested) comments and strings replaced by spaces, newlines kept, so
    that offsets and line numbers stay those of the source."""
    out = list(text)
    depth, i, in_string = 0, 0, False
    while i < len(text):
        two = text[i:i + 2]
        if not depth and text[i] == '"':
            in_string = not in_string
            out[i] = " "
        elif in_string:
            out[i] = " " if text[i] != "\n" else "\n"
        elif two == "(*":
            depth += 1
            out[i] = out[i + 1] = " "
            i += 1
        elif two == "*)" and depth:
            depth -= 1
            out[i] = out[i + 1] = " "
            i += 1
        elif depth and text[i] != "\n":
            out[i] = " "
        i += 1
    return "".join(out)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def outside_sections(code: str) -> Iterator[int]:
    """Offsets of `Variable`/`Hypothesis`/`Context` commands not inside a section."""
    events = sorted([(m.start(), m.group(1)) for m in SECTION.finditer(code)]
                    + [(m.start(), "local") for m in SECTION_LOCAL.finditer(code)])
    depth = 0
    for offset, kind in events:
        if kind == "Section":
            depth += 1
        elif kind == "End":
            depth = max(depth - 1, 0)   # also ends modules: a module end outside a section is harmless
        elif depth == 0:
            yield offset


def check_assumed(path: Path, code: str) -> list[str]:
    problems = [f"{path}:{line_of(code, m.start())}: `{m.group(1)}` (nothing may be assumed)"
                for m in ASSUMED.finditer(code)]
    problems += [f"{path}:{line_of(code, o)}: `Variable`/`Hypothesis`/`Context` outside a section (an axiom)"
                 for o in outside_sections(code)]
    return problems


def check_library_file(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    code = blank_comments(text)
    problems = check_assumed(path, code)
    if not HEADER.match(text):
        problems.append(f"{path}:1: no `(** * Title *)` header at the top")
    for m in LEMMA.finditer(code):
        name = m.group(2)
        if not name[0].islower():
            problems.append(f"{path}:{line_of(code, m.start(2))}: lemma name {name} does not start lowercase")
    first_body = BODY_START.search(code)
    if first_body is not None:
        for m in REQUIRE.finditer(code, first_body.start()):
            problems.append(f"{path}:{line_of(code, m.start())}: `Require` below the first definition "
                            "(every Require at the top)")
    loads_reals = re.search(r"\bRequire\b[^.]*\b(Reals|Rbase|Rdefinitions|Lra|Obligations)\b", code)
    if loads_reals:
        problems += [f"{path}:{line_of(code, m.start())}: bare `simpl` in a file about reals (cbn [..] or change)"
                     for m in BARE_SIMPL.finditer(code)]
    return problems


def jinja_as_coq(text: str) -> str:
    """A template's text with each Jinja expression an identifier and its statements and
    comments blank (newlines kept)."""
    text = re.sub(r"\{\{.*?\}\}", "x", text, flags=re.S)
    return re.sub(r"\{%.*?%\}|\{#.*?#\}", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


def library_files() -> list[Path]:
    lines = (THEORIES / "_CoqProject").read_text().splitlines()
    return [THEORIES / ln.strip() for ln in lines if ln.strip().endswith(".v")]


def main(argv: list[str]) -> int:
    if argv:
        problems = [p for a in argv for p in check_library_file(Path(a))]
    else:
        problems = [p for f in library_files() for p in check_library_file(f)]
        for t in sorted((REPO / "obligations").rglob("*.v.j2")):
            problems += check_assumed(t, blank_comments(jinja_as_coq(t.read_text())))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
