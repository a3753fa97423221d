"""Coq in batch: build the theory library, compile a generated file (which prints
its own audit: theorem statements and their assumptions), re-check it with coqchk."""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from obligations.core.audit import ASSUMPTIONS, END, MARKERS, STATEMENT, TUPLE
from obligations.core.templates import SHARED_LIBRARY
from obligations.errors import InfrastructureError, ProverCrashed, ProverMissing
from obligations.prover import trust
from obligations.prover.process import Completed, run

LIBRARY = "Obligations"      # logical name of theories/
GENERATED = "Certs"          # logical name of a generated file's directory
Status = Literal["ok", "failed", "timeout"]


# The Coq releases certificates are made and checked with (Debian bookworm's).
SUPPORTED_COQ = ("8.16",)


@dataclass(frozen=True)
class StageResult:
    """One prover stage: ok, failed (a proof did not go through) or timed out."""

    status: Status
    seconds: float
    peak_kib: int
    message: str = ""        # for failures: Coq's error, with the lemma it is in
    line: int | None = None          # for failures: the line of the file Coq stopped at
    axioms: tuple[str, ...] = ()        # coqchk: every axiom of the checked environment (full names)
    unsafe: tuple[str, ...] = ()        # coqchk: constants relying on unsafe features
    output: str = ""                    # coqc: what the file printed (its audit)

    def only(self, module: str) -> StageResult:
        """coqchk's summary as it concerns one of the generated modules it checked together:
        without the axioms and unsafe constants of the others."""
        mine = f"{GENERATED}.{module}."

        def keep(name: str) -> bool:
            return name.startswith(mine) or not name.startswith(f"{GENERATED}.")
        return replace(self, axioms=tuple(a for a in self.axioms if keep(a)),
                       unsafe=tuple(u for u in self.unsafe if keep(u)))


@dataclass(frozen=True)
class Audit:
    """Each theorem's statement and the assumptions of all of them (one `Print
    Assumptions` of their tuple), as the compiled file printed them."""

    statements: dict[str, str]
    assumptions: list[str]


