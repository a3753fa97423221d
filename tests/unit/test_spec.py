"""Loading specs: shipped ones load; every bad one is a SpecError naming the file and the field."""
from __future__ import annotations

import copy
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import inprocess
import pytest
import yaml

from obligations.analysis.finite import plan, tabulate
from obligations.core.spec import MechanismSpec
from obligations.errors import EXIT_USAGE, SpecError
from obligations.models import load

REPO = Path(__file__).resolve().parents[2]
MECHANISMS = sorted((REPO / "mechanisms").glob("*.yaml"))

RR: dict[str, Any] = {
    "schema_version": 1,
    "name": "rr",
    "inputs": ["+", "-"],
    "outputs": ["Y", "N"],
    "table": {"+": ["3/4", "1/4"], "-": ["1/4", "3/4"]},
    "neighbours": "all",
    "claim": {"epsilon": "ln(3)", "delta": "0"},
}
GEOM: dict[str, Any] = {
    "schema_version": 1,
    "name": "geom",
    "parameters": {"alpha": "1/2", "n": 5},
    "inputs": {"range": [0, "n"]},
    "outputs": {"range": [0, "n"]},
    "formula": {"cases": [
        {"when": "y == 0", "value": "alpha**x / (1 + alpha)"},
        {"when": "y == n", "value": "alpha**(n - x) / (1 + alpha)"},
        {"otherwise": "(1 - alpha) / (1 + alpha) * alpha**abs(y - x)"},
    ]},
    "neighbours": "adjacent",
    "claim": {"epsilon": "-ln(alpha)"},
}

# These limits catch hangs (a refused input must not be computed), not speed:
# speed is measured in bench/, never asserted.
HANG_GUARD_S = 30.0


