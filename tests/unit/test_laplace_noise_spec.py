"""The noise of an all-k program (no Coq): `laplace:` at a sampling site chooses continuous
Laplace noise for the whole program, `geometric:` the discrete one; bad input names its field;
the claim's record says the continuous noise (the discrete records stay as certified); and
nothing is claimed under continuous noise that Coq did not check over the reals: an alignment
found for the discrete form, or a counterexample for it, leaves the claim undecided."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from unittest import mock

import pytest
import yaml

from obligations.core.model import HintError
from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.models import adopted, load, unfold
from obligations.program.align import spec as S
from obligations.program.align import synth
from obligations.program.align.noisy import whole_slots
from obligations.program.align.route import BY_GENERIC_ALIGNMENT
from obligations.program.refute.route import BY_COUNTEREXAMPLE

REPO = Path(__file__).resolve().parent.parent.parent
CHECKDP = REPO / "mechanisms" / "checkdp"


def _spec(tmp_path: Path, text: str) -> S.AlignSpec:
    p = tmp_path / "s.yaml"
    p.write_text(text)
    return S.check(yaml.safe_load(text), str(p), hashlib.sha256(text.encode()).hexdigest())


def _continuous(name: str) -> str:
    """A shipped CheckDP program with every `geometric:` site made `laplace:`, no fallback."""
    text = (CHECKDP / f"{name}.yaml").read_text().replace("geometric:", "laplace:")
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("fallback:"))


def test_laplace_sites_make_a_continuous_program(tmp_path: Path) -> None:
    s = _spec(tmp_path, _continuous("sparsevector"))
    assert s.noise == "laplace" and s.continuous
    assert s.claim.record()["noise"] == "laplace"
    assert "under laplace noise" in s.claim.text()


def test_geometric_sites_keep_the_certified_record() -> None:
    s = load(CHECKDP / "sparsevector.yaml")
    assert isinstance(s, S.AlignSpec) and s.noise == "discrete_laplace" and not s.continuous
    assert "noise" not in s.claim.record()


@pytest.mark.parametrize("old,new,field,words", [
    ("{laplace: {scale: 2, center: T}}", "{geometric: {scale: 2, center: T}}",
     "program.body[2].do[0].sample.from.laplace", "mixes noises"),
    ("{laplace: {scale: 2, center: T}}", "{laplace: {scale: -2, center: T}}",
     "program.body[0].sample.from.laplace.scale", "must be positive"),
    ("{laplace: {scale: 2, center: T}}", "{laplace: {scale: 2, center: T}, geometric: {scale: 2, center: T}}",
     "program.body[0].sample.from", "give one distribution"),
    ("{laplace: {scale: 2, center: T}}", "{}", "program.body[0].sample.from", "give one distribution"),
    ("claim:", "fallback: sparsevector.yaml\nclaim:", "fallback", "geometric noise"),
])
def test_bad_noise_names_the_field(tmp_path: Path, old: str, new: str, field: str, words: str) -> None:
    text = _continuous("sparsevector")
    assert old in text
    (tmp_path / "sparsevector.yaml").write_text("")
    with pytest.raises(SpecError) as e:
        _spec(tmp_path, text.replace(old, new, 1))
    assert field in str(e.value) and words in str(e.value)


def test_an_alignment_of_the_discrete_form_is_rendered_over_the_reals(tmp_path: Path) -> None:
    """The discrete form's alignment and invariant are a hint: the file states the claim for
    every stream length under continuous noise (`rdp_all_k`), which Coq checks."""
    s = _spec(tmp_path, _continuous("sparsevector"))
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.PROVED
    assert "over the reals for every stream length" in a.plan.notes[0]
    text = BY_GENERIC_ALIGNMENT.render(s, a).text
    assert "Theorem sparsevector_dp_all_k : rdp_all_k sparsevector_nb sparsevector_prog 5 1%R." in text
    assert "PreludeLaplaceAll" in text and "(l0 : R) (l1 : Z)" in text   # the noisy threshold real, the count whole


def test_a_shift_reading_the_released_index_is_rendered_over_the_reals() -> None:
    """noisymax: the winner's shift reads the output prophecy; its phases take the released value
    as a whole number w (the released slot best is whole, the noisy maximum bq real)."""
    s = load(CHECKDP / "noisymax_laplace.yaml")
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.PROVED and "the index is the released value" in a.plan.notes[0]
    text = BY_GENERIC_ALIGNMENT.render(s, a).text
    assert "| 0%nat => if released_at o 0 (raeval (renv L) (AVar 2)) then rfloor" in text
    assert "forall w : Z, nth_error o 0 = Some (ROVal (IZR w)) -> noisymax_laplace_phases w" in text
    assert "(l0 : R) (l1 : Z)" in text and "apply zshift_mfibers_released." in text
    assert "Theorem noisymax_laplace_dp_all_k : rdp_all_k noisymax_laplace_nb noisymax_laplace_prog 5 1%R." in text


def test_verify_renders_the_continuous_file_from_the_recorded_hint() -> None:
    """The certificate of a claim for every stream length records the alignment and invariant
    (noisymax: the shift reading the released index), and `verify` renders the same file from
    them without searching or mining again; Coq checks that file as before."""
    s = load(CHECKDP / "noisymax_laplace.yaml")
    u = unfold(s)
    recorded = json.loads(json.dumps(u.hint()))   # as the certificate's JSON holds it
    assert recorded is not None and recorded["what"].startswith("the alignment")
    with mock.patch.object(synth, "search", side_effect=AssertionError("verify searched")), \
            mock.patch.object(synth, "mine", side_effect=AssertionError("verify mined")), adopted(s, recorded):
        again = unfold(s)
    assert again.rendered.text == u.rendered.text and again.plan.expected == Verdict.PROVED


def test_a_continuous_claim_at_one_length_takes_no_hint() -> None:
    """At one stream length the loop unrolls: no invariant, nothing recorded, none adopted."""
    s = load(REPO / "mechanisms" / "above_threshold_laplace_k1.yaml")
    assert unfold(s).hint() is None
    with pytest.raises(HintError):
        BY_GENERIC_ALIGNMENT.adopt(s, {"what": "", "parts": []})


def test_the_monotone_relation_is_undecided_under_continuous_noise(tmp_path: Path) -> None:
    s = _spec(tmp_path, _continuous("sparsevector").replace("neighbours: {each: 1}", "neighbours: {monotone: 1}"))
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.UNDECIDED and "does not join two alignments" in a.plan.notes[0]
    assert "Theorem" not in BY_GENERIC_ALIGNMENT.render(s, a).text


def test_a_counterexample_of_the_discrete_form_refutes_nothing_continuous(tmp_path: Path) -> None:
    s = _spec(tmp_path, _continuous("badpartialsum"))   # badsparsevector1 is refuted over the reals
    assert BY_COUNTEREXAMPLE.applies(s)
    a = BY_COUNTEREXAMPLE.analyse(s)
    assert a is not None and a.plan.expected == Verdict.UNDECIDED
    assert any("counterexample for the discrete form" in n for n in a.plan.notes)
    assert "Theorem" not in BY_COUNTEREXAMPLE.render(s, a).text


@pytest.mark.parametrize("name", ["sparsevector", "noisymax", "svt_increasing", "svt_decreasing", "gapsparsevector",
                                  "numsparsevector", "adaptivesparsevector", "partialsum", "smartsum", "prefixsum"])
def test_the_benchmark_programs_are_accepted_with_continuous_noise(tmp_path: Path, name: str) -> None:
    assert _spec(tmp_path, _continuous(name)).continuous   # smartsum's `(i + 1) % M` rounds no noise


LOOP = ("    - assign: {var: s, value: 0}\n    - for: {var: i, in: q, value: a}\n      do:\n"
        "        - sample: {var: n, from: {laplace: {scale: 1, center: a}}}\n"
        "BODY"
        "    - output: s\n")


@pytest.mark.parametrize("body,field,noisy", [
    ("        - assign: {var: s, value: n // 2}\n", "body[1].do[1].assign.value", "n"),
    ("        - assign: {var: t, value: s % 3}\n        - assign: {var: s, value: s + n}\n",
     "body[1].do[1].assign.value", "s"),                                   # noisy from the previous iteration
    ("        - if: \"n >= 0\"\n          then: [{assign: {var: s, value: 1}}]\n"
     "        - output: s // 2\n", "body[1].do[2].output", "s"),            # set under a noisy condition
    ("        - if: \"n // 2 >= a\"\n          then: [stop]\n", "body[1].do[1].if", "n"),
])
def test_rounding_noise_is_refused(tmp_path: Path, body: str, field: str, noisy: str) -> None:
    head = "schema_version: 1\nname: t\nprogram:\n  inputs:\n    q: {stream: k, neighbours: {each: 1}}\n  body:\n"
    text = head + LOOP.replace("BODY", body) + "claim: {for_all_k: true}\n"
    with pytest.raises(SpecError) as e:
        _spec(tmp_path, text)
    assert field in str(e.value) and f"continuous noise ({noisy})" in str(e.value)
    _spec(tmp_path, text.replace("laplace:", "geometric:"))   # the discrete program rounds integers: fine


def test_the_shipped_continuous_spec_is_proved_and_a_mixed_one_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from obligations.cli import main
    shipped = CHECKDP / "sparsevector_laplace.yaml"
    s = load(shipped)
    assert isinstance(s, S.AlignSpec) and s.continuous
    assert BY_GENERIC_ALIGNMENT.analyse(s).plan.expected == Verdict.PROVED
    text = shipped.read_text().replace("{laplace: {scale: 2,", "{geometric: {scale: 2,")
    (tmp_path / "mixed.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "mixed.yaml"]) == 2


# ---------------------------------------------------------------- one stream length

AT1 = REPO / "mechanisms" / "above_threshold_laplace_k1.yaml"


def test_a_claim_at_one_length_is_rendered_over_the_reals() -> None:
    s = load(AT1)
    assert isinstance(s, S.AlignSpec) and s.continuous and s.length == 1
    assert s.claim.record()["stream_length"] == 1 and s.claim.record()["noise"] == "laplace"
    assert "under laplace noise" in s.claim.text()
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.PROVED and "stream length 1" in a.plan.notes[0]
    r = BY_GENERIC_ALIGNMENT.render(s, a)
    assert r.theorems == ("above_threshold_laplace_k1_dp",) and r.uses_analysis() and not r.uses_interval()
    assert "From Obligations Require Import PreludeLaplace." in r.text
    assert ("Theorem above_threshold_laplace_k1_dp : rdp_prog above_threshold_laplace_k1_nb "
            "(above_threshold_laplace_k1_prog 1) 4 1%R.") in r.text
    assert not BY_COUNTEREXAMPLE.applies(s)


def test_a_claim_below_the_alignments_cost_is_not_claimed(tmp_path: Path) -> None:
    """eps/8: the answer's shift by 1 costs eps/4, so no alignment is found and nothing goes to Coq."""
    text = AT1.read_text().replace("claim: {stream_length: 1}", "claim: {stream_length: 1, epsilon_factor: 1/8}")
    s = _spec(tmp_path, text)
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.UNDECIDED and "Theorem" not in BY_GENERIC_ALIGNMENT.render(s, a).text
    assert "at stream length 1: no alignment found" in a.plan.notes[0]


