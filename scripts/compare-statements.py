"""Do the certificates' theorems still state what they stated?  After a change to the Coq
library or the templates, before the certificates are made again.

    python scripts/compare-statements.py [--jobs N] [CERTIFICATE.json ...]   (default: certificates/*.json)

For each certificate, the spec (and the claim `derived` names) is rendered again with
the proofs the certificate records, compiled with coqc against the library as it is
now, and the statements its audit prints compared with the certificate's, theorem by
theorem; the assumptions printed with those the certificate records (for the theorems
together).  No coqchk, no certificate written.  Exit 0: every statement and every
assumption list is the same; 1 otherwise (each difference printed).
"""
from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.certify import allowlist  # noqa: E402
from obligations.certify.outcome import Settings  # noqa: E402
from obligations.certify.record import recorded_choices  # noqa: E402
from obligations.certify.run import Compiled, compile_one  # noqa: E402
from obligations.certify.verify import _derived_spec  # noqa: E402
from obligations.models import unfold  # noqa: E402

WORK = REPO / "build" / "compare-statements"


def recorded_assumptions(record: dict[str, Any]) -> set[str]:
    """The theorems' assumptions together: one list (format 3) or one per theorem (before)."""
    if "assumptions" in record:
        return set(record["assumptions"])
    return {a for t in record["theorems"] for a in t.get("assumptions", [])}


def compare(path: Path) -> list[str]:
    """The differences between a certificate's theorems and what Coq prints now."""
    record = json.loads(path.read_text())
    u = unfold(_derived_spec(record, path, None))
    settings = Settings(build=WORK / path.stem, use_cache=False)
    done = compile_one(u, settings, recorded_choices(record))
    if not isinstance(done, Compiled):
        return [f"coqc refused the file: {done.message[:500]}"]
    problems = []
    names = [t["name"] for t in record["theorems"]]
    if names != list(u.rendered.theorems):
        problems.append(f"theorems: {names} recorded, {list(u.rendered.theorems)} rendered")
    for t in record["theorems"]:
        now = done.audit.statements.get(t["name"])
        if now != t["statement"]:
            problems.append(f"{t['name']}:\n    was {t['statement']}\n    now {now}")
    # the printed (short) names, resolved as the audit does; the allow-list stands in for
    # coqchk's summary of the environment (a name outside it stays unresolved: a difference)
    full, unresolved = allowlist.full_names(done.audit.assumptions, allowlist.REALS | allowlist.PRIMITIVE)
    was = recorded_assumptions(record)
    if set(full) != was or unresolved:
        problems.append(f"assumptions: was {sorted(was)}, now {sorted(full + unresolved)}")
    return problems


def main(argv: list[str]) -> int:
    jobs = 1
    if argv[:1] == ["--jobs"]:
        jobs, argv = int(argv[1]), argv[2:]
    paths = [Path(a) for a in argv] or sorted((REPO / "certificates").glob("*.json"))
    Settings(build=WORK).coq().build_theories()
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(compare, paths))
    changed = 0
    for path, problems in zip(paths, results, strict=True):
        print(f"{path.stem}: {'same' if not problems else 'DIFFERENT'}")
        for p in problems:
            print("  " + p)
        changed += bool(problems)
    print(f"{len(paths) - changed} of {len(paths)} certificates state the same theorems "
          "with the same assumptions")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
