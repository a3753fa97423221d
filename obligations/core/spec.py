"""The spec base: reading a spec file, what every form checks, and the checked spec of a
finite mechanism (`MechanismSpec`), which the table/formula and program kinds both produce.

Every problem is a SpecError naming the file and the field; nothing is
computed, rendered or run for a spec that fails here.
"""
from __future__ import annotations

import difflib
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from obligations.core import expr as E
from obligations.core.claims import Claim, Composition, dp
from obligations.core.names import spec_name_problem, text_problem
from obligations.errors import SpecError

MAX_FILE_BYTES = 20_000_000
MAX_DOMAIN = 5000          # inputs or outputs
MAX_ENTRIES = 1_000_000    # inputs x outputs
MAX_EPSILON = 500          # e^ε must stay a representable number
INDEX_VARS = ("x", "y")    # a formula gives Pr[M(x) = y]


@dataclass(frozen=True)
class Domain:
    """Inputs or outputs: their labels in order, and their integer values for ranges."""

    labels: tuple[str, ...]
    values: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def lo(self) -> int:
        return self.values[0] if self.values else 0


@dataclass(frozen=True)
class Piece:
    when: E.Expr | None  # None: otherwise
    value: E.Expr
    field: str


@dataclass(frozen=True)
class MechanismSpec:
    """A spec whose names and expressions have been checked."""

    path: str
    sha256: str
    name: str
    description: str
    parameters: Mapping[str, Fraction]
    parameter_types: Mapping[str, str]
    inputs: Domain
    outputs: Domain
    table: tuple[tuple[E.Expr, ...], ...] | None
    formula: tuple[Piece, ...] | None
    distribution: str
    neighbours: str | tuple[tuple[int, int], ...]
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    profile_epsilons: tuple[str, ...] = ()     # the profile points to certify
    profile_compose: tuple[int, ...] = ()      # empty: no profile
    cw: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None  # priors f_D, f_D'
    compose: int = 1                           # k-fold composition of the mechanism with itself
    derived: Mapping[str, Any] | None = None  # how this claim was derived from the file's
    program: Any = None                        # a program's checked IR, or a floating pipeline (their models')
    kind: str = "finite"                       # the mechanism kind (obligations.kinds) it belongs to
    route: str = "auto"                        # formulas: by the table, as a library family's instance, or auto
    domain: str | None = None                  # the inputs the claim is about, when not all of them (floating)
    tolerance: Fraction | None = None          # the claim is the smallest ε at δ, to this tolerance
    subsample: tuple[Fraction, int] | None = None  # Poisson subsampling: (rate q, the input without the record)

    @property
    def claim(self) -> Claim:
        claim = dp(self.epsilon_text, self.delta_text, self.neighbours, self.domain)
        return Composition(claim, self.compose) if self.compose > 1 else claim


MAX_COMPOSED_OUTPUTS = 4096


def neighbour_distance(neighbours: object) -> int | None:
    """d of the neighbour relation "distance:d" (|x - x'| <= d), else None."""
    if isinstance(neighbours, str) and neighbours.startswith("distance:"):
        return int(neighbours.split(":")[1])
    return None


def neighbour_removed(neighbours: object) -> int | None:
    """e of the add/remove relation "remove:e" (e the input without the record), else None."""
    if isinstance(neighbours, str) and neighbours.startswith("remove:"):
        return int(neighbours.split(":")[1])
    return None


def too_many_outputs(m: int, k: int) -> bool:
    """Whether m^k exceeds MAX_COMPOSED_OUTPUTS, without computing m^k for a huge k."""
    return m > 1 and (k > MAX_COMPOSED_OUTPUTS.bit_length() or m ** k > MAX_COMPOSED_OUTPUTS)