@dataclass
class Coq:
    """The Coq toolchain, with our theory library at `theories`."""

    theories: Path
    timeout: float = 600.0
    transcript: Path | None = None
    shared: Path | None = None    # the directory of the compiled shared modules (`Obligations.Shared`)
    _version: str | None = field(default=None, init=False)
    _stamp: Path | None = field(default=None, init=False)

    def _run(self, argv: list[str], cwd: Path | None = None, timeout: float | None = None) -> Completed:
        env = _checker_env() if argv[0] == "coqchk" else None
        return run(argv, timeout=timeout or self.timeout, cwd=cwd, transcript=self.transcript, env=env)

    def version(self) -> str:
        """coqc's and coqchk's version, which must agree and be a supported release."""
        if self._version is None:
            key = f"{shutil.which('coqc')}|{shutil.which('coqchk')}"
            if key not in _VERSIONS:
                coqc = self._tool_version(["coqc", "--version"])
                coqchk = self._tool_version(["coqchk", "--version"])
                if coqc != coqchk:
                    raise ProverMissing(f"coqc is version {coqc} but coqchk is {coqchk}: "
                                        "install both from the same Coq release (apt-get install coq)")
                if ".".join(coqc.split(".")[:2]) not in SUPPORTED_COQ:
                    raise ProverMissing(f"Coq {coqc} is not supported: certificates are made and checked "
                                        f"with Coq {', '.join(SUPPORTED_COQ)} (Debian bookworm's "
                                        "`apt-get install coq libcoq-interval libcoq-flocq libcoq-mathcomp-analysis`)")
                _VERSIONS[key] = coqc
            self._version = _VERSIONS[key]
        return self._version

    def _tool_version(self, argv: list[str]) -> str:
        try:
            done = self._run(argv, timeout=30)
        except InfrastructureError as exc:
            raise ProverMissing(f"`{' '.join(argv)}` failed: is Coq installed? (apt-get install coq)") from exc
        m = re.search(r"version (\d+\.\d+(?:\.\d+)?)\b", done.stdout)
        if done.returncode != 0 or not m:
            raise ProverMissing(f"`{' '.join(argv)}` failed: is Coq installed? (apt-get install coq)")
        return m.group(1)

    def load_path(self) -> list[str]:
        # only once some shared module was made there: coqc warns of a missing directory
        shared = ["-Q", str(self.shared), SHARED_LIBRARY] if self.shared is not None and self.shared.is_dir() else []
        return ["-Q", str(self.theories), LIBRARY, *shared]

    # -- the library
    def library_files(self) -> list[Path]:
        project = self.theories / "_CoqProject"
        try:
            lines = project.read_text().splitlines()
        except OSError as exc:
            raise InfrastructureError(f"cannot read {project}: is the repository complete?") from exc
        return [self.theories / ln.strip() for ln in lines if ln.strip().endswith(".v")]

    def library_module(self, vfile: Path) -> str:
        """The logical name of a library file: `Core/Sums.v` is `Obligations.Core.Sums`."""
        return ".".join((LIBRARY, *vfile.relative_to(self.theories).with_suffix("").parts))

    def build_theories(self, progress: Callable[[str], None] | None = None,
                       needed: list[Path] | None = None) -> float:
        """Compile the library files whose .vo is missing or older than their .v or than the
        .vo of a library file they load (telling `progress` each): all of them, or only those
        of `needed` (e.g. `closure_of_texts` of the files to compile); returns seconds spent."""
        self.version()
        files = self.library_files()
        deps = self._library_deps(files)
        if deps is None:     # a `Require` not read for certain: all files, each after a rebuilt one too
            wanted, cascade = set(files), True
        else:
            wanted, cascade = set(files if needed is None else needed), False
        spent, rebuilt = 0.0, False
        for v in files:                # _CoqProject lists a file after the files it loads
            if v in wanted and ((cascade and rebuilt) or self._stale(v, deps[v] if deps else [])):
                if progress is not None:
                    progress(f"compiling the Coq library (once): {v.relative_to(self.theories)}")
                done = self._run(["coqc", *self.load_path(), str(v)], cwd=self.theories)
                spent += done.seconds
                if done.returncode != 0:
                    raise InfrastructureError(
                        f"the Coq library does not build ({v.name}):\n{_excerpt(done)}\n"
                        "Check that Coq 8.16 and libcoq-interval are installed.")
                rebuilt = True
                self._stamp = None   # other .vo files: another stamp
        return spent

    def _library_deps(self, files: Sequence[Path]) -> dict[Path, list[Path]] | None:
        """The library files each library file loads; None if some `Require` is not read for certain."""
        by_module = {self.library_module(v): v for v in files}
        deps: dict[Path, list[Path]] = {}
        for v in files:
            try:
                required = _required_in(v)
            except OSError as exc:
                raise InfrastructureError(f"cannot read {v}: is the repository complete?") from exc
            if None in required:
                return None
            deps[v] = [by_module[m] for m in required if m is not None and m in by_module]
        return deps

    @staticmethod
    def _stale(v: Path, loads: Sequence[Path]) -> bool:
        """v's .vo is missing, or older than v or than the .vo of a file it loads."""
        vo = v.with_suffix(".vo")
        if not vo.exists() or vo.stat().st_mtime < v.stat().st_mtime:
            return True
        return any(not d.with_suffix(".vo").exists() or d.with_suffix(".vo").stat().st_mtime > vo.stat().st_mtime
                   for d in loads)

    # -- coqchk of the library, once per compiled library
    def _library_stamp(self) -> Path:
        """A file next to the library whose name is the hash of its compiled .vo files and
        the Coq version, holding this machine's record (`trust`) once coqchk accepted exactly
        those files (hashed once: the library is built before any file is checked)."""
        if self._stamp is None:
            h = hashlib.sha256(self.version().encode())
            for v in self.library_files():
                vo = v.with_suffix(".vo")
                if vo.exists():        # a library compiled in part (`build_theories(needed=...)`)
                    h.update(self.library_module(v).encode() + vo.read_bytes())
            self._stamp = self.theories / f".coqchk-ok-{h.hexdigest()[:32]}"
        return self._stamp

    def library_digest(self) -> str:
        """The hash naming this compiled library (and Coq version): what a shared module's
        .vo was compiled against."""
        return self._library_stamp().name.removeprefix(".coqchk-ok-")

    def library_compiled(self) -> bool:
        """Whether every library file has its .vo (`build_theories` may compile only a part)."""
        return all(v.with_suffix(".vo").exists() for v in self.library_files())

    def library_checked(self, trust_stamp: bool = True) -> bool:
        """Whether coqchk accepted this compiled library: in this process, or (if
        `trust_stamp`) in any run that left the stamp."""
        try:
            stamp = self._library_stamp()
        except OSError:
            return False
        return stamp.name in _CHECKED_HERE or (trust_stamp and trust.holds(stamp, self._stamp_parts()))

    def _stamp_parts(self) -> list[str]:
        return ["library checked by coqchk", self.library_digest(), self.version()]

    def library_closure(self, vfiles: Sequence[Path]) -> list[Path]:
        """The library files that `vfiles` load, directly or through each other (a file is
        loaded only by a `Require`, so coqchk need not look at the others); the whole library
        when a `Require` is not one this parser reads for certain."""
        return self.closure_of_texts([v.read_text() for v in vfiles])

    def closure_of_texts(self, texts: Sequence[str], shared: dict[str, str] | None = None) -> list[Path]:
        """`library_closure` of files with these texts; `shared`: the texts of shared modules
        by logical name, for those not yet written to the shared directory."""
        files = {self.library_module(v): v for v in self.library_files()}
        on_disk = {f"{SHARED_LIBRARY}.{v.stem}": v for v in self.shared.glob("*.v")} \
            if self.shared is not None and self.shared.is_dir() else {}
        known: dict[str, Callable[[], list[str | None]]] = {
            m: functools.partial(_required_in, v) for m, v in {**files, **on_disk}.items()}
        for m, t in (shared or {}).items():   # checked as such; what they load, here
            known[m] = functools.partial(_required, t)
        seen: set[str] = set()
        todo = [m for t in texts for m in _required(t)]
        while todo:
            module = todo.pop()
            if module is None or (module.startswith(LIBRARY + ".") and module not in known):
                return list(files.values())
            if module in seen or module not in known:
                continue                     # checked already, or not ours (the standard library)
            seen.add(module)
            todo += known[module]()
        return [v for m, v in files.items() if m in seen]

    def closure_digest(self, texts: Sequence[str], shared: dict[str, str] | None = None) -> str:
        """One hash over the compiled library files that files with these texts load (their
        .vo, by module) and the Coq version: what a check of those files was made against.
        OSError if one of them is not compiled."""
        h = hashlib.sha256(self.version().encode())
        for v in self.closure_of_texts(texts, shared):
            h.update(self.library_module(v).encode() + b"\0" + _vo_sha256(v.with_suffix(".vo")).encode())
        return h.hexdigest()

    def unchecked(self, library: Sequence[Path]) -> list[Path]:
        """The files of `library` coqchk has not accepted in this process (this compiled library)."""
        done = _CHECKED_MODULES.get(self._library_stamp().name, set())
        return [v for v in library if self.library_module(v) not in done]

    def mark_checked(self, library: Sequence[Path]) -> None:
        """coqchk accepted these library files; all of them: the whole library (a stamp)."""
        done = _CHECKED_MODULES.setdefault(self._library_stamp().name, set())
        done.update(self.library_module(v) for v in library)
        if done >= {self.library_module(v) for v in self.library_files()}:
            self.mark_library_checked()

    def mark_library_checked(self) -> None:
        stamp = self._library_stamp()
        _CHECKED_HERE.add(stamp.name)
        try:
            for old in self.theories.glob(".coqchk-ok-*"):
                old.unlink()
            trust.remember(stamp, self._stamp_parts())
        except OSError:
            pass  # a read-only library is simply checked again next time

    # -- a generated file
    def compile(self, vfile: Path) -> StageResult:
        argv = ["coqc", *self.load_path(), "-Q", str(vfile.parent), GENERATED, str(vfile)]
        done = self._run(argv, cwd=vfile.parent)
        return _stage(done, vfile)

    def compile_shared(self, vfile: Path) -> StageResult:
        """coqc on a shared module (in the `shared` directory, logical `Obligations.Shared`)."""
        if self.shared is None or vfile.parent != self.shared:
            raise InfrastructureError(f"{vfile} is not in the shared directory {self.shared}")
        return _stage(self._run(["coqc", *self.load_path(), str(vfile)], cwd=vfile.parent), vfile)

    def check(self, vfiles: Sequence[Path], library: bool | Sequence[Path] = True,
              shared: Sequence[Path] = ()) -> StageResult:
        """coqchk on compiled files (one run: the libraries they need are loaded once) and
        on files of our library: all of them (True), none (False: this run checked them
        already) or those given; never the standard library.  Files of one run have distinct names.
        `shared`: compiled shared modules to check too (alone, or with the files needing them)."""
        modules = [f"{GENERATED}.{v.stem}" for v in vfiles] + [f"{SHARED_LIBRARY}.{v.stem}" for v in shared]
        lib = self.library_files() if library is True else [] if library is False else list(library)
        modules += [self.library_module(v) for v in lib]
        argv = ["coqchk", "-silent", "-o", *self.load_path()]
        for d in dict.fromkeys(v.parent for v in vfiles):
            argv += ["-Q", str(d), GENERATED]
        for m in modules:
            argv += ["-norec", m]
        where = ", ".join(str(v) for v in [*vfiles, *shared])
        done = self._run(argv, cwd=[*vfiles, *shared][0].parent if [*vfiles, *shared] else self.theories)
        if done.timed_out:
            return StageResult("timeout", done.seconds, done.peak_kib, "coqchk timed out")
        if done.returncode < 0:
            raise ProverCrashed(f"coqchk was killed (signal {-done.returncode}) checking {where}:\n"
                                f"{_excerpt(done)}\nIs the machine out of memory?")
        if done.returncode != 0:
            return StageResult("failed", done.seconds, done.peak_kib, _excerpt(done))
        axioms, unsafe = context_summary(done.stdout + "\n" + done.stderr)
        return StageResult("ok", done.seconds, done.peak_kib, axioms=axioms, unsafe=unsafe)


