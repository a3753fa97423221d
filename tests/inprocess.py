"""`obligations ARGS` run in the test's own process: the exit code and both streams, as the
entry point gives them (`sys.exit(main(argv))`).  A subprocess would add the package's
start-up (about 2 s of CPU) to every call. Tests of what only a separate process shows (a
process under resource limits or another user, a broken pipe, the installed wheel) keep
`subprocess`."""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

from obligations.cli import main

REPO = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """A child's environment (`env` as `subprocess.run` takes it), restored afterwards."""
    saved = dict(os.environ)
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def cli(*args: str, cwd: Path = REPO, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with (contextlib.chdir(cwd), _environment(env), contextlib.redirect_stdout(out),
          contextlib.redirect_stderr(err)):
        try:
            code = main(list(args))
        except SystemExit as exc:   # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["obligations", *args], code, out.getvalue(), err.getvalue())
