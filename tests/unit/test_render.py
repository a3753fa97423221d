"""Rendered Coq text (no Coq run): the statements, comment safety, and no unproved assumptions."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.core.templates import Rendered
from obligations.core.terms import comment
from obligations.models import form_for, load

REPO = Path(__file__).resolve().parents[2]
MECHANISMS = sorted((REPO / "mechanisms").glob("*.yaml"))
CHEAPEST_FLOATING = REPO / "tests" / "specs" / "floating" / "snapping_p4_tiny.yaml"
UNPROVED = re.compile(r"\b(Admitted|admit|Axioms?|Parameters?|Hypothes[ie]s|Conjecture)\b")

HOSTILE_LABELS = [
    "*) Axiom x : False. (*",
    '" *) Axiom y : False. (* "',
    "(* nested (* deep *)",
    "*)*)*) Axiom z : False.",
    "( *) (*) *( Axiom w : False.",
    '"',
    "(",
    "*",
]


def rendered(path: Path) -> Rendered:
    from obligations.certify.run import unfold  # every spec kind: tables, formulas, programs, pipelines
    return unfold(load(path)).rendered


def rr_spec(tmp_path: Path, name: str = "rr", filename: str = "rr.yaml", **changes: Any) -> Path:
    data: dict[str, Any] = {
        "schema_version": 1, "name": name, "inputs": ["+", "-"], "outputs": ["Y", "N"],
        "table": {"+": ["3/4", "1/4"], "-": ["1/4", "3/4"]}, "neighbours": "all",
        "claim": {"epsilon": "ln(3)", "delta": "0"},
    }
    data.update(changes)
    path = tmp_path / filename
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def strip_comments(text: str) -> str:
    """Coq's lexer on comments: they nest, and a string inside a comment hides its `*)`.

    Raises if a comment is left open or closed twice, which would itself be a rendering bug.
    """
    out: list[str] = []
    depth, i, in_string = 0, 0, False
    while i < len(text):
        if in_string:
            if text.startswith('""', i):
                i += 2
                continue
            if text[i] == '"':
                in_string = False
            if depth == 0:
                out.append(text[i])
            i += 1
        elif text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*)", i):
            assert depth > 0, f"'*)' outside a comment at {i}: {text[max(0, i - 60):i + 20]!r}"
            depth, i = depth - 1, i + 2
        else:
            if text[i] == '"':
                in_string = True
            if depth == 0:
                out.append(text[i])
            i += 1
    assert depth == 0 and not in_string, "a comment or string is left open"
    return "".join(out)


def statement_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith(("Theorem ", "Lemma "))]


# ---------------------------------------------------------------- statements

def test_randomized_response_statement() -> None:
    r = rendered(REPO / "mechanisms" / "randomized_response.yaml")
    assert "Theorem randomized_response_dp : dp nb_all randomized_response (ln 3) 0." in r.text.splitlines()
    assert r.theorems == ("randomized_response_distr", "randomized_response_dp")
    assert "From Obligations Require Import Prelude." in r.text.splitlines()
    assert not r.uses_interval()


@pytest.mark.parametrize("name, statement", [
    ("truncated_geometric", "Theorem truncated_geometric_dp : dp nb_adjacent truncated_geometric (ln 2) 0."),
    ("geometric_threshold", "Theorem geometric_threshold_dp : dp nb_adjacent geometric_threshold (ln 4) 0."),
    ("randomized_response_eps1",
     "Theorem randomized_response_eps1_dp : dp nb_all randomized_response_eps1 (1) (7043 / 100000)."),
])
def test_shipped_statements(name: str, statement: str) -> None:
    assert statement in rendered(REPO / "mechanisms" / f"{name}.yaml").text.splitlines()


def test_refutation_statement(tmp_path: Path) -> None:
    r = rendered(rr_spec(tmp_path, claim={"epsilon": "ln(2)", "delta": "0"}))
    assert "Theorem rr_not_dp : ~ dp nb_all rr (ln 2) 0." in r.text.splitlines()
    assert r.theorems == ("rr_distr", "rr_not_dp")


def test_irrational_epsilon_uses_the_interval_prelude(tmp_path: Path) -> None:
    r = rendered(rr_spec(tmp_path, claim={"epsilon": "ln(2)/3", "delta": "0.5"}))
    assert r.uses_interval()
    assert "From Obligations Require Import PreludeInterval." in r.text.splitlines()
    assert "interval with (i_prec" in r.text


def test_rational_epsilon_is_bounded_by_the_taylor_series(tmp_path: Path) -> None:
    """e^1 is irrational but 1 is not: Coq's Taylor bounds need no interval and no primitive floats."""
    r = rendered(rr_spec(tmp_path, claim={"epsilon": "1", "delta": "0.0705"}))
    assert not r.uses_interval()
    assert "From Obligations Require Import Prelude." in r.text.splitlines()
    assert "Proof. exp_taylor_lower (1 # 1) 1%nat 9%nat. Qed." in r.text.splitlines()
    assert "Theorem rr_dp : dp nb_all rr (1) (141 / 2000)." in r.text.splitlines()


def test_explicit_pairs_are_rendered_as_indices(tmp_path: Path) -> None:
    r = rendered(rr_spec(tmp_path, neighbours={"pairs": [["-", "+"]]}))
    assert "Theorem rr_dp : dp (nb_list [(1%nat, 0%nat)]) rr (ln 3) 0." in r.text.splitlines()


