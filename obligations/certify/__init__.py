"""Certificates: the run (prove), what a certificate must say, verify, the allow-list."""
