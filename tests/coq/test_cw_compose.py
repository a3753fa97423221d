"""Real Coq: CW-privacy composed K = 2 times certifies the mechanism run twice on the
SAME database, Σ_x f(x)·M(x)^⊗2 = `fmech_cw (fmech_power M 2) f f'`.

5-ary randomized response, priors ½/½ on {0, 1} against {2, 3}: the tight ε is
ln(293/8) ≈ 3.60 (proved, δ = 0); at ln(361/16) ≈ 3.12, what a fresh database per
release would give, δ(ε) = 9/50: proved there, and refuted just below with a witness.

The same-database spec is proved here (the CW route and a CW profile point, end to end); the
fresh-database point, proved and refuted, is read from the certificates Coq made of
tests/specs/cw_compose/rr5_cw_k2_fresh.yaml (tests/certificates/, `make test-certificates`;
tests/coq/test_committed_certificates.py keeps them current): proving its three claims again
cost ~14 s CPU.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.core.resources import THEORIES

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "cw_compose"
PRIOR = "[(1 # 2); (1 # 2); (0 # 1); (0 # 1); (0 # 1)]"
ALT = "[(0 # 1); (0 # 1); (1 # 2); (1 # 2); (0 # 1)]"


def prove(spec: str, out: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = inprocess.cli("prove", str(SPECS / spec), "--out", str(out), "--build", str(out / "build"), "--json")
    return done, json.loads(done.stdout) if done.stdout.strip() else {}


@pytest.fixture(scope="module")
def same(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("cw_same")
    done, result = prove("rr5_cw_k2.yaml", out)
    assert done.returncode == 0, done.stderr
    return out, result


def unqualified(statement: str) -> str:
    """The statement as Coq prints it, without module qualifiers."""
    return re.sub(r"\b[A-Z][A-Za-z0-9_]*\.", "", statement)


def certificate(out: Path, name: str) -> dict[str, Any]:
    return json.loads((out / f"{name}.json").read_text())


def test_one_release_is_ln_19_over_4(same: tuple[Path, dict[str, Any]]) -> None:
    _, result = same
    (o,) = result["results"]
    assert (o["verdict"], o["tight_epsilon"]) == ("proved", "ln(19/4)")
    assert unqualified(o["statement"]) == "dp nb_all rr5_cw_k2 (ln (19 / 4)) 0"


def test_two_releases_on_the_same_database_are_proved_at_ln_293_over_8(
        same: tuple[Path, dict[str, Any]]) -> None:
    out, result = same
    (prof,) = result["profiles"]
    assert prof["compose"] == 2 and prof["epsilon_zero"] == "ln(293/8)"
    (point,) = prof["points"]
    assert (point["epsilon"], point["delta"], point["delta_lower"]) == ("ln(293/8)", "0", None)
    (c,) = point["certificates"]
    assert c["verdict"] == "proved"
    assert unqualified(c["statement"]) == "dp nb_all rr5_cw_k2_k2_eps_ln_293o8_ub (ln (293 / 8)) 0"
    record = certificate(out, "rr5_cw_k2_k2_eps_ln_293o8_ub")
    assert record["verdict"] == "proved" and record["analysis"]["tight_epsilon"] == "ln(293/8)"
    assert record["derived"]["compose"] == 2
    # the theorem is about the prior mixture of the 2-fold power: one draw of the database
    point = "rr5_cw_k2_k2_eps_ln_293o8_ub"
    v = (out / f"{point}.v").read_text()
    assert f"Definition {point}_power : fmech := fmech_power {point}_table 2." in v
    assert f"Definition {point} : fmech := fmech_cw {point}_power {PRIOR} {ALT}." in v


def test_the_fresh_database_epsilon_is_refuted_with_a_witness() -> None:
    _, results = committed.results(SPECS / "rr5_cw_k2_fresh.yaml")   # the one-release claim, as above
    assert results["rr5_cw_k2_fresh"]["verdict"] == "proved"
    ub, lb = (certificate(committed.TEST_CERTS, f"rr5_cw_k2_fresh_k2_eps_ln_361o16_{side}") for side in ("ub", "lb"))
    assert (ub["claim"]["epsilon"], ub["claim"]["delta"], ub["derived"]["compose"]) == ("ln(361/16)", "9/50", 2)
    assert (ub["verdict"], unqualified(ub["theorems"][-1]["statement"])) == (
        "proved", "dp nb_all rr5_cw_k2_fresh_k2_eps_ln_361o16_ub (ln (361 / 16)) (9 / 50)")
    assert (lb["verdict"], unqualified(lb["theorems"][-1]["statement"])) == (
        "refuted", "~ dp nb_all rr5_cw_k2_fresh_k2_eps_ln_361o16_lb (ln (361 / 16)) (179999999 / 1000000000)")
    assert lb["analysis"]["tight_epsilon"] == "ln(293/8)"
    w = lb["witness"]
    # both runs answer 0, or both answer 1: 293/625 > 361/16 * 8/625 + 9/50 - 10^-9
    assert (w["x"], w["x_prime"], w["outputs"]) == ("D", "alt", ["0,0", "1,1"])
    assert (w["pr_x"], w["pr_x_prime"]) == ("293/625", "8/625")


def test_the_library_lemma_says_what_the_certified_mechanism_is(
        same: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """`fmech_cw_power_entry` applies to the certified mechanism: Pr[M'(D) = (0, 0)] is
    the prior-weighted sum of the products of the runs' probabilities (293/1250)."""
    out, _ = same
    v = tmp_path / "CheckSame.v"
    v.write_text(f"""From Obligations Require Import Prelude.
From Certs Require Import rr5_cw_k2_k2_eps_ln_293o8_ub.
Local Open Scope Q_scope.

Definition prior : list Q := {PRIOR}.
Definition alt_prior : list Q := {ALT}.

Lemma certified_is_same_database :
  rr5_cw_k2_k2_eps_ln_293o8_ub = fmech_cw (fmech_power rr5_cw_k2_k2_eps_ln_293o8_ub_table 2) prior alt_prior.
Proof. reflexivity. Qed.

Lemma table_wf : fmech_wf rr5_cw_k2_k2_eps_ln_293o8_ub_table.
Proof. split; [reflexivity |]. intros r Hr. cbn in Hr. intuition (subst; reflexivity). Qed.

Lemma entry_00 :
  entry rr5_cw_k2_k2_eps_ln_293o8_ub 0 (power_index 5 [0; 0]%nat) =
  fold_right Qplus 0 (map (fun x => nth x prior 0 * run_prob rr5_cw_k2_k2_eps_ln_293o8_ub_table x [0; 0]%nat)
                          (seq 0 5)).
Proof.
  exact (proj1 (fmech_cw_power_entry rr5_cw_k2_k2_eps_ln_293o8_ub_table prior alt_prior [0; 0]%nat
                  table_wf eq_refl eq_refl ltac:(repeat constructor))).
Qed.

Lemma entry_00_value : entry rr5_cw_k2_k2_eps_ln_293o8_ub 0 0 == 293 # 1250.
Proof. vm_compute. reflexivity. Qed.

Lemma alt_00_value : entry rr5_cw_k2_k2_eps_ln_293o8_ub 1 0 == 8 # 1250.
Proof. vm_compute. reflexivity. Qed.
""")
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "rr5_cw_k2_k2_eps_ln_293o8_ub.v").write_text((out / "rr5_cw_k2_k2_eps_ln_293o8_ub.v").read_text())
    load = ["-Q", str(THEORIES), "Obligations", "-Q", str(certs), "Certs"]
    for f in (certs / "rr5_cw_k2_k2_eps_ln_293o8_ub.v", v):
        done = subprocess.run(["coqc", *load, str(f)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
