"""The noise model: a noise pipeline (the snapping mechanism: u ~ U(0,1], a sign, noise steps,
the query, rounding to a grid, clamping) over real numbers, for all parameter values: its DP
claim by the sympy case table (`by_cases.py`) and its distance to Laplace
(`against_laplace.py`); `forms.py` lists its forms, templates in `templates/`; Coq library
`Noise/`.  `utility_instance.py` gives the numbers `obligations utility` plots."""
from __future__ import annotations

from obligations.core.model import Model
from obligations.noise.forms import FORMS

NOISE = Model("noise", FORMS)

__all__ = ["NOISE"]
