"""All-parameters binary snapping specs (kind `binary_snapping_all`): the form, its exit-2 messages
naming the field, the verdict Python expects (constants below the library's closed form are
undecided), the rendered theorem's quantifiers, `show`'s case table, and the library's constants
against float_snap_dp_tight's own ln K (mpmath).  No Coq here: tests/coq/test_binary_snapping_all_certify.py."""
from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest
import yaml
from inprocess import cli

from obligations.core.obligation import Verdict
from obligations.float.all_parameters_spec import ETA
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "mechanisms" / "binary64_snapping_all_parameters.yaml"
ONE_ULP = REPO / "tests" / "specs" / "binary64" / "binary64_snapping_all_parameters_one_ulp.yaml"
SEED = REPO / "tests" / "specs" / "binary64" / "binary64_snapping_all_parameters_seed_constants.yaml"
MIRONOV = REPO / "tests" / "specs" / "binary64" / "binary64_snapping_all_parameters_mironov_constants.yaml"


def _write(tmp_path: Path, snapping: dict[str, Any] | None = None, bound: dict[str, Any] | None = None) -> Path:
    data = yaml.safe_load(SHIPPED.read_text())
    data["snapping"].update(snapping or {})
    data["claim"]["bound"].update(bound or {})
    path = tmp_path / "all.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): a subprocess would add the package's start-up."""
    return cli(*args, cwd=REPO)


def test_shipped_spec_claims_the_library_constants() -> None:
    u = unfold(load(SHIPPED.relative_to(REPO)))
    assert u.spec.kind == "binary_snapping_all"
    assert (u.spec.lib_a, u.spec.lib_b) == (18, 23)       # m = 1: 9 + 9, 18 + 5
    assert u.plan.expected == Verdict.PROVED, u.plan.notes


def test_one_ulp_needs_the_factor_of_its_relative_error() -> None:
    s = load(ONE_ULP.relative_to(REPO))
    assert s.m == Fraction(2) / (1 - 2 * ETA)              # 1 ulp of a normal result: 2*eta/(1 - 2*eta)
    assert 27 < s.lib_a < 28 and 28 < s.lib_b < 29
    assert unfold(s).plan.expected == Verdict.PROVED


