"""All-parameters binary snapping with real Coq: the shipped spec is certified by `prove` (its
theorem quantifies over lambda, Lambda, B, the tie rule, lnf and pr, from the library's
snap_binary64_dp_tight) with only the reals' axioms; Mironov's constants (in his range B >= lambda) are
undecided by Python and get no certificate, and the same file forced through Coq is refused at the constant's inequality
(Coq, not Python, decides); the seed's constants are refuted through SnapSeedRealRefuted.v (the claim's
negation, its witness's inputs reals), and the same negation with a constant above 12 is refused by coqc;
Mironov's (16, 0) for a log within 1 ulp is refuted through SnapUlpsRefuted.v (binary64 inputs), and the
seed's and Mironov's at small clamps through SnapSmallClampRefuted.v (binary64 inputs).
The two refutations are read from the certificates Coq made of the shipped specs
(mechanisms/refuted/; tests/coq/test_committed_certificates.py keeps them current): proving them
again costs ~26 s CPU each (the refutation's audit traverses the library's `interval` proofs), and
the refused larger constants compile the seed's refutation file itself.  About 20 s CPU."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.core.obligation import Verdict
from obligations.core.resources import THEORIES
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path("mechanisms/binary64_snapping_all_parameters.yaml")
SEED = Path("mechanisms/refuted/binary64_snapping_seed_constant_all_parameters.yaml")
MIRONOV = Path("tests/specs/binary64/binary64_snapping_all_parameters_mironov_constants.yaml")
ONE_ULP_MIRONOV = Path("mechanisms/refuted/binary64_snapping_mironov_constant_one_ulp.yaml")
REALS = {"Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
         "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}


def _prove(tmp_path: Path, spec: Path) -> subprocess.CompletedProcess[str]:
    return inprocess.cli("prove", str(spec), "--out", str(tmp_path / "out"), "--build", str(tmp_path / "build"))


def test_shipped_spec_is_certified_for_all_parameters(tmp_path: Path) -> None:
    run = _prove(tmp_path, SHIPPED)
    assert run.returncode == 0, run.stdout + run.stderr
    cert = json.loads((tmp_path / "out" / "binary64_snapping_all_parameters.json").read_text())
    assert cert["verdict"] == "proved"
    [thm] = cert["theorems"]
    # only the sampler's measure is a hypothesis: the logarithm is the correctly rounded one,
    # the pipeline's range follows from lambda >= 2^-968 (lambda a binary64 number)
    assert thm["statement"].startswith("forall (t : tie) (choice : Z -> bool) (pr : (R -> Prop) -> R) "
                                       "(lam grid B : R), uprob pr -> powerRZ 2 (-968) <= lam -> "
                                       "generic_format radix2 (FLT_exp (-1074) 53) lam -> ")
    assert "pipeline_ok" not in thm["statement"]
    assert "choice (fun v : R => rnd 53 (-1074) choice (ln v)) pr lam x" in thm["statement"]
    assert "lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->" in thm["statement"]
    assert "forall x x' out : R, Rabs x <= B -> Rabs x' <= B ->" in thm["statement"]
    assert "exp (Rabs (x - x') / lam + 18 * eta 53 * (B / lam) + 23 * eta 53)" in thm["statement"]
    assert set(cert["assumptions"]) == REALS


def test_mironov_constants_get_no_certificate_and_coq_refuses_them(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    run = _prove(tmp_path, MIRONOV)
    assert run.returncode == 1 and "undecided" in run.stdout.lower(), run.stdout + run.stderr
    assert not (tmp_path / "out" / "binary64_snapping_all_parameters_mironov_constants.json").exists()
    assert not (tmp_path / "build").exists()     # nothing was sent to Coq
    monkeypatch.chdir(REPO)
    u = unfold(load(MIRONOV))
    assert u.plan.expected == Verdict.UNDECIDED
    (tmp_path / "Seed.v").write_text(u.rendered.text)
    forced = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", "Seed.v"], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)
    assert forced.returncode != 0
    line = int(re.search(r"line (\d+),", forced.stderr).group(1))
    lemmas = [t for t in u.rendered.text.splitlines()[:line] if t.startswith("Lemma ")]
    assert lemmas[-1].startswith("Lemma binary64_snapping_all_parameters_mironov_constants_a_ok :"), forced.stderr


def _refuted(spec: Path) -> dict[str, Any]:
    """The committed certificate of a shipped refuted spec, and what `prove` printed of it."""
    _, results = committed.results(spec)
    [(name, outcome)] = results.items()
    assert outcome["verdict"] == "refuted" and outcome["cached"] is True
    cert = committed.record(name, REPO / "certificates")
    assert cert["verdict"] == "refuted" and cert["witness"]
    return cert


def test_seed_constants_are_refuted_with_a_certificate() -> None:
    """The seed's (12, 2) for all parameters at ties up: the certificate's theorem is the negation of
    the claim as the proved form states it (the same quantifiers and premises), its witness real inputs."""
    cert = _refuted(SEED)
    [thm] = cert["theorems"]
    assert thm["name"] == "binary64_snapping_seed_constant_all_parameters_not_dp"
    assert thm["statement"].startswith("~ (forall (choice : Z -> bool) (pr : (R -> Prop) -> R) (lam grid B : R), "
                                       "uprob pr -> powerRZ 2 (-968) <= lam -> ")
    assert "lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->" in thm["statement"]
    assert "float_snap TiesUp grid B w = out" in thm["statement"]
    assert "exp (Rabs (x - x') / lam + 12 * eta 53 * (B / lam) + 2 * eta 53)" in thm["statement"]
    assert "not binary64 floats" in cert["claim"]["neighbours"]
    assert cert["witness"]["inputs"] == "real, not binary64 floats"
    assert cert["uses_interval"] is True
    assert REALS <= set(cert["assumptions"])
    assert all(a.startswith(("Coq.Floats.", "Coq.Numbers.Cyclic.Int63.")) for a in set(cert["assumptions"]) - REALS)


@pytest.mark.parametrize("old, new", [("12 * eta 53", "13 * eta 53"), ("2 * eta 53)", "3 * eta 53)")])
def test_a_larger_constant_is_not_refuted_by_coq(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 old: str, new: str) -> None:
    """The refuted file with a constant above the seed's (13 or b = 3): Coq refuses its proof."""
    monkeypatch.chdir(REPO)
    text = unfold(load(SEED)).rendered.text
    assert text.count(old) == 1
    (tmp_path / "Larger.v").write_text(text.replace(old, new))
    forced = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", "Larger.v"], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)
    assert forced.returncode != 0 and "binary64_snapping_seed_constant_all_parameters_not_dp" not in forced.stdout


