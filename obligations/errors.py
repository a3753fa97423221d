"""The one small hierarchy of faults.

Verdicts (proved, refuted, unproved) are values, never exceptions; these
exceptions are for bad input (exit 2) and for a broken prover or machine
(exit 3).  Every message says what to do about it.
"""
from __future__ import annotations

EXIT_PROVED = 0
EXIT_NOT_PROVED = 1
EXIT_USAGE = 2
EXIT_INFRA = 3


class ObligationsError(Exception):
    """Base class; `exit_code` is what the CLI exits with."""

    exit_code = EXIT_INFRA


class SpecError(ObligationsError):
    """A spec that cannot be used: names the file and the field."""

    exit_code = EXIT_USAGE

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        self.message = message
        where = f"{file}: {field}" if field else file
        super().__init__(f"{where}: {message}")


class UsageError(ObligationsError):
    """A command line that cannot be carried out."""

    exit_code = EXIT_USAGE


class InternalError(ObligationsError):
    """A bug of ours (a state the checks before should have excluded): exit 3, please report."""

    exit_code = EXIT_INFRA

    def __init__(self, message: str) -> None:
        super().__init__(f"internal error, please report it: {message}")


class InfrastructureError(ObligationsError):
    """The prover or the machine failed; not a verdict on the claim."""

    exit_code = EXIT_INFRA


class ProverMissing(InfrastructureError):
    """coqc, coqchk or a Coq library is not installed."""


class ProverCrashed(InfrastructureError):
    """Coq exited in a way that is neither a proof nor a failed proof."""
