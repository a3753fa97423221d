"""A hand-written file in the shape the program renderer will produce: real coqc,
coqchk and the assumption audit on DP of a program's semantics (seed 002's
OnlineModel, two queries)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist as allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parents[3]
SAMPLE = Path(__file__).resolve().parent / "online_model_k2.v"
THEOREMS = ["online_model_k2_dp", "online_model_k2_not_dp"]
LIBRARY_THEOREMS = ["dp_prog_of_dp", "not_dp_prog_of_not_dp", "dp_prog_of_check_pointwise",
                    "dp_prog_of_check_hockey_at", "not_dp_prog_of_witness_at",
                    "exec_for_unroll", "exec_seq", "exec_mass", "dprob_compact"]


def _coq(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=600)


def _compile(tmp_path: Path, text: str | None = None) -> subprocess.CompletedProcess[str]:
    target = tmp_path / SAMPLE.name
    if text is None:
        shutil.copy(SAMPLE, target)
    else:
        target.write_text(text)
    return _coq(["coqc", "-Q", str(THEORIES), "Obligations",
                 "-Q", str(tmp_path), "Certs", target.name], tmp_path)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("program_shape")
    done = _compile(tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    return tmp


def test_sample_compiles_and_coqchk_accepts_it(compiled: Path) -> None:
    done = _coq(["coqchk", "-silent", "-Q", str(THEORIES), "Obligations",
                 "-Q", str(compiled), "Certs", "-norec", "Certs.online_model_k2"], compiled)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def printed(compiled: Path) -> dict[str, list[str]]:
    """What `Print Assumptions` prints of each theorem, the sample's and the library's, in one
    coqc run (each theorem's output redirected to a file of its own)."""
    audit = compiled / "Audit.v"
    audit.write_text("From Obligations Require Import Prelude.\nSet Printing Width 100000.\n"
                     "From Certs Require online_model_k2.\n"
                     + "".join(f'Redirect "audit_{t}" Print Assumptions online_model_k2.{t}.\n' for t in THEOREMS)
                     + "".join(f'Redirect "audit_{t}" Print Assumptions {t}.\n' for t in LIBRARY_THEOREMS))
    done = _coq(["coqc", "-Q", str(THEORIES), "Obligations", "-Q", str(compiled), "Certs", audit.name], compiled)
    assert done.returncode == 0, done.stderr
    return {t: assumption_names((compiled / f"audit_{t}.out").read_text().splitlines(), t)
            for t in THEOREMS + LIBRARY_THEOREMS}


@pytest.mark.parametrize("theorem", THEOREMS)
def test_sample_theorem_uses_only_allowed_axioms(printed: dict[str, list[str]], theorem: str) -> None:
    names = printed[theorem]
    assert names  # the statements are about R: the classical reals must show up
    assert allowed(names)


@pytest.mark.parametrize("theorem", LIBRARY_THEOREMS)
def test_program_library_theorem_uses_only_allowed_axioms(printed: dict[str, list[str]], theorem: str) -> None:
    assert allowed(printed[theorem])


def test_a_ratio_below_the_tight_one_is_rejected(tmp_path: Path) -> None:
    """The check is not vacuous: 942/292 < 943/292 fails on the table Coq computes."""
    text = SAMPLE.read_text()
    assert text.count("(943 # 292) = true") == 1
    forged = text.replace("(943 # 292) = true", "(942 # 292) = true")
    done = _compile(tmp_path, forged)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "eq_refl" in out and "(942 # 292) = true" in out


def allowed(printed: list[str]) -> bool:
    """Every assumption (as Print Assumptions names it) is exactly one allow-listed axiom."""
    full, unresolved = allowlist.full_names(printed, allowlist.REALS)
    return not unresolved and allowlist.refused(full, uses_interval=False) == []
