"""Reads `obligations prove --json` of mechanisms/refuted/ on stdin, and prove's exit status as
the argument: every claim there is false on purpose (a peer's bug, a library as shipped), so
each must come back refuted with a certificate, and prove must exit 1 (refuted).  Exit 0 if so;
prove's own status when it failed for another reason (2 bad spec or usage, 3 prover or
infrastructure); otherwise name the claims that were not refuted and exit 1.

With `--decided FOLDER` (the test specs of tests/certificates/SPECS): each claim must come back
proved or refuted, each with a certificate."""
from __future__ import annotations

import json
import sys


def main() -> int:
    args = sys.argv[1:]
    folder = "mechanisms/refuted/"
    expected = {"refuted"}
    if args[:1] == ["--decided"]:
        folder, expected, args = args[1], {"proved", "refuted"}, args[2:]
    status = int(args[0]) if args else 1
    if status not in (0, 1):
        print(f"expect-refuted: obligations prove exited {status} (see its error above)", file=sys.stderr)
        return status
    text = sys.stdin.read()
    if not text.strip():
        print("expect-refuted: obligations printed no results (see its error above)", file=sys.stderr)
        return 1
    results = json.loads(text)["results"]
    wrong = [f"{r['name']}: {r['verdict']}" for r in results if r["verdict"] not in expected]
    what = " or ".join(sorted(expected))
    for line in wrong:
        print(f"expect-refuted: not {what}: {line}", file=sys.stderr)
    print(f"{folder}: {len(results) - len(wrong)} of {len(results)} {what}, as they should be")
    return 1 if wrong or not results else 0


if __name__ == "__main__":
    sys.exit(main())
