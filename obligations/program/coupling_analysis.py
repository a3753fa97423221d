"""The alignment search for all-k programs: which programs are in the sparse-vector
fragment, and which shifts of the noise align two neighbouring runs.

A program of the fragment samples a noisy threshold tn = T + η (scale s_t), then for
each stream element q_i compares q_i + ν_i (noise of scale s_q; or q_i itself when
the program adds no query noise) with tn: above, it releases ⊤ (or the noisy value)
and stops after c of them (or never); below, it releases ⊥.  An alignment shifts η
by dt and ν_i by a + b·(q'_i − q_i) on ⊤ answers, by a' + b'·(q'_i − q_i) on ⊥
answers (the templates of CheckDP and ShadowDP).  The search enumerates small
integer templates and keeps those that preserve the output on a grid of integer
cases; the cheapest whose cost is bounded for every k is a hint: Coq proves its side
conditions for all integers (`lia`) or the file is not accepted.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from obligations.program import spec as P
from obligations.program.align.spec import K_LENGTH, STREAM_BASE, DGeom
from obligations.program.coupling_spec import CouplingSpec

SHIFTS = range(-3, 4)           # the integers tried for dt, a, b
GRID_TN = range(-3, 4)
GRID_Q = range(-2, 3)
GRID_N = range(-6, 7)


@dataclass(frozen=True)
class Shape:
    """A program of the sparse-vector fragment, read off its IR."""

    threshold: int                    # T, the threshold's centre
    st: tuple[int, int]               # threshold noise scale num/den
    sq: tuple[int, int] | None     # query noise scale, None: no query noise
    release: str                      # "top" or "value" (the noisy answer is released)
    cutoff: int | None             # the number of ⊤ after which it stops; None: never
    counted: bool                     # the cutoff is kept by a counter (else by `stop`)
    delta: int


@dataclass(frozen=True)
class RnmShape:
    """Report-noisy-max: best := 0; arg := 0; for each q_i: an := q_i + noise (scale sq);
    if i == 0 or an > best: best := an, arg := i; release arg."""

    sq: tuple[int, int]
    delta: int


@dataclass(frozen=True)
class Outside:
    """The program is outside the fragment: where, and which construct."""

    field: str
    message: str


@dataclass(frozen=True)
class Alignment:
    dt: int
    top: tuple[int, int]              # a, b: ν shifted by a + b·(q' − q) on ⊤ answers
    m: int                            # max |a + b·δ| over |δ| ≤ Δ
    cost: Fraction                    # in units of ε

    def top_text(self) -> str:
        a, b = self.top
        return f"{a} + ({b})·(q' − q)"


@dataclass(frozen=True)
class NoAlignment:
    reason: str


Search = Alignment | NoAlignment


def shape(spec: CouplingSpec) -> Shape | RnmShape | Outside:
    """The fragment's parameters, or the first construct outside it."""
    if spec.body and isinstance(spec.body[-1], P.SOut):
        return _rnm_shape(spec)
    return _svt_shape(spec)


def _rnm_shape(spec: CouplingSpec) -> RnmShape | Outside:
    body = spec.body
    f = "program.body"
    want = "report-noisy-max reads: `best := 0; arg := 0; for i, a in q: an ~ a + noise; " \
           "if i == 0 or an > best: best := an; arg := i`, then `output: arg`"
    if len(body) != 4 or body[:2] != (P.SAssign(0, P.AConst(0)), P.SAssign(1, P.AConst(0))):
        return Outside(f, want)
    loop, out = body[2], body[3]
    if not isinstance(loop, P.SFor) or loop.x != 2 or loop.n != K_LENGTH or len(loop.body) != 3:
        return Outside(f"{f}[2]", want)
    if out != P.SOut(P.AVar(1)):
        return Outside(f"{f}[3]", "the release is the index of the largest noisy answer (`output: arg`); "
                       "releasing anything else (the maximum itself) is outside the fragment")
    pre, sample, test = loop.body
    if not (isinstance(pre, P.SAssign) and pre.x == 3 and isinstance(sample, P.SSample) and sample.x == 4
            and isinstance(sample.d, DGeom) and sample.d.center == P.AVar(3)):
        return Outside(f"{f}[2].do", want)
    cond = P.BBin("or", P.BCmp("eq", P.AVar(2), P.AConst(0)), P.BCmp("lt", P.AVar(0), P.AVar(4)))
    if test != P.SIf(cond, (P.SAssign(0, P.AVar(4)), P.SAssign(1, P.AVar(2))), ()):
        return Outside(f"{f}[2].do[1]", want)
    return RnmShape((sample.d.num, sample.d.den), spec.delta_q)


