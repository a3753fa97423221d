"""Certificates: what was proved, how, and what it rests on, in a re-checkable JSON file."""
