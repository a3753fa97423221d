"""Throughput of the Coq IDE session against coqc, on real-arithmetic obligations.

    python bench/session_throughput.py [--n 300] [--sample 20] [--timeout 60]

Obligations (all true, seeded): --n goals `Q2R (a#b) <= exp 1 * Q2R (c#d) + Q2R (e#f)`
closed by `interval.`, and --n small linear goals closed by `intros; lra.`.

(a) the session: one warm session (proving every obligation after one start), and
    `prove_all` over one and two sessions (wall clock, starts included);
(b) one `coqc` per obligation: --sample files of each kind timed, extrapolated;
(c) one file with all the obligations through one `coqc` (minus a prelude-only file:
    the floor, what Coq itself spends per obligation).
Also the per-sentence round trip of the session.  The targets of the issue are printed
next to the figures.  Files go to build/bench/session/ (git-ignored).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.prover.ide.portfolio import ProofTask, prove_all, prove_obligation  # noqa: E402
from obligations.prover.ide.session import CoqSession  # noqa: E402
from obligations.prover.process import run  # noqa: E402

WORK = REPO / "build" / "bench" / "session"
PRELUDE = ("From Coq Require Import QArith Qreals Reals Lra.\n"
           "From Interval Require Import Tactic.\n"
           "Open Scope R_scope.\n")
FLOOR_SENTENCE_MS = 1.0      # the notes' floor: one sentence round trip
FLOOR_LRA_MS = (6.0, 7.0)    # and one small lra lemma
TARGET_FLOOR_RATIO = 2.0     # session within 2x of the floor
TARGET_SPEEDUP = 10.0        # session >= 10x faster than one coqc per obligation


@dataclass(frozen=True)
class Ob:
    kind: str                # "interval" or "lra"
    name: str
    statement: str
    tactic: str


def interval_goals(n: int, rng: random.Random) -> list[Ob]:
    """a/b <= e * c/d + e'/f' with a/b about 1% below the right side, so `interval` proves it."""
    out = []
    for k in range(n):
        c, d = rng.randint(1, 300), rng.randint(1, 100)
        e, f = rng.randint(0, 100), rng.randint(1, 100)
        b = rng.randint(1, 1000)
        a = math.floor((math.e * c / d + e / f) * 0.99 * b)
        assert Fraction(a, b) < Fraction(math.e) * Fraction(c, d) + Fraction(e, f)
        out.append(Ob("interval", f"iv{k}", f"Q2R ({a} # {b}) <= exp 1 * Q2R ({c} # {d}) + Q2R ({e} # {f})",
                      "interval."))
    return out


def lra_goals(n: int, rng: random.Random) -> list[Ob]:
    out = []
    for k in range(n):
        a, p, q = rng.randint(1, 50), rng.randint(-20, 20), rng.randint(1, 9)
        out.append(Ob("lra", f"li{k}", f"forall x y : R, x <= y -> {a} * x + {p} / {q} <= {a} * y + {p} / {q}",
                      "intros; lra."))
    return out


def lemma(o: Ob) -> str:
    return f"Lemma {o.name} : {o.statement}.\nProof. {o.tactic} Qed.\n"


# -- (a) the session
# The machine may be shared: besides wall clock, CPU seconds are measured (coqidetop's
# from /proc plus this process's own; coqc's from the reaped children's rusage).

def per_kind(obs: Sequence[Ob], seconds: Sequence[float]) -> dict[str, float]:
    """Mean milliseconds per obligation of each kind."""
    kinds = sorted({o.kind for o in obs})
    return {k: 1000 * statistics.mean(s for o, s in zip(obs, seconds, strict=False) if o.kind == k) for k in kinds}


def session_cpu(pid: int) -> float:
    """CPU seconds of coqidetop `pid` and of this (driving) process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") + time.process_time()


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@dataclass(frozen=True)
class Warm:
    start: float                 # s, Init + prelude
    wall: float                  # s, every obligation
    cpu: float
    wall_ms: dict[str, float]    # per obligation, by kind
    cpu_ms: dict[str, float]
    sentence_ms: float           # one sentence's round trip (Add + Status)
    sentence_cpu_ms: float
    bare_ms: float               # a bare Status round trip: the protocol alone


def warm_session(obs: Sequence[Ob]) -> Warm:
    """Start one session and prove everything in it."""
    t0 = time.monotonic()
    with CoqSession(prelude=PRELUDE, timeout=60) as s:
        start = time.monotonic() - t0
        pid = s.pid or 0
        walls, cpus = [], []
        for o in obs:
            c = session_cpu(pid)
            a = prove_obligation(s, o.name, o.statement, [o.tactic], 60)
            cpus.append(session_cpu(pid) - c)
            if not a.proved:
                raise SystemExit(f"the session did not prove {o.name}:\n{a.report()}")
            walls.append(a.seconds)
        c = session_cpu(pid)
        sentence_ms = _round_trip(lambda: s.add("Check 1%nat."), 500)
        sentence_cpu_ms = 1000 * (session_cpu(pid) - c) / 500
        bare_ms = _round_trip(lambda: s.status(), 500)
    return Warm(start, sum(walls), sum(cpus), per_kind(obs, walls), per_kind(obs, cpus),
                sentence_ms, sentence_cpu_ms, bare_ms)


