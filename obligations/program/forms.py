"""The forms of the program model: a program for every stream length (by alignment; recognised
by its `for_all_k` claim) and a program over finite inputs (by enumeration).  Both read their
own `sweep:` (a program's points also name their claims)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from obligations.analysis.finite import FiniteMechanism
from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form, Route
from obligations.core.spec import MechanismSpec, derive_recorded
from obligations.program import coupling_spec, spec
from obligations.program.analysis import tabulate_program
from obligations.program.by_alignment import BY_ALIGNMENT, fallback_claims
from obligations.program.by_enumeration import BY_ENUMERATION
from obligations.program.coupling_spec import CouplingSpec, CouplingSpecModel
from obligations.program.spec import ProgramSpecModel


class CouplingForm(Form[CouplingSpec]):
    kind = "coupling"
    title = "program for every stream length"
    schema = CouplingSpecModel
    noun = "an all-k claim"
    own_sweep = True
    routes: Sequence[Route[CouplingSpec, Any]] = (BY_ALIGNMENT,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return coupling_spec.is_all_k(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> CouplingSpec:
        return coupling_spec.check(data, file, sha256)

    def summary(self, s: CouplingSpec) -> str:
        return f"program over a stream of any length, claim ({s.epsilon_text}, 0)-DP by alignment"

    def expand(self, s: CouplingSpec) -> list[Any]:
        return fallback_claims(s)


class ProgramForm(Form[MechanismSpec]):
    kind = "program"
    title = "program"
    schema = ProgramSpecModel
    profiles = True
    own_sweep = True
    routes: Sequence[Route[MechanismSpec, Any]] = (BY_ENUMERATION,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return spec.is_program(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        refuse_accuracy(data, file, "a program")
        checked: MechanismSpec = spec.check_program(data, file, sha256)
        return checked

    def summary(self, s: MechanismSpec) -> str:   # outputs are known only once it runs
        return f"program over {s.inputs.size} inputs, claim ({s.epsilon_text}, {s.delta_text})-DP"

    def expand(self, s: MechanismSpec) -> list[Any]:
        return spec.expand(s)

    def derive(self, s: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        if "sweep" in derived:
            point: MechanismSpec = spec.derive_point(s, derived["sweep"])
            return point
        return derive_recorded(s, derived)   # a profile point of the program's table

    def finite_table(self, s: MechanismSpec) -> FiniteMechanism:
        return tabulate_program(s)


FORMS: tuple[Form[Any], ...] = (CouplingForm(), ProgramForm())
