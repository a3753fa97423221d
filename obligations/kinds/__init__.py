"""The registry of mechanism kinds: a spec file is read once, claimed by exactly one kind,
and from then on every question about it goes to that kind."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Union

from pydantic.json_schema import models_json_schema

from obligations.errors import InternalError, SpecError
from obligations.kinds.accuracy import ACCURACY
from obligations.kinds.base import Kind, Unfolded
from obligations.kinds.coupling import COUPLING
from obligations.kinds.family import FAMILY
from obligations.kinds.utility import UTILITY
from obligations.kinds.finite import FINITE
from obligations.kinds.floating import FLOATING
from obligations.kinds.pipeline import PIPELINE
from obligations.kinds.program import PROGRAM
from obligations.core.spec import check_common, read

# Order matters: the first kind that claims a mapping checks it (finite is the default form).
KINDS: tuple[Kind, ...] = (COUPLING, ACCURACY, UTILITY, PROGRAM, PIPELINE, FLOATING, FAMILY, FINITE)


def kind_of(spec: Any) -> Kind:
    for k in KINDS:
        if k.name == spec.kind:
            return k
    raise InternalError(f"no mechanism kind named {spec.kind!r}")


def check(data: Any, file: str, sha256: str = "") -> Any:
    """Validate parsed YAML data into the spec of the kind that claims it."""
    if not isinstance(data, dict):
        raise SpecError(file, "", "a spec is a YAML mapping (name: ..., inputs: ..., ...)")
    check_common(data, file)
    kind = next(k for k in KINDS if k.claims(data))
    try:
        return kind.check(data, file, sha256)
    except RecursionError:  # nesting PyYAML still read, but a checker walks recursively
        raise SpecError(file, "", "nested too deeply (lists or mappings inside each other "
                        "hundreds of levels deep)") from None


def load(path: Union[str, Path]) -> Any:
    """Read and check the spec at `path`."""
    data, file, sha256 = read(path)
    return check(data, file, sha256)


def unfold(spec: Any) -> Unfolded:
    """Analyse a spec and render its Coq document (the kind's `analyse`)."""
    return kind_of(spec).analyse(spec)


def witness(u: Unfolded) -> Any:
    return kind_of(u.spec).witness(u)


def expand(spec: Any) -> list[Any]:
    return kind_of(spec).expand(spec)


def derive(spec: Any, derived: Mapping[str, Any]) -> Any:
    return kind_of(spec).derive(spec, derived)


__all__ = ["KINDS", "Kind", "Unfolded", "check", "derive", "expand", "kind_of", "load", "unfold", "witness"]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a spec file: one of the kinds' forms, their definitions shared at
    the root (where every `$ref` points)."""
    forms = [k.form for k in reversed(KINDS)]
    refs, top = models_json_schema([(form, "validation") for form in forms], ref_template="#/$defs/{model}")
    branches = [{**refs[(form, "validation")], "title": k.title} for form, k in zip(forms, reversed(KINDS))]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"obligations spec (schema_version 1): one of {len(forms)} forms",
            "anyOf": branches, "$defs": top.get("$defs", {})}