def write(tmp_path: Path, data: Any, name: str = "spec.yaml") -> Path:
    """A spec file: YAML dumped from `data`, or `data` itself when it is text."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path


def changed(base: dict[str, Any], edit: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    edit(data)
    return data


def spec_error(path: Path, *, tabulating: bool = False) -> SpecError:
    """The SpecError that loading (and, if asked, tabulating) `path` raises."""
    with pytest.raises(SpecError) as info:
        spec = load(path)
        if tabulating:
            tabulate(spec)
    return info.value


def assert_names(err: SpecError, path: Path, field: str, *fragments: str) -> None:
    """What a user reads: the file, then the field, then why."""
    text = str(err)
    assert err.file == str(path)
    assert err.field == field, text
    assert text.startswith(f"{path}: {field}: " if field else f"{path}: "), text
    for fragment in fragments:
        assert fragment in text, text


# ---------------------------------------------------------------- good specs

# Shipped specs of other forms, tested elsewhere: a top-level key, and where.
OTHER_FORMS = {
    "program": "a program spec: tests/unit/test_program.py",
    "pipeline": "a noise pipeline: tests/unit/test_snapping.py",
    "floating": "a floating-point pipeline: tests/unit/test_floating.py",
    "audit": "an audit of another accountant: tests/unit/test_accountant_audit.py",
    "composition": "a composed claim beyond the product table: tests/unit/test_accountant_route.py",
    "kov": "a claim about every (eps0, 0)-DP mechanism: tests/unit/test_kov.py",
    "snapping": "binary64 snapping for all inputs: tests/unit/test_binary_snapping.py",
    "additive": "noise over all of Z added to an integer: tests/unit/test_additive.py",
}


@pytest.mark.parametrize("path", MECHANISMS, ids=[p.stem for p in MECHANISMS])
def test_shipped_mechanisms_load(path: Path) -> None:
    text = path.read_text()
    for key, where in OTHER_FORMS.items():
        if f"\n{key}:" in text:
            pytest.skip(where)
    if "\nroute: family" in text or "{range:" in text.split("inputs:")[0]:
        pytest.skip("a family, or an instance never tabulated: tests/unit/test_families.py")
    if "{accuracy:" in text or "{expected_error:" in text:
        pytest.skip("an accuracy claim: tests/unit/test_accuracy.py")
    if "exp(" in text.split("table:")[-1]:
        pytest.skip("a table of exp entries: tests/unit/test_calibrated.py")
    spec = load(path)
    assert spec.name == path.stem
    assert len(spec.sha256) == 64
    if spec.inputs.size > 100:
        pytest.skip("a large table: tests/coq/test_committed_certificates.py derives it from its spec")
    m = tabulate(spec)
    assert len(m.rows) == spec.inputs.size
    assert all(len(r) == spec.outputs.size for r in m.rows)
    assert plan(m).expected == "proved"


def test_a_minimal_spec_loads(tmp_path: Path) -> None:
    spec = load(write(tmp_path, RR))
    assert isinstance(spec, MechanismSpec)
    assert spec.inputs.labels == ("+", "-") and spec.outputs.labels == ("Y", "N")
    assert spec.neighbours == "all" and spec.delta == 0 and spec.distribution == "full"


def test_a_formula_spec_loads(tmp_path: Path) -> None:
    spec = load(write(tmp_path, GEOM))
    assert spec.inputs.values == tuple(range(6)) and spec.parameters["n"] == 5
    assert spec.parameter_types == {"alpha": "rat", "n": "int"}


def test_delta_is_exact(tmp_path: Path) -> None:
    spec = load(write(tmp_path, changed(RR, lambda d: d["claim"].update(delta=0.0705))))
    assert str(spec.delta) == "141/2000"


def test_explicit_pairs_are_input_indices(tmp_path: Path) -> None:
    data = changed(RR, lambda d: d.update(inputs=["a", "b", "c"], neighbours={"pairs": [["c", "a"]]},
                                          table={k: ["1/2", "1/2"] for k in "abc"}))
    assert load(write(tmp_path, data)).neighbours == ((2, 0),)


def test_sub_distribution_allows_rows_below_one(tmp_path: Path) -> None:
    sub = {"+": ["1/2", "1/4"], "-": ["1/4", "1/2"]}
    path = write(tmp_path, changed(RR, lambda d: d.update(distribution="sub", table=sub)))
    m = tabulate(load(path))
    assert [sum(r) for r in m.rows] == [Fraction(3, 4)] * 2
    full = write(tmp_path, changed(RR, lambda d: d.update(table=sub)), "full.yaml")
    assert_names(spec_error(full, tabulating=True), full, "table.+", "'+'", "sums to 3/4")


# ---------------------------------------------------------------- bad specs

Edit = Callable[[dict[str, Any]], Any]
BAD: list[tuple[str, dict[str, Any], Edit, str, tuple[str, ...]]] = [
    # id, base, edit, field, fragments of the message
    ("unknown-top-field", RR, lambda d: d.update(epsilon=1), "epsilon", ("unknown field",)),
    ("unknown-claim-field", RR, lambda d: d["claim"].update(eps=1), "claim.eps", ("unknown field",)),
    ("missing-name", RR, lambda d: d.pop("name"), "name", ("Field required",)),
    ("missing-claim", RR, lambda d: d.pop("claim"), "claim", ("Field required",)),
    ("missing-epsilon", RR, lambda d: d["claim"].pop("epsilon"), "claim.epsilon", ("missing", "tolerance")),
    ("missing-neighbours", RR, lambda d: d.pop("neighbours"), "neighbours", ("Field required",)),
    ("schema-version", RR, lambda d: d.update(schema_version=2), "schema_version", ()),
    ("name-Definition", RR, lambda d: d.update(name="Definition"), "name", ("reserved",)),
    ("name-fun", RR, lambda d: d.update(name="fun"), "name", ("reserved",)),
    ("name-Qed", RR, lambda d: d.update(name="Qed"), "name", ("reserved",)),
    ("name-dp", RR, lambda d: d.update(name="dp"), "name", ("already used",)),
    ("name-rr-1", RR, lambda d: d.update(name="rr-1"), "name", ("must start with a letter",)),
    ("name-1rr", RR, lambda d: d.update(name="1rr"), "name", ("must start with a letter",)),
    ("name-a-b", RR, lambda d: d.update(name="a b"), "name", ("must start with a letter",)),
    ("name-empty", RR, lambda d: d.update(name=""), "name", ("must start with a letter",)),
    ("name-long", RR, lambda d: d.update(name="a" * 64), "name", ("at most 63",)),
    ("name-comment", RR, lambda d: d.update(name="a(*b*)"), "name", ("must start with a letter",)),
    ("param-x", RR, lambda d: d.update(parameters={"x": 1}), "parameters.x", ()),
    ("param-ln", RR, lambda d: d.update(parameters={"ln": 1}), "parameters.ln", ()),
    ("param-keyword", RR, lambda d: d.update(parameters={"fun": 1}), "parameters.fun", ("reserved",)),
    ("param-unknown-name", RR, lambda d: d.update(parameters={"a": "b + 1"}), "parameters.a", ("'b'",)),
    ("param-real", RR, lambda d: d.update(parameters={"a": "ln(2)"}), "parameters.a", ("not exact",)),
    ("param-hostile", RR, lambda d: d.update(parameters={"a": "__import__('os').getpid()"}),
     "parameters.a", ()),
    ("pair-second", RR, lambda d: d.update(neighbours={"pairs": [["+", "?"]]}),
     "neighbours.pairs[0][1]", ("'?' is not an input",)),
    ("pair-first", RR, lambda d: d.update(neighbours={"pairs": [["+", "-"], ["?", "+"]]}),
     "neighbours.pairs[1][0]", ("'?' is not an input",)),
    ("neighbours-word", RR, lambda d: d.update(neighbours="some"), "neighbours", ()),
    ("epsilon-negative", RR, lambda d: d["claim"].update(epsilon="-1"), "claim.epsilon", ("negative",)),
    ("epsilon-negative-ln", RR, lambda d: d["claim"].update(epsilon="ln(1/2)"), "claim.epsilon",
     ("negative",)),
    ("epsilon-ln-zero", RR, lambda d: d["claim"].update(epsilon="ln(0)"), "claim.epsilon", ("not positive",)),
    ("epsilon-condition", RR, lambda d: d["claim"].update(epsilon="1 < 2"), "claim.epsilon", ("condition",)),
    ("epsilon-hostile", RR, lambda d: d["claim"].update(epsilon="().__class__"), "claim.epsilon",
     ("not allowed",)),
    ("epsilon-inf", RR, lambda d: d["claim"].update(epsilon=float("inf")), "claim.epsilon", ("finite",)),
    ("epsilon-nan", RR, lambda d: d["claim"].update(epsilon=float("nan")), "claim.epsilon", ("finite",)),
    ("epsilon-true", RR, lambda d: d["claim"].update(epsilon=True), "claim.epsilon", ()),
    ("delta-above-1", RR, lambda d: d["claim"].update(delta="3/2"), "claim.delta", ("not in [0, 1]",)),
    ("delta-negative", RR, lambda d: d["claim"].update(delta=-0.1), "claim.delta", ("not in [0, 1]",)),
    ("delta-ln", RR, lambda d: d["claim"].update(delta="ln(2)"), "claim.delta", ("not exact",)),
    ("delta-true", RR, lambda d: d["claim"].update(delta=True), "claim.delta", ()),
    ("both-table-and-formula", RR, lambda d: d.update(formula="1/2"), "(top level)", ("exactly one",)),
    ("neither", RR, lambda d: d.pop("table"), "(top level)", ("exactly one",)),
    ("table-missing-row", RR, lambda d: d["table"].pop("-"), "table", ("no row for input '-'",)),
    ("table-extra-row", RR, lambda d: d["table"].update({"?": ["1", "0"]}), "table.?", ("not an input",)),
    ("table-short-row", RR, lambda d: d["table"].update({"+": ["1"]}), "table.+",
     ("1 entries for 2 outputs",)),
    ("table-entry-hostile", RR, lambda d: d["table"].update({"+": ["__import__('os').system('x')", "0"]}),
     "table.+[0]", ("only ln, exp, abs, min, max may be called",)),
    # Entries with ln/exp are exact reals (the calibrated kind, docs/calibrated.md): this row sums to ln 2.
    ("table-entry-ln", RR, lambda d: d["table"].update({"+": ["ln(2)", "0"]}), "table.+", ("the row sums to",)),
    ("table-entry-true", RR, lambda d: d["table"].update({"+": [True, False]}), "table.+[0]", ()),
    ("labels-yes-no", RR, lambda d: d.update(outputs=[True, False]), "outputs[0]", ()),
    ("label-twice", RR, lambda d: d.update(inputs=["+", "+"]), "inputs[1]", ("appears twice",)),
    ("label-newline", RR, lambda d: d.update(outputs=["Y\nAxiom", "N"]), "outputs[0]", ("printable",)),
    ("label-escape", RR, lambda d: d.update(outputs=["\x1b[31mY", "N"]), "outputs[0]", ("printable",)),
    ("label-long", RR, lambda d: d.update(outputs=["Y" * 101, "N"]), "outputs[0]", ("at most 100",)),
    ("no-inputs", RR, lambda d: d.update(inputs=[]), "inputs", ("no values",)),
    # a formula with exp or ln is tabulated as a calibrated table (docs/calibrated.md); its conditions stay exact
    ("formula-ln", GEOM, lambda d: d.update(formula="ln(2) / 6"), "formula", ("the row sums to",)),
    ("formula-case-exp", GEOM, lambda d: d["formula"]["cases"][2].update(otherwise="exp(-x)"),
     "formula", ("at x = 0: the row sums to",)),
    ("formula-when-exp", GEOM, lambda d: d["formula"]["cases"][0].update(when="exp(-x) > y"),
     "formula.cases[0].when", ("not exact", "not in its conditions")),
    ("formula-when-number", GEOM, lambda d: d["formula"]["cases"][0].update(when="y"),
     "formula.cases[0].when", ("expected a condition",)),
    ("formula-otherwise-first", GEOM, lambda d: d["formula"]["cases"].reverse(), "formula", ("otherwise",)),
    ("formula-over-labels", GEOM, lambda d: d.update(inputs=["a", "b"]), "formula", ("integer inputs",)),
    ("range-huge", GEOM, lambda d: d.update(inputs={"range": [0, 10 ** 9]}), "inputs.range",
     ("at most 5000",)),
    ("range-huge-text", GEOM, lambda d: d.update(inputs={"range": [0, "10**9"]}), "inputs.range[1]", ()),
    ("range-huge-expr", GEOM, lambda d: d.update(outputs={"range": [0, "9**9**9"]}), "outputs.range[1]", ()),
    ("range-empty", GEOM, lambda d: d.update(inputs={"range": [3, 1]}), "inputs.range", ("empty range",)),
    ("range-rational", GEOM, lambda d: d.update(inputs={"range": [0, "alpha"]}), "inputs.range[1]",
     ("integer",)),
    ("too-many-entries", GEOM, lambda d: d.update(inputs={"range": [0, 4999]}, outputs={"range": [0, 4999]}),
     "outputs", ("table entries",)),
]


@pytest.mark.parametrize("base, edit, field, fragments", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_spec_names_file_and_field(tmp_path: Path, base: dict[str, Any], edit: Edit, field: str,
                                       fragments: tuple[str, ...]) -> None:
    path = write(tmp_path, changed(base, edit))
    start = time.perf_counter()
    err = spec_error(path)
    assert time.perf_counter() - start < HANG_GUARD_S
    assert_names(err, path, field, *fragments)


def test_unknown_field_inside_a_range_is_named(tmp_path: Path) -> None:
    """`inputs` is a list or a range, so pydantic reports both branches; the range's one must be there."""
    path = write(tmp_path, changed(GEOM, lambda d: d["inputs"].update(step=2)))
    err = spec_error(path)
    assert str(err).startswith(f"{path}: inputs")
    assert "inputs.step: unknown field" in str(err)


