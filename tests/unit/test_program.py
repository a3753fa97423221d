"""Program specs (issue 4): checking, the exact interpreter, the verdicts, refusals."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from inprocess import cli

from obligations.analysis.finite import plan, tabulate
from obligations.certify.run import load_specs, unfold
from obligations.errors import SpecError
from obligations.models import check, load
from obligations.program import spec as P
from obligations.program.analysis import geom_le, output_distribution, tabulate_program, tgeom, two_sided
from obligations.program.spec import expand

REPO = Path(__file__).resolve().parents[2]
F = Fraction


def spec_of(body: list[Any], inputs: dict[str, Any] | None = None, **extra: Any) -> Any:
    data = {"schema_version": 1, "name": extra.pop("name", "prog"),
            "parameters": extra.pop("parameters", {}),
            "program": {"inputs": inputs or {"x": {"range": [0, 1], "sensitivity": 1}}, "body": body},
            "claim": extra.pop("claim", {"epsilon": "ln(3)"})}
    data.update(extra)
    return check(data, "test.yaml")


def dist(spec: Any, vec: tuple[int, ...]) -> dict[Any, Fraction]:
    return output_distribution(spec.program, vec)


# ---------------------------------------------------------------- tables in disguise


def table_program(table_spec: Path, name: str) -> Any:
    """The program `y ~ row x of the table; output y` for a table spec over ranges."""
    raw = yaml.safe_load(table_spec.read_text())
    lo, hi = raw["inputs"]["range"]
    ylo, yhi = raw["outputs"]["range"]
    rows = [raw["table"][str(x)] for x in range(lo, hi + 1)]
    return spec_of([{"sample": {"var": "y", "from": {"table": {"key": "x", "key_range": [lo, hi],
                                                                "values": [ylo, yhi], "rows": rows}}}},
                    {"output": "y"}],
                   {"x": {"range": [lo, hi], "sensitivity": 1}}, name=name, claim=raw["claim"])


@pytest.mark.parametrize("stem", ["truncated_geometric", "geometric_threshold"])
def test_a_table_as_a_program_gives_the_spines_result(stem: str) -> None:
    table = tabulate(load(REPO / "mechanisms" / f"{stem}.yaml"))
    prog = tabulate_program(table_program(REPO / "mechanisms" / f"{stem}.yaml", stem))
    assert prog.rows == table.rows
    assert prog.pairs == table.pairs  # |x - x'| <= 1 is the spine's adjacency here
    assert plan(prog).tight_epsilon == plan(table).tight_epsilon
    assert plan(prog).expected == plan(table).expected == "proved"


def test_tgeom_is_the_seed_table() -> None:
    """DTGeom 1/2 over {0..5} at x is seed 002's ½-geometric table, row x."""
    raw = yaml.safe_load((REPO / "mechanisms" / "truncated_geometric.yaml").read_text())
    for x in range(6):
        row = [F(v) for v in raw["table"][str(x)]]
        assert [p for _, p in tgeom(F(1, 2), x, 0, 5)] == row


def test_randomized_response_as_a_coin_program() -> None:
    s = spec_of([{"sample": {"var": "c", "from": {"bernoulli": {"p": "1/2"}}}},
                 {"if": "c == 1", "then": [{"output": "x"}],
                  "else": [{"sample": {"var": "r", "from": {"uniform": {"range": [0, 1]}}}}, {"output": "r"}]}])
    m = tabulate_program(s)
    assert m.outputs == ("0", "1") and m.spec is s   # the analysis leaves the spec as written
    assert m.rows == ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))
    p = plan(m)
    assert p.tight_epsilon == "ln(3)" and p.expected == "proved"


def test_the_formula_spec_and_tgeom_agree_everywhere() -> None:
    table = tabulate(load(REPO / "mechanisms" / "truncated_geometric_formula.yaml"))
    n = len(table.rows) - 1
    for x, row in enumerate(table.rows):
        assert tuple(p for _, p in tgeom(F(1, 2), x, 0, n)) == row


# ---------------------------------------------------------------- the distributions (ProgramSem.v)


