"""Reads `obligations prove --json` of mechanisms/refuted/ on stdin: every claim there is false on
purpose (a peer's bug, a library as shipped), so each must come back refuted with a certificate.
Exit 0 if so; otherwise name the claims that were not refuted and exit 1."""
from __future__ import annotations

import json
import sys


def main() -> int:
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
