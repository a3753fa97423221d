"""The Coq file of a noise-pipeline claim (templates/snapping.v.j2).

The mechanism is written from the spec's steps; the lemmas state the preimage
intervals and case probabilities in the canonical forms of
theories/Noise/SnapPreimage.v and SnapCases.v, which Python checks against its
own sympy case table before rendering (a disagreement is a bug here, and
nothing is rendered).  Coq proves every lemma for all parameter values; tactics
are proposals, tried by the prover layer.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations.core import expr as E
from obligations.core.document import Tactic
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.errors import InternalError
from obligations.noise.analysis import SnapUnfold, math_text, tidy
from obligations.noise.spec import PipelineSpec

# Tactics proposed for each kind of lemma, tried in order by the prover session.
TACTICS: dict[str, tuple[str, ...]] = {
    "param": ("unfold {name}; lra.", "lra."),
    "noise": ("intros u s Hu; destruct s; unfold sgn; field; snap_side.",
              "intros u s Hu; destruct s; unfold sgn; snap_unfold_consts; field; lra.",
              "intros u s Hu; reflexivity."),
    "normal": ("intros fa u s Hu; unfold {lit}, {nf}; rewrite ({lit}_noise u s Hu); reflexivity.",),
    "preimage": ("snap_preimage {lemma}.",),
    "grid": ("snap_grid.",),
    "case": ("snap_case {lemma} {pre_plus} {pre_minus}.",),
    "claim": ("snap_side.", "nra.", "field_simplify; snap_side.", "unfold Rdiv; nra."),
}


@dataclass(frozen=True)
class Lemma:
    """One obligation of the file: a named statement and the tactics proposed for it."""

    name: str
    kind: str
    statement: str
    tactics: tuple[str, ...]
    text: str          # the obligation in readable math (a comment above it)

    @property
    def candidates(self) -> tuple[Tactic, ...]:
        return tuple(Tactic(t) for t in self.tactics)


def coq_r(e: E.Expr) -> str:
    """A checked pipeline expression as a Coq term of type R (names are validated parameters)."""
    if isinstance(e, E.Num):
        return r_lit(e.value)
    if isinstance(e, E.Var):
        return e.name
    if isinstance(e, E.Neg):
        return f"(- {coq_r(e.operand)})"
    if isinstance(e, E.BinOp):
        a, b = coq_r(e.left), coq_r(e.right)
        if e.op == "**":
            n = E.compile_exact(e.right)({})
            assert isinstance(n, Fraction) and n.denominator == 1
            return f"({a} ^ {int(n)})" if n >= 0 else f"(/ {a} ^ {-int(n)})"
        return f"({a} {e.op} {b})"
    if isinstance(e, E.Call):
        return f"({e.fn} {coq_r(e.args[0])})"
    raise InternalError(f"unexpected expression {E.to_text(e)}")


def coq_sym(e: sympy.Expr) -> str:
    """A sympy expression over the parameters (the Laplace rate) as a Coq term of type R."""
    if isinstance(e, sympy.Symbol):
        return str(e.name)
    if isinstance(e, sympy.Rational):
        return r_lit(Fraction(int(e.p), int(e.q)))
    if isinstance(e, sympy.Add):
        return "(" + " + ".join(coq_sym(a) for a in e.args) + ")"
    if isinstance(e, sympy.Mul):
        return "(" + " * ".join(coq_sym(a) for a in e.args) + ")"
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        n = int(e.exp)
        if n == -1:
            return f"(/ {coq_sym(e.base)})"
        return f"({coq_sym(e.base)} ^ {n})" if n >= 0 else f"(/ {coq_sym(e.base)} ^ {-n})"
    if isinstance(e, sympy.exp):
        return f"(exp {coq_sym(e.args[0])})"
    if isinstance(e, sympy.log):
        return f"(ln {coq_sym(e.args[0])})"
    raise InternalError(f"cannot write {e} in Coq")


TEMPLATE = Path(__file__).parent / "templates" / "snapping.v.j2"

# The library lemma (Noise/SnapCases.v) that proves each case of the case table.
CASE_LEMMAS = {"below": "snap_case_below", "bucket": "snap_case_bucket", "above": "snap_case_above",
               "top_far": "snap_case_top_far", "top_near": "snap_case_top_near",
               "bottom_near": "snap_case_bot_near", "bottom_far": "snap_case_bot_far"}


def render(u: SnapUnfold) -> Rendered:
    """The file, and its case-table obligations in order (the prover may replace their tactics)."""
    spec = u.spec
    name = spec.name
    instance = u.witness.instance if u.expected == Verdict.REFUTED and u.witness else None
    ctx = _context(u, instance)
    theorems = ((f"{name}_not_dp",) if instance else
                (f"{name}_dp_events", f"{name}_lifting", f"{name}_total")
                + _lifting_theorems(name, u.spec.out_clamp is not None) + (f"{name}_dp",))
    rendered = render_template(TEMPLATE, name, ctx, "PreludeSnap", theorems, session_first=True)
    return replace(rendered, lemmas=tuple(ctx["lemmas"]))


def _lifting_theorems(name: str, clamped: bool) -> tuple[str, ...]:
    """The theorems on the noise lifting, every event and mass one (the claim `_dp` stays last: it is the headline)."""
    events = () if clamped else (f"{name}_events_limit",)
    return (f"{name}_noise_lifting", f"{name}_dp_every_event", f"{name}_branch_lifting",
            f"{name}_distribution") + events


def _context(u: SnapUnfold, instance: dict[str, str] | None) -> dict[str, Any]:
    spec = u.spec
    name = spec.name
    symbolic, numeric = [], []
    for p in spec.params:
        value = instance.get(p.name) if instance else None
        if p.kind == "number" or value is not None:
            v = p.value if p.kind == "number" and p.value is not None else Fraction(str(value))
            numeric.append({"name": p.name, "value": r_lit(v), "text": str(v),
                            "rel": "<" if v > 0 else "<="})
        else:
            symbolic.append({"name": p.name, "rel": "<" if p.kind == "positive" else "<="})
    r = coq_sym(u.rate_named)
    lam = coq_r(spec.grid)
    b = coq_r(spec.out_clamp) if spec.out_clamp is not None else None
    c = "fa" if b is None else f"clamp {b} fa"
    claim, sens = coq_r(spec.epsilon), coq_r(spec.sensitivity)
    # the query distance the DP theorem is proved for: Δ, or 2B when clamping makes it smaller
    distance = f"(2 * {b})" if u.distance == "2B" and b is not None else sens
    noise_nf = f"sgn s * (/ {r} * ln u)" if r.isidentifier() else f"sgn s * (/ ({r}) * ln u)"
    lemmas = _lemmas(u, name, r, lam, b, c, numeric, claim, distance, literal_noise(u.spec), noise_nf)
    if u.expected != Verdict.REFUTED:
        lemmas += _lifting_lemmas(name, r, b, sens, claim, distance, _dist_tac(b, u.distance == "2B"))
    return dict(
        **header(name, spec.path, spec.sha256, spec.description), symbolic=symbolic, numeric=numeric,
        mechanism=_mechanism(u, lam, b, literal_noise(u.spec)), normal_form=_mechanism(u, lam, b, noise_nf),
        steps_text=comment(_steps_text(u)), rate=r, lam=lam, B=b,
        sensitivity=sens, distance=distance, distance_2b=u.distance == "2B" and b is not None, claim=claim,
        lemmas=lemmas, c=c,
        klo=f"(IZR k - / 2) * {lam}", khi=f"(IZR k + / 2) * {lam}",
        g=f"(IZR (Zceil ({b} / {lam})) - / 2) * {lam}" if b else "",
        gb=f"(IZR (Zfloor (- {b} / {lam})) + / 2) * {lam}" if b else "",
        ties="TiesUp" if spec.ties == "up" else "TiesDown", clamped=b is not None,
        witness=_witness(u, lam, r, b) if instance else None,
        table=[comment(line) for line in _table_lines(u)])


def _dist_tac(b: str | None, two_b: bool) -> str:
    """Closes |c - c'| <= distance: the query values themselves, or clamped (1-Lipschitz, or 2B apart)."""
    if b is None:
        return "exact Hd"
    if two_b:
        return "apply clamp_dist_le_2b; snap_side"
    return "eapply Rle_trans; [apply clamp_lipschitz; snap_side | exact Hd]"


