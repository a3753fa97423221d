"""Running prover jobs on a Dask cluster (`prove --cluster tcp://scheduler:8786`).

An existing distributed engine, not a scheduler of our own: the jobs go to the workers of a
running Dask scheduler, each worker runs them with its own Coq (the project's Docker image),
and the results come back in the order of the jobs. The client only connects: it starts no
process. `distributed` is an optional extra (`pip install 'obligations[cluster]'`)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from obligations.errors import InfrastructureError, UsageError

T = TypeVar("T")
R = TypeVar("R")


def run_on_cluster(address: str, fn: Callable[[T], R], items: Sequence[T], timeout: float) -> list[R]:
    """fn on every item on the workers of the Dask scheduler at `address`; the results in the
    order of `items`. `fn` must be importable by the workers (a module-level function of an
    installed package) and so must every item's type."""
    client_class = _client_class()
    try:
        client = client_class(address, timeout=min(timeout, 60.0), set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise InfrastructureError(f"no Dask scheduler answers at {address}: {exc}") from exc
    try:
        futures = client.map(fn, list(items), pure=False)
        return list(client.gather(futures))
    finally:
        client.close()


def _client_class() -> Any:
    try:
        from distributed import Client
    except ImportError as exc:
        raise UsageError("--cluster needs Dask's distributed: pip install 'obligations[cluster]'") from exc
    return Client
