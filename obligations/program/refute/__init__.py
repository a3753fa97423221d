"""Certified counterexamples to every-k claims about programs with untruncated noise.

When a program over a stream is not (c·ε)-DP for every stream length, `search` finds a
violation: a stream length k, neighbouring inputs x, x', an event S (a finite set of
output sequences) and ε = L·ln(q/p), with two boxes of noise vectors that bracket
Pr[p(x) ∈ S] from below and Pr[p(x') ∈ S] from above tightly enough that
Pr[p(x) ∈ S] > e^(c·ε)·Pr[p(x') ∈ S].  `render` writes the Coq file whose theorem is
the negation of the claim the alignment route states (`~ dp_all_k NAME_nb NAME_prog
nvars c`), proved by `not_dp_all_k_of_bracket` (`theories/Coupling/Refute.v`) from one
`vm_compute`d integer comparison over the boxes: Coq runs the program (its own tape
semantics) on every vector of both boxes.  `tape` mirrors that computation exactly, so the
search only proposes witnesses whose check holds.
"""
