"""The library's refutations of binary64 snapping's constants, with real Coq: Float/SnapSeedRealRefuted.v
(the seed's (12, 2) in the form with real inputs, `snap64_constant`, false near Lambda = lambda) and
Float/SnapUlpsRefuted.v (for a log within 1 ulp, `snap64_constant_ulps 1`, Mironov's (16, 0) and the
seed's (12, 2) false, from a witness whose inputs are binary64 floats and whose log `lnadv` is within
1 ulp on every float of (0, 1)) and Float/SnapSmallClampRefuted.v (small clamps: the seed's (12, 2) for
B <= 3*lambda/16 and Mironov's (16, 0) for B <= lambda/4, and from two wider witnesses the seed's for
B <= 0.245*lambda and Mironov's for B <= lambda/3, every rho0 <= 2, from binary64 float inputs one
ulp apart at the clamped output B; from a pair of binary64 inputs several steps apart the seed's for
B <= 0.34*lambda and Mironov's for B <= 0.38*lambda, from a pair of reals 0.3875 and 0.415) and
Float/SnapUlpsKRefuted.v (for a log within 2 ulps, so k >= 2, both constants false at every grid up to
2*lambda, where k = 1 is proved, from binary64 inputs and the monotone log `lnadv_k`) state the negations
below; and none is slack in the wrong direction:
the key inequality of each witness against a larger constant is refused at its `interval` ((13, 2): an
allowance of 1688.8 eta, above the excess of about 1604 eta; (19, 0): about 4897 eta, above the exact
excess of about 4725 eta; small clamps: (13, 2) allows 4.44 eta against 4.38, (20, 0) 5 eta against
4.89, the pairs' (17, 0) 6.46 eta against 6.09, (13, 2) 7.04 eta against 6.66; two ulps: (22, 0) allows
5670.5 eta against the bracket's 5503.8).

The theorems' assumptions are audited where the tool uses them: the refuted verdicts' certificates
apply them (tests/coq/test_binary_snapping_all_certify.py proves the seed's all-parameters refutation
and Mironov's one-ulp refutation through `prove`, whose audit admits the reals' axioms and `interval`'s
primitive operations only; the near-Lambda certificate is checked current by
tests/coq/test_committed_certificates.py), so they are typed here without a second `Print Assumptions`
traversal of the `interval` proofs (about 18 s of CPU each)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from coqrun import coqc

from obligations.core.resources import THEORIES

STATEMENTS = {
    "snap_binary64_seed_constant_real_false":
        "forall rho0 beta0 : R, (rho0 <= 1)%R -> (beta0 <= 129)%R -> ~ snap64_constant rho0 beta0 12 2",
    "snap_binary64_seed_constant_real_false_105":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant rho0 beta0 12 2",
    "snap_binary64_mironov_constant_ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 1 rho0 beta0 16 0",
    "snap_binary64_seed_constant_ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 1 rho0 beta0 12 2",
    # the one-ulp witness's inputs are binary64 floats, its log within 1 ulp on every float of (0, 1)
    "v_x_format": "F64 v_x /\\ F64 v_x'",
    "lnadv_rel": "forall s1 s2 v : R, F64 v -> (0 < v < 1)%R -> "
                 "rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) (ln v) (lnadv s1 s2 v)",
    # small clamps: every grid up to 2*lambda, from float inputs
    "snap_binary64_seed_constant_small_false":
        "forall rho0 beta0 : R, (rho0 <= 2)%R -> (beta0 <= 3 / 16)%R -> ~ snap64_constant rho0 beta0 12 2",
    "snap_binary64_mironov_constant_small_false":
        "forall rho0 beta0 : R, (rho0 <= 2)%R -> (beta0 <= 1 / 4)%R -> ~ snap64_constant rho0 beta0 16 0",
    "snap_binary64_seed_constant_small_false_up":
        "forall rho0 beta0 a b : R, (rho0 <= 2)%R -> (0 <= beta0 <= 3 / 16)%R -> (a <= 12)%R -> (b <= 2)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a b",
    "snap_binary64_mironov_constant_small_false_up":
        "forall rho0 beta0 a : R, (rho0 <= 2)%R -> (0 <= beta0 <= 1 / 4)%R -> (a <= 16)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a 0",
    "sc_inputs_format": "F64 sc_x /\\ F64 sc_x'",
    "mc_inputs_format": "F64 mc_x /\\ F64 mc_x'",
    # the wider witnesses: the seed's to beta0 = 0.245, Mironov's to 1/3 (at lambda ~ 1.511)
    "snap_binary64_seed_constant_small_false_245_up":
        "forall rho0 beta0 a b : R, (rho0 <= 2)%R -> (0 <= beta0 <= 49 / 200)%R -> (a <= 12)%R -> (b <= 2)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a b",
    "snap_binary64_mironov_constant_small_false_1_3_up":
        "forall rho0 beta0 a : R, (rho0 <= 2)%R -> (0 <= beta0 <= 1 / 3)%R -> (a <= 16)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a 0",
    # a log within 2 ulps (so k >= 2): every grid up to 2*lambda, from float inputs; the log monotone, within 2 ulps
    "snap_binary64_mironov_constant_2ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 2)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 2 rho0 beta0 16 0",
    "snap_binary64_seed_constant_2ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 2)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 2 rho0 beta0 12 2",
    "snap_binary64_mironov_constant_2ulp_false_up":
        "forall k rho0 beta0 a : R, (2 <= k <= 2 ^ 20)%R -> (rho0 <= 2)%R -> (0 <= beta0 <= 257)%R -> (a <= 16)%R -> "
        "~ snap64_constant_ulps_ties TiesUp k rho0 beta0 a 0",
    "k2_inputs_format": "F64 k2_x /\\ F64 k2_x'",
    "lnadv_k_rel": "forall s1 F v : R, F64 v -> (0 < v < 1)%R -> "
                   "rel_within (2 * 2 * eta 53 / (1 - 2 * 2 * eta 53)) (ln v) (lnadv_k 1 s1 F v)",
    "lnadv_k_mono": "forall j s1 F v v', (0 < v <= v')%R -> (lnadv_k j s1 F v <= lnadv_k j s1 F v')%R",
    "lnadv_k_rel_all": "forall j s1 F v, (INR j + 1 <= 2 ^ 20)%R -> F64 v -> (0 < v < 1)%R -> rel_within "
                       "(2 * (INR j + 1) * eta 53 / (1 - 2 * (INR j + 1) * eta 53)) (ln v) (lnadv_k j s1 F v)",
    "sw_inputs_format": "F64 sw_x /\\ F64 sw_x'",
    "mt_inputs_format": "F64 mtlam /\\ F64 mt_x /\\ F64 mt_x'",
    # pairs several steps apart: binary64 inputs (Mironov's to 0.38, the seed's to 0.34), reals (0.415, 0.3875)
    "snap_binary64_mironov_constant_small_false_38_up":
        "forall rho0 beta0 a : R, (rho0 <= 2)%R -> (0 <= beta0 <= 19 / 50)%R -> (a <= 16)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a 0",
    "snap_binary64_seed_constant_small_false_34_up":
        "forall rho0 beta0 a b : R, (rho0 <= 2)%R -> (0 <= beta0 <= 17 / 50)%R -> (a <= 12)%R -> (b <= 2)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a b",
    "pf_inputs_format": "F64 pflam /\\ F64 pf_x /\\ F64 pf_x'",
    "snap_binary64_mironov_constant_small_real_false":
        "forall rho0 beta0 : R, (rho0 <= 2)%R -> (beta0 <= 83 / 200)%R -> ~ snap64_constant rho0 beta0 16 0",
    "snap_binary64_seed_constant_small_real_false_up":
        "forall rho0 beta0 a b : R, (rho0 <= 2)%R -> (0 <= beta0 <= 31 / 80)%R -> (a <= 12)%R -> (b <= 2)%R -> "
        "~ snap64_constant_ties TiesUp rho0 beta0 a b",
}


def test_the_refutations_state_the_negations(tmp_path: Path) -> None:
    typed = "".join(f"Definition stated_{i} : {s} := {n}.\n" for i, (n, s) in enumerate(STATEMENTS.items()))
    done = coqc(tmp_path, "Refuted", (
        "From Coq Require Import Reals.\nFrom Flocq Require Import Core.Core.\n"
        "From Obligations.Float Require Import SnapSeed64 SnapSeedRealRefuted.\n"
        "From Obligations.Float Require Import RelError DiffprivlibRound SnapSeedUlps SnapUlpsRefuted.\n"
        "From Obligations.Noise Require Import Rounding.\n"
        "From Obligations.Float Require Import SnapSmallClampRefuted SnapUlpsKRefuted.\n"
        "Local Open Scope R_scope.\n" + typed))
    assert done.returncode == 0, done.stderr + done.stdout


@pytest.mark.parametrize("source, lemma, slope, larger", [
    ("SnapSeedRealRefuted.v", "Lemma w1_key", "12 * eta 53 * (w1_bound / w1_lam)", "13"),
    ("SnapUlpsRefuted.v", "Lemma v_key16", "16 * eta 53 * (w2_bound / w1_lam)", "19"),
], ids=["seed_13", "ulps_19"])
def test_the_key_inequality_against_a_larger_constant_is_refused(tmp_path: Path, source: str, lemma: str,
                                                                  slope: str, larger: str) -> None:
    """The key lemma as the library states and proves it, its constant raised: the same proof
    fails at its `interval` step.  It is compiled beside the compiled library file (its
    requires, its local tactics, notations and scope copied), not at the end of a copy of the
    file: compiling the file's other proofs again cost ~2.5 s of CPU per case."""
    text = (THEORIES / "Float" / source).read_text(encoding="utf-8")
    assert text.count(slope) == 1
    start = text.index(lemma)
    key = text[start:text.index("Qed.", start) + len("Qed.")]
    head = text[:start]
    requires = re.findall(r"^From [\s\S]*?\.(?=\s)", head, re.M)
    local = re.findall(r"^Local (?:Instance [\s\S]*?Qed\.|[\s\S]*?\.(?=\s))", head, re.M)
    assert len(requires) >= 5 and any(t.startswith("Local Ltac bpow_i") for t in local)
    body = "\n".join([*requires, f"From Obligations.Float Require Import {source.removesuffix('.v')}.", *local,
                      key.replace(slope, slope.replace(slope.split()[0], larger, 1))]) + "\n"
    line = body.count("\n", 0, body.index("interval with (i_prec 200)", body.index(lemma))) + 1
    done = coqc(tmp_path, "Larger", body)
    out = done.stderr + done.stdout
    assert done.returncode != 0 and f"line {line}," in out and "Numerical evaluation failed" in out, out


