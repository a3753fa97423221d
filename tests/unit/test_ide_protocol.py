"""The IDE protocol layer without Coq: encoding calls, decoding answers recorded from
coqidetop.opt 8.16.1 (tests/data/ide/, re-recorded by tests/coq/test_session.py), and
splitting vernacular into sentences."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from obligations.prover.ide import protocol
from obligations.prover.ide.protocol import (
    Answer,
    Decoder,
    Feedback,
    Goal,
    Goals,
    Location,
    Message,
    ProtocolError,
    Status,
    Tagged,
)
from obligations.prover.ide.session import split_sentences

DATA = Path(__file__).resolve().parents[1] / "data" / "ide"


def recorded(name: str) -> tuple[list[Answer], list[Message]]:
    items = protocol.decode_all((DATA / f"{name}.xml").read_bytes())
    return ([i for i in items if isinstance(i, Answer)],
            [i.message for i in items if isinstance(i, Feedback) and i.message is not None])


# -- encoding

def test_simple_calls() -> None:
    assert protocol.init() == '<call val="Init"><option val="none" /></call>'
    assert protocol.goal() == '<call val="Goal"><unit /></call>'
    assert protocol.status() == '<call val="Status"><bool val="false" /></call>'
    assert protocol.status(force=True) == '<call val="Status"><bool val="true" /></call>'
    assert protocol.edit_at(12) == '<call val="Edit_at"><state_id val="12" /></call>'
    assert protocol.quit() == '<call val="Quit"><unit /></call>'


def test_add_nests_its_arguments_and_escapes_the_sentence() -> None:
    xml = protocol.add('Check (fun x => x < 1 /\\ "a&b" = "α").', 7)
    call = ET.fromstring(xml)
    assert call.get("val") == "Add"
    head = call[0][0][0]
    assert head[0][0].text == 'Check (fun x => x < 1 /\\ "a&b" = "α").'
    assert head[0][1].text == "0"                                  # edit id
    assert head[1][0].attrib == {"val": "7"} and head[1][1].get("val") == "false"
    assert call[0][0][1].text == "0"                               # bp: locations are in the sentence
    assert [e.text for e in call[0][1]] == ["1", "0"]
    assert "&amp;b" in xml and "&lt; 1" in xml


def test_every_fixture_is_a_recorded_call_with_its_answer() -> None:
    files = sorted(DATA.glob("*.xml"))
    assert len(files) >= 15
    for f in files:
        head = f.read_text(encoding="utf-8").splitlines()[0]
        assert head.startswith("<!-- <call val="), f.name
        answers, _ = recorded(f.stem)
        assert len(answers) == head.count("<call "), f.name


# -- decoding recorded answers

def test_init_answers_the_first_state() -> None:
    assert recorded("init")[0] == [Answer(True, 1)]


def test_add_and_status_with_a_notice() -> None:
    (added, status), messages = recorded("check_notice")
    assert protocol.added_state(added) == 4 and added.value == (4, Tagged("in_l", None))
    assert status.value == Status(("Top",), None, (), 0)
    assert messages == [Message("notice", "nat\n     : Set")]       # &nbsp; is a space


def test_parse_error_reports_bytes_and_no_state() -> None:
    (added, status), messages = recorded("parse_error_utf8")
    assert not added.ok and added.state == 0 and status.ok and messages == []
    assert added.error == "Syntax error: [term] expected after '+' (in [term])."
    assert added.location == Location(22, 23)                     # bytes: α is two of them
    sentence = "Definition α := (1 + )."
    start, stop = added.location.chars(sentence)
    assert sentence[start:stop] == ")"


def test_execution_error_comes_with_status_and_names_the_good_state() -> None:
    (added, status), messages = recorded("type_error")
    assert added.ok and protocol.added_state(added) == 6
    assert not status.ok and status.state == 5 and status.location == Location(12, 16)
    assert status.error == 'The term "true" has type "bool" while it is expected to have type "R".'
    assert [m.level for m in messages] == ["error"] and messages[0].text == status.error
    assert messages[0].location == Location(12, 16)


def test_tactic_failure() -> None:
    (_, status), messages = recorded("tactic_failure")
    assert not status.ok and status.state == 12
    assert status.error.startswith("Tactic failure:  The relation Rlt is not a declared reflexive relation.")
    assert messages[0].level == "error"


def test_warnings_are_kept_for_the_caller() -> None:
    (added, status), messages = recorded("hint_warnings")
    assert added.ok and status.ok
    assert [m.level for m in messages] == ["warning", "warning"]
    assert "[implicit-core-hint-db,deprecated]" in messages[0].text
    assert '"local" in a section and\n"global"' in messages[1].text


def test_edit_at_and_quit() -> None:
    assert recorded("edit_at")[0] == [Answer(True, Tagged("in_l", None))]
    assert recorded("quit")[0] == [Answer(True, None)]


def test_status_names_the_open_proof() -> None:
    (status,), _ = recorded("status_in_proof")
    assert status.value == Status(("Top",), "l", ("l",), 0)
    (_, after_lemma), _ = recorded("lemma")
    assert after_lemma.value == Status(("Top",), "l", ("l",), 0)


def test_goals_outside_a_proof_and_when_done() -> None:
    assert recorded("goal_outside_proof")[0] == [Answer(True, None)]
    (done,), _ = recorded("goal_no_more")
    assert done.value == Goals((), (), (), ())
    assert done.value.pretty() == "No more goals."


def test_goal_with_hypotheses_as_plain_text() -> None:
    (answer,), _ = recorded("goal_hypotheses")
    goals = answer.value
    assert isinstance(goals, Goals) and len(goals.foreground) == 1 and not goals.background
    g = goals.foreground[0]
    assert g == Goal(("x, y : R", "H : x < y"), "x + 1 < y + 1 /\\ x <= y", "4", None)
    assert goals.pretty() == "x, y : R\nH : x < y\n============================\nx + 1 < y + 1 /\\ x <= y"


def test_focused_goal_and_the_unfocused_one() -> None:
    (answer,), _ = recorded("goal_focused")
    goals = answer.value
    assert isinstance(goals, Goals)
    assert [g.conclusion for g in goals.foreground] == ["x + 1 < y + 1"]
    assert [g.conclusion for g in goals.background] == ["x <= y"]
    assert goals.pretty() == "x, y : R\nH : x < y\n============================\nx + 1 < y + 1"


def test_stray_ampersands_from_coq_do_not_break_parsing() -> None:
    # idtac "a&#b &c &#38; &#0;": Coq copies "&#" unescaped.  A valid reference (&#38;)
    # cannot be told from one Coq meant, so it reads as "&"; the others stay literal.
    (added, status), messages = recorded("stray_ampersand")
    assert added.ok and status.ok
    assert messages == [Message("info", "a&#b &c & &#0;")]


def test_qed_closes_the_proof() -> None:
    (added, status), _ = recorded("qed")
    assert protocol.added_state(added) == 17 and status.value == Status(("Top",), None, (), 0)


# -- the stream

@pytest.mark.parametrize("name", ["type_error", "hint_warnings", "goal_focused", "stray_ampersand"])
def test_decoding_byte_by_byte_gives_the_same(name: str) -> None:
    data = (DATA / f"{name}.xml").read_bytes()
    decoder = Decoder()
    items = [item for k in range(len(data)) for item in decoder.feed(data[k:k + 1])]
    items += decoder.feed(b" ")
    assert items == protocol.decode_all(data)


def test_feedback_is_skipped_between_answers_but_counted() -> None:
    items = protocol.decode_all((DATA / "type_error.xml").read_bytes())
    kinds = [type(i).__name__ if isinstance(i, Answer) else i.kind for i in items]
    assert kinds == ["Answer", "processingin", "processed", "message", "Answer"]


def test_garbage_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        Decoder().feed(b"<value val='good'><unit/></valu>")
    with pytest.raises(ProtocolError, match="unknown <frobnicate>"):
        protocol.decode_all(b'<value val="good"><frobnicate/></value>')
    with pytest.raises(ProtocolError):
        protocol.added_state(Answer(True, None))


def test_location_in_characters() -> None:
    assert Location(0, 2).chars("αβ") == (0, 1)
    assert Location(4, 5).chars("αβ x") == (2, 3)


# -- sentences

def texts(source: str) -> list[str]:
    return [s.text for s in split_sentences(source)]


def test_plain_sentences_and_offsets() -> None:
    src = "Lemma a : 1 = 1.\nProof.  reflexivity. Qed."
    sentences = split_sentences(src)
    assert [s.text for s in sentences] == ["Lemma a : 1 = 1.", "Proof.", "reflexivity.", "Qed."]
    assert all(src[s.start:s.end] == s.text for s in sentences)


def test_qualified_names_decimals_and_dot_runs_do_not_end_a_sentence() -> None:
    assert texts("Check Z.of_nat. Check 1.5. Notation x := (1 .. 2).") == [
        "Check Z.of_nat.", "Check 1.5.", "Notation x := (1 .. 2)."]
    assert texts("Check (Nat.add 1 2).\tCheck nat.\r\nCheck bool.") == [
        "Check (Nat.add 1 2).", "Check nat.", "Check bool."]


def test_comments_nest_and_may_hold_dots_and_strings() -> None:
    src = '(* a. (* b. *) "*)" c. *) Check 1. (* end. *)'
    assert texts(src) == ["Check 1."]
    assert texts("Check (* inside. *) 1. Check 2.") == ["Check (* inside. *) 1.", "Check 2."]


def test_strings_hold_dots_and_doubled_quotes() -> None:
    assert texts('idtac "a. b"". c". Check 1.') == ['idtac "a. b"". c".', "Check 1."]


def test_bullets_and_braces_stand_alone() -> None:
    src = "split.\n- lra.\n-- lra.\n+ { exact I. }\n* auto.\n2: { lra. }"
    assert texts(src) == ["split.", "-", "lra.", "--", "lra.", "+", "{", "exact I.", "}", "*", "auto.",
                          "2: {", "lra.", "}"]


def test_a_missing_final_dot_leaves_an_incomplete_sentence() -> None:
    assert texts("Check 1. Check 2") == ["Check 1.", "Check 2"]
    assert texts("Check 1.") == ["Check 1."] and texts("  (* only *)  ") == []
    assert texts('Check "open. string') == ['Check "open. string']


# -- the tactic cache (no Coq either)

def test_tactic_cache_puts_the_winner_first_and_survives_a_reload(tmp_path: Path) -> None:
    from obligations.prover.ide.portfolio import TacticCache
    path = tmp_path / "cache" / "tactics.json"
    cache = TacticCache(path)
    key = TacticCache.key(["From Coq Require Import Reals."], "1 = 1")
    assert key != TacticCache.key(["From Coq Require Import Reals Lra."], "1 = 1")
    assert cache.order(key, ["lra.", "reflexivity."]) == ["lra.", "reflexivity."]
    cache.put(key, "reflexivity.")
    cache.save()
    again = TacticCache(path)
    assert again.order(key, ["lra.", "reflexivity."]) == ["reflexivity.", "lra."]
    path.write_text("{not json")
    assert TacticCache(path).get(key) is None          # a damaged cache only costs time
