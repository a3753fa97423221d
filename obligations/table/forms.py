"""The forms of the table model, in the order they are tried on a mapping (the table/formula
form last: it is the default), each with the routes that prove its claims."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from obligations.analysis.finite import tabulate
from obligations.core.model import Form
from obligations.core.spec import MechanismSpec, derive_recorded
from obligations.table import (
    accuracy_spec,
    adaptive,
    additive,
    audit,
    calibrated_spec,
    chain,
    chain_spec,
    expfamily_spec,
    family_spec,
    kov_spec,
    spec,
)
from obligations.table.accuracy_spec import AccuracyFile, AccuracySpec
from obligations.table.by_accountant import derive_points
from obligations.table.by_brackets import BY_BRACKETS
from obligations.table.by_error_table import BY_ERROR_TABLE
from obligations.table.by_expmech import BY_EXPMECH
from obligations.table.by_geometric import BY_GEOMETRIC
from obligations.table.by_kov import BY_KOV
from obligations.table.by_kov import summary as kov_summary
from obligations.table.by_pure import BY_GAUSS_PURE, BY_PURE
from obligations.table.by_renyi import BY_RENYI
from obligations.table.calibrated_spec import CalibratedSpec
from obligations.table.expfamily_form import ExpFamilySpec as ExpFamilyFile
from obligations.table.expfamily_spec import ExpFamilySpec
from obligations.table.family_form import FamilyFile
from obligations.table.family_spec import FamilySpec
from obligations.table.finite_routes import FINITE_ROUTES
from obligations.table.for_all_parameters import FOR_ALL_PARAMETERS
from obligations.table.form import Spec
from obligations.table.kov_spec import KovFile


def _accuracy(s: AccuracySpec) -> str:
    return f"{s.mech.inputs.size} inputs, {s.mech.outputs.size} outputs, claim {s.claim.text()}"


def _family(s: FamilySpec) -> str:
    return (f"family over {', '.join(p.name for p in s.symbols)}, "
            f"claim ({s.epsilon_text}, {s.delta_text})-DP for every parameter value")


def _expfamily(s: ExpFamilySpec) -> str:
    if s.family == "exponential":
        return (f"exponential mechanism, {s.inputs.size} inputs x {s.outputs.size} outputs, weights "
                f"exp(({s.calibration_text}) * score), claim ({s.epsilon_text}, {s.delta_text})-DP")
    return (f"truncated geometric over 0..{s.n} with alpha = exp(-({s.calibration_text})), "
            f"claim ({s.epsilon_text}, {s.delta_text})-DP")


def _calibrated(s: CalibratedSpec) -> str:
    return (f"{s.inputs.size} inputs x {s.outputs.size} outputs, entries with exp/ln, "
            f"claim ({s.epsilon_text}, {s.delta_text})-DP")


def _table(s: MechanismSpec) -> str:
    return f"{s.inputs.size} inputs, {s.outputs.size} outputs, claim ({s.epsilon_text}, {s.delta_text})-DP"


def _derived(s: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
    """A profile point, or the accountant's profile of points (`region --compose K --certify`)."""
    if "points" in derived:
        return derive_points(s, str(derived["name"]), int(derived["compose"]), derived["points"])
    return derive_recorded(s, derived)


def _everything(data: Mapping[str, Any]) -> bool:
    return True   # the default form: its schema says what is missing


FORMS: tuple[Form[Any], ...] = (
    Form("accuracy", "accuracy claim about a table or formula", AccuracyFile, accuracy_spec.is_accuracy,
         accuracy_spec.check, _accuracy, (BY_ERROR_TABLE,), noun="an accuracy claim"),
    Form("family", "formula with symbolic parameters", FamilyFile, family_spec.is_family, family_spec.check,
         _family, (FOR_ALL_PARAMETERS,), noun="a family"),
    Form("expfamily", "mechanism calibrated with e^eps, by its family's parameters", ExpFamilyFile,
         expfamily_spec.claims, expfamily_spec.check, _expfamily, (BY_GEOMETRIC, BY_EXPMECH),
         noun="a mechanism calibrated with e^eps"),
    Form("calibrated", "table or formula with entries in exp and ln", Spec, calibrated_spec.claims,
         calibrated_spec.check, _calibrated, (BY_BRACKETS,), noun="a table with exp or ln entries"),
    Form("kov", "KOV bound for every (epsilon0, 0)-DP mechanism run k times", KovFile, kov_spec.is_kov,
         kov_spec.check, kov_summary, (BY_KOV,), noun="a KOV claim"),
    Form("audit", "report of another accountant, certified or refuted", audit.AuditFile, audit.is_audit,
         audit.check, audit.summary, (audit.BY_TARGET,), noun="an audit"),
    Form("additive", "additive discrete Laplace or discrete Gaussian noise over Z, run K times",
         additive.AdditiveFile, additive.is_additive, additive.check, additive.summary,
         (BY_PURE, BY_GAUSS_PURE, BY_RENYI, additive.BY_ADDITIVE_ACCOUNTANT), noun="an additive-noise claim",
         derived=additive.derive_recorded),
    Form("chain", "different mechanisms run one after another (compose)", chain_spec.ChainFile,
         chain_spec.is_chain, chain_spec.check, chain.summary,
         (adaptive.BY_DOMINATING_PAIRS, chain.BY_CHAIN_ACCOUNTANT), noun="a chain"),
    # a member of a library family first, then a composed claim without its product table
    Form("finite", "table or formula", Spec, _everything, spec.check_finite, _table,
         FINITE_ROUTES, profiles=True,
         derived=_derived, table=tabulate),
)
