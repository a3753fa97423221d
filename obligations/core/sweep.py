"""`sweep:` for every kind: a spec file that stands for one claim per point.

```yaml
parameters: {alpha: 1/2}
claim: {epsilon: "-ln(alpha)"}
sweep:
  - {alpha: 1/4, epsilon: "ln(4)"}
  - {alpha: 1/3}                  # the file's claim at alpha = 1/3
```

Each point sets parameters the file already has (any kind whose spec has `parameters`)
and optionally the claim's `epsilon` and `delta`; the point is the file's mapping with
those values and the name `NAME_alpha_0` (`NAME_k2` for an integer value), checked by the
kind that claims it, like any spec.  Values are spec expressions (strings or numbers),
never evaluated here.  The program kind has its own `sweep` (its points also name their
claims), which this module leaves alone.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from obligations.errors import SpecError

CLAIM_KEYS = ("epsilon", "delta")
MAX_POINTS = 200


def has_sweep(data: Mapping[str, Any]) -> bool:
    return "sweep" in data


def points(data: Mapping[str, Any], file: str) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """The mapping of each point and the parameter values it sets (as text)."""
    sweep = data.get("sweep")
    if not isinstance(sweep, list) or not sweep:
        raise SpecError(file, "sweep", "a sweep is a non-empty list of points, e.g. [{alpha: 1/4}, {alpha: 1/3}]")
    if len(sweep) > MAX_POINTS:
        raise SpecError(file, "sweep", f"{len(sweep)} points; at most {MAX_POINTS}")
    params = data.get("parameters") or {}
    if not isinstance(params, dict):
        raise SpecError(file, "parameters", "parameters are a mapping name: value")
    out = []
    for i, point in enumerate(sweep):
        out.append(_point(data, file, params, i, point))
    seen = [{str(k): str(v) for k, v in p.items()} for p in sweep]
    names = [d["name"] for d, _ in out]
    for i, p in enumerate(seen):
        for j in range(i):
            if p == seen[j] or names[i] == names[j]:
                raise SpecError(file, f"sweep[{i}]", f"the same point as sweep[{j}] (name {names[i]!r})")
    return out


def _point(data: Mapping[str, Any], file: str, params: Mapping[str, Any], i: int,
           point: Any) -> tuple[dict[str, Any], dict[str, str]]:
    field = f"sweep[{i}]"
    if not isinstance(point, dict) or not point:
        raise SpecError(file, field, "a point is a mapping: parameter values and optionally epsilon, delta")
    values: dict[str, str] = {}
    out = copy.deepcopy({k: v for k, v in data.items() if k != "sweep"})
    for key, value in point.items():
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise SpecError(file, f"{field}.{key}", "a value is a number or an expression string")
        if key in CLAIM_KEYS:
            claim = out.get("claim")
            if not isinstance(claim, dict):
                raise SpecError(file, f"{field}.{key}", "this spec's claim has no epsilon or delta to set")
            claim[key] = value
        elif key in params:
            out["parameters"][key] = value
            values[str(key)] = str(value)
        else:
            raise SpecError(file, f"{field}.{key}", f"{key!r} is not a parameter "
                            f"(parameters: {', '.join(map(str, params)) or 'none'}) nor epsilon or delta")
    suffix = "_".join(f"{k}{v}" if re.fullmatch(r"[0-9]+", v) else f"{k}_{i}" for k, v in values.items())
    out["name"] = f"{data.get('name')}_{suffix or i}"
    return out, values
