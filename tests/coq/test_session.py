"""The Coq IDE session against a real `coqidetop.opt`: the portfolio, timeouts, crashes,
replaying a file, and the recorded answers of tests/data/ide/.

`python tests/coq/test_session.py --record` records tests/data/ide/*.xml again.
"""
from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.core.resources import THEORIES  # noqa: E402
from obligations.errors import ProverCrashed, ProverMissing  # noqa: E402
from obligations.prover.ide import protocol  # noqa: E402
from obligations.prover.ide.portfolio import ProofTask, TacticCache, prove_all, prove_obligation  # noqa: E402
from obligations.prover.ide.session import CoqSession, goal_at_failure  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("coqidetop.opt") is None, reason="needs coqidetop.opt")

PRELUDE = "From Coq Require Import Reals Lra. Open Scope R_scope."
# Really loops, in constant memory (2^62 steps of the VM); `Ltac loop := loop` and
# `let rec f := f in f` are not hangs: Coq stops them with "Stack overflow".
HANG = "assert (Pos.iter negb true (2^62)%positive = true) by (vm_compute; reflexivity)."
DATA = REPO / "tests" / "data" / "ide"
LOAD_PATH = ["-Q", str(THEORIES), "Obligations"]


@pytest.fixture(scope="module")
def session() -> Iterator[CoqSession]:
    with CoqSession(prelude=PRELUDE, timeout=30) as s:
        yield s


# -- the portfolio

def test_second_tactic_closes_it(session: CoqSession) -> None:
    base = session.tip
    a = prove_obligation(session, "plus_zero", "forall x : R, x + 0 = x", ["reflexivity.", "intros; lra."], 10)
    assert a.proved and a.tactic == "intros; lra."
    assert [r.outcome for r in a.runs] == ["failed", "proved"]
    assert "Unable to unify" in a.runs[0].error
    assert all(r.seconds > 0 for r in a.runs)
    assert session.tip == base          # the lemma is gone again: the next one starts clean


def test_nothing_closes_it_and_the_goal_is_reported(session: CoqSession) -> None:
    a = prove_obligation(session, "square_big", "forall x : R, x * x >= 1", ["lra.", "nra."], 10)
    assert not a.proved and a.tactic is None and a.name == "square_big"
    assert [r.outcome for r in a.runs] == ["failed", "failed"]
    assert a.goal == "============================\nforall x : R, x * x >= 1"
    assert "square_big: not proved" in a.report() and a.goal in a.report()


def test_a_refused_statement_is_an_error_not_a_goal(session: CoqSession) -> None:
    a = prove_obligation(session, "ill_typed", "1 + true = 1", ["lra."], 10)
    assert not a.proved and a.runs == () and 'has type "bool"' in a.error


def test_a_tactic_that_leaves_goals_fails_at_qed(session: CoqSession) -> None:
    a = prove_obligation(session, "halfway", "True /\\ True", ["split.", "split; exact I."], 10)
    assert a.tactic == "split; exact I."
    assert a.runs[0].outcome == "failed" and "incomplete proof" in a.runs[0].error


def test_hung_tactic_is_cut_and_the_session_recovers(session: CoqSession) -> None:
    old_pid, restarts = session.pid, session.restarts
    start = time.monotonic()
    a = prove_obligation(session, "after_hang", "forall x : R, x + 0 = x", [HANG, "intros; lra."], 2.0)
    assert [r.outcome for r in a.runs] == ["timeout", "proved"]
    assert 2.0 <= a.runs[0].seconds < 4 and time.monotonic() - start < 20
    assert session.restarts == restarts + 1 and session.pid != old_pid
    assert old_pid is not None and not _exists(old_pid)       # the whole group was killed
    # the restarted session has the prelude again (R, lra) and goes on
    b = prove_obligation(session, "next_one", "forall x y : R, x < y -> x + 1 < y + 1", ["intros; lra."], 10)
    assert b.proved


def test_prove_all_keeps_order_and_caches_the_winner(tmp_path: Path) -> None:
    tasks = [ProofTask(f"o{k}", f"{k} + 1 = {k + 1}" if k % 3 else f"forall x : R, x + {k} >= x")
             for k in range(12)]
    tactics = ["reflexivity.", "lra.", "intros; lra."]
    cache_file = tmp_path / "tactics.json"
    first = prove_all(tasks, PRELUDE, 2, tactics=tactics, timeout=10, cache=TacticCache(cache_file))
    assert [a.name for a in first] == [t.name for t in tasks] and all(a.proved for a in first)
    assert first[0].tactic == "intros; lra." and len(first[0].runs) == 3
    again = prove_all(tasks, PRELUDE, 2, tactics=tactics, timeout=10, cache=TacticCache(cache_file))
    assert all(len(a.runs) == 1 and a.tactic == b.tactic for a, b in zip(again, first, strict=False))


