"""The model registry: a spec is read by the same form whichever models are imported, and a
command on one spec imports only the models that may read it (start-up time)."""
from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.models import MODELS, all_forms, form_for, form_of, load

REPO = Path(__file__).resolve().parents[2]
SPEC_FILES = sorted(p for d in ("mechanisms", "tests/specs") for p in (REPO / d).rglob("*.yaml"))


def _mapping(path: Path) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


@functools.cache
def mappings() -> list[tuple[Path, dict[str, Any]]]:
    """Every spec file's mapping, parsed once by the worker that runs these tests (at module
    level every worker parsed the 176 files while collecting: 0.75 s of CPU each)."""
    return [(p, d) for p in SPEC_FILES if (d := _mapping(p)) is not None]


def test_the_specs_cover_every_model() -> None:
    assert len(mappings()) > 100
    read_by = {m.name for _, d in mappings() for m in MODELS if any(f.recognises(d) for f in m.forms)}
    assert read_by == {m.name for m in MODELS}


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.name)
def test_a_model_that_may_not_read_a_mapping_has_no_form_that_does(model: Any) -> None:
    wrong = [str(p.relative_to(REPO)) for p, d in mappings()
             if not model.may_read(d) and any(f.recognises(d) for f in model.forms)]
    assert wrong == []


def test_the_form_is_the_first_of_all_that_recognises() -> None:
    for path, data in mappings():
        first = next((f for f in all_forms() if f.recognises(data)), None)
        if first is not None:
            assert form_for(data) is first, path


def test_form_of_finds_the_form_of_a_checked_spec() -> None:
    spec = load(REPO / "mechanisms" / "checkdp" / "sparsevector.yaml")
    assert form_of(spec).kind == spec.kind == form_for(_mapping(REPO / "mechanisms" / "checkdp" / "sparsevector.yaml")
                                                       or {}).kind


def test_reading_a_program_spec_imports_no_other_model() -> None:
    code = ("import sys; from obligations.models import load; "
            "load('mechanisms/checkdp/sparsevector.yaml'); "
            "print(sorted(m for m in ('table', 'noise', 'float', 'program') "
            "if f'obligations.{m}.forms' in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['program']"]
