"""What `prove` gave for the test specs whose results the Coq tests only read, from the
certificates Coq made of them (tests/certificates/, made by `make test-certificates` as
`make prove` makes certificates/).  `tests/coq/test_committed_certificates.py` keeps them
current: each must be what the spec renders to now, with the recorded proofs, the library's
hash and this Coq, so a change that could alter a verdict fails there until they are re-made.
The Coq tests that exercise `prove` and `verify` themselves (the pipeline, tampering, the
audit, the session, one spec per route) still run Coq."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TEST_CERTS = REPO / "tests" / "certificates"
SPECS_LIST = TEST_CERTS / "SPECS"
SHIPPED = {REPO / "mechanisms", REPO / "mechanisms" / "refuted"}   # certified by make prove


def listed() -> list[Path]:
    """The spec files `make test-certificates` proves (one path per line, from the root)."""
    lines = SPECS_LIST.read_text().splitlines()
    return [REPO / line.strip() for line in lines if line.strip() and not line.startswith("#")]


def listed_claims() -> set[str]:
    """The names of the certificates `make test-certificates` makes: each listed spec's claim
    and, for a spec with a profile, each point's (NAME[_kK]_eps_<eps>_ub, and _lb when refuted
    below it), as `prove` names them."""
    from obligations.certify.profiles import point_name, point_sides, profile
    from obligations.certify.run import load_specs
    names = set()
    for spec in load_specs(listed()):
        names.add(spec.name)
        for k in getattr(spec, "profile_compose", ()):   # a finite table's profile
            for p in profile(spec, spec.profile_epsilons, k).points:
                names |= {point_name(spec.name, k, p.epsilon, side) for side, _ in point_sides(p)}
    return names


def record(name: str, folder: Path = TEST_CERTS) -> dict[str, Any]:
    """The committed certificate of the claim `name`."""
    data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text())
    return data


def results(*specs: Path | str) -> tuple[Path, dict[str, dict[str, Any]]]:
    """The folder of the certificates and each claim's outcome by name, as `prove --json`
    printed it when Coq made the certificate (`cached` is true: nothing ran now).  Shipped
    specs (mechanisms/, mechanisms/refuted/) are read from certificates/, the others from
    tests/certificates/; the specs of one call are all of one kind."""
    from obligations.certify.checked import outcome_of
    from obligations.certify.run import load_specs
    paths = [(Path(s) if Path(s).is_absolute() else REPO / s).resolve() for s in specs]
    shipped = {p.parent in SHIPPED for p in paths}
    assert len(shipped) == 1, "shipped and test specs in one call"
    folder = REPO / "certificates" if shipped == {True} else TEST_CERTS
    if folder == TEST_CERTS:
        known = {p.resolve() for p in listed()}
        missing = [str(p) for p in paths if p not in known]
        assert not missing, f"not in {SPECS_LIST.relative_to(REPO)} (add, then make test-certificates): {missing}"
    out = {}
    for spec in load_specs(paths):
        json_path = folder / f"{spec.name}.json"
        out[spec.name] = outcome_of(spec, json_path, record(spec.name, folder)).to_json()
    return folder, out


def beside(stdout: str, out: Path, *specs: Path | str) -> dict[str, tuple[dict[str, Any], Path]]:
    """The outcomes `prove --json` printed (certificates in `out`) and those of `specs` read
    from their committed certificates, each with the folder of its certificate."""
    folder, read = results(*specs)
    proved = {o["name"]: (o, out) for o in json.loads(stdout)["results"]}
    return proved | {n: (o, folder) for n, o in read.items()}


class Folders:
    """Several output folders read as one (`folders / "NAME.json"`: the first that has it), for
    a test whose claims were proved now in one folder and are read from another."""

    def __init__(self, *folders: Path) -> None:
        self.folders = folders

    def __truediv__(self, file: str) -> Path:
        return next((f / file for f in self.folders if (f / file).exists()), self.folders[0] / file)


def copy(name: str, out: Path, folder: Path = TEST_CERTS) -> Path:
    """A copy of the committed certificate `name` in `out` (its JSON, .v and shared modules),
    with its spec at the path the record names relative to `out` (so `out`'s parent must be
    a scratch folder): honest files Coq made, to tamper with, without proving them again."""
    data = record(name, folder)
    out.mkdir(parents=True)
    for suffix in (".json", ".v"):
        shutil.copy(folder / f"{name}{suffix}", out / f"{name}{suffix}")
    for f in data.get("shared_files") or []:
        (out / f["path"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / f["path"], out / f["path"])
    spec = Path(os.path.normpath(out / data["spec"]["path"]))
    spec.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(os.path.normpath(folder / data["spec"]["path"]), spec)
    return out


def rederived(json_path: Path, spec: Path | None = None) -> list[str]:
    """What `verify` finds wrong with a certificate before it runs Coq (empty: nothing): the
    claim re-derived from its spec (or `spec`), every field and the .v compared with it; this is
    where verify depends on the route.  Its Coq half (coqc, coqchk and the audit compared with
    the record) is the same for every route and repeats what `prove` just did on the same file:
    tests/coq/test_tamper.py runs it end to end (a proof, a refutation, a certificate with a
    shared module)."""
    from obligations.certify.outcome import Settings
    from obligations.certify.verify import Verification, _compared
    step = _compared(json_path, Settings(), spec)
    return step.problems if isinstance(step, Verification) else []
