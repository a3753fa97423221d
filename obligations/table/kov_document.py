"""The Coq file of a KOV claim (template `kov.v.j2`, prelude `PreludePLD`)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit
from obligations.table.kov_spec import KovSpec

TEMPLATE = Path(__file__).parent / "templates" / "kov.v.j2"
PRELUDE = "PreludePLD"


@dataclass(frozen=True)
class KovAnalysis:
    """The KOV value at the claim (a hint), the verdict Python expects and the randomized
    response of the refutation (ratio `rr`, e^ε0 itself when rational)."""
    spec: KovSpec
    value: float
    value_text: str
    rr: Fraction
    rr_value: float     # the KOV sum at the randomized response's ratio: what the refutation reaches
    refute: bool


def theorems(a: KovAnalysis) -> tuple[str, ...]:
    return (f"{a.spec.name}_refuted",) if a.refute else (f"{a.spec.name}_dp",)


def render(a: KovAnalysis) -> Rendered:
    s = a.spec
    b = q_lit(a.rr)
    rr_le = ("rewrite exp_ln by (rewrite <- q2r_0; apply Qlt_Rlt; reflexivity). apply Rle_refl." if s.epsilon0.log
             else f"apply (ge_check_correct _ _ _ {s.name}_r_ok). vm_cast_no_check (eq_refl true).")
    p = a.rr / (1 + a.rr)
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), k=s.runs, refute=a.refute,
        eps0=s.epsilon0.coq(), eps0_text=comment(s.epsilon0_text), eps=s.epsilon.coq(),
        eps_text=comment(s.epsilon_text), delta_q=q_lit(s.delta), delta_text=comment(s.delta_text),
        r_interval=s.epsilon0.interval(), r_proof=s.epsilon0.interval_proof(),
        t_interval=s.epsilon.interval(), t_proof=s.epsilon.interval_proof(),
        b=b, rr_text=str(a.rr), p=q_lit(p), p_text=str(p), rr_le=rr_le)
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(a))


