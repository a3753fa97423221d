"""Names that end up in Coq: checked before anything is rendered."""
from __future__ import annotations

import keyword
import re
import unicodedata
from pathlib import Path

from obligations.core.audit import MARKERS, TUPLE
from obligations.core.resources import TEMPLATES, THEORIES

# fullmatch, never `^...$`: `$` also matches before a trailing newline ("rr\n").
COQ_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}")

# Coq's keywords and the vernacular/tactic words that cannot be identifiers.
COQ_KEYWORDS = frozenset("""
_ Axiom CoFixpoint Definition Fixpoint Hypothesis IF Parameter Prop SProp Set Theorem Type Variable
as at by cofix else end exists exists2 fix for forall fun if in let match mod return then using where with
Lemma Proof Qed Admitted Defined Abort Require Import Export From Module Section End Let Local Global
Inductive CoInductive Record Structure Class Instance Context Notation Ltac Tactic Hint Print Check
Eval Compute Goal Example Remark Fact Corollary Proposition Open Close Scope Arguments
""".split())

# Names the generated file or our prelude already uses, and library modules whose
# names a generated module must not shadow (Interval's proofs rest on the primitive ones).
LIBRARY_NAMES = frozenset("""
dp distr subdistr fmech FMech n_in n_out rows entry prob pr event everything tabulate
nb_all nb_adjacent nb_list check_distr check_subdistr check_pointwise check_hockey check_witness
pr_q in_list qsum rsum exp ln x y Q R Z nat bool true false
Q2R IZR Rabs Prelude PreludeInterval PreludeSnap PrimInt63 Uint63 PrimFloat FloatAxioms SpecFloat
Coq Obligations Certs Interval Flocq Reals QArith ZArith Lia Lra List ListNotations
""".split())


_IDENT_TOKEN = re.compile(r"(?<![A-Za-z0-9_'])[A-Za-z_][A-Za-z0-9_']*")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
# A declaration: one of these words, not preceded by an identifier's character (checked by
# `declared_names`: a look-behind first in the pattern stops the regex engine from skipping
# to the words' first letters, and the scan took 4 times as long), then its name.
_DECLARATION = re.compile(
    r"(?:Definition|Fixpoint|CoFixpoint|Lemma|Theorem|Corollary|Proposition|Fact|"
    r"Remark|Example|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Notation|Ltac|"
    r"Let|Axiom|Parameter)\s+([A-Za-z_][A-Za-z0-9_']*)")
_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'")


def declared_names(code: str) -> list[str]:
    """The names `code` declares (Definition NAME, Lemma NAME, ...), in order."""
    names: list[str] = []
    m = _DECLARATION.search(code)
    while m is not None:
        start = m.start()
        if start and code[start - 1] in _IDENT_CHARS:   # inside a longer word: look again after its start
            m = _DECLARATION.search(code, start + 1)
            continue
        names.append(m.group(1))
        m = _DECLARATION.search(code, m.end())
    return names


_COMMENT_MARK = re.compile(r"\(\*|\*\)")


def _without_coq_comments(text: str) -> str:
    """`text` with its (nested) Coq comments removed: words in comments are not names.
    (A scan of the comment marks only: a loop over characters took a second at start-up.)"""
    out: list[str] = []
    depth, start = 0, 0
    for m in _COMMENT_MARK.finditer(text):
        if m.group() == "(*":
            if not depth:
                out.append(text[start:m.start()])
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                start = m.end()
    if not depth:
        out.append(text[start:])
    return "".join(out)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # an installed package without templates/ or theories/ reserves what it can


def template_names(directory: Path = TEMPLATES) -> frozenset[str]:
    """Lowercase identifiers the templates write literally (outside Jinja tags and comments):
    a spec named like one of them would redefine what the generated file refers to."""
    names: set[str] = set()
    for f in sorted(directory.rglob("*.v.j2")):
        code = _without_coq_comments(_JINJA.sub(" ", _read(f)))
        names.update(w for w in _IDENT_TOKEN.findall(code) if w[0].islower())
    return frozenset(names)


def theory_names(directory: Path = THEORIES) -> frozenset[str]:
    """Every name declared in theories/**/*.v, and the module and folder names themselves."""
    names: set[str] = set()
    for f in sorted(directory.rglob("*.v")):
        names.update(f.relative_to(directory).with_suffix("").parts)
        names.update(declared_names(_without_coq_comments(_read(f))))
    return frozenset(names)


# Computed once: a spec's name may not be any of these (it names a module and prefixes definitions).
_TEMPLATE_NAMES, _THEORY_NAMES = template_names(), theory_names()
# The audit every generated file ends with (core/audit.py) refers to its markers and defines TUPLE.
AUDIT_NAMES = frozenset({*MARKERS, TUPLE})
RESERVED = LIBRARY_NAMES | AUDIT_NAMES | _TEMPLATE_NAMES | _THEORY_NAMES

