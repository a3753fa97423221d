"""The `obligations` command: wires spec, unfold, render, prover and certificate."""
from __future__ import annotations

import argparse
import functools
import json
import math
import os
import select
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from obligations import __version__
from obligations.certify.progress import LogLines, StatusLine, reporter
from obligations.errors import (
    EXIT_INFRA,
    EXIT_NOT_PROVED,
    EXIT_PROVED,
    InfrastructureError,
    ObligationsError,
    UsageError,
)

# The models, the analyses (sympy, numpy) and the prover are imported by the commands that use
# them: `obligations --help` or a usage error then costs a fraction of a second, not the
# whole package's import (about 1.5 s of CPU).
if TYPE_CHECKING:
    from obligations.certify.outcome import Outcome, Settings
    from obligations.certify.profiles import Profile
    from obligations.models import Unfolded

EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a command killed by SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at interpreter exit, where a broken pipe is a traceback
        return code
    except BrokenPipeError:
        if not _stdout_is_broken():  # e.g. a prover's pipe: not ours to hide
            raise
        # `obligations schema | head -1`: the reader left. Python's recipe: point stdout at
        # devnull so the final flush cannot fail again, and exit without a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE


def _stdout_is_broken() -> bool:
    """Whether stdout is a pipe whose reader has gone (poll reports POLLERR)."""
    if not hasattr(select, "poll"):
        return True  # cannot tell: assume the standard case
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError):
        return False


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return _run(args)
    except ObligationsError as exc:
        print(f"obligations: {exc}", file=sys.stderr)
        return exc.exit_code
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except OSError as exc:   # the machine, not the claim: a full disk, a read-only folder
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"obligations: cannot write or read a file{where}: {exc.strerror or exc} "
              "(free some space, or choose writable --out and --build folders)", file=sys.stderr)
        return EXIT_INFRA
    except Exception as exc:  # a bug of ours: say so, with what was being worked on
        import traceback
        where = ", ".join(str(p) for p in getattr(args, "specs", None) or getattr(args, "certificates", None)
                          or [getattr(args, "spec", "")] if p)
        print(f"obligations: internal error, please report it (command {args.command}"
              f"{', on ' + where if where else ''}): {type(exc).__name__}: {exc}\n"
              + "".join(traceback.format_exception(exc)[-6:]), file=sys.stderr)
        return EXIT_INFRA


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.run(args))
    finally:
        if getattr(args, "reporter", None) is not None:
            args.reporter.close()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="obligations", description=(
        "Prove or refute differential-privacy claims with Coq: finite mechanisms (tables, "
        "formulas), small probabilistic programs and noise pipelines (the snapping mechanism). "
        "Each verdict ends in a certificate that `verify` re-checks."))
    p.add_argument("--version", action="version", version=f"obligations {__version__}")
    subparsers = p.add_subparsers(dest="command")

    def command(name: str, help: str) -> argparse.ArgumentParser:
        """A subcommand whose --help shows the defaults, with its help line as description."""
        return subparsers.add_parser(name, help=help, description=help,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)

    def jobs(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="Coq jobs at once (files compiled, batches re-checked); 0: one per core. "
                             "The results are the same as with 1")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--json", action="store_true", help="print the results as JSON")
        sp.add_argument("--build", type=Path, default=Path("build"),
                        help="work directory for generated Coq files and logs, relative to the current directory")
        sp.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each Coq process")
        sp.add_argument("--debug", action="store_true", help="log every prover exchange to BUILD/transcript.log")
        sp.add_argument("--quiet", "-q", action="store_true",
                        help="no progress on stderr (on a terminal a status line; in a log one line per "
                             "finished spec or certificate and a heartbeat every 30 s)")

    sp = command("prove", help="certify (or refute) each spec")
    sp.add_argument("specs", nargs="+", type=Path, help="spec files or directories of *.yaml")
    sp.add_argument("--out", type=Path, default=Path("certificates"),
                    help="certificate directory, relative to the current directory")
    sp.add_argument("--no-cache", action="store_true", help="re-run Coq even if a certificate matches")
    sp.add_argument("--cluster", metavar="ADDRESS",
                    help="prove each spec file on a worker of the Dask scheduler at ADDRESS "
                         "(tcp://host:8786; the paths must be the same on the workers: a shared file system)")
    jobs(sp)
    common(sp)
    sp.set_defaults(run=cmd_prove)

    sp = command("verify", help="re-check certificates from their specs")
    sp.add_argument("certificates", nargs="+", type=Path, help="certificate .json files or directories")
    sp.add_argument("--spec", type=Path, help="the spec, if it moved since the certificate was made")
    sp.add_argument("--recheck-library", action="store_true",
                    help="coqchk the library files the certificates load even when this machine's coqchk "
                         "accepted this compiled library already (its record beside theories/)")
    common(sp)
    sp.set_defaults(run=cmd_verify)

    sp = command("check", help="check specs as prove does before Coq runs (spec, analysis, render)")
    sp.add_argument("specs", nargs="+", type=Path)
    sp.set_defaults(run=cmd_check)

    sp = command("show", help="print the obligations a spec unfolds into")
    sp.add_argument("specs", nargs="+", type=Path)
    sp.add_argument("--coq", action="store_true", help="print the rendered Coq file too")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--plot", type=Path, metavar="DIR",
                    help="draw the output distributions of a neighbour pair (tables, programs; PNG, SVG)")
    sp.set_defaults(run=cmd_show)

    sp = command("region", help="the exact delta(eps) curve, certified points, figures")
    sp.add_argument("spec", type=Path)
    sp.add_argument("--epsilon", action="append", default=[], metavar="E",
                    help="an epsilon to evaluate (exact expression); repeatable; default: 0 and the breakpoints")
    sp.add_argument("--compose", type=int, default=argparse.SUPPRESS, metavar="K",
                    help="the K-fold composition (default: 1; an additive spec: its runs, which a different K "
                         "conflicts with unless they are 1)")
    sp.add_argument("--delta", action="append", default=[], metavar="D",
                    help="the smallest eps with delta(eps) <= D (a rational), certified with eps - tolerance refuted; "
                         "repeatable (the accountant, as for compositions too large for the product table)")
    sp.add_argument("--tolerance", default="1/100", metavar="T",
                    help="the grid of eps for --delta and the table (coarser where the bracket cannot tell)")
    sp.add_argument("--digits", type=int, default=6, metavar="N",
                    help="significant digits of the accountant's decimals (--exact: the claims' fractions)")
    sp.add_argument("--certify", action="store_true", help="prove (eps, delta) and refute just below with Coq")
    sp.add_argument("--plot", type=Path, metavar="DIR", help="write the region and delta(eps) figures (PNG, SVG)")
    sp.add_argument("--log-delta", action="store_true", help="with --plot: delta on a log axis (delta = 0 not drawn)")
    sp.add_argument("--exact", action="store_true",
                    help="print every number exactly (default: a fraction longer than 40 characters as a "
                         "12-digit decimal; --json is always exact)")
    sp.add_argument("--out", type=Path, default=Path("certificates"),
                    help="certificate directory (with --certify), relative to the current directory")
    jobs(sp)
    common(sp)
    sp.set_defaults(run=cmd_region)

    sp = command("audit", help="certify or refute another accountant's (eps, delta): audit specs, or --peer to ask one")
    sp.add_argument("specs", nargs="*", type=Path,
                    help="audit spec files (audit: {accountant, mechanism, runs, reported})")
    sp.add_argument("--peer", choices=("prv_accountant", "dp_accounting"),
                    help="ask this accountant (if installed) and audit its answer")
    sp.add_argument("--pure-dp", metavar="E0", help="with --peer: every (E0, 0)-DP mechanism (a rational or ln(q))")
    sp.add_argument("--mechanism", type=Path, metavar="SPEC", help="with --peer: a table or formula spec")
    sp.add_argument("--runs", type=int, default=1, metavar="K", help="with --peer: K runs")
    sp.add_argument("--epsilon", action="append", default=[], metavar="E", help="with --peer: eps asked; repeatable")
    sp.add_argument("--write", type=Path, default=Path("audits"), metavar="DIR",
                    help="with --peer: where the audit specs are written")
    sp.add_argument("--out", type=Path, default=Path("certificates"), help="certificate directory")
    jobs(sp)
    common(sp)
    sp.set_defaults(run=cmd_audit)

    sp = command("utility", help="snapping against Laplace: expected errors, tails, clamping bias, figures")
    sp.add_argument("spec", type=Path, help="a noise-pipeline spec (or its distance_to_laplace claim)")
    sp.add_argument("--at", action="append", default=[], metavar="NAME=VALUE",
                    help="a value for a symbolic parameter (exact number); repeatable")
    sp.add_argument("--plot", type=Path, metavar="DIR", help="write the figures (PNG, SVG)")
    sp.set_defaults(run=cmd_utility)

    sp = command("schema", help="print the JSON Schema of spec files")
    sp.set_defaults(run=cmd_schema)
    return p


