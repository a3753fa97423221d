"""Scaling benchmark: the formula truncated geometric mechanism, stage by stage,
against the naive one-`lra`-lemma-per-inequality Coq proof.

    python bench/finite_scaling.py [--sizes 10 50 100 200 500] [--naive-sizes 10 20 30 40]
                                   [--timeout 900] [--workdir build/bench] [--theories DIR]
    python bench/finite_scaling.py --report build/bench/finite_scaling.json

1. For each n in --sizes: the spec mechanisms/truncated_geometric_formula.yaml with
   `n` changed (alpha = 1/2, claim -ln(alpha), adjacent neighbours) is written to
   WORKDIR/specs/, and each stage is run and timed on its own: unfold and render
   (Python, in a fresh child process so that its peak memory is its own), coqc of the
   rendered file (which prints its own audit, `Check` + `Print Assumptions`), then coqchk,
   through the project's `Coq` class, one after the other as `obligations prove` runs them.
   Besides wall seconds, the CPU seconds of each Coq process are recorded: on a shared
   machine they are the steadier figure.
2. For each n in --naive-sizes: a Coq file that states every entry of the same table
   as a literal real and proves one lemma `M(x)(y) <= 2 * M(x')(y)` by `lra` for each
   ordered adjacent pair (x, x') and output y, (n+1)*2n lemmas; coqc is timed, and its
   time is extrapolated to n = --at (200) to compare with ours there.
3. The targets of the issue are printed next to the figures.

Every process gets --timeout seconds (default 900); a stage that exceeds it is
reported as 'timeout' and the stages after it are skipped.  Everything is written
under WORKDIR (default build/bench/, git-ignored), the raw figures to
WORKDIR/finite_scaling.json (--report prints them again).  --theories runs the same
benchmark against another copy of the Coq library, e.g. one with a patched Checker.v.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import resource
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.certify import allowlist  # noqa: E402
from obligations.core.resources import THEORIES  # noqa: E402
from obligations.prover.coq import Coq, read_audit  # noqa: E402
from obligations.prover.process import Completed, run  # noqa: E402

SHIPPED = REPO / "mechanisms" / "truncated_geometric_formula.yaml"
BENCH = REPO / "build" / "bench"   # --workdir changes it
ALPHA = Fraction(1, 2)
BOUND = 1 / ALPHA            # e^eps = 1/alpha = 2, the pointwise ratio bound

# The targets of the issue.
TARGET_E2E_200 = 15.0        # s, n = 200 end to end
TARGET_E2E_500 = 60.0        # s, n = 500 end to end
TARGET_MEM_500 = 6 * 1024    # MiB, n = 500 peak
TARGET_SPEEDUP_200 = 100.0   # naive / ours at n = 200


def children_cpu() -> float:
    """CPU seconds of the reaped child processes so far (a stage's CPU is the difference)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class TimedCoq(Coq):
    """Coq that remembers the last process it ran (its peak memory and timeout)."""

    last: Completed | None = None

    def _run(self, argv: list[str], cwd: Path | None = None,
             timeout: float | None = None) -> Completed:
        done = run(argv, timeout=timeout or self.timeout, cwd=cwd, transcript=self.transcript)
        self.last = done
        return done


# ---------------------------------------------------------------- specs

def spec_text(n: int) -> str:
    """The shipped spec with n changed and a distinct name."""
    text = SHIPPED.read_text()
    name = f"truncated_geometric_formula_n{n}"
    subs = [(r"(?m)^name: .*$", f"name: {name}"),
            (r"(?m)^(  n: )\d+\s*$", rf"\g<1>{n}"),
            (r"(?m)^(description: .*)n = \d+", rf"\g<1>n = {n}")]
    for pattern, repl in subs:
        text, k = re.subn(pattern, repl, text, count=1)
        if k != 1:
            raise SystemExit(f"{SHIPPED}: cannot find {pattern!r} to change")
    return text


def write_spec(n: int) -> Path:
    d = BENCH / "specs"
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"truncated_geometric_formula_n{n}.yaml"
    p.write_text(spec_text(n))
    return p


# ---------------------------------------------------------------- our pipeline, by stage

def _unfold_child(spec_path: str, vfile: str, conn: Any) -> None:
    """In a fresh process: load, unfold, render; write the .v file; report timings and peak."""
    try:
        from obligations.certify.run import unfold
        from obligations.models import load
        t0 = time.perf_counter()
        spec = load(spec_path)
        t_load = time.perf_counter() - t0
        u = unfold(spec)
        Path(vfile).write_text(u.rendered.text)
        conn.send(dict(ok=True, load=t_load, unfold=u.timings["unfold"], render=u.timings["render"],
                       theorems=list(u.rendered.theorems), expected=u.plan.expected,
                       uses_interval=u.rendered.uses_interval(),
                       tight_epsilon=u.plan.tight_epsilon,
                       obligations=[type(o).__name__ for o in u.plan.obligations],
                       peak_kib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    except BaseException:  # noqa: BLE001 (reported to the parent)
        conn.send(dict(ok=False, error=traceback.format_exc()))
    finally:
        conn.close()


def run_unfold(spec_path: Path, vfile: Path, timeout: float) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_unfold_child, args=(str(spec_path), str(vfile), child))
    start = time.monotonic()
    proc.start()
    child.close()
    result: dict[str, Any] | None = None
    if parent.poll(timeout):
        try:
            result = parent.recv()
        except EOFError:
            result = None
    proc.join(timeout=max(1.0, timeout - (time.monotonic() - start)))
    if proc.is_alive():
        proc.kill()
        proc.join()
        return dict(ok=False, timeout=True, error=f"unfold timed out after {timeout:.0f} s")
    if result is None:
        return dict(ok=False, timeout=False, error=f"the unfold process died (exit {proc.exitcode})")
    return result


@dataclass
class OursRow:
    n: int
    entries: int                  # table entries (n+1)^2, all checked by the distribution check
    ineqs: int                    # pointwise inequalities checked, 2n(n+1)
    status: str = "ok"            # ok / timeout / failed / error
    failed_stage: str = ""
    message: str = ""
    seconds: dict[str, float | None] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)     # CPU seconds of the Coq processes
    peak_kib: dict[str, int] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)

    def s(self, stage: str) -> float | None:
        return self.seconds.get(stage)

    @property
    def end_to_end(self) -> float | None:
        if self.status != "ok":
            return None
        return sum(self.seconds[k] for k in ("load", "unfold", "render", "coqc", "coqchk"))

    @property
    def cpu_end_to_end(self) -> float | None:
        """Python stages (wall, single-threaded) plus the CPU seconds of the Coq processes."""
        if self.status != "ok":
            return None
        return (self.seconds["load"] + self.seconds["unfold"] + self.seconds["render"]
                + sum(self.cpu.get(k, 0.0) for k in ("coqc", "coqchk")))

    @property
    def peak_mib(self) -> float:
        return max(self.peak_kib.values(), default=0) / 1024