def test_rendering_is_deterministic() -> None:
    """`verify` re-renders and compares hashes, so the same spec must give the same text: twice
    in one process here, one spec of each kind; across processes and for every shipped spec,
    tests/coq/test_committed_certificates.py (each committed .v is the render of today)."""
    by_size = sorted(MECHANISMS, key=lambda p: p.stat().st_size, reverse=True)
    # the shortest spec of each kind (the kind from the form that reads it: checking every
    # shipped spec only to learn its kind cost ~2 s of CPU)
    one_per_kind = {form_for(yaml.safe_load(p.read_text())).kind: p for p in by_size}
    assert len(one_per_kind) >= 10
    # the floating kind's cheapest render (the shortest shipped one, p = 8, took 1.9 s of CPU
    # per render; this one 0.04 s): the same renderer, a smaller table
    assert load(CHEAPEST_FLOATING).kind == "floating"
    one_per_kind["floating"] = CHEAPEST_FLOATING
    for path in one_per_kind.values():
        assert rendered(path).text == rendered(path).text


# ---------------------------------------------------------------- no unproved assumptions

def _without_section_hypotheses(text: str) -> str:
    """A pipeline file states its parameters' signs as `Hypothesis` inside a Section; Coq
    discharges them at `End` (every theorem then assumes them).  Outside a section a
    Hypothesis would be an axiom, so only the ones inside a closed section are dropped."""
    m = re.search(r"^Section (\w+)\.$(.*?)^End \1\.$", text, re.M | re.S)
    if m is None:
        return text
    inner = re.sub(r"^Hypothesis \w+ : [^\n]*\.$", "", m.group(2), flags=re.M)
    return text[:m.start(2)] + inner + text[m.end(2):]


# Every spec's render is committed: the test specs' in tests/golden/expected/ (the golden
# tests keep each equal to today's render) or as their certificates' files in
# tests/certificates/, the shipped specs' as their certificates' files (for both,
# tests/coq/test_committed_certificates.py does), so the check reads those files instead of
# rendering again (every shipped spec has one: test_committed_certificates.py).
RENDERS = [*sorted((REPO / "tests" / "golden" / "expected").rglob("*.v")),
           *sorted((REPO / "tests" / "certificates").rglob("*.v")), *sorted((REPO / "certificates").rglob("*.v"))]


@pytest.mark.parametrize("path", RENDERS, ids=[p.stem for p in RENDERS])
def test_rendered_files_have_no_unproved_assumptions(path: Path) -> None:
    text = _without_section_hypotheses(path.read_text())
    assert not UNPROVED.search(text), UNPROVED.search(text)
    strip_comments(text)  # balanced comments


@pytest.mark.parametrize("claim", [
    {"epsilon": "ln(2)", "delta": "0"},          # exact refutation
    {"epsilon": "1", "delta": "0"},              # interval refutation
    {"epsilon": "1", "delta": "0.0705"},         # interval proof, hockey stick
    {"epsilon": "0", "delta": "1/2"},            # exact proof, hockey stick
])
def test_other_verdicts_have_no_unproved_assumptions(tmp_path: Path, claim: dict[str, str]) -> None:
    text = rendered(rr_spec(tmp_path, claim=claim)).text
    assert not UNPROVED.search(text), UNPROVED.search(text)
    assert text.count("Proof.") == text.count("Qed.") >= 3


# ---------------------------------------------------------------- comment safety

@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_hostile_output_label_stays_in_its_comment(tmp_path: Path, label: str) -> None:
    text = rendered(rr_spec(tmp_path, outputs=[label, "N"])).text
    code = strip_comments(text)
    assert "Axiom" not in code
    assert not UNPROVED.search(code)
    assert comment(label) in text  # still shown to the reader, defused


def test_hostile_text_everywhere_stays_in_comments(tmp_path: Path) -> None:
    evil = "*) Axiom e : False. (*"
    labels = HOSTILE_LABELS
    spec = rr_spec(
        tmp_path,
        filename=f'spec {evil} ".yaml',
        description=f'{evil} "quoted" \n second line {evil}',
        inputs=labels[:2],
        outputs=labels[2:4],
        table={labels[0]: ["3/4", "1/4"], labels[1]: ["1/4", "3/4"]},
        claim={"epsilon": f"ln(3) # {evil}", "delta": "0"},   # a Python comment in the expression
    )
    text = rendered(spec).text
    assert text.count("Axiom") >= 5  # every hostile piece is there, inside comments
    code = strip_comments(text)
    assert "Axiom" not in code and not UNPROVED.search(code)
    assert "Theorem rr_dp : dp nb_all rr (ln 3) 0." in code.splitlines()


def test_many_hostile_labels_beyond_the_first_twenty(tmp_path: Path) -> None:
    labels = [f"*) Axiom a{i} : False. (*" for i in range(30)]
    spec = rr_spec(tmp_path, outputs=labels, table={"+": ["1/30"] * 30, "-": ["1/30"] * 30})
    code = strip_comments(rendered(spec).text)
    assert "Axiom" not in code


@pytest.mark.parametrize("text", ["*)", "(*", '"', "(*)", "*)(*", "((**))", '"*)"', "a\n*)\tb"])
def test_comment_function_defuses(text: str) -> None:
    safe = comment(text)
    assert "*)" not in safe and "(*" not in safe and '"' not in safe and "\n" not in safe
    assert strip_comments(f"(* {safe} *)") == ""
