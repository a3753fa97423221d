"""The generic alignment route in Python (no Coq): the spec's checks and errors, the shift
search (it finds the peers' alignments and none for a false claim), the mined invariant
and the rendered file."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from obligations.errors import SpecError
from obligations.models import load
from obligations.program.align import spec as S
from obligations.program.align import synth
from obligations.program.align.route import Found, NotFound, decide

REPO = Path(__file__).resolve().parent.parent.parent
CHECKDP = REPO / "mechanisms" / "checkdp"


def _spec(tmp_path: Path, text: str) -> S.AlignSpec:
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return S.check(yaml.safe_load(text), str(p), "0" * 64)


EACH = "    q: {stream: k, neighbours: {each: 1}}\n"


def _body(body: str, inputs: str = EACH, claim: str = "{for_all_k: true}") -> str:
    return ("schema_version: 1\nname: t\nprogram:\n  inputs:\n" + inputs + "  body:\n" + body +
            f"claim: {claim}\n")


SVT = ("    - sample: {var: tb, from: {geometric: {scale: 2, center: 0}}}\n"
       "    - for: {var: i, in: q, value: a}\n      do:\n"
       "        - sample: {var: an, from: {geometric: {scale: SCALE, center: a}}}\n"
       "        - if: \"an >= tb\"\n          then: [{output: 1}, stop]\n          else: [{output: 0}]\n")


def test_the_shipped_specs_go_to_the_generic_route() -> None:
    for f in sorted(CHECKDP.glob("*.yaml")):
        assert load(f).kind == "align", f


def test_family_form_keeps_its_route() -> None:
    assert load(REPO / "mechanisms" / "sparse_vector_lsl_all_k.yaml").kind == "coupling"


@pytest.mark.parametrize("kind,text", [("each", "|q_i - q'_i| <= 2"), ("one", "differ in one answer"),
                                       ("increasing", "0 <= q'_i - q_i <= 2"), ("l1", "sum_i |q_i - q'_i| <= 2")])
def test_neighbour_relations(tmp_path: Path, kind: str, text: str) -> None:
    s = _spec(tmp_path, _body(SVT.replace("SCALE", "4"), f"    q: {{stream: k, neighbours: {{{kind}: 2}}}}\n"))
    assert s.relation == S.Relation(kind, 2) and text in s.neighbours


@pytest.mark.parametrize("body,field,words", [
    ("    - assign: {var: x, value: 0}\n    - for: {var: i, in: q, value: a}\n      do:\n"
     "        - assign: {var: x, value: a // x}\n    - output: x\n", "body[1].do[0].assign.value", "not by a variable"),
    ("    - assign: {var: x, value: 0}\n    - for: {var: i, in: q, value: a}\n      do:\n"
     "        - for: {var: j, in: q, value: b}\n          do: [skip]\n", "do[0].for", "nested loops"),
    ("    - sample: {var: n, from: {geometric: {scale: 1, center: 0}}}\n    - for: {var: i, in: n}\n"
     "      do: [skip]\n", "body[1].for", "a loop runs over the stream"),
    ("    - assign: {var: q, value: 0}\n", "assign.var", "is the stream"),
])
def test_outside_the_fragment_names_the_field(tmp_path: Path, body: str, field: str, words: str) -> None:
    with pytest.raises(SpecError) as e:
        _spec(tmp_path, _body(body))
    assert field in str(e.value) and words in str(e.value)


def test_one_relation_only(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="give the neighbour relation once"):
        _spec(tmp_path, _body(SVT.replace("SCALE", "4"), "    q: {stream: k, neighbours: {each: 1, one: 1}}\n"))


def test_above_threshold_alignment(tmp_path: Path) -> None:
    """AboveThreshold (cutoff 1): the threshold moved by 1, the ⊤ answer by 1 + q - q'."""
    al = synth.search(_spec(tmp_path, _body(SVT.replace("SCALE", "4"))))
    assert isinstance(al, synth.Alignment)
    assert al.rules[0] == synth.Rule("none", synth.Term(1, 0))
    assert al.rules[1] == synth.Rule("next", synth.Term(1, 1), synth.Term(0, 0))
    assert (al.C, al.W) == (4, 4)


def test_too_little_noise_has_no_alignment(tmp_path: Path) -> None:
    """Lap(1/ε) on the answers: every alignment costs more than ε (the claim is false)."""
    al = synth.search(_spec(tmp_path, _body(SVT.replace("SCALE", "1"))))
    assert isinstance(al, synth.NoAlignment) and "no shift of the templates" in al.reason


def test_noisymax_is_aligned_by_a_prophecy_of_the_output() -> None:
    s = load(CHECKDP / "noisymax.yaml")
    al = synth.search(s)
    assert isinstance(al, synth.Alignment) and al.index is not None and al.rules[0].mode == "index"


