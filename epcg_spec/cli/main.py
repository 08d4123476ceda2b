"""The `epcg-spec` command: parsing here, the work in spec/, compile/ and the domains."""

from __future__ import annotations

import io
import signal
import sys
from pathlib import Path
from typing import Any

import click

from .. import __version__, api
from ..compile import registry
from ..compile.flags import build_instead
from ..core.errors import BuildError, Interrupted, UsageError, printable, shortened
from ..core.files import atomic_write, in_output_set, not_a_file, output_folder
from ..core.sizes import INT64_MAX, digits_value
from ..output.explain import explain_document
from ..output.jsontext import dumps
from ..search.driver import CHECKPOINT_NAME, resume_command
from ..spec.load import load_document
from ..spec.params import parse_overrides
from ..spec.yaml_writer import dump_yaml, schema_reference
from .errors import OK, run_guarded
from .params import GivenPath, OnceCommand
from .progress import StderrProgress
from .validate import validate


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]) and return the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    return run_guarded(
        lambda: (
            cli.main(args=args, prog_name="epcg-spec", standalone_mode=False, obj={"argv": args})
            or OK
        )
    )


def entry_point() -> None:
    """The console script; SIGTERM stops it as Ctrl-C does (files cleaned up, exit 130)."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if isinstance(sys.stdout, io.TextIOWrapper):  # a path that is not UTF-8: its own bytes
        sys.stdout.reconfigure(errors="surrogateescape")
    sys.exit(main())


_BUILD_VERBS = {"run", "generate", "make", "solve", "gen", "create"}  # what "build" is mistaken for


class _Commands(click.Group):
    """The commands; a spec or a common verb given in place of one says what to write."""

    command_class = OnceCommand

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            if Path(name).suffix or Path(name).exists():  # a spec file, or a folder
                ctx.fail(
                    f"{name!r} is not a command: the command comes first: epcg-spec build {name}"
                )
            if name.lower() in _BUILD_VERBS:
                ctx.fail(f"No such command {name!r}; did you mean 'build'?")
            if name.lower() == "help":
                ctx.fail("No such command 'help'; write epcg-spec --help, or COMMAND --help")
        return super().resolve_command(ctx, args)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="epcg-spec")
def cli() -> None:
    """Procedural content generation from declarative spec files.

    Kinds: see `epcg-spec kinds`. Every SPEC may be YAML (.yaml), the DSL (.epcg), or a
    file a kind reads as it is (a Tracery .json, a WFC samples.xml).
    """


def _domain_options(command_name: str):
    """The options domains add to `command_name`, each naming the kinds that take it."""

    def add(command):
        for name, (option, kinds) in sorted(registry.cli_options().items()):
            if command_name in option.commands:
                command = click.option(
                    f"--{name}",
                    name.replace("-", "_"),
                    type=option.type,
                    default=None,
                    metavar=option.metavar,
                    help=f"{option.help} (kind: {', '.join(kinds)})",
                )(command)
        return command

    return add


class ShardType(click.ParamType):
    """`I/N`: shard I of N, 0 <= I < N."""

    name = "I/N"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        first, sep, last = str(value).partition("/")
        index, count = digits_value(first), digits_value(last)
        if not (sep and index is not None and count is not None and index < count):
            text = shortened(str(value))
            self.fail(f"{text!r}: write I/N with 0 <= I < N, e.g. --shard 0/4", param, ctx)
        return index, count


_param = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a spec param (repeatable).",
)
_json = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
_seed = click.option(
    "--seed",
    type=click.IntRange(min=0, max=INT64_MAX),
    metavar="N",
    help="Seed of what the run draws at random (default: the spec's, or 0).",
)
_threads = click.option(
    "--threads",
    type=click.IntRange(min=1),
    metavar="N",
    help="Threads of the kernels (kinds space, fling, witness; default: every core, "
    "at most NUMBA_NUM_THREADS).",
)
_quiet = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")


def _time_limit(then: str):
    """--time-limit, saying what `then` happens when it stops a run."""
    return click.option(
        "--time-limit",
        type=click.FloatRange(min=0, min_open=True),
        metavar="SECONDS",
        help=f"Stop after about this long; {then}.",
    )


def _scheduler(help_text: str = ""):
    """--scheduler; `help_text` where the command does not use it as build and count do."""
    return click.option(
        "--scheduler",
        metavar="local:N|tcp://HOST:PORT",
        help=help_text
        or "Run the work on a Dask cluster: N local worker processes, or a running scheduler "
        "(needs the dask extra; see docs/cluster.md).",
    )


_device = click.option(
    "--device",
    type=click.Choice(api.DEVICES),
    default="cpu",
    show_default=True,
    help="Where the work runs: gpu (kinds space, fling) needs numba-cuda and a CUDA device.",
)
_allow_python = click.option(
    "--allow-python",
    is_flag=True,
    help="Import and run the Python functions the spec names (kind: space; trusted specs only).",
)


def _load(spec: str, params: tuple[str, ...], options: dict[str, Any]) -> api.Spec:
    return api.load(spec, list(params), options)


SUMMARY_LINES = 25  # a build's summary beyond this (a line per puzzle, say) is cut short


def _emit(result: api.Result, as_json: bool, folder: Path | None = None) -> None:
    """result.json (--json), or the summary: for a build into `folder`, its first lines."""
    if as_json:
        click.echo(dumps(result.data))
        return
    lines = result.summary
    if folder is not None and len(lines) > SUMMARY_LINES:
        more = len(lines) - (SUMMARY_LINES - 1)
        lines = [*lines[: SUMMARY_LINES - 1], f"... {more:,} lines more: see {folder}/result.json"]
    for line in lines:
        click.echo(printable(line))


def _stopped(result: api.Result, where: str) -> None:
    """Say how to go on after a run the driver stopped early (exit 130 on Ctrl-C)."""
    if result.stopped in (None, "limit"):  # a count's summary says it stopped at its limit
        return
    argv = click.get_current_context().obj["argv"]
    how = f"continue with: {resume_command(argv)}" if where else "the count is a lower bound"
    if result.stopped == "time budget":
        how += (
            f" (its size is not known ahead, so a count without --time-limit stops after "
            f"{api.COUNT_BUDGET_SECONDS:g} s; give --time-limit SECONDS to count longer)"
        )
    message = f"partial result ({result.stopped}){where}; {how}"
    if result.stopped == "interrupted":
        raise Interrupted(message)
    click.echo(message, err=True)


cli.add_command(validate)


@cli.command(short_help="Compile SPEC, run it, write OUT/result.json and the content.")
@click.argument("spec", type=GivenPath())
@click.option("--out", type=GivenPath(), help="Output folder (default out/NAME).")
@_seed
@_threads
@_json
@_param
@click.option(
    "--shard",
    type=ShardType(),
    help="Run only shard I of N of the units, e.g. 0/4; join the shards with `merge`.",
)
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in the output folder.")
@click.option("--fresh", is_flag=True, help="Discard a checkpoint in the output folder first.")
@_time_limit("the partial result is written and --resume continues")
@click.option(
    "--no-prune", is_flag=True, help="Evaluate every state: no prefix pruning (kind: space)."
)
@_quiet
@click.option(
    "--force",
    is_flag=True,
    help="Start even if the estimates (see `explain`) exceed the machine's memory, disk or a day.",
)
@_allow_python
@_scheduler()
@_device
@_domain_options("build")
def build(
    spec,
    out,
    seed,
    threads,
    as_json,
    params,
    shard,
    resume,
    fresh,
    time_limit,
    no_prune,
    quiet,
    force,
    allow_python,
    scheduler,
    device,
    **given,
):
    """Compile SPEC, run its back end, write OUT/result.json and the content."""
    loaded = _load(spec, params, given)
    folder = output_folder(out, loaded.name)
    if not as_json:  # result.json holds them (a kind's `warnings`)
        for warning in loaded.warnings:
            click.echo(str(warning))
    try:
        result = loaded.build(
            folder,
            seed=seed,
            threads=threads,
            shard=shard,
            resume=resume,
            fresh=fresh,
            time_limit=time_limit,
            no_prune=no_prune,
            force=force,
            allow_python=allow_python,
            scheduler=scheduler,
            device=device,
            progress=StderrProgress(quiet),
        )
    except KeyboardInterrupt:  # not in the work (the driver returns a partial result)
        if not (folder / CHECKPOINT_NAME).exists():
            raise  # before any work: nothing to continue
        argv = click.get_current_context().obj["argv"]
        continuing = f"continue with: {resume_command(argv)}"
        raise Interrupted(f"the run is kept in {folder}; {continuing}") from None
    _emit(result, as_json, folder)
    if not as_json:
        click.echo(f"  wrote {len(result.written)} files to {folder}")
        click.echo(f"gallery: {result.written[-1]}")
    _stopped(result, f" written to {folder}")
    return OK


@cli.command(short_help="Print the exact size of SPEC's space (and how many are valid).")
@click.argument("spec", type=GivenPath())
@click.option(
    "--constrained",
    is_flag=True,
    help="Also count the states meeting every constraint (kinds space, fling, witness).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1, max=INT64_MAX),
    metavar="N",
    help="Stop after N found (the count is then a lower bound).",
)
@_time_limit("the count is then a lower bound")
@click.option(
    "--no-prune", is_flag=True, help="Evaluate every state: no prefix pruning (kind: space)."
)
@_threads
@_quiet
@_json
@_param
@_allow_python
@_scheduler()
@_device
@_domain_options("count")
def count(
    spec,
    constrained,
    limit,
    time_limit,
    no_prune,
    threads,
    quiet,
    as_json,
    params,
    allow_python,
    scheduler,
    device,
    **given,
):
    """Print the exact size of SPEC's space (and, with --constrained, how many are valid)."""
    result = _load(spec, params, given).count(
        constrained=constrained,
        limit=limit,
        time_limit=time_limit,
        threads=threads,
        no_prune=no_prune,
        progress=StderrProgress(quiet),
        allow_python=allow_python,
        scheduler=scheduler,
        device=device,
    )
    _emit(result, as_json)
    _stopped(result, "")
    return OK


