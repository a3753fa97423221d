"""The program model: a mechanism written as a small probabilistic program, over finite inputs
(enumerated exactly, `by_enumeration.py`) or over a stream of any length (ε-DP for every k by
randomness alignment, `by_alignment.py`); `forms.py` lists its forms, templates in
`templates/`; Coq library `Program/`, `Coupling/`."""
from __future__ import annotations

from obligations.core.model import Model

PROGRAM = Model("program", __name__, keys=("program",))

__all__ = ["PROGRAM"]
