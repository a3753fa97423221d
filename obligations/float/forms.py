"""The forms of the float model: a noise pipeline run in a small binary format (enumerated),
and floating-point snapping in binary64, for all parameters (the closed form, recognised by a
parameter `any` or a claim `bound:`) or at concrete ones."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form, Route
from obligations.core.spec import MechanismSpec, derive_recorded
from obligations.float import all_parameters_spec, binary64_spec, spec
from obligations.float.all_parameters import ALL_PARAMETERS
from obligations.float.all_parameters import summary as all_summary
from obligations.float.all_parameters_spec import BinarySnappingAllFile, BinarySnappingAllSpec
from obligations.float.analysis import FloatMechanism, tabulate_floating
from obligations.float.binary64 import BINARY64
from obligations.float.binary64 import summary as binary64_summary
from obligations.float.binary64_spec import BinarySnappingFile, BinarySnappingSpec
from obligations.float.by_enumeration import BY_ENUMERATION
from obligations.float.by_enumeration import summary as floating_summary


class FloatingForm(Form[MechanismSpec]):
    kind = "floating"
    title = "floating-point pipeline"
    schema = spec.FloatingFile
    profiles = True
    routes: Sequence[Route[MechanismSpec, Any]] = (BY_ENUMERATION,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return spec.is_floating(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        refuse_accuracy(data, file, "a floating-point pipeline")
        return spec.check(data, file, sha256)

    def summary(self, s: MechanismSpec) -> str:
        return floating_summary(s)

    def derive(self, s: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        return derive_recorded(s, derived)   # a profile point of the table

    def finite_table(self, s: MechanismSpec) -> FloatMechanism:
        return tabulate_floating(s)


class AllParametersForm(Form[BinarySnappingAllSpec]):
    kind = "binary_snapping_all"
    title = "floating-point snapping in binary64 for all parameters (snap_binary64_dp, closed form)"
    schema = BinarySnappingAllFile
    noun = "an all-parameters binary snapping claim"
    routes: Sequence[Route[BinarySnappingAllSpec, Any]] = (ALL_PARAMETERS,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return all_parameters_spec.is_binary_snapping_all(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> BinarySnappingAllSpec:
        refuse_accuracy(data, file, "floating-point snapping")
        return all_parameters_spec.check(data, file, sha256)

    def summary(self, s: BinarySnappingAllSpec) -> str:
        return all_summary(s)


class Binary64Form(Form[BinarySnappingSpec]):
    kind = "binary_snapping"
    title = "floating-point snapping in binary64, for all inputs (float_snap_dp)"
    schema = BinarySnappingFile
    noun = "a binary snapping claim"
    routes: Sequence[Route[BinarySnappingSpec, Any]] = (BINARY64,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return binary64_spec.is_binary_snapping(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> BinarySnappingSpec:
        refuse_accuracy(data, file, "floating-point snapping")
        return binary64_spec.check(data, file, sha256)

    def summary(self, s: BinarySnappingSpec) -> str:
        return binary64_summary(s)


FORMS: tuple[Form[Any], ...] = (FloatingForm(), AllParametersForm(), Binary64Form())
