"""Other accountants, asked the question an audit checks (optional: each is imported only when
asked, and its absence is a usage error naming the package to install).

`ask(peer, ...)` returns the peer's (ε, δ) report for a mechanism run K times, and the call
that produced it, for the audit spec (`table/audit.py`) that Coq then certifies or refutes."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from obligations.errors import UsageError

PEERS = ("prv_accountant", "dp_accounting")


@dataclass(frozen=True)
class Report:
    accountant: str       # name and version
    call: str
    epsilon: float
    delta: float


def _version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(module.replace("_", "-"))
    except PackageNotFoundError:
        return "?"


def ask_pure_dp(peer: str, eps0: float, runs: int, epsilon: float, eps_error: float = 0.01) -> Report:
    """δ(ε) the peer reports for `runs` runs of an (eps0, 0)-DP mechanism (its upper bound)."""
    if peer == "prv_accountant":
        try:
            from prv_accountant import PRVAccountant, PureDPMechanism
        except ImportError:
            raise UsageError("--peer prv_accountant needs the package: pip install prv-accountant") from None
        acc = PRVAccountant(prvs=[PureDPMechanism(eps=eps0)], max_self_compositions=[runs], eps_error=eps_error,
                            delta_error=1e-10)
        _, _, upper = acc.compute_delta(epsilon=epsilon, num_self_compositions=[runs])
        call = (f"PRVAccountant(prvs=[PureDPMechanism(eps={eps0!r})], max_self_compositions=[{runs}], "
                f"eps_error={eps_error}, delta_error=1e-10).compute_delta(epsilon={epsilon!r}, "
                f"num_self_compositions=[{runs}])[2]")
        return Report(f"prv_accountant {_version('prv_accountant')}", call, epsilon, float(upper))
    if peer == "dp_accounting":
        pld = _dp_accounting()
        p = math.exp(eps0) / (1 + math.exp(eps0))
        d = pld.from_two_probability_mass_functions({0: math.log(1 - p), 1: math.log(p)},
                                                    {0: math.log(p), 1: math.log(1 - p)},
                                                    pessimistic_estimate=True, value_discretization_interval=1e-4)
        delta = d.self_compose(runs).get_delta_for_epsilon(epsilon)
        call = (f"from_two_probability_mass_functions(randomized response, ratio e^{eps0!r}, pessimistic, "
                f"interval 1e-4).self_compose({runs}).get_delta_for_epsilon({epsilon!r})")
        return Report(f"dp_accounting {_version('dp_accounting')}", call, epsilon, float(delta))
    raise UsageError(f"--peer {peer}: one of {', '.join(PEERS)}")


def ask_table(peer: str, rows: Sequence[Sequence[Fraction]], pairs: Sequence[tuple[int, int]], runs: int,
              epsilon: float) -> Report:
    """δ(ε) the peer reports for `runs` runs of a finite table (the worst ordered pair)."""
    if peer != "dp_accounting":
        raise UsageError(f"--peer {peer} takes --pure-dp; a table goes to --peer dp_accounting")
    pld = _dp_accounting()
    best: float | None = None
    seen: set[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]] = set()
    for x, x2 in pairs:
        key = (tuple(rows[x]), tuple(rows[x2]))
        if x == x2 or key in seen:
            continue
        seen.add(key)
        upper = {y: math.log(p) for y, p in enumerate(rows[x]) if p > 0}
        lower = {y: math.log(q) for y, q in enumerate(rows[x2]) if q > 0}
        d = pld.from_two_probability_mass_functions(lower, upper, pessimistic_estimate=True,
                                                    value_discretization_interval=1e-4, symmetric=False)
        delta = d.self_compose(runs).get_delta_for_epsilon(epsilon)
        best = delta if best is None else max(best, delta)
    call = (f"max over the neighbour pairs of from_two_probability_mass_functions(pair, pessimistic, "
            f"interval 1e-4).self_compose({runs}).get_delta_for_epsilon({epsilon!r})")
    return Report(f"dp_accounting {_version('dp_accounting')}", call, epsilon, float(best or 0.0))


def _dp_accounting() -> Any:
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        raise UsageError("--peer dp_accounting needs the package: pip install dp-accounting") from None
    return pld
