"""The documentation site builds with `mkdocs build --strict` (what `make docs` runs): a link to
a missing page or anchor, or outside docs/, fails it.  Skipped without the `docs` extra."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs", reason="the site is built with the optional extra 'docs' (pip install '.[docs]')")

REPO = Path(__file__).resolve().parents[2]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    # not -q: MkDocs 1.6 then drops the warnings --strict counts
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "--site-dir", str(site)], capture_output=True, text=True, timeout=300)


def test_the_site_builds_strict(tmp_path: Path) -> None:
    done = build(REPO / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "tutorial" / "index.html").is_file()


def test_a_broken_anchor_fails_the_build(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[the tutorial](other.md#no-such-heading)\n")
    (docs / "other.md").write_text("# Other\n\n## A heading\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text((REPO / "mkdocs.yml").read_text().split("\nnav:")[0] + "\nnav:\n  - Home: index.md\n"
                      "  - Other: other.md\n")
    done = build(config, tmp_path / "site")
    assert done.returncode != 0 and "no-such-heading" in done.stderr