@pytest.mark.parametrize("a, b", [(12, 3), (16, 48), (18, 22), (17, 100), ("179/10", 23)])
def test_constants_below_the_library_are_undecided(tmp_path: Path, a: Any, b: Any) -> None:
    """Mironov's slope 16 with b = 48; one unit below either constant; the seed's slope with b = 3: never a
    certificate (the seed's own 12, 2 is refuted: the next test; Mironov's (16, 0) too, at a small clamp)."""
    u = unfold(load(_write(tmp_path, bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.UNDECIDED
    assert "undecided" in u.plan.notes[0] and "a = 9 + 9m = 18, b = 18 + 5m = 23" in u.plan.notes[0]


@pytest.mark.parametrize("a, b, ties", [(12, 2, "any"), (12, 2, "up"), ("23/2", 0, "any"), (0, 0, "up")])
def test_the_seeds_constant_for_all_parameters_is_refuted_by_the_library(tmp_path: Path, a: Any, b: Any,
                                                                          ties: str) -> None:
    """Every a <= 12, b <= 2 at ties up or every tie rule: refuted, the file's one theorem the claim's
    negation from the library's refutation at ties up; the record says the witness's inputs are reals,
    and that with binary64 inputs the claim (its range holds small clamps) is false too."""
    u = unfold(load(_write(tmp_path, snapping={"ties": ties}, bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.REFUTED
    assert "refuted, it is false: snap_binary64_seed_constant_real_false (" in u.plan.notes[0]
    assert ("for binary64 inputs the claim is false too, at a small clamp: snap_binary64_seed_constant_small_false"
            in u.plan.notes[0])
    assert u.rendered.theorems == (f"{u.spec.name}_not_dp",)
    text = u.rendered.text
    assert "apply (snap_binary64_seed_constant_real_false_up 1 1 " in text
    assert ("(t : tie)" in text) == (ties == "any")
    assert "lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->" in text
    assert "not binary64 floats" in u.spec.claim.record()["neighbours"]
    w = u.witness()
    assert w is not None and w["inputs"] == "real, not binary64 floats" and w["pr_x"].endswith("/" + str(2 ** 424))


@pytest.mark.parametrize("snapping, bound", [
    ({"ties": "down"}, {"per_B_over_lambda": 12, "constant": 2}),        # the witnesses round ties up
    ({"log": {"ulps": 1}}, {"per_B_over_lambda": 17, "constant": 0}),    # above Mironov's slope
    ({"log": {"ulps": 1}}, {"per_B_over_lambda": 16, "constant": 1}),    # Mironov's with b = 1: not refuted
    (None, {"per_B_over_lambda": "121/10", "constant": 2}),              # above the seed's slope
])
def test_claims_no_witness_refutes_stay_undecided(tmp_path: Path, snapping: dict[str, Any] | None,
                                                  bound: dict[str, Any]) -> None:
    u = unfold(load(_write(tmp_path, snapping=snapping, bound=bound)))
    assert u.plan.expected == Verdict.UNDECIDED
    assert "it is not refuted either" in u.plan.notes[0]
    assert "binary64 inputs among them" in u.spec.claim.record()["neighbours"]


@pytest.mark.parametrize("grid, bound, a, b, theorem", [
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "1/1000"}, 12, 2, "snap_binary64_seed_constant_small_false"),
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "3/16"}, 12, 2, "snap_binary64_seed_constant_small_false"),
    ("any", "any", 16, 0, "snap_binary64_mironov_constant_small_false"),
    ({"min_over_lambda": 2}, {"min_over_lambda": "1/4"}, 16, 0, "snap_binary64_mironov_constant_small_false"),
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "49/200"}, 12, 2,
     "snap_binary64_seed_constant_small_false_245"),
    ({"min_over_lambda": 2}, {"min_over_lambda": "1/3"}, 16, 0, "snap_binary64_mironov_constant_small_false_1_3"),
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "17/50"}, 12, 2,
     "snap_binary64_seed_constant_small_false_34"),
    ({"min_over_lambda": 2}, {"min_over_lambda": "19/50"}, 16, 0, "snap_binary64_mironov_constant_small_false_38"),
], ids=["seed_wide_grid_B_1_1000", "seed_B_3_16", "mironov_every_B", "mironov_B_1_4", "seed_B_0_245",
        "mironov_B_1_3", "seed_B_0_34_pair", "mironov_B_0_38_pair"])
