"""What a Dask worker runs for `prove --cluster`: one spec file, as `prove` would run it here.

The worker reads the spec itself (the client checked it already) from the same path: the
client, the workers and the certificate directory share a file system, mounted at the same
place. It writes the certificates there and returns the outcomes and the profiles, which the
client prints as `prove` does. Module-level and made of plain values, so that Dask can send
it to a worker that has the package installed (the project's Docker image)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from obligations.certify.outcome import Outcome, Settings
from obligations.certify.profiles import Profile, certify_many, profile
from obligations.certify.run import load_specs, prove_many
from obligations.models import unfold


@dataclass(frozen=True)
class RemoteSettings:
    """The part of the client's settings a worker uses: absolute paths and plain values (the
    worker's own Coq library and the default build of its package are its own)."""

    out: str
    build: str
    timeout: float
    use_cache: bool


def prove_file(path: str, settings: RemoteSettings) -> tuple[list[Outcome], list[Profile]]:
    """Every claim of the spec file at `path` (a sweep's points re-checked by one coqchk run),
    then its profiles' points: the outcomes, and the profiles with their proofs."""
    here = Settings(build=Path(settings.build), out=Path(settings.out), timeout=settings.timeout,
                    use_cache=settings.use_cache)
    units = [unfold(s) for s in load_specs([Path(path)])]
    outcomes = prove_many(units, here)
    profiles = [profile(u.spec, u.spec.profile_epsilons, k, table=u.mechanism)
                for u in units for k in u.spec.profile_compose]
    certify_many(profiles, here)
    return outcomes, profiles
