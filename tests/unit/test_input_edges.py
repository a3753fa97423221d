"""Hostile inputs at the edges of the command line: each is refused with exit 2 naming the
file (and the field), or handled quietly; run through the CLI's entry point (in a process of
its own where a pipe is the point)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from inprocess import cli

from obligations.core.names import RESERVED, coq_name_problem, spec_name_problem
from obligations.core.terms import comment

REPO = Path(__file__).resolve().parents[2]

RR: dict[str, Any] = {
    "schema_version": 1,
    "name": "rr",
    "description": "randomized response",
    "inputs": ["+", "-"],
    "outputs": ["Y", "N"],
    "table": {"+": ["3/4", "1/4"], "-": ["1/4", "3/4"]},
    "neighbours": "all",
    "claim": {"epsilon": "ln(3)", "delta": "0"},
}


def cli_process(*args: str, stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """`obligations ARGS` in its own process: for what only a process has (its stdout's pipe)."""
    return subprocess.run([sys.executable, "-m", "obligations", *args], cwd=REPO, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


def write(tmp_path: Path, data: Any, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False),
                    encoding="utf-8")
    return path


def assert_refused(run: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit 2, one line naming what is wrong, and no traceback."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr, run.stderr
    for f in fragments:
        assert f in run.stderr, (f, run.stderr)


# ---------------------------------------------------------------- a. deep nesting


@pytest.mark.parametrize("text", [
    "[" * 1000 + "]" * 1000 + "\n",
    "name: " + "{a: " * 1000 + "1" + "}" * 1000 + "\n",
    "".join("  " * k + "- \n" for k in range(1000)),
], ids=["flow-lists", "flow-mappings", "block-lists"])
def test_deeply_nested_yaml_is_a_spec_error(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    for command in ("check", "show", "prove"):
        extra = ("--out", str(tmp_path / "out"), "--build", str(tmp_path / "b")) if command == "prove" else ()
        run = cli(command, str(path), *extra)
        assert_refused(run, f"{path}: ")
        assert "RecursionError" not in run.stderr and "nested" in run.stderr
    assert not (tmp_path / "b").exists()


# ---------------------------------------------------------------- b. trailing newlines in names


@pytest.mark.parametrize("name", ["rr_nl\n", "rr\n\n", "\nrr", "rr\r", "rr\t"])
def test_name_with_a_newline_is_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, {**RR, "name": name})
    run = cli("prove", str(path), "--out", str(tmp_path / "out"), "--build", str(tmp_path / "b"))
    assert_refused(run, f"{path}: name: ", "must start with a letter")
    assert not (tmp_path / "b").exists()  # build/rr_nl\n/ is never made


def test_identifier_checks_are_full_matches() -> None:
    assert coq_name_problem("rr") is None
    assert coq_name_problem("rr\n") is not None


def test_program_variable_with_a_newline_is_refused(tmp_path: Path) -> None:
    spec = (REPO / "mechanisms" / "online_model.yaml").read_text()
    data = yaml.safe_load(spec)
    data["parameters"] = {"k\n" if key == "k" else key: v for key, v in data["parameters"].items()}
    run = cli("check", str(write(tmp_path, data)))
    assert_refused(run, "parameters")


# ---------------------------------------------------------------- c. reserved spec names


@pytest.mark.parametrize("name", ["Q2R", "PrimInt63", "exp", "dp", "tabulate_z", "check_pointwise",
                                  "ln", "Prelude", "Uint63", "PrimFloat", "FloatAxioms", "SpecFloat",
                                  "Mechanism", "Snapping", "fmech_power", "lra", "snap_prob"])
def test_reserved_spec_names_are_refused(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, {**RR, "name": name})
    run = cli("prove", str(path), "--out", str(tmp_path / "out"), "--build", str(tmp_path / "b"))
    assert_refused(run, f"{path}: name: ", repr(name))
    assert not (tmp_path / "b").exists() and not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["Rr", "MyMechanism", "Zz_top"])
def test_spec_names_start_with_a_lowercase_letter(tmp_path: Path, name: str) -> None:
    run = cli("check", str(write(tmp_path, {**RR, "name": name})))
    assert_refused(run, "name: ", "lowercase")


@pytest.mark.parametrize("form", ["program", "pipeline"])
def test_reserved_names_are_refused_in_every_form(tmp_path: Path, form: str) -> None:
    source = {"program": "online_model.yaml", "pipeline": "snapping_clamped.yaml"}[form]
    data = yaml.safe_load((REPO / "mechanisms" / source).read_text())
    assert cli("check", str(write(tmp_path, data, "ok.yaml"))).returncode == 0
    for name in ("Q2R", "tabulate_z", "PreludeSnap"):
        run = cli("check", str(write(tmp_path, {**data, "name": name})))
        assert_refused(run, "name: ", repr(name))


def test_reserved_set_is_scanned_from_templates_and_theories() -> None:
    declared = {"check_pointwise", "not_dp_of_witness_at", "exp_exact", "nb_list"}  # theories/*.v
    literal = {"tabulate_z", "vm_cast_no_check", "andb_prop", "lra"}                # templates/*.j2
    modules = {"Mechanism", "Snapping", "PreludeInterval", "Checker"}                # theories/ file names
    assert declared | literal | modules <= RESERVED
    assert "randomized_response" not in RESERVED and "comment" not in RESERVED  # comments are not code
    assert spec_name_problem("randomized_response") is None


def test_shipped_specs_keep_their_names() -> None:
    """The test specs load under their names (a reserved or malformed name would be refused,
    exit 2); mechanisms/: tests/unit/test_check.py runs `check` on them all."""
    from obligations.certify.run import load_specs
    specs = sorted((REPO / "tests" / "specs").rglob("*.yaml"))
    loaded = load_specs(specs)       # what `check` does before any analysis
    assert len(loaded) >= len(specs) and all(spec_name_problem(s.name) is None for s in loaded)


# ---------------------------------------------------------------- d. control characters in free text


HOSTILE = ["\x00", "\x1b[2J", "\x07", "\x7f", "\u202e", "\u2066", "\u2069", "\u202a"]


@pytest.mark.parametrize("char", HOSTILE, ids=[f"U+{ord(c[0]):04X}" for c in HOSTILE])
def test_control_characters_in_the_description_are_refused(tmp_path: Path, char: str) -> None:
    path = write(tmp_path, {**RR, "description": f"safe {char} text"})
    run = cli("check", str(path))
    assert_refused(run, f"{path}: description: ", f"U+{ord(char[0]):04X}")


@pytest.mark.parametrize("char", HOSTILE, ids=[f"U+{ord(c[0]):04X}" for c in HOSTILE])
def test_control_characters_in_labels_are_refused(tmp_path: Path, char: str) -> None:
    label = f"Y{char}"
    data = {**RR, "outputs": [label, "N"]}
    run = cli("check", str(write(tmp_path, data)))
    assert_refused(run, "outputs[0]: ")


@pytest.mark.parametrize("form", ["program", "pipeline"])
def test_control_characters_in_descriptions_of_every_form(tmp_path: Path, form: str) -> None:
    source = {"program": "online_model.yaml", "pipeline": "snapping_clamped.yaml"}[form]
    data = yaml.safe_load((REPO / "mechanisms" / source).read_text())
    run = cli("check", str(write(tmp_path, {**data, "description": "a\u202eb"})))
    assert_refused(run, "description: ", "U+202E")


def test_multiline_descriptions_still_load(tmp_path: Path) -> None:
    run = cli("check", str(write(tmp_path, {**RR, "description": "line one\nline two\twith a tab\r\n"})))
    assert run.returncode == 0, run.stderr


def test_comment_escapes_control_characters_and_bidi_overrides() -> None:
    text = comment("a\x00b\x1b[31mc\u202ed\u2066e\u2069f (* g *) \"h\" \x85i")
    assert not any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c in "\u202a\u202b\u202c\u202d\u202e"
                   "\u2066\u2067\u2068\u2069" for c in text), repr(text)
    assert "\\u{0}" in text and "\\u{1B}" in text and "\\u{202E}" in text and "\\u{2069}" in text
    assert "(*" not in text and "*)" not in text and '"' not in text


