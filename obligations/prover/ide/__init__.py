"""Driving Coq sentence by sentence through its XML IDE protocol (`coqidetop.opt`).

`protocol` encodes calls and decodes answers (no I/O); `session` runs one
`coqidetop.opt` process; `portfolio` tries tactics per obligation over sessions.
"""
