"""Chains of different mechanisms: the YAML form and its checks.

    compose:
      - {spec: rr3.yaml, runs: 10}
      - {spec: geometric.yaml, runs: 5}
    claim: {epsilon: 40, delta: 1/100}        # or {delta: 1/100000, tolerance: 1/100}

claims that running the first mechanism 10 times, then the second 5 times, on the same input
with independent noise, is (epsilon, delta)-DP.  With `adaptive: true` the claim is about every
adaptive sequence whose round i (of part i) is, at every history, dominated by a dominating pair
of part i's own rows (`obligations/table/adaptive.py`).  Each `spec` is a table or formula spec file
(relative to this one) with the same inputs and the same neighbours; its own claim is ignored.
Every problem is a SpecError naming the file and the field."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr, ValidationError

from obligations.core import expr as E
from obligations.core.claims import Claim as ClaimOf
from obligations.core.claims import DpOf, dp
from obligations.core.names import spec_name_problem, text_problem
from obligations.core.spec import MechanismSpec, read, validation_error
from obligations.core.vocabulary import Strict
from obligations.errors import SpecError
from obligations.table.form import Claim
from obligations.table.spec import check_finite
from obligations.table.tolerance_claim import read_claim

MAX_PARTS = 20
ADAPTIVE_ABOUT = ("every adaptive sequence of finite mechanisms on these inputs, one round per run, each round "
                  "chosen from the earlier outputs, whose round of part i is at every history and for every "
                  "ordered pair of distinct neighbours dominated by part i's dominating pair (two of part i's "
                  "own rows, named in the Coq file); proved with it: every part's own mechanism is so "
                  "dominated (one kernel per ordered pair of distinct neighbours)")


class Part(Strict):
    """One mechanism of the chain and how often it runs."""

    spec: StrictStr = Field(description="a table or formula spec file, relative to this file")
    runs: StrictInt = Field(ge=1, description="runs >= 1, each on the same input")


class ChainFile(Strict):
    """Different mechanisms run one after another on the same input: a claim about all their outputs."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the claim, e.g. rr_then_geometric")
    description: str = ""
    compose: list[Part] = Field(min_length=1, max_length=MAX_PARTS)
    adaptive: StrictBool = Field(False, description="true: the claim is about every adaptive sequence of rounds, "
                                 "each dominated by its part's dominating pair (a pair of the part's own rows)")
    claim: Claim


@dataclass(frozen=True)
class ChainSpec:
    path: str
    sha256: str
    name: str
    description: str
    parts: tuple[tuple[MechanismSpec, int], ...]   # each mechanism (its own claim ignored) and its runs
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    tolerance: Fraction | None = None
    adaptive: bool = False
    derived: Mapping[str, Any] | None = None
    kind: str = "chain"
    profile_epsilons: tuple[str, ...] = ()   # no profile section: `region` takes compositions of one table
    profile_compose: tuple[int, ...] = ()

    @property
    def runs(self) -> int:
        return sum(k for _, k in self.parts)

    @property
    def parameters(self) -> Mapping[str, Fraction]:
        return {}

    @property
    def neighbours(self) -> Any:
        return self.parts[0][0].neighbours

    @property
    def claim(self) -> ClaimOf:
        """What a certificate records of the claim: ε, δ, the neighbours and each part's file
        (adaptive: under `adaptive`, with what the theorem is about)."""
        parts = [{"spec": Path(m.path).name, "sha256": m.sha256, "runs": k} for m, k in self.parts]
        if self.adaptive:
            return DpOf(dp(self.epsilon_text, self.delta_text, self.neighbours), "adaptive",
                        {"compose": parts, "about": ADAPTIVE_ABOUT})
        return DpOf(dp(self.epsilon_text, self.delta_text, self.neighbours), "compose", parts)


def is_chain(data: Mapping[str, Any]) -> bool:
    return "compose" in data


def check(data: Mapping[str, Any], file: str, sha256: str) -> ChainSpec:
    try:
        form = ChainFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, ChainFile) from None
    problem = spec_name_problem(form.name)
    if problem:
        raise SpecError(file, "name", problem)
    problem = text_problem(form.description, multiline=True)
    if problem:
        raise SpecError(file, "description", problem)
    parts = tuple((_part(file, i, p), p.runs) for i, p in enumerate(form.compose))
    first = parts[0][0]
    for i, (m, _) in enumerate(parts[1:], 1):
        field = f"compose[{i}].spec"
        if m.inputs.labels != first.inputs.labels:
            raise SpecError(file, field, f"its inputs {_short(m.inputs.labels)} are not those of compose[0].spec "
                            f"{_short(first.inputs.labels)}: every mechanism of a chain runs on the same input")
        if m.neighbours != first.neighbours:
            raise SpecError(file, field, f"its neighbours ({_nb(m.neighbours)}) are not those of compose[0].spec "
                            f"({_nb(first.neighbours)}): a chain's privacy is about one neighbour relation")
    runs = sum(k for _, k in parts)
    claim = form.claim
    r = read_claim(file, claim, runs)
    return ChainSpec(file, sha256, form.name, form.description, parts, r.eps, r.eps_text, r.delta, str(claim.delta),
                     r.tolerance, form.adaptive)


def _part(file: str, i: int, p: Part) -> MechanismSpec:
    field = f"compose[{i}].spec"
    path = Path(file).parent / p.spec
    if not path.is_file():
        raise SpecError(file, field, f"no such spec file: {path}")
    data, part_file, sha = read(path)
    if not isinstance(data, dict) or any(k in data for k in ("compose", "program", "pipeline", "kov", "floating")):
        raise SpecError(file, field, f"{path} is not a table or formula spec (a chain composes finite mechanisms)")
    for own in ("composition", "cw"):
        if own in data:
            raise SpecError(file, field, f"{path} has '{own}': a chain's part is one run of a plain table or formula")
    data = dict(data)
    data.pop("profile", None)      # the part's own profile is about its own claims
    data["claim"] = {"epsilon": 0, "delta": 0}   # the part's own claim says nothing here
    spec = check_finite(data, part_file, sha)
    if spec.distribution != "full":
        raise SpecError(file, field, f"{path}: rows that are sub-distributions; a chain needs distributions")
    return spec


def _short(labels: tuple[str, ...]) -> str:
    shown = ", ".join(labels[:4]) + (", ..." if len(labels) > 4 else "")
    return f"[{shown}] ({len(labels)})"


def _nb(nb: Any) -> str:
    return nb if isinstance(nb, str) else "pairs " + ", ".join(f"{a}-{b}" for a, b in nb[:4])