def test_rendered_file_has_no_control_characters(tmp_path: Path) -> None:
    """`show --coq` of a spec whose path carries an ESC: the .v text is clean anyway."""
    path = write(tmp_path, RR, "rr\x1b[2J\u202e.yaml")
    run = cli("show", str(path), "--coq", "--json")
    assert run.returncode == 0, run.stderr
    import json
    coq = json.loads(run.stdout)[0]["coq"]
    assert "\x1b" not in coq and "\u202e" not in coq and "\\u{1B}" in coq


# ---------------------------------------------------------------- e. nothing to prove


@pytest.mark.parametrize("command", ["prove", "check", "show"])
def test_empty_or_missing_paths_are_usage_errors(tmp_path: Path, command: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    dir_named_yaml = tmp_path / "x.yaml"
    (dir_named_yaml / "sub.yaml").mkdir(parents=True)  # a directory, not a spec, inside too
    missing = tmp_path / "missing.yaml"
    for path, fragment in ((empty, f"no *.yaml spec files in {empty}"),
                           (dir_named_yaml, f"no *.yaml spec files in {dir_named_yaml}"),
                           (missing, f"{missing}: no such file or directory")):
        extra = ("--out", str(tmp_path / "out"), "--build", str(tmp_path / "b")) if command == "prove" else ()
        run = cli(command, str(path), *extra)
        assert_refused(run, fragment)
    assert not (tmp_path / "b").exists()


def test_one_empty_directory_among_good_specs_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run = cli("check", "mechanisms/randomized_response.yaml", str(tmp_path / "empty"))
    assert_refused(run, "no *.yaml spec files")
    assert "ok" not in run.stdout


# ---------------------------------------------------------------- f. broken pipes


@pytest.mark.parametrize("args", [("schema",),
                                  ("check", "mechanisms/randomized_response.yaml", "mechanisms/krr_eps1.yaml"),
                                  ("show", "mechanisms/randomized_response.yaml", "--coq"),
                                  ("show", "mechanisms/randomized_response.yaml", "--json")])
def test_closed_stdout_exits_quietly(args: tuple[str, ...]) -> None:
    """`obligations schema | head -1`: a reader that has gone is no traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: every write is EPIPE
    try:
        run = cli_process(*args, stdout=write_end)
    finally:
        os.close(write_end)
    assert "Traceback" not in run.stderr and "BrokenPipe" not in run.stderr, run.stderr
    assert run.stderr == ""
    assert run.returncode == 141  # as a shell reports a command stopped by SIGPIPE


def test_schema_through_head_in_a_shell() -> None:
    run = subprocess.run(f"'{sys.executable}' -m obligations schema | head -1", shell=True, cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout == "{\n" and run.stderr == ""
