"""The Coq file of an all-parameters binary snapping claim (template `binary_snapping_all.v.j2`,
prelude `PreludeBinary`): the claim's constants against the library's closed form
`snap_binary64_dp_tight`, and the theorem for every lambda, Lambda, B in the proved ranges.  A narrower
range (grid and clamp `min_over_lambda`) renders `binary_snapping_range.v.j2`: the claim from
`snap_binary64_dp_wide_ab` (SnapSeed64.v) with the hints r0, c of `wide_grid`; a range cell that route
does not reach but the two refinements do renders `binary_snapping_two.v.j2` (prelude `PreludeBinaryTwo`):
the claim from `snap_binary64_two_ab` (SnapTwoSided64.v) with the hints r0, k1, k2 of `wide_grid`; one
that only the input inside a bucket in pieces reaches renders `binary_snapping_pieces.v.j2` (prelude
`PreludeBinaryPieces`): the claim from `snap_binary64_two_split_ab` (SnapTwoSidedPieces64.v)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.float.all_parameters_spec import BinarySnappingAllSpec
from obligations.float.ulps_refuted import range_of, witness_of
from obligations.float.wide_grid import (
    PIECES,
    PieceHints,
    TwoHints,
    WideHints,
    binary64_inputs_text,
)

TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_all.v.j2"
RANGE_TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_range.v.j2"
REFUTED_TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_refuted.v.j2"
TWO_TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_two.v.j2"
PRELUDE = "PreludeBinary"
# Its own prelude (PreludeBinary and SnapTwoSided64.v), so that the other binary64 certificates' library
# does not grow.
TWO_PRELUDE = "PreludeBinaryTwo"
PIECES_TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_pieces.v.j2"
PIECES_PRELUDE = "PreludeBinaryPieces"
# A range with a log within k ulps: PreludeBinary and SnapSeedUlps.v, imported by the file itself (as the
# refutations import theirs), so that the other binary64 certificates' library does not grow.
ULPS_TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_ulps_range.v.j2"


@dataclass(frozen=True)
class BinarySnappingAllAnalysis:
    """The library's constants for the spec's logarithm and whether the claim is at or above them."""
    spec: BinarySnappingAllSpec
    provable: bool
    wide: WideHints | None = None       # the hints of a narrower range (SnapSeed64.v)
    two: TwoHints | None = None         # the hints of the two refinements, where `wide` does not fit
    pieces: PieceHints | None = None    # the hints of the inside-in-pieces route, where neither fits


def refuted(a: BinarySnappingAllAnalysis) -> bool:
    """A claim below what the library proves that a library theorem refutes (SnapSeedRealRefuted.v)."""
    return not a.provable and a.spec.refuted_by is not None


def theorems(a: BinarySnappingAllAnalysis) -> tuple[str, ...]:
    return (f"{a.spec.name}_not_dp",) if refuted(a) else (f"{a.spec.name}_dp",)


# The file's lemmas (after NAME_) and the tactics each proof in the template uses, in order of
# first use, the theorem last (tests/unit/test_binary_snapping_all.py reads
# the rendered file against this list).
FILE_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mu_nonneg", ("rewrite", "lra")),
    ("mu_le", ("unfold", "rewrite", "lra")),
    ("m_max", ("unfold", "lra")),
    ("a_ok", ("unfold", "lra")),
    ("b_ok", ("unfold", "lra")),
)
# The theorem: a correctly rounded log goes through the library's `_correct` corollary (its
# premises by lia and lra), a log within k ulps through the general theorem.
DP_CORRECT = ("dp", ("intros", "assert", "lia", "eapply", "exact", "apply", "lra", "rewrite", "unfold"))
DP_ULPS = ("dp", ("intros", "eapply", "exact", "apply", "assert", "lra", "rewrite", "unfold"))


# A narrower range: r0's Taylor bound (exp_taylor_lower, after unfolding to a Q literal), the hints'
# inequalities, the theorem by snap_binary64_dp_wide_ab.
RANGE_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("r0_exp", ("unfold", "lra")),
    ("r0_gt", ("unfold", "lra")),
    ("c_ok", ("unfold", "lra")),
    ("a_ok", ("unfold", "lra")),
    ("b_ok", ("unfold", "lra")),
    ("dp", ("intros", "exact", "lra")),
)


# A range with a log within k ulps: r0's Taylor bound, the hints' inequalities, k's bounds, the theorem by
# snap_binary64_dp_wide_ulps_ab.
ULPS_RANGE_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("r0_exp", ("unfold", "lra")),
    ("r0_gt", ("unfold", "lra")),
    ("c_ok", ("unfold", "lra")),
    ("k_ok", ("split", "lra", "replace", "ring")),
    ("a_ok", ("unfold", "lra")),
    ("b_ok", ("unfold", "lra")),
    ("dp", ("intros", "exact", "lra")),
)


# A range cell by the two refinements: r0's Taylor bound, the hints' inequalities, the forms at the
# claim's constants over the range, the theorem by snap_binary64_two_ab.
TWO_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("r0_exp", ("unfold", "lra")),
    ("r0_gt", ("unfold", "lra")),
    ("k1_ok", ("unfold", "lra")),
    ("k2_ok", ("unfold", "lra")),
    ("forms", ("intros", "unfold", "lra")),
    ("dp", ("intros", "exact", "lra")),
)


# A refuted claim: one theorem, its negation from the library's refutation at ties up.
REFUTED_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("not_dp", ("intros", "assert", "ring", "apply", "lra", "refine")),
)


def file_lemmas(a: BinarySnappingAllAnalysis) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The lemmas the generated file has, in order, with their proofs' tactics."""
    if refuted(a):
        return REFUTED_LEMMAS
    if a.two is not None:
        return TWO_LEMMAS
    if a.spec.ranged and a.spec.ulps is not None:
        return ULPS_RANGE_LEMMAS
    if a.spec.ranged:
        return RANGE_LEMMAS
    return FILE_LEMMAS + ((DP_CORRECT if a.spec.ulps is None else DP_ULPS),)