def test_partialsum_invariant_and_rendering() -> None:
    s = load(CHECKDP / "partialsum.yaml")
    r = decide(s)
    assert isinstance(r, Found)
    assert r.alignment.rules == (synth.Rule("none", synth.Term(0, 1)),)
    text = r.rendered.text
    assert "Theorem partialsum_dp_all_k : dp_all_k partialsum_nb partialsum_prog" in text
    assert "nb_input 0 k (rel_one 1)" in text
    for word in ("Admitted", "admit", "Axiom"):
        assert word not in text
    # the sum's distance is bounded by the L1 distance read so far, in every phase
    assert all(any(a.op == "<=" and ("a0", 1) in a.lhs.terms and ("D", 1) in a.rhs.terms for a in p.atoms)
               for p in r.invariant.phases)


def test_houdini_drops_what_only_short_runs_satisfy() -> None:
    """noisymax: the two runs' best indices are not within a constant of each other before the winner."""
    s = load(CHECKDP / "noisymax.yaml")
    r = decide(s)
    assert isinstance(r, Found)
    for p in r.invariant.phases:
        for a in p.atoms:
            names = {n for n, _ in a.lhs.terms} | {n for n, _ in a.rhs.terms}
            assert not ({"l1", "r1"} <= names and a.op == "<="), a


def test_a_sparse_vector_without_counter_gets_its_cost_before_the_hit(tmp_path: Path) -> None:
    """Stop at the first hit, no counter: before the hit the cost is the threshold's alone, a
    constant below the claim (the hit's cost is paid on top of it); a bound by the claim
    would not be inductive."""
    r = decide(_spec(tmp_path, _body(SVT.replace("SCALE", "4"))))
    assert isinstance(r, Found)
    W, C = r.alignment.W, r.alignment.C
    threshold = W // 2       # the threshold's shift 1 at scale 2
    for p in r.invariant.phases:
        assert synth.Atom("<=", synth.lin(("acc", 1)), synth.lin(const=threshold)) in p.atoms, p
    assert threshold < C


def test_undecided_when_no_alignment(tmp_path: Path) -> None:
    r = decide(_spec(tmp_path, _body(SVT.replace("SCALE", "1"))))
    assert isinstance(r, NotFound)


MONOTONE = "    q: {stream: k, neighbours: {monotone: 1}}\n"


def test_monotone_joins_an_alignment_per_direction(tmp_path: Path) -> None:
    """All answers up or all down: one file, a proof per direction (each the spec's program
    under `increasing` / `decreasing`), the claim about the monotone relation from both."""
    r = decide(_spec(tmp_path, _body(SVT.replace("SCALE", "4"), MONOTONE)))
    assert isinstance(r, Found)
    text = r.rendered.text
    assert r.rendered.theorems == ("t_dp_all_k",)
    assert "Definition t_nb (k : nat) : list Z -> list Z -> Prop := nb_input 0 k (rel_either (rel_each 0 1) " \
           "(rel_each (-1) 0))." in text
    assert "Theorem t_dp_all_k : dp_all_k t_nb t_prog 4 1." in text
    for part, rel in (("up", "rel_each 0 1"), ("down", "rel_each (-1) 0")):
        assert f"Definition t_{part}_nb (k : nat) : list Z -> list Z -> Prop := nb_input 0 k ({rel})." in text
        assert f"Theorem t_{part}_dp_all_k : dp_all_k t_{part}_nb t_{part}_prog 4 1." in text
        assert f"exact (t_{part}_dp_all_k k eps He x x' H)." in text
    assert text.count("From Obligations Require Import") == 1 and "nb_input_either" in text
    assert r.down is not None and r.note.startswith("answers all up, alignment: ") and "answers all down" in r.note


def test_monotone_is_undecided_when_one_direction_has_no_alignment(tmp_path: Path) -> None:
    r = decide(_spec(tmp_path, _body(SVT.replace("SCALE", "1"), MONOTONE)))
    assert isinstance(r, NotFound) and r.reason.startswith("answers moving up: ")


def test_equations_every_phase_states_are_stated_once_and_substituted() -> None:
    """adaptivesparsevector: the aligned threshold is the left one plus 1 and the budget
    counters are equal in every phase; the invariant states that once, before its phases,
    and the step substitutes it (so the budget test reads the same term in both runs)."""
    from obligations.program.align.render import shared

    r = decide(load(CHECKDP / "adaptivesparsevector.yaml"))
    assert isinstance(r, Found) and r.invariant is not None and r.rendered is not None
    eqs = {str(a) for a in shared(r.invariant)}
    assert len(eqs) == 2
    text = r.rendered.text
    assert "((r0 = l0 + 1) /\\ (r1 = l1) /\\ (" in text
    assert text.count("destruct Hi as [He0 [He1 Hi]]. subst r0 r1.") == 2
    # under an output prophecy the invariant is a match: nothing is hoisted
    nm = decide(load(CHECKDP / "noisymax.yaml"))
    assert isinstance(nm, Found) and nm.invariant is not None and shared(nm.invariant) == ()