@cli.command()
@click.argument("spec", type=GivenPath())
@click.option(
    "--rank",
    "ranks",
    type=int,
    multiple=True,
    metavar="R",
    help="Content of this rank (repeatable; negative counts from the end).",
)
@click.option(
    "-n",
    "samples",
    type=click.IntRange(min=1),
    metavar="N",
    help="How many to sample uniformly (default 1, at most 100,000; not with --rank).",
)
@_seed
@click.option(
    "--distinct",
    is_flag=True,
    help="Draw no content twice (tracery: distinct outputs, not derivations).",
)
@_json
@_param
@_scheduler("No kind samples on a cluster yet: refused (exit 2).")
@_domain_options("sample")
def sample(spec, ranks, samples, seed, distinct, as_json, params, scheduler, **given):
    """Print content of SPEC by rank, or sampled uniformly."""
    loaded = _load(spec, params, given)
    ranks = list(ranks) or None  # no --rank given
    result = loaded.sample(samples, ranks=ranks, seed=seed, distinct=distinct, scheduler=scheduler)
    _emit(result, as_json)
    return OK


@cli.command(short_help="Show the compiled problem: space, constraints, back end, costs.")
@click.argument("spec", type=GivenPath())
@click.option("--json", "as_json", is_flag=True, help="Print the rows as one JSON object.")
@_param
def explain(spec, as_json, params):
    """Show the compiled problem: space, size, constraints, back end, estimates."""
    loaded = _load(spec, params, {})
    rows = loaded.explain()
    if as_json:
        click.echo(dumps(explain_document(rows, loaded.space_size())))
        return OK
    width = max(len(label) for label, _ in rows)
    for label, text in rows:
        click.echo(printable(f"{label:<{width}}  {text}"))
    return OK


