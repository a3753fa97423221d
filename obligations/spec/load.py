"""Reading a spec file: YAML -> pydantic model -> checked, parsed spec.

Every problem is a SpecError naming the file and the field; nothing is
computed, rendered or run for a spec that fails here.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Optional, Union

import yaml
from pydantic import ValidationError

from obligations.errors import SpecError
from obligations.spec import expr as E
from obligations.spec.model import Number, Otherwise, Pairs, Range, Spec
from obligations.spec.names import coq_name_problem, spec_name_problem, text_problem

MAX_FILE_BYTES = 20_000_000
MAX_DOMAIN = 5000          # inputs or outputs
MAX_ENTRIES = 1_000_000    # inputs x outputs
MAX_EPSILON = 500          # e^ε must stay a representable number
INDEX_VARS = ("x", "y")    # a formula gives Pr[M(x) = y]


@dataclass(frozen=True)
class Domain:
    """Inputs or outputs: their labels in order, and their integer values for ranges."""

    labels: tuple[str, ...]
    values: Optional[tuple[int, ...]] = None

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def lo(self) -> int:
        return self.values[0] if self.values else 0


@dataclass(frozen=True)
class Piece:
    when: Optional[E.Expr]  # None: otherwise
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
    table: Optional[tuple[tuple[E.Expr, ...], ...]]
    formula: Optional[tuple[Piece, ...]]
    distribution: str
    neighbours: Union[str, tuple[tuple[int, int], ...]]
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    profile_epsilons: tuple[str, ...] = ()     # the profile points to certify
    profile_compose: tuple[int, ...] = ()      # empty: no profile
    cw: Optional[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]] = None  # priors f_D, f_D'
    compose: int = 1                           # k-fold composition of the mechanism with itself
    derived: Optional[Mapping[str, Any]] = None  # how this claim was derived from the file's
    program: Optional[Any] = None              # a program spec (spec/program.py): its checked IR
    kind: str = "finite"                       # the mechanism kind (obligations.kinds) it belongs to


MAX_COMPOSED_OUTPUTS = 4096


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
    _check_epsilon(spec.path, field, eps, spec.parameters)
    record = {"name": name, "epsilon": epsilon, "delta": str(delta), "compose": compose}
    return replace(spec, name=name, epsilon=eps, epsilon_text=epsilon, delta=delta,
                   delta_text=str(delta), compose=compose, derived=record)


def _check_epsilon(file: str, field: str, eps: E.Expr, params: Mapping[str, Fraction]) -> None:
    try:
        value = E.to_sympy(eps, params)
        numeric = value.evalf(30)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    if not numeric.is_real or not numeric.is_finite:
        raise SpecError(file, field, f"epsilon = {value} is not a finite real number")
    if numeric < 0:
        raise SpecError(file, field, f"epsilon = {value} is negative")
    if numeric > MAX_EPSILON:
        raise SpecError(file, field, f"epsilon = {value} is more than {MAX_EPSILON}: "
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


def read(path: Union[str, Path]) -> tuple[Any, str, str]:
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
    """What every spec form shares, checked before the form is chosen."""
    _check_name_and_description(data, file)


def check_finite(data: Any, file: str, sha256: str = "") -> MechanismSpec:
    """Validate parsed YAML data of a table or formula spec into a MechanismSpec."""
    try:
        spec = Spec.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc) from None
    return _Checker(file, sha256, spec).run()


def _check_name_and_description(data: Mapping[str, Any], file: str) -> None:
    """The spec's name becomes a Coq module and a prefix of definitions; its description
    goes into comments: both are refused here, before any form-specific check."""
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


def validation_error(file: str, exc: ValidationError) -> SpecError:
    problems = []
    for err in exc.errors()[:5]:
        loc = _field_path(err["loc"])
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field (see `obligations schema`)"
        problems.append((loc, msg))
    field, msg = problems[0]
    more = "".join(f"\n  {loc}: {m}" for loc, m in problems[1:])
    return SpecError(file, field, msg + more)


def _field_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "int", "float", "list[union[str,int]]", "Range", "Pairs", "Piecewise",
                      "Case", "Otherwise", "literal['all','adjacent']") or "[" in str(part):
            continue  # pydantic's union-branch tags say nothing to a user
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


class _Checker:
    """Semantic checks of one validated spec."""

    def __init__(self, file: str, sha256: str, spec: Spec) -> None:
        self.file, self.sha256, self.spec = file, sha256, spec

    def fail(self, field: str, message: str) -> SpecError:
        return SpecError(self.file, field, message)

    def run(self) -> MechanismSpec:
        s = self.spec
        problem = spec_name_problem(s.name)
        if problem:
            raise self.fail("name", problem)
        params, types = self.parameters()
        inputs = self.domain("inputs", s.inputs, params, types)
        outputs = self.domain("outputs", s.outputs, params, types)
        if inputs.size * outputs.size > MAX_ENTRIES:
            raise self.fail("outputs", f"{inputs.size} inputs x {outputs.size} outputs is more than "
                            f"{MAX_ENTRIES} table entries")
        table = self.table(inputs, outputs, types) if s.table is not None else None
        formula = self.formula(inputs, outputs, types) if s.formula is not None else None
        eps = self.expression("claim.epsilon", s.claim.epsilon, types, allow_real=True)
        self.check_epsilon(eps, params)
        delta = self.delta(params, types)
        return MechanismSpec(
            path=self.file, sha256=self.sha256, name=s.name, description=s.description,
            parameters=params, parameter_types=types, inputs=inputs, outputs=outputs,
            table=table, formula=formula, distribution=s.distribution,
            neighbours=self.neighbours(inputs), epsilon=eps, epsilon_text=str(s.claim.epsilon),
            delta=delta, delta_text=str(s.claim.delta), cw=self.cw(params, types, inputs),
            **self.profile(params, types, outputs))

    def expression(self, field: str, text: Number, types: Mapping[str, str], *,
                   allow_real: bool = False, want: Optional[str] = None) -> E.Expr:
        try:
            e = E.parse(text)
            t = E.typecheck(e, types, allow_real=allow_real)
        except E.ExprError as exc:
            raise self.fail(field, str(exc)) from None
        if want == E.BOOL and t != E.BOOL:
            raise self.fail(field, "expected a condition, e.g. \"y == 0\" or \"0 < y < n\"")
        if want != E.BOOL and t == E.BOOL:
            raise self.fail(field, "expected a number, got a condition")
        if want == E.INT and t != E.INT:
            raise self.fail(field, "expected an integer expression")
        return e

    def value(self, field: str, e: E.Expr, env: Mapping[str, Fraction]) -> Fraction:
        try:
            v = E.compile_exact(e)(env)
        except E.ExprError as exc:
            raise self.fail(field, str(exc)) from None
        return Fraction(v)

    def parameters(self) -> tuple[dict[str, Fraction], dict[str, str]]:
        params: dict[str, Fraction] = {}
        types: dict[str, str] = {}
        for name, text in self.spec.parameters.items():
            field = f"parameters.{name}"
            problem = coq_name_problem(name)
            if problem or name in INDEX_VARS or name in E.FUNCTIONS or name in E.FUNCTION_SYNONYMS:
                raise self.fail(field, problem or f"{name!r} is reserved (x and y are the row and "
                                "column values; ln, exp, abs, min, max are functions)")
            e = self.expression(field, text, types)  # earlier parameters may be used
            v = self.value(field, e, params)
            params[name] = v
            types[name] = E.INT if v.denominator == 1 else E.RAT
        return params, types

    def domain(self, field: str, d: Any, params: Mapping[str, Fraction],
               types: Mapping[str, str]) -> Domain:
        if isinstance(d, Range):
            lo_e = self.expression(f"{field}.range[0]", d.range[0], types, want=E.INT)
            hi_e = self.expression(f"{field}.range[1]", d.range[1], types, want=E.INT)
            lo = int(self.value(f"{field}.range[0]", lo_e, params))
            hi = int(self.value(f"{field}.range[1]", hi_e, params))
            if hi < lo:
                raise self.fail(f"{field}.range", f"empty range [{lo}, {hi}]")
            if hi - lo + 1 > MAX_DOMAIN:
                raise self.fail(f"{field}.range", f"{hi - lo + 1} values; at most {MAX_DOMAIN}")
            values = tuple(range(lo, hi + 1))
            return Domain(tuple(str(v) for v in values), values)
        labels = tuple(str(v) for v in d)
        if not labels:
            raise self.fail(field, "no values")
        if len(labels) > MAX_DOMAIN:
            raise self.fail(field, f"{len(labels)} values; at most {MAX_DOMAIN}")
        for i, label in enumerate(labels):
            if labels.index(label) != i:
                raise self.fail(f"{field}[{i}]", f"label {label!r} appears twice")
            problem = text_problem(label)  # labels go into the generated file's comments
            if problem:
                raise self.fail(f"{field}[{i}]", f"labels are printable text: the label {problem}")
            if len(label) > 100 or not label.isprintable():
                raise self.fail(f"{field}[{i}]", "labels are printable and at most 100 characters")
        return Domain(labels)

    def table(self, inputs: Domain, outputs: Domain,
              types: Mapping[str, str]) -> tuple[tuple[E.Expr, ...], ...]:
        table = self.spec.table or {}
        missing = [lab for lab in inputs.labels if lab not in table]
        if missing:
            raise self.fail("table", f"no row for input {missing[0]!r}")
        extra = [k for k in table if k not in inputs.labels]
        if extra:
            raise self.fail(f"table.{extra[0]}", f"{extra[0]!r} is not an input")
        rows = []
        for label in inputs.labels:
            row = table[label]
            if len(row) != outputs.size:
                raise self.fail(f"table.{label}", f"{len(row)} entries for {outputs.size} outputs")
            rows.append(tuple(self.expression(f"table.{label}[{j}]", v, types)
                              for j, v in enumerate(row)))
        return tuple(rows)

    def formula(self, inputs: Domain, outputs: Domain, types: Mapping[str, str]) -> tuple[Piece, ...]:
        if inputs.values is None or outputs.values is None:
            raise self.fail("formula", "a formula needs integer inputs and outputs "
                            "(inputs: {range: [lo, hi]}, outputs: {range: [lo, hi]})")
        env = dict(types, x=E.INT, y=E.INT)
        f = self.spec.formula
        if isinstance(f, (str, int, float)):
            return (Piece(None, self.expression("formula", f, env), "formula"),)
        pieces = []
        for k, case in enumerate(f.cases):
            field = f"formula.cases[{k}]"
            if isinstance(case, Otherwise):
                pieces.append(Piece(None, self.expression(f"{field}.otherwise", case.otherwise, env), field))
            else:
                pieces.append(Piece(self.expression(f"{field}.when", case.when, env, want=E.BOOL),
                                    self.expression(f"{field}.value", case.value, env), field))
        return tuple(pieces)

    def check_epsilon(self, eps: E.Expr, params: Mapping[str, Fraction]) -> None:
        _check_epsilon(self.file, "claim.epsilon", eps, params)

    def cw(self, params: Mapping[str, Fraction], types: Mapping[str, str],
           inputs: Domain) -> Optional[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]]:
        req = self.spec.cw
        if req is None:
            return None
        if self.spec.neighbours != "all":
            raise self.fail("neighbours", "with 'cw' the neighbours are the database and its "
                            "scrubbed version: write 'neighbours: all'")
        return (self.prior("cw.prior", req.prior, params, types, inputs),
                self.prior("cw.alt_prior", req.alt_prior, params, types, inputs))

    def prior(self, field: str, given: Mapping[str, Any], params: Mapping[str, Fraction],
              types: Mapping[str, str], inputs: Domain) -> tuple[Fraction, ...]:
        for label in given:
            if label not in inputs.labels:
                raise self.fail(f"{field}.{label}", f"{label!r} is not an input")
        values = []
        for label in inputs.labels:
            f = f"{field}.{label}"
            v = self.value(f, self.expression(f, given.get(label, 0), types), params)
            if v < 0:
                raise self.fail(f, f"probability {v} is negative")
            values.append(v)
        if sum(values) != 1:
            raise self.fail(field, f"the prior sums to {sum(values)}, not 1")
        return tuple(values)

    def profile(self, params: Mapping[str, Fraction], types: Mapping[str, str],
                outputs: Domain) -> dict[str, Any]:
        req = self.spec.profile
        if req is None:
            return {}
        epsilons = []
        for k, text in enumerate(req.epsilons):
            field = f"profile.epsilons[{k}]"
            eps = self.expression(field, text, types, allow_real=True)
            _check_epsilon(self.file, field, eps, params)
            epsilons.append(str(text))
        for k, c in enumerate(req.compose):
            if c < 1 or (c > 1 and too_many_outputs(outputs.size, c)):
                raise self.fail(f"profile.compose[{k}]", f"{c}-fold: {outputs.size}^{c} outputs; "
                                f"Coq certifies compositions of at most {MAX_COMPOSED_OUTPUTS} outputs")
        return {"profile_epsilons": tuple(epsilons), "profile_compose": tuple(req.compose)}

    def delta(self, params: Mapping[str, Fraction], types: Mapping[str, str]) -> Fraction:
        e = self.expression("claim.delta", self.spec.claim.delta, types)
        d = self.value("claim.delta", e, params)
        if not 0 <= d <= 1:
            raise self.fail("claim.delta", f"delta = {d} is not in [0, 1]")
        return d

    def neighbours(self, inputs: Domain) -> Union[str, tuple[tuple[int, int], ...]]:
        nb = self.spec.neighbours
        if not isinstance(nb, Pairs):
            return nb  # "adjacent" is adjacency in the order the inputs are listed
        pairs = []
        for k, (a, b) in enumerate(nb.pairs):
            for which, lab in ((0, a), (1, b)):
                if str(lab) not in inputs.labels:
                    raise self.fail(f"neighbours.pairs[{k}][{which}]", f"{lab!r} is not an input")
            pairs.append((inputs.labels.index(str(a)), inputs.labels.index(str(b))))
        return tuple(pairs)