def _round_trip(call: Callable[[], object], n: int) -> float:
    t = time.monotonic()
    for _ in range(n):
        call()
    return 1000 * (time.monotonic() - t) / n


def sessions_wall(obs: Sequence[Ob], n: int) -> float:
    tasks = [ProofTask(o.name, o.statement, [o.tactic]) for o in obs]
    t = time.monotonic()
    attempts = prove_all(tasks, PRELUDE, n, timeout=60)
    wall = time.monotonic() - t
    missed = [a.name for a in attempts if not a.proved]
    if missed:
        raise SystemExit(f"prove_all over {n} sessions did not prove {missed[:5]}")
    return wall


# -- (b), (c) coqc

def coqc(path: Path, timeout: float) -> tuple[float, float]:
    """Wall and CPU seconds of `coqc path`."""
    cpu = children_cpu()
    done = run(["coqc", path.name], timeout=timeout, cwd=path.parent)
    if done.returncode != 0:
        raise SystemExit(f"coqc {path} failed ({done.returncode}):\n{(done.stdout + done.stderr)[-2000:]}")
    return done.seconds, children_cpu() - cpu


def one_coqc_each(sample: Sequence[Ob], timeout: float) -> dict[str, tuple[float, float]]:
    """Mean wall and CPU seconds of one coqc run per obligation, by kind."""
    times: dict[str, list[tuple[float, float]]] = {}
    for o in sample:
        f = WORK / "each" / f"{o.name}.v"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(PRELUDE + lemma(o))
        times.setdefault(o.kind, []).append(coqc(f, timeout))
    return {k: (statistics.mean(w for w, _ in v), statistics.mean(c for _, c in v)) for k, v in times.items()}