# -- faults

def test_a_killed_coqidetop_is_prover_crashed() -> None:
    with CoqSession(prelude=PRELUDE) as s:
        assert s.pid is not None
        os.kill(s.pid, signal.SIGKILL)
        with pytest.raises(ProverCrashed, match="killed by signal 9"):
            s.add("Check 1.")
    with CoqSession(prelude=PRELUDE) as s:
        os.kill(s.pid, signal.SIGKILL)  # type: ignore[arg-type]
        with pytest.raises(ProverCrashed):
            prove_obligation(s, "t", "1 = 1", ["reflexivity."], 10)


def test_a_crash_during_a_long_tactic_is_not_a_timeout() -> None:
    with CoqSession(prelude=PRELUDE) as s:
        pid = s.pid
        assert pid is not None
        threading.Timer(0.5, os.kill, (pid, signal.SIGKILL)).start()
        start = time.monotonic()
        with pytest.raises(ProverCrashed):
            prove_obligation(s, "t", "forall x : R, x = x", [HANG, "reflexivity."], 30)
        assert time.monotonic() - start < 10


def test_a_missing_binary_is_prover_missing() -> None:
    with pytest.raises(ProverMissing):
        CoqSession(binary="coqidetop.does-not-exist").start()


# -- the session

def test_sentences_errors_and_goals(tmp_path: Path) -> None:
    log = tmp_path / "transcript.log"
    with CoqSession(prelude=PRELUDE, transcript=log) as s:
        bad = s.add("Definition α := (1 + ).")
        assert not bad.ok and "Syntax error" in bad.error
        assert bad.location == (21, 22) and bad.sentence[21] == ")"    # characters, not bytes
        results = s.run("Lemma l (y : R) : forall x : R, x < y -> x + 1 < y + 1 /\\ x <= y.\n"
                        "Proof. intros x H. split.\n  - (* the first *) lra.\n  - reflexivity.\n  - lra.\nQed.")
        assert [r.ok for r in results] == [True] * 7 + [False]
        assert results[-1].sentence == "reflexivity." and results[-1].warnings
        goals = s.goals()
        assert goals is not None and goals.pretty() == (
            "y, x : R\nH : x < y\n============================\nx <= y")   # Coq groups same-typed names
        assert s.status().proof_name == "l"
        assert all(r.ok for r in s.run("lra.\nQed."))
        assert s.goals() is None
    text = log.read_text()
    assert '<call val="Init">' in text and "Syntax&nbsp;error" in text


def test_goal_at_failure_names_lemma_sentence_error_and_goal(tmp_path: Path) -> None:
    v = tmp_path / "Broken.v"
    v.write_text(PRELUDE.replace(". ", ".\n") + "\n"
                 "Lemma fine : 1 + 1 = 2. Proof. lra. Qed.\n"
                 "Theorem broken (a : R) : 0 < a -> a / 2 < a /\\ a < 2 * a.\n"
                 "Proof.\n  intros Ha. split.\n  - lra.\n  - nra. (* fine too *)\nQed.\n"
                 "Lemma later : 2 + 2 = 4.\nProof.\n  lra.\nQed.\n")
    assert goal_at_failure(v, [], 30) is None
    v.write_text(v.read_text().replace("lra.\n  - nra.", "lra.\n  - exact I."))
    failed = goal_at_failure(v, [], 30)
    assert failed is not None
    assert (failed.lemma, failed.sentence, failed.line) == ("broken", "exact I.", 8)
    assert "has type" in failed.error or "Unable to unify" in failed.error
    assert failed.goal == "a : R\nHa : 0 < a\n============================\na < 2 * a"


def test_goal_at_failure_on_a_generated_certificate(tmp_path: Path) -> None:
    shutil.copy(REPO / "certificates" / "randomized_response.v", tmp_path / "rr.v")
    assert goal_at_failure(tmp_path / "rr.v", LOAD_PATH, 120) is None
    text = (tmp_path / "rr.v").read_text()
    assert "(3 # 1))." in text
    (tmp_path / "rr.v").write_text(text.replace("(3 # 1)).", "(2 # 1))."))   # a bound too small
    failed = goal_at_failure(tmp_path / "rr.v", LOAD_PATH, 120)
    assert failed is not None and failed.lemma == "randomized_response_dp"
    assert "=====" in failed.goal


