#!/usr/bin/env bash
# make test: the whole suite (tests/unit, tests/golden, tests/coq).  The tests that need no
# Coq run while Coq is installed (when missing), the library compiles and coqchk checks it (a
# library build leaves a core idle along its dependency chains); the Coq tests run once both
# are done.
# Usage: scripts/test.sh PYTHON NPROC
set -uo pipefail
PY=$1
NPROC=$2
cd "$(dirname "$0")/.."
log=build/theories.log
mkdir -p build
# The library's build and its check are on the way to the Coq tests, so they run at the
# tests' priority (at nice 5 they waited for the Python tests, and the Coq tests began 2.4 min
# later on CI's 2 cores); coqchk runs one process per core (scripts/check-library.py).
# (CI's script starts the build earlier, under the same lock: this one then waits for it.)
( bash scripts/install-coq.sh && flock build/theories.lock make -s theories && "$PY" scripts/check-library.py ) > "$log" 2>&1 &
library=$!
"$PY" -m pytest tests/unit tests/golden -q -n "$NPROC" --dist loadfile
python_only=$?
if ! wait "$library"; then
    cat "$log"
    echo "make test: Coq was not installed, or the library did not build or check (above); the Coq tests did not run" >&2
    exit 1
fi
tail -n 1 "$log"
"$PY" -m pytest tests/coq -q -n "$NPROC" --dist loadfile --no-loadscope-reorder
coq=$?
[ "$python_only" = 0 ] && [ "$coq" = 0 ]