def _mechanism(u: SnapUnfold, lam: str, b: str | None, noise: str) -> str:
    query = "fa" if b is None else f"clamp {b} fa"
    ties = "TiesUp" if u.spec.ties == "up" else "TiesDown"
    out = f"{lam} * IZR (round_grid {ties} {lam} ({query} + {noise}))"
    return out if b is None else f"clamp {b} ({out})"


def literal_noise(spec: PipelineSpec) -> str:
    """The noise exactly as the spec's steps build it from u and the sign s."""
    y = "u"
    for st in spec.noise:
        if st.op in ("ln", "exp"):
            y = f"{st.op} {paren(y)}"
        elif st.op == "sign":
            y = f"sgn s * {paren(y)}"
        elif st.op == "scale":
            assert st.arg is not None
            y = f"{coq_r(st.arg)} * {paren(y)}"
        else:
            assert st.arg is not None
            y = f"{paren(y)} + {coq_r(st.arg)}"
    return paren(y)


def paren(t: str) -> str:
    if t.isidentifier():
        return t
    if t.startswith("(") and t.endswith(")"):
        depth = 0
        for i, ch in enumerate(t):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and i < len(t) - 1:
                return f"({t})"
        return t
    return f"({t})"


def _steps_text(u: SnapUnfold) -> str:
    parts = []
    for st in u.spec.noise:
        parts.append(st.op if st.arg is None else f"{st.op} {E.to_text(st.arg)}")
    s = u.spec
    parts.append("add f(a)" + (f" clamped to [-{E.to_text(s.query_clamp)}, {E.to_text(s.query_clamp)}]"
                               if s.query_clamp is not None else ""))
    parts.append(f"round to the grid {E.to_text(s.grid)} (ties {s.ties})")
    if s.out_clamp is not None:
        parts.append(f"clamp to [-{E.to_text(s.out_clamp)}, {E.to_text(s.out_clamp)}]")
    return "u ← (0,1], S ← ±1; " + "; ".join(parts)


