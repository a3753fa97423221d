"""The table/formula form: its pydantic model checked into a `MechanismSpec`."""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeVar

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.model import parse
from obligations.core.names import text_problem
from obligations.core.spec import (
    MAX_COMPOSED_OUTPUTS,
    MAX_DOMAIN,
    MAX_ENTRIES,
    Domain,
    MechanismSpec,
    Piece,
    too_many_outputs,
)
from obligations.core.vocabulary import Distance, Neighbours, Pairs, Range
from obligations.table.form import Spec

T = TypeVar("T")
MAX_FAMILY_DOMAIN = 1_000_000
DISTANCE = "distance:"   # neighbours "distance:d": |x - x'| <= d
REMOVE = "remove:"       # neighbours "remove:e": add/remove, e the input without the record


def check_finite(data: Any, file: str, sha256: str = "") -> MechanismSpec:
    """Validate parsed YAML data of a table or formula spec into a MechanismSpec."""
    return TableChecker(file, sha256, parse(Spec, data, file)).run()


class DomainChecker(Checker):
    """The checks of a finite mechanism's inputs, outputs, rows and neighbours (labels, ranges,
    pairs), which every form of the table model shares."""

    def domain(self, field: str, d: Any, params: Mapping[str, Fraction],
               types: Mapping[str, str], limit: int = MAX_DOMAIN) -> Domain:
        if isinstance(d, Range):
            lo_e = self.expression(f"{field}.range[0]", d.range[0], types, want=E.INT)
            hi_e = self.expression(f"{field}.range[1]", d.range[1], types, want=E.INT)
            lo = int(self.value(f"{field}.range[0]", lo_e, params))
            hi = int(self.value(f"{field}.range[1]", hi_e, params))
            if hi < lo:
                raise self.fail(f"{field}.range", f"empty range [{lo}, {hi}]")
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

    def rows(self, field: str, given: Mapping[str, Sequence[T]], inputs: Domain, outputs: Domain,
             what: str = "entries") -> Iterator[tuple[str, Sequence[T]]]:
        """A table's rows in the inputs' order: one for every input, one entry for every output
        (a row's length is checked as it is reached)."""
        missing = [lab for lab in inputs.labels if lab not in given]
        if missing:
            raise self.fail(field, f"no row for input {missing[0]!r}")
        extra = [k for k in given if k not in inputs.labels]
        if extra:
            raise self.fail(f"{field}.{extra[0]}", f"{extra[0]!r} is not an input")
        for label in inputs.labels:
            if len(given[label]) != outputs.size:
                raise self.fail(f"{field}.{label}", f"{len(given[label])} {what} for {outputs.size} outputs")
            yield label, given[label]

    def neighbours(self, nb: Neighbours | Literal["add_remove"], inputs: Domain,
                   removed: int | None = None) -> str | tuple[tuple[int, int], ...]:
        """The relation as MechanismSpec records it; add/remove needs the input without the record
        (`removed`, from the table form's `subsample`)."""
        if isinstance(nb, Distance):
            if inputs.values is None:
                raise self.fail("neighbours.distance", "distance needs integer inputs "
                                "(inputs: {range: [lo, hi]})")
            # Consecutive values: index distance is value distance.
            return f"{DISTANCE}{nb.distance}"
        if nb == "add_remove":
            if removed is None:
                raise self.fail("neighbours", "add_remove needs 'subsample' (which input is the batch "
                                "without the record)")
            return f"{REMOVE}{removed}"
        if not isinstance(nb, Pairs):
            return nb  # "adjacent" is adjacency in the order the inputs are listed
        pairs = []
        for k, (a, b) in enumerate(nb.pairs):
            for which, lab in ((0, a), (1, b)):
                if str(lab) not in inputs.labels:
                    raise self.fail(f"neighbours.pairs[{k}][{which}]", f"{lab!r} is not an input")
            pairs.append((inputs.labels.index(str(a)), inputs.labels.index(str(b))))
        return tuple(pairs)