@pytest.mark.parametrize("rows, field, fragments", [
    ({"+": ["3/4", "1/5"]}, "table.+", ("row '+'", "sums to 19/20, not 1")),
    ({"-": ["1/4", "0.76"]}, "table.-", ("row '-'", "sums to 101/100, not 1")),
    ({"+": ["5/4", "-1/4"]}, "table.+", ("Pr[M(+) = N] = -1/4 is negative",)),
    ({"+": ["1/0", "1"]}, "table.+[0]", ("division by zero",)),
])
def test_rows_are_checked_when_tabulating(tmp_path: Path, rows: dict[str, list[str]], field: str,
                                          fragments: tuple[str, ...]) -> None:
    path = write(tmp_path, changed(RR, lambda d: d["table"].update(rows)))
    load(path)  # the shape is fine; the numbers are checked when tabulating
    assert_names(spec_error(path, tabulating=True), path, field, *fragments)


def test_sub_distribution_still_refuses_sums_above_one(tmp_path: Path) -> None:
    path = write(tmp_path, changed(RR, lambda d: d.update(distribution="sub", table={
        "+": ["1/2", "3/4"], "-": ["1/4", "1/2"]})))
    assert_names(spec_error(path, tabulating=True), path, "table.+", "sums to 5/4, more than 1")