def _lemmas(u: SnapUnfold, name: str, r: str, lam: str, b: str | None, c: str,
            numeric: list[dict[str, str]], claim: str, distance: str, noise_lit: str,
            noise_nf: str) -> list[Lemma]:
    up = u.spec.ties == "up"
    lo, hi = "<=" if up else "<", "<" if up else "<="      # S = +1: lo u hi
    klo, khi = f"(IZR k - / 2) * {lam}", f"(IZR k + / 2) * {lam}"
    nf = f"{name}_nf"
    out: list[Lemma] = []
    for p in numeric:
        out.append(Lemma(f"{p['name']}_pos", "param", f"0 {p['rel']} {p['name']}",
                         tuple(t.format(name=p["name"]) for t in TACTICS["param"]), "a parameter's sign"))
    out.append(Lemma(f"{name}_noise", "noise",
                     f"forall u s, 0 < u <= 1 -> {noise_lit} = {noise_nf}",
                     TACTICS["noise"], "the spec's noise steps, in normal form"))
    out.append(Lemma(f"{name}_eq", "normal",
                     f"forall fa u s, 0 < u <= 1 -> {name} fa u s = {nf} fa u s",
                     tuple(t.format(lit=name, nf=nf) for t in TACTICS["normal"]),
                     "the spec's steps give the normal form c + S·(1/r)·ln u of the noise"))
    ties = "up" if u.spec.ties == "up" else "down"

    def preimage(where: str, sign: str) -> tuple[str, ...]:
        """The proof by the library's preimage lemma for this output, tie rule and sign."""
        lemma = "_".join(p for p in ("snap_pre", where, ties, sign) if p)
        return tuple(t.format(lemma=lemma) for t in TACTICS["preimage"])

    grid_out = f"{lam} * IZR k"
    interior = "" if b is None else f"- {b} < {grid_out} < {b} -> "
    pre_plus, pre_minus = f"{name}_pre_plus", f"{name}_pre_minus"
    out.append(Lemma(pre_plus, "preimage",
                     f"forall fa k u, {interior}0 < u <= 1 -> ({nf} fa u SPlus = {grid_out} <-> "
                     f"exp ({r} * ({klo} - {c})) {lo} u {hi} exp ({r} * ({khi} - {c})))",
                     preimage("clamp" if b else "", "plus"), "the preimage of the output lam*k for S = +1"))
    out.append(Lemma(pre_minus, "preimage",
                     f"forall fa k u, {interior}0 < u <= 1 -> ({nf} fa u SMinus = {grid_out} <-> "
                     f"exp ({r} * ({c} - {khi})) {hi} u {lo} exp ({r} * ({c} - {klo})))",
                     preimage("clamp" if b else "", "minus"), "the preimage of the output lam*k for S = -1"))
    g = gb = ""
    if b is not None:
        g = f"(IZR (Zceil ({b} / {lam})) - / 2) * {lam}"
        gb = f"(IZR (Zfloor (- {b} / {lam})) + / 2) * {lam}"
        out += [
            Lemma(f"{name}_pre_top_plus", "preimage",
                  f"forall fa u, 0 < u <= 1 -> ({nf} fa u SPlus = {b} <-> exp ({r} * ({g} - {c})) {lo} u)",
                  preimage("top", "plus"), "the preimage of the output B for S = +1"),
            Lemma(f"{name}_pre_top_minus", "preimage",
                  f"forall fa u, 0 < u <= 1 -> ({nf} fa u SMinus = {b} <-> u {lo} exp ({r} * ({c} - {g})))",
                  preimage("top", "minus"), "the preimage of the output B for S = -1"),
            Lemma(f"{name}_pre_bot_plus", "preimage",
                  f"forall fa u, 0 < u <= 1 -> ({nf} fa u SPlus = - {b} <-> u {hi} exp ({r} * ({gb} - {c})))",
                  preimage("bot", "plus"), "the preimage of the output -B for S = +1"),
            Lemma(f"{name}_pre_bot_minus", "preimage",
                  f"forall fa u, 0 < u <= 1 -> ({nf} fa u SMinus = - {b} <-> exp ({r} * ({c} - {gb})) {hi} u)",
                  preimage("bot", "minus"), "the preimage of the output -B for S = -1"),
        ]
        rng = (f"forall fa u s y, 0 < u <= 1 -> {nf} fa u s = y -> "
               f"y = {b} \\/ y = - {b} \\/ exists k, y = {grid_out} /\\ - {b} < {grid_out} < {b}")
    else:
        rng = f"forall fa u s y, 0 < u <= 1 -> {nf} fa u s = y -> exists k, y = {grid_out}"
    out.append(Lemma(f"{name}_grid", "grid", rng, TACTICS["grid"], "every output is one of these"))

    def e(x: str) -> str:
        return f"exp ({r} * ({x}))"

    def case(key: str, plus: str, minus: str, hyp: str, y: str, prob: str, k: bool) -> Lemma:
        tac = tuple(t.format(lemma=CASE_LEMMAS[key], pre_plus=plus, pre_minus=minus) for t in TACTICS["case"])
        binders = "fa k" if k else "fa"
        return Lemma(f"{name}_case_{key}", "case",
                     f"forall {binders}, {hyp} -> snap_prob ({nf} fa) ({y}) ({prob})", tac, _case_text(u, key))
    out += [
        case("below", pre_plus, pre_minus, f"{interior}{khi} <= {c}", grid_out,
             f"/ 2 * ({e(f'{khi} - {c}')} - {e(f'{klo} - {c}')})", True),
        case("bucket", pre_plus, pre_minus, f"{interior}{klo} < {c} < {khi}", grid_out,
             f"/ 2 * (2 - {e(f'{klo} - {c}')} - {e(f'{c} - {khi}')})", True),
        case("above", pre_plus, pre_minus, f"{interior}{c} <= {klo}", grid_out,
             f"/ 2 * ({e(f'{c} - {klo}')} - {e(f'{c} - {khi}')})", True),
    ]
    if b is not None:
        top, bot = (f"{name}_pre_top_plus", f"{name}_pre_top_minus"), (f"{name}_pre_bot_plus", f"{name}_pre_bot_minus")
        out += [
            case("top_far", *top, f"{c} <= {g}", b, f"/ 2 * {e(f'{c} - {g}')}", False),
            case("top_near", *top, f"{g} <= {c}", b, f"/ 2 * (2 - {e(f'{g} - {c}')})", False),
            case("bottom_near", *bot, f"{c} <= {gb}", f"- {b}", f"/ 2 * (2 - {e(f'{c} - {gb}')})", False),
            case("bottom_far", *bot, f"{gb} <= {c}", f"- {b}", f"/ 2 * {e(f'{gb} - {c}')}", False),
        ]
    if u.expected != Verdict.REFUTED:
        out.append(Lemma(f"{name}_claim_ge", "claim", f"{r} * {distance} <= {claim}", TACTICS["claim"],
                         "the claimed epsilon is at least r·Δ" if u.distance != "2B" else
                         "the claimed epsilon is at least r·2B (clamped query values are at most 2B apart)"))
    return out