# -- the recorded answers

def test_recorded_answers_are_what_coq_answers_now(tmp_path: Path) -> None:
    record(tmp_path)
    names = sorted(p.name for p in DATA.glob("*.xml"))
    assert names == sorted(p.name for p in tmp_path.glob("*.xml"))
    for name in names:
        assert _decoded(DATA / name) == _decoded(tmp_path / name), name


def _decoded(path: Path) -> list[protocol.Decoded]:
    return protocol.decode_all(path.read_bytes())


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# -- recording tests/data/ide/*.xml

# (fixture file or None, the calls); "{tip}" is the current state id.
SCRIPT: list[tuple[str | None, list[str]]] = [
    ("init", ["init"]),
    (None, ["add:From Coq Require Import Reals Lra.", "status"]),
    (None, ["add:Open Scope R_scope.", "status"]),
    ("check_notice", ["add:Check nat.", "status"]),
    ("parse_error_utf8", ["add:Definition α := (1 + ).", "status"]),
    (None, ["add:Definition α := 1.", "status"]),
    ("type_error", ["add:Check (α + true).", "status"]),
    ("edit_at", ["edit_at"]),
    ("goal_outside_proof", ["goal"]),
    ("hint_warnings", ["add:Hint Resolve eq_refl.", "status"]),
    ("lemma", ["add:Lemma l : forall x y : R, x < y -> x + 1 < y + 1 /\\ x <= y.", "status"]),
    (None, ["add:Proof.", "status"]),
    ("status_in_proof", ["status"]),
    (None, ["add:intros x y H.", "status"]),
    ("goal_hypotheses", ["goal"]),
    (None, ["add:split.", "status"]),
    (None, ["add:-", "status"]),
    ("goal_focused", ["goal"]),
    ("tactic_failure", ["add:reflexivity.", "status"]),
    (None, ["edit_at"]),
    ("stray_ampersand", ['add:idtac "a&#b &c &#38; &#0;"; lra.', "status"]),
    (None, ["add:-", "status"]),
    (None, ["add:lra.", "status"]),
    ("goal_no_more", ["goal"]),
    ("qed", ["add:Qed.", "status"]),
    ("quit", ["quit"]),
]


def record(dest: Path) -> None:
    """Run SCRIPT through coqidetop and write the raw answer bytes of each named step."""
    dest.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(["coqidetop.opt", "-main-channel", "stdfds", "-async-proofs", "off", "-q"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    tip, last_good = 0, 0
    try:
        for name, calls in SCRIPT:
            xml = [_encode(c, tip, last_good) for c in calls]
            raw, answers = _exchange(proc, xml)
            if answers and isinstance(answers[0].value, int):                   # Init
                tip = last_good = answers[0].value
            elif calls[0].startswith("add:") and answers[0].ok and answers[1].ok:
                tip = last_good = protocol.added_state(answers[0])
            if name is not None:
                body = raw.decode("utf-8")
                (dest / f"{name}.xml").write_text(f"<!-- {' '.join(xml)} -->\n{body}\n", encoding="utf-8")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _encode(call: str, tip: int, last_good: int) -> str:
    if call.startswith("add:"):
        return protocol.add(call[4:], tip)
    return {"init": protocol.init(), "status": protocol.status(), "goal": protocol.goal(),
            "edit_at": protocol.edit_at(last_good), "quit": protocol.quit()}[call]


def _exchange(proc: subprocess.Popen[bytes], calls: list[str]) -> tuple[bytes, list[protocol.Answer]]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(calls).encode("utf-8"))
    proc.stdin.flush()
    decoder, raw = protocol.Decoder(), b""
    answers: list[protocol.Answer] = []
    while len(answers) < len(calls):
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "coqidetop did not answer while recording"
        data = os.read(proc.stdout.fileno(), 1 << 16)
        assert data, "coqidetop exited while recording"
        raw += data
        answers += [d for d in decoder.feed(data) if isinstance(d, protocol.Answer)]
    return raw, answers


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/coq/test_session.py --record")
    record(DATA)
    print(f"recorded {len(list(DATA.glob('*.xml')))} answers in {DATA}")
