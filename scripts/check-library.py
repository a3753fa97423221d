"""coqchk on the whole compiled library, recorded for this machine (the stamp `prove` trusts):
what the first `prove` after a library change does, done ahead. `make test` runs it beside the
tests that need no Coq, so that no two Coq tests check the library at once."""
from __future__ import annotations

import sys

from obligations.certify.outcome import Settings
from obligations.certify.run import check_library
from obligations.prover.pool import cores


def main() -> int:
    problem = check_library(Settings(jobs=cores()))
    if problem is not None:
        print(f"check-library: {problem}", file=sys.stderr)
        return 1
    print("check-library: the library is checked by coqchk (recorded for this machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