def _lifting_lemmas(name: str, r: str, b: str | None, sens: str, claim: str, distance: str,
                    dist_tac: str) -> list[Lemma]:
    """The witnesses on the noise for neighbours fa, fa': the mirror coupling (delta = 0) and seed
    000's per-sign pairing (delta = 1 - e^(-claim)), each closed by its library theorem once the
    mechanism is seen to depend on the noise only through c + noise (the normal form)."""
    c, c2 = ("fa", "fa'") if b is None else (f"clamp {b} fa", f"clamp {b} fa'")
    d, nf = f"({c} - {c2})", f"{name}_nf"
    side = f"[snap_side | {dist_tac} | exact {name}_claim_ge |]"
    mirror = Lemma(
        f"{name}_noise_lifting", "lifting",
        f"forall fa fa', Rabs (fa - fa') <= {sens} ->\n"
        f"  set_lifting_with (fun w w' => {name} fa (fst w) (snd w) = {name} fa' (fst w') (snd w'))\n"
        f"    (exp ({claim})) 0 noise_pr noise_pr (mirror_left {r} {d}) (mirror_right {r} {d})",
        (f"intros fa fa' Hd; apply (snap_mirror_lifting {r} {distance}); {side}; "
         f"intros u s u' s' Hu Hu' H; rewrite ({name}_eq fa u s Hu), ({name}_eq fa' u' s' Hu'); "
         f"unfold {nf}; rewrite H; reflexivity.",),
        f"The mirror coupling (Noise/Mirror.v): witnesses of Definition 3 on the noise (u, S) with delta = 0; "
        f"it pairs w with the noise whose Laplace value is larger by d = {c} - {c2}, so both runs give the same output")
    branch = Lemma(
        f"{name}_branch_lifting", "lifting",
        f"forall fa fa', Rabs (fa - fa') <= {sens} -> forall s,\n"
        f"  set_lifting_with (fun u u' => branch_rel {r} {d} s u u' /\\ {nf} fa u s = {nf} fa' u' s)\n"
        f"    (exp ({claim})) (1 - exp (- ({claim}))) uouter uouter (branch_left {r} {d} s) (branch_right {r} {d} s)",
        (f"intros fa fa' Hd s; apply (snap_branch_lifting_same {r} {distance}); {side}; "
         f"intros u u' Hu Hu' H; unfold {nf}; rewrite H; reflexivity.",),
        "Seed 000's pairing, each sign with itself (u' = e^(S r d) u; Noise/BranchCoupling.v): delta = 1 - e^(-claim), "
        "and on the sign it stretches no witnesses do better (branch_lifting_tight); partners may lie above 1, "
        "so the outputs are those of the normal form, defined for every u > 0")
    return [mirror, branch]


