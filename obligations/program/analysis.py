"""The exact output distribution of a program, as a finite mechanism.

The interpreter runs the IR of `obligations.program.spec` on every input
vector with exact Fractions, following `theories/Program/ProgramSem.v` (same
distributions, same treatment of halted states and loops), and merges equal
states after every statement.  Two things keep the number of states down
without changing any output probability: slots that are dead (never read
again before being written) are reset to 0, and a halted state forgets its
environment.  The result is a `FiniteMechanism` whose rows are the input
vectors and whose columns are the output sequences with positive probability
for some input, so that `plan()` (tight ε, bounds on e^ε, witness) is reused.
Coq does not trust any of this: it runs the program's semantics itself.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from obligations.analysis.finite import FiniteMechanism, has_distinct_neighbours, rows_all_zero
from obligations.core.spec import MechanismSpec
from obligations.errors import InternalError, SpecError
from obligations.program import spec as P

MAX_STATES = 200_000          # states alive at once, for one input
MAX_OUTPUT_SEQUENCES = 4096   # distinct output sequences over all inputs
MAX_ENTRIES = 2_000_000       # inputs x output sequences
MAX_VALUE = 2 ** 62           # |value| of any variable or output
MAX_SECONDS = 300.0           # wall time of the whole unfolding

TOP, BOT = "T", "B"           # ⊤ and ⊥ in output sequences; integers stand for themselves
Oval = str | int
Env = tuple[int, ...] | None   # None: halted
State = tuple[Env, tuple[Oval, ...]]
Dist = dict[State, Fraction]


class _TooBig(Exception):
    pass


# ---------------------------------------------------------------- expressions


def aeval(env: tuple[int, ...], a: P.AExp) -> int:
    if isinstance(a, P.AConst):
        return a.z
    if isinstance(a, P.AVar):
        return env[a.x] if a.x < len(env) else 0
    if isinstance(a, P.AIdx):
        k = aeval(env, a.i)
        return env[a.base + k] if 0 <= k < a.length and a.base + k < len(env) else 0
    if isinstance(a, P.AAbs):
        return _sized(abs(aeval(env, a.a)))
    u, v = aeval(env, a.a), aeval(env, a.b)
    if a.op == "add":
        return _sized(u + v)
    if a.op == "sub":
        return _sized(u - v)
    if a.op == "mul":
        return _sized(u * v)
    return min(u, v) if a.op == "min" else max(u, v)


def _sized(v: int) -> int:
    if abs(v) > MAX_VALUE:
        raise _TooBig(f"a value exceeds 2^62 in absolute value ({v})")
    return v


def beval(env: tuple[int, ...], b: P.BExp) -> bool:
    if isinstance(b, P.BConst):
        return b.value
    if isinstance(b, P.BNot):
        return not beval(env, b.b)
    if isinstance(b, P.BBin):
        return (beval(env, b.b) and beval(env, b.c)) if b.op == "and" else (beval(env, b.b) or beval(env, b.c))
    u, v = aeval(env, b.a), aeval(env, b.b)
    return u < v if b.op == "lt" else (u <= v if b.op == "le" else u == v)


# ---------------------------------------------------------------- distributions (ProgramSem.v)


def geom_le(alpha: Fraction, m: int) -> Fraction:
    """Pr[Z <= m] for Pr[Z = z] = (1-α)/(1+α) α^|z|."""
    if m < 0:
        return alpha ** (-m) / (1 + alpha)
    return 1 - alpha ** (m + 1) / (1 + alpha)


def tgeom(alpha: Fraction, c: int, lo: int, hi: int) -> list[tuple[int, Fraction]]:
    """Clamp to [lo, hi] of c + Z: the truncated α-geometric mechanism at c."""
    if hi < lo:
        return []
    if lo == hi:
        return [(lo, Fraction(1))]
    out = []
    for v in range(lo, hi + 1):
        if v == lo:
            p = geom_le(alpha, lo - c)
        elif v == hi:
            p = geom_le(alpha, c - hi)
        else:
            p = (1 - alpha) / (1 + alpha) * alpha ** abs(v - c)
        out.append((v, p))
    return out


def two_sided(alpha: Fraction, lo: int, hi: int) -> list[tuple[int, Fraction]]:
    ws = [(z, alpha ** abs(z)) for z in range(lo, hi + 1)]
    total = sum((w for _, w in ws), Fraction(0))
    return [(z, w / total) for z, w in ws]


def dsem(env: tuple[int, ...], d: P.DExp) -> list[tuple[int, Fraction]]:
    if isinstance(d, P.DTable):
        k = aeval(env, d.key) - d.key_lo
        if k < 0 or k >= len(d.rows):
            return []
        return [(d.val_lo + j, p) for j, p in enumerate(d.rows[k])]
    if isinstance(d, P.DTGeom):
        return tgeom(d.alpha, aeval(env, d.center), d.lo, d.hi)
    if isinstance(d, P.DTwoSided):
        return two_sided(d.alpha, d.lo, d.hi)
    if isinstance(d, P.DBernoulli):
        return [(1, d.p), (0, 1 - d.p)]
    n = d.hi - d.lo + 1
    return [(z, Fraction(1, n)) for z in range(d.lo, d.hi + 1)]


# ---------------------------------------------------------------- liveness


def a_uses(a: P.AExp) -> frozenset[int]:
    if isinstance(a, P.AConst):
        return frozenset()
    if isinstance(a, P.AVar):
        return frozenset((a.x,))
    if isinstance(a, P.AIdx):
        return a_uses(a.i) | frozenset(range(a.base, a.base + a.length))
    if isinstance(a, P.AAbs):
        return a_uses(a.a)
    return a_uses(a.a) | a_uses(a.b)


def b_uses(b: P.BExp) -> frozenset[int]:
    if isinstance(b, P.BConst):
        return frozenset()
    if isinstance(b, P.BNot):
        return b_uses(b.b)
    if isinstance(b, P.BBin):
        return b_uses(b.b) | b_uses(b.c)
    return a_uses(b.a) | a_uses(b.b)


def d_uses(d: P.DExp) -> frozenset[int]:
    if isinstance(d, P.DTable):
        return a_uses(d.key)
    if isinstance(d, P.DTGeom):
        return a_uses(d.center)
    return frozenset()


def live_in(s: P.Stmt, after: frozenset[int]) -> frozenset[int]:
    """Slots whose value before `s` may matter, given those that matter after it."""
    if isinstance(s, P.SAssign):
        return (after - {s.x}) | a_uses(s.a)
    if isinstance(s, P.SSample):
        return (after - {s.x}) | d_uses(s.d)
    if isinstance(s, P.SIf):
        return b_uses(s.b) | block_live_in(s.then, after) | block_live_in(s.orelse, after)
    if isinstance(s, P.SFor):
        if s.n == 0:
            return after
        head = loop_head(s, after)
        return head | (after - {s.x})
    if isinstance(s, P.SOut):
        return after | a_uses(s.a)
    if s.kind == "stop":
        return frozenset()
    return after


def loop_head(s: P.SFor, after: frozenset[int]) -> frozenset[int]:
    """Slots live before the `x := i` of an iteration (a fixpoint over iterations)."""
    head: frozenset[int] = frozenset()
    while True:
        new = block_live_in(s.body, after | head) - {s.x}
        if new == head:
            return head
        head = new


def block_live_in(block: Sequence[P.Stmt], after: frozenset[int]) -> frozenset[int]:
    for s in reversed(block):
        after = live_in(s, after)
    return after


# ---------------------------------------------------------------- execution


@dataclass
class _Run:
    deadline: float
    peak: int = 0

    def check(self, d: Dist) -> None:
        if len(d) > self.peak:
            self.peak = len(d)
        if len(d) > MAX_STATES:
            raise _TooBig(f"more than {MAX_STATES} distinct states at one point of the program")
        if time.perf_counter() > self.deadline:
            raise _TooBig(f"unfolding took more than {MAX_SECONDS:.0f} s")


def _project(env: tuple[int, ...], live: frozenset[int]) -> tuple[int, ...]:
    return tuple(v if i in live else 0 for i, v in enumerate(env))


def _add(d: Dist, key: State, p: Fraction) -> None:
    if p:
        d[key] = d.get(key, Fraction(0)) + p


def exec_block(block: Sequence[P.Stmt], d: Dist, after: frozenset[int], run: _Run) -> Dist:
    lives = []
    cur = after
    for s in reversed(block):
        lives.append(cur)
        cur = live_in(s, cur)
    lives.reverse()
    for s, live in zip(block, lives, strict=False):
        d = exec_stmt(s, d, live, run)
        run.check(d)
    return d


def exec_stmt(s: P.Stmt, d: Dist, live: frozenset[int], run: _Run) -> Dist:  # noqa: C901 (one branch per node kind)
    out: Dist = {}
    if isinstance(s, P.SIf):
        yes: Dist = {}
        no: Dist = {}
        for (env, outs), p in d.items():
            if env is None:
                _add(out, (env, outs), p)
            else:
                (yes if beval(env, s.b) else no)[(env, outs)] = p
        for branch, block in ((yes, s.then), (no, s.orelse)):
            if branch:
                for k, p in exec_block(block, branch, live, run).items():
                    _add(out, k, p)
        return out
    if isinstance(s, P.SFor):
        if s.n == 0:
            return d
        inner = live | loop_head(s, live)
        for i in range(s.n):
            running: Dist = {}
            for (env, outs), p in d.items():
                if env is None:
                    _add(out, (env, outs), p)
                else:
                    e = list(env)
                    e[s.x] = i
                    _add(running, (tuple(e), outs), p)
            d = exec_block(s.body, running, inner, run) if running else {}
            d = {**d}
            for k, p in out.items():
                _add(d, k, p)
            out = {}
        return _merge_projected(d, live)
    for (env, outs), p in d.items():
        if env is None:
            _add(out, (env, outs), p)
            continue
        if isinstance(s, P.SAssign):
            e = list(env)
            e[s.x] = aeval(env, s.a)
            _add(out, (_project(tuple(e), live), outs), p)
        elif isinstance(s, P.SSample):
            for v, q in dsem(env, s.d):
                e = list(env)
                e[s.x] = _sized(v)
                _add(out, (_project(tuple(e), live), outs), p * q)
        elif isinstance(s, P.SOut):
            _add(out, (_project(env, live), outs + (aeval(env, s.a),)), p)
        elif s.kind == "top":
            _add(out, (_project(env, live), outs + (TOP,)), p)
        elif s.kind == "bot":
            _add(out, (_project(env, live), outs + (BOT,)), p)
        elif s.kind == "stop":
            _add(out, (None, outs), p)
        else:
            _add(out, (_project(env, live), outs), p)
    return out


def _merge_projected(d: Dist, live: frozenset[int]) -> Dist:
    out: Dist = {}
    for (env, outs), p in d.items():
        _add(out, (None if env is None else _project(env, live), outs), p)
    return out


def output_distribution(prog: P.Program, inputs: tuple[int, ...], run: _Run | None = None
                        ) -> dict[tuple[Oval, ...], Fraction]:
    """Pr[program outputs the sequence s] on one input vector, for every s with positive mass."""
    run = run or _Run(time.perf_counter() + MAX_SECONDS)
    env = tuple(inputs) + (0,) * (prog.nslots - len(inputs))
    d: Dist = {(env, ()): Fraction(1)}
    d = exec_block(prog.body, d, frozenset(), run)
    dist: dict[tuple[Oval, ...], Fraction] = {}
    for (_, outs), p in d.items():
        if p:
            dist[outs] = dist.get(outs, Fraction(0)) + p
    return dist


# ---------------------------------------------------------------- the mechanism


def ovals_label(outs: Sequence[Oval]) -> str:
    """An output sequence as text: `⊥ ⊥ ⊤`, `2 0`, or `()` when nothing is output."""
    if not outs:
        return "()"
    return " ".join("⊤" if o == TOP else "⊥" if o == BOT else str(o) for o in outs)


def _order_key(outs: tuple[Oval, ...]) -> tuple[int, tuple[tuple[int, Oval], ...]]:
    return (len(outs), tuple((0, 0) if o == TOP else (1, 0) if o == BOT else (2, o) for o in outs))


@dataclass(frozen=True)
class ProgramTable:
    """The exact output distributions: rows per input vector, columns per output sequence."""

    outputs: tuple[tuple[Oval, ...], ...]
    rows: tuple[tuple[Fraction, ...], ...]
    peak_states: int


@dataclass(frozen=True)
class ProgramMechanism(FiniteMechanism):
    """A program's exact table: one column per output sequence the runs can produce."""

    sequences: tuple[tuple[Oval, ...], ...] = ()