@pytest.mark.parametrize("c", [-3, -1, 0, 2, 5, 6, 9])
def test_tgeom_is_a_distribution_wherever_the_center_is(c: int) -> None:
    d = tgeom(F(1, 3), c, 0, 5)
    assert sum(p for _, p in d) == 1 and all(p > 0 for _, p in d)
    # the ends collect the tails of c + Z: Pr[Z <= 0 - c] and Pr[Z >= 5 - c]
    assert d[0][1] == geom_le(F(1, 3), 0 - c) and d[-1][1] == geom_le(F(1, 3), c - 5)


def test_tgeom_single_point_and_two_sided() -> None:
    assert tgeom(F(1, 2), 7, 3, 3) == [(3, F(1))]
    d = dict(two_sided(F(1, 2), -1, 2))
    assert d == {-1: F(2, 9), 0: F(4, 9), 1: F(2, 9), 2: F(1, 9)}


def test_halted_states_skip_and_loops_count() -> None:
    s = spec_of([{"for": {"var": "i", "in": 3}, "do": [{"output": "i"}, {"if": "i == x", "then": ["stop"]}]},
                 "top"], {"x": {"range": [0, 5], "sensitivity": 1}})
    assert dist(s, (1,)) == {(0, 1): 1}
    assert dist(s, (5,)) == {(0, 1, 2, "T"): 1}


def test_stream_elements_and_index_semantics() -> None:
    s = spec_of([{"for": {"var": "i", "in": "q", "value": "a"}, "do": [{"output": "a + 10 * i"}]}],
                {"q": {"stream": 3, "range": [0, 2], "sensitivity": 1}})
    assert dist(s, (2, 0, 1)) == {(2, 10, 21): 1}
    assert len(s.program.inputs) == 27 and s.program.deltas == (1, 1, 1)


def test_dead_variables_do_not_change_the_distribution() -> None:
    """Liveness only merges states: the distribution is that of the naive enumeration."""
    s = spec_of([{"sample": {"var": "t", "from": {"uniform": {"range": [0, 3]}}}},
                 {"for": {"var": "i", "in": 3},
                  "do": [{"sample": {"var": "n", "from": {"two_sided": {"alpha": "1/2", "range": [-1, 1]}}}},
                         {"assign": {"var": "v", "value": "x + n"}},
                         {"if": "v >= t", "then": ["top", "stop"], "else": ["bot"]}]}],
                {"x": {"range": [0, 2], "sensitivity": 1}})
    import itertools
    noise = {-1: F(1, 4), 0: F(1, 2), 1: F(1, 4)}
    for x in range(3):
        want: dict[Any, Fraction] = {}
        for t in range(4):
            for ns in itertools.product(noise, repeat=3):
                out: tuple[str, ...] = ()
                for n in ns:
                    if x + n >= t:
                        out += ("T",)
                        break
                    out += ("B",)
                p = F(1, 4) * noise[ns[0]] * noise[ns[1]] * noise[ns[2]]
                want[out] = want.get(out, F(0)) + p
        assert dist(s, (x,)) == want


# ---------------------------------------------------------------- the shipped mechanisms and the buggy ones

