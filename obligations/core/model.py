"""The base of the four mechanism models (`table`, `program`, `noise`, `float`).

A model reads spec forms and proves their claims by routes:

- a `Form[SpecT]` is one way a spec file is written, recognised by what its YAML mapping
  says (`recognises`) and checked into its typed spec (`check`);
- a `Route[SpecT, AnalysisT]` is one way its claim is proved (by the table, by a library
  family, by the privacy-loss distribution, ...): a typed strategy from the spec to the
  analysis its document, witness and description read;
- a `Model` holds its forms in the order they are tried; it owns what every form and route
  shares: parsing the pydantic schema into one clear error, the choice of the route, the
  timing of analysis and render, and the layout of `show`.

Nothing outside a model asks which form or route a spec has: the registry
(`obligations.models`) asks the model, certify asks the `Unfolded` and its typed claim.
"""
from __future__ import annotations

import importlib
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from obligations.core.claims import Claim
from obligations.core.obligation import Plan
from obligations.core.spec import validation_error
from obligations.core.templates import Rendered
from obligations.errors import InternalError


class HintError(ValueError):
    """A certificate's recorded hint (`Route.hint`) that is not of the shape its route reads."""


class CheckedSpec(Protocol):
    """What every checked spec has; the rest is its form's own."""

    @property
    def path(self) -> str: ...

    @property
    def sha256(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def derived(self) -> Mapping[str, Any] | None: ...

    @property
    def claim(self) -> Claim: ...


SpecT = TypeVar("SpecT", bound=CheckedSpec)
AnalysisT = TypeVar("AnalysisT")
FormT = TypeVar("FormT", bound=BaseModel)
Witness = dict[str, Any]
Description = tuple[dict[str, Any], list[str]]   # what `show` prints: a JSON item, lines of text


@dataclass(frozen=True)
class Analysed(Generic[AnalysisT]):
    """What a route's exact analysis gives: its object and the plan (the verdict Python expects)."""

    mechanism: AnalysisT
    plan: Plan


@dataclass
class Unfolded(Generic[SpecT, AnalysisT]):
    """A spec analysed and rendered by a route: the analysis, the plan, the Coq document."""

    spec: SpecT
    mechanism: AnalysisT
    plan: Plan
    rendered: Rendered
    timings: dict[str, float]
    route: Route[SpecT, AnalysisT] | None = field(default=None, repr=False)

    @property
    def lemmas(self) -> tuple[Any, ...]:
        """The document's obligations in readable form, for `show` (pipelines)."""
        return self.rendered.lemmas

    @property
    def claim(self) -> Claim:
        return self.spec.claim

    def witness(self) -> Witness | None:
        """The refutation's witness, as certificates record it (the route's)."""
        return self.route.witness(self) if self.route is not None else None

    def hint(self) -> dict[str, Any] | None:
        """What the route's search found that the Coq file takes as a hint (the route's)."""
        return self.route.hint(self) if self.route is not None else None

    def describe(self, coq: bool) -> Description:
        """What `show` prints: the route's item and lines, and the Coq file if asked."""
        if self.route is None:
            raise InternalError(f"{self.spec.name}: unfolded by no route")
        item, lines = self.route.describe(self)
        if coq:
            item["coq"] = self.rendered.text
            lines.append(self.rendered.text)
        return item, lines


class Route(ABC, Generic[SpecT, AnalysisT]):
    """One way a model proves a claim: a typed strategy from the spec to its analysis,
    the Coq document, the witness of a refutation and what `show` says."""

    name: ClassVar[str]   # what `show` and the docs call it: "by table", "by the PLD", ...

    def applies(self, spec: SpecT) -> bool:
        """Whether the spec asks for this route (cheap: what the spec says)."""
        return True

    @abstractmethod
    def analyse(self, spec: SpecT) -> Analysed[AnalysisT] | None:
        """The exact analysis and the plan; None when the route turns out not to fit (the
        next route is tried)."""

    @abstractmethod
    def render(self, spec: SpecT, a: Analysed[AnalysisT]) -> Rendered:
        """The Coq document of the claim."""

    def witness(self, u: Unfolded[SpecT, AnalysisT]) -> Witness | None:
        return None

    def hint(self, u: Unfolded[SpecT, AnalysisT]) -> dict[str, Any] | None:
        """What a search found that the Coq file only takes as a hint (Coq checks it: an
        alignment, an invariant), recorded in the certificate so that `verify` can `adopt` it
        instead of searching again; None: the route has none."""
        return None

    def adopt(self, spec: SpecT, recorded: Any) -> AbstractContextManager[None]:
        """Within the context, analyse `spec` with the hint a certificate records, not by
        searching (`HintError` on entry: the record is not this route's hint).  By default there
        is nothing to adopt."""
        return nullcontext()

    @abstractmethod
    def describe(self, u: Unfolded[SpecT, AnalysisT]) -> Description:
        """What `show` prints (without the Coq file, which the base appends)."""


@dataclass(frozen=True)
class Form(Generic[SpecT]):
    """One spec form of a model: recognised by what a YAML mapping says, checked into its
    typed spec, and proved by its routes (tried in order)."""

    kind: str                                                 # the checked spec's `kind`
    title: str                                                # for the JSON Schema and messages
    schema: type[BaseModel]                                   # the pydantic model of the file
    recognises: Callable[[Mapping[str, Any]], bool]           # whether a parsed mapping is of this form
    check: Callable[[Mapping[str, Any], str, str], SpecT]     # (data, file, sha256): errors name the field
    summary: Callable[[SpecT], str]                           # one line for `check`
    routes: tuple[Route[SpecT, Any], ...]
    noun: str = "this claim"             # "a family": in "a family has no derived claims"
    profiles: bool = False               # whether privacy profiles apply (a finite table exists)
    own_sweep: bool = False              # a `sweep:` the form reads itself (programs), not core/sweep.py's
    points: Callable[[SpecT], list[Any]] | None = None                    # the claims a spec stands for
    derived: Callable[[SpecT, Mapping[str, Any]], Any] | None = None      # a certificate's derived claim
    table: Callable[[SpecT], Any] | None = None                           # the table privacy profiles read

    def expand(self, spec: SpecT) -> list[Any]:
        """The claims a spec stands for (a program's sweep: one per point; else the spec)."""
        return self.points(spec) if self.points is not None else [spec]

    def derive(self, spec: SpecT, derived: Mapping[str, Any]) -> Any:
        """The claim a certificate's `derived` field names."""
        if self.derived is None:
            raise ValueError(f"{self.noun} has no derived claims")
        return self.derived(spec, derived)

    def finite_table(self, spec: SpecT) -> Any:
        """The finite mechanism for privacy profiles, or None (then `region` refuses the spec)."""
        return self.table(spec) if self.table is not None else None

    def unfold(self, spec: SpecT) -> Unfolded[SpecT, Any]:
        """The first route that applies and fits analyses the spec and renders its document;
        both timed."""
        for route in self.routes:
            if not route.applies(spec):
                continue
            t0 = time.perf_counter()
            a = route.analyse(spec)
            if a is None:
                continue
            t1 = time.perf_counter()
            rendered = route.render(spec, a)
            return Unfolded(spec, a.mechanism, a.plan, rendered,
                            {"unfold": t1 - t0, "render": time.perf_counter() - t1}, route)
        raise InternalError(f"{spec.name}: no route of the {self.kind} form proves this claim")


def parse(schema: type[FormT], data: Mapping[str, Any], file: str) -> FormT:
    """The pydantic form of a spec file; its failure as one SpecError naming the field."""
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, schema) from None