def one_file(obs: Sequence[Ob], timeout: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Wall and CPU seconds of coqc on one file with every obligation, and on the prelude alone."""
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "All.v").write_text(PRELUDE + "".join(lemma(o) for o in obs))
    (WORK / "Prelude.v").write_text(PRELUDE)
    prelude = min(coqc(WORK / "Prelude.v", timeout) for _ in range(3))
    return coqc(WORK / "All.v", timeout), prelude


def floor_per_kind(obs: Sequence[Ob], timeout: float,
                   prelude: tuple[float, float]) -> tuple[dict[str, float], dict[str, float]]:
    """Wall and CPU ms per obligation of each kind inside one coqc file, prelude subtracted."""
    wall, cpu = {}, {}
    for kind in sorted({o.kind for o in obs}):
        mine = [o for o in obs if o.kind == kind]
        (WORK / f"Only_{kind}.v").write_text(PRELUDE + "".join(lemma(o) for o in mine))
        w, c = coqc(WORK / f"Only_{kind}.v", timeout)
        wall[kind] = 1000 * (w - prelude[0]) / len(mine)
        cpu[kind] = 1000 * (c - prelude[1]) / len(mine)
    return wall, cpu


# -- report

def verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=300, help="obligations of each kind")
    ap.add_argument("--sample", type=int, default=20, help="obligations of each kind run one coqc each")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per coqc run")
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    ivs, lras = interval_goals(args.n, rng), lra_goals(args.n, rng)
    obs = [o for pair in zip(ivs, lras, strict=False) for o in pair]      # interleaved, as a real run would be
    n = len(obs)
    print(f"{n} obligations ({args.n} interval, {args.n} lra); {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")

    warm = warm_session(obs)
    walls = {k: sessions_wall(obs, k) for k in (1, 2)}
    each = one_coqc_each(ivs[:args.sample] + lras[:args.sample], args.timeout)
    each_total = args.n * (each["interval"][0] + each["lra"][0])
    each_cpu = args.n * (each["interval"][1] + each["lra"][1])
    (all_s, all_cpu), prelude = one_file(obs, args.timeout)
    floor_ms, floor_cpu_ms = floor_per_kind(obs, args.timeout, prelude)
    floor_total, floor_cpu = all_s - prelude[0], all_cpu - prelude[1]

    print("\n(a) the session")
    print(f"  start (Init + prelude):              {warm.start:7.2f} s")
    print(f"  one warm session, {n} obligations: {warm.wall:7.2f} s wall, {warm.cpu:6.2f} s CPU"
          f"  = {n / warm.wall:6.1f} obligations/s")
    for k, wall in walls.items():
        print(f"  prove_all, {k} session{'s' if k > 1 else ' '} (with start):  {wall:7.2f} s wall"
              f"{'':18}= {n / wall:6.1f} obligations/s")
    for kind in ("interval", "lra"):
        print(f"  per {kind} obligation: {warm.wall_ms[kind]:6.1f} ms wall, {warm.cpu_ms[kind]:6.1f} ms CPU")
    print(f"  round trip: one sentence (Add + Status) {warm.sentence_ms:.2f} ms wall, "
          f"{warm.sentence_cpu_ms:.2f} ms CPU; a bare Status call {warm.bare_ms:.2f} ms wall")

    print("\n(b) one coqc per obligation")
    for kind in ("interval", "lra"):
        print(f"  {kind}: {each[kind][0]:.2f} s wall, {each[kind][1]:.2f} s CPU each "
              f"(mean of {args.sample})")
    print(f"  extrapolated to {n}: {each_total:7.1f} s wall, {each_cpu:6.1f} s CPU"
          f"  = {n / each_total:6.2f} obligations/s")

    print("\n(c) one file, one coqc")
    print(f"  all {n}: {all_s:.2f} s wall, {all_cpu:.2f} s CPU; the prelude alone {prelude[0]:.2f} s wall, "
          f"{prelude[1]:.2f} s CPU  = {n / all_s:.1f} obligations/s")
    print(f"  the floor (per obligation inside coqc, prelude subtracted): "
          f"interval {floor_ms['interval']:.1f} ms wall / {floor_cpu_ms['interval']:.1f} ms CPU, "
          f"lra {floor_ms['lra']:.1f} / {floor_cpu_ms['lra']:.1f} ms; "
          f"all {1000 * floor_total / n:.1f} / {1000 * floor_cpu / n:.1f} ms")

    ratio = {k: warm.wall_ms[k] / floor_ms[k] for k in warm.wall_ms}
    ratio_cpu = {k: warm.cpu_ms[k] / floor_cpu_ms[k] for k in warm.cpu_ms}
    speedup = each_total / walls[1]
    print("\nratios")
    print(f"  session / floor, wall: interval {ratio['interval']:.2f}x, lra {ratio['lra']:.2f}x, "
          f"all {warm.wall / floor_total:.2f}x")
    print(f"  session / floor, CPU:  interval {ratio_cpu['interval']:.2f}x, lra {ratio_cpu['lra']:.2f}x, "
          f"all {warm.cpu / floor_cpu:.2f}x")
    print(f"  one coqc per obligation / session: {speedup:.1f}x (prove_all, 1 session), "
          f"{each_total / walls[2]:.1f}x (2 sessions), {each_total / warm.wall:.1f}x (warm); "
          f"CPU {each_cpu / warm.cpu:.1f}x (warm)")
    print(f"  one file / session: {all_s / warm.wall:.2f}x (warm), {all_s / min(walls.values()):.2f}x "
          "(best prove_all, with start)")
    print(f"  2 sessions vs 1: {walls[1] / walls[2]:.2f}x the throughput")

    worst, worst_cpu = max(ratio.values()), max(ratio_cpu.values())
    print("\ntargets")
    within = verdict(worst <= TARGET_FLOOR_RATIO)
    print(f"  session within {TARGET_FLOOR_RATIO:g}x of the floor, per kind:  wall {within}"
          f" (worst {worst:.2f}x), CPU {verdict(worst_cpu <= TARGET_FLOOR_RATIO)} (worst {worst_cpu:.2f}x)")
    limit_s, limit_l = TARGET_FLOOR_RATIO * FLOOR_SENTENCE_MS, TARGET_FLOOR_RATIO * FLOOR_LRA_MS[1]
    print(f"  sentence round trip about {FLOOR_SENTENCE_MS:g} ms (<= {limit_s:g} ms):  "
          f"wall {verdict(warm.sentence_ms <= limit_s)} ({warm.sentence_ms:.2f} ms), "
          f"CPU {verdict(warm.sentence_cpu_ms <= limit_s)} ({warm.sentence_cpu_ms:.2f} ms)")
    print(f"  small lra lemma about {FLOOR_LRA_MS[0]:g}-{FLOOR_LRA_MS[1]:g} ms (<= {limit_l:g} ms): "
          f"wall {verdict(warm.wall_ms['lra'] <= limit_l)} ({warm.wall_ms['lra']:.1f} ms), "
          f"CPU {verdict(warm.cpu_ms['lra'] <= limit_l)} ({warm.cpu_ms['lra']:.1f} ms)")
    print(f"  >= {TARGET_SPEEDUP:g}x faster than one coqc per obligation:     "
          f"{verdict(speedup >= TARGET_SPEEDUP)} ({speedup:.1f}x)")
    print(f"\nload average now {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
