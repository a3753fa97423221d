"""Each shipped certificate's recorded claim says what its theorem states: the ε and δ (or
the bound, the loss, the accuracy), the neighbours and the ranges of the parameters, read
from the statement Coq printed (`verify` checks that the recorded statement is Coq's)."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy

from obligations.models import load

REPO = Path(__file__).resolve().parent.parent.parent
CERTIFICATES = sorted((REPO / "certificates").glob("*.json"))
SAMPLES = ({"k": 3, "p": Fraction(1, 2), "alpha": Fraction(1, 3), "eps": Fraction(7, 10), "delta": Fraction(3, 2),
            "lambda": Fraction(5, 4), "B": Fraction(3), "x": Fraction(1, 3), "xp": Fraction(-2, 7),
            "eta": Fraction(1, 2 ** 53)},
           {"k": 7, "p": Fraction(4, 5), "alpha": Fraction(9, 10), "eps": Fraction(2), "delta": Fraction(1, 9),
            "lambda": Fraction(1, 8), "B": Fraction(1, 3), "x": Fraction(-1, 5), "xp": Fraction(1, 7),
            "eta": Fraction(1, 2 ** 53)})


def _split(term: str) -> list[str]:
    """A Coq application's top-level pieces: `dp nb_all m (ln 3) 0` -> [dp, nb_all, m, (ln 3), 0]."""
    pieces, depth, cur = [], 0, ""
    for ch in term.strip():
        if ch == " " and depth == 0:
            if cur:
                pieces.append(cur)
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    return pieces + ([cur] if cur else [])


def _coq_value(term: str) -> sympy.Expr:
    """A Coq real term of the statements (numbers, ln, exp, Q2R, inject_Z, #, + - * /) as sympy."""
    t = re.sub(r"\b(Q2R|inject_Z|IZR)\b", "", term)
    t = re.sub(r"\(\s*(-?\d+)\s*#\s*(\d+)\s*\)", r"(\1/\2)", t)
    t = re.sub(r"\bp_(\w+)\b", r"\1", t)
    t = t.replace("Rabs", "Abs").replace("x'", "xp").replace("eta 53", "eta").replace("lam", "lambda")
    t = re.sub(r"\b(ln|exp|Abs) ", r"\1 ", t)
    return _sympy(t)


def _claim_value(text: str) -> sympy.Expr:
    """A claim's ε or δ as the record writes it (spec expressions, |a| for absolute values)."""
    t = re.sub(r"\|([^|]*)\|", r"Abs(\1)", text).replace("x'", "xp")
    return _sympy(t)


def _sympy(text: str) -> sympy.Expr:
    # function application by juxtaposition (Coq) made explicit: `ln (3 / 2)` -> `ln((3 / 2))`
    t = re.sub(r"\b(ln|exp|Abs)\s+(\w+)\b(?!\s*\()", r"\1(\2)", text)
    t = re.sub(r"\b(ln|exp|Abs)\s+\(", r"\1((", t)
    t = _close_calls(t)
    t = re.sub(r"(\d+\.\d+)", lambda m: f"Rational('{m.group(1)}')", t)
    names = {n: sympy.Symbol(n) for n in ("k", "p", "alpha", "eps", "delta", "lambda_", "B", "x", "xp", "eta")}
    return sympy.sympify(t.replace("lambda", "lambda_").replace("ln", "log"),
                         locals={**names, "Abs": sympy.Abs, "Rational": sympy.Rational})


def _close_calls(t: str) -> str:
    """`f((a) rest` from _sympy's first step: close the call after its parenthesised argument."""
    out, i = "", 0
    while i < len(t):
        m = re.match(r"(ln|exp|Abs)\(\(", t[i:])
        if not m:
            out += t[i]
            i += 1
            continue
        j, depth = i + len(m.group(0)), 1
        while depth:
            depth += (t[j] == "(") - (t[j] == ")")
            j += 1
        out += t[i:i + len(m.group(1)) + 1] + "(" + _close_calls(t[i + len(m.group(0)):j]) + ")"
        i = j
    return out


def _same(a: sympy.Expr, b: sympy.Expr, params: dict[str, Fraction]) -> bool:
    """Equal at the spec's parameter values and at sample values of everything else."""
    for sample in SAMPLES:
        values = {sympy.Symbol("lambda_" if n == "lambda" else n): sympy.Rational(v.numerator, v.denominator)
                  for n, v in {**sample, **params}.items()}
        if abs(sympy.N((a - b).subs(values), 50)) > sympy.Float(10) ** -40:
            return False
    return True