def mu_term(s: BinarySnappingAllSpec) -> str:
    if s.ulps is None:
        return "eta 53"
    return f"2 * {s.ulps} * eta 53 / (1 - 2 * {s.ulps} * eta 53)"


def _common(s: BinarySnappingAllSpec) -> dict[str, Any]:
    """What both templates fill in: the header, the claim's constants, the tie rule."""
    tie = {"up": "TiesUp", "down": "TiesDown"}.get(s.ties, "t")
    ties_text = "every tie rule t of the rounding to the grid" if s.ties == "any" else \
        f"ties {s.ties} in the rounding to the grid"
    return dict(**header(s.name, s.path, s.sha256, s.description), a=r_lit(s.a), b=r_lit(s.b),
                a_text=comment(s.a_text), b_text=comment(s.b_text), tie=tie, ties_text=ties_text,
                tie_binder="(t : tie) " if s.ties == "any" else "", tie_intro="t " if s.ties == "any" else "")


def render(a: BinarySnappingAllAnalysis) -> Rendered:
    s = a.spec
    if refuted(a):
        return _render_refuted(s, a)
    if s.ulps is not None and a.wide is not None and s.beta0 is not None:
        return _render_ulps_range(s, s.ulps, a.wide, s.beta0, a)
    if a.two is not None and s.beta0 is not None:
        return _render_two(s, a.two, s.beta0, a)
    if a.pieces is not None and s.beta0 is not None:
        return _render_pieces(s, a.pieces, s.beta0, a)
    if a.wide is not None and s.beta0 is not None:
        return _render_range(s, a.wide, s.beta0, a)
    ctx: dict[str, Any] = dict(
        **_common(s), log_text=comment(s.log_text), mu=mu_term(s), mu_text=comment(mu_term(s)), m=r_lit(s.m),
        m_text=comment(str(s.m)), correct=s.ulps is None,
        lnf="lnf" if s.ulps is not None else "(fun v => rnd 53 (-1074) choice (ln v))")
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(a))


def _render_range(s: BinarySnappingAllSpec, h: WideHints, beta0: Fraction, a: BinarySnappingAllAnalysis) -> Rendered:
    ctx: dict[str, Any] = dict(
        **_common(s), rho0=r_lit(s.rho0), beta0=r_lit(beta0), rho0_text=comment(str(s.rho0)),
        beta0_text=comment(str(beta0)), r0=r_lit(h.r0), c=r_lit(h.c), r0_num=h.r0.numerator,
        r0_den=h.r0.denominator, x_num=h.exponent.numerator, x_den=h.exponent.denominator)
    return render_template(RANGE_TEMPLATE, s.name, ctx, PRELUDE, theorems(a))


def _render_ulps_range(s: BinarySnappingAllSpec, k: int, h: WideHints, beta0: Fraction,
                       a: BinarySnappingAllAnalysis) -> Rendered:
    ctx: dict[str, Any] = dict(
        **_common(s), k=k, mu=mu_term(s), mu_text=comment(mu_term(s)), rho0=r_lit(s.rho0), beta0=r_lit(beta0),
        rho0_text=comment(str(s.rho0)), beta0_text=comment(str(beta0)), r0=r_lit(h.r0), c=r_lit(h.c),
        r0_num=h.r0.numerator, r0_den=h.r0.denominator, x_num=h.exponent.numerator, x_den=h.exponent.denominator)
    return render_template(ULPS_TEMPLATE, s.name, ctx, PRELUDE, theorems(a))


