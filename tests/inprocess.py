"""`obligations ARGS` run in the test's own process: the exit code and both streams, as the
entry point gives them (`sys.exit(main(argv))`).  A subprocess would add the package's
start-up (a second or two of CPU) to every test of a spec that `check` refuses."""
from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

from obligations.cli import main

REPO = Path(__file__).resolve().parent.parent


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:   # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["obligations", *args], code, out.getvalue(), err.getvalue())