def test_formula_row_sum_is_checked(tmp_path: Path) -> None:
    path = write(tmp_path, changed(GEOM, lambda d: d["formula"]["cases"][2].update(otherwise="alpha")))
    assert_names(spec_error(path, tabulating=True), path, "formula", "row '0'", "not 1")


def test_formula_division_by_zero_names_the_case_and_point(tmp_path: Path) -> None:
    path = write(tmp_path, changed(GEOM, lambda d: d["formula"]["cases"][2].update(otherwise="1 / (y - x)")))
    err = spec_error(path, tabulating=True)
    assert_names(err, path, "formula.cases[2]", "x = 1, y = 1", "division by zero")


@pytest.mark.parametrize("text, fragment", [
    ("schema_version: 1\nname: a\nname: b\n", "duplicate key 'name'"),
    ("claim: {epsilon: 1, epsilon: 2}\n", "duplicate key 'epsilon'"),
    ("name: [unclosed\n  : : {", "not valid YAML"),
    ("\tname: rr\n", "not valid YAML"),
    ("- name: rr\n- name: rr2\n", "a spec is a YAML mapping"),
    ("just text\n", "a spec is a YAML mapping"),
    ("", "a spec is a YAML mapping"),
    ("!!python/object/apply:os.system ['touch pwned']\n", "not valid YAML"),
    ("a: &a [*a]\n", ""),
])
def test_files_that_are_not_spec_mappings(tmp_path: Path, text: str, fragment: str) -> None:
    path = write(tmp_path, text)
    err = spec_error(path)
    assert err.file == str(path) and str(err).startswith(f"{path}: ")
    assert fragment in str(err)
    assert not (tmp_path / "pwned").exists()


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_bytes(b"name: \xff\xfe\n")
    assert_names(spec_error(path), path, "", "not UTF-8")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    assert_names(spec_error(path), path, "", "cannot read")


