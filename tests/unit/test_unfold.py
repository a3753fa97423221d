"""The exact analysis: tabulation, neighbours, tight ε, and the prove/refute plan against references."""
from __future__ import annotations

import itertools
import json
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy
import yaml

from obligations.analysis.finite import FiniteMechanism, epsilon_value, hockey, neighbour_pairs, plan, tabulate
from obligations.core.obligation import ExpUpperBound, Plan, Witness
from obligations.models import load

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "tests" / "data" / "reference"
F = Fraction


# ---------------------------------------------------------------- helpers

def reference(name: str) -> dict[str, Any]:
    return json.loads((REFERENCE / f"{name}.json").read_text())


def spec_file(tmp_path: Path, matrix: list[list[str]], neighbours: Any, epsilon: str,
              delta: str = "0", name: str = "ref") -> Path:
    """A table spec over inputs and outputs 0..n-1 (labels are the indices)."""
    data = {
        "schema_version": 1, "name": name,
        "inputs": {"range": [0, len(matrix) - 1]}, "outputs": {"range": [0, len(matrix[0]) - 1]},
        "table": {str(i): row for i, row in enumerate(matrix)},
        "neighbours": neighbours,
        "claim": {"epsilon": epsilon, "delta": delta},
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def analyse(path: Path) -> tuple[FiniteMechanism, Plan]:
    m = tabulate(load(path))
    return m, plan(m)


def neighbour_forms(pairs: list[list[int]]) -> list[Any]:
    """The reference pairs as explicit pairs, and as 'adjacent' when they are exactly that."""
    forms: list[Any] = [{"pairs": pairs}]
    n = max(max(p) for p in pairs) + 1
    if sorted(map(sorted, pairs)) == [[i, i + 1] for i in range(n - 1)]:
        forms.append("adjacent")
    return forms


def round_mp(mp: str, digits: int, up: bool) -> str:
    """The 30-digit reference value rounded up or down at `digits` decimals (a rational, as text)."""
    return str(Decimal(mp).quantize(Decimal(10) ** -digits, rounding=ROUND_CEILING if up else ROUND_FLOOR))


def witness_of(p: Plan) -> Witness:
    return next(o for o in p.obligations if isinstance(o, Witness))


def assert_witness_holds(m: FiniteMechanism, p: Plan) -> None:
    """Pr[M(x) ∈ S] > U · Pr[M(x') ∈ S] + δ, exactly, with U ≥ e^ε and the sums right."""
    w = witness_of(p)
    spec = m.spec
    assert (w.x, w.x2) in m.pairs
    assert w.pr_x == sum((m.rows[w.x][y] for y in w.outputs), F(0))
    assert w.pr_x2 == sum((m.rows[w.x2][y] for y in w.outputs), F(0))
    assert w.pr_x > w.bound * w.pr_x2 + spec.delta
    upper = next(o for o in p.obligations if isinstance(o, ExpUpperBound))
    assert upper.bound == w.bound
    e_eps = sympy.exp(epsilon_value(spec))
    assert sympy.Rational(w.bound.numerator, w.bound.denominator) >= e_eps


# ---------------------------------------------------------------- the reference cases

CASES: list[tuple[str, dict[str, Any], Any]] = [
    (ref, row, nb)
    for ref in ("rr_p34", "geom_half_0to5", "geom_quarter_threshold_0to5")
    for row in reference(ref)["delta_exact"]
    for nb in neighbour_forms(reference(ref)["input"]["neighbours"])
]
IDS = [f"{ref}-eps={row['eps']}-{nb if isinstance(nb, str) else 'pairs'}" for ref, row, nb in CASES]


def mp_digits(ref: str, eps: str) -> str | None:
    values = reference(ref)["reference_run"]["exact"]["values"]
    return next((v.get("delta_mp") for v in values if v["eps"] == eps), None)


@pytest.mark.parametrize("ref, row, nb", CASES, ids=IDS)
def test_reference_delta_proves_and_less_refutes(tmp_path: Path, ref: str, row: dict[str, Any],
                                                 nb: Any) -> None:
    matrix = reference(ref)["input"]["matrix"]
    eps = str(row["eps"])
    if "delta" in row:  # e^ε rational: δ(ε) is exact
        delta = F(row["delta"])
        m, p = analyse(spec_file(tmp_path, matrix, nb, eps, str(delta)))
        assert p.expected == "proved"
        assert p.delta_at_claim == str(delta)
        if delta > 0:
            less = spec_file(tmp_path, matrix, nb, eps, str(delta - F(1, 10 ** 6)), "less")
        else:  # δ = 0 at the tight ε: a slightly smaller ε is refuted
            less = spec_file(tmp_path, matrix, nb, f"{eps} - 1/1000000", "0", "less")
    else:  # e^ε irrational: bracket the 30-digit value at 12 decimals
        mp = mp_digits(ref, eps)
        assert mp is not None and abs(float(mp) - row["delta_float"]) < 1e-15
        m, p = analyse(spec_file(tmp_path, matrix, nb, eps, round_mp(mp, 12, up=True)))
        assert p.expected == "proved"
        assert p.delta_at_claim is None
        assert p.delta_at_claim_float == pytest.approx(row["delta_float"], abs=1e-9)
        less = spec_file(tmp_path, matrix, nb, eps, round_mp(mp, 12, up=False), "less")
    m_less, p_less = analyse(less)
    assert p_less.expected == "refuted"
    assert_witness_holds(m_less, p_less)


@pytest.mark.parametrize("ref", ["rr_p34", "geom_half_0to5", "geom_quarter_threshold_0to5"])
def test_reference_tight_epsilon(tmp_path: Path, ref: str) -> None:
    """The largest ratio is the breakpoint the reference lists."""
    data = reference(ref)
    ratio = data["reference_run"]["exact"]["breakpoints"]["ratios"][-1]
    _, p = analyse(spec_file(tmp_path, data["input"]["matrix"], {"pairs": data["input"]["neighbours"]}, "0"))
    assert p.tight_epsilon == f"ln({ratio})"
    assert p.tight_epsilon_float == pytest.approx(data["reference_run"]["exact"]["breakpoints"]["eps"][-1])


def test_delta_at_claim_float_is_accurate_for_a_far_claim(tmp_path: Path) -> None:
    data = reference("rr_p34")
    _, p = analyse(spec_file(tmp_path, data["input"]["matrix"], "all", "1", "0"))
    assert p.expected == "refuted"
    assert p.delta_at_claim_float == pytest.approx(0.07042954288523869, abs=1e-9)


def test_hockey_is_the_best_output_set(tmp_path: Path) -> None:
    """Brute force over all output sets: the hockey-stick sum is max_S Pr[x ∈ S] − e^ε Pr[x' ∈ S]."""
    data = reference("geom_quarter_threshold_0to5")
    m, _ = analyse(spec_file(tmp_path, data["input"]["matrix"], "adjacent", "0"))
    outputs = range(len(m.rows[0]))
    for bound in (F(1), F(2), F(3), F(5, 2), F(4)):
        for a, b in m.pairs:
            best = max(sum((m.rows[a][y] - bound * m.rows[b][y] for y in s), F(0))
                       for k in range(len(outputs) + 1) for s in itertools.combinations(outputs, k))
            assert hockey(m.rows[a], m.rows[b], bound) == best


# ---------------------------------------------------------------- the shipped mechanisms

@pytest.mark.parametrize("name, ratio", [
    ("randomized_response", 3), ("randomized_response_eps1", 3), ("truncated_geometric", 2),
    ("geometric_threshold", 4), ("truncated_geometric_formula", 2),
])
def test_tight_epsilon_of_shipped_mechanisms(name: str, ratio: int) -> None:
    m, p = analyse(REPO / "mechanisms" / f"{name}.yaml")
    assert p.tight_epsilon == f"ln({ratio})"
    assert p.tight_epsilon_float == pytest.approx(math.log(ratio))
    assert p.expected == "proved"


def truncated_geometric(alpha: Fraction, n: int) -> list[list[Fraction]]:
    """Seed 002's closed form: y = x + Z, Z geometric, truncated to [-x, n - x]."""
    def pr(x: int, y: int) -> Fraction:
        if y == 0:
            return alpha ** x / (1 + alpha)
        if y == n:
            return alpha ** (n - x) / (1 + alpha)
        return (1 - alpha) / (1 + alpha) * alpha ** abs(y - x)
    return [[pr(x, y) for y in range(n + 1)] for x in range(n + 1)]


def test_formula_mechanism_is_the_closed_form() -> None:
    m, _ = analyse(REPO / "mechanisms" / "truncated_geometric_formula.yaml")
    assert [list(r) for r in m.rows] == truncated_geometric(F(1, 2), 50)
    assert all(sum(r) == 1 for r in m.rows)


@pytest.mark.parametrize("name, alpha", [("truncated_geometric", F(1, 2)), ("geometric_threshold", F(1, 4))])
def test_shipped_tables_are_the_closed_form(name: str, alpha: Fraction) -> None:
    m, _ = analyse(REPO / "mechanisms" / f"{name}.yaml")
    assert [list(r) for r in m.rows] == truncated_geometric(alpha, 5)


def test_rows_are_exact_fractions(tmp_path: Path) -> None:
    m, _ = analyse(spec_file(tmp_path, [["0.1", "0.9"], ["0.3", "0.7"]], "all", "ln(3)"))
    assert m.rows == ((F(1, 10), F(9, 10)), (F(3, 10), F(7, 10)))
    assert all(isinstance(v, Fraction) for r in m.rows for v in r)


# ---------------------------------------------------------------- neighbours

@pytest.mark.parametrize("nb, expected", [
    ("all", [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]),
    ("adjacent", [(0, 1), (1, 0), (1, 2), (2, 1)]),
    ({"pairs": [[2, 0]]}, [(0, 2), (2, 0)]),
    ({"pairs": [[1, 1], [0, 1], [1, 0]]}, [(0, 1), (1, 0)]),   # x = x' and repeats drop out
])
def test_neighbour_pairs_are_ordered_and_distinct(tmp_path: Path, nb: Any,
                                                  expected: list[tuple[int, int]]) -> None:
    spec = load(spec_file(tmp_path, [["1/2", "1/2"]] * 3, nb, "0"))
    assert list(neighbour_pairs(spec)) == expected


def test_neighbours_matter(tmp_path: Path) -> None:
    """The 1/2-geometric table is ln 2-DP for adjacent inputs, not for all pairs."""
    matrix = reference("geom_half_0to5")["input"]["matrix"]
    assert analyse(spec_file(tmp_path, matrix, "adjacent", "ln(2)"))[1].expected == "proved"
    m, p = analyse(spec_file(tmp_path, matrix, "all", "ln(2)", name="every_pair"))
    assert p.expected == "refuted" and p.tight_epsilon == "ln(32)"
    assert_witness_holds(m, p)


# ---------------------------------------------------------------- refutations and edge cases

@pytest.mark.parametrize("epsilon, delta", [
    ("ln(2)", "0"), ("ln(2)", "1/5"), ("1", "0"), ("1", "0.0704"), ("0", "0.49"), ("ln(3) - 1/10**9", "0"),
])
def test_refutation_witness_is_exact(tmp_path: Path, epsilon: str, delta: str) -> None:
    m, p = analyse(spec_file(tmp_path, [["3/4", "1/4"], ["1/4", "3/4"]], "all", epsilon, delta))
    assert p.expected == "refuted"
    assert_witness_holds(m, p)


def test_sub_distribution_is_analysed(tmp_path: Path) -> None:
    path = spec_file(tmp_path, [["1/2", "1/4"], ["1/4", "1/2"]], "all", "ln(2)")
    text = path.read_text().replace("neighbours:", "distribution: sub\nneighbours:")
    path.write_text(text)
    _, p = analyse(path)
    assert p.expected == "proved" and p.tight_epsilon == "ln(2)"


def test_infinite_privacy_loss(tmp_path: Path) -> None:
    m, p = analyse(spec_file(tmp_path, [["1", "0"], ["1/2", "1/2"]], "all", "5", "0"))
    assert p.tight_epsilon == "oo" and math.isinf(p.tight_epsilon_float)
    assert p.expected == "refuted"
    assert_witness_holds(m, p)
    _, p_ok = analyse(spec_file(tmp_path, [["1", "0"], ["1/2", "1/2"]], "all", "0", "1/2", "ok"))
    assert p_ok.expected == "proved"


def test_identical_rows_are_zero_dp(tmp_path: Path) -> None:
    _, p = analyse(spec_file(tmp_path, [["1/3", "2/3"], ["1/3", "2/3"]], "all", "0"))
    assert p.tight_epsilon == "0" and p.expected == "proved" and p.delta_at_claim == "0"
