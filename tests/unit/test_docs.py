"""The documentation, checked offline: every relative link of README.md and docs/*.md resolves
(file and heading), every spec in them is accepted as written, every epsilon in a fragment
parses, every page mkdocs.yml names exists, and the README's commands name real files and options."""
from __future__ import annotations

import re
import shlex
import unicodedata
from pathlib import Path

import pytest
import yaml

from obligations.cli import _parser
from obligations.core import expr as E
from obligations.models import load

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def prose(text: str) -> str:
    """The page without its code blocks and inline code (where brackets are not links)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub and mkdocs give a heading (lower case, punctuation dropped, spaces to -)."""
    text = unicodedata.normalize("NFKC", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#+ (.*)$", FENCE.sub("", page.read_text()), re.M)}


def links() -> list[tuple[Path, str]]:
    return [(page, target) for page in PAGES for target in LINK.findall(prose(page.read_text()))
            if not re.match(r"[a-z]+:", target)]          # http:, https:, mailto: are not checked


def yaml_blocks() -> list[tuple[Path, int, str]]:
    return [(page, n, body) for page in PAGES
            for n, (lang, body) in enumerate(FENCE.findall(page.read_text())) if lang == "yaml"]


def test_the_docs_have_links_and_specs_to_check() -> None:
    assert len(links()) >= 30 and len(yaml_blocks()) >= 6     # the checks below are not vacuous


@pytest.mark.parametrize("page,target", links(), ids=lambda x: getattr(x, "name", x))
def test_every_relative_link_resolves(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    assert dest.exists(), f"{page.name}: {target} does not exist"
    assert REPO in dest.parents or dest == REPO, f"{page.name}: {target} leaves the repository"
    if anchor and dest.suffix == ".md":
        assert anchor in anchors(dest), f"{page.name}: no heading #{anchor} in {dest.name}"


@pytest.mark.parametrize("page,n,body", yaml_blocks(), ids=lambda x: getattr(x, "name", str(x)[:20]))
def test_every_spec_in_the_docs_is_accepted(page: Path, n: int, body: str, tmp_path: Path) -> None:
    """A whole spec (it has schema_version) must load as written; a fragment must be YAML, and
    every epsilon in it an expression of the spec language (`ln(3)`, never `ln 3`)."""
    data = yaml.safe_load(body)
    assert isinstance(data, dict), f"{page.name}, YAML block {n}"
    if "schema_version" in data:
        spec = tmp_path / f"{page.stem}_{n}.yaml"
        spec.write_text(body)
        load(spec)            # raises SpecError naming the field
    for eps in _epsilons(data):
        E.parse(str(eps))     # raises ExprError


def _epsilons(node: object) -> list[object]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "epsilon"] + [e for v in node.values() for e in _epsilons(v)]
    if isinstance(node, list):
        return [e for v in node for e in _epsilons(v)]
    return []


def test_the_ln_without_parentheses_is_what_the_check_catches() -> None:
    with pytest.raises(E.ExprError):
        E.parse("ln 3")


def test_mkdocs_nav_names_existing_pages() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    pages: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            pages.append(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(config["nav"])
    assert "tutorial.md" in pages and "programs.md" in pages
    for p in pages:
        assert (REPO / config["docs_dir"] / p).exists(), p


def test_readme_commands_name_real_files_and_options() -> None:
    """Each `obligations ...` line of the README's shell blocks parses with the real parser, and
    every path it names (but the outputs it creates) exists."""
    readme = (REPO / "README.md").read_text()
    commands = [line.split("#")[0].strip() for lang, body in FENCE.findall(readme) if lang == "sh"
                for line in body.splitlines() if line.strip().startswith("obligations ")]
    assert len(commands) >= 6
    parser = _parser()
    for command in commands:
        argv = shlex.split(command)[1:]
        args = parser.parse_args(argv)          # exits (SystemExit) on an unknown option
        named = [*getattr(args, "specs", []), *getattr(args, "certificates", [])] + (
            [args.spec] if isinstance(getattr(args, "spec", None), Path) else [])
        for path in named:
            made = path.parts[0] == "certificates"   # written by the `prove` line before it
            assert made or (REPO / path).exists(), f"{command}: {path}"


def test_the_tutorial_shows_what_check_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The tutorial's spec, and its typo, give the lines the tutorial prints (no Coq needed)."""
    from obligations.cli import main
    text = (REPO / "docs" / "tutorial.md").read_text()
    spec = next(body for lang, body in FENCE.findall(text) if lang == "yaml" and "name: coin" in body)
    shown = [body.strip() for lang, body in FENCE.findall(text) if lang == ""]
    monkeypatch.chdir(tmp_path)
    Path("coin.yaml").write_text(spec)
    assert main(["check", "coin.yaml"]) == 0
    assert capsys.readouterr().out.strip() in shown
    Path("coin_typo.yaml").write_text(spec.replace('"no":  ["1/5", "4/5"]', '"no":  ["1/5", "3/5"]'))
    assert main(["check", "coin_typo.yaml"]) == 2
    assert capsys.readouterr().err.strip() in shown
