"""Every test of tests/coq runs real Coq: each is marked `coq` here, whatever its file says
(`pytest -m "not coq"` runs the rest)."""
from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.coq)
