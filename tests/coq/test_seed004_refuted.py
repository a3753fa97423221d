"""Real Coq: seed 004's snapping beyond Mironov's range (B = 2^p·λ, here in precision 2) is
refused with an output one input reaches and its neighbour never does: no finite ε holds, so
neither does the seed's bound ε + 12Bεη + 2η (tests/specs/floating/seed004_beyond_range_p2*.yaml
claim exactly that bound; they are too slow for CI, see docs/binary64.md).  Read from the
certificate Coq made of the spec (tests/certificates/, `make test-certificates`;
tests/coq/test_committed_certificates.py keeps it current): proving it again cost ~30 s CPU, and
`verify` of a floating-point certificate runs Coq in tests/coq/test_tamper.py."""
from __future__ import annotations

from fractions import Fraction

import committed

SPEC = "tests/specs/floating/snapping_p2_beyond_range.yaml"


def test_snapping_beyond_mironovs_range_is_refuted() -> None:
    _, results = committed.results(SPEC)
    (o,) = results.values()
    assert o["verdict"] == "refuted"
    assert "~ dp_runs" in o["statement"]
    w = o["witness"]                       # an event x = 0 reaches far more often than x = 1
    assert (w["x"], w["x_prime"]) == ("0", "1")
    assert Fraction(w["pr_x"]) > 55 * Fraction(w["pr_x_prime"])     # e^4 < 55