def test_mironovs_constant_for_a_log_within_one_ulp_is_refuted() -> None:
    """Mironov's (16, 0) for a log within 1 ulp: refuted through SnapUlpsRefuted.v, the negated statement
    with the claim's log premise, the witness's inputs binary64 floats."""
    cert = _refuted(ONE_ULP_MIRONOV)
    [thm] = cert["theorems"]
    assert thm["statement"].startswith("~ (forall (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R) ")
    assert ("(forall v : R, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> "
            "rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) (ln v) (lnf v))") in thm["statement"]
    assert "exp (Rabs (x - x') / lam + 16 * eta 53 * (B / lam) + 0 * eta 53)" in thm["statement"]
    assert cert["witness"]["inputs"] == "binary64 floats"
    assert "the library's witness has binary64 inputs" in cert["claim"]["neighbours"]


@pytest.mark.parametrize("spec, premise, constant", [
    ("binary64_snapping_seed_constant_small_clamp",
     "19 / 10 * lam <= grid <= 2 * lam -> 3 / 16 * lam <= B <= 353 * lam ->", "12 * eta 53 * (B / lam) + 2 * eta 53"),
    ("binary64_snapping_mironov_constant_small_clamp", "lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->",
     "16 * eta 53 * (B / lam) + 0 * eta 53"),
], ids=["seed", "mironov"])
def test_small_clamps_are_refuted_with_binary64_inputs(spec: str, premise: str, constant: str) -> None:
    """The seed's (12, 2) down to B = 3 lambda/16 where the grid is wide, Mironov's (16, 0) for every B > 0:
    refuted through SnapSmallClampRefuted.v, the witness's inputs binary64 floats (read from the committed
    certificates, as the two above)."""
    cert = _refuted(Path("mechanisms/refuted") / f"{spec}.yaml")
    [thm] = cert["theorems"]
    assert thm["name"] == f"{spec}_not_dp"
    assert premise in thm["statement"] and f"exp (Rabs (x - x') / lam + {constant})" in thm["statement"]
    assert cert["witness"]["inputs"] == "binary64 floats"
    assert cert["witness"]["outputs"] == ["B (the clamp; B < Lambda/2)"]
    assert "SnapSmallClampRefuted.v, " in cert["claim"]["neighbours"]
    assert REALS <= set(cert["assumptions"])
    assert all(a.startswith(("Coq.Floats.", "Coq.Numbers.Cyclic.Int63.")) for a in set(cert["assumptions"]) - REALS)
