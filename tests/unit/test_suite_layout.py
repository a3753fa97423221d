"""The suite's own layout: `make test` collects tests/ (in two pytest runs, scripts/test.sh) with the default
import mode, where two test files of the same name in different folders fail to collect
(one shadows the other's module)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def test_test_files_have_distinct_names() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, c in names.items() if c > 1] == []