def _settings(args: argparse.Namespace, out: Path = Path("certificates"), cache: bool = True) -> Settings:
    from obligations.certify.outcome import Settings
    from obligations.prover.pool import cores
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    transcript = args.build / "transcript.log" if args.debug else None
    jobs = getattr(args, "jobs", 1)
    if jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    return Settings(build=args.build, out=out, timeout=args.timeout, use_cache=cache, transcript=transcript,
                    progress=(said := _reporter(args)), jobs=jobs or cores(),
                    finished=said.finished if isinstance(said, LogLines) else None)


def _reporter(args: argparse.Namespace) -> StatusLine | LogLines | None:
    """Kept on args so that `_main` stops its heartbeat when the command ends."""
    said = reporter(sys.stderr, getattr(args, "quiet", False), getattr(args, "json", False))
    args.reporter = said
    return said


def _clear(settings: Settings) -> None:
    if isinstance(settings.progress, StatusLine | LogLines):
        settings.progress.clear()


def cmd_prove(args: argparse.Namespace) -> int:
    from obligations.certify.checked import reused
    from obligations.certify.outcome import Outcome
    from obligations.certify.profiles import certify, certify_many, profile
    from obligations.certify.run import load_specs
    from obligations.models import unfold
    settings = _settings(args, args.out, not args.no_cache)
    if args.cluster:
        return _prove_on_cluster(args, settings)
    # Every spec is checked and tabulated (rows are distributions) before Coq runs, except
    # those whose certificate this machine's Coq checked (the record covers what analysis
    # would derive again); a spec with a profile is tabulated all the same (its profile is).
    specs = load_specs(args.specs)
    items: list[Outcome | Unfolded] = []
    for s in specs:
        settings.say(f"{s.name}: analysing")
        hit = reused(s, settings) if settings.use_cache and not getattr(s, "profile_compose", ()) else None
        items.append(hit if hit is not None else unfold(s))
    unfolded = [u for u in items if not isinstance(u, Outcome)]
    if unfolded:   # before Coq runs for minutes: the folders it writes must take files
        _writable(settings.out, "--out")
        _writable(settings.build, "--build")
    groups = _by_file(list(zip(specs, items, strict=False)))   # the points of one sweep are re-checked together
    outcomes = _prove_groups(args, settings, groups, len(specs))
    profiles = [profile(u.spec, u.spec.profile_epsilons, k, table=u.mechanism)
                for u in unfolded for k in u.spec.profile_compose]
    if settings.jobs > 1:
        certify_many(profiles, settings)
    for prof in profiles:
        if settings.jobs <= 1:
            certify(prof, settings)
        _clear(settings)
        if not args.json:
            _print_profile(prof)
    return _report(args, outcomes, profiles)


