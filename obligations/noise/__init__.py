"""The noise model: a noise pipeline (the snapping mechanism: u ~ U(0,1], a sign, noise steps,
the query, rounding to a grid, clamping) over real numbers, for all parameter values: its DP
claim by the sympy case table (`by_cases.py`) and its distance to Laplace
(`against_laplace.py`); `forms.py` lists its forms, templates in `templates/`; Coq library
`Noise/`.  `utility_instance.py` gives the numbers `obligations utility` plots."""
from __future__ import annotations

from obligations.core.model import Model

# The claim field of a comparison with Laplace (`utility_spec.py`), the model's other form.
CLAIM_KEY = "distance_to_laplace"

NOISE = Model("noise", __name__, keys=("pipeline",), claim_keys=(CLAIM_KEY,))

__all__ = ["CLAIM_KEY", "NOISE"]
