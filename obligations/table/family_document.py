"""The Coq file of a family claim: the spec's formula as a Coq function of its parameters,
proved equal to a library family case by case, then the library's theorem instantiated.

Two routes share the template: symbolic parameters (a theorem for every value the
constraints allow) and a numeric instance of a formula spec (the finite kind's
`route: family`), which costs the same seconds for n = 500 or n = 10 000."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.analysis import families as F
from obligations.core import expr as E
from obligations.core.document import Tactic
from obligations.core.obligation import ExpLowerBound, ExpUpperBound, Witness
from obligations.core.spec import Piece, neighbour_distance
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import Renderer, comment, q_lit, r_lit, rows_literal, strip_outer, z_lit

TEMPLATE = Path(__file__).parent / "templates" / "family.v.j2"

# One sentence each: the prover's repair session tries a candidate as one sentence.
# The prover repairs one failed slot per file: the stronger script first (it ends in
# `try`s that do nothing once the case split has closed every case).
IS_FAMILY_TACTICS = (Tactic("intros; unfold {fam}, {pmf}; family_cases_field."),
                     Tactic("intros; unfold {fam}, {pmf}; family_cases."))


class ClaimRenderer(Renderer):
    """R terms of a claim whose parameters are Coq variables: a rational sub-expression that
    mentions a parameter becomes `Q2R` of its Q term, so that the claim reads as the
    library's bounds do (`- ln (Q2R p_alpha)`)."""

    def r(self, e: E.Expr) -> str:
        if E.names(e) and not _has_real(e):
            return f"(Q2R {self.q(e)})"
        if isinstance(e, E.Var):
            return r_lit(self.values[e.name])
        if isinstance(e, E.Neg):
            return f"(- {self.r(e.operand)})"
        if isinstance(e, E.BinOp):
            if e.op == "**":
                return f"(powerRZ {self.r(e.left)} {self.z(e.right)})"
            return f"({self.r(e.left)} {e.op} {self.r(e.right)})"
        if isinstance(e, E.Call):
            fn = {"ln": "ln", "exp": "exp", "abs": "Rabs", "min": "Rmin", "max": "Rmax"}[e.fn]
            return f"({fn} " + " ".join(self.r(a) for a in e.args) + ")"
        return super().r(e)


def _has_real(e: E.Expr) -> bool:
    if isinstance(e, E.Call) and e.fn in ("ln", "exp"):
        return True
    return any(_has_real(c) for c in E.children(e))


@dataclass(frozen=True)
class FamilyTemplate:
    """What the template needs beyond the formula: the parameters as binders or constants."""

    name: str
    description: str
    spec_path: str
    spec_sha: str
    types: Mapping[str, str]                   # every parameter's type
    constants: Mapping[str, Fraction]          # parameters with values (Definitions)
    symbolic: Sequence[tuple[str, F.Constraint | None]]   # binders, in order, with constraints
    domain: tuple[E.Expr, E.Expr, E.Expr, E.Expr]
    formula: Sequence[Piece]
    neighbours: str
    epsilon: E.Expr
    epsilon_text: str


def nb_term(neighbours: str) -> str:
    """The Coq neighbour relation: nb_all, nb_adjacent, (nb_distance d)."""
    if (d := neighbour_distance(neighbours)) is not None:
        return f"(nb_distance {d})"
    return f"nb_{neighbours}"


def coq(name: str) -> str:
    return f"p_{name}"


