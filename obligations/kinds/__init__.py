"""The registry of mechanism kinds: a spec file is read once, claimed by exactly one kind,
and from then on every question about it goes to that kind."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping, Union

from pydantic.json_schema import models_json_schema

from obligations.errors import InternalError, SpecError
from obligations.kinds.accuracy import ACCURACY
from obligations.kinds.base import Kind, Unfolded
from obligations.kinds.binary_snapping import BINARY_SNAPPING
from obligations.kinds.binary_snapping_all import BINARY_SNAPPING_ALL
from obligations.kinds.calibrated import CALIBRATED
from obligations.kinds.coupling import COUPLING
from obligations.kinds.expfamily import EXPFAMILY
from obligations.kinds.family import FAMILY
from obligations.kinds.utility import UTILITY
from obligations.kinds.finite import FINITE
from obligations.kinds.kov import KOV
from obligations.kinds.floating import FLOATING
from obligations.kinds.pipeline import PIPELINE
from obligations.kinds.program import PROGRAM
from obligations.core import sweep
from obligations.core.spec import check_common, read

# Order matters: the first kind that claims a mapping checks it (finite is the default form).
KINDS: tuple[Kind, ...] = (COUPLING, ACCURACY, UTILITY, PROGRAM, PIPELINE, FLOATING, FAMILY, EXPFAMILY,
                          CALIBRATED, KOV, BINARY_SNAPPING_ALL, BINARY_SNAPPING, FINITE)


def kind_of(spec: Any) -> Kind:
    for k in KINDS:
        if k.name == spec.kind:
            return k
    raise InternalError(f"no mechanism kind named {spec.kind!r}")


def check(data: Any, file: str, sha256: str = "") -> Any:
    """Validate parsed YAML data into the spec of the kind that claims it (a file with a
    `sweep:`: every point is checked, the first one returned; `expand` gives them all)."""
    specs = check_all(data, file, sha256)
    return specs[0]


def check_all(data: Any, file: str, sha256: str = "") -> list[Any]:
    """Every claim a file stands for: one spec, or one per point of a `sweep:` (core/sweep.py)."""
    if not isinstance(data, dict):
        raise SpecError(file, "", "a spec is a YAML mapping (name: ..., inputs: ..., ...)")
    if not sweep.has_sweep(data) or PROGRAM.claims(data):   # programs sweep themselves
        return [_check_one(data, file, sha256)]
    return [replace(_check_one(point, file, sha256), derived={"name": point["name"], "sweep": values})
            for point, values in sweep.points(data, file)]


def _check_one(data: Any, file: str, sha256: str) -> Any:
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
    derived = getattr(spec, "derived", None)
    if derived and "sweep" in derived and spec.kind != PROGRAM.name:
        return [k for s in _swept(spec) for k in kind_of(s).expand(s)]
    return kind_of(spec).expand(spec)


def derive(spec: Any, derived: Mapping[str, Any]) -> Any:
    own = getattr(spec, "derived", None)
    if "sweep" in derived and own and "sweep" in own and spec.kind != PROGRAM.name:
        wanted = {str(k): str(v) for k, v in derived["sweep"].items()}
        name = derived.get("name")   # points with the same values differ by their names
        point = next((s for s in _swept(spec) if s.derived["sweep"] == wanted
                      and (name is None or s.derived["name"] == name)), None)
        if point is None:
            raise SpecError(spec.path, "sweep", f"no sweep point {wanted}")
        return point
    return kind_of(spec).derive(spec, derived)


def _swept(spec: Any) -> list[Any]:
    """The points of the file `spec` is the first point of (read again: the file's hash
    must be the same)."""
    data, file, sha256 = read(spec.path)
    if sha256 != spec.sha256:
        raise SpecError(file, "", "the file changed while it was being read")
    return check_all(data, file, sha256)


__all__ = ["KINDS", "Kind", "Unfolded", "check", "check_all", "derive", "expand", "kind_of", "load", "unfold",
           "witness"]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a spec file: one of the kinds' forms, their definitions shared at
    the root (where every `$ref` points)."""
    forms = [k.form for k in reversed(KINDS)]
    refs, top = models_json_schema([(form, "validation") for form in forms], ref_template="#/$defs/{model}")
    branches = [{**refs[(form, "validation")], "title": k.title} for form, k in zip(forms, reversed(KINDS))]
    defs = top.get("$defs", {})
    for form in forms:   # `sweep:` for every form (core/sweep.py); programs declare their own
        props = defs.get(form.__name__, {}).get("properties")
        if isinstance(props, dict) and "sweep" not in props:
            props["sweep"] = SWEEP_SCHEMA
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"obligations spec (schema_version 1): one of {len(forms)} forms",
            "anyOf": branches, "$defs": defs}


SWEEP_SCHEMA: dict[str, Any] = {
    "type": "array", "minItems": 1, "maxItems": sweep.MAX_POINTS,
    "description": "one claim per point: parameter values and optionally epsilon, delta (core/sweep.py)",
    "items": {"type": "object", "minProperties": 1,
              "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "number"}]}}}