def run_ours(n: int, coq: TimedCoq, timeout: float, log: Any) -> OursRow:
    row = OursRow(n, (n + 1) ** 2, 2 * n * (n + 1))
    spec_path = write_spec(n)
    name = f"truncated_geometric_formula_n{n}"
    workdir = BENCH / name
    workdir.mkdir(parents=True, exist_ok=True)
    for old in workdir.iterdir():
        old.unlink()
    vfile = (workdir / f"{name}.v").resolve()

    def stop(stage: str, status: str, message: str) -> OursRow:
        row.status, row.failed_stage, row.message = status, stage, message
        print(f"  n = {n}: {stage}: {status}: {message[:2000]}", file=log, flush=True)
        return row

    u = run_unfold(spec_path, vfile, timeout)
    if not u.get("ok"):
        return stop("unfold", "timeout" if u.get("timeout") else "error", u.get("error", ""))
    row.seconds.update(load=u["load"], unfold=u["unfold"], render=u["render"])
    row.peak_kib["python"] = u["peak_kib"]
    if u["expected"] != "proved":
        return stop("unfold", "error", f"the plan is {u['expected']!r}, not 'proved'")
    print(f"  n = {n}: unfold {u['unfold']:.2f} s, render {u['render']:.2f} s "
          f"(obligations: {', '.join(u['obligations'])})", file=log, flush=True)

    c0 = children_cpu()
    try:
        compiled = coq.compile(vfile)
    except Exception as exc:  # noqa: BLE001 (a crash is a row of the table, not the end of the run)
        return stop("coqc", "error", f"{type(exc).__name__}: {exc}")
    row.seconds["coqc"], row.peak_kib["coqc"] = compiled.seconds, compiled.peak_kib
    row.cpu["coqc"] = children_cpu() - c0
    print(f"  n = {n}: coqc {compiled.status} {compiled.seconds:.2f} s, "
          f"{compiled.peak_kib / 1024:.0f} MiB", file=log, flush=True)
    if compiled.status != "ok":
        return stop("coqc", compiled.status, compiled.message)

    c0 = children_cpu()
    try:
        checked = coq.check([vfile])
    except Exception as exc:  # noqa: BLE001
        return stop("coqchk", "error", f"{type(exc).__name__}: {exc}")
    row.seconds["coqchk"], row.peak_kib["coqchk"] = checked.seconds, checked.peak_kib
    row.cpu["coqchk"] = children_cpu() - c0
    print(f"  n = {n}: coqchk {checked.status} {checked.seconds:.2f} s, "
          f"{checked.peak_kib / 1024:.0f} MiB", file=log, flush=True)
    if checked.status != "ok":
        return stop("coqchk", checked.status, checked.message)

    try:  # the file printed its own audit while coqc compiled it
        audit = read_audit(compiled.output, tuple(u["theorems"]))
    except Exception as exc:  # noqa: BLE001
        return stop("coqc", "error", f"{type(exc).__name__}: {exc}")
    row.assumptions = audit.assumptions
    allowed = allowlist.REALS | allowlist.PRIMITIVE   # printed names, resolved against the allow-list
    full, unresolved = allowlist.full_names(audit.assumptions, allowed)
    bad = sorted({*allowlist.refused(full, u["uses_interval"]), *unresolved})
    if bad:
        return stop("audit", "failed", "assumptions outside the allow-list: " + ", ".join(bad))
    print(f"  n = {n}: audit read; end to end {row.end_to_end:.2f} s",
          file=log, flush=True)
    return row