def test_the_small_clamp_keys_against_larger_constants_are_refused(tmp_path: Path) -> None:
    """SnapSmallClampRefuted.v's keys against a larger constant fail at `interval`: the first witnesses' against
    (13, 2) and (20, 0), the pairs several steps apart against (17, 0) (binary64 inputs, Mironov's) and (13, 2)
    (real inputs, the seed's).  One file over the library's .vo and the file's own tactics, not the whole file:
    each key restated against the larger constant (renamed), its `interval` under `Fail` (an error if it
    succeeds); the steps before `interval` are the proved key's, so only `interval` can fail there."""
    text = (THEORIES / "Float" / "SnapSmallClampRefuted.v").read_text(encoding="utf-8")
    tactics = "".join(line + "\n" for line in text.splitlines() if line.startswith(("Local Ltac", "  let t :=")))
    requires = text[text.index("From Coq Require"):text.index("Local Open Scope R_scope.")]
    source = requires + "From Obligations.Float Require Import SnapSmallClampRefuted.\nLocal Open Scope R_scope.\n"
    source += tactics
    for lemma, slope, larger in (("Lemma sc_key", "12 * eta 53 * (sc_clamp / sclam)", "13"),
                                 ("Lemma mc_key", "16 * eta 53 * (mc_clamp / sclam)", "20"),
                                 ("Lemma mf_key", "16 * eta 53 * (mf_clamp / pflam)", "17"),
                                 ("Lemma sr_key", "12 * eta 53 * (sr_clamp / prlam)", "13")):
        start = text.index(lemma)
        key = text[start:text.index("Qed.", start) + len("Qed.")]
        assert key.count(slope) == 1 and key.count("interval with (i_prec 200).") == 1
        source += (key.replace(slope, slope.replace(slope.split()[0], larger, 1))
                   .replace(lemma, lemma + "_larger")
                   .replace("interval with (i_prec 200).", "Fail interval with (i_prec 200).")
                   .replace("Qed.", "Abort.")) + "\n"
    assert tactics.count("Local Ltac") == 3
    done = coqc(tmp_path, "LargerSmall", source)
    assert done.returncode == 0, done.stderr + done.stdout


