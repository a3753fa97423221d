"""The float model: noise pipelines run in a binary floating-point format: in a small format,
enumerated exactly (`by_enumeration.py`); the snapping mechanism in binary64 at concrete
parameters (`binary64.py`) and for all parameters (`all_parameters.py`); `forms.py` lists its
forms, templates in `templates/`; Coq library `Float/`."""
from __future__ import annotations

from obligations.core.model import Model

FLOAT = Model("float", __name__, keys=("floating", "snapping"))

__all__ = ["FLOAT"]