def _render_two(s: BinarySnappingAllSpec, h: TwoHints, beta0: Fraction, a: BinarySnappingAllAnalysis) -> Rendered:
    ctx: dict[str, Any] = dict(
        **_common(s), rho0=r_lit(s.rho0), beta0=r_lit(beta0), rho0_text=comment(str(s.rho0)),
        beta0_text=comment(str(beta0)), r0=r_lit(h.r0), k1=r_lit(h.k1), k2=r_lit(h.k2), r0_num=h.r0.numerator,
        r0_den=h.r0.denominator, x_num=h.exponent.numerator, x_den=h.exponent.denominator)
    return render_template(TWO_TEMPLATE, s.name, ctx, TWO_PRELUDE, theorems(a))


def _render_pieces(s: BinarySnappingAllSpec, h: PieceHints, beta0: Fraction, a: BinarySnappingAllAnalysis) -> Rendered:
    t = h.two
    ctx: dict[str, Any] = dict(
        **_common(s), rho0=r_lit(s.rho0), beta0=r_lit(beta0), rho0_text=comment(str(s.rho0)),
        beta0_text=comment(str(beta0)), r0=r_lit(t.r0), k1=r_lit(t.k1), k2=r_lit(t.k2), l1=r_lit(h.l1),
        n=PIECES, r0_num=t.r0.numerator, r0_den=t.r0.denominator, x_num=t.exponent.numerator,
        x_den=t.exponent.denominator)
    return render_template(PIECES_TEMPLATE, s.name, ctx, PIECES_PRELUDE, theorems(a))


def _render_refuted(s: BinarySnappingAllSpec, a: BinarySnappingAllAnalysis) -> Rendered:
    """The claim's negation from `<theorem>_up` (SnapSeedRealRefuted.v, SnapUlpsRefuted.v, SnapUlpsKRefuted.v,
    SnapSmallClampRefuted.v) at the claim's rho0 and beta0 (B > 0 alone: beta0 = 1, or the theorem's top
    when that is smaller; it is at most every witness's B/lambda)."""
    name = s.refuted_by
    assert name is not None
    top_rho, top_beta = range_of(name)
    beta0 = min(Fraction(1), top_beta) if s.beta0 is None else s.beta0
    grid = "lam <= grid <= 2 * lam" if s.rho0 == 1 else f"{r_lit(s.rho0)} * lam <= grid <= 2 * lam"
    bound = "0 < B <= 353 * lam" if s.beta0 is None else f"{r_lit(s.beta0)} * lam <= B <= 353 * lam"
    grid_words = "lambda" if s.rho0 == 1 else f"{s.rho0}*lambda"
    low = "0 < B" if s.beta0 is None else f"{s.beta0}*lambda <= B"
    # the _up theorems' arguments: (k) rho0 beta0 a (b); Mironov's form has b = 0 built in
    mironov = name.startswith("snap_binary64_mironov")
    args = [r_lit(s.rho0), r_lit(beta0), r_lit(s.a)] + ([] if mironov else [r_lit(s.b)])
    if s.ulps is not None:
        args = [str(s.ulps)] + args
    w = witness_of(name)
    floats_too = binary64_inputs_text(s.rho0, s.beta0, s.a, s.b)
    inputs = ("The witness's inputs are binary64 floats: the claim is false for binary64 inputs too." if w.floats
              else f"The witness's inputs are reals, not binary64 floats: {floats_too}.")
    ctx: dict[str, Any] = dict(
        **_common(s), refuting=f"{name}_up", args=" ".join(args), n_premises=len(args),
        ulps=s.ulps is not None, mu=mu_term(s), mu_text=comment(mu_term(s)),
        lnf="lnf" if s.ulps is not None else "(fun v => rnd 53 (-1074) choice (ln v))",
        library=w.file.removesuffix(".v"),
        inputs_text=inputs, log_text=comment(s.log_text), grid_premise=grid,
        bound_premise=bound, range_text=comment(f"{grid_words} <= Lambda <= 2 lambda and {low} <= 353 lambda"),
        top_rho_text=comment(str(top_rho)), top_beta_text=comment(str(top_beta)),
        witness_text=comment(w.text(name)), tie_arg="TiesUp " if s.ties == "any" else "")
    return render_template(REFUTED_TEMPLATE, s.name, ctx, PRELUDE, theorems(a))