def test_the_two_ulp_key_against_a_larger_constant_is_refused(tmp_path: Path) -> None:
    """SnapUlpsKRefuted.v's key inequality (the bracket's excess 5503.8 eta) restated against (22, 0), which
    allows 5670.5 eta: refused at its `interval`.  Only the lemma is compiled, over the library's .vo and the
    file's own tactics (about 1.5 s, not the whole file's 6 s); the refusal at the `interval` line says the
    rest of the harness (imports, tactics, unfolding) went through."""
    text = (THEORIES / "Float" / "SnapUlpsKRefuted.v").read_text(encoding="utf-8")
    tactics = "".join(line + "\n" for line in text.splitlines() if line.startswith(("Local Ltac", "  let t :=")))
    start = text.index("Lemma k2_key16")
    lemma = text[start:text.index("Qed.", start) + 4]
    slope = "16 * eta 53 * (w2_bound / w1_lam)"
    assert lemma.count(slope) == 1 and tactics.count("Local Ltac") == 3
    requires = text[text.index("From Coq Require"):text.index("Local Open Scope R_scope.")]
    prelude = requires + "From Obligations.Float Require Import SnapUlpsKRefuted.\nLocal Open Scope R_scope.\n"
    larger = lemma.replace("Lemma k2_key16", "Lemma k2_key22").replace(slope, slope.replace("16", "22", 1))
    source = prelude + tactics + larger + "\n"
    line = source[:source.index("interval with (i_prec 200)")].count("\n") + 1
    done = coqc(tmp_path, "Larger", source)
    out = done.stderr + done.stdout
    assert done.returncode != 0 and f"line {line}," in out and "Numerical evaluation failed" in out, out