def _definition(vtext: str, name: str) -> str:
    m = re.search(rf"Definition {re.escape(name)} :[^=]*:=\s*(.*?)\.(?:\s|$)", vtext)
    assert m, f"no definition of {name}"
    return m.group(1)


def _parameters(record: dict[str, Any], path: Path) -> dict[str, Fraction]:
    spec = load(path.parent / record["spec"]["path"])
    params = getattr(spec, "parameters", None) or {}
    return {k: v for k, v in params.items() if isinstance(v, Fraction)}


NEIGHBOURS = {"all": "nb_all", "adjacent": "nb_adjacent"}


def _dp_arguments(statement: str) -> tuple[str, list[str]]:
    """The DP predicate of the (last conjunct of the) statement and its arguments."""
    body = statement.split(" /\\ ")[-1].strip()
    body = body.removeprefix("~ ").strip()
    pieces = _split(body)
    return pieces[0], pieces[1:]


@pytest.mark.parametrize("path", CERTIFICATES, ids=lambda p: p.stem)
def test_the_recorded_claim_is_the_theorems_statement(path: Path) -> None:
    record = json.loads(path.read_text())
    claim, theorem = record["claim"], record["theorems"][-1]
    statement: str = theorem["statement"]
    vtext = path.with_suffix(".v").read_text()
    if record["verdict"] == "refuted":   # the negation of the claim: alone, after the sampler's
        # hypothesis (binary snapping), or beside the loss event that witnesses it (an audit)
        assert re.search(r"(^|-> |/\\ )~ ", statement), statement
    check = _check_for(claim)
    check(claim, statement, vtext, record, path)


def _check_for(claim: dict[str, Any]) -> Any:
    if str(claim.get("epsilon", "")).startswith("min eps"):
        return _min_eps
    for key, check in (("distance_to_laplace", _distance), ("accuracy", _accuracy),
                       ("expected_error", _expected_error), ("kov", _kov),
                       ("binary_snapping_all", _binary_all), ("binary_snapping", _binary)):
        if key in claim:
            return check
    if claim["epsilon"].startswith("every eps > 0"):
        return _all_k
    if claim["epsilon"].endswith("eps for every eps > 0, every stream length k"):
        return _aligned_all_k
    if "stream_length" in claim:
        return _aligned_at_length
    return _dp


