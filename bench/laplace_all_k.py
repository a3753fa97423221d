"""Continuous Laplace noise for every stream length: the peers' benchmark, proved and verified.

    python bench/laplace_all_k.py [NAME ...]

For each of CheckDP's private programs (mechanisms/checkdp/NAME.yaml, default all ten) the same
text with every `geometric:` site made `laplace:` and no `fallback:` is written to a scratch
folder and claimed for every stream length; `obligations prove` then `obligations verify` run on
it, and a row prints the verdict, the CPU of each (user + system of every process) and coqc's
and coqchk's seconds as the certificate records them.  `prove` runs with `--no-cache` and each
program has its own build folders (one for `prove`, one for `verify`): no row reuses a
certificate this machine checked before (its record would carry the timings of the run that
made it).  The library's coqchk record lives beside the library, so only the first `prove` after
the library changed checks the whole library: run the script once first to measure rows alone.
It asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHECKDP = REPO / "mechanisms" / "checkdp"
NAMES = ("sparsevector", "noisymax", "svt_increasing", "svt_decreasing", "gapsparsevector", "numsparsevector",
         "adaptivesparsevector", "partialsum", "smartsum", "prefixsum")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _continuous(name: str, folder: Path) -> Path:
    lines = (CHECKDP / f"{name}.yaml").read_text().replace("geometric:", "laplace:").splitlines(keepends=True)
    text = "".join(ln for ln in lines if not ln.startswith("fallback:"))
    spec = folder / f"{name}_laplace.yaml"
    spec.write_text(text.replace(f"name: {name}\n", f"name: {name}_laplace\n", 1))
    return spec


def _run(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    before = _cpu()
    done = subprocess.run([sys.executable, "-m", "obligations", *args], cwd=REPO, capture_output=True, text=True)
    return done, _cpu() - before


def _row(name: str, folder: Path) -> str:
    spec = _continuous(name, folder)
    out = folder / "certs"
    proved, prove_cpu = _run("prove", str(spec), "--out", str(out), "--build", str(folder / f"build_{name}"),
                             "--no-cache")
    record = out / f"{name}_laplace.json"
    if proved.returncode != 0 or not record.exists():
        last = (proved.stdout.strip().splitlines() or ["?"])[-1]
        return f"| {name} | exit {proved.returncode}: {last} | {prove_cpu:.1f} | — | — |"
    verified, verify_cpu = _run("verify", str(record), "--build", str(folder / f"verify_{name}"))
    t = json.loads(record.read_text())["timings_s"]
    return (f"| {name} | proved, verify exit {verified.returncode} | {prove_cpu:.1f} | {verify_cpu:.1f} | "
            f"coqc {t.get('coqc', 0):.1f} s, coqchk {t.get('coqchk', 0):.1f} s |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(NAMES))
    args = ap.parse_args()
    print("| program | verdict | prove CPU s | verify CPU s | the record's timings |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for name in args.names:
            print(_row(name, Path(d)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
