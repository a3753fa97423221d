"""Records only this machine can write (`prover/trust.py`): an HMAC of what was checked under
a key kept outside the repository; a record re-made without the key, or for other content,
does not hold."""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from obligations.prover import trust


@pytest.fixture()
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "state"
    monkeypatch.setenv("OBLIGATIONS_STATE", str(where))
    return where


def test_a_record_holds_for_exactly_what_was_recorded(state: Path, tmp_path: Path) -> None:
    record = tmp_path / "build" / ".checked" / "x.ok"
    trust.remember(record, ["a", "b"])
    assert trust.holds(record, ["a", "b"])
    assert not trust.holds(record, ["a", "c"]) and not trust.holds(record, ["a"])
    key = state / "checked.key"
    assert len(key.read_bytes()) == trust.KEY_BYTES
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert not list(record.parent.glob("*.tmp"))


def test_a_record_re_made_without_the_key_does_not_hold(state: Path, tmp_path: Path) -> None:
    record = tmp_path / "x.ok"
    record.write_text(hashlib.sha256("\0".join(["a", "b"]).encode()).hexdigest())
    assert not trust.holds(record, ["a", "b"])
    trust.remember(record, ["a", "b"])
    assert trust.holds(record, ["a", "b"])
    trust.forget(record)
    assert not trust.holds(record, ["a", "b"])


def test_another_machine_s_key_is_another_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "x.ok"
    monkeypatch.setenv("OBLIGATIONS_STATE", str(tmp_path / "one"))
    trust.remember(record, ["a"])
    monkeypatch.setenv("OBLIGATIONS_STATE", str(tmp_path / "two"))
    assert not trust.holds(record, ["a"])


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_no_place_for_the_key_trusts_nothing_earlier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.setenv("OBLIGATIONS_STATE", str(locked / "state"))
    record = tmp_path / "x.ok"
    trust.remember(record, ["a"])             # a key of this process only
    assert trust.holds(record, ["a"])
    assert not (locked / "state").exists()
