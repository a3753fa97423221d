"""Where the package's own data lives: the Coq library and the templates, found as
package data so that an installed wheel works as well as a checkout."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def _package_dir(name: str) -> Path:
    return Path(str(resources.files("obligations") / name))


THEORIES = _package_dir("theories")     # the Coq library (logical name Obligations)
TEMPLATES = _package_dir("")            # every model's templates (*.v.j2), in its templates/ folder