def derive(spec: MechanismSpec, *, name: str, epsilon: str, delta: Fraction,
           compose: int = 1) -> MechanismSpec:
    """The same mechanism (or its k-fold composition) with another claim, checked like a spec.

    Used for the points of a privacy profile; certificates record these
    arguments so that `verify` derives the same spec again.
    """
    field = f"derived claim {name}"
    problem = spec_name_problem(name)
    if problem:
        raise SpecError(spec.path, field, problem)
    if compose < 1 or (compose > 1 and too_many_outputs(spec.outputs.size, compose)):
        raise SpecError(spec.path, field, f"the {compose}-fold composition has "
                        f"{spec.outputs.size}^{compose} outputs; at most {MAX_COMPOSED_OUTPUTS}")
    if not 0 <= delta <= 1:
        raise SpecError(spec.path, field, f"delta = {delta} is not in [0, 1]")
    try:
        eps = E.parse(epsilon)
        E.typecheck(eps, spec.parameter_types, allow_real=True)
    except E.ExprError as exc:
        raise SpecError(spec.path, field, str(exc)) from None
    check_epsilon(spec.path, field, eps, spec.parameters, runs=compose)
    record = {"name": name, "epsilon": epsilon, "delta": str(delta), "compose": compose}
    return replace(spec, name=name, epsilon=eps, epsilon_text=epsilon, delta=delta,
                   delta_text=str(delta), compose=compose, derived=record)