def render(route: FamilyTemplate, match: F.Match, *, exp: ExpLowerBound | None = None,
           refute: tuple[Mapping[str, Fraction], ExpUpperBound, Witness] | None = None,
           proved: bool = True, table: Sequence[Sequence[Fraction]] | None = None,
           values: Mapping[str, Fraction] | None = None, fallback: bool = False) -> Rendered:
    """The file; `table` (with the family's `values`): an explicit table shown a member;
    `fallback` (a numeric instance of a formula): the family's proof, else the table's."""
    fam = match.family
    names = {p: coq(p) for p in route.types}
    names.update(x="x", y="y")
    r = ClaimRenderer(dict(route.types, x=E.INT, y=E.INT), names, dict(route.constants))
    binders = " ".join(f"({coq(p)} : {'Z' if route.types[p] == E.INT else 'Q'})" for p, _ in route.symbolic)
    args = " ".join(coq(p) for p, _ in route.symbolic)
    hyps = [_constraint(r, p, c) for p, c in route.symbolic]
    forall = (f"forall {binders}, " + "".join(f"{h} -> " for h in hyps)) if binders else ""
    hnames = [f"H_{p}" for p, _ in route.symbolic]
    intros = f"intros {args} {' '.join(hnames)}.\n  " if binders else ""
    call = " ".join([args, *hnames]).strip()
    if values is not None:   # a table: the family's parameters are the values found
        fam_names = {f: _value(values[f], t) for f, t in fam.params}
    else:
        fam_names = {f: coq(match.spec_param(f)) for f, _ in fam.params}
    fam_args = " ".join(fam_names[f] for f, _ in fam.params)
    x0, x1, y0, y1 = (r.z(e) for e in route.domain)
    # Numeric instances state the claim as the table route does (the parameters' values).
    plain = Renderer(dict(route.types), names, dict(route.constants))
    epsilon = strip_outer((r if route.symbolic else plain).r(route.epsilon))
    pmf = f"{route.name}_pmf"
    is_family = dict(
        statement=(f"{forall}forall x y : Z, ({x0} <= x <= {x1})%Z -> ({y0} <= y <= {y1})%Z ->\n  "
                   f"{fam.name}_pmf {fam_args} x y == {pmf}{' ' + args if args else ''} x y"),
        tactics=tuple(Tactic(t.script.format(fam=f"{fam.name}_pmf", pmf=pmf)) for t in IS_FAMILY_TACTICS))
    conditions = dict(statement=forall + fam.conditions_coq.format(**fam_names),
                      tactics=(Tactic("family_conditions."),) if binders else
                      (Tactic("const_conditions."), Tactic("family_conditions.")))
    bound_q = fam.bound_coq.format(**fam_names)
    ctx: dict[str, Any] = dict(
        **header(route.name, route.spec_path, route.spec_sha, route.description),
        inputs_text=comment(f"{E.to_text(route.domain[0])}..{E.to_text(route.domain[1])}"),
        outputs_text=comment(f"{E.to_text(route.domain[2])}..{E.to_text(route.domain[3])}"),
        params_text=[comment(_param_text(p, c)) for p, c in route.symbolic],
        constants=[_constant(p, v, route.types[p]) for p, v in route.constants.items()],
        formula_text=[comment(("otherwise" if p.when is None else f"if {E.to_text(p.when)}")
                              + f": {E.to_text(p.value)}") for p in route.formula],
        pmf_body=_pmf_body(route.formula, r) if route.formula else "", binders=binders, args=args,
        x0=x0, x1=x1, y0=y0, y1=y1,
        fam=dict(name=fam.name, title=comment(fam.title), pmf=f"{fam.name}_pmf", args=fam_args,
                 dp_lemma=fam.dp_lemma, distr_lemma=fam.distr_lemma, bound_text=comment(bound_q),
                 binding_text=comment(", ".join(f"{f} = {values[f] if values else s}" for f, s in match.binding))),
        is_family=is_family, conditions=conditions, forall=forall, intros=intros, call=call,
        mech=f"({route.name} {args})" if args else route.name,
        table=None if table is None else dict(n_in=len(table), n_out=len(table[0]), rows=rows_literal(table)),
        neighbours=nb_term(route.neighbours), epsilon=epsilon, proved=proved, refute=None, exp=None, hyps=hyps,
        theorem=f"{route.name}_not_dp" if refute else f"{route.name}_dp")
    theorems: tuple[str, ...]
    if refute is not None:
        ctx["refute"] = _refutation(route, r, refute)
        theorems = (f"{route.name}_not_dp",)
    else:
        ctx["exp"] = _exp_bound(route.name, fam, forall, bound_q, epsilon, exp, call)
        theorems = ((f"{route.name}_distr",) if fam.distr_lemma else ()) + (f"{route.name}_dp",)
    if fallback and exp is not None and fam.distr_lemma:
        ctx["fallback"] = _fallback(route, fam, fam_args, pmf, ctx["exp"], ctx["neighbours"], epsilon)
    else:
        ctx["fallback"] = None
    if not proved and refute is None:
        theorems = ()
    return render_template(TEMPLATE, route.name, ctx, "Prelude", theorems, (INTERVAL_PRELUDE,))


def _exp_bound(name: str, fam: F.Family, forall: str, bound_q: str, epsilon: str,
               exp: ExpLowerBound | None, call: str) -> dict[str, Any]:
    if exp is not None:   # a numeric instance: the bound on e^ε of the finite kind
        o = dict(kind="exp_lower", upper=False, bound=q_lit(exp.bound), method=exp.method,
                 bits=exp.precision_bits, taylor=exp.taylor, decimal=f"{float(exp.bound):.6g}")
        return {**exp_obligation(name, o, epsilon), "numeric": True}
    intro = f"intros {call}; " if call else ""
    # The script whose lemma reads the claim's shape (- ln ... or ln ...) first.
    negated = epsilon.startswith("- ")
    ordered = sorted(fam.eps_tactics, key=lambda t: ("_neg_" in t) != negated)
    tactics = tuple(Tactic(f"{intro}pose proof ({name}_family_conditions {call}) as Hc; {t}")
                    for t in ordered)
    return dict(lemma=f"{name}_exp_bound", statement=f"{forall}(Q2R {bound_q} <= exp ({epsilon}))%R",
                tactics=tactics, numeric=False)


