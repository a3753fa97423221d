"""A bug of ours reaches the user as "internal error, please report it", exit 3, never a bare traceback."""
from __future__ import annotations

import pytest

from obligations import cli


def test_unexpected_exception_is_an_internal_error(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def broken(_paths: object) -> None:
        raise ValueError("a bug")
    monkeypatch.setattr("obligations.certify.run.load_specs", broken)   # what `check` reads the specs with
    assert cli.main(["check", "mechanisms/randomized_response.yaml"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("obligations: internal error, please report it")
    assert "mechanisms/randomized_response.yaml" in err and "ValueError: a bug" in err


def test_help_says_what_the_tool_covers_and_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    top = capsys.readouterr().out
    assert "programs" in top and "noise pipelines" in top
    with pytest.raises(SystemExit):
        cli.main(["prove", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "relative to the current directory (default: certificates)" in text
    assert "(default: 600.0)" in text and "(default: build)" in text


def test_status_line_says_the_stage_and_clears(capsys: pytest.CaptureFixture[str]) -> None:
    import io
    stream = io.StringIO()
    status = cli.StatusLine(stream)
    status("rr: coqc")
    status("coqchk: rr")
    status.clear()
    text = stream.getvalue()
    assert "rr: coqc" in text and "coqchk: rr" in text and text.endswith("\r\x1b[K")
    assert "] rr: coqc" in text            # with the seconds since the command started


def test_status_line_on_a_terminal_log_lines_off_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import io

    from obligations.certify.progress import LogLines

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr("sys.stderr", Terminal())
    assert isinstance(cli._reporter(argparse.Namespace(json=False)), cli.StatusLine)
    assert cli._reporter(argparse.Namespace(json=True)) is None
    assert cli._reporter(argparse.Namespace(json=False, quiet=True)) is None
    monkeypatch.setattr("sys.stderr", io.StringIO())   # a file or a pipe
    assert isinstance(cli._reporter(argparse.Namespace(json=False)), LogLines)
    assert isinstance(cli._reporter(argparse.Namespace(json=True)), LogLines)   # stderr: stdout stays JSON
    assert cli._reporter(argparse.Namespace(json=False, quiet=True)) is None