def _prove_groups(args: argparse.Namespace, settings: Settings, groups: list[list[tuple[Any, Outcome | Unfolded]]],
                  total: int) -> list[Outcome]:
    """Prove what is not decided yet, and print each group's results in order: with jobs,
    all at once (reported as one by one would report them); serially, chunk by chunk."""
    from obligations.certify.outcome import Outcome
    from obligations.certify.run import prove_many, serial_chunks
    outcomes: list[Outcome] = []
    for chunk in [groups] if settings.jobs > 1 else serial_chunks(groups):
        todo = [u for g in chunk for _, u in g if not isinstance(u, Outcome)]
        done = iter(prove_many(todo, settings, [n for n, g in enumerate(chunk) for _, u in g
                                                if not isinstance(u, Outcome)]
                               if settings.jobs > 1 else None) if todo else [])
        _clear(settings)
        for group in chunk:
            _print_group(args, settings, [s for s, _ in group], len(outcomes), total)
            for _, item in group:
                o = item if isinstance(item, Outcome) else next(done)
                _clear(settings)
                outcomes.append(o)
                _print_result(args, o, len(group))
    return outcomes


def _writable(folder: Path, option: str) -> None:
    """Refuse a folder (or, if it does not exist yet, the folder it would be made in) that
    does not take a new file: exit 3, one line."""
    where = folder
    while not where.exists() and where != where.parent:
        where = where.parent
    probe = where / f".obligations-probe-{os.getpid()}"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise InfrastructureError(f"cannot write to {where} ({option} {folder}): {exc.strerror or exc}") from None


