"""The forms of the program model: a program for every stream length (by alignment; recognised
by its `for_all_k` claim) and a program over finite inputs (by enumeration).  Both read their
own `sweep:` (a program's points also name their claims)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form
from obligations.core.spec import MechanismSpec, derive_recorded
from obligations.program import coupling_spec, spec
from obligations.program.align import spec as align_spec
from obligations.program.align.route import BY_GENERIC_ALIGNMENT
from obligations.program.align.route import fallback_claims as generic_fallback_claims
from obligations.program.align.spec import AlignSpec, ASpecModel
from obligations.program.analysis import tabulate_program
from obligations.program.by_alignment import BY_ALIGNMENT, fallback_claims
from obligations.program.by_enumeration import BY_ENUMERATION
from obligations.program.coupling_spec import CouplingSpec, CouplingSpecModel
from obligations.program.refute.real_route import BY_REAL_COUNTEREXAMPLE
from obligations.program.refute.route import BY_COUNTEREXAMPLE
from obligations.program.spec import ProgramSpecModel


def _check_program(data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
    refuse_accuracy(data, file, "a program")
    checked: MechanismSpec = spec.check_program(data, file, sha256)
    return checked


def _derive(s: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
    """A sweep point, or a profile point of the program's table."""
    if "sweep" in derived:
        point: MechanismSpec = spec.derive_point(s, derived["sweep"])
        return point
    return derive_recorded(s, derived)


def _all_k(s: CouplingSpec) -> str:
    return f"program over a stream of any length, claim ({s.epsilon_text}, 0)-DP by alignment"


def _generic(s: AlignSpec) -> str:
    noise = ", continuous Laplace noise" if s.continuous else ""
    length = "any length" if s.length is None else f"length {s.length}"
    return (f"program over a stream of {length} ({s.neighbours}{noise}), claim ({s.epsilon_text}, 0)-DP "
            "by the generic alignment route")


def _family_form(data: Mapping[str, Any]) -> bool:
    """An all-k spec in the family form (one stream with a sensitivity, nothing else) keeps
    the family theories' route; every other all-k program is the generic route's."""
    try:
        CouplingSpecModel.model_validate(data)
    except ValidationError:
        return False
    return True


def _is_generic(data: Mapping[str, Any]) -> bool:
    return (align_spec.is_all_k(data) and not _family_form(data)) or align_spec.is_at_length(data)


def _program(s: MechanismSpec) -> str:   # outputs are known only once it runs
    return f"program over {s.inputs.size} inputs, claim ({s.epsilon_text}, {s.delta_text})-DP"


FORMS: tuple[Form[Any], ...] = (
    Form("align", "program for every stream length (generic alignment)", ASpecModel, _is_generic,
         align_spec.check, _generic, (BY_REAL_COUNTEREXAMPLE, BY_COUNTEREXAMPLE, BY_GENERIC_ALIGNMENT),
         noun="an all-k claim", own_sweep=True,
         points=generic_fallback_claims),
    Form("coupling", "program for every stream length", CouplingSpecModel, align_spec.is_all_k,
         coupling_spec.check, _all_k, (BY_ALIGNMENT,), noun="an all-k claim", own_sweep=True,
         points=fallback_claims),
    Form("program", "program", ProgramSpecModel, spec.is_program, _check_program, _program, (BY_ENUMERATION,),
         profiles=True, own_sweep=True, points=spec.expand, derived=_derive, table=tabulate_program),
)
