"""What the audit costs in a generated file's coqc time.

    python bench/audit_cost.py [--runs N] [SPEC ...]

Each spec is proved once into build/bench/audit/ (no certificate cache), then its
generated .v is compiled N times (default 5) with coqc as `prove` runs it, and N
times with the audit cut off (everything from the audit's heading on); printed:
the median wall seconds of each, the audit's share and the number of theorems the
audit covers.  Default specs: a small finite claim, a family, a calibrated claim
and a noise pipeline from mechanisms/.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.certify.outcome import Settings  # noqa: E402
from obligations.certify.run import prove, unfold  # noqa: E402
from obligations.kinds import load  # noqa: E402
from obligations.prover.coq import GENERATED  # noqa: E402

WORK = REPO / "build" / "bench" / "audit"
DEFAULT = ["mechanisms/randomized_response.yaml", "mechanisms/randomized_response_family.yaml",
           "mechanisms/laplace_snapping.yaml", "mechanisms/exponential_mechanism.yaml"]
AUDIT_HEADING = "(** ** The audit"


def coqc_seconds(load_path: list[str], vfile: Path, runs: int) -> float:
    """The median wall seconds of `runs` coqc compilations of `vfile`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(["coqc", *load_path, "-Q", str(vfile.parent), GENERATED, str(vfile)],
                       cwd=vfile.parent, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    runs = 5
    if argv[:1] == ["--runs"]:
        runs, argv = int(argv[1]), argv[2:]
    settings = Settings(build=WORK / "build", out=WORK / "certificates", use_cache=False)
    coq = settings.coq()
    coq.build_theories()
    print(f"{'spec':34} {'theorems':>8} {'coqc':>7} {'no audit':>9} {'audit':>7} {'share':>6}")
    for spec in argv or DEFAULT:
        u = unfold(load(REPO / spec))
        o = prove(u, settings)
        if o.certificate is None:
            print(f"{u.spec.name:34} not certified: {o.message}")
            continue
        vfile = Path(o.certificate).with_suffix(".v")
        text = vfile.read_text()
        bare = vfile.parent / "bare" / vfile.name
        bare.parent.mkdir(exist_ok=True)
        bare.write_text(text[:text.index(AUDIT_HEADING)])
        full = coqc_seconds(coq.load_path(), vfile, runs)
        cut = coqc_seconds(coq.load_path(), bare, runs)
        print(f"{u.spec.name:34} {len(u.rendered.theorems):8d} {full:7.2f} {cut:9.2f} "
              f"{full - cut:7.2f} {(full - cut) / full:6.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