def _prove_on_cluster(args: argparse.Namespace, settings: Settings) -> int:
    """Each spec file (its sweep points, then its profiles) proved by a worker of the Dask
    cluster; the specs are checked here first, and the report is the one `prove` prints."""
    from obligations.certify.remote import RemoteSettings, prove_file
    from obligations.certify.run import load_specs
    from obligations.prover.cluster import run_on_cluster
    specs = load_specs(args.specs)
    groups = _by_file(specs)
    remote = RemoteSettings(out=str(settings.out.resolve()), build=str(settings.build.resolve()),
                            timeout=settings.timeout, use_cache=settings.use_cache)
    files = [str(Path(g[0].path).resolve()) for g in groups]
    settings.say(f"{len(files)} spec files on the Dask cluster at {args.cluster}")
    done = run_on_cluster(args.cluster, functools.partial(prove_file, settings=remote), files, settings.timeout)
    _clear(settings)
    outcomes: list[Outcome] = []
    profiles: list[Profile] = []
    for group, (results, profs) in zip(groups, done, strict=False):
        _print_group(args, settings, group, len(outcomes), len(specs))
        for s, o in zip(group, results, strict=False):
            o.spec = s.path            # as named here, not as the worker read it
            outcomes.append(o)
            _print_result(args, o, len(group))
        profiles += profs
    for prof in profiles:
        if not args.json:
            _print_profile(prof)
    return _report(args, outcomes, profiles)


def _print_group(args: argparse.Namespace, settings: Settings, specs: Sequence[Any], before: int,
                 total: int) -> None:
    if not args.json:
        names = ", ".join(s.name for s in specs)
        _clear(settings)
        print(f"[{before + 1}/{total}] {names}: {specs[0].path} ...", flush=True)


def _print_result(args: argparse.Namespace, o: Outcome, in_group: int) -> None:
    if not args.json:
        if in_group > 1:
            print(f"  {o.name}:")
        _print_outcome(o)


def _report(args: argparse.Namespace, outcomes: list[Outcome], profiles: list[Profile]) -> int:
    from obligations.certify.profiles import certified
    if args.json:
        print(json.dumps({"results": [o.to_json() for o in outcomes],
                          "profiles": [p.to_json() for p in profiles]}, indent=1))
    else:
        _print_summary(outcomes)
        _print_counts(outcomes)
        if profiles:
            tight = sum(certified(p) for p in profiles)
            print(f"profiles: {tight} of {len(profiles)} certified tight at every requested point")
    ok = all(o.verdict == "proved" for o in outcomes) and all(certified(p) for p in profiles)
    return EXIT_PROVED if ok else EXIT_NOT_PROVED


def _by_file(units: Sequence[Any]) -> list[list[Any]]:
    """Consecutive specs (or pairs of a spec and what goes with it) read from the same file
    (a sweep), as groups."""
    def path(x: Any) -> str:
        return str((x[0] if isinstance(x, tuple) else x).path)
    groups: list[list[Any]] = []
    for u in units:
        if groups and path(groups[-1][0]) == path(u):
            groups[-1].append(u)
        else:
            groups.append([u])
    return groups


def _print_outcome(o: Outcome) -> None:
    where = (" (cached certificate, checked by Coq on this machine)" if o.cached
             else " (certificate re-checked by Coq)" if o.rechecked else "")
    print(f"  {o.verdict.upper()}{where}: {o.claim}")
    if o.statement:
        print(f"  theorem {o.theorem} : {o.statement}")
    if o.message:
        print(f"  {o.message}")
    for reason in o.vacuous:
        print(f"  WARNING: vacuous claim: {reason}")
    if o.certificate:
        print(f"  certificate: {o.certificate}")


def _print_summary(outcomes: list[Outcome]) -> None:
    # one table per type of claim (outcomes of one type keep their order), each with the
    # columns that apply to it
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.group, []).append(o)
    for group, members in groups.items():
        print()
        if len(groups) > 1:
            print(f"{group}:")
        for line in _summary_table(members):
            print(line)