# ---------------------------------------------------------------- the naive way

def table(n: int) -> list[list[Fraction]]:
    """The truncated alpha-geometric table over {0..n}, as the spec's formula gives it."""
    a = ALPHA
    rows = []
    for x in range(n + 1):
        row = []
        for y in range(n + 1):
            if y == 0:
                row.append(a ** x / (1 + a))
            elif y == n:
                row.append(a ** (n - x) / (1 + a))
            else:
                row.append((1 - a) / (1 + a) * a ** abs(y - x))
        assert sum(row) == 1
        rows.append(row)
    return rows


def r_literal(q: Fraction) -> str:
    return f"({q.numerator} / {q.denominator})" if q.denominator != 1 else f"{q.numerator}"


def naive_text(n: int) -> tuple[str, int]:
    rows = table(n)
    lines = [f"(* The truncated 1/2-geometric mechanism over {{0..{n}}}, the naive way: every",
             "   entry a literal real, one lra lemma per pointwise inequality. *)",
             "From Coq Require Import Reals Lra.", "Open Scope R_scope.", ""]
    for x, row in enumerate(rows):
        for y, q in enumerate(row):
            lines.append(f"Definition m_{x}_{y} : R := {r_literal(q)}.")
    lines.append("")
    count = 0
    bound = r_literal(BOUND)
    for x in range(n + 1):
        for x2 in (x - 1, x + 1):
            if not 0 <= x2 <= n:
                continue
            for y in range(n + 1):
                assert rows[x][y] <= BOUND * rows[x2][y]
                lines.append(f"Lemma le_{x}_{x2}_{y} : m_{x}_{y} <= {bound} * m_{x2}_{y}.")
                lines.append(f"Proof. unfold m_{x}_{y}, m_{x2}_{y}. lra. Qed.")
                count += 1
    assert count == (n + 1) * 2 * n
    return "\n".join(lines) + "\n", count