def test_huge_parameter_power_is_refused_quickly(tmp_path: Path) -> None:
    path = write(tmp_path, changed(RR, lambda d: d.update(parameters={"a": "9**4096", "b": "a**4096"})))
    start = time.perf_counter()
    assert_names(spec_error(path), path, "parameters.b", "larger than")
    assert time.perf_counter() - start < HANG_GUARD_S


def test_huge_parameter_products_are_refused_quickly(tmp_path: Path) -> None:
    params = {"a": "9**4096", "b": "a*a*a*a*a*a*a*a", "c": "b*b*b*b*b*b*b*b", "d": "c*c*c*c*c*c*c*c",
              "e": "d*d*d*d*d*d*d*d", "f": "e*e*e*e*e*e*e*e"}
    path = write(tmp_path, changed(RR, lambda d: d.update(parameters=params)))
    code = f"from obligations.models import load\nload({str(path)!r})"
    try:  # in a child process, so that the hang costs 2 seconds, not minutes
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                              timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"loading did not finish within {HANG_GUARD_S} s")
    assert "SpecError" in done.stderr


def test_astronomical_epsilon_is_a_spec_error(tmp_path: Path) -> None:
    path = write(tmp_path, changed(RR, lambda d: d["claim"].update(epsilon="exp(50)")))
    with pytest.raises(SpecError) as info:
        plan(tabulate(load(path)))
    assert_names(info.value, path, "claim.epsilon")