def derive_recorded(spec: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
    """A profile point of a finite table, as its certificate's `derived` field records it."""
    wanted = ("name", "epsilon", "delta", "compose")   # a point of the spec's privacy profile
    if set(derived) != set(wanted):
        raise ValueError(f"derived: {sorted(map(str, derived))} is not a point of this spec's profile "
                         f"(which records {', '.join(wanted)}); this spec has no other derived claims")
    return derive(spec, name=str(derived["name"]), epsilon=str(derived["epsilon"]),
                  delta=Fraction(str(derived["delta"])), compose=int(derived["compose"]))


def check_epsilon(file: str, field: str, eps: E.Expr, params: Mapping[str, Fraction], runs: int = 1) -> None:
    """ε is a finite real ≥ 0, at most MAX_EPSILON per run (a K-fold composition's ε grows with K)."""
    try:
        value = E.to_sympy(eps, params)
        numeric = value.evalf(30)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    if not numeric.is_real or not numeric.is_finite:
        raise SpecError(file, field, f"epsilon = {value} is not a finite real number")
    if numeric < 0:
        raise SpecError(file, field, f"epsilon = {value} is negative")
    if numeric > MAX_EPSILON * max(1, runs):
        per_run = f" ({MAX_EPSILON} per run)" if runs > 1 else ""
        raise SpecError(file, field, f"epsilon = {value} is more than {MAX_EPSILON * max(1, runs)}{per_run}: "
                        "such a claim says nothing about privacy")


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a mapping with the same key twice."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read(path: str | Path) -> tuple[Any, str, str]:
    """The parsed YAML at `path`, the file name as given, and the file's SHA-256."""
    p = Path(path)
    file = str(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise SpecError(file, "", f"cannot read the file: {exc.strerror}") from exc
    if len(raw) > MAX_FILE_BYTES:
        raise SpecError(file, "", f"file larger than {MAX_FILE_BYTES} bytes")
    try:
        data = yaml.load(raw.decode("utf-8"), Loader=_UniqueKeyLoader)  # noqa: S506 (safe loader)
    except UnicodeDecodeError as exc:
        raise SpecError(file, "", "not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        raise SpecError(file, "", f"not valid YAML: {exc}") from exc
    except RecursionError:  # PyYAML's parser recurses once per nesting level
        raise SpecError(file, "", _TOO_DEEP) from None
    return data, file, hashlib.sha256(raw).hexdigest()


_TOO_DEEP = "nested too deeply (lists or mappings inside each other hundreds of levels deep)"


def check_common(data: Mapping[str, Any], file: str) -> None:
    """What every spec form shares, checked before the form is chosen: the spec's name
    becomes a Coq module and a prefix of definitions, its description goes into comments."""
    name = data.get("name")
    if isinstance(name, str):  # other types: the form's schema says what is expected
        problem = spec_name_problem(name)
        if problem:
            raise SpecError(file, "name", problem)
    description = data.get("description")
    if isinstance(description, str):
        problem = text_problem(description, multiline=True)  # YAML block scalars keep newlines
        if problem:
            raise SpecError(file, "description", problem)


def validation_error(file: str, exc: ValidationError, form: type[BaseModel] | None = None) -> SpecError:
    """The spec error a pydantic failure means, for a person: only the union branch the
    spec most likely meant (the one pydantic got furthest into), a misspelt field with the
    field it resembles, a YAML key or value read as a number or boolean with a hint to quote it."""
    models, fields = _vocabulary(form)
    errors = _one_branch(list(exc.errors()), models)
    guesses = {i: difflib.get_close_matches(str(e["loc"][-1]), sorted(fields), n=1, cutoff=0.75)
               for i, e in enumerate(errors) if e["type"] == "extra_forbidden"}
    # a field reported missing because it was misspelt: said once, with the misspelling
    meant = {_field_path((*errors[i]["loc"][:-1], g[0]), models) for i, g in guesses.items() if g}
    problems: list[tuple[str, str]] = []
    for i, err in enumerate(errors):
        loc, msg = _field_path(err["loc"], models), err["msg"]
        if err["type"] == "missing" and loc in meant:
            continue
        if i in guesses:
            guess = guesses[i]
            msg = "unknown field" + (f"; did you mean {guess[0]!r}?" if guess else "") + " (see `obligations schema`)"
        elif err["type"] == "string_type" and isinstance(err.get("input"), (bool, int, float)):
            value = err["input"]
            msg += (f" (YAML reads this as the boolean {value}: yes, no, on, off, true and false are "
                    "booleans; quote it)" if isinstance(value, bool) else
                    f" (YAML reads {value!r} as a number: quote it, '{value}')")
        if (loc, msg) not in problems:
            problems.append((loc, msg))
    problems.sort(key=lambda p: "did you mean" not in p[1])   # a misspelling first: it explains the rest
    field, msg = problems[0]
    more = "".join(f"\n  {loc}: {m}" for loc, m in problems[1:5])
    return SpecError(file, field, msg + more)


def _vocabulary(form: type[BaseModel] | None) -> tuple[frozenset[str], frozenset[str]]:
    """The model names (pydantic's union-branch tags) and the field names of a spec form."""
    if form is None:
        return frozenset(), frozenset()
    schema = form.model_json_schema()
    fields: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            fields.update(node.get("properties", {}))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    return frozenset({form.__name__, *schema.get("$defs", {})}), frozenset(fields)


def _is_tag(part: Any, models: frozenset[str]) -> bool:
    return isinstance(part, str) and (part in models or "[" in part or part in _PYDANTIC_TAGS)


def _one_branch(errors: list[Any], models: frozenset[str]) -> list[Any]:
    """Where pydantic tried the branches of a union, the errors of the branch it got furthest
    into (the one the spec most likely meant; at equal depth, a structure over a plain type)."""
    if len(errors) < 2:
        return errors
    locs = [tuple(e["loc"]) for e in errors]
    k = 0
    while all(len(loc) > k for loc in locs) and len({loc[k] for loc in locs}) == 1:
        k += 1
    if not all(len(loc) > k and _is_tag(loc[k], models) for loc in locs):
        return errors
    deepest = max(locs, key=lambda loc: (len(loc), loc[k] not in ("str", "int", "float", "bool")))
    return [e for e, loc in zip(errors, locs, strict=False) if loc[:k + 1] == deepest[:k + 1]]


_PYDANTIC_TAGS = ("str", "int", "float", "list[union[str,int]]", "Range", "Pairs", "Piecewise", "Case",
                  "Otherwise", "literal['all','adjacent']")


def _field_path(loc: tuple[Any, ...], models: frozenset[str] = frozenset()) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _is_tag(part, models):
            continue  # pydantic's union-branch tags say nothing to a user
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


