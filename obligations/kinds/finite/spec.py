"""The table/formula form: its pydantic model checked into a `MechanismSpec`."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Optional, Union

from pydantic import ValidationError

from obligations.core import expr as E
from obligations.core.names import coq_name_problem, spec_name_problem, text_problem
from obligations.core.spec import (INDEX_VARS, MAX_DOMAIN, MAX_ENTRIES, Domain, MechanismSpec, Piece,
                                   MAX_COMPOSED_OUTPUTS, check_epsilon, too_many_outputs, validation_error)
from obligations.errors import SpecError
from obligations.kinds.finite.form import Distance, Number, Otherwise, Pairs, Range, Spec


MAX_FAMILY_DOMAIN = 1_000_000
DISTANCE = "distance:"   # neighbours "distance:d": |x - x'| <= d


def check_finite(data: Any, file: str, sha256: str = "") -> MechanismSpec:
    """Validate parsed YAML data of a table or formula spec into a MechanismSpec."""
    try:
        spec = Spec.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, Spec) from None
    return _Checker(file, sha256, spec).run()


class _Checker:
    """Semantic checks of one validated spec."""

    def __init__(self, file: str, sha256: str, spec: Spec) -> None:
        self.file, self.sha256, self.spec = file, sha256, spec

    def fail(self, field: str, message: str) -> SpecError:
        return SpecError(self.file, field, message)

    def run_names(self) -> tuple[dict[str, Fraction], dict[str, str]]:
        """Check the name; the parameters and their types."""
        problem = spec_name_problem(self.spec.name)
        if problem:
            raise self.fail("name", problem)
        return self.parameters()

    def run(self) -> MechanismSpec:
        s = self.spec
        params, types = self.run_names()
        inputs = self.domain("inputs", s.inputs, params, types)
        outputs = self.domain("outputs", s.outputs, params, types)
        if inputs.size * outputs.size > MAX_ENTRIES and s.route != "family":
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
            neighbours=self.neighbours(inputs), epsilon=eps, epsilon_text=str(s.claim.epsilon), route=s.route,
            delta=delta, delta_text=str(s.claim.delta), cw=self.cw(params, types, inputs),
            compose=self.runs(), **self.profile(params, types, outputs))

    def runs(self) -> int:
        """K of `composition: {runs: K}`; the composed claim stands alone (no profile).  With
        'cw' it is K runs on one database drawn once (`same_database: true`, said explicitly:
        a fresh database per run would be another mechanism)."""
        c = self.spec.composition
        if c is None:
            return 1
        if self.spec.profile is not None:
            raise self.fail("composition", "a composed claim has no profile: use profile.compose instead")
        if self.spec.cw is None and c.same_database is not None:
            raise self.fail("composition.same_database", "only with 'cw' (CW-privacy: the database is drawn "
                            "from a prior); without it every run sees the same input anyway")
        if self.spec.cw is not None and c.same_database is not True:
            raise self.fail("composition.same_database", "with 'cw' write 'same_database: true': the K runs see "
                            "one database drawn once (a fresh database per run is not supported)")
        return c.runs

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
            # A library family's instance is never tabulated (route: family): a larger bound.
            limit = MAX_FAMILY_DOMAIN if self.spec.route == "family" else MAX_DOMAIN
            if hi - lo + 1 > limit:
                raise self.fail(f"{field}.range", f"{hi - lo + 1} values; at most {limit}"
                                + ("" if limit != MAX_DOMAIN else
                                   " (route: family proves a library family's instance without its table)"))
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
        check_epsilon(self.file, "claim.epsilon", eps, params)

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
            check_epsilon(self.file, field, eps, params)
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
        if isinstance(nb, Distance):
            if inputs.values is None:
                raise self.fail("neighbours.distance", "distance needs integer inputs "
                                "(inputs: {range: [lo, hi]})")
            # Consecutive values: index distance is value distance.
            return f"{DISTANCE}{nb.distance}"
        if not isinstance(nb, Pairs):
            return nb  # "adjacent" is adjacency in the order the inputs are listed
        pairs = []
        for k, (a, b) in enumerate(nb.pairs):
            for which, lab in ((0, a), (1, b)):
                if str(lab) not in inputs.labels:
                    raise self.fail(f"neighbours.pairs[{k}][{which}]", f"{lab!r} is not an input")
            pairs.append((inputs.labels.index(str(a)), inputs.labels.index(str(b))))
        return tuple(pairs)
