"""The alignment search and the loop invariant, for any program of the fragment.

**Shifts.**  Each sampling site gets a shift from templates (CheckDP's and ShadowDP's):
c + b·(center_L − center_A), with c in −1..2 and b in {0, 1} (b = 1 moves the aligned
sample onto the left one's value plus c), either unconditionally, or chosen by the next
branch the left run takes after the sample (a prophecy of its trace: SVT's ⊤/⊥), or by
whether the loop index is the value the program releases after the loop (a prophecy of
its output: report-noisy-max's winner).  The search enumerates the combinations by a
cost estimate and keeps the first that, on a few hundred random runs (random stream
lengths, neighbouring streams of the spec's relation, random noise), never makes the
two runs take different non-quiet branches or release different values and whose cost
stays within the claim (also at k = 40).  Enumeration, not an LP: the templates are
small and discrete, a run is the only oracle we have for every construct of the
language, and Coq checks the result anyway.

**Invariant.**  The loop invariant is mined from the same runs (Daikon-style): at each
loop head, for the variables live there, the atoms that hold on every sample (constant
distances between the two runs, one-sided distances, bounds, the cost against a counter
or against the L1 distance read so far), per phase (the first iteration; with an output
prophecy, before and after the released index, plus the "doomed" disjunct: the left run
will not release the prophesied value).  Coq proves it inductive or the file fails.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property

from obligations.program import spec as P
from obligations.program.align import sem as S
from obligations.program.align.reduce import drop_implied
from obligations.program.align.spec import AlignSpec, DGeom

CS = (0, 1, -1, 2)
BS = (0, 1)
MAX_CANDIDATES = 60_000
TRIALS = 260


# ---------------------------------------------------------------- shift rules


@dataclass(frozen=True)
class Term:
    """c + b·(center_L − center_A)."""

    c: int
    b: int

    def value(self, dc: int) -> int:
        return self.c + self.b * dc

    def proxy(self) -> int:
        return abs(self.c) + self.b

    def text(self) -> str:
        if self.b == 0:
            return str(self.c)
        return "(center - center')" if self.c == 0 else f"{self.c} + (center - center')"


@dataclass(frozen=True)
class Rule:
    """A site's shift: `mode` none (t always), next (t if the left run's next branch is taken,
    else f), index (t if the loop index is the released value, else f)."""

    mode: str
    t: Term
    f: Term = Term(0, 0)

    def proxy(self) -> int:
        return self.t.proxy() if self.mode == "none" else max(self.t.proxy(), self.f.proxy()) + 1

    def text(self) -> str:
        if self.mode == "none":
            return self.t.text()
        cond = "the next branch is taken" if self.mode == "next" else "the index is the released value"
        return f"{self.t.text()} if {cond}, else {self.f.text()}"


@dataclass(frozen=True)
class Site:
    index: int
    dist: DGeom
    in_loop: bool
    has_next: bool          # a conditional follows the sample in its block


@dataclass(frozen=True)
class IndexMode:
    """The value released after the loop is the variable `var`, assigned the loop index in the body."""

    var: int
    loop_var: int
    opos: int               # its position in the outputs


@dataclass
class Alignment:
    rules: tuple[Rule, ...]
    W: int
    C: int
    ctr: bool
    index: IndexMode | None
    sites: tuple[Site, ...]
    loop_var: int

    def weight(self, d: DGeom) -> int:
        return d.den * (self.W // d.num)


@dataclass(frozen=True)
class NoAlignment:
    reason: str


# ---------------------------------------------------------------- the program's structure


def _stmts(body: Sequence[P.Stmt]) -> Iterable[P.Stmt]:
    for s in body:
        yield s
        if isinstance(s, P.SIf):
            yield from _stmts(s.then)
            yield from _stmts(s.orelse)
        elif isinstance(s, P.SFor):
            yield from _stmts(s.body)


def sites(body: Sequence[P.Stmt]) -> tuple[Site, ...]:
    out: list[Site] = []

    def walk(block: Sequence[P.Stmt], in_loop: bool) -> None:
        for n, s in enumerate(block):
            if isinstance(s, P.SSample):
                d = s.d
                assert isinstance(d, DGeom)
                later = any(isinstance(t, P.SIf) for t in block[n + 1:])
                out.append(Site(len(out), d, in_loop, later))
            elif isinstance(s, P.SIf):
                walk(s.then, in_loop)
                walk(s.orelse, in_loop)
            elif isinstance(s, P.SFor):
                walk(s.body, True)
    walk(body, False)
    return tuple(out)


def the_loop(body: Sequence[P.Stmt]) -> tuple[int, P.SFor]:
    for n, s in enumerate(body):
        if isinstance(s, P.SFor):
            return n, s
    raise ValueError("no loop")


def index_mode(body: Sequence[P.Stmt]) -> IndexMode | None:
    n, loop = the_loop(body)
    emits = (P.SOut,)
    if any(isinstance(s, emits) or (isinstance(s, P.SSimple) and s.kind in ("top", "bot"))
           for s in _stmts(loop.body)):
        return None
    pre = body[:n]
    if any(isinstance(s, P.SIf) for s in pre):
        return None
    opos = sum(1 for s in _stmts(pre)
               if isinstance(s, P.SOut) or (isinstance(s, P.SSimple) and s.kind in ("top", "bot")))
    after = [s for s in body[n + 1:] if isinstance(s, P.SOut)]
    if not after or not isinstance(after[0].a, P.AVar):
        return None
    var = after[0].a.x
    if any(isinstance(s, P.SAssign) and s.x == var and s.a == P.AVar(loop.x) for s in _stmts(loop.body)):
        return IndexMode(var, loop.x, opos)
    return None


def live_at_head(  # noqa: C901 (one case per statement)
    body: Sequence[P.Stmt], nvars: int) -> tuple[int, ...]:
    """Variables read in the loop body before they are written there, or read after the loop."""
    n, loop = the_loop(body)
    live: set[int] = set()

    def a_reads(a: P.AExp) -> set[int]:
        if isinstance(a, P.AVar):
            return {a.x}
        if isinstance(a, P.AIdx):
            return a_reads(a.i)
        if isinstance(a, P.ABin):
            return a_reads(a.a) | a_reads(a.b)
        if isinstance(a, (P.AAbs, P.ADivC)):
            return a_reads(a.a)
        return set()

    def b_reads(b: P.BExp) -> set[int]:
        if isinstance(b, P.BCmp):
            return a_reads(b.a) | a_reads(b.b)
        if isinstance(b, P.BNot):
            return b_reads(b.b)
        if isinstance(b, P.BBin):
            return b_reads(b.b) | b_reads(b.c)
        return set()

    def block(stmts: Sequence[P.Stmt], written: set[int]) -> set[int]:
        w = set(written)
        for s in stmts:
            if isinstance(s, P.SAssign):
                live.update(a_reads(s.a) - w)
                w.add(s.x)
            elif isinstance(s, P.SSample):
                d = s.d
                assert isinstance(d, DGeom)
                live.update(a_reads(d.center) - w)
                w.add(s.x)
            elif isinstance(s, P.SOut):
                live.update(a_reads(s.a) - w)
            elif isinstance(s, P.SIf):
                live.update(b_reads(s.b) - w)
                w = block(s.then, w) & block(s.orelse, w)
        return w

    block(loop.body, {loop.x})
    block(body[n + 1:], set())
    return tuple(sorted(x for x in live if 0 <= x < nvars and x != loop.x))


# ---------------------------------------------------------------- random runs


@dataclass
class Scenario:
    k: int
    x: list[int]
    x2: list[int]
    tape: dict[int, int]

    def tape_fn(self) -> S.Tape:
        return lambda a: self.tape.get(a, 0)


def _noise(rng: random.Random) -> int:
    draw = rng.random       # bound once: mining draws a few hundred thousand of these
    z = 0
    while draw() < 0.55:
        z += 1
    return z if draw() < 0.5 else -z


def _stream_pair(rng: random.Random, kind: str, delta: int, k: int, spread: int) -> tuple[list[int], list[int]]:
    q = [rng.randint(-spread, spread) for _ in range(k)]
    if kind == "each":
        d = [rng.randint(-delta, delta) for _ in range(k)]
    elif kind == "increasing":
        d = [rng.randint(0, delta) for _ in range(k)]
    elif kind == "decreasing":
        d = [rng.randint(-delta, 0) for _ in range(k)]
    elif kind == "monotone":
        sign = rng.choice((-1, 1))
        d = [sign * rng.randint(0, delta) for _ in range(k)]
    elif kind == "one":
        d = [0] * k
        if k:
            d[rng.randrange(k)] = rng.randint(-delta, delta)
    else:  # l1
        d = [0] * k
        budget = delta
        for i in rng.sample(range(k), k):
            v = rng.randint(-budget, budget)
            d[i] = v
            budget -= abs(v)
    return q, [a + b for a, b in zip(q, d, strict=False)]


def scenarios(spec: AlignSpec, n: int, seed: int, kmax: int, spread: int, offset: int = 0) -> list[Scenario]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.randint(0, kmax) if spec.length is None else spec.length   # a claim at one length: that one
        pub = [rng.randint(-spread, spread) for _ in spec.publics]
        q, q2 = _stream_pair(rng, spec.relation.kind, spec.relation.delta, k, spread)
        q, q2 = [v + offset for v in q], [v + offset for v in q2]
        out.append(Scenario(k, pub + q, pub + q2, {a: _noise(rng) for a in range(4 * (k + 4) * 8)}))
    return out


def _prog(spec: AlignSpec) -> tuple[P.Stmt, ...]:
    return spec.body


def run_left(spec: AlignSpec, sc: Scenario) -> S.TState:
    c = S.Ctx(spec.nvars, spec.npub, sc.k)
    st = S.TState([0] * spec.nvars + list(sc.x))
    S.texec(c, sc.tape_fn(), spec.body, 0, st)
    return st


def center_diff(c: S.Ctx, d: DGeom, L: S.TState, A: S.TState) -> int:
    return S.aeval(c, L, d.center) - S.aeval(c, A, d.center)


def shift_fn(al: Alignment, c: S.Ctx, o: list[S.OVal], tr: list[bool]) -> S.ShiftFn:
    def f(site: int, L: S.TState, A: S.TState) -> int:
        if site >= len(al.rules):
            return 0
        r = al.rules[site]
        dc = center_diff(c, al.sites[site].dist, L, A)
        if r.mode == "none":
            return r.t.value(dc)
        if r.mode == "next":
            pos = len(L.tr)
            if pos >= len(tr):
                return 0
            return r.t.value(dc) if tr[pos] else r.f.value(dc)
        assert al.index is not None
        w = o[al.index.opos] if al.index.opos < len(o) else None
        if not isinstance(w, int) or isinstance(w, bool):
            return r.f.value(dc)
        return r.t.value(dc) if L.read(al.index.loop_var) == w else r.f.value(dc)
    return f


def prun(spec: AlignSpec, al: Alignment, sc: Scenario) -> tuple[S.TState, S.PState]:
    left = run_left(spec, sc)
    c = S.Ctx(spec.nvars, spec.npub, sc.k)
    ps = S.PState(S.TState([0] * spec.nvars + list(sc.x)), S.TState([0] * spec.nvars + list(sc.x2)))
    S.prun(c, sc.tape_fn(), shift_fn(al, c, left.out, left.tr), al.weight, spec.body, 0, 0, ps)
    return left, ps


def _check(spec: AlignSpec, al: Alignment, sc: Scenario) -> str | None:
    _, ps = prun(spec, al, sc)
    if ps.bad:
        return ps.bad
    if ps.left.out != ps.right.out:
        return "the outputs differ"
    if al.ctr and ps.left.tr != ps.right.tr:
        return "the branches differ"
    if ps.acc > al.C:
        return f"the cost exceeds the claim ({ps.acc}/{al.W} > {al.C}/{al.W})"
    return None


# ---------------------------------------------------------------- the search


def _options(site: Site, allow_index: bool) -> list[Rule]:
    terms = [Term(c, b) for c in CS for b in BS]
    out = [Rule("none", t) for t in terms]
    # a case split moves the sample on one side only (the peers' alignments all do)
    zero = Term(0, 0)
    split = [(t, zero) for t in terms if t != zero] + [(zero, f) for f in terms if f != zero]
    if site.has_next:
        out += [Rule("next", t, f) for t, f in split]
    if allow_index and site.in_loop:
        out += [Rule("index", t, f) for t, f in split]
    return out


def units(spec: AlignSpec, ss: Sequence[Site]) -> int:
    """W: the cost's unit is ε/W, so that every site's cost per unit of shift and the claim are integers."""
    return math.lcm(*(s.dist.num for s in ss)) * spec.factor.denominator


def search(spec: AlignSpec) -> Alignment | NoAlignment:
    ss = sites(spec.body)
    if not ss:
        return NoAlignment("the program samples no noise")
    loop_index, loop = the_loop(spec.body)
    idx = index_mode(spec.body)
    W = units(spec, ss)
    C = int(spec.factor * W)
    opts = [_options(s, idx is not None) for s in ss]
    weights = [s.dist.den * (W // s.dist.num) for s in ss]
    total = math.prod(len(o) for o in opts)
    combos: Iterable[tuple[Rule, ...]] = itertools.product(*opts)
    if total > MAX_CANDIDATES * 20:
        return NoAlignment(f"too many shift combinations to try ({total})")
    ranked = sorted(combos, key=lambda rs: sum(w * r.proxy() for w, r in zip(weights, rs, strict=True)))
    ranked = ranked[:MAX_CANDIDATES]
    small = scenarios(spec, TRIALS, 1, 6, 3)
    # long streams far below / above the public values (many ⊥ / ⊤), and wide answers (every branch)
    large = (scenarios(spec, 12, 2, 40, 3) + scenarios(spec, 6, 6, 40, 2, -12) + scenarios(spec, 6, 7, 40, 2, 12)
             + scenarios(spec, 40, 8, 8, 40))
    first_failure: str | None = None
    pool = small + large
    for rules in ranked:
        ctr = any(r.mode == "next" for r in rules)
        index = idx if any(r.mode == "index" for r in rules) else None
        al = Alignment(rules, W, C, ctr, index, ss, loop.x)
        bad = None
        for n, sc in enumerate(pool):
            bad = _check(spec, al, sc)
            if bad:
                if n:       # move to front: the next candidates most likely fail on it too
                    pool.insert(0, pool.pop(n))
                break
        if bad is None:
            return al
        first_failure = first_failure or bad
    return NoAlignment(f"no shift of the templates aligns the runs within the claim "
                       f"({min(total, MAX_CANDIDATES)} tried; the cheapest fails: {first_failure})")


# ---------------------------------------------------------------- the invariant


@dataclass(frozen=True)
class Lin:
    """Σ coef·atom + const, over the names l<y>, r<y>, acc, J, D (L1 read so far), w (prophecy)."""

    terms: tuple[tuple[str, Fraction], ...]
    const: Fraction = Fraction(0)

    def eval(self, env: dict[str, int]) -> Fraction:
        return self.const + sum(c * env[n] for n, c in self.terms)


@dataclass(frozen=True)
class Atom:
    """lhs op rhs with op in = <= <> ; `abs` names a distance |r<y> − l<y>|."""

    op: str
    lhs: Lin
    rhs: Lin

    @cached_property
    def _scaled(self) -> tuple[tuple[tuple[str, int], ...], int]:
        """lhs − rhs times its (positive) common denominator: integer arithmetic in `holds`,
        which mining calls a few hundred thousand times."""
        coef: dict[str, Fraction] = {}
        for n, c in self.lhs.terms:
            coef[n] = coef.get(n, Fraction(0)) + c
        for n, c in self.rhs.terms:
            coef[n] = coef.get(n, Fraction(0)) - c
        const = self.lhs.const - self.rhs.const
        den = math.lcm(const.denominator, *(c.denominator for c in coef.values()))
        return tuple((n, int(c * den)) for n, c in coef.items() if c), int(const * den)

    def holds(self, env: dict[str, int]) -> bool:
        terms, k = self._scaled
        v = k + sum(c * env[n] for n, c in terms)
        return v == 0 if self.op == "=" else v <= 0 if self.op == "<=" else v != 0


def lin(*terms: tuple[str, int | Fraction], const: int | Fraction = 0) -> Lin:
    return Lin(tuple((n, Fraction(c)) for n, c in terms if c), Fraction(const))


@dataclass
class Phase:
    guard: tuple[Atom, ...]
    atoms: tuple[Atom, ...]


@dataclass
class Invariant:
    phases: list[Phase]
    index: IndexMode | None
    uses_d: bool
    live: tuple[int, ...]


@cache
def _env_names(nvars: int) -> tuple[tuple[int, str, str, str], ...]:
    """The names `_sample_env` binds for each variable (built once: it runs ~70,000 times)."""
    return tuple((y, f"l{y}", f"r{y}", f"a{y}") for y in range(nvars))


def _sample_env(spec: AlignSpec, h: S.Head, D: int, w: int | None) -> dict[str, int]:
    env = {"J": h.j, "acc": h.acc, "D": D, "w": w if w is not None else 0}
    left, right = h.left, h.right
    nl, nr = len(left), len(right)
    for y, ln, rn, an in _env_names(spec.nvars):
        lv = left[y] if y < nl else 0
        rv = right[y] if y < nr else 0
        env[ln], env[rn], env[an] = lv, rv, abs(rv - lv)
    return env


def _closed(a: P.AExp) -> int | None:
    """The value of an expression without variables (`4 * NN - 2` once NN is a constant)."""
    if isinstance(a, P.AConst):
        return a.z
    if isinstance(a, P.ABin):
        u, v = _closed(a.a), _closed(a.b)
        if u is None or v is None:
            return None
        return {"add": u + v, "sub": u - v, "mul": u * v, "min": min(u, v), "max": max(u, v)}[a.op]
    if isinstance(a, P.AAbs):
        u = _closed(a.a)
        return None if u is None else abs(u)
    return None


def _constants(spec: AlignSpec) -> set[int]:
    out = {0, 1, -1}
    for s in _stmts(spec.body):
        for a in _aexps(s):
            z = _closed(a)
            if z is not None:
                out |= {z, z - 1, z + 1}
    return {c for c in out if abs(c) <= 1000}


def _aexps(  # noqa: C901 (one case per expression)
    s: P.Stmt) -> Iterable[P.AExp]:
    def sub(a: P.AExp) -> Iterable[P.AExp]:
        yield a
        if isinstance(a, P.ABin):
            yield from sub(a.a)
            yield from sub(a.b)
        elif isinstance(a, (P.AAbs, P.ADivC)):
            yield from sub(a.a)
        elif isinstance(a, P.AIdx):
            yield from sub(a.i)

    def bsub(b: P.BExp) -> Iterable[P.AExp]:
        if isinstance(b, P.BCmp):
            yield from sub(b.a)
            yield from sub(b.b)
        elif isinstance(b, P.BNot):
            yield from bsub(b.b)
        elif isinstance(b, P.BBin):
            yield from bsub(b.b)
            yield from bsub(b.c)
    if isinstance(s, P.SAssign):
        yield from sub(s.a)
    elif isinstance(s, P.SSample):
        assert isinstance(s.d, DGeom)
        yield from sub(s.d.center)
    elif isinstance(s, P.SOut):
        yield from sub(s.a)
    elif isinstance(s, P.SIf):
        yield from bsub(s.b)


def _candidates(  # noqa: C901 (one family of atoms after the other)
    spec: AlignSpec, al: Alignment, live: tuple[int, ...], uses_d: bool,
                samples: list[dict[str, int]], steps: list[tuple[dict[str, int], dict[str, int]]]) -> list[Atom]:
    consts = sorted(_constants(spec))
    out: list[Atom] = []
    for y in live:
        ly, ry = f"l{y}", f"r{y}"
        for c in range(-4, 5):
            out.append(Atom("=", lin((ry, 1)), lin((ly, 1), const=c)))
            out.append(Atom("<=", lin((ry, 1)), lin((ly, 1), const=c)))
            out.append(Atom("<=", lin((ly, 1), const=c), lin((ry, 1))))
        for c in consts:
            out += [Atom("<=", lin((ly, 1)), lin(const=c)), Atom("<=", lin(const=c), lin((ly, 1))),
                    Atom("=", lin((ly, 1)), lin(const=c)), Atom("=", lin((ry, 1)), lin(const=c))]
        out += [Atom("<=", lin((ly, 1), const=1), lin(("J", 1))), Atom("<=", lin((ly, 1)), lin(("J", 1)))]
        if al.index is not None:
            out += [Atom("=", lin((ly, 1)), lin(("w", 1))), Atom("=", lin((ry, 1)), lin(("w", 1)))]
        if uses_d:
            out.append(Atom("<=", lin((f"a{y}", 1)), lin(("D", 1))))
    out += [Atom("=", lin(("acc", 1)), lin()), Atom("<=", lin(("acc", 1)), lin(const=al.C))]
    # the costs seen, as bounds: a loop that stops at its first costly release has no counter,
    # and its cost before that release is a constant (the threshold's) below the claim
    seen = sorted({s["acc"] for s in samples if 0 < s["acc"] < al.C})[:4]
    out += [Atom("<=", lin(("acc", 1)), lin(const=c)) for c in seen]
    # the cost against a counter: acc <= alpha + beta * l<y>, beta from the increments
    for y in live:
        ly = f"l{y}"
        incs = [(b["acc"] - a["acc"], b[ly] - a[ly]) for a, b in steps]
        if any(dy < 0 for _, dy in incs) or any(da > 0 and dy <= 0 for da, dy in incs):
            continue
        ratios = [Fraction(da, dy) for da, dy in incs if dy > 0]
        if not ratios:
            continue
        beta = max(ratios)
        alpha = max((Fraction(s["acc"]) - beta * s[ly] for s in samples), default=Fraction(0))
        out.append(Atom("<=", lin(("acc", 1)), lin((ly, beta), const=alpha)))
    if uses_d:
        gammas = sorted({al.weight(s.dist) for s in al.sites})
        for beta_k in (1, 2, 3):
            for g in [0, *gammas]:
                beta = Fraction(beta_k * max(gammas))
                ys: list[int | None] = [None] if g == 0 else list(live)
                for yy in ys:
                    lhs = lin(("acc", 1)) if yy is None else lin(("acc", 1), (f"a{yy}", g))
                    out.append(Atom("<=", lhs, lin(("D", beta))))
    return out


def mine(spec: AlignSpec, al: Alignment) -> Invariant:
    live = live_at_head(spec.body, spec.nvars)
    uses_d = spec.relation.kind in ("one", "l1")
    # short runs, longer ones, and wide public values and answers (no bound on them is mined)
    runs = scenarios(spec, 400, 3, 7, 3) + scenarios(spec, 40, 4, 14, 6) + scenarios(spec, 60, 9, 10, 60)
    by_phase: dict[tuple[str, ...], list[dict[str, int]]] = {}
    steps: list[tuple[dict[str, int], dict[str, int]]] = []
    heads: list[tuple[Scenario, S.Head, int, int | None]] = []
    for sc in runs:
        left, ps = prun(spec, al, sc)
        if ps.bad:
            continue
        w: int | None = None
        if al.index is not None:
            v = left.out[al.index.opos] if al.index.opos < len(left.out) else None
            w = v if isinstance(v, int) and not isinstance(v, bool) else None
        q, q2 = sc.x[spec.npub:], sc.x2[spec.npub:]
        envs = []
        for h in ps.heads:
            D = sum(abs(a - b) for a, b in zip(q[:h.j], q2[:h.j], strict=False))
            env = _sample_env(spec, h, D, w)
            envs.append(env)
            if h.j < sc.k:
                heads.append((sc, h, D, w))
            by_phase.setdefault(_phase_key(h.j, w, al), []).append(env)
        steps += list(zip(envs, envs[1:], strict=False))
    allsamples = [s for v in by_phase.values() for s in v]
    cands = _candidates(spec, al, live, uses_d, allsamples, steps)
    held: dict[tuple[str, ...], list[Atom]] = {}
    for key in _phase_keys(al):
        samples = by_phase.get(key, [])
        if samples:              # a phase no run reaches: no disjunct (every atom would hold vacuously)
            held[key] = [a for a in cands if all(a.holds(s) for s in samples)]
    _houdini(spec, al, live, held, heads)
    phases = [Phase(_guard(key), drop_implied(_guard(key), _prune(tuple(atoms)))) for key, atoms in held.items()]
    if al.index is not None:
        out = f"l{al.index.var}"
        cost = tuple(a for a in phases[-1].atoms if _mentions_only(a, {"acc", "D"} | {f"l{y}" for y in live}) and
                     "acc" in _names(a))
        phases.append(Phase((Atom("<=", lin(("w", 1), const=1), lin(("J", 1))),),
                            (Atom("<>", lin((out, 1)), lin(("w", 1))), *cost)))
    return Invariant(phases, al.index, uses_d, live)


HOUDINI_ROUNDS = 6
HOUDINI_HEADS = 500


def _houdini(spec: AlignSpec, al: Alignment, live: tuple[int, ...], held: dict[tuple[str, ...], list[Atom]],
             heads: list[tuple[Scenario, S.Head, int, int | None]]) -> None:
    """Drop the atoms that are not inductive, Houdini-style: from states near the reachable
    ones that satisfy their phase's candidate invariant (the live variables of both runs
    moved a little), run one iteration on fresh noise and a fresh pair of answers and
    drop every atom of the next phase the result violates, until nothing changes.  The
    runs alone keep atoms that merely held on short streams (e.g. two indices within 4)."""
    rng = random.Random(5)
    picked = rng.sample(heads, min(HOUDINI_HEADS, len(heads)))
    for _ in range(HOUDINI_ROUNDS):
        dropped = False
        for sc, h, D, w in picked:
            key = _phase_key(h.j, w, al)
            if key not in held:
                continue
            # random moves of every live variable, then one variable's distance between the runs swept
            moves: list[tuple[int, int] | None] = [None] * 3
            moves += [(y, c) for y in live for c in range(-5, 6)] if rng.random() < 0.4 else []
            for mv in moves:
                got = _perturbed_step(spec, al, live, sc, h, D, w, held[key], rng, mv)
                if got is None:
                    continue
                env, nkey = got
                if nkey not in held:
                    continue
                keep = [a for a in held[nkey] if a.holds(env)]
                if len(keep) != len(held[nkey]):
                    held[nkey] = keep
                    dropped = True
        if not dropped:
            return


def _perturbed_step(spec: AlignSpec, al: Alignment, live: tuple[int, ...], sc: Scenario, h: S.Head, D: int,
                    w: int | None, atoms: list[Atom], rng: random.Random,
                    move: tuple[int, int] | None = None) -> tuple[dict[str, int], tuple[str, ...]] | None:
    """One iteration from a state near head `h` that satisfies `atoms`: the next head's
    sample and phase, or None (the state is not admissible, the left run halts, the aligned
    run fails, or the left run's output already contradicts the prophecy)."""
    left, right = list(h.left), list(h.right)
    if move is not None:
        right[move[0]] = left[move[0]] + move[1]
    for y in (live if move is None else ()):
        if rng.random() < 0.5:
            left[y] += rng.randint(-3, 3)
        if rng.random() < 0.5:
            right[y] = left[y] + rng.randint(-5, 5) if rng.random() < 0.5 else right[y] + rng.randint(-3, 3)
    here = _sample_env(spec, S.Head(h.j, left, right, h.acc), D, w)   # once, not once per atom
    if not all(a.holds(here) for a in atoms):
        return None
    kind, delta = spec.relation.kind, spec.relation.delta
    budget = delta - D if kind in ("one", "l1") else delta
    if budget < 0:
        return None
    lo, hi = {"increasing": (0, budget), "decreasing": (-budget, 0)}.get(kind, (-budget, budget))
    qj = rng.randint(-3, 3)
    qj2 = qj + (rng.choice((-1, 1)) * rng.randint(0, budget) if kind == "monotone" else rng.randint(lo, hi))
    base = spec.nvars + spec.npub
    left[base + h.j], right[base + h.j] = qj, qj2
    c = S.Ctx(spec.nvars, spec.npub, sc.k)
    _, loop = the_loop(spec.body)
    tape = {i: _noise(rng) for i in range(64)}

    def tf(a: int) -> int:
        return tape.get(a, 0)

    L = S.TState(list(left))
    L.write(loop.x, h.j)
    S.texec(c, tf, loop.body, 0, L)
    o: list[S.OVal] = []
    if al.index is not None:
        if w is None:
            return None
        o = ["bot"] * al.index.opos + [w]
    ps = S.PState(S.TState(list(left)), S.TState(list(right)), h.acc)
    site0 = next((st.index for st in al.sites if st.in_loop), 0)
    ps.left.write(loop.x, h.j)
    ps.right.write(loop.x, h.j)
    S.prun(c, tf, shift_fn(al, c, o, L.tr), al.weight, loop.body, 0, site0, ps)
    if ps.bad or ps.left.halted or ps.left.out != ps.right.out:
        return None
    nxt = S.Head(h.j + 1, ps.left.env, ps.right.env, ps.acc)
    env = _sample_env(spec, nxt, D + abs(qj2 - qj), w)
    if al.index is not None and w is not None and h.j + 1 > w and env[f"l{al.index.var}"] != w:
        return None          # the doomed disjunct's state, not the phase's
    return env, _phase_key(h.j + 1, w, al)


def _names(a: Atom) -> set[str]:
    return {n for n, _ in a.lhs.terms} | {n for n, _ in a.rhs.terms}


def _mentions_only(a: Atom, names: set[str]) -> bool:
    return _names(a) <= names


def _phase_key(j: int, w: int | None, al: Alignment) -> tuple[str, ...]:
    first = "first" if j == 0 else "run"
    if al.index is None:
        return (first,)
    return (first, "before" if w is not None and j <= w else "after")


def _phase_keys(al: Alignment) -> list[tuple[str, ...]]:
    if al.index is None:
        return [("first",), ("run",)]
    return [(f, p) for f in ("first", "run") for p in ("before", "after")]


def _guard(key: tuple[str, ...]) -> tuple[Atom, ...]:
    g = [Atom("=", lin(("J", 1)), lin()) if key[0] == "first" else Atom("<=", lin(const=1), lin(("J", 1)))]
    if len(key) > 1:
        g.append(Atom("<=", lin(("J", 1)), lin(("w", 1))) if key[1] == "before"
                 else Atom("<=", lin(("w", 1), const=1), lin(("J", 1))))
    return tuple(g)


def _canon(a: Atom) -> tuple[tuple[tuple[str, Fraction], ...], Fraction]:
    """lhs − rhs as (linear part sorted, constant)."""
    coef: dict[str, Fraction] = {}
    for n, c in a.lhs.terms:
        coef[n] = coef.get(n, Fraction(0)) + c
    for n, c in a.rhs.terms:
        coef[n] = coef.get(n, Fraction(0)) - c
    return tuple(sorted((n, c) for n, c in coef.items() if c)), a.lhs.const - a.rhs.const


def _prune(atoms: tuple[Atom, ...]) -> tuple[Atom, ...]:
    """Keep the equalities and, per linear part, the tightest bound not implied by an equality."""
    eqs: set[tuple[tuple[str, Fraction], ...]] = set()
    for a in atoms:
        if a.op == "=":
            lp, _ = _canon(a)
            eqs.add(lp)
            eqs.add(tuple((n, -c) for n, c in lp))
    best: dict[tuple[tuple[str, Fraction], ...], tuple[Fraction, Atom]] = {}
    out: list[Atom] = []
    for a in atoms:
        lp, k = _canon(a)
        if a.op != "<=":
            out.append(a)
            continue
        if lp in eqs:
            continue
        if lp not in best or k > best[lp][0]:     # lp + k <= 0: the largest k is the tightest
            best[lp] = (k, a)
    return tuple(out) + tuple(a for _, a in best.values())
