"""What every mechanism kind provides (`Kind`), and what analysing a spec gives (`Unfolded`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Protocol

from obligations.core.obligation import Plan
from obligations.core.templates import Rendered


@dataclass
class Unfolded:
    """A spec analysed and rendered: the mechanism, the plan, the Coq document."""

    spec: Any                       # the kind's checked spec
    mechanism: Any                  # the kind's analysis object (a finite table, a case table, ...)
    plan: Plan
    rendered: Rendered
    timings: dict[str, float]
    lemmas: tuple[Any, ...] = ()    # the document's obligations in readable form, for `show`


class Kind(Protocol):
    """One mechanism kind.  Nothing outside `obligations.kinds` asks which kind a spec is."""

    name: str
    title: str              # for the JSON Schema and messages
    form: type[Any]         # the pydantic model of the spec file
    profiles: bool          # whether privacy profiles (`region`) apply: a finite table exists

    def claims(self, data: Mapping[str, Any]) -> bool:
        """Whether a parsed YAML mapping is a spec of this kind."""

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> Any:
        """The checked spec (errors name the file and field)."""

    def expand(self, spec: Any) -> list[Any]:
        """The claims a file stands for (a sweep: one per point)."""

    def derive(self, spec: Any, derived: Mapping[str, Any]) -> Any:
        """The claim a certificate's `derived` field names."""

    def analyse(self, spec: Any) -> Unfolded:
        """Exact analysis, the plan and the Coq document."""

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        """The refutation's witness, as certificates record it."""

    def summary(self, spec: Any) -> str:
        """One line for `check`."""

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        """What `show` prints: a JSON item, and lines of text."""

    def finite_table(self, spec: Any) -> Any:
        """The finite mechanism for privacy profiles, or None (then `region` refuses the spec)."""


def witness_text(w: Mapping[str, Any]) -> str:
    if isinstance(w.get("text"), str):   # a witness that is not against DP says itself what it shows
        return str(w["text"])
    outs = ", ".join(w["outputs"])
    at = ("at " + ", ".join(f"{k} = {v}" for k, v in w["parameters"].items()) + ": "
          if w.get("parameters") else "")
    return (f"witness: {at}x = {w['x']}, x' = {w['x_prime']}, S = {{{outs}}}: "
            f"Pr[M(x) in S] = {w['pr_x']} > e^eps * Pr[M(x') in S] + delta = "
            f"{w['exp_epsilon']} * {w['pr_x_prime']} + {w['delta']} = {w['bound']} "
            f"(violation {w['violation']})")
