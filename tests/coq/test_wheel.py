"""The package works installed, not only from a checkout: build the wheel, install it into
a fresh virtual environment outside the repository, and prove a shipped spec from there
(the templates and the Coq library come from the wheel as package data).  The wheel's
dependencies are not downloaded again: the new environment sees the test environment's
packages (a path entry, so that environment's editable install of this checkout is not
loaded), which `make venv` installed from the same declared dependencies.

The wheel's Coq sources are compared with the checkout's, file by file; being the same, they
compile to the same library, so the checkout's compiled files of the Prelude's closure are put
beside them instead of compiling them again (about 45 s of CPU): what is tested is that the
wheel carries every file and that the installed package finds and uses its own copy.
`tests/coq/test_library_build.py` tests compiling a library's closure on first use."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

from obligations.prover.coq import Coq

REPO = Path(__file__).resolve().parent.parent.parent


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=1500)


def test_installed_wheel_proves_a_shipped_spec(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(REPO)], tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("obligations-*.whl")
    env_dir = tmp_path / "env"
    venv.create(env_dir)   # no pip of its own: this environment's pip installs into it
    py = env_dir / "bin" / "python"
    purelib = run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path)
    (Path(purelib.stdout.strip()) / "test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", str(wheel)],
                    tmp_path)
    assert installed.returncode == 0, installed.stderr
    work = tmp_path / "work"
    work.mkdir()
    library = run([str(py), "-c", "import obligations.core.resources as r; print(r.THEORIES)"], work)
    theories = Path(library.stdout.strip())
    assert env_dir in theories.parents and REPO not in theories.parents
    ours = Coq(REPO / "obligations" / "theories")
    for v in ours.library_files():   # every source, as in the checkout
        assert (theories / v.relative_to(ours.theories)).read_bytes() == v.read_bytes(), v
    for v in ours.closure_of_texts(["From Obligations Require Import Prelude.\n"]):
        shutil.copy(v.with_suffix(".vo"), theories / v.relative_to(ours.theories).with_suffix(".vo"))
    text = (REPO / "mechanisms" / "randomized_response.yaml").read_text()
    (work / "rr.yaml").write_text(text[:text.index("profile:")])
    proved = run([str(py), "-m", "obligations", "prove", "rr.yaml", "--json"], work)
    assert proved.returncode == 0, proved.stdout + proved.stderr
    result = json.loads(proved.stdout)["results"][0]
    assert result["verdict"] == "proved"
    assert result["statement"] == "dp nb_all randomized_response (ln 3) 0"
    checked = run([str(py), "-m", "obligations", "verify", "certificates"], work)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    shutil.rmtree(env_dir)
