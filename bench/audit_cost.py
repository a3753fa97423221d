"""What the audit costs in a generated file's coqc time.

    python bench/audit_cost.py [--runs N] [SPEC ...]

Each spec is proved once into build/bench/audit/ (no certificate cache), then its
generated .v is compiled N times (default 5) with coqc as `prove` runs it (one
`Print Assumptions` of the tuple of the theorems), N times with the audit as it was
before (`Check` and `Print Assumptions` of each theorem) and N times with the audit
cut off, the three interleaved so that the machine's load falls on each alike;
printed: the median wall and CPU seconds of each and the number of theorems.  Default specs:
a small finite claim, a family, a claim with an expected error and a noise pipeline.
"""
from __future__ import annotations

import resource
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
from obligations.models import load  # noqa: E402
from obligations.prover.coq import GENERATED  # noqa: E402

WORK = REPO / "build" / "bench" / "audit"
DEFAULT = ["mechanisms/randomized_response.yaml", "mechanisms/truncated_geometric_family.yaml",
           "mechanisms/truncated_geometric_expected_error.yaml", "mechanisms/snapping_unclamped_instance.yaml"]
AUDIT_HEADING = "(** ** The audit"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def coqc_seconds(load_path: list[str], vfiles: list[Path], runs: int) -> list[tuple[float, float]]:
    """The median (wall, CPU) seconds of `runs` coqc compilations of each of `vfiles`,
    interleaved.  CPU seconds too: on a shared machine the wall time is mostly the others' load."""
    times: list[list[tuple[float, float]]] = [[] for _ in vfiles]
    for _ in range(runs):
        for v, spent in zip(vfiles, times, strict=True):
            start, cpu = time.perf_counter(), children_cpu()
            subprocess.run(["coqc", *load_path, "-Q", str(v.parent), GENERATED, str(v)],
                           cwd=v.parent, check=True, capture_output=True)
            spent.append((time.perf_counter() - start, children_cpu() - cpu))
    return [(statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for t in times]


def per_theorem_tail(theorems: tuple[str, ...]) -> str:
    """The audit as it was: `Check` and `Print Assumptions` of each theorem."""
    lines = ["", "(** ** The audit, one traversal per theorem *)", "Local Open Scope R_scope.",
             "Local Set Printing Width 100000."]
    for t in theorems:
        lines += ["Check audit_statement.", f"Check {t}.", "Check audit_assumptions.", f"Print Assumptions {t}."]
    return "\n".join([*lines, "Check audit_end."]) + "\n"


def variant(vfile: Path, folder: str, text: str) -> Path:
    path = vfile.parent / folder / vfile.name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def main(argv: list[str]) -> int:
    runs = 5
    if argv[:1] == ["--runs"]:
        runs, argv = int(argv[1]), argv[2:]
    settings = Settings(build=WORK / "build", out=WORK / "certificates", use_cache=False)
    coq = settings.coq()
    coq.build_theories()
    print(f"{'':43} {'wall seconds':^32} {'CPU seconds':^32}")
    print(f"{'spec':34} {'theorems':>8}" + f" {'one traversal':>13} {'per theorem':>11} {'no audit':>8}" * 2)
    for spec in argv or DEFAULT:
        u = unfold(load(REPO / spec))
        o = prove(u, settings)
        if o.certificate is None:
            print(f"{u.spec.name:34} not certified: {o.message}")
            continue
        vfile = Path(o.certificate).with_suffix(".v")
        text = vfile.read_text()
        body = text[:text.index(AUDIT_HEADING)]
        files = [vfile, variant(vfile, "per_theorem", body + per_theorem_tail(u.rendered.theorems)),
                 variant(vfile, "bare", body)]
        (one, one_cpu), (each, each_cpu), (bare, bare_cpu) = coqc_seconds(coq.load_path(), files, runs)
        print(f"{u.spec.name:34} {len(u.rendered.theorems):8d} {one:13.2f} {each:11.2f} {bare:8.2f}"
              f" {one_cpu:13.2f} {each_cpu:11.2f} {bare_cpu:8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
