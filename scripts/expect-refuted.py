"""Reads `obligations prove --json` of mechanisms/refuted/ on stdin, and prove's exit status as
the argument: every claim there is false on purpose (a peer's bug, a library as shipped), so
each must come back refuted with a certificate, and prove must exit 1 (refuted).  Exit 0 if so;
prove's own status when it failed for another reason (2 bad spec or usage, 3 prover or
infrastructure); otherwise name the claims that were not refuted and exit 1."""
from __future__ import annotations

import json
import sys


def main() -> int:
    status = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    if status not in (0, 1):
        print(f"expect-refuted: obligations prove exited {status} (see its error above)", file=sys.stderr)
        return status
    text = sys.stdin.read()
    if not text.strip():
        print("expect-refuted: obligations printed no results (see its error above)", file=sys.stderr)
        return 1
    results = json.loads(text)["results"]
    wrong = [f"{r['name']}: {r['verdict']}" for r in results if r["verdict"] != "refuted"]
    for line in wrong:
        print(f"expect-refuted: not refuted: {line}", file=sys.stderr)
    print(f"mechanisms/refuted/: {len(results) - len(wrong)} of {len(results)} refuted, as they should be")
    return 1 if wrong or not results else 0


if __name__ == "__main__":
    sys.exit(main())