SHIPPED = ["online_model", "above_threshold", "sparse_vector_lsl", "report_noisy_max"]
VERDICTS = {  # name: (tight eps, Python's verdict on the spec's claim)
    "online_model_k1": ("ln(2)", "proved"), "online_model_k2": ("ln(943/292)", "proved"),
    "online_model_k3": ("ln(62777/16504)", "proved"), "online_model_k4": ("ln(616/109)", "proved"),
    "above_threshold_k1": ("ln(88/47)", "proved"), "above_threshold_k2": ("ln(70/19)", "proved"),
    "above_threshold_k3": ("ln(328/47)", "proved"), "above_threshold_k4": ("ln(1816/163)", "proved"),
    "sparse_vector_lsl_k1": ("ln(28/17)", "proved"), "sparse_vector_lsl_k2": ("ln(17/5)", "proved"),
    "sparse_vector_lsl_k3": ("ln(110/19)", "proved"), "sparse_vector_lsl_k4": ("ln(121/10)", "proved"),
    "report_noisy_max_k1": ("0", "proved"), "report_noisy_max_k2": ("ln(14/5)", "proved"),
    "report_noisy_max_k3": ("ln(100/23)", "proved"), "report_noisy_max_k4": ("ln(824/149)", "proved"),
    "at_noisy_value_k1": ("ln(2)", "refuted"), "at_noisy_value_k2": ("ln(4)", "refuted"),
    "at_noisy_value_k3": ("ln(8)", "refuted"), "at_noisy_value_k4": ("ln(16)", "refuted"),
    "at_no_query_noise_k1": ("ln(4)", "refuted"), "at_no_query_noise_k2": ("oo", "refuted"),
    "at_no_query_noise_k3": ("oo", "refuted"), "at_no_query_noise_k4": ("oo", "refuted"),
    "at_no_cutoff_k1": ("ln(88/47)", "proved"), "at_no_cutoff_k2": ("ln(70/19)", "proved"),
    "at_no_cutoff_k3": ("ln(328/47)", "proved"), "at_no_cutoff_k4": ("ln(265/19)", "refuted"),
    "rnm_value_k1": ("ln(2)", "refuted"), "rnm_value_k2": ("ln(4)", "refuted"),
    "rnm_value_k3": ("ln(8)", "refuted"), "rnm_value_k4": ("ln(16)", "refuted"),
}


def all_program_specs() -> list[Any]:
    files = [REPO / "mechanisms" / f"{n}.yaml" for n in SHIPPED]
    return load_specs(files + [REPO / "tests" / "specs" / "programs"])


def test_every_shipped_and_buggy_program_has_its_stated_verdict() -> None:
    seen = {}
    for s in all_program_specs():
        p = plan(tabulate_program(s))
        seen[s.name] = (p.tight_epsilon, p.expected)
    assert seen == VERDICTS


def test_a_refutation_names_inputs_outputs_and_probabilities() -> None:
    s = next(s for s in all_program_specs() if s.name == "at_noisy_value_k2")
    u = unfold(s)
    from obligations.certify.outcome import witness_json
    w = witness_json(u)
    assert w is not None
    assert w["x"].startswith("q=(") and w["x_prime"].startswith("q=(")
    assert all(set(o) <= set("⊥⊤0123 -") for o in w["outputs"])
    assert F(w["pr_x"]) > F(70, 19) * F(w["pr_x_prime"])
    assert "check_prog_witness" in u.rendered.text and "~ dp_prog" in u.rendered.text


def test_sweep_names_and_rederivation() -> None:
    base = load(REPO / "mechanisms" / "online_model.yaml")
    points = expand(base)
    assert [p.name for p in points] == [f"online_model_k{k}" for k in range(1, 5)]
    assert points[2].derived == {"name": "online_model_k3", "sweep": {"k": "3"}}
    again = P.derive_point(base, {"k": "3"})
    assert again.name == "online_model_k3" and again.epsilon_text == "ln(62777/16504)"
    assert len(again.program.body) == 2 and again.program.body[1].n == 3


def test_the_render_is_a_program_term_and_dp_prog() -> None:
    u = unfold(expand(load(REPO / "mechanisms" / "online_model.yaml"))[1])
    t = u.rendered.text
    assert "Definition online_model_k2_prog : stmt :=" in t and "(SFor 3 2" in t
    assert "dp_prog online_model_k2_deltas online_model_k2_inputs online_model_k2_prog" in t
    assert u.rendered.theorems == ("online_model_k2_dp",)


# ---------------------------------------------------------------- refusals, before any work


def refused(body: list[Any], inputs: dict[str, Any] | None = None, **extra: Any) -> str:
    with pytest.raises(SpecError) as err:
        s = spec_of(body, inputs, **extra)
        tabulate_program(s)
    return str(err.value)


def test_unbounded_loops_are_refused() -> None:
    msg = refused([{"while": "x > 0", "do": ["top"]}])
    assert "program.body[0]" in msg and "no unbounded loop" in msg
    msg = refused([{"for": {"var": "i", "in": "x"}, "do": ["top"]}])
    assert "program.body[0].for.in" in msg and "bounded" in msg
    assert "between 0 and 64" in refused([{"for": {"var": "i", "in": 10 ** 6}, "do": ["top"]}])
    nested = {"for": {"var": "i", "in": 64}, "do": [{"for": {"var": "j", "in": 64},
                                                      "do": [{"for": {"var": "l", "in": 64}, "do": ["bot"]}]}]}
    assert "unrolled" in refused([nested])


