"""Cold time to certify each snapping spec, its obligations, and the tactics that closed them.

    python bench/snapping_certify.py [SPEC ...]

Default: every noise-pipeline spec in mechanisms/ plus the false claims in tests/specs/pipelines/.
Each spec is proved from nothing (no certificate cache; the library already built) in
build/bench/snapping/.  Printed per spec: the verdict, the number of case-table lemmas the
session proved and the tactics that closed them, and the seconds of each stage
(unfold + render, session, coqc, coqchk, audit) and end to end.  The issue's target is
at most 30 s per spec, cold; the ratio to it is printed.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.certify.outcome import Settings  # noqa: E402
from obligations.certify.run import prove, unfold  # noqa: E402
from obligations.models import load  # noqa: E402
from obligations.noise.spec import PipelineSpec  # noqa: E402

TARGET_S = 30.0
WORK = REPO / "build" / "bench" / "snapping"


def specs(argv: list[str]) -> list[Path]:
    if argv:
        return [Path(a) for a in argv]
    found = []
    for d in (REPO / "mechanisms", REPO / "tests" / "specs" / "pipelines"):
        for p in sorted(d.glob("*.yaml")):
            if isinstance(load(p), PipelineSpec):
                found.append(p)
    return found


def main(argv: list[str]) -> int:
    settings = Settings(build=WORK / "build", out=WORK / "certificates", use_cache=False)
    settings.coq().build_theories()
    print(f"{'spec':34} {'verdict':8} {'lemmas':>6} {'unfold':>7} {'session':>8} {'coqc':>6} "
          f"{'coqchk':>7} {'audit':>6} {'total':>7} {'/30 s':>6}  tactics")
    for path in specs(argv):
        start = time.perf_counter()
        u = unfold(load(path))
        o = prove(u, settings)
        total = time.perf_counter() - start
        t = o.timings
        tactics: dict[str, int] = {}
        for p in o.proofs:
            tactics[p["tactic"] or "none"] = tactics.get(p["tactic"] or "none", 0) + 1
        print(f"{u.spec.name:34} {o.verdict:8} {len(o.proofs):6d} "
              f"{t.get('unfold', 0) + t.get('render', 0):7.2f} {t.get('session', 0):8.2f} "
              f"{t.get('coqc', 0):6.2f} {t.get('coqchk', 0):7.2f} {t.get('audit', 0):6.2f} "
              f"{total:7.2f} {total / TARGET_S:6.2f}  "
              + ", ".join(f"{n}x {k}" for k, n in tactics.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
