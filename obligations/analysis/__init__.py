"""Exact analysis shared by kinds: finite tables and their plan, privacy curves, composition, profiles."""
