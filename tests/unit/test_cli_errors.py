"""A bug of ours reaches the user as "internal error, please report it", exit 3, never a bare traceback."""
from __future__ import annotations

import pytest

from obligations import cli


def test_unexpected_exception_is_an_internal_error(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def broken(_paths: object) -> None:
        raise ValueError("a bug")
    monkeypatch.setattr(cli, "load_specs", broken)
    assert cli.main(["check", "mechanisms/randomized_response.yaml"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("obligations: internal error, please report it")
    assert "mechanisms/randomized_response.yaml" in err and "ValueError: a bug" in err
