"""What a rendered Coq file proves, read from its text: each lemma's name in order, with the
tactics its proof uses in the order they are first used (the typed lists `show` prints beside
a template must agree with it)."""
from __future__ import annotations

import re

_TACTIC = re.compile(r"\b(lra|nra|lia|field|ring|interval|exact|apply|eapply|rewrite|unfold|intros|assert|"
                     r"destruct|reflexivity)\b")
_LEMMA = re.compile(r"^(Lemma|Theorem|Corollary) (\w+)", re.M)
_PROOF = re.compile(r"Proof\.(.*?)(Qed|Defined)\.", re.S)


def lemmas_and_tactics(text: str) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for m in _LEMMA.finditer(text):
        proof = _PROOF.search(text, m.end())
        assert proof is not None, f"{m.group(2)} has no proof"
        found.append((m.group(2), list(dict.fromkeys(_TACTIC.findall(proof.group(1))))))
    return found