def _summary_table(outcomes: list[Outcome]) -> list[str]:
    # a DP claim's table adds the smallest eps with delta = 0 ("oo" when supports differ; "?"
    # when the route does not compute it) and delta(eps) at the claimed eps
    measured = outcomes[0].measured
    head = ("mechanism", "verdict", "claim") + (("eps for delta = 0", "delta at claimed eps") if measured else ()) \
        + ("seconds",)
    rows = [head]
    for o in outcomes:
        columns = (o.tight_epsilon or "?", o.delta_at_claim or "-") if measured else ()
        rows.append((o.name, o.verdict + (" (cached)" if o.cached else " (re-checked)" if o.rechecked else ""),
                     o.claim, *columns, f"{o.timings.get('total', sum(o.timings.values())):.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip() for r in rows]


def _print_counts(outcomes: list[Outcome]) -> None:
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.verdict] = counts.get(o.verdict, 0) + 1
    print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())))


def cmd_verify(args: argparse.Namespace) -> int:
    files: list[Path] = []
    for p in args.certificates:
        if p.suffix in (".yaml", ".yml") and p.is_file():   # a spec where a certificate was meant
            raise UsageError(f"{p} is a spec, not a certificate: `obligations prove {p}` certifies it "
                             "(writing certificates/NAME.json and .v), and `obligations verify` re-checks "
                             "that .json")
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
    if args.spec and len(files) != 1:
        raise UsageError("--spec goes with exactly one certificate")
    if not files:
        raise UsageError(f"no certificate .json files in {', '.join(map(str, args.certificates))}")
    from obligations.certify.outcome import LibraryCheck
    from obligations.certify.verify import verify_many
    settings = replace(_settings(args), library=LibraryCheck.RECHECK if args.recheck_library else LibraryCheck.CLOSURE)
    results = verify_many(files, settings, args.spec)   # one certificate's trouble never stops the others
    _clear(settings)
    for r in results:
        if not args.json:
            print(f"{r.certificate}: {'OK' if r.ok else 'NOT CHECKED' if r.error else 'FAILED'}", flush=True)
            for problem in r.problems:
                print(f"  {problem}")
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    if any(r.error for r in results):
        return EXIT_INFRA
    return EXIT_PROVED if all(r.ok for r in results) else EXIT_NOT_PROVED


def cmd_check(args: argparse.Namespace) -> int:
    # Everything `prove` checks before Coq runs: the spec, its analysis (rows are
    # distributions, the noise is one the library covers) and its render.
    from obligations import models
    from obligations.certify.run import load_specs
    from obligations.models import unfold
    for u in [unfold(s) for s in load_specs(args.specs)]:
        s = u.spec
        print(f"{s.path}: ok ({s.name}: {models.form_of(s).summary(s)}; Python expects {u.plan.expected})")
    return EXIT_PROVED


def cmd_show(args: argparse.Namespace) -> int:
    from obligations.certify.run import load_specs
    from obligations.models import unfold
    shown: list[dict[str, Any]] = []
    draw = _output_plot() if args.plot else None
    for s in load_specs(args.specs):
        u = unfold(s)
        item, lines = u.describe(args.coq)
        if draw is not None:
            item["figures"] = [str(f) for f in draw(u, args.plot)]
            lines += [f"figure: {f}" for f in item["figures"]]
        shown.append(item)
        if not args.json:
            print("\n".join(lines))
    if args.json:
        print(json.dumps(shown, indent=1))
    return EXIT_PROVED


MAX_COMPOSE = 100_000  # exact composition; Coq certifies far fewer (at most 4096 outputs)


def cmd_region(args: argparse.Namespace) -> int:
    if args.log_delta and not args.plot:
        raise UsageError("--log-delta changes the figure: use it with --plot DIR")
    from obligations import models
    from obligations.certify.profiles import certified, certify, profile
    from obligations.certify.run import load_specs
    from obligations.core.spec import derive, too_many_outputs
    spec = load_specs([args.spec])[0]
    given: int | None = getattr(args, "compose", None)
    if given is not None and not 1 <= given <= MAX_COMPOSE:
        raise UsageError(f"--compose must be between 1 and {MAX_COMPOSE}")
    if spec.kind == "additive":   # noise over Z: the accountant's bracket, whatever K
        return _region_accountant(args, spec, _additive_runs(args, spec, given))
    if not models.form_of(spec).profiles:
        raise UsageError(f"{args.spec}: region needs a finite mechanism (a table, a formula or a program) "
                         f"or additive noise; this spec is {models.form_of(spec).noun} (use `obligations show`)")
    compose = 1 if given is None else given
    if args.delta or too_many_outputs(spec.outputs.size, compose):
        return _region_accountant(args, spec, compose)
    epsilons = [str(e) for e in args.epsilon]
    for e in epsilons:  # checked like a claim before anything runs
        derive(spec, name=spec.name, epsilon=e, delta=spec.delta)
    if args.certify:
        derive(spec, name=spec.name, epsilon="0", delta=spec.delta, compose=compose)
    prof = profile(spec, epsilons, compose)
    settings = _settings(args, args.out, True)
    if args.certify:
        certify(prof, settings)
        _clear(settings)
    figures = _plot(prof, args.plot, args.log_delta) if args.plot else []
    if args.json:
        print(json.dumps({**prof.to_json(), "figures": [str(f) for f in figures]}, indent=1))
    else:
        _print_profile(prof, exact=args.exact)
        for f in figures:
            print(f"figure: {f}")
    return EXIT_PROVED if not args.certify or certified(prof) else EXIT_NOT_PROVED