@dataclass
class NaiveRow:
    n: int
    lemmas: int
    status: str
    seconds: float
    peak_kib: int
    cpu: float = 0.0
    message: str = ""

    @property
    def per_lemma_ms(self) -> float:
        return 1000 * self.seconds / self.lemmas


def run_naive(n: int, timeout: float, log: Any) -> NaiveRow:
    d = BENCH / "naive"
    d.mkdir(parents=True, exist_ok=True)
    vfile = d / f"naive_geometric_n{n}.v"
    for ext in (".vo", ".vok", ".vos", ".glob"):
        vfile.with_suffix(ext).unlink(missing_ok=True)
    text, count = naive_text(n)
    vfile.write_text(text)
    c0 = children_cpu()
    done = run(["coqc", vfile.name], timeout=timeout, cwd=d)
    cpu = children_cpu() - c0
    status = "timeout" if done.timed_out else ("ok" if done.returncode == 0 else "failed")
    msg = "" if status == "ok" else (done.stderr + done.stdout)[-1500:]
    print(f"  naive n = {n}: {count} lemmas, coqc {status} {done.seconds:.2f} s, "
          f"{done.peak_kib / 1024:.0f} MiB, CPU {cpu:.2f} s", file=log, flush=True)
    return NaiveRow(n, count, status, done.seconds, done.peak_kib, cpu, msg)


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least squares t = a + b * lemmas."""
    if len(points) == 1:
        return 0.0, points[0][1] / points[0][0]
    k = len(points)
    mx = sum(p for p, _ in points) / k
    my = sum(t for _, t in points) / k
    sxx = sum((p - mx) ** 2 for p, _ in points)
    sxy = sum((p - mx) * (t - my) for p, t in points)
    b = sxy / sxx
    return my - b * mx, b


# ---------------------------------------------------------------- printing

def fmt(v: float | None, width: int, prec: int = 2) -> str:
    return f"{'-' if v is None else f'{v:.{prec}f}':>{width}}"


def print_ours(rows: list[OursRow]) -> None:
    head = (f"{'n':>5} {'entries':>8} {'ineqs':>8} {'unfold s':>9} {'render s':>9} {'coqc s':>8} "
            f"{'coqchk s':>9} {'end-to-end s':>13} {'peak MiB':>9}"
            f"  {'peak stage':<10} status")
    print(head)
    print("-" * len(head))
    for r in rows:
        cells = []
        for stage, w in (("unfold", 9), ("render", 9), ("coqc", 8), ("coqchk", 9)):
            if r.status != "ok" and r.failed_stage == stage:
                cells.append(f"{r.status:>{w}}")
            else:
                cells.append(fmt(r.s(stage), w))
        e2e = r.end_to_end
        e2e_cell = fmt(e2e, 13) if e2e is not None else f"{r.status:>13}"
        worst = max(r.peak_kib, key=lambda k: r.peak_kib[k]) if r.peak_kib else "-"
        print(f"{r.n:>5} {r.entries:>8} {r.ineqs:>8} {' '.join(cells)} {e2e_cell} "
              f"{r.peak_mib:>9.0f}  {worst:<10} {r.status}")
    print(f"\n{'n':>5} {'coqc CPU s':>11} {'coqchk CPU s':>13} "
          f"{'end-to-end CPU s':>17}   (CPU seconds of the Coq processes: what the stages cost "
          "without waiting for a busy machine)")
    for r in rows:
        print(f"{r.n:>5} {fmt(r.cpu.get('coqc'), 11)} {fmt(r.cpu.get('coqchk'), 13)} "
              f"{fmt(r.cpu_end_to_end, 17)}")
    print("  entries = table entries (n+1)^2 (the distribution check reads them all); ineqs = "
          "pointwise inequalities 2n(n+1) (the DP check).\n"
          "  end-to-end = spec load + unfold + render + coqc (which prints the file's audit) + coqchk, "
          "one after the other, as `obligations prove` runs them.\n"
          "  peak MiB = the largest peak resident memory of any one stage's process "
          "(python = load/unfold/render).")


def print_naive(naive: list[NaiveRow], ours: dict[int, OursRow],
                at: int) -> dict[str, float | None]:
    """The naive table; returns the naive coqc time extrapolated to n = `at` (wall and CPU)."""
    head = (f"{'n':>5} {'lemmas':>7} {'coqc s':>8} {'per-lemma ms':>13} {'CPU s':>7} {'peak MiB':>9} "
            f"{'ours e2e s':>11} {'ours coqc s':>12} {'naive/ours e2e':>15} {'naive/ours coqc':>16} "
            f"{'same, CPU':>10}")
    print(head)
    print("-" * len(head))
    for r in naive:
        o = ours.get(r.n)
        ok = o is not None and o.status == "ok"
        e2e = o.end_to_end if ok else None
        oc = o.s("coqc") if ok else None
        t = r.seconds if r.status == "ok" else None
        ratio_e2e = t / e2e if t is not None and e2e else None
        ratio_c = t / oc if t is not None and oc else None
        ratio_cpu = r.cpu / o.cpu["coqc"] if t is not None and ok and o.cpu.get("coqc") else None
        tcell = fmt(t, 8) if t is not None else f"{r.status:>8}"
        print(f"{r.n:>5} {r.lemmas:>7} {tcell} {fmt(r.per_lemma_ms if t else None, 13, 1)} "
              f"{fmt(r.cpu, 7)} {r.peak_kib / 1024:>9.0f} {fmt(e2e, 11)} {fmt(oc, 12)} "
              f"{fmt(ratio_e2e, 15, 1)} {fmt(ratio_c, 16, 1)} {fmt(ratio_cpu, 10, 1)}")
    print("  naive/ours e2e: naive coqc against our whole pipeline (coqchk and the audit included); "
          "naive/ours coqc: coqc against coqc; 'same, CPU': that ratio in CPU seconds.")
    done = [r for r in naive if r.status == "ok"]
    out: dict[str, float | None] = {"wall": None, "cpu": None}
    if not done:
        return out
    lemmas_at = (at + 1) * 2 * at
    print(f"\n  Extrapolation to n = {at} ({lemmas_at} lemmas): coqc time is roughly proportional "
          "to the number of lemmas (one lra call and one Qed each, after a fixed start-up):")
    for kind, get in (("wall", lambda r: r.seconds), ("cpu", lambda r: r.cpu)):
        a, b = fit([(r.lemmas, get(r)) for r in done])
        biggest = max(done, key=lambda r: r.lemmas)
        prop = get(biggest) / biggest.lemmas * lemmas_at
        predicted = a + b * lemmas_at
        out[kind] = min(predicted, prop)
        print(f"    {kind:>4}: least-squares fit t = {a:.2f} s + {1000 * b:.2f} ms x lemmas -> "
              f"{predicted:.0f} s; at the per-lemma rate of n = {biggest.n} "
              f"({1000 * get(biggest) / biggest.lemmas:.2f} ms) -> {prop:.0f} s; taking the smaller, "
              f"{out[kind]:.0f} s.")
    print("  Both are optimistic for the naive way: its literals' denominators grow as 3*2^n, so "
          "each lra gets slower with n; and its lra proofs are not re-checked by coqchk here.")
    return out


def report(ours: dict[int, OursRow], naive: list[NaiveRow], at: int, meta: dict[str, Any]) -> dict[str, Any]:
    """Print the tables and the targets; returns the verdicts."""
    print("\n== Ours: formula truncated 1/2-geometric over {0..n}, claim (-ln(1/2), 0)-DP, "
          "adjacent neighbours ==")
    if meta.get("theories"):
        print(f"  (theories: {meta['theories']})")
    print_ours([ours[n] for n in sorted(ours)])
    for r in ours.values():
        if r.status != "ok":
            print(f"  n = {r.n}: {r.failed_stage}: {r.status}: {r.message[:300]}")
    print("\n== Naive: entries as literal reals, one `lra` lemma per p <= 2 * q ==")
    predicted = print_naive(naive, ours, at)
    print(f"\n(run {meta.get('started', '?')} .. {meta.get('ended', '?')}, {meta.get('cpus', '?')} CPUs; "
          f"load average {meta.get('load_start', 0):.1f} at the start, {meta.get('load_end', 0):.1f} "
          "at the end: wall times include waiting for other work on the machine)")

    print("\n== Targets ==")

    def verdict(ok: bool | None) -> str:
        return "n/a (not measured)" if ok is None else ("MET" if ok else "MISSED")

    def secs(v: float | None, r: OursRow | None) -> str:
        return "-" if r is None else (f"{v:.1f} s" if v is not None else r.status)

    r200, r500 = ours.get(200), ours.get(500)
    e200 = r200.end_to_end if r200 else None
    ok1 = None if r200 is None else (e200 is not None and e200 <= TARGET_E2E_200)
    print(f"  n = 200 end to end <= {TARGET_E2E_200:.0f} s: measured {secs(e200, r200)}"
          + (f" (CPU {r200.cpu_end_to_end:.1f} s)" if r200 and r200.cpu_end_to_end else "") + f"  -> {verdict(ok1)}")
    e500 = r500.end_to_end if r500 else None
    ok2 = None if r500 is None else (e500 is not None and e500 <= TARGET_E2E_500
                                     and r500.peak_mib <= TARGET_MEM_500)
    stage500 = f" at {r500.failed_stage}" if r500 and r500.status != "ok" else ""
    print(f"  n = 500 end to end <= {TARGET_E2E_500:.0f} s within {TARGET_MEM_500 // 1024} GB: "
          f"measured {secs(e500, r500)}{stage500}"
          + (f", peak {r500.peak_mib:.0f} MiB" if r500 else "")
          + (f" (CPU {r500.cpu_end_to_end:.1f} s)"
             if r500 and r500.cpu_end_to_end else "") + f"  -> {verdict(ok2)}")
    ratio = predicted["wall"] / e200 if predicted["wall"] is not None and e200 else None
    c200 = r200.cpu_end_to_end if r200 else None
    ratio_cpu = predicted["cpu"] / c200 if predicted["cpu"] is not None and c200 else None
    ok3 = None if ratio is None else ratio >= TARGET_SPEEDUP_200
    naive_s = "-" if predicted["wall"] is None else f"{predicted['wall']:.0f} s"
    print(f"  n = 200 >= {TARGET_SPEEDUP_200:.0f}x faster than naive: naive coqc (extrapolated) "
          f"{naive_s} / ours end to end {'-' if e200 is None else f'{e200:.1f} s'} = "
          f"{'-' if ratio is None else f'{ratio:.2f}x'}"
          + (f" (CPU: {predicted['cpu']:.0f} s / {c200:.1f} s = {ratio_cpu:.2f}x)" if ratio_cpu else "")
          + f"  -> {verdict(ok3)}")
    dominant: dict[int, str] = {}
    for r in ours.values():
        if r.status == "ok":
            stages = {k: r.seconds[k] for k in ("unfold", "render", "coqc", "coqchk")}
            top = max(stages, key=lambda k: stages[k])
            dominant[r.n] = f"{top} ({100 * stages[top] / r.end_to_end:.0f}%)"
    if dominant:
        print("  dominant stage by n: " + ", ".join(f"{n}: {s}" for n, s in sorted(dominant.items())))
    return dict(e2e_200=ok1, e2e_mem_500=ok2, speedup_200=ok3, speedup=ratio, speedup_cpu=ratio_cpu,
                naive_predicted=predicted, dominant_stage=dominant)


def _load_rows(path: Path) -> tuple[dict[int, OursRow], list[NaiveRow], int, dict[str, Any]]:
    data = json.loads(path.read_text())
    ours_fields = set(OursRow.__dataclass_fields__)
    naive_fields = set(NaiveRow.__dataclass_fields__)
    ours = {int(n): OursRow(**{k: v for k, v in r.items() if k in ours_fields})
            for n, r in data["ours"].items()}
    naive = [NaiveRow(**{k: v for k, v in r.items() if k in naive_fields}) for r in data["naive"]]
    meta = data.get("meta", {})
    return ours, naive, int(data.get("at", meta.get("at", 200))), meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10, 50, 100, 200, 500])
    ap.add_argument("--naive-sizes", type=int, nargs="*", default=[10, 20, 30, 40])
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per process (default 900)")
    ap.add_argument("--at", type=int, default=200, help="n at which to compare with the naive way")
    ap.add_argument("--workdir", type=Path, default=None,
                    help="where specs, Coq files and results go (default build/bench)")
    ap.add_argument("--json", type=Path, default=None,
                    help="where to write the raw figures (default WORKDIR/finite_scaling.json)")
    ap.add_argument("--theories", type=Path, default=THEORIES,
                    help="the Coq library to use (default theories/; e.g. a patched copy to compare)")
    ap.add_argument("--report", type=Path, default=None, metavar="JSON",
                    help="print the tables of an earlier run's JSON instead of running")
    args = ap.parse_args(argv)
    if args.report is not None:
        ours, naive, at, meta = _load_rows(args.report)
        report(ours, naive, at, meta)
        return 0

    global BENCH
    BENCH = (args.workdir or BENCH).resolve()
    BENCH.mkdir(parents=True, exist_ok=True)
    if args.json is None:
        args.json = BENCH / "finite_scaling.json"
    log = sys.stderr

    meta: dict[str, Any] = dict(started=time.strftime("%Y-%m-%d %H:%M:%S"), load_start=os.getloadavg()[0],
                                cpus=os.cpu_count(), timeout=args.timeout,
                                theories=str(args.theories.resolve()))
    coq = TimedCoq(args.theories.resolve(), args.timeout)
    print(f"Coq {coq.version()}; theories {args.theories}: {coq.build_theories():.1f} s to (re)build; "
          f"per-process timeout {args.timeout:.0f} s", file=log, flush=True)

    ours: dict[int, OursRow] = {}
    for n in args.sizes:
        print(f"ours, n = {n} ...", file=log, flush=True)
        ours[n] = run_ours(n, coq, args.timeout, log)
    # our figures at the naive sizes too, for the ratio at equal n
    for n in [n for n in args.naive_sizes if n not in ours]:
        print(f"ours (for the comparison), n = {n} ...", file=log, flush=True)
        ours[n] = run_ours(n, coq, args.timeout, log)
    naive = []
    for n in args.naive_sizes:
        print(f"naive, n = {n} ...", file=log, flush=True)
        naive.append(run_naive(n, args.timeout, log))
    meta.update(ended=time.strftime("%H:%M:%S"), load_end=os.getloadavg()[0])

    verdicts = report(ours, naive, args.at, meta)
    results = dict(
        meta=meta, at=args.at,
        ours={n: dict(asdict(r), end_to_end=r.end_to_end,
                      cpu_end_to_end=r.cpu_end_to_end) for n, r in ours.items()},
        naive=[dict(asdict(r), per_lemma_ms=r.per_lemma_ms) for r in naive],
        targets=verdicts)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2, default=str))
    print(f"\n(raw figures: {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