def tabulate_program(spec: MechanismSpec) -> ProgramMechanism:
    """Run the program on every input: the table over the output sequences it produces."""
    prog = spec.program
    if prog is None:
        raise InternalError("not a program spec")
    table = program_table(spec)
    labels = tuple(ovals_label(o) for o in table.outputs)
    return ProgramMechanism(spec, table.rows, neighbour_pairs(prog), table.rows, prog.input_labels,
                            labels, table.outputs)


def program_table(spec: MechanismSpec) -> ProgramTable:
    prog: P.Program = spec.program
    run = _Run(time.perf_counter() + MAX_SECONDS)
    dists = []
    seen: set[tuple[Oval, ...]] = set()
    try:
        for x, vec in enumerate(prog.inputs):
            dist = output_distribution(prog, vec, run)
            total = sum(dist.values(), Fraction(0))
            if total != 1:
                raise SpecError(spec.path, "program", f"on input {prog.input_labels[x]} the outputs have "
                                f"total probability {total}, not 1: a table has no row for the key "
                                "it is given (every run must be a distribution)")
            seen.update(dist)
            if len(seen) > MAX_OUTPUT_SEQUENCES:
                raise _TooBig(f"more than {MAX_OUTPUT_SEQUENCES} distinct output sequences")
            if len(seen) * len(prog.inputs) > MAX_ENTRIES:
                raise _TooBig(f"{len(prog.inputs)} inputs x {len(seen)}+ output sequences is more than "
                              f"{MAX_ENTRIES} entries")
            dists.append(dist)
    except _TooBig as exc:
        raise SpecError(spec.path, "program", f"{exc}: the mechanism is too large to tabulate "
                        "(shorten the stream, shrink the domains or the noise ranges)") from None
    outputs = tuple(sorted(seen, key=_order_key))
    rows = tuple(tuple(d.get(o, Fraction(0)) for o in outputs) for d in dists)
    return ProgramTable(outputs, rows, run.peak)


