"""The optional client libraries for the tests that run their own code: skipped with a reason
when the library cannot be imported (`pip install 'obligations[clients]'`)."""
from __future__ import annotations

from typing import Any

import pytest


def diffprivlib_snapping() -> Any:
    """diffprivlib's `Snapping` class, or a skip."""
    try:
        from diffprivlib.mechanisms import Snapping
    except ImportError as exc:  # absent, or scikit-learn too new for diffprivlib 0.6.6
        pytest.skip(f"diffprivlib cannot be imported ({exc}): pip install 'obligations[clients]'")
    return Snapping
