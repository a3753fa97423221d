"""The witnesses on the noise (u, S) that a proved snapping certificate carries, as `show` prints
them: the mirror coupling's pairing map piece by piece (Noise/Mirror.v, delta = 0) and seed 000's
per-branch pairing (Noise/BranchCoupling.v, delta = 1 - e^(-claim)).  Text only: the statements
Coq checks are in the generated file (`_noise_lifting`, `_branch_lifting`)."""
from __future__ import annotations

import re

import sympy

from obligations.core.obligation import Verdict
from obligations.noise.analysis import SnapUnfold, math_text, tidy


def _value(e: sympy.Expr) -> str:
    """A number's decimal after its exact form; nothing for a symbolic value."""
    return f" ≈ {float(e):.6g}" if e.is_number else ""


def _neg_exp(text: str) -> str:
    """e^(-x) for the claim's text x, parenthesised unless it is a single name or number."""
    return f"e^(-{text})" if re.fullmatch(r"[\w./]+", text) else f"e^(-({text}))"


def coupling_text(u: SnapUnfold) -> str:
    """The witnesses of the lifting on the noise, or "" when there is no proof to carry them."""
    if u.expected != Verdict.PROVED:
        return ""
    name = u.spec.name
    # clamped query values are at most min(Δ, 2B) apart; r times that bound is u.truth
    p_worst = tidy(sympy.exp(-u.truth))
    d_text = "Δ" if u.spec.out_clamp is None else "min(Δ, 2B)"
    claim = u.spec.epsilon_text
    return "\n".join([
        f"witnesses on the noise w = (u, S) (seed 000, Definition 3), for neighbours with d = c - c', "
        f"|d| <= {d_text}; r = {math_text(u.rate)}, p = e^(-r·|d|), s0 = the sign of d:",
        f"  mirror coupling, delta = 0 ({name}_noise_lifting): m(w) is the noise with noise(m(w)) = noise(w) + d, "
        "noise(u, S) = S·ln(u)/r; then c + noise(w) = c' + noise(m(w)): both runs give the same output",
        "    (u, s0),  u ∈ (0, p)  ↦ (u/p, s0)    moves (0, p) onto (0, 1), lengths × 1/p",
        "    (u, s0),  u ∈ (p, 1]  ↦ (p/u, -s0)   moves (p, 1] onto [p, 1) of the other sign (the mirror)",
        "    (u, -s0), u ∈ (0, 1]  ↦ (p·u, -s0)   moves (0, 1] onto (0, p], lengths × p",
        "    μL = law of (w, m(w)), μR = law of (m⁻¹(w'), w') for w, w' drawn from the noise: "
        f"marginals the noise's law, support in \"same output\", μL(E) <= e^({claim})·μR(E) for every set E",
        f"  worst neighbours |d| = {d_text}: p = {math_text(p_worst)}{_value(p_worst)}",
        f"  per-branch witnesses (seed 000's pairing), delta = 1 - {_neg_exp(claim)} ({name}_branch_lifting): "
        "on each sign s, u ↦ e^(s·r·d)·u; on the sign it stretches, u ∈ (p, 1] has no partner in (0, 1]",
    ])