def _case_text(u: SnapUnfold, key: str) -> str:
    c = next(c for c in u.cases if c.key == key)
    return (f"case {key}: {c.condition}; S=+1: u in {c.clipped[0].text()}; "
            f"S=-1: u in {c.clipped[1].text()}; Pr = {c.prob}")


def _witness(u: SnapUnfold, lam: str, r: str, b: str | None) -> dict[str, Any]:
    w = u.witness
    assert w is not None
    fa, fa2, k = r_lit(w.fa), r_lit(w.fa2), f"({w.k})"
    c1, c2 = (fa, fa2) if b is None else (f"clamp {b} {fa}", f"clamp {b} {fa2}")
    if w.case == "top":   # the output B, both clamped values at or below g: Pr = e^{r(c - g)}/2
        assert b is not None
        g = f"(IZR (Zceil ({b} / {lam})) - / 2) * {lam}"
        return {"case": "top", "fa": fa, "fa2": fa2, "k": k, **_witness_comment(w), "d": f"{r} * ({c1} - {c2})",
                "x1": f"{r} * ({c1} - {g})", "x2": f"{r} * ({c2} - {g})",
                "ceil": f"rewrite (Zceil_imp ({w.ceil}) ({b} / {lam})) by (rewrite minus_IZR; snap_side); ",
                "unclamp": f"rewrite ?(clamp_id {b} {fa}), ?(clamp_id {b} {fa2}) by snap_side; "}
    x = [f"{r} * ((IZR {k} {op} / 2) * {lam} - {cc})" for op in ("+", "-") for cc in (c1, c2)]
    return {"case": "below", "fa": fa, "fa2": fa2, "k": k, **_witness_comment(w),
            "d": f"{r} * ({c2} - {c1})", "x1": x[0], "y1": x[1], "x2": x[2],
            "y2": x[3],
            "unclamp": "" if b is None else f"rewrite ?(clamp_id {b} {fa}), ?(clamp_id {b} {fa2}) by snap_side; "}


def _witness_comment(w: Any) -> dict[str, str]:
    """The witness's probabilities as the file's comment shows them (as `show` writes them)."""
    return {"p": math_text(tidy(w.p)), "p2": math_text(tidy(w.p2)), "ratio": math_text(tidy(w.ratio)),
            "claim": math_text(w.claim)}


def _table_lines(u: SnapUnfold) -> list[str]:
    return [f"{c.key}: {c.condition}: S=+1 u in {c.clipped[0].text()}, S=-1 u in {c.clipped[1].text()}, "
            f"Pr = {c.prob}" for c in u.cases]
