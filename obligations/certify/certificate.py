"""The certificate file: a JSON record sealed by its own SHA-256."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

FORMAT = "obligations-certificate/4"   # 4: the library hash covers the files the certificate loads


def spec_reference(spec_path: str, json_path: Path) -> str:
    """The spec's path as a certificate records it, relative to the certificate's directory:
    the same however the path was typed and wherever the tool ran."""
    return Path(os.path.relpath(Path(spec_path).resolve(), json_path.parent.resolve())).as_posix()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def theories_sha256(theories: Path) -> str:
    """One hash over the library's sources, in _CoqProject order."""
    return library_sha256(theories, [theories / line.strip() for line in
                                     (theories / "_CoqProject").read_text().splitlines()
                                     if line.strip().endswith(".v")])


def library_sha256(theories: Path, files: list[Path]) -> str:
    """One hash over these library sources (each by its path in the library), in the given
    order: a certificate's is over the files its .v loads, so a change elsewhere in the
    library leaves it current."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(theories).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def seal(record: dict[str, Any]) -> dict[str, Any]:
    """The record with `certificate_sha256` over everything else."""
    body = {k: v for k, v in record.items() if k != "certificate_sha256"}
    return {**body, "certificate_sha256": _digest(body)}


def is_sealed(record: dict[str, Any]) -> bool:
    body = {k: v for k, v in record.items() if k != "certificate_sha256"}
    return record.get("certificate_sha256") == _digest(body)


def _digest(body: dict[str, Any]) -> str:
    return sha256_text(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True))


def text(record: dict[str, Any]) -> str:
    """The certificate file's text: the record sealed."""
    return json.dumps(seal(record), indent=1, sort_keys=False) + "\n"


def write(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    try:
        tmp.write_text(text(record))
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def read(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not an obligations certificate ({FORMAT})")
    return data