def neighbour_pairs(prog: P.Program) -> tuple[tuple[int, int], ...]:
    """Ordered pairs of distinct input vectors with |x_j - x'_j| <= Δ_j in every slot."""
    index = {v: i for i, v in enumerate(prog.inputs)}
    offsets: list[tuple[int, ...]] = [()]
    for delta in prog.deltas:
        offsets = [o + (k,) for o in offsets for k in range(-delta, delta + 1)]
        if len(offsets) > 10 ** 6:
            return _pairs_by_scan(prog)
    pairs = []
    for i, v in enumerate(prog.inputs):
        for o in offsets:
            j = index.get(tuple(a + b for a, b in zip(v, o, strict=False)))
            if j is not None and j != i:
                pairs.append((i, j))
    return tuple(sorted(pairs))


def _pairs_by_scan(prog: P.Program) -> tuple[tuple[int, int], ...]:
    out = []
    for i, v in enumerate(prog.inputs):
        for j, w in enumerate(prog.inputs):
            if i != j and all(abs(a - b) <= d for a, b, d in zip(v, w, prog.deltas, strict=False)):
                out.append((i, j))
    return tuple(out)


def program_vacuity(m: FiniteMechanism) -> tuple[str, ...]:
    """Why a program claim holds for any program, if it does (`Plan.vacuous`): every input
    public or of sensitivity 0 (neighbours are equal), or else no two distinct input
    vectors are neighbours; every run being zero cannot happen (runs have mass 1), but
    the table is checked all the same."""
    prog: P.Program = m.spec.program
    reasons: list[str] = []
    if all(c.public or c.delta == 0 for c in prog.components):
        reasons.append("every input is public or has sensitivity 0, so neighbouring input vectors "
                       "are equal: the claim holds for any program")
    elif not has_distinct_neighbours(m):
        reasons.append("no two distinct input vectors are neighbours: the claim holds for any program")
    if rows_all_zero(m):
        reasons.append("every run has probability 0 on every output sequence: the claim holds for "
                       "any ε and δ ≥ 0")
    return tuple(reasons)


def describe_outputs(m: FiniteMechanism, limit: int = 12) -> Iterable[str]:
    """Lines showing the output distribution of the first inputs (for `obligations show`)."""
    for x, row in enumerate(m.rows[:limit]):
        parts = [f"{m.output_label(y)}: {p}" for y, p in enumerate(row) if p]
        yield f"{m.input_label(x)} -> " + ", ".join(parts)
    if len(m.rows) > limit:
        yield f"... ({len(m.rows) - limit} more inputs)"
