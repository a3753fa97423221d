"""Real Coq: a full disk or a read-only output folder is the machine's fault (exit 3), said
in one line, and leaves no partial certificate (no .v without its JSON, no .tmp)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import inprocess
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
RR = "randomized_response"


def _spec(tmp_path: Path) -> Path:
    text = (REPO / "mechanisms" / f"{RR}.yaml").read_text()
    spec = tmp_path / "specs" / f"{RR}.yaml"
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_text(text[:text.index("profile:")])
    return spec


def _one_plain_line(stderr: str) -> None:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("obligations: "), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr


def test_a_full_disk_leaves_no_partial_certificate(tmp_path: Path) -> None:
    """The certificate's JSON cannot be written (ENOSPC, the kernel's /dev/full): exit 3, one
    line, and neither the .v (written before it) nor a temporary file is left."""
    out = tmp_path / "out"
    out.mkdir()
    (out / f".{RR}.json.tmp").symlink_to("/dev/full")
    run = inprocess.cli("prove", str(_spec(tmp_path)), "--out", str(out), "--build", str(tmp_path / "b"))
    assert run.returncode == 3, run.stdout + run.stderr
    _one_plain_line(run.stderr)
    assert "No space left on device" in run.stderr
    assert sorted(p.name for p in out.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="root, and no setpriv")
def test_a_read_only_output_folder_is_refused_before_coq_runs() -> None:
    """As a user who may not write to --out (root would: the run drops to nobody)."""
    with tempfile.TemporaryDirectory() as name:   # /tmp/..., which nobody may enter
        _read_only_output(Path(name))


def _read_only_output(tmp_path: Path) -> None:
    out, build, home = tmp_path / "out", tmp_path / "b", tmp_path / "home"
    for d in (out, build, home):
        d.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(build, 0o777)
    os.chmod(home, 0o777)
    os.chmod(out, 0o555)
    spec = _spec(tmp_path)
    os.chmod(spec.parent, 0o755)
    os.chmod(spec, 0o644)
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    env = {**os.environ, "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([*prefix, sys.executable, "-m", "obligations", "prove", str(spec), "--out", str(out),
                          "--build", str(build)], cwd=REPO, capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode == 3, run.stdout + run.stderr
    _one_plain_line(run.stderr)
    assert f"cannot write to {out} (--out {out})" in run.stderr
    assert "Permission denied" in run.stderr
    assert list(out.iterdir()) == [] and not any(build.iterdir())   # refused before anything ran
