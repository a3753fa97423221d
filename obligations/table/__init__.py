"""The table model: a finite mechanism given by a table or a formula, or named by a library
family and its parameters, and claims about it (DP, composed, for all parameters, accuracy,
the KOV bound for every such mechanism); `forms.py` lists its forms and their routes
(`by_*.py`, `for_all_parameters.py`), templates in `templates/`; Coq library `Finite/`."""
from __future__ import annotations

from obligations.core.model import Model

TABLE = Model("table", __name__)

__all__ = ["TABLE"]