@cli.command()
@click.argument("spec", type=GivenPath())
@click.option(
    "--to",
    "target",
    type=click.Choice(["dsl", "yaml"]),
    required=True,
    help="The form to write: dsl (.epcg) or yaml.",
)
@click.option(
    "-o", "--output", type=GivenPath(dir_okay=False), help="Write here instead of stdout."
)
def fmt(spec, target, output):
    """Convert SPEC between YAML and the DSL, without loss."""
    from ..spec.dsl import dump_dsl  # here: lark is imported for the DSL only

    doc = load_document(Path(spec))
    if output:
        not_a_file(Path(output).parent, "-o", Path(output))
    if target == "dsl":
        text = dump_dsl(doc.data)
    else:  # the schema's path from where the file goes (stdout: most likely beside SPEC)
        folder = Path(output or spec).parent
        kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
        text = dump_yaml(doc.data, schema_reference(kind, folder))
    if output:
        atomic_write(Path(output), text, "-o")
    else:
        click.echo(text, nl=False)
    return OK


@cli.command(short_help="Merge the shards of one run into what one run would have written.")
@click.argument("results", nargs=-1, required=True, type=GivenPath(exists=True), metavar="SHARD...")
@click.option("--out", type=GivenPath(), required=True, help="Folder for the merged result.")
@_json
def merge(results, out, as_json):
    """Merge the shards of one run (their output folders or result.json files, in any
    order) into what one run would have written to OUT."""
    _emit(api.merge(list(results), out, StderrProgress()), as_json, Path(out))
    return OK