# coqc sets its own garbage collector (a 32 Mword minor heap, space overhead 120) unless
# OCAMLRUNPARAM is set; coqchk keeps OCaml's defaults (a 256 Kword minor heap, overhead 120).
# coqchk with coqc's minor heap and a space overhead of 200 spent 16-25 % less CPU (the whole
# library's check, the old and the new way side by side: 119 -> 100 s; docs/benchmarks.md).
# Unless the user chose other settings; they change the collector only, not what is checked.
_CHECKER_GC = "s=32M,o=200"


def _checker_env() -> dict[str, str] | None:
    if "OCAMLRUNPARAM" in os.environ or "CAMLRUNPARAM" in os.environ:
        return None
    return {**os.environ, "OCAMLRUNPARAM": _CHECKER_GC}


# coqc/coqchk path -> checked version, so one run asks each binary once.
_VERSIONS: dict[str, str] = {}
# Stamps of the compiled libraries coqchk accepted in this process.
_CHECKED_HERE: set[str] = set()
# Per compiled library (its stamp), the modules coqchk accepted in this process.
_CHECKED_MODULES: dict[str, set[str]] = {}

# `From P Require [Import|Export] A B.` and `Require [Import|Export] P.A.`: the modules named.
_REQUIRE = re.compile(r"\bRequire\b")
_NAME = r"[\w']+(?:\.[\w']+)*"
_REQUIRE_STMT = re.compile(rf"(?:\bFrom\s+({_NAME})\s+)?\bRequire\s+(?:(?:Import|Export)\s+)?"
                           rf"((?:{_NAME}\s+)*{_NAME})\.(?=\s|$)")