def test_huge_domains_are_refused() -> None:
    assert "at most 1000 per input component" in refused(["top"], {"x": {"range": [0, 10 ** 9], "sensitivity": 1}})
    assert "input vectors is more than 10000" in refused(
        ["top"], {"q": {"stream": 20, "range": [0, 2], "sensitivity": 1}})
    assert "between 1 and 32" in refused(["top"], {"q": {"stream": 1000, "range": [0, 0], "sensitivity": 1}})
    assert "per distribution" in refused([{"sample": {"var": "n", "from": {"uniform": {"range": [0, 10 ** 7]}}}}])
    body = [{"for": {"var": "i", "in": 60},
             "do": [{"sample": {"var": "n", "from": {"uniform": {"range": [0, 999]}}}}, {"output": "n"}]}]
    assert "(input, path) pairs" in refused(body)


def test_blowups_found_while_unfolding_stop_before_coq() -> None:
    squares = [{"assign": {"var": "v", "value": "x + 2"}},
               {"for": {"var": "i", "in": 64}, "do": [{"assign": {"var": "v", "value": "v * v"}}]}, {"output": "v"}]
    assert "2^62" in refused(squares)
    many = [{"for": {"var": "i", "in": 14},
             "do": [{"sample": {"var": "n", "from": {"bernoulli": {"p": "1/2"}}}}, {"output": "n"}]}]
    assert "output sequences" in refused(many)


def test_names_and_types_are_checked() -> None:
    assert "inputs are read-only" in refused([{"assign": {"var": "x", "value": 1}}])
    assert "unknown name 'y'" in refused([{"output": "y"}])
    assert "integers" in refused([{"output": "x / 2"}])
    assert "if` statement" in refused([{"output": "1 if x > 0 else 2"}])
    assert "stream" in refused([{"output": "q"}], {"q": {"stream": 2, "range": [0, 1], "sensitivity": 1}})
    assert "exactly one of 'sensitivity" in refused(["top"], {"x": {"range": [0, 1]}})
    assert "sums to" in refused([{"sample": {"var": "n", "from": {"table": {
        "key": "x", "key_range": [0, 1], "values": [0, 1], "rows": [["1/2", "1/3"], ["1", "0"]]}}}}])
    assert "not in (0, 1)" in refused([{"sample": {"var": "n", "from": {"tgeom": {
        "alpha": 2, "center": "x", "range": [0, 3]}}}}])
    assert "unknown statement 'print'" in refused(["print"])
    with pytest.raises(SpecError, match="must start with a letter"):
        spec_of(["top"], name="1bad")
    with pytest.raises(SpecError, match="sweep\\[0\\].m"):
        spec_of(["top"], sweep=[{"m": 1, "epsilon": "1"}])


def test_a_table_without_a_row_for_the_key_is_refused() -> None:
    msg = refused([{"sample": {"var": "n", "from": {"table": {
        "key": "x + 1", "key_range": [0, 1], "values": [0, 0], "rows": [["1"], ["1"]]}}}}, {"output": "n"}])
    assert "total probability 0, not 1" in msg and "x=1" in msg


def test_cli_refuses_hostile_programs_with_exit_2_and_builds_nothing(tmp_path: Path) -> None:
    spec = tmp_path / "hostile.yaml"
    spec.write_text(yaml.safe_dump({"schema_version": 1, "name": "hostile", "claim": {"epsilon": "1"},
                                    "program": {"inputs": {"x": {"range": [0, 1], "sensitivity": 1}},
                                                "body": [{"while": "x > 0", "do": ["top"]}]}}))
    run = cli("prove", str(spec), "--build", str(tmp_path / "build"), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert "hostile.yaml: program.body[0]: unknown statement 'while'" in run.stderr
    assert not (tmp_path / "build").exists()
