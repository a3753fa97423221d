"""The registry of the four mechanism models: a spec file is read once, recognised by exactly
one form of one model, and from then on every question about it goes to that form and to the
route that unfolded it (`core/model.py`)."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeAlias

from pydantic.json_schema import models_json_schema

from obligations.core import model, sweep
from obligations.core.model import Form, Model
from obligations.core.spec import check_common, read
from obligations.errors import InternalError, SpecError
from obligations.float import FLOAT
from obligations.noise import NOISE
from obligations.program import PROGRAM
from obligations.table import TABLE

Unfolded: TypeAlias = model.Unfolded[Any, Any]   # a spec of any model, unfolded by its route

# Order matters: the first model whose form recognises a mapping checks it (the table
# model's table/formula form is the default, last).
MODELS: tuple[Model, ...] = (PROGRAM, NOISE, FLOAT, TABLE)


def all_forms() -> tuple[Form[Any], ...]:
    """Every form of every model, in the order they are tried (imports every model)."""
    return tuple(f for m in MODELS for f in m.forms)


def form_of(spec: Any) -> Form[Any]:
    """The form a checked spec was read by (looked for in the model that defines its class
    first, then in the models already imported: a table spec's class is core's, and importing
    the other three models to look there first cost 0.3 s of CPU)."""
    for m in sorted(MODELS, key=lambda m: (not m.owns(spec), not m.imported)):
        for f in m.forms:
            if f.kind == spec.kind:
                return f
    raise InternalError(f"no spec form named {spec.kind!r}")


def form_for(data: Mapping[str, Any]) -> Form[Any]:
    """The form that reads a mapping: the first that recognises it, among the models that may."""
    return next(f for m in MODELS if m.may_read(data) for f in m.forms if f.recognises(data))


def check(data: Any, file: str, sha256: str = "") -> Any:
    """Validate parsed YAML data into the spec of the form that recognises it (a file with a
    `sweep:`: every point is checked, the first one returned; `expand` gives them all)."""
    return check_all(data, file, sha256)[0]


def check_all(data: Any, file: str, sha256: str = "") -> list[Any]:
    """Every claim a file stands for: one spec, or one per point of a `sweep:` (core/sweep.py)."""
    if not isinstance(data, dict):
        raise SpecError(file, "", "a spec is a YAML mapping (name: ..., inputs: ..., ...)")
    if not sweep.has_sweep(data) or form_for(data).own_sweep:
        return [_check_one(data, file, sha256)]
    return [replace(_check_one(point, file, sha256), derived={"name": point["name"], "sweep": values})
            for point, values in sweep.points(data, file)]


def _check_one(data: Any, file: str, sha256: str) -> Any:
    if not isinstance(data, dict):
        raise SpecError(file, "", "a spec is a YAML mapping (name: ..., inputs: ..., ...)")
    check_common(data, file)
    form = form_for(data)
    try:
        return form.check(data, file, sha256)
    except RecursionError:  # nesting PyYAML still read, but a checker walks recursively
        raise SpecError(file, "", "nested too deeply (lists or mappings inside each other "
                        "hundreds of levels deep)") from None
    except SpecError as exc:
        raise in_form(exc, form) from None


def in_form(exc: SpecError, form: Form[Any]) -> SpecError:
    """The error as said of the form that read the spec; an unknown field that another form
    has at that place says which (a `neighbours:` in a pipeline spec belongs to tables)."""
    first, _, rest = exc.message.partition("\n")
    if first.startswith("unknown field"):
        owners = list(dict.fromkeys(_owner(m, f, form) for m in MODELS for f in m.forms
                                    if f.kind != form.kind and _has_field(f, exc.field)))
        if owners:
            said = ", ".join(owners[:-1]) + " or " + owners[-1] if len(owners) > 1 else owners[0]
            first = first.replace("unknown field", f"unknown field here; it is a field of {said} specs", 1)
    first += f" (read as {'an' if form.title[0] in 'aeiou' else 'a'} {form.title} spec)"
    return SpecError(exc.file, exc.field, first + ("\n" + rest if rest else ""))


# What the models' specs are called in messages
MODEL_NOUNS = {"table": "table or formula", "program": "program", "noise": "noise pipeline",
               "float": "floating-point pipeline"}


def _owner(m: Model, f: Form[Any], reader: Form[Any]) -> str:
    """Another model's form by its model's name; a sibling form of the reader's model by its title."""
    return f.title if reader in m.forms else MODEL_NOUNS.get(m.name, m.name)