def _fraction(text: str, what: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{what} {text}: expected a rational (1/100000, 0.01, 1e-5)") from None
    return value


def _additive_runs(args: argparse.Namespace, spec: Any, given: int | None) -> int:
    """An additive spec's runs are part of its mechanism: --compose may say them again, or give
    K to a spec of one run; a different K is a conflict, not an override."""
    if given is None or given == spec.runs:
        return int(spec.runs)
    if spec.runs == 1:
        return given
    raise UsageError(f"--compose {given} conflicts with additive.runs = {spec.runs} in {args.spec}: region "
                     "uses the spec's runs (drop --compose), or give runs: 1 in the spec and K with --compose")


def _region_accountant(args: argparse.Namespace, spec: Any, compose: int) -> int:
    """region by the accountant: a certified bracket of delta(eps), the smallest eps at delta."""
    from obligations.certify import accountant_profile as ap
    if getattr(spec, "cw", None) is not None:
        raise UsageError(f"{args.spec}: the accountant composes the mechanism, not its CW form: drop --delta "
                         "or use a compose the product table carries")
    deltas = [_fraction(d, "--delta") for d in args.delta]
    if any(not 0 < d < 1 for d in deltas):
        raise UsageError("--delta must be in (0, 1)")
    tol = _fraction(args.tolerance, "--tolerance")
    if not 0 < tol <= 1:
        raise UsageError("--tolerance must be in (0, 1]")
    if not 1 <= args.digits <= 17:
        raise UsageError("--digits must be between 1 and 17")
    prof = ap.acc_profile(spec, compose, [str(e) for e in args.epsilon], deltas, tol, args.digits)
    settings = _settings(args, args.out, True)
    if args.certify:
        ap.certify(prof, settings)
        _clear(settings)
    figures: list[Path] = []
    if args.plot:
        try:
            from obligations.certify import accountant_plot
        except ImportError as exc:
            raise UsageError("--plot needs matplotlib: pip install 'obligations[plot]'") from exc
        figures = accountant_plot.write(prof, args.plot)
    if args.json:
        print(json.dumps({**prof.to_json(), "figures": [str(f) for f in figures]}, indent=1))
    else:
        print("\n".join(ap.lines(prof, args.digits, args.exact)))
        for f in figures:
            print(f"figure: {f}")
    return EXIT_PROVED if not args.certify or prof.certified else EXIT_NOT_PROVED


def _plot(prof: Profile, out_dir: Path, log_delta: bool = False) -> list[Path]:
    try:
        from obligations.certify import plot as plot
    except ImportError as exc:
        raise UsageError("--plot needs matplotlib: pip install 'obligations[plot]'") from exc
    return plot.write(prof, out_dir, log_delta)


def _number(x: Fraction, exact: bool) -> str:
    """A fraction as it is, or (if long and not `exact`) as a 12-digit decimal marked with ~."""
    text = str(x)
    return text if exact or len(text) <= 40 else f"~{float(x):.12g}"


def _ln(t: Fraction, exact: bool) -> str:
    """ε = ln t as it is, or (if t is long and not `exact`) as a 12-digit decimal marked with ~."""
    if exact or len(str(t)) <= 40:
        from obligations.certify.profiles import ln_text
        return ln_text(t)
    return f"~{math.log(t.numerator) - math.log(t.denominator):.12g}"


def _print_profile(prof: Profile, exact: bool = True) -> None:
    k = f", {prof.compose}-fold composition" if prof.compose > 1 else ""
    print(f"{prof.spec.name}{k}: delta(eps) = max over neighbours of sum_y max(0, M(x)(y) - e^eps M(x')(y))")
    for piece in prof.curve.pieces:
        hi = "oo" if piece.t_hi is None else _ln(piece.t_hi, exact)
        slope = f" - e^eps * {_number(piece.line.b, exact)}" if piece.line.b else ""
        print(f"  eps in [{_ln(piece.t_lo, exact)}, {hi}]: delta = {_number(piece.line.a, exact)}{slope}")
    zero = prof.curve.t_zero
    print(f"  smallest eps with delta = 0: {'oo (supports differ)' if zero is None else _ln(zero, exact)}")
    for p in prof.points:
        value = p.closed_form if p.delta is None else str(p.delta)
        value = f"{value} = " if value is not None and (exact or len(value) <= 40) else ""
        shown = p.epsilon if exact or len(p.epsilon) <= 40 else "~"
        line = f"  eps = {shown} ({p.epsilon_float:.6g}): delta = {value}{p.delta_float:.12g}"
        for o in p.proofs:
            line += f"; {o.claim} {o.verdict}"
        print(line)
    for e, _, kd, d in prof.kov:
        print(f"  KOV bound at eps = {e}: {kd:.12g} (exact composition: {d:.12g})")
    if prof.kov:   # computed here; a `kov:` spec certifies it for every mechanism with this eps0
        print(f"  (KOV is certified for every (ln({prof.kov_t0}), 0)-DP mechanism by a spec "
              f"kov: {{epsilon0: \"ln({prof.kov_t0})\", runs: {prof.compose}}}: docs/profiles.md)")


def cmd_audit(args: argparse.Namespace) -> int:
    from obligations.certify import audit as audits
    from obligations.certify.run import load_specs, prove_many
    from obligations.models import unfold
    specs = list(args.specs)
    if args.peer:
        specs += audits.ask(args.peer, args.pure_dp, args.mechanism, args.runs, args.epsilon, args.write)
    elif args.pure_dp or args.mechanism or args.epsilon:
        raise UsageError("--pure-dp, --mechanism and --epsilon go with --peer")
    if not specs:
        raise UsageError("audit: name audit specs, or --peer with --pure-dp or --mechanism, --runs and --epsilon")
    settings = _settings(args, args.out, True)
    loaded = load_specs(specs)
    if any(s.kind != "audit" for s in loaded):
        bad = next(s for s in loaded if s.kind != "audit")
        raise UsageError(f"{bad.path} is not an audit spec (audit: ...); `obligations prove` takes it")
    outcomes = prove_many([unfold(s) for s in loaded], settings)
    _clear(settings)
    if args.json:
        print(json.dumps([{**audits.summary(s, o), "outcome": o.to_json()}
                          for s, o in zip(loaded, outcomes, strict=True)],
                         indent=1))
    else:
        for s, o in zip(loaded, outcomes, strict=False):
            print("\n".join(audits.lines(s, o)))
    return EXIT_PROVED if all(o.verdict == "proved" for o in outcomes) else EXIT_NOT_PROVED


def cmd_utility(args: argparse.Namespace) -> int:
    from obligations.certify.run import load_specs
    from obligations.noise.utility_instance import instance, report
    at: dict[str, Fraction] = {}
    for item in args.at:
        name, _, value = item.partition("=")
        try:
            at[name.strip()] = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise UsageError(f"--at {item}: expected NAME=VALUE with an exact number (1/2, 0.25)") from None
    inst = instance(load_specs([args.spec])[0], at)
    print("\n".join(report(inst)))
    if args.plot:
        try:
            from obligations.certify import utility_plot
        except ImportError as exc:
            raise UsageError("--plot needs matplotlib: pip install 'obligations[plot]'") from exc
        for f in utility_plot.write(inst, args.plot):
            print(f"figure: {f}")
    return EXIT_PROVED


def _output_plot() -> Callable[[Any, Path], list[Path]]:
    try:
        from obligations.certify import output_plot
    except ImportError as exc:
        raise UsageError("--plot needs matplotlib: pip install 'obligations[plot]'") from exc
    return output_plot.write


def cmd_schema(args: argparse.Namespace) -> int:
    from obligations import models
    print(json.dumps(models.json_schema(), indent=1))
    return EXIT_PROVED
