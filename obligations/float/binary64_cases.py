"""The case table `obligations show` prints for a binary snapping claim.

Two parts, both what the certificate's Coq file does, with the numbers at the spec's parameters:
the outputs' cases of `float_snap_dp_tight` (B, -B, the interior grid points k*Lambda, anything else),
each with the library lemma that bounds its probability ratio; and the obligations the generated
file proves (its lemmas, in order), each with the tactic that closes it and the numbers it
compares.  The numbers are mpmath hints, like the analysis's: Coq proves each inequality itself.

`case_table` takes the parameters as exact numbers (not a spec), so a form of this kind with
other parameters can build the same table."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

from obligations.float.binary64_spec import ETA, LAM_MIN_EXP, displacement, range_limit, tight_distance, tight_width

PREC = 400


@dataclass(frozen=True)
class OutputCase:
    output: str        # which outputs
    lemma: str         # the library lemma that bounds their ratio
    bound: str         # the bound, with its number


@dataclass(frozen=True)
class Obligation:
    lemma: str         # the generated lemma's name, without the claim's prefix
    premise: str       # what it is for (the premise of float_snap_dp, or a step)
    statement: str
    tactic: str        # what closes it in the generated file
    numbers: str       # the values it compares ("" for none)


@dataclass(frozen=True)
class CaseTable:
    outputs: tuple[OutputCase, ...]
    obligations: tuple[Obligation, ...]
    title: str = ("outputs (the cases of float_snap_dp_tight, theories/Float/SnapTight.v), "
                  "Pr[out | x] <= bound * Pr[out | x']:")

    def tactics(self) -> Counter[str]:
        """How many obligations each tactic closes (interval counted whatever its precision)."""
        return Counter(o.tactic.split(" (")[0] for o in self.obligations)

    def lines(self) -> list[str]:
        out = [f"  {self.title}"]
        out += [f"    {c.output}: {c.lemma}: {c.bound}" for c in self.outputs]
        counts = ", ".join(f"{t} x{n}" for t, n in sorted(self.tactics().items()))
        out.append(f"  obligations of the generated file: {len(self.obligations)} ({counts})")
        for o in self.obligations:
            tail = f" [{o.numbers}]" if o.numbers else ""
            out.append(f"    _{o.lemma} ({o.premise}): {o.statement} -- {o.tactic}{tail}")
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"outputs": [c.__dict__ for c in self.outputs],
                "obligations": [o.__dict__ for o in self.obligations],
                "tactics": dict(sorted(self.tactics().items()))}


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _g(x: Any, digits: int = 6) -> str:   # mpmath numbers carry no type hints
    return str(mpmath.nstr(x, digits))


def interior_range(bound: Fraction, grid: Fraction) -> tuple[int, int]:
    """The k with -B < k*Lambda < B."""
    return math.floor(-bound / grid) + 1, math.ceil(bound / grid) - 1


def case_table(scale: Fraction, grid: Fraction, bound: Fraction, g: int, delta: Fraction, mu: Fraction,
               ulps: int | None, claim: Fraction, bits: int) -> CaseTable:
    """The table at lambda = scale, Lambda = grid, B = bound, delta, the log's mu (ulps None:
    correctly rounded) and the claimed epsilon (bits: the interval precision of the claim's step)."""
    with mpmath.workprec(PREC):
        lam, lg, b, d, eta = _mp(scale), _mp(grid), _mp(bound), _mp(delta), _mp(ETA)
        e2 = (mpmath.exp(d / lam) / (1 - 2 * eta)) ** 2
        width, dist = _mp(tight_width(bound, grid)), _mp(tight_distance(bound, grid))
        r = mpmath.exp(width / lam)
        k_const = (e2 * r - 1) / (r - e2)
        value = 1 / lam + mpmath.log(k_const)
        eps = _mp(claim)
        disp = _mp(displacement(bound, grid, mu))
        far = (dist + d) / lam
        lo, hi = interior_range(bound, grid)
        outputs = (
            OutputCase(f"B = {_g(b)}", "tight_top_ratio (SnapTight.v), its threshold from top_thr",
                       f"e^(|x - x'|/lambda) * E^2, E^2 = {_g(e2, 20)} (<= K, tight_K_ge_E2)"),
            OutputCase(f"-B = {_g(-b)}", "tight_bottom_ratio (SnapTight.v), its threshold from bottom_thr",
                       f"e^(|x - x'|/lambda) * E^2, E^2 = {_g(e2, 20)} (<= K)"),
            OutputCase(f"k*Lambda, k = {lo}..{hi} ({hi - lo + 1} grid points strictly inside (-B, B))",
                       "tight_ratio (SnapTight.v), the bucket's thresholds from bucket_thr",
                       f"e^(|x - x'|/lambda) * K, K = (E^2 r - 1)/(r - E^2), r = e^(W/lambda): {_g(k_const, 20)}, "
                       f"ln K = {_g(mpmath.log(k_const) / eta, 6)} eta"),
            OutputCase("anything else", "clamp_cases_3 (Clamp.v) in float_snap_dp_tight",
                       "probability 0 from every input"),
        )
        obligations = [
            Obligation("eta", "the format", "eta 53 = 1/2^53", "field", ""),
            Obligation("normal_min", "the format", "normal_min 53 (-1074) = 2^-1022", "reflexivity", ""),
            Obligation("mu_nonneg", "Hmu", "0 <= mu", "interval", f"mu = {_g(_mp(mu))}"),
            Obligation("lam_pos", "lambda > 0", "0 < lambda", "lra", f"lambda = {_g(lam, 17)}"),
            Obligation("grid_pos", "Hgrid", "0 < Lambda", "lra", f"Lambda = {_g(lg, 17)}"),
            Obligation("B_pos", "HB", "0 < B", "lra", f"B = {_g(b, 17)}"),
            Obligation("g_ok", "Hg", "(g - 1)*Lambda < B <= g*Lambda", "lra",
                       f"g = {g}: {_g((g - 1) * lg)} < {_g(b)} <= {_g(g * lg)}"),
            Obligation("delta_nonneg", "Hd0", "0 <= delta", "lra", f"delta = {delta}"),
            Obligation("tiny", "the format", "2^emin = 2^-1074", "reflexivity", ""),
            Obligation("lam_format", "lambda a float", "lambda is a binary64 number", "generic_format_FLT; field",
                       f"lambda = {_g(lam, 17)}"),
            Obligation("disp", "Hdisp", "tight_mu * tight_D < delta, tight_mu = (1 + eta)(1 + mu) - 1, "
                       "tight_D = 2B + Lambda/2 + 2 eta (B + Lambda/2) + 2^-1074", "interval (i_prec 120)",
                       f"{_g(disp)} < {_g(d)}, delta/displacement = {_g(d / disp)}"),
            Obligation("range", "Hrange", "2^-1022 <= e^(-(tight_D + delta)/lambda)", "interval (i_prec 80)",
                       f"(tight_D + delta)/lambda = {_g(far)} <= 1022 ln 2 = {_g(1022 * mpmath.log(2))}; "
                       f"B up to {range_limit(scale, grid, delta):.6g}"),
            Obligation("E", "HE", "E^2 < e^(W/lambda), W = Lambda - 2 eta (2B + Lambda) - 2^-1073",
                       "interval (i_prec 120)", f"E^2 = {_g(e2, 20)} < {_g(r, 20)}"),
            Obligation("K_nonneg", "a step", "0 <= K", "interval (i_prec 120)", f"K = {_g(k_const, 20)}"),
            Obligation("claim", "the claim", "e^(1/lambda) * K <= e^eps", f"interval (i_prec {bits})",
                       f"1/lambda + ln K = {_g(value, 25)} <= eps = {_g(eps, 25)}, gap {_g(eps - value, 4)}"),
            Obligation("lam_range", "the pipeline's range", "2^-968 <= lambda", "interval",
                       f"lambda = {_g(lam, 17)} >= {_g(mpmath.mpf(2) ** LAM_MIN_EXP)}"),
        ]
        if ulps is not None:
            obligations.append(Obligation("mu_half", "the log's error", "0 <= mu <= 1/2", "interval",
                                          f"mu = {_g(_mp(mu))} ({ulps} ulp(s))"))
        theorem = "float_snap_dp_tight_correct" if ulps is None else "float_snap_dp_tight_log"
        obligations += [
            Obligation("dp", "the theorem", "Pr[out | x] <= e^eps * Pr[out | x'] for |x - x'| <= 1",
                       f"{theorem}; exp_mono", ""),
        ]
    return CaseTable(outputs, tuple(obligations))


def refutation_table() -> CaseTable:
    """diffprivlib's rounding: the off-grid output and the library lemmas that give its probabilities."""
    outputs = (
        OutputCase("2^-54 (off the grid)", "dl_event_x, dl_event_x_minus (DiffprivlibRound.v)",
                   "Pr[out | x = 0] = 2^-55: one sample u, sign bit 0, w = -1/2 + 2^-54 (dl_round_off_grid)"),
        OutputCase("2^-54 (off the grid)", "dl_event_x' (DiffprivlibRound.v)",
                   "Pr[out | x' = 1/4 - 2^-53] = 0: its sums near -1/2 are multiples of 2^-53"),
    )
    obligations = (
        Obligation("params", "the spec's parameters", "lambda, B are dl_lam, dl_B", "unfold; lra", ""),
        Obligation("inputs", "neighbours in range", "|0|, |1/4 - 2^-53| <= B", "unfold; lra", ""),
        Obligation("not_dp", "the refutation", "not (Pr[out | x] <= e^eps * Pr[out | x'] for all neighbours)",
                   "diffprivlib_not_dp", ""),
    )
    return CaseTable(outputs, obligations, "the output that refutes (theories/Float/DiffprivlibRound.v):")