@dataclass(frozen=True)
class Model:
    """A mechanism model: its forms in the order they are tried on a mapping, imported only
    when a mapping may be of this model (a command on one spec loads one model: about a
    second of start-up saved), and the top-level fields that say it may."""

    name: str
    package: str                           # the model's package; `FORMS` is in its `forms` module
    keys: tuple[str, ...] = ()             # a mapping of this model has one of these fields ...
    claim_keys: tuple[str, ...] = ()       # ... or one of these in its `claim:`; none: any mapping

    @property
    def forms(self) -> tuple[Form[Any], ...]:
        forms: tuple[Form[Any], ...] = importlib.import_module(f"{self.package}.forms").FORMS
        return forms

    @property
    def imported(self) -> bool:
        """Whether this process imported the model's forms already."""
        return f"{self.package}.forms" in sys.modules

    def may_read(self, data: Mapping[str, Any]) -> bool:
        """False only if no form of this model recognises `data` (so its forms need not be imported)."""
        if not self.keys and not self.claim_keys:
            return True
        claim = data.get("claim")
        return any(k in data for k in self.keys) or (
            isinstance(claim, Mapping) and any(k in claim for k in self.claim_keys))

    def owns(self, spec: CheckedSpec) -> bool:
        """Whether a checked spec's class is defined in this model's package."""
        module = type(spec).__module__
        return module == self.package or module.startswith(self.package + ".")

    def form_for(self, data: Mapping[str, Any]) -> Form[Any] | None:
        return next((f for f in self.forms if f.recognises(data)), None)

    def form_of(self, spec: CheckedSpec) -> Form[Any] | None:
        return next((f for f in self.forms if f.kind == spec.kind), None)


def witness_text(w: Mapping[str, Any]) -> str:
    """A witness in one line, as `prove` prints it."""
    if isinstance(w.get("text"), str):   # a witness that is not against DP says itself what it shows
        return str(w["text"])
    outs = ", ".join(w["outputs"])
    at = ("at " + ", ".join(f"{k} = {v}" for k, v in w["parameters"].items()) + ": "
          if w.get("parameters") else "")
    return (f"witness: {at}x = {w['x']}, x' = {w['x_prime']}, S = {{{outs}}}: "
            f"Pr[M(x) in S] = {w['pr_x']} > e^eps * Pr[M(x') in S] + delta = "
            f"{w['exp_epsilon']} * {w['pr_x_prime']} + {w['delta']} = {w['bound']} "
            f"(violation {w['violation']})")


def plan_description(u: Unfolded[Any, Any], claim: str, found: str, **fields: Any) -> Description:
    """The usual `show`: the claim, what the analysis found and the verdict Python expects,
    the plan's notes; the JSON item has `fields` between the verdict and the notes."""
    item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, **fields,
                            "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
    lines = [f"{u.spec.name} ({u.spec.path}): {claim}", f"  {found}; Python expects: {u.plan.expected}"]
    lines += [f"  note: {n}" for n in u.plan.notes]
    return item, lines