# What a renderer appends to a spec's name: `{{ name }}_dp` and `name ~ "_is_family"` in the
# templates, f"{name}_lo" (or f"{spec.name}_lo") in the renderers' code.
_TEMPLATE_SUFFIX = re.compile(r"\{\{\s*name\s*\}\}_([A-Za-z0-9_]+)|name\s*~\s*[\"']_([A-Za-z0-9_]+)[\"']")
_CODE_SUFFIX = re.compile(r"\{(?:[A-Za-z_][A-Za-z0-9_]*\.)?name\}_([A-Za-z0-9_]+)")


def renderer_folders(package: Path = TEMPLATES) -> tuple[Path, ...]:
    """The folders whose code and templates write Coq: core and every model (a folder of the
    package with a templates/ folder)."""
    try:
        models = sorted(d for d in package.iterdir() if (d / "templates").is_dir())
    except OSError:
        models = []
    return (package / "core", *models)


RENDERERS = renderer_folders()


def _files(folders: tuple[Path, ...], pattern: str) -> list[Path]:
    return [f for d in folders for f in sorted(d.rglob(pattern))]


def generated_suffixes(folders: tuple[Path, ...] = RENDERERS) -> frozenset[str]:
    """Every suffix a generated file puts after a spec's name (one ending in `_` is the start
    of a longer, numbered one)."""
    found: set[str] = set()
    for f in _files(folders, "*.v.j2"):
        found.update(a or b for a, b in _TEMPLATE_SUFFIX.findall(_read(f)))
    for f in _files(folders, "*.py"):
        found.update(_CODE_SUFFIX.findall(_read(f)))
    return frozenset(found)


SUFFIXES = generated_suffixes()


def referenced_names(folders: tuple[Path, ...] = RENDERERS, templates: frozenset[str] = _TEMPLATE_NAMES,
                     theories: frozenset[str] = _THEORY_NAMES) -> frozenset[str]:
    """The names a generated file may refer to: what the templates write literally, the
    names of LIBRARY_NAMES, and the library's names that the renderers' code writes (a
    library name nothing writes is resolved inside the library, where a generated file
    cannot shadow it)."""
    written: set[str] = set()
    for f in _files(folders, "*.py"):
        written.update(_IDENT_TOKEN.findall(_read(f)))
    return templates | LIBRARY_NAMES | AUDIT_NAMES | (theories & written)


REFERENCED = referenced_names()


def generated_clashes(name: str) -> list[str]:
    """The names the generated file would define from `name` that it also refers to as the
    library's or the templates' own: it would shadow them and then refer to its own."""
    clashes: set[str] = set()
    for s in SUFFIXES:
        full = f"{name}_{s}"
        if s.endswith("_"):
            clashes.update(r for r in REFERENCED if r.startswith(full))
        elif full in REFERENCED:
            clashes.add(full)
    return sorted(clashes)


def coq_name_problem(name: str) -> str | None:
    """Why `name` cannot be a Coq identifier of ours, or None if it can."""
    if not COQ_IDENT.fullmatch(name):
        return ("must start with a letter and contain only letters, digits and '_' "
                "(at most 63 characters)")
    if name in COQ_KEYWORDS or keyword.iskeyword(name):
        return f"{name!r} is a reserved word"
    if name in LIBRARY_NAMES:
        return f"{name!r} is already used by the Coq library"
    return None


def spec_name_problem(name: str) -> str | None:
    """Why `name` cannot be a spec's name (a Coq module name and the prefix of its
    definitions), or None if it can."""
    problem = coq_name_problem(name)
    if problem:
        return problem
    if name in RESERVED:
        return f"{name!r} is already used by the Coq library or the generated file"
    clashes = generated_clashes(name)
    if clashes:
        shown = ", ".join(clashes[:3]) + (f" and {len(clashes) - 3} more" if len(clashes) > 3 else "")
        return (f"{name!r} would make the generated file define {shown}, which the Coq library or the "
                "generated file already uses (choose another name)")
    if not "a" <= name[0] <= "z":
        # Every standard-library and theories/ module name is capitalised: none can be shadowed.
        return f"{name!r} must start with a lowercase letter (it becomes a Coq module name)"
    return None


# Bidirectional-text controls: they reorder how a comment is displayed (Trojan Source).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f" + "".join(map(chr, range(0x202A, 0x202F)))
                          + "".join(map(chr, range(0x2066, 0x206A))))


def unsafe_char(c: str) -> bool:
    """A character that must not reach a generated file verbatim: control characters
    (NUL, ESC, ...), lone surrogates and bidi controls."""
    return unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS


def text_problem(text: str, *, multiline: bool = False) -> str | None:
    """Why free text (a description or a label) is refused, or None if it is fine."""
    allowed = "\t\n\r" if multiline else ""
    bad = next((c for c in text if unsafe_char(c) and c not in allowed), None)
    if bad is None:
        return None
    return (f"contains the control character U+{ord(bad):04X}"
            f"{' (a bidirectional-text override)' if bad in BIDI_CONTROLS else ''}; "
            "write plain text")
