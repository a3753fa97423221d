"""The generic alignment route: a program over a stream of any length, with untruncated
geometric noise, proved (c·ε)-DP for every stream length and every ε by an alignment that
Coq checks for the program as written (`theories/Coupling/AlignSound.v`).

`spec` checks the spec and lowers it; `sem` runs it (the tape semantics and the aligned
run, in Python, for the search); `synth` finds the shifts and the loop invariant;
`render` writes the Coq file.
"""
