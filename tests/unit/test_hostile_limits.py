"""Limits are checked before anything is built: `obligations check` on specs sized to
exhaust memory or time (or to reach a Python error) ends with exit 2 naming the field.
Each runs as the user runs it, in a child process with a memory cap, so that a regression
fails the test instead of the machine."""
from __future__ import annotations

import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent.parent
MEMORY = 2 * 1024 ** 3     # the child's address space: far above what check needs


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _variant(tmp_path: Path, mechanism: str, change: dict[str, object]) -> Path:
    data = yaml.safe_load((REPO / "mechanisms" / f"{mechanism}.yaml").read_text())
    for dotted, value in change.items():
        *path, last = dotted.split(".")
        node = data
        for key in path:
            node = node[key]
        node[last] = value
    spec = tmp_path / f"{mechanism}.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    return spec


def _check(spec: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "obligations", "check", str(spec)], cwd=REPO, capture_output=True,
                          text=True, timeout=120, preexec_fn=_cap)


@pytest.mark.parametrize("mechanism, change, field", [
    # 2e9 query values: the range was built before its length was checked (22.5 GB)
    ("snapping_p6_ustar", {"floating.inputs": {"from": -10 ** 9, "to": 10 ** 9}}, "floating.inputs"),
    # the alignment search runs over every difference up to the sensitivity
    ("above_threshold_all_k", {"program.inputs.q.sensitivity": 10 ** 20}, "program.inputs.q.sensitivity"),
    ("above_threshold_all_k", {"program.inputs.q.sensitivity": 3 * 10 ** 6}, "program.inputs.q.sensitivity"),
    ("report_noisy_max_all_k", {"program.inputs.q.sensitivity": 65}, "program.inputs.q.sensitivity"),
    # a grid step beyond the proved range (it was a TypeError computing delta)
    ("diffprivlib_snapping", {"snapping.grid": "10**300"}, "snapping.grid"),
])
def test_a_limit_is_exit_2_naming_the_field(tmp_path: Path, mechanism: str, change: dict[str, object],
                                            field: str) -> None:
    run = _check(_variant(tmp_path, mechanism, change))
    assert run.returncode == 2, run.stdout + run.stderr
    assert re.search(rf"^obligations: \S+: {re.escape(field)}: ", run.stderr), run.stderr
    assert "Traceback" not in run.stderr


def test_huge_binary64_exponents_are_exact(tmp_path: Path) -> None:
    """epsilon = 2^-1000 with B = 2^1000: lambda is about 2^1000, within every range; the
    delta the file proposes is computed exactly (it was a TypeError: a float power of ten)."""
    spec = _variant(tmp_path, "diffprivlib_snapping", {"snapping.epsilon": "1/2**1000", "snapping.bound": "2**1000",
                                                       "snapping.calibration": "none"})
    run = _check(spec)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Python expects proved" in run.stdout


def test_the_sensitivity_limit_still_allows_the_shipped_ones(tmp_path: Path) -> None:
    run = _check(_variant(tmp_path, "above_threshold_all_k", {"program.inputs.q.sensitivity": 64}))
    assert run.returncode == 0, run.stdout + run.stderr