def test_a_relation_the_fixed_length_proof_does_not_read_is_undecided(tmp_path: Path) -> None:
    text = AT1.read_text().replace("neighbours: {each: 1}", "neighbours: {one: 1}")
    s = _spec(tmp_path, text)
    a = BY_GENERIC_ALIGNMENT.analyse(s)
    assert a.plan.expected == Verdict.UNDECIDED and "neighbours `one`" in a.plan.notes[0]


@pytest.mark.parametrize("claim,field,words", [
    ("claim: {stream_length: 0}", "claim.stream_length", "at least 1"),
    (f"claim: {{stream_length: {S.MAX_STREAM_LENGTH + 1}}}", "claim.stream_length", "for now"),
    ("claim: {stream_length: 1, for_all_k: true}", "claim", "give one of"),
    ("claim: {stream_length: 1.5}", "claim.stream_length", ""),
])
def test_bad_stream_length_names_the_field(tmp_path: Path, claim: str, field: str, words: str) -> None:
    text = AT1.read_text().replace("claim: {stream_length: 1}", claim)
    with pytest.raises(SpecError) as e:
        _spec(tmp_path, text)
    assert field in str(e.value) and words in str(e.value)


def test_one_length_with_geometric_noise_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as e:
        _spec(tmp_path, AT1.read_text().replace("laplace:", "geometric:"))
    assert "claim.stream_length" in str(e.value) and "for_all_k" in str(e.value)


def test_whole_number_slots_are_the_counters_and_the_answers_read(tmp_path: Path) -> None:
    """Over the reals the invariant states these slots as `IZR` of integers: never sampled,
    assigned whole numbers only (a counter raised under a noisy test is still one)."""
    s = _spec(tmp_path, _continuous("sparsevector"))
    assert {s.slot_names[i] for i in whole_slots(s.body, s.nvars)} == {"count", "i", "qi"}
    p = _spec(tmp_path, _continuous("prefixsum"))
    assert {p.slot_names[i] for i in whole_slots(p.body, p.nvars)} == {"i", "qi"}   # next holds noise