class TableChecker(DomainChecker):
    """Semantic checks of one validated table/formula spec."""

    def __init__(self, file: str, sha256: str, spec: Spec) -> None:
        super().__init__(file)
        self.sha256, self.spec = sha256, spec

    def run_names(self) -> tuple[dict[str, Fraction], dict[str, str]]:
        """Check the name; the parameters and their types."""
        self.name(self.spec.name)
        return self.exact_parameters(self.spec.parameters)

    def run(self) -> MechanismSpec:
        s = self.spec
        params, types = self.run_names()
        # A library family's instance is never tabulated (route: family): a larger bound.
        limit = MAX_FAMILY_DOMAIN if s.route == "family" else MAX_DOMAIN
        inputs = self.domain("inputs", s.inputs, params, types, limit)
        outputs = self.domain("outputs", s.outputs, params, types, limit)
        if inputs.size * outputs.size > MAX_ENTRIES and s.route != "family":
            raise self.fail("outputs", f"{inputs.size} inputs x {outputs.size} outputs is more than "
                            f"{MAX_ENTRIES} table entries")
        table = self.table(inputs, outputs, types) if s.table is not None else None
        formula = self.formula(inputs, outputs, types) if s.formula is not None else None
        tolerance = self.tolerance(params, types)
        eps_text = f"min eps (tolerance {tolerance})" if tolerance is not None else str(s.claim.epsilon)
        runs = s.composition.runs if s.composition is not None else 1
        eps_given = s.claim.epsilon if s.claim.epsilon is not None else 0   # 0 with a tolerance: not a claim
        eps = self.epsilon("claim.epsilon", eps_given, params, types, runs)
        delta = self.delta("claim.delta", s.claim.delta, params, types)
        subsample = self.subsample(params, types, inputs)
        neighbours = self.neighbours(s.neighbours, inputs, None if subsample is None else subsample[1])
        return MechanismSpec(
            path=self.file, sha256=self.sha256, name=s.name, description=s.description,
            parameters=params, parameter_types=types, inputs=inputs, outputs=outputs,
            table=table, formula=formula, distribution=s.distribution,
            neighbours=neighbours, epsilon=eps, epsilon_text=eps_text,
            route=s.route, tolerance=tolerance, subsample=subsample,
            delta=delta, delta_text=str(s.claim.delta), cw=self.cw(params, types, inputs),
            compose=self.runs(), **self.profile(params, types, outputs))

    def tolerance(self, params: Mapping[str, Fraction], types: Mapping[str, str]) -> Fraction | None:
        """The tolerance of a claim "the smallest epsilon at delta"; epsilon must then be omitted."""
        c = self.spec.claim
        if c.tolerance is None:
            if c.epsilon is None:
                raise self.fail("claim.epsilon", "missing (or give claim.tolerance instead: the smallest epsilon "
                                "at delta, to that tolerance)")
            return None
        if c.epsilon is not None:
            raise self.fail("claim.tolerance", "give epsilon or tolerance (the smallest epsilon at delta), not both")
        if self.spec.cw is not None or self.spec.profile is not None:
            raise self.fail("claim.tolerance", "not with 'cw' or 'profile'")
        tol = self.value("claim.tolerance", self.expression("claim.tolerance", c.tolerance, types), params)
        if not 0 < tol <= 1:
            raise self.fail("claim.tolerance", f"tolerance = {tol}: a rational in (0, 1]")
        return tol

    def subsample(self, params: Mapping[str, Fraction], types: Mapping[str, str],
                  inputs: Domain) -> tuple[Fraction, int] | None:
        """(q, e) of `subsample`: the rate in (0, 1] and the index of the input without the record;
        the neighbours are then add/remove (said as `neighbours: add_remove`, and only then)."""
        req, s = self.spec.subsample, self.spec
        if req is None:
            return None
        if s.neighbours != "add_remove":
            raise self.fail("neighbours", "with 'subsample' the neighbours are the batch without the record and "
                            "each batch with it: write 'neighbours: add_remove'")
        if s.cw is not None or s.profile is not None or s.route == "family":
            raise self.fail("subsample", "not with 'cw', 'profile' or 'route: family'")
        q = self.value("subsample.rate", self.expression("subsample.rate", req.rate, types), params)
        if not 0 < q <= 1:
            raise self.fail("subsample.rate", f"rate = {q}: a rational in (0, 1]")
        if str(req.without) not in inputs.labels:
            raise self.fail("subsample.without", f"{req.without!r} is not an input")
        if inputs.size < 2:
            raise self.fail("inputs", "subsampling needs the batch without the record and one with it")
        return q, inputs.labels.index(str(req.without))

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

    def table(self, inputs: Domain, outputs: Domain,
              types: Mapping[str, str]) -> tuple[tuple[E.Expr, ...], ...]:
        return tuple(tuple(self.expression(f"table.{label}[{j}]", v, types) for j, v in enumerate(row))
                     for label, row in self.rows("table", self.spec.table or {}, inputs, outputs))

    def formula(self, inputs: Domain, outputs: Domain, types: Mapping[str, str]) -> tuple[Piece, ...]:
        if inputs.values is None or outputs.values is None:
            raise self.fail("formula", "a formula needs integer inputs and outputs "
                            "(inputs: {range: [lo, hi]}, outputs: {range: [lo, hi]})")
        assert self.spec.formula is not None
        return self.pieces(self.spec.formula, types)

    def cw(self, params: Mapping[str, Fraction], types: Mapping[str, str],
           inputs: Domain) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None:
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
            self.epsilon(field, text, params, types)
            epsilons.append(str(text))
        for k, c in enumerate(req.compose):
            if c < 1 or (c > 1 and too_many_outputs(outputs.size, c)):
                raise self.fail(f"profile.compose[{k}]", f"{c}-fold: {outputs.size}^{c} outputs; "
                                f"Coq certifies compositions of at most {MAX_COMPOSED_OUTPUTS} outputs")
        return {"profile_epsilons": tuple(epsilons), "profile_compose": tuple(req.compose)}
