"""The refutation route of all-k program claims without Coq: the compiled runs agree with
the reference semantics, the zero-vector shortcut agrees with the exact bracket, the
search finds the buggy programs' witnesses and proposes none for true claims, and the
refutation states the negation of exactly what the proof route states."""
from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import pytest
import yaml

import obligations.models  # noqa: F401  (the models first: align.spec imports through them)
from obligations.program.align.spec import AlignSpec, check
from obligations.program.refute import zero as Z
from obligations.program.refute.render import render
from obligations.program.refute.search import search
from obligations.program.refute.tape import Eps, Program, ball, bracket, expo
from obligations.program.refute.witness import Witness, ball_size, base_L

REPO = Path(__file__).resolve().parent.parent.parent
CHECKDP = REPO / "mechanisms" / "checkdp"
BUGGY = ("badsparsevector1", "badsparsevector2", "badsparsevector3", "badgapsparsevector", "badnoisymax",
         "badpartialsum", "badsmartsum")          # badadaptivesparsevector (10 s): tests/coq/test_refute.py


def spec_of(path: Path) -> AlignSpec:
    text = path.read_bytes()
    return check(yaml.safe_load(text), str(path), hashlib.sha256(text).hexdigest())


@pytest.mark.parametrize("name", [*BUGGY, "badadaptivesparsevector", "sparsevector"])
def test_compiled_runs_agree_with_the_reference_semantics(name: str) -> None:
    spec = spec_of(CHECKDP / f"{name}.yaml")
    rng = random.Random(name)
    for k in (1, 2, 4):
        prog = Program(spec, k)
        for _ in range(200):
            x = tuple(rng.randint(-3, 3) for _ in range(spec.npub + k))
            v = [rng.randint(-3, 3) for _ in prog.scales]
            assert prog.run(x, v) == prog.run_slow(x, v)


def test_ball_is_the_vectors_of_weight_at_most_r() -> None:
    ns = [2, 1, 3]
    for R in range(6):
        got = list(ball(ns, R))
        assert len(got) == len(set(got)) == ball_size(ns, R, 10 ** 6)
        assert all(expo(ns, v) <= R for v in got)
        assert sum(Z.shells(ns, R)) == len(got)


def test_min_weight_is_the_brute_force_minimum() -> None:
    spec = spec_of(CHECKDP / "badsparsevector3.yaml")
    prog = Program(spec, 2)
    ns = Eps(base_L(spec, prog.scales), 1, 2).exps(prog.scales)
    assert ns is not None
    x2 = (0, 0, -1)
    for target in {prog.run(x2, v) for v in ball(ns, 6)}:
        brute = min((expo(ns, v) for v in ball(ns, 6) if prog.run(x2, v) == target), default=None)
        assert Z.min_weight(prog, x2, target, ns, 6) == brute
        # the first tape found: one exists exactly when a least one does, and weighs no less
        got = Z.min_weight(prog, x2, target, ns, 6, first=True)
        assert (got is None) == (brute is None) and (got is None or brute is None or got >= brute)


@pytest.mark.parametrize("name", BUGGY)
def test_buggy_program_has_a_witness_that_checks(name: str) -> None:
    spec = spec_of(CHECKDP / f"{name}.yaml")
    w = search(spec)
    assert isinstance(w, Witness)
    prog = Program(spec, w.k)
    again = bracket(prog, w.x, w.x2, frozenset(w.event), w.eps, w.M, w.R, w.R2)
    assert again.holds and again == w.bracket
    assert w.bracket.lower > (Eps(1, w.eps.p, w.eps.q).q / w.eps.p) ** w.M * w.bracket.upper


def test_zero_shortcut_is_the_exact_bracket() -> None:
    spec = spec_of(CHECKDP / "badgapsparsevector.yaml")
    prog = Program(spec, 5)
    x, x2 = (0, -1, -1, -1, -1, 0), (0, 0, 0, 0, 0, 1)
    ns = Eps(4, 1, 2).exps(prog.scales)
    assert ns is not None
    o = prog.run(x, [0] * len(ns))
    assert Z.min_weight(prog, x2, o, ns, 4) is None
    for q in (16, 2048):
        eps = Eps(4, 1, q)
        assert Z.zero_bracket(eps, ns, 4, 4) == bracket(prog, x, x2, frozenset([o]), eps, 4, 0, 4)


@pytest.mark.parametrize("path", ["mechanisms/checkdp/sparsevector.yaml", "mechanisms/above_threshold_all_k.yaml",
                                  "mechanisms/report_noisy_max_all_k.yaml"])
def test_true_claims_get_no_witness(path: str) -> None:
    assert search(spec_of(REPO / path), kmax=2, budget=100_000) is None   # k <= 2: the docs search to k = 3


def test_under_noised_sparse_vector_is_refuted() -> None:
    w = search(spec_of(REPO / "tests/specs/refute/svt_under_noised.yaml"))
    assert w is not None and w.bracket.holds


def _definitions(text: str, name: str) -> list[str]:
    """The Definitions of the program and the relation, as rendered."""
    return [m.group(0) for m in re.finditer(rf"Definition {name}_(body|prog|nb) .*?\.\n", text, re.S)]


def test_refutation_negates_the_proof_routes_claim() -> None:
    from obligations.program.align import route
    spec = spec_of(CHECKDP / "sparsevector.yaml")
    found = route.decide(spec)
    assert isinstance(found, route.Found)
    prog = Program(spec, 1)
    eps = Eps(base_L(spec, prog.scales), 1, 2)
    fake = Witness(1, (0, 0), (0, 1), ((1,),), eps, 1, 0, 0, bracket(prog, (0, 0), (0, 1), frozenset([(1,)]),
                                                                    eps, 1, 0, 0), 2)
    mine = render(spec, fake).text
    theirs = found.rendered.text
    assert _definitions(mine, "sparsevector") == _definitions(theirs, "sparsevector") != []
    claim = re.search(r"Theorem sparsevector_dp_all_k : (.*?)\.\n", theirs)
    refuted = re.search(r"Theorem sparsevector_not_dp_all_k : ~ (.*?)\.\n", mine)
    assert claim and refuted and claim.group(1) == refuted.group(1)
