"""Audits of other accountants (`audit:` specs): what dp_accounting, prv_accountant or Opacus
reported for a mechanism this tool can express, certified or refuted with Coq.

    audit:
      accountant: prv_accountant 0.2.0
      call: "PRVAccountant(prvs=[PureDPMechanism(eps=log(3))], eps_error=0.01, ...).compute_delta(1, [50])[2]"
      mechanism: {pure_dp: "ln(3)"}          # or {spec: randomized_response.yaml}
      runs: 50
      reported: {epsilon: 1, delta: 0.9997655561679648}

The claim checked is the report itself: (epsilon, delta)-DP of the mechanism run `runs` times.
For a table or formula (`spec`), by the finite kind's routes (the accountant beyond the
product table): proved, the report is sound for that mechanism; refuted, it is wrong, with the
exact δ(ε) bracketed and a witness.  For `pure_dp: eps0` (the report bounds every
(eps0, 0)-DP mechanism), by the KOV kind: proved for every such mechanism, or refuted by
randomized response, which attains the bound."""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr, ValidationError

from obligations.core.claims import Claim
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.names import spec_name_problem, text_problem
from obligations.core.spec import MechanismSpec, read, validation_error
from obligations.core.templates import Rendered
from obligations.core.vocabulary import Number, Strict
from obligations.errors import InternalError, SpecError
from obligations.table import kov_spec
from obligations.table.by_kov import BY_KOV
from obligations.table.finite_routes import FINITE_ROUTES
from obligations.table.kov_spec import KovSpec
from obligations.table.spec import check_finite

NOT_A_TABLE = ("compose", "program", "pipeline", "kov", "floating", "audit", "composition", "cw")


class TableMechanism(Strict):
    spec: StrictStr = Field(description="a table or formula spec file, relative to this file (its claim is ignored)")


class PureDP(Strict):
    pure_dp: Number = Field(description="epsilon0: the report bounds every (epsilon0, 0)-DP mechanism")


class Report(Strict):
    epsilon: Number
    delta: Number


class AuditBody(Strict):
    accountant: StrictStr = Field(description="who reported, with its version, e.g. 'prv_accountant 0.2.0'")
    call: StrictStr = Field(default="", description="the call that gave the report, for the record")
    mechanism: TableMechanism | PureDP
    runs: StrictInt = Field(ge=1, description="K >= 1: the report is about K runs on the same input")
    reported: Report


class AuditFile(Strict):
    """Another accountant's (epsilon, delta) for a mechanism run K times, to certify or refute."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the audit, e.g. prv_puredp_ln3_50")
    description: str = ""
    audit: AuditBody


@dataclass(frozen=True)
class AuditSpec:
    path: str
    sha256: str
    name: str
    description: str
    accountant: str
    call: str
    runs: int
    target: MechanismSpec | KovSpec     # the claim the report is: (ε, δ) of K runs
    kind: str = "audit"
    derived: Mapping[str, Any] | None = None
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()

    @property
    def claim(self) -> Claim:
        return self.target.claim


def check(data: Mapping[str, Any], file: str, sha256: str) -> AuditSpec:
    try:
        form = AuditFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, AuditFile) from None
    for field, problem in (("name", spec_name_problem(form.name)),
                           ("description", text_problem(form.description, multiline=True)),
                           ("audit.accountant", text_problem(form.audit.accountant)),
                           ("audit.call", text_problem(form.audit.call))):
        if problem:
            raise SpecError(file, field, problem)
    a = form.audit
    description = form.description or (f"{a.accountant}'s report ({a.reported.epsilon}, {a.reported.delta}) "
                                       f"for {a.runs} runs")
    target: MechanismSpec | KovSpec
    if isinstance(a.mechanism, PureDP):
        kov_data = {"schema_version": 1, "name": form.name, "description": description,
                    "kov": {"epsilon0": a.mechanism.pure_dp, "runs": a.runs},
                    "claim": {"epsilon": a.reported.epsilon, "delta": a.reported.delta}}
        try:
            target = kov_spec.check(kov_data, file, sha256)
        except SpecError as exc:
            raise SpecError(file, _audit_field(exc.field), exc.message) from None
    else:
        target = _table_target(file, sha256, form, a.mechanism.spec, description)
    return AuditSpec(file, sha256, form.name, description, a.accountant, a.call, a.runs, target)


def _table_target(file: str, sha256: str, form: AuditFile, spec: str, description: str) -> MechanismSpec:
    """The referenced table or formula, run `runs` times, with the report as its claim."""
    field = "audit.mechanism.spec"
    path = Path(file).parent / spec
    if not path.is_file():
        raise SpecError(file, field, f"no such spec file: {path}")
    data, _, _ = read(path)
    if not isinstance(data, dict) or any(k in data for k in NOT_A_TABLE):
        raise SpecError(file, field, f"{path} is not one run of a plain table or formula spec")
    a = form.audit
    data = dict(data, name=form.name, description=description, composition={"runs": a.runs},
                claim={"epsilon": a.reported.epsilon, "delta": a.reported.delta})
    data.pop("profile", None)      # the table's own profile is about its own claims
    try:
        return check_finite(data, file, sha256)
    except SpecError as exc:
        raise SpecError(file, _audit_field(exc.field), exc.message) from None


def _audit_field(field: str) -> str:
    """Where a field of the claim comes from in the audit file."""
    return {"claim.epsilon": "audit.reported.epsilon", "claim.delta": "audit.reported.delta",
            "composition.runs": "audit.runs", "kov.runs": "audit.runs",
            "kov.epsilon0": "audit.mechanism.pure_dp"}.get(field, f"audit.mechanism.spec ({field})")


class ByTarget(Route[AuditSpec, Unfolded[Any, Any]]):
    """The report's claim proved by the target's own form and route (the accountant for a table
    beyond its product table, the KOV bound for `pure_dp`)."""

    name = "by the audited mechanism's route"

    def analyse(self, spec: AuditSpec) -> Analysed[Unfolded[Any, Any]]:
        u = _unfold(spec.target)
        note = (f"audit of {spec.accountant}: the report is the claim; proved = sound, refuted = wrong"
                + (f" (call: {spec.call})" if spec.call else ""))
        return Analysed(u, replace(u.plan, notes=(note, *u.plan.notes)))

    def render(self, spec: AuditSpec, a: Analysed[Unfolded[Any, Any]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[AuditSpec, Unfolded[Any, Any]]) -> Witness | None:
        return u.mechanism.witness()

    def describe(self, u: Unfolded[AuditSpec, Unfolded[Any, Any]]) -> Description:
        return u.mechanism.describe(False)


def _unfold(target: MechanismSpec | KovSpec) -> Unfolded[Any, Any]:
    """The target by the first of its form's routes that fits (as the model does)."""
    routes: tuple[Route[Any, Any], ...] = (BY_KOV,) if isinstance(target, KovSpec) else FINITE_ROUTES
    for route in routes:
        if not route.applies(target):
            continue
        t0 = time.perf_counter()
        a = route.analyse(target)
        if a is None:
            continue
        t1 = time.perf_counter()
        rendered = route.render(target, a)
        return Unfolded(target, a.mechanism, a.plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1},
                        route)
    raise InternalError(f"{target.name}: no route proves the audited claim")


def summary(spec: AuditSpec) -> str:
    return f"audit of {spec.accountant}: {spec.description}"


def is_audit(data: Mapping[str, Any]) -> bool:
    return "audit" in data


BY_TARGET = ByTarget()

__all__ = ["BY_TARGET", "AuditSpec", "check", "is_audit", "summary"]