def _svt_shape(spec: CouplingSpec) -> Shape | Outside:  # noqa: C901 (one branch per node kind)
    body = spec.body
    f = "program.body"
    if not body or not isinstance(body[0], P.SSample) or not isinstance(body[0].d, DGeom):
        return Outside(f"{f}[0]", "the program starts by sampling the noisy threshold "
                       "(`sample: {var: tn, from: {geometric: {scale: s, center: T}}}`)")
    first = body[0]
    assert isinstance(first.d, DGeom)
    if not isinstance(first.d.center, P.AConst):
        return Outside(f"{f}[0].sample.from.geometric.center", "the threshold is a constant (a parameter)")
    tn = first.x
    rest = body[1:]
    count_slot = None
    if rest and isinstance(rest[0], P.SAssign):
        if rest[0].a != P.AConst(0):
            return Outside(f"{f}[1]", "the only assignment before the loop sets a counter to 0")
        count_slot, rest = rest[0].x, rest[1:]
    if len(rest) != 1 or not isinstance(rest[0], P.SFor) or rest[0].n != K_LENGTH:
        return Outside(f"{f}[{len(body) - len(rest)}]", "after the threshold (and a counter) comes one loop "
                       "over the stream, and nothing after it")
    loop = rest[0]
    lf = f"{f}[{len(body) - 1}].do"
    pre, *stmts = loop.body
    assert isinstance(pre, P.SAssign) and isinstance(pre.a, P.AIdx) and pre.a.base == STREAM_BASE
    a_slot = pre.x
    sq = None
    x_slot = a_slot
    if stmts and isinstance(stmts[0], P.SSample):
        d = stmts[0].d
        if not isinstance(d, DGeom) or d.center != P.AVar(a_slot):
            return Outside(f"{lf}[0]", "the query noise is centred at the stream element")
        sq, x_slot = (d.num, d.den), stmts[0].x
        stmts = stmts[1:]
    if len(stmts) != 1 or not isinstance(stmts[0], P.SIf):
        return Outside(lf, "the loop body is: sample the noisy answer (optional), then one `if`")
    cond = stmts[0]
    if cond.b != P.BCmp("le", P.AVar(tn), P.AVar(x_slot)):
        return Outside(f"{lf}.if", "the test compares the (noisy) answer with the noisy threshold: "
                       "\"an >= tn\"")
    if cond.orelse != (P.SSimple("bot"),):
        return Outside(f"{lf}.else", "below the threshold the program releases ⊥ (`else: [bot]`)")
    then = cond.then
    if not then:
        return Outside(f"{lf}.then", "above the threshold the program releases ⊤ or the answer")
    if then[0] == P.SSimple("top"):
        release = "top"
    elif isinstance(then[0], P.SOut) and then[0].a in (P.AVar(x_slot), P.AVar(a_slot)):
        release = "value"
    else:
        return Outside(f"{lf}.then[0]", "above the threshold the program releases ⊤ or the answer")
    tail = then[1:]
    counted = False
    if tail == ():
        cutoff: int | None = None
    elif tail == (P.SSimple("stop"),):
        cutoff = 1
    elif (count_slot is not None and len(tail) == 2
          and tail[0] == P.SAssign(count_slot, P.ABin("add", P.AVar(count_slot), P.AConst(1)))
          and isinstance(tail[1], P.SIf) and tail[1].then == (P.SSimple("stop"),) and tail[1].orelse == ()
          and isinstance(tail[1].b, P.BCmp) and tail[1].b.op == "le" and tail[1].b.b == P.AVar(count_slot)
          and isinstance(tail[1].b.a, P.AConst) and tail[1].b.a.z >= 1):
        cutoff, counted = tail[1].b.a.z, True
    else:
        return Outside(f"{lf}.then", "after the release: `stop`, nothing (no cutoff), or "
                       "`count := count + 1; if count >= c: [stop]` with count set to 0 before the loop")
    if count_slot is not None and not counted:
        return Outside(f"{f}[1]", "a counter is set but the loop does not count")
    return Shape(first.d.center.z, (first.d.num, first.d.den), sq, release, cutoff, counted, spec.delta_q)


# ---------------------------------------------------------------- the search