# The roots of the libraries a file may load besides ours (Coq's own and Debian's packages).
_OTHER_ROOTS = ("Coq", "Flocq", "Interval", "Coquelicot", "Bignums", "HB", "mathcomp")


# A file's `Require`d modules by (path, mtime, size): build_theories and the closures read
# every library file once per spec otherwise.
_REQUIRED_IN: dict[tuple[Path, int, int], list[str | None]] = {}


# A compiled library file's SHA-256 by (path, mtime, size): hashed once per change.
_VO_SHA256: dict[tuple[Path, int, int], str] = {}


def _vo_sha256(vo: Path) -> str:
    st = vo.stat()
    key = (vo, st.st_mtime_ns, st.st_size)
    if key not in _VO_SHA256:
        _VO_SHA256[key] = hashlib.sha256(vo.read_bytes()).hexdigest()
    return _VO_SHA256[key]


def _required_in(path: Path) -> list[str | None]:
    """`_required` of a file's text, read again only when the file changed."""
    st = path.stat()
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _REQUIRED_IN:
        _REQUIRED_IN[key] = _required(path.read_text())
    return _REQUIRED_IN[key]


def _required(text: str) -> list[str | None]:
    """The modules a file's `Require`s name (prefixed by their `From`); None for a
    `Require` this pattern does not read or a name under no known root, so that the
    caller checks everything."""
    found: list[str | None] = []
    stmts = list(_REQUIRE_STMT.finditer(text))   # one scan: the statement pattern is the costly one
    for m in stmts:
        prefix = m.group(1)
        for n in m.group(2).split():
            full = f"{prefix}.{n}" if prefix else n
            known = full.split(".")[0] in (LIBRARY, *_OTHER_ROOTS)
            found.append(full if known else None)
    if len(_REQUIRE.findall(text)) != len(stmts):
        found.append(None)
    return found


