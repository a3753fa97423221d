"""Templates: the jinja2 environment, rendering a template into a `Document`, and what
every kind's document shares (the bound on e^ε and its candidate proofs)."""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jinja2

from obligations import __version__
from obligations.core.audit import audit_tail
from obligations.core.document import PRELUDE_MARK, Choices, Document, DocumentBuilder, Tactic
from obligations.core.terms import comment, q_lit

# The logical directory of shared modules: compiled once into the build's `.shared/`,
# required by the generated files that use them, carried by their certificates.
SHARED_LIBRARY = "Obligations.Shared"
HASH_DIGITS = 16   # hex digits of the SHA-256 of its text that name a shared module


@dataclass(frozen=True)
class SharedModule:
    """A Coq module several generated files require (a certified table): its name is
    its prefix and the first hex digits of the SHA-256 of its text, which does not name
    itself; so the same content has one name, and a name one content."""

    prefix: str
    text: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def name(self) -> str:
        return f"{self.prefix}_{self.sha256[:HASH_DIGITS]}"

    @property
    def logical(self) -> str:
        return f"{SHARED_LIBRARY}.{self.name}"


def name_matches_text(name: str, text: str) -> bool:
    """Whether a shared module's name is the hash of this text."""
    prefix, _, digest = name.rpartition("_")
    return bool(prefix) and digest == hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_DIGITS]


@dataclass(frozen=True)
class Rendered:
    """A rendered Coq file (a document with proof slots) and what it claims."""

    module: str                 # the file's module name (= the spec's name)
    document: Document
    theorems: tuple[str, ...]   # the theorems the certificate rests on, in order
    shared: tuple[SharedModule, ...] = ()   # the shared modules the file requires
    lemmas: tuple[Any, ...] = ()            # its obligations in readable form, for `show` (pipelines)

    @cached_property
    def text(self) -> str:
        """The file with every obligation proved by its first candidate."""
        return self.document.fill()

    def uses_interval(self, choices: Choices | None = None) -> bool:
        return self.document.prelude_for(choices) in INTERVAL_PRELUDES

    def uses_analysis(self, choices: Choices | None = None) -> bool:
        return self.document.prelude_for(choices) in ANALYSIS_PRELUDES


INTERVAL_PRELUDE = "PreludeInterval"
# Preludes whose files prove goals with `interval` (its primitive-integer axioms are allowed):
# the floating-point kind's proves its logarithm table with it, the calibrated kind its brackets;
# the PLD route of a composed claim evaluates the convolution power in primitive-float intervals,
# the accountant in floats rounded down;
# a binary snapping claim decides float_snap_dp's (or the two-sided theorem's) premises at concrete
# values; the discrete Gaussian's Rényi bound takes an interval around its exponential.
INTERVAL_PRELUDES = frozenset({INTERVAL_PRELUDE, "PreludeFloat", "PreludeReal", "PreludePLD", "PreludeBinary",
                               "PreludeBinaryTwo", "PreludeBinaryTwoSided", "PreludeBinaryPieces", "PreludeAcc",
                               "PreludeRenyi"})

# Preludes of the files about continuous noise, stated with mathcomp-analysis (its axioms are allowed)
ANALYSIS_PRELUDES = frozenset({"PreludeLaplace", "PreludeLaplaceRefute", "PreludeLaplaceRatio", "PreludeLaplaceCover",
                               "PreludeLaplaceAll"})

# Proofs of the bound on e^ε the prover may try when the proposed one fails.
BOUND_TACTICS = (Tactic("exp_exact."), Tactic("exp_exact_upper."),
                 Tactic("unfold Q2R; simpl; interval.", INTERVAL_PRELUDE),
                 Tactic("unfold Q2R; simpl; interval with (i_prec 100).", INTERVAL_PRELUDE),
                 Tactic("unfold Q2R; simpl; interval with (i_prec 300).", INTERVAL_PRELUDE))


HEADER = Path(__file__).parent   # header.v.j2, the macro every template begins with


def header(name: str, path: str, sha256: str, description: str) -> dict[str, str]:
    """What the header every template begins with reads: the spec's name, the tool's version,
    the spec file and its hash, the description (both in comments)."""
    return dict(name=name, version=__version__, spec_path=comment(Path(path).name), spec_sha=sha256,
                description=comment(description or name))


def environment(folders: Sequence[Path]) -> jinja2.Environment:
    """One environment per list of folders and process: jinja compiles a template once and keeps it
    (it checks the file's time on each use), where a new environment per render compiled it again."""
    return _environment(tuple(folders))


@cache
def _environment(folders: tuple[Path, ...]) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(f) for f in folders]), undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False)


def render(template: Path, module: str, ctx: dict[str, Any], prelude: str, theorems: tuple[str, ...],
           stronger: tuple[str, ...] = (), session_first: bool = False,
           shared: tuple[SharedModule, ...] = ()) -> Rendered:
    """Render a template (a kind's, beside its code) into a document: `obligation(name,
    statement, tactics)` in the template marks a proof slot, `prelude` the module the file
    imports; the file ends with the audit of `theorems` (what the certificate rests on)."""
    builder = DocumentBuilder()
    text = environment([template.parent, HEADER]).get_template(template.name).render(
        **ctx, obligation=builder.obligation, prelude=PRELUDE_MARK)
    document = builder.build(module, text + audit_tail(theorems), prelude, stronger, session_first)
    return Rendered(module, document, theorems, shared)


def render_text(template: Path, ctx: dict[str, Any]) -> str:
    """A template without proof slots (a shared module's text)."""
    return environment([template.parent]).get_template(template.name).render(**ctx)


def exp_obligation(name: str, o: dict[str, Any], epsilon: str) -> dict[str, Any]:
    """The lemma bounding e^ε (below to prove, above to refute) and its candidate proofs."""
    if o["upper"]:
        lemma, statement = f"{name}_exp_upper", f"(exp ({epsilon}) <= Q2R {o['bound']})%R"
        first = Tactic("exp_exact_upper.") if o["method"] == "exact" else None
    else:
        lemma, statement = f"{name}_exp_lower", f"(Q2R {o['bound']} <= exp ({epsilon}))%R"
        first = Tactic("exp_exact.") if o["method"] == "exact" else None
    hint = o.get("taylor")
    if first is None and o["method"] == "taylor" and hint is not None:
        tactic = "exp_taylor_upper" if o["upper"] else "exp_taylor_lower"
        first = Tactic(f"{tactic} {q_lit(hint.x)} {hint.split}%nat {hint.terms}%nat.")
    if first is None:
        first = Tactic(f"unfold Q2R; simpl. interval with (i_prec {o['bits']}).", INTERVAL_PRELUDE)
    tactics = (first, *(t for t in BOUND_TACTICS if t.script != first.script))
    return {**o, "lemma": lemma, "statement": statement, "tactics": tactics}