def _top_ok(s: Shape, dt: int, a: int, b: int) -> bool:
    """Above the threshold, the neighbour's aligned run is above too and releases the same."""
    for tn, q, d, n in itertools.product(GRID_TN, GRID_Q, range(-s.delta, s.delta + 1), GRID_N):
        q2 = q + d
        noisy = s.sq is not None
        x = q + n if noisy else q
        shift = a + b * d if noisy else 0
        x2 = q2 + n + shift if noisy else q2
        if x >= tn and (x2 < tn + dt or (s.release == "value" and x2 != x)):
            return False
    return True


def _bot_ok(s: Shape, dt: int, a: int, b: int) -> bool:
    for tn, q, d, n in itertools.product(GRID_TN, GRID_Q, range(-s.delta, s.delta + 1), GRID_N):
        q2 = q + d
        noisy = s.sq is not None
        x = q + n if noisy else q
        x2 = q2 + n + (a + b * d) if noisy else q2
        if x < tn and x2 >= tn + dt:
            return False
    return True


def search_rnm(s: RnmShape) -> Search:
    """The cheapest shift f = a + b·(q' − q) of the winner's noise lifting it Δ above its own
    value (every other neighbour answer is at most Δ above the original)."""
    deltas = range(-s.delta, s.delta + 1)
    best: Alignment | None = None
    for a, b in itertools.product(SHIFTS, SHIFTS):
        if all(s.delta <= d + a + b * d for d in deltas):
            m = max(abs(a + b * d) for d in deltas)
            cand = Alignment(0, (a, b), m, Fraction(m * s.sq[1], s.sq[0]))
            if best is None or (cand.cost, abs(a), abs(b)) < (best.cost, abs(best.top[0]), abs(best.top[1])):
                best = cand
    if best is None:
        return NoAlignment("no shift of the winner's noise lifts it Δ above its value")
    if best.cost > 1:
        return NoAlignment(f"the cheapest alignment preserving the output costs {best.cost}·ε > ε")
    return best


def search(s: Shape) -> Search:
    """The cheapest alignment whose cost is bounded for every k (a hint for Coq), or why none is."""
    templates = list(itertools.product(SHIFTS, SHIFTS)) if s.sq is not None else [(0, 0)]
    preserving: list[tuple[int, tuple[int, int], tuple[int, int]]] = []
    for dt in SHIFTS:
        tops = [t for t in templates if _top_ok(s, dt, *t)]
        if not tops:
            continue
        bots = [t for t in templates if _bot_ok(s, dt, *t)]
        preserving += [(dt, t, u) for t in tops for u in bots]
    if not preserving:
        return NoAlignment("no shift of the threshold noise (dt in -3..3) and of the query noise "
                           "(a + b·(q' − q), a, b in -3..3, on each branch) preserves the output"
                           + (": the answers carry no noise to shift" if s.sq is None else
                              (": the released noisy answer pins the query shift to q − q', which "
                               "cannot also move it past the shifted threshold" if s.release == "value"
                               else "")))
    best: Alignment | None = None
    unbounded = False
    for dt, (a, b), (a2, b2) in preserving:
        m = max(abs(a + b * d) for d in range(-s.delta, s.delta + 1))
        m_bot = max(abs(a2 + b2 * d) for d in range(-s.delta, s.delta + 1))
        if m_bot != 0 or (m != 0 and s.cutoff is None):
            unbounded = True       # a shift on every ⊥ (or on unboundedly many ⊤): cost grows with k
            continue
        assert s.sq is not None or m == 0
        cost = Fraction(abs(dt) * s.st[1], s.st[0])
        if m and s.sq is not None and s.cutoff is not None:
            cost += Fraction(s.cutoff * m * s.sq[1], s.sq[0])
        cand = Alignment(dt, (a, b), m, cost)
        key = (cost, abs(dt), abs(a), abs(b))
        if best is None or key < (best.cost, abs(best.dt), abs(best.top[0]), abs(best.top[1])):
            best = cand
    if best is None:
        return NoAlignment("every alignment that preserves the output shifts the query noise of every ⊥ "
                           "answer" + (" or of unboundedly many ⊤ answers (no cutoff)" if s.cutoff is None
                                       else "") + ": its cost grows with k" if unbounded else
                           "no alignment preserves the output")
    if best.cost > 1:
        return NoAlignment(f"the cheapest alignment preserving the output costs {best.cost}·ε > ε")
    if s.release != "top" or s.sq is None:
        return NoAlignment("an alignment exists but the Coq library's sparse-vector theorem covers "
                           "programs releasing ⊤ with query noise only")
    return best