def read_audit(out: str, theorems: tuple[str, ...]) -> Audit:
    """The statement of each theorem and the assumption names of all of them, read
    between the markers that the file's audit (`core.audit.audit_tail`) printed: one
    statement per theorem, in the order of `theorems`, then one `Print Assumptions`."""
    if TUPLE in theorems:
        raise InfrastructureError(f"a theorem is named {TUPLE}, the audit's own definition")
    sections: list[tuple[str, list[str]]] = []
    for line in out.splitlines():
        word = line.strip()
        if word in MARKERS:
            sections.append((word, []))
        elif sections and not word.startswith(": audit_marker"):
            sections[-1][1].append(line)
    kinds = [k for k, _ in sections]
    if kinds != [STATEMENT] * len(theorems) + [ASSUMPTIONS, END]:
        raise InfrastructureError(f"the file's audit printed {kinds}, not the audit of {list(theorems)}:\n"
                                  f"{out[-2000:]}")
    statements: dict[str, str] = {}
    for (_, check), t in zip(sections[:len(theorems)], theorems, strict=True):
        if not check or check[0].strip() != t:
            raise InfrastructureError(f"the file's audit printed no statement of {t}:\n{out[-2000:]}")
        statements[t] = " ".join(ln.strip() for ln in check[1:]).removeprefix(":").strip()
    return Audit(statements, assumption_names(sections[-2][1], TUPLE))


def context_summary(out: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """coqchk -o's summary: the full names of every axiom of the checked environment,
    and every constant that relies on type-in-type, unsafe fixpoints or assumed positivity."""
    axioms: list[str] = []
    unsafe: list[str] = []
    section: str | None = None
    seen_summary = False
    for line in out.splitlines():
        if line.startswith("CONTEXT SUMMARY"):
            seen_summary = True
        elif line.startswith("* "):
            section = "axioms" if line.startswith("* Axioms:") else (
                None if line.startswith("* Theory:") else "unsafe")
            rest = line.split(":", 1)[1].strip() if ":" in line else ""
            if section == "unsafe" and rest and rest != "<none>":
                unsafe.append(rest)
        elif section and line.startswith("    ") and line.strip():
            (axioms if section == "axioms" else unsafe).append(line.strip())
    if not seen_summary:
        raise InfrastructureError(f"coqchk printed no context summary:\n{out[-2000:]}")
    return tuple(axioms), tuple(unsafe)


def assumption_names(printed: list[str], theorem: str) -> list[str]:
    text = [ln for ln in printed if ln.strip()]
    if text and text[0].startswith("Closed under the global context"):
        return []
    if not text or not text[0].startswith("Axioms:"):
        raise InfrastructureError(f"cannot read Print Assumptions of {theorem}: {' '.join(text)[:500]}")
    # Each assumption starts at column 0 ("name : type"); its type continues indented.
    return [m.group(1) for ln in text[1:] if (m := re.match(r"^(\S+) :", ln))]


_INFRA_ERRORS = ("Cannot find a physical path", "Unable to locate library", "Cannot load",
                 "Compiled library", "Bad file format")


def _stage(done: Completed, vfile: Path) -> StageResult:
    if done.timed_out:
        return StageResult("timeout", done.seconds, done.peak_kib, f"coqc timed out after {done.seconds:.0f} s")
    if done.returncode == 0:
        return StageResult("ok", done.seconds, done.peak_kib, output=done.stdout)
    text = done.stdout + done.stderr
    if any(e in text for e in _INFRA_ERRORS):
        raise InfrastructureError(f"Coq cannot load what {vfile.name} needs:\n{_excerpt(done)}\n"
                                  "Is the library built (`make theories`) and libcoq-interval installed?")
    if done.returncode < 0 or "Error:" not in text:
        raise ProverCrashed(f"coqc stopped abnormally (exit {done.returncode}) on {vfile}:\n{_excerpt(done)}")
    m = re.search(r'File "[^"]*", line (\d+)', text)
    return StageResult("failed", done.seconds, done.peak_kib, _failure(text, vfile),
                       line=int(m.group(1)) if m else None)


def _failure(text: str, vfile: Path) -> str:
    """Coq's error, with the name of the lemma it occurred in."""
    m = re.search(r'File "[^"]*", line (\d+)', text)
    where = ""
    if m:
        line_no = int(m.group(1))
        try:
            src = vfile.read_text().splitlines()[:line_no]
        except OSError:
            src = []
        for ln in reversed(src):
            d = re.match(r"\s*(Lemma|Theorem)\s+(\S+)", ln)
            if d:
                where = f"in {d.group(2)} (line {line_no}): "
                break
    err = text[text.find("Error:"):].strip()
    return where + " ".join(err.split())[:1500]


def _excerpt(done: Completed) -> str:
    text = (done.stderr + done.stdout).strip()
    return text[-3000:]