def _dp(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    params = _parameters(record, path)
    if "snap_prob" in statement:   # a noise pipeline: p <= exp eps * p' for |f(a) - f(a')| <= d
        m = re.search(r"p <= exp (.*) \* p'$", statement)
        assert m, statement
        assert _same(_coq_value(m.group(1)), _claim_value(claim["epsilon"]), params)
        assert claim["delta"] == "0"
        d = re.search(r"Rabs \(fa - fa'\) <= (\S+)", statement)
        assert d and claim["neighbours"] == f"|f(a) - f(a')| <= {d.group(1)}"
        return
    if statement.startswith("forall"):   # a family: for every value of its symbolic parameters
        symbols = re.findall(r"\bp_(\w+)\b", statement.split(",")[0])
        assert symbols and all(f"p_{n}" not in params for n in symbols)
        statement = statement.split(" -> ")[-1]
    head, args = _dp_arguments(statement)
    eps, delta = args[-2], args[-1]
    assert _same(_coq_value(eps), _claim_value(claim["epsilon"]), params), (eps, claim)
    assert _same(_coq_value(delta), _claim_value(claim["delta"]), params), (delta, claim)
    if head in ("dp", "rdp"):
        assert args[0] == NEIGHBOURS.get(claim["neighbours"], args[0])
        assert claim["neighbours"] in NEIGHBOURS
        assert "domain" not in claim
    elif head == "dp_prog":
        assert claim["neighbours"] == "componentwise" and "domain" not in claim
    else:
        assert head == "dp_runs", statement   # a floating-point pipeline: the listed query values only
        inputs = _definition(vtext, args[1])
        values = [int(v) for v in re.findall(r"\[\(?(-?\d+)\)?\]", inputs)]
        deltas = _definition(vtext, args[0])
        span = f"{values[0]}..{values[-1]}" if values == list(range(values[0], values[-1] + 1)) else \
            "{" + ", ".join(map(str, values)) + "}"
        d = re.fullmatch(r"\[(\d+)\]%Z", deltas)
        assert d, deltas
        assert claim["domain"] == f"the integer query values {span} only, neighbours |q - q'| <= {d.group(1)}"


def _min_eps(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    """The smallest eps at delta, to a tolerance: the last theorem proves the claim at some eps,
    the first refutes it at eps minus the tolerance (the same predicate, mechanism and delta)."""
    m = re.fullmatch(r"min eps \(tolerance (\S+)\)", claim["epsilon"])
    assert m, claim
    below = record["theorems"][0]["statement"]
    assert len(record["theorems"]) == 2 and re.search(r"/\\ ~ ", below), below
    head, args = _dp_arguments(statement)
    below_head, below_args = _dp_arguments(below)
    assert head == below_head and args[:-2] == below_args[:-2], (statement, below)
    assert _same(_coq_value(args[-2]) - _coq_value(below_args[-2]), _claim_value(m.group(1)), {})
    assert _same(_coq_value(args[-1]), _claim_value(claim["delta"]), {})
    assert _same(_coq_value(below_args[-1]), _claim_value(claim["delta"]), {})


MIN_EPS_TESTS = sorted(p for p in (REPO / "tests" / "certificates").glob("*.json")
                       if json.loads(p.read_text())["claim"].get("epsilon", "").startswith("min eps"))


@pytest.mark.parametrize("path", MIN_EPS_TESTS, ids=lambda p: p.stem)
def test_a_smallest_eps_record_is_its_two_theorems(path: Path) -> None:
    record = json.loads(path.read_text())
    _min_eps(record["claim"], record["theorems"][-1]["statement"], "", record, path)


def _all_k(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    head, args = _dp_arguments(statement)
    assert head == "dp_stream"   # for every k and every eps > 0 (TapeSem.v)
    assert claim == {"epsilon": "every eps > 0, every stream length k", "delta": "0",
                     "neighbours": f"|q_i - q'_i| <= {args[0]} for every i"}


def _aligned_all_k(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    """A program proved by the generic alignment route: dp_all_k nb p nvars c is c*eps-DP for
    every eps > 0 and every stream length k (Coupling/TapeSem.v)."""
    m = re.fullmatch(r"dp_all_k (\w+)_nb (\w+)_prog (\d+) (\d+)", statement)
    assert m, statement
    factor = re.fullmatch(r"(?:(\d+)\*)?eps for every eps > 0, every stream length k", claim["epsilon"])
    assert factor and int(factor.group(1) or 1) == int(m.group(4)), (claim, statement)
    assert claim["delta"] == "0" and claim["neighbours"]


def _aligned_at_length(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any],
                       path: Path) -> None:
    """A program at one stream length under continuous noise: rdp_prog nb (p n) nvars c is
    c*eps-DP for every eps > 0 at length n over the reals (Laplace/RealAlignRun.v)."""
    m = re.fullmatch(r"rdp_prog (\w+)_nb \((\w+)_prog (\d+)\) (\d+) (\d+)", statement)
    assert m, statement
    factor = re.fullmatch(r"(?:(\d+)\*)?eps for every eps > 0, stream length (\d+)", claim["epsilon"])
    assert factor and int(factor.group(1) or 1) == int(m.group(5)), (claim, statement)
    assert int(factor.group(2)) == claim["stream_length"] == int(m.group(3)), (claim, statement)
    assert claim["noise"] == "laplace" and record["uses_analysis"] is True
    assert claim["delta"] == "0" and claim["neighbours"]


def _kov(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    if "/\\ ~ (" in statement:   # a refuted audit: the loss event, then the claim's negation
        statement = statement.split("/\\ ~ (", 1)[1].removesuffix(")")
    statement = re.sub(r"Q2R \((\d+) # (\d+)\)", r"(\1/\2)", statement)
    statement = re.sub(r"Q2R (\d+)", r"\1", statement)
    m = re.search(r"dp nb M (.*) 0 -> dp nb \(fmech_power M (\d+)\) (.*)$", statement)
    assert m, statement
    head, args = _dp_arguments(f"dp nb (fmech_power M {m.group(2)}) {m.group(3)}")
    assert _same(_coq_value(args[-2]), _claim_value(claim["epsilon"]), {})
    assert _same(_coq_value(args[-1]), _claim_value(claim["delta"]), {})
    eps0 = re.fullmatch(r"every \((.*), 0\)-DP finite mechanism, (\d+) runs", claim["kov"])
    assert eps0 and eps0.group(2) == m.group(2)
    assert _same(_coq_value(m.group(1)), _claim_value(eps0.group(1)), {})
    assert claim["neighbours"] == "any symmetric" and "symmetric nb" in statement


def _accuracy(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    head, args = _dp_arguments(statement)
    assert head == "accurate"
    assert _same(_coq_value(args[-2]), _claim_value(claim["accuracy"]["alpha"]), {})
    assert _same(_coq_value(args[-1]), _claim_value(claim["accuracy"]["beta"]), {})


def _expected_error(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    m = re.search(r"<= (.*)$", statement)
    assert m and statement.startswith("forall x : nat")
    assert _same(_coq_value(m.group(1)), _claim_value(claim["expected_error"]["at_most"]), {})


def _distance(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    # pointwise: |Laplace(u, s) - snapping(u, s)| <= lambda/2 for every draw inside the clamp
    assert claim == {"distance_to_laplace": "pointwise"}
    assert re.search(r"Rabs \(\S+_laplace eps fa u s - \S+ eps lam B fa u s\) <= lam / 2$", statement)


def _binary(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    name = record["name"]
    eps = _definition(vtext, f"{name}_eps")
    assert f"<= exp {name}_eps * " in statement
    assert _same(_coq_value(eps), _claim_value(claim["epsilon"]), {}) and claim["delta"] == "0"
    assert f"Rabs x <= {name}_B -> Rabs x' <= {name}_B -> Rabs (x - x') <= 1 ->" in statement
    assert claim["neighbours"] == "binary64 inputs |x|, |x'| <= B, |x - x'| <= 1"
    bound = re.search(r"B = (\S+),", claim["binary_snapping"])
    assert bound and _same(_coq_value(_definition(vtext, f"{name}_B")), _claim_value(bound.group(1)), {})


def _binary_all(claim: dict[str, Any], statement: str, vtext: str, record: dict[str, Any], path: Path) -> None:
    m = re.search(r"<= exp \((.*)\) \* snap_output_prob", statement)
    assert m, statement
    loss = _coq_value(m.group(1))
    assert _same(loss, _claim_value(claim["epsilon"]), {}) and claim["delta"] == "0"
    text = claim["binary_snapping_all"]
    assert f"e^({claim['epsilon']})" in text
    low = re.search(r"powerRZ 2 \((-\d+)\) <= lam ->", statement)
    assert low and f"every lambda >= 2^{low.group(1)}," in text
    grid = re.search(r"(?:(\d+) / (\d+) \* )?lam <= grid <= 2 \* lam", statement)
    rho0 = f"{grid.group(1)}/{grid.group(2)} " if grid and grid.group(1) else ""
    assert grid and f"Lambda in [{rho0}lambda, 2 lambda]" in text
    top = re.search(r"(?:0 < |(\d+(?: / \d+)?) \* lam <= )B <= (\d+) \* lam", statement)
    beta0 = top.group(1).replace(" / ", "/") if top and top.group(1) else None
    assert top and f"B in {f'[{beta0} lambda' if beta0 else '(0'}, {top.group(2)} lambda]" in text
    assert "Rabs x <= B -> Rabs x' <= B" in statement
    if record["verdict"] == "refuted":   # one pair of real inputs refutes it, whatever their format
        assert claim["neighbours"].startswith("real inputs |x|, |x'| <= B (refuted with real inputs")
    else:
        assert claim["neighbours"] == "real inputs |x|, |x'| <= B (binary64 inputs among them)"
    ties = "any" if "(t : tie)" in statement else None
    assert ties is None or "ties any" in text


def test_the_comparison_catches_a_broader_record() -> None:
    """The records this test refused before they were fixed: an ε without the constant terms."""
    loss = _coq_value("Rabs (x - x') / lam + 31 * eta 53 * (B / lam) + 48 * eta 53")
    assert not _same(loss, _claim_value("1/lambda"), {})
    assert _same(loss, _claim_value("|x - x'|/lambda + 31*eta*B/lambda + 48*eta"), {})
    assert not _same(_coq_value("ln (Q2R (p_p * inject_Z (p_k - 1) / (1 - p_p)))"), _claim_value("ln(p / (1 - p))"), {})
