"""The forms of the table model, in the order they are tried on a mapping (the table/formula
form last: it is the default), each with the routes that prove its claims."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from obligations.analysis.finite import FiniteMechanism, tabulate
from obligations.core.model import Form, Route
from obligations.core.spec import MechanismSpec, derive_recorded
from obligations.table import accuracy_spec, calibrated_spec, expfamily_spec, family_spec, kov_spec, spec
from obligations.table.accuracy_spec import AccuracyFile, AccuracySpec
from obligations.table.by_basic_composition import BY_BASIC_COMPOSITION
from obligations.table.by_brackets import BY_BRACKETS
from obligations.table.by_error_table import BY_ERROR_TABLE
from obligations.table.by_expmech import BY_EXPMECH
from obligations.table.by_family import BY_FAMILY
from obligations.table.by_geometric import BY_GEOMETRIC
from obligations.table.by_kov import BY_KOV
from obligations.table.by_kov import summary as kov_summary
from obligations.table.by_pld import BY_PLD
from obligations.table.by_table import BY_TABLE
from obligations.table.calibrated_spec import CalibratedSpec
from obligations.table.expfamily_form import ExpFamilySpec as ExpFamilyFile
from obligations.table.expfamily_spec import ExpFamilySpec
from obligations.table.family_form import FamilyFile
from obligations.table.family_spec import FamilySpec
from obligations.table.for_all_parameters import FOR_ALL_PARAMETERS
from obligations.table.form import Spec
from obligations.table.kov_spec import KovFile, KovSpec


class AccuracyForm(Form[AccuracySpec]):
    kind = "accuracy"
    title = "accuracy claim about a table or formula"
    schema = AccuracyFile
    noun = "an accuracy claim"
    routes: Sequence[Route[AccuracySpec, Any]] = (BY_ERROR_TABLE,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return accuracy_spec.is_accuracy(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> AccuracySpec:
        return accuracy_spec.check(data, file, sha256)

    def summary(self, spec: AccuracySpec) -> str:
        m = spec.mech
        return f"{m.inputs.size} inputs, {m.outputs.size} outputs, claim {spec.claim.text()}"


class FamilyForm(Form[FamilySpec]):
    kind = "family"
    title = "formula with symbolic parameters"
    schema = FamilyFile
    noun = "a family"
    routes: Sequence[Route[FamilySpec, Any]] = (FOR_ALL_PARAMETERS,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return family_spec.is_family(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> FamilySpec:
        return family_spec.check(dict(data), file, sha256)

    def summary(self, spec: FamilySpec) -> str:
        return (f"family over {', '.join(p.name for p in spec.symbols)}, "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP for every parameter value")


class ExpFamilyForm(Form[ExpFamilySpec]):
    kind = "expfamily"
    title = "mechanism calibrated with e^eps, by its family's parameters"
    schema = ExpFamilyFile
    noun = "a mechanism calibrated with e^eps"
    routes: Sequence[Route[ExpFamilySpec, Any]] = (BY_GEOMETRIC, BY_EXPMECH)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return expfamily_spec.claims(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> ExpFamilySpec:
        return expfamily_spec.check(dict(data), file, sha256)

    def summary(self, spec: ExpFamilySpec) -> str:
        if spec.family == "exponential":
            return (f"exponential mechanism, {spec.inputs.size} inputs x {spec.outputs.size} outputs, weights "
                    f"exp(({spec.calibration_text}) * score), claim ({spec.epsilon_text}, {spec.delta_text})-DP")
        return (f"truncated geometric over 0..{spec.n} with alpha = exp(-({spec.calibration_text})), "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")


class CalibratedForm(Form[CalibratedSpec]):
    kind = "calibrated"
    title = "table or formula with entries in exp and ln"
    schema = Spec
    noun = "a table with exp or ln entries"
    routes: Sequence[Route[CalibratedSpec, Any]] = (BY_BRACKETS,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return calibrated_spec.claims(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> CalibratedSpec:
        return calibrated_spec.check(dict(data), file, sha256)

    def summary(self, spec: CalibratedSpec) -> str:
        return (f"{spec.inputs.size} inputs x {spec.outputs.size} outputs, entries with exp/ln, "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")


class KovForm(Form[KovSpec]):
    kind = "kov"
    title = "KOV bound for every (epsilon0, 0)-DP mechanism run k times"
    schema = KovFile
    noun = "a KOV claim"
    routes: Sequence[Route[KovSpec, Any]] = (BY_KOV,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return kov_spec.is_kov(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> KovSpec:
        return kov_spec.check(data, file, sha256)

    def summary(self, spec: KovSpec) -> str:
        return kov_summary(spec)


class TableForm(Form[MechanismSpec]):
    kind = "finite"
    title = "table or formula"
    schema = Spec
    profiles = True
    # a member of a library family first, then a composed claim without its product table
    routes: Sequence[Route[MechanismSpec, Any]] = (BY_FAMILY, BY_BASIC_COMPOSITION, BY_PLD, BY_TABLE)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return True   # the default form: its schema says what is missing

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        return spec.check_finite(data, file, sha256)

    def summary(self, s: MechanismSpec) -> str:
        return (f"{s.inputs.size} inputs, {s.outputs.size} outputs, "
                f"claim ({s.epsilon_text}, {s.delta_text})-DP")

    def derive(self, s: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        return derive_recorded(s, derived)

    def finite_table(self, s: MechanismSpec) -> FiniteMechanism:
        return tabulate(s)


FORMS: tuple[Form[Any], ...] = (AccuracyForm(), FamilyForm(), ExpFamilyForm(), CalibratedForm(), KovForm(),
                                TableForm())