# ---------------------------------------------------------------- the command line

def cli(*args: str, path_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`obligations ARGS` from the repository (in this process: tests/inprocess.py); with
    `path_dir`, PATH is only that (empty) directory, so any attempt to run coqc fails with
    exit 3 instead of proving."""
    return inprocess.cli(*args, env=None if path_dir is None else {**os.environ, "PATH": str(path_dir)})


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write(tmp_path, RR, "good.yaml")


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    return write(tmp_path, changed(RR, lambda d: d["claim"].update(delta="3/2")), "bad.yaml")


def test_cli_check_accepts_a_good_spec(good: Path) -> None:
    done = cli("check", str(good))
    assert done.returncode == 0, done.stderr
    assert "ok (rr: 2 inputs, 2 outputs" in done.stdout


def test_cli_check_exits_2_on_a_bad_spec(good: Path, bad: Path) -> None:
    done = cli("check", str(good), str(bad))
    assert done.returncode == EXIT_USAGE == 2
    assert f"{bad}: claim.delta: delta = 3/2 is not in [0, 1]" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", ["claim: {epsilon: .inf}", "[1, 2]"])
def test_cli_check_never_shows_a_traceback(tmp_path: Path, text: str) -> None:
    done = cli("check", str(write(tmp_path, text)))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


def test_cli_prove_exits_2_before_running_coq(tmp_path: Path, good: Path, bad: Path) -> None:
    out, build, no_tools = tmp_path / "out", tmp_path / "build", tmp_path / "no-tools"
    no_tools.mkdir()
    start = time.perf_counter()
    done = cli("prove", str(good), str(bad), "--out", str(out), "--build", str(build), path_dir=no_tools)
    elapsed = time.perf_counter() - start
    assert done.returncode == 2, done.stderr   # 3 would mean it looked for coqc
    assert f"{bad}: claim.delta" in done.stderr
    assert elapsed < HANG_GUARD_S
    assert not out.exists() or not any(out.iterdir())
    assert not build.exists() or not any(build.iterdir())


def test_cli_prove_checks_rows_of_every_spec_before_running_coq(tmp_path: Path, good: Path) -> None:
    bad_row = write(tmp_path, changed(RR, lambda d: d.update(name="rr_bad") or d["table"].update(
        {"+": ["3/4", "1/5"]})), "bad_row.yaml")
    out, no_tools = tmp_path / "out", tmp_path / "no-tools"
    no_tools.mkdir()
    done = cli("prove", str(good), str(bad_row), "--out", str(out), "--build", str(tmp_path / "build"),
               path_dir=no_tools)
    assert done.returncode == 2, done.stderr
    assert not out.exists() or not any(out.iterdir())


def test_sha256_is_the_hash_of_the_file(tmp_path: Path) -> None:
    src = REPO / "mechanisms" / "randomized_response.yaml"
    copy_ = tmp_path / src.name
    shutil.copy(src, copy_)
    assert load(copy_).sha256 == hashlib.sha256(src.read_bytes()).hexdigest()