def _has_field(form: Form[Any], field: str) -> bool:
    """Whether the form's schema has the dotted field (`claim.for_all_k`) at that place."""
    schema = form.schema.model_json_schema()
    nodes: list[Any] = [schema]
    for name in field.split("."):
        props: list[Any] = []
        for node in nodes:
            props += [p[name] for p in _objects(node, schema) if name in p]
        if not props:
            return False
        nodes = props
    return True


def _objects(node: Any, schema: Mapping[str, Any], depth: int = 0) -> list[Mapping[str, Any]]:
    """The `properties` of the object types a schema node may be ($ref and unions followed)."""
    if not isinstance(node, dict) or depth > 8:
        return []
    if "$ref" in node:
        node = schema.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    out = [node["properties"]] if "properties" in node else []
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, []):
            out += _objects(branch, schema, depth + 1)
    return out


def load(path: str | Path) -> Any:
    """Read and check the spec at `path`."""
    data, file, sha256 = read(path)
    return check(data, file, sha256)


def unfold(spec: Any) -> Unfolded:
    """Analyse a spec and render its Coq document (the first route of its form that fits)."""
    form = form_of(spec)
    try:
        return form.unfold(spec)
    except SpecError as exc:
        raise in_form(exc, form) from None


@contextmanager
def adopted(spec: Any, hint: Any) -> Iterator[None]:
    """Within the context, the routes of the spec's form analyse it with the hint a
    certificate records (`Route.adopt`: an alignment Coq checks), not by searching again;
    afterwards as before.  `model.HintError`: the hint is not one a route reads."""
    with ExitStack() as stack:
        for route in form_of(spec).routes:
            stack.enter_context(route.adopt(spec, hint))
        yield


def witness(u: Unfolded) -> Any:
    return u.witness()


def expand(spec: Any) -> list[Any]:
    """The claims a spec stands for: its file's sweep points, or what its form expands it to."""
    if _swept_point(spec):
        return [k for s in _swept(spec) for k in form_of(s).expand(s)]
    return form_of(spec).expand(spec)


def derive(spec: Any, derived: Mapping[str, Any]) -> Any:
    """The claim a certificate's `derived` field names: a sweep point, or the form's own."""
    if "sweep" in derived and _swept_point(spec):
        wanted = {str(k): str(v) for k, v in derived["sweep"].items()}
        name = derived.get("name")   # points with the same values differ by their names
        point = next((s for s in _swept(spec) if s.derived["sweep"] == wanted
                      and (name is None or s.derived["name"] == name)), None)
        if point is None:
            raise SpecError(spec.path, "sweep", f"no sweep point {wanted}")
        return point
    return form_of(spec).derive(spec, derived)


def _swept_point(spec: Any) -> bool:
    """Whether a spec is a point of its file's `sweep:` (core/sweep.py, not a form's own)."""
    return bool(spec.derived) and "sweep" in spec.derived and not form_of(spec).own_sweep


def _swept(spec: Any) -> list[Any]:
    """The points of the file `spec` is the first point of (read again: the file's hash
    must be the same)."""
    data, file, sha256 = read(spec.path)
    if sha256 != spec.sha256:
        raise SpecError(file, "", "the file changed while it was being read")
    return check_all(data, file, sha256)


__all__ = ["MODELS", "Unfolded", "all_forms", "check", "check_all", "derive", "expand", "form_of", "json_schema",
           "load", "unfold", "witness"]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a spec file: one of the forms' schemas, their definitions shared at
    the root (where every `$ref` points)."""
    forms = [f for m in reversed(MODELS) for f in reversed(m.forms)]
    schemas = [f.schema for f in forms]
    refs, top = models_json_schema([(s, "validation") for s in schemas], ref_template="#/$defs/{model}")
    branches = [{**refs[(s, "validation")], "title": f.title} for s, f in zip(schemas, forms, strict=False)]
    defs = top.get("$defs", {})
    for s in schemas:   # `sweep:` for every form (core/sweep.py); programs declare their own
        props = defs.get(s.__name__, {}).get("properties")
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