def test_small_clamps_refute_the_seeds_and_mironovs_constants(tmp_path: Path, grid: Any, bound: Any, a: int, b: int,
                                                               theorem: str) -> None:
    """Every B > 0 (or B >= 3 lambda/16, lambda/4, 0.245 lambda, lambda/3, and from the pairs several steps
    apart 0.34 lambda, 0.38 lambda), even where the grid is wide: refuted through SnapSmallClampRefuted.v,
    whose witness's inputs are binary64 floats."""
    u = unfold(load(_write(tmp_path, snapping={"grid": grid, "bound": bound},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.REFUTED, u.plan.notes
    assert f"refuted, it is false: {theorem} (theories/Float/SnapSmallClampRefuted.v)" in u.plan.notes[0]
    assert "the claim is false for binary64 inputs too" in u.plan.notes[0]
    assert f"apply ({theorem}_up " in u.rendered.text
    assert "From Obligations.Float Require Import SnapSmallClampRefuted." in u.rendered.text
    assert "SnapSmallClampRefuted.v, " in u.spec.claim.record()["neighbours"]
    w = u.witness()
    assert w is not None and w["inputs"] == "binary64 floats" and w["outputs"] == ["B (the clamp; B < Lambda/2)"]


@pytest.mark.parametrize("grid, bound, a, b, theorem", [
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "31/80"}, 12, 2, "snap_binary64_seed_constant_small_real_false"),
    ({"min_over_lambda": 2}, {"min_over_lambda": "2/5"}, 16, 0, "snap_binary64_mironov_constant_small_real_false"),
], ids=["seed_B_0_3875", "mironov_B_0_4"])
def test_beyond_the_floats_pairs_of_reals_refute(tmp_path: Path, grid: Any, bound: Any, a: int, b: int,
                                                 theorem: str) -> None:
    """Above the binary64 witnesses' reach (0.34, 0.38) and up to 0.3875 (the seed's), 0.415 (Mironov's):
    refuted from real inputs several steps apart; the record says binary64 inputs are not refuted there."""
    u = unfold(load(_write(tmp_path, snapping={"grid": grid, "bound": bound},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.REFUTED, u.plan.notes
    assert f"refuted, it is false: {theorem} (theories/Float/SnapSmallClampRefuted.v)" in u.plan.notes[0]
    assert "inputs are reals, not binary64 floats: for binary64 inputs only the claim is not refuted" in u.plan.notes[0]
    assert f"apply ({theorem}_up " in u.rendered.text
    w = u.witness()
    assert w is not None and w["inputs"] == "real, not binary64 floats"


@pytest.mark.parametrize("grid, bound, a, b", [
    ({"min_over_lambda": "19/10"}, {"min_over_lambda": "2/5"}, 12, 2),     # above the seed's widest, B ~ 0.3875 lambda
    ({"min_over_lambda": 2}, {"min_over_lambda": "21/50"}, 16, 0),         # above Mironov's widest, B ~ 0.415 lambda
    ("any", "any", 16, "1/10"),                                            # b > 0: not Mironov's form
], ids=["seed_B_2_5", "mironov_B_21_50", "mironov_b_positive"])
def test_above_the_small_clamp_witnesses_stays_undecided(tmp_path: Path, grid: Any, bound: Any, a: Any,
                                                         b: Any) -> None:
    u = unfold(load(_write(tmp_path, snapping={"grid": grid, "bound": bound},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.UNDECIDED, u.plan.notes


def test_shipped_seed_constants_are_refuted_and_mironovs_undecided() -> None:
    assert unfold(load(SEED.relative_to(REPO))).plan.expected == Verdict.REFUTED
    assert unfold(load(MIRONOV.relative_to(REPO))).plan.expected == Verdict.UNDECIDED


def test_one_ulp_below_its_constants_is_undecided(tmp_path: Path) -> None:
    path = _write(tmp_path, snapping={"log": {"ulps": 1}}, bound={"per_B_over_lambda": 27, "constant": 29})
    assert unfold(load(path)).plan.expected == Verdict.UNDECIDED   # 9 + 9*2/(1 - 2 eta) > 27


def test_theorem_quantifies_over_the_parameters() -> None:
    text = unfold(load(SHIPPED.relative_to(REPO))).rendered.text
    assert "Theorem binary64_snapping_all_parameters_dp : forall (t : tie) (choice : Z -> bool)" in text
    # the correctly rounded logarithm is the theorem's own (no hypothesis on it), lambda a binary64 number
    assert ("(pr : (R -> Prop) -> R)\n  (lam grid B : R),\n  uprob pr ->\n  powerRZ 2 (-968) <= lam -> "
            "generic_format radix2 (FLT_exp (-1074) 53) lam ->") in text
    assert "forall x x' out, Rabs x <= B -> Rabs x' <= B ->" in text
    assert "pipeline_ok" not in text.split("Theorem binary64_snapping_all_parameters_dp")[1].split("Proof.")[0]
    assert "snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x" in text
    assert "lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->" in text
    assert "exp (Rabs (x - x') / lam + 18 * eta 53 * (B / lam) + 23 * eta 53)" in text
    for banned in ("Admitted", "admit", "Axiom", "Parameter"):
        assert banned not in text


def test_a_fixed_tie_rule_is_stated() -> None:
    text = unfold(load(SEED.relative_to(REPO))).rendered.text
    assert "(t : tie)" not in text and "float_snap TiesUp grid B w" in text


@pytest.mark.parametrize("snapping, bound, field", [
    ({"format": "binary32"}, None, "snapping.format"),
    ({"ties": "even"}, None, "snapping.ties"),
    ({"log": {"ulps": 0}}, None, "snapping.log.ulps"),
    ({"log": {"ulps": 2 ** 20 + 1}}, None, "snapping.log.ulps"),
    ({"epsilon": "1"}, None, "snapping.epsilon"),
    ({"bound": 100}, None, "snapping.bound"),
    ({"grid": "2"}, None, "snapping.grid"),
    (None, {"per_B_over_lambda": "-1"}, "claim.bound.per_B_over_lambda"),
    (None, {"constant": "ln(2)"}, "claim.bound.constant"),
    (None, {"constant": "__import__('os')"}, "claim.bound.constant"),
    (None, {"extra": 1}, "claim.bound"),
])
def test_bad_input_exits_2_naming_the_field(tmp_path: Path, snapping: Any, bound: Any, field: str) -> None:
    path = _write(tmp_path, snapping=snapping, bound=bound)
    run = _cli("check", str(path))
    assert run.returncode == 2, run.stdout + run.stderr
    assert str(path) in run.stderr and field in run.stderr, run.stderr


def test_show_prints_the_case_table_and_the_obligations() -> None:
    run = _cli("show", str(SHIPPED.relative_to(REPO)))
    assert run.returncode == 0, run.stderr
    for lemma in ("tight_top_ratio", "tight_bottom_ratio", "tight_ratio", "never output",
                  "tight64_disp", "tight64_range", "tight64_E", "tight64_K_le"):
        assert lemma in run.stdout
    assert "obligations of the generated file (6):" in run.stdout
    assert "binary64_snapping_all_parameters_a_ok: unfold, lra" in run.stdout
    [item] = json.loads(_cli("show", "--json", str(SHIPPED.relative_to(REPO))).stdout)
    assert [c["lemma"].split()[0] for c in item["cases"]] == ["tight_top_ratio", "tight_bottom_ratio",
                                                               "tight_ratio", "never"]
    assert len(item["obligations"]) == 6 and item["obligations"][-1]["name"].endswith("_dp")


def _ln_k_over_eta(beta: float, rho: float, m: int) -> mpmath.mpf:
    """float_snap_dp_tight's ln K / eta at SnapTight64.v's delta (tight_mu * tight_D + eta*lambda),
    B = beta*lambda, Lambda = rho*lambda, mu = m*eta, lambda = 1 (the tiny 2^-1074 terms left out)."""
    with mpmath.workprec(300):
        eta = mpmath.mpf(2) ** -53
        tmu = (1 + eta) * (1 + m * eta) - 1
        d = tmu * (2 * beta + rho / 2 + 2 * eta * (beta + rho / 2)) + eta
        e2 = (mpmath.exp(d) / (1 - 2 * eta)) ** 2
        r = mpmath.exp(rho - 2 * eta * (2 * beta + rho))
        return mpmath.log((e2 * r - 1) / (r - e2)) / eta


@pytest.mark.parametrize("spec", [SHIPPED, ONE_ULP], ids=["correctly_rounded", "one_ulp"])
def test_show_names_the_lemmas_and_tactics_the_file_has(spec: Path) -> None:
    """`show` reads the file's lemmas from the typed list beside the template: it must be the
    rendered file's, read here from the text (lemma names in order, each proof's tactics in
    the order they are first used)."""
    from rendered_proofs import lemmas_and_tactics

    from obligations.float.all_parameters_cases import obligations
    u = unfold(load(spec))
    assert obligations(u.mechanism) == lemmas_and_tactics(u.rendered.text)


@pytest.mark.parametrize("m", [1, 2])
def test_closed_form_is_above_ln_k_and_the_seed_is_below(m: int) -> None:
    """The library's constants bound float_snap_dp_tight's ln K over the range (a sample of it), within
    4% at B = 353 lambda, Lambda = lambda; the seed's 12*eta*B/lambda + 2*eta does not at Lambda = lambda,
    and does at Lambda = 2 lambda for B >= 8 lambda."""
    a, b = 9 + 9 * m, 18 + 5 * m
    for rho in (1, 1.25, 1.5, 2):
        for beta in (1e-6, 1, 10, 100, 353):
            assert _ln_k_over_eta(beta, rho, m) <= a * beta + b
    assert _ln_k_over_eta(353, 1, m) >= 0.96 * (a * 353 + b)
    assert _ln_k_over_eta(100, 1, m) > 12 * 100 + 2
    if m == 1:
        assert _ln_k_over_eta(8, 2, m) < 12 * 8 + 2 and _ln_k_over_eta(353, 2, m) < 12 * 353 + 2


@pytest.mark.parametrize("ulps, a, b, ties, theorem", [
    (1, 16, 0, "up", "snap_binary64_mironov_constant_ulp_false"),
    (1, "31/2", 0, "any", "snap_binary64_mironov_constant_ulp_false"),
    (3, 12, 2, "any", "snap_binary64_seed_constant_ulp_false"),
    (2 ** 20, 12, 1, "up", "snap_binary64_seed_constant_ulp_false"),
])
def test_a_log_within_k_ulps_refutes_mironovs_and_the_seeds_constants(tmp_path: Path, ulps: int, a: Any, b: Any,
                                                                       ties: str, theorem: str) -> None:
    """Mironov's (16, 0) and the seed's (12, 2) for a log within k >= 1 ulps: refuted with binary64 inputs
    (SnapUlpsRefuted.v), the file's theorem the negation of the claim with its log premise."""
    u = unfold(load(_write(tmp_path, snapping={"ties": ties, "log": {"ulps": ulps}},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.REFUTED, u.plan.notes
    assert f"refuted, it is false: {theorem} (theories/Float/SnapUlpsRefuted.v)" in u.plan.notes[0]
    text = u.rendered.text
    assert f"apply ({theorem}_up {ulps} 1 1 " in text
    assert "From Obligations.Float Require Import SnapUlpsRefuted." in text
    assert f"rel_within (2 * {ulps} * eta 53 / (1 - 2 * {ulps} * eta 53)) (ln v) (lnf v)) ->" in text
    assert "the library's witness has binary64 inputs" in u.spec.claim.record()["neighbours"]
    w = u.witness()
    assert w is not None and w["inputs"] == "binary64 floats" and w["x"] == str(Fraction(-4517374001546552, 2 ** 44))


@pytest.mark.parametrize("ulps, grid, bound, a, b, theorem", [
    (2, {"min_over_lambda": "199/100"}, {"min_over_lambda": 95}, 16, 0, "snap_binary64_mironov_constant_2ulp_false"),
    (7, {"min_over_lambda": 2}, {"min_over_lambda": 257}, "31/2", 0, "snap_binary64_mironov_constant_2ulp_false"),
    (2, {"min_over_lambda": "3/2"}, {"min_over_lambda": 11}, 12, 2, "snap_binary64_seed_constant_2ulp_false"),
], ids=["mironov_where_one_ulp_is_proved", "mironov_k_7_top", "seed"])
def test_a_log_within_two_ulps_refutes_the_constants_at_every_grid(tmp_path: Path, ulps: int, grid: Any, bound: Any,
                                                                   a: Any, b: Any, theorem: str) -> None:
    """A log within k >= 2 ulps over a grid range up to 2 lambda: refuted through SnapUlpsKRefuted.v (Lambda =
    2 lambda), the negation's premises the claim's ranges, the witness's inputs binary64 floats."""
    u = unfold(load(_write(tmp_path, snapping={"ties": "up", "log": {"ulps": ulps}, "grid": grid, "bound": bound},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.REFUTED, u.plan.notes
    assert f"refuted, it is false: {theorem} (theories/Float/SnapUlpsKRefuted.v)" in u.plan.notes[0]
    assert "every k >= 2 ulps" in u.plan.notes[0]
    text = u.rendered.text
    assert "From Obligations.Float Require Import SnapUlpsKRefuted." in text
    assert f"apply ({theorem}_up {ulps} " in text
    rho0 = Fraction(grid["min_over_lambda"])
    assert (f"({rho0.numerator} / {rho0.denominator})" if rho0.denominator > 1 else str(rho0)) + \
        " * lam <= grid <= 2 * lam" in text
    assert f"rel_within (2 * {ulps} * eta 53 / (1 - 2 * {ulps} * eta 53)) (ln v) (lnf v)) ->" in text
    w = u.witness()
    assert w is not None and w["inputs"] == "binary64 floats" and w["x"] == str(Fraction(-4521569176915002, 2 ** 44))


@pytest.mark.parametrize("ulps, grid, bound, a, b, least", [
    (1, "199/100", 95, 16, 0, None),               # Mironov's where the library proves it (SnapSeedUlps.v)
    (1, "197/100", 177, 16, 0, None),              # a narrower grid: from B = 176.2 lambda
    (1, 2, 78, 16, 0, None),                       # Lambda = 2 lambda: from B = 77.03 lambda
    (3, "199/100", 1, 50, 60, None),               # k = 3: slope 28c = 36.9
    (1, "199/100", 94, 16, 0, "94.72"),            # just below the least clamp
    (1, "197/100", 176, 16, 0, "176.19"),
    (1, "19/10", 353, 16, 0, "slope"),             # the slope 12c = 16.2 is above Mironov's 16
], ids=["mironov", "grid_197", "grid_2", "k_3", "beta0_94", "beta0_176", "grid_19"])
def test_a_range_with_a_log_within_k_ulps_is_proved_where_snap_seed_ulps_reaches(
        tmp_path: Path, ulps: int, grid: Any, bound: Any, a: Any, b: Any, least: str | None) -> None:
    """The route's choice: snap_binary64_dp_wide_ulps_ab with the hints r0, c where (4 + 8k)*c <= a and
    (4k + 10)*c - b <= (a - (4 + 8k)*c)*beta0, the file's theorem the claim with a log within k ulps;
    outside it (no witness refutes these): undecided, saying from which clamp it would follow."""
    u = unfold(load(_write(tmp_path, snapping={"log": {"ulps": ulps}, "grid": {"min_over_lambda": grid},
                                               "bound": {"min_over_lambda": bound}},
                           bound={"per_B_over_lambda": a, "constant": b})))
    note = u.plan.notes[0]
    assert "snap_binary64_dp_wide_ulps_ab (SnapSeedUlps.v)" in note
    if least is None:
        assert u.plan.expected == Verdict.PROVED, note
        text = u.rendered.text
        assert "From Obligations.Float Require Import SnapSeedUlps." in text
        assert f"exact (snap_binary64_dp_wide_ulps_ab {ulps} " in text
        assert f"rel_within (2 * {ulps} * eta 53 / (1 - 2 * {ulps} * eta 53)) (ln v) (lnf v)) ->" in text
        return
    assert u.plan.expected == Verdict.UNDECIDED, note
    assert "it is not refuted either" in note
    assert ("is at or above a = 16" if least == "slope" else "it follows only for B >= ") in note
    if least != "slope":
        assert f"(= {least}" in note


@pytest.mark.parametrize("ulps, grid, bound, a, b", [
    (2, {"min_over_lambda": "199/100"}, {"min_over_lambda": 258}, 16, 0),  # above the witness's B/lambda
    (2, {"min_over_lambda": "199/100"}, {"min_over_lambda": 95}, 17, 0),   # above Mironov's slope
    (2, {"min_over_lambda": "199/100"}, {"min_over_lambda": 95}, 20, 100),  # below the slope 20c = 26.3
], ids=["beta0_258", "a_17", "a_20"])
def test_a_range_with_a_log_within_k_ulps_is_otherwise_undecided(tmp_path: Path, ulps: int, grid: Any, bound: Any,
                                                                  a: Any, b: Any) -> None:
    """Outside SnapSeedUlps.v's reach, a claim no witness refutes stays undecided."""
    u = unfold(load(_write(tmp_path, snapping={"ties": "up", "log": {"ulps": ulps}, "grid": grid, "bound": bound},
                           bound={"per_B_over_lambda": a, "constant": b})))
    assert u.plan.expected == Verdict.UNDECIDED, u.plan.notes
    assert "it is not refuted either" in u.plan.notes[0]