@cli.command(short_help="List the kinds, or the run flags and options one KIND honours.")
@click.argument("kind", required=False)
def kinds(kind):
    """List the spec kinds, or show the run flags and options one KIND honours."""
    if kind is None:
        for name in registry.kinds():
            click.echo(f"{name:<10}  {registry.domain(name).summary}")
        return OK
    if kind not in registry.kinds():
        raise UsageError(f"unknown kind {kind!r}; the kinds are {', '.join(registry.kinds())}")
    domain = registry.domain(kind)
    click.echo(f"{kind}: {domain.summary}")
    for command in ("build", "count", "sample"):
        if command not in domain.supports:
            instead = getattr(domain, "sample_instead", None) if command == "sample" else None
            hint = f"; {build_instead('SPEC', *instead)}" if instead else ""
            click.echo(f"  {command:<7} (not for this kind{hint})")
            continue
        extra = [f"--{o.name}" for o in domain.options if command in o.commands]
        flags = [*sorted(domain.supports[command]), *extra]
        click.echo(f"  {command:<7} {' '.join(flags) or '(no run flags)'}")
    click.echo("  a run flag not listed for a command is refused (exit 2), never ignored")
    return OK


@cli.command(short_help="Write the HTML page to browse and pick from built folders.")
@click.argument("folders", nargs=-1, required=True, type=GivenPath(file_okay=False))
@click.option(
    "--spec", type=GivenPath(dir_okay=False), help="The spec the folders were built from."
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A param override the build was run with (repeatable): shown, and put in the commands.",
)
@click.option(
    "--out", type=GivenPath(dir_okay=False), help="The page (default: FOLDER/index.html)."
)
@click.option("--open", "open_page", is_flag=True, help="Open the page in the web browser.")
@click.option(
    "--print",
    "booklet",
    is_flag=True,
    help="Also write FOLDER/puzzles.pdf for each folder (kinds sudoku, witness, fling).",
)
def gallery(folders, spec, params, out, open_page, booklet):
    """Write an HTML page to browse, sort and pick the content of one or more built folders.

    With several folders (e.g. the shards of one run), --out says where the page goes.
    --spec and --param make the page's regenerate commands complete. --print writes a PDF
    booklet of the puzzles (then the solutions) beside them, which the page links to.
    """
    import webbrowser  # here, not at the top: only this command needs them

    from ..output.booklet import write_booklet
    from ..output.gallery import Source, write_merged_gallery

    if len(folders) > 1 and out is None:
        raise UsageError("several folders make one page: say where it goes with --out FILE.html")
    try:  # refused before the page is written, not after
        browser = webbrowser.get() if open_page else None
    except webbrowser.Error:
        raise UsageError("--open: no web browser found here; leave --open out") from None
    if out is not None:
        not_a_file(Path(out).parent, "--out", Path(out))
        if in_output_set(Path(out)):
            raise UsageError(
                f"--out {out}: a file of the build in {Path(out).parent}, which the page would "
                "replace; name another file, e.g. index.html"
            )
    overrides = parse_overrides(list(params)) if params else None
    for folder in folders if booklet else ():
        click.echo(f"booklet: {write_booklet(Path(folder))}")
    sources = [Source(Path(f), Path(spec) if spec else None, overrides) for f in folders]
    target = Path(out) if out else Path(folders[0]) / "index.html"
    page = write_merged_gallery(sources, target, "--out" if out else None)
    click.echo(f"gallery: {page}")
    if browser is not None and not browser.open(page.resolve().as_uri()):
        raise BuildError(f"--open: the web browser did not open {page}; open it yourself")
    return OK
