"""The forms of the float model: a noise pipeline run in a small binary format (enumerated),
and floating-point snapping in binary64, for all parameters (the closed form, recognised by a
parameter `any` or a claim `bound:`) or at concrete ones."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form
from obligations.core.spec import derive_recorded
from obligations.float import all_parameters_spec, binary64_spec, spec
from obligations.float.all_parameters import ALL_PARAMETERS
from obligations.float.all_parameters import summary as all_summary
from obligations.float.all_parameters_spec import BinarySnappingAllFile
from obligations.float.analysis import tabulate_floating
from obligations.float.binary64 import BINARY64
from obligations.float.binary64_document import summary as binary64_summary
from obligations.float.binary64_spec import BinarySnappingFile
from obligations.float.binary64_two import BINARY64_TWO
from obligations.float.by_enumeration import BY_ENUMERATION
from obligations.float.by_enumeration import summary as floating_summary

S = TypeVar("S")
Check = Callable[[Mapping[str, Any], str, str], S]   # (data, file, sha256) -> the checked spec


def _no_accuracy(what: str, check: Check[S]) -> Check[S]:
    """`check`, after refusing an accuracy claim (those are for finite tables)."""
    def checked(data: Mapping[str, Any], file: str, sha256: str) -> S:
        refuse_accuracy(data, file, what)
        return check(data, file, sha256)
    return checked


FORMS: tuple[Form[Any], ...] = (
    Form("floating", "floating-point pipeline", spec.FloatingFile, spec.is_floating,
         _no_accuracy("a floating-point pipeline", spec.check), floating_summary, (BY_ENUMERATION,),
         profiles=True, derived=derive_recorded, table=tabulate_floating),
    Form("binary_snapping_all",
         "floating-point snapping in binary64 for all parameters (snap_binary64_dp_tight, closed form)",
         BinarySnappingAllFile, all_parameters_spec.is_binary_snapping_all,
         _no_accuracy("floating-point snapping", all_parameters_spec.check), all_summary, (ALL_PARAMETERS,),
         noun="an all-parameters binary snapping claim"),
    Form("binary_snapping", "floating-point snapping in binary64, for all inputs (float_snap_dp_tight)",
         BinarySnappingFile, binary64_spec.is_binary_snapping,
         _no_accuracy("floating-point snapping", binary64_spec.check), binary64_summary, (BINARY64, BINARY64_TWO),
         noun="a binary snapping claim"),
)