def _fallback(route: FamilyTemplate, fam: F.Family, fam_args: str, pmf: str, exp: Mapping[str, Any],
              neighbours: str, epsilon: str) -> dict[str, Any]:
    """One lemma, `distr NAME /\\ dp nb NAME ε 0`, with two proofs: by the family (the case
    split of both formulas, then the library's theorems) and, if Coq cannot do the case
    split, by the table (computed and checked once by the VM).  One sentence each: the
    prover's repair session tries the second when the first fails."""
    name = route.name
    cases = f"intros; unfold {fam.name}_pmf, {pmf}; family_cases_field"
    bound = f"apply (q2r_le_of_eq _ {exp['bound']}); [apply Qeq_bool_eq; reflexivity|exact {exp['lemma']}]"
    by_family = (f"split; [apply (distr_fmech_z_eq _ _ _ _ _ ({fam.name}_pmf {fam_args})); "
                 f"[{cases}|apply ({fam.distr_lemma} {fam_args}); const_conditions] "
                 f"|apply (dp_fmech_z_eq _ _ _ _ _ _ ({fam.name}_pmf {fam_args})); "
                 f"[{cases}|apply ({fam.dp_lemma} {fam_args}); [const_conditions ..|{bound}]]].")
    bridge = "apply check_pointwise_of_adjacent" if neighbours == "nb_adjacent" else "idtac"
    by_table = (f"split; [apply distr_of_check|apply (dp_of_check_pointwise _ _ _ {exp['bound']}); "
                f"[exact {exp['lemma']}|{bridge}]]; vm_cast_no_check (eq_refl true).")
    return dict(statement=f"distr {name} /\\ dp {neighbours} {name} ({epsilon}) 0",
                tactics=(Tactic(by_family), Tactic(by_table)))


def _refutation(route: FamilyTemplate, r: ClaimRenderer, refute: tuple[Mapping[str, Fraction], ExpUpperBound, Witness]
                ) -> dict[str, Any]:
    values, upper, w = refute
    inst_args = " ".join(_value(values[p], route.types[p]) for p, _ in route.symbolic)
    inst_names = {p: _value(values[p], route.types[p]) for p, _ in route.symbolic}
    inst_names.update({p: coq(p) for p in route.constants}, x="x", y="y")
    ri = ClaimRenderer(dict(route.types, x=E.INT, y=E.INT), inst_names, dict(route.constants))
    eps_inst = strip_outer(ri.r(route.epsilon))
    o = dict(kind="exp_upper", upper=True, bound=q_lit(upper.bound), method=upper.method,
             bits=upper.precision_bits, taylor=upper.taylor, decimal=f"{float(upper.bound):.6g}")
    return dict(exp=exp_obligation(route.name, o, eps_inst), args=inst_args, bound=q_lit(w.bound),
                x=w.x, x2=w.x2, outputs="; ".join(f"{y}%nat" for y in w.outputs),
                outputs_text=", ".join(str(y) for y in w.outputs), pr_x=str(w.pr_x), pr_x2=str(w.pr_x2),
                at=comment(", ".join(f"{p} = {values[p]}" for p, _ in route.symbolic)))


def _value(v: Fraction, t: str) -> str:
    return f"{z_lit(int(v))}%Z" if t == E.INT else q_lit(v)


def _constraint(r: Renderer, p: str, c: F.Constraint | None) -> str:
    assert c is not None
    if c.kind == "integer":
        return f"({r.z(c.lo)} <= {coq(p)})%Z" if c.lo is not None else "True"
    parts = []
    if c.lo is not None:
        parts.append(f"{r.q(c.lo)} {'<' if c.lo_open else '<='} {coq(p)}")
    if c.hi is not None:
        parts.append(f"{coq(p)} {'<' if c.hi_open else '<='} {r.q(c.hi)}")
    return "(" + " /\\ ".join(parts) + ")" if parts else "True"


def _param_text(p: str, c: F.Constraint | None) -> str:
    return f"{p} ({coq(p)}), a symbol: " + (c.text(p) if c else "any")


def _constant(p: str, v: Fraction, t: str) -> dict[str, str]:
    if t == E.INT:
        return dict(name=coq(p), type="Z", value=f"{z_lit(int(v))}%Z", text=comment(p))
    return dict(name=coq(p), type="Q", value=q_lit(v), text=comment(p))


def _pmf_body(pieces: Sequence[Piece], r: Renderer) -> str:
    body = r.q(pieces[-1].value)
    for piece in reversed(list(pieces)[:-1]):
        assert piece.when is not None
        body = f"if {r.bool(piece.when)} then {r.q(piece.value)}\n    else {body}"
    return body
