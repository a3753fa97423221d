"""What `show` prints for an all-parameters binary snapping claim: the case table of the library
theorem (which lemma bounds each output), the premises the closed form discharges, and the
obligations of the generated file with the tactics that close each (as the template proves them)."""
from __future__ import annotations

from obligations.float.all_parameters_document import BinarySnappingAllAnalysis, file_lemmas

# The seed's seven output cases and the library lemma that bounds each (float_snap_dp_tight's proof:
# the sum's rounding as a threshold on the unrounded sum, the same for both inputs).
CASES: tuple[tuple[str, str, str], ...] = (
    ("out = B", "ratio <= e^(|x - x'|/lambda) * E^2, E^2 <= K", "tight_top_ratio (Float/SnapTight.v)"),
    ("out = -B", "ratio <= e^(|x - x'|/lambda) * E^2, E^2 <= K", "tight_bottom_ratio (Float/SnapTight.v)"),
    ("out = k*Lambda, -B < k*Lambda < B (below, at, between, at or above the buckets of x and x')",
     "ratio <= e^(|x - x'|/lambda) * K", "tight_ratio (Float/SnapTight.v)"),
    ("anything else", "probability 0 from every input", "never output (clamp_cases_3, in float_snap_dp_tight)"),
)

# What SnapTight64.v proves for every lambda, Lambda, B in range, to instantiate float_snap_dp_tight.
PREMISES: tuple[tuple[str, str], ...] = (
    ("g = Zceil(B/Lambda): (g - 1)Lambda < B <= g Lambda", "snap64_g_ok"),
    ("Hdisp: delta = tight_mu * tight_D + eta*lambda exceeds every threshold's displacement by the noise",
     "tight64_disp"),
    ("Hrange: e^(-(tight_D + delta)/lambda) >= 2^-1022 (B <= 353 lambda; e^0.69286 <= 2)", "tight64_range"),
    ("HE: E^2 < e^(W/lambda) (W/lambda >= 0.9999, e^0.9999 >= 2.718)", "tight64_E"),
    ("K <= 1 + (9 + 9m) eta B/lambda + (18 + 5m) eta <= e^(...) (r >= 2.718, E^2 <= 1/(1 - s))", "tight64_K_le"),
)

def obligations(a: BinarySnappingAllAnalysis) -> list[tuple[str, list[str]]]:
    """Each lemma or theorem of the generated file with the tactics its proof uses, in order
    of first use (the template's proofs, `FILE_LEMMAS`)."""
    name = a.spec.name
    return [(f"{name}_{suffix}", list(tactics)) for suffix, tactics in file_lemmas(a)]


def case_lines(a: BinarySnappingAllAnalysis) -> list[str]:
    lines = ["  cases of float_snap_dp_tight (every output of the float mechanism):"]
    lines += [f"    {out}: {bound}  [{lemma}]" for out, bound, lemma in CASES]
    lines.append("  premises discharged for all parameters in range (theories/Float/SnapTight64.v):")
    lines += [f"    {what}  [{lemma}]" for what, lemma in PREMISES]
    if a.two is not None:
        lines.append(f"  the two refinements at Lambda >= {a.spec.rho0}*lambda: r0 = {a.two.r0}, k1 = {a.two.k1}, "
                     f"k2 = {a.two.k2}  [snap_binary64_two_ab, Float/SnapTwoSided64.v]")
    elif a.wide is not None and a.spec.ulps is not None:
        k = a.spec.ulps
        lines.append(f"  the grid Lambda >= {a.spec.rho0}*lambda, a log within {k} ulp(s): the slope (4 + 8k)*c = "
                     f"{(4 + 8 * k) * a.wide.c}, c = {a.wide.c}  [snap_binary64_dp_wide_ulps_ab, Float/SnapSeedUlps.v]")
    elif a.wide is not None:
        lines.append(f"  the grid Lambda >= {a.spec.rho0}*lambda: the bucket-width factor (r + 1)/(r - 1) <= c "
                     f"= {a.wide.c} in place of 2.165  [snap_binary64_dp_wide, Float/SnapSeed64.v]")
    obs = obligations(a)
    lines.append(f"  obligations of the generated file ({len(obs)}):")
    lines += [f"    {name}: {', '.join(tactics)}" for name, tactics in obs]
    return lines


def case_record(a: BinarySnappingAllAnalysis) -> dict[str, object]:
    """The same as `case_lines`, for `show --json`."""
    return {"cases": [{"output": out, "bound": bound, "lemma": lemma} for out, bound, lemma in CASES],
            "premises": [{"premise": what, "lemma": lemma} for what, lemma in PREMISES],
            "obligations": [{"name": name, "tactics": tactics} for name, tactics in obligations(a)]}
