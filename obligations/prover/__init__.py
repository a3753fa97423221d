"""The prover layer: the only part of the tool that starts processes."""
