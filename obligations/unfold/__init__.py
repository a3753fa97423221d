"""Unfolding: from a checked spec to exact distributions and proof obligations."""
