"""The `epcg-spec` command: parsing here, the work in spec/, compile/ and the domains."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..compile import registry
from ..compile.protocols import Problem, RunContext, RunOutput
from ..errors import BuildError, Interrupted, UsageError
from ..output.files import atomic_write
from ..output.jsontext import dumps
from ..output.result import write_outputs
from ..search.driver import resume_command
from ..search.merge import merge_results
from ..spec.dsl import dump_dsl
from ..spec.load import load_document, load_spec
from ..spec.params import parse_overrides
from ..spec.yaml_writer import dump_yaml
from .errors import OK, run_guarded
from .flags import refuse_unsupported
from .progress import StderrProgress
from .validate import validate_paths


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
    """The console script."""
    sys.exit(main())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="epcg-spec")
def cli() -> None:
    """Procedural content generation from declarative spec files.

    Kinds: see `epcg-spec kinds`. Every SPEC may be YAML (.yaml) or DSL (.epcg).
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
        index, sep, count = str(value).partition("/")
        if not (sep and index.isdigit() and count.isdigit() and int(index) < int(count)):
            self.fail(f"{value!r}: write I/N with 0 <= I < N, e.g. --shard 0/4", param, ctx)
        return int(index), int(count)


_param = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a spec param (repeatable).",
)
_json = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
_threads = click.option("--threads", type=click.IntRange(min=1), help="Worker threads.")
_time_limit = click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Stop after about this long; the partial result is written and --resume continues.",
)


def _load(spec: str, params: tuple[str, ...]):
    return load_spec(Path(spec), parse_overrides(list(params)))


def _options(loaded, given: dict[str, Any]) -> dict[str, Any]:
    """Domain options given on the command line; refused for kinds that do not take them."""
    chosen = {k: v for k, v in given.items() if v is not None}
    for name in chosen:
        option_name = name.replace("_", "-")
        kinds = registry.cli_options()[option_name][1]
        if loaded.domain.kind not in kinds:
            raise UsageError(
                f"--{option_name} applies to kind {', '.join(kinds)}, not to {loaded.domain.kind}"
            )
    return chosen


def _compile(loaded, command: str, flags: dict[str, Any], options: dict[str, Any]) -> Problem:
    """The compiled problem, once every run flag given is known to be honoured."""
    problem = loaded.domain.compile(loaded.spec)
    _need(problem, command, command)
    given = [flag for flag, value in flags.items() if value not in (None, False)]
    given += [f"--{name.replace('_', '-')}" for name in options]
    refuse_unsupported(loaded.domain, problem, command, given)
    return problem


def _seed(loaded, seed: int | None) -> int:
    if seed is not None:
        return seed
    value = loaded.document.data.get("seed", 0)
    return value if isinstance(value, int) else 0


def _emit(output: RunOutput, as_json: bool) -> None:
    if as_json:
        click.echo(dumps(output.result))
    else:
        for line in output.summary:
            click.echo(line)


def _need(problem: Problem, method: str, command: str) -> None:
    if method != "build" and not callable(getattr(problem, method, None)):
        raise UsageError(f"kind {problem.kind} does not support `{command}`")


def _stopped(output: RunOutput, where: str) -> None:
    """Say how to go on after a run the driver stopped early (exit 130 on Ctrl-C)."""
    if output.stopped is None:
        return
    argv = click.get_current_context().obj["argv"]
    how = f"continue with: {resume_command(argv)}" if where else "the count is a lower bound"
    message = f"partial result ({output.stopped}){where}; {how}"
    if output.stopped == "interrupted":
        raise Interrupted(message)
    click.echo(message, err=True)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--quiet", "-q", is_flag=True, help="Print problems only, no summary.")
def validate(paths: tuple[str, ...], quiet: bool) -> int:
    """Check specs (files, or folders searched recursively) without compiling anything."""
    return validate_paths([Path(p) for p in paths], quiet)


@cli.command()
@click.argument("spec", type=click.Path())
@click.option("--out", type=click.Path(), help="Output folder (default out/NAME).")
@click.option("--seed", type=click.IntRange(min=0), help="Seed (default: the spec's, or 0).")
@_threads
@_json
@_param
@click.option("--shard", type=ShardType(), help="Run only shard I of N of the units, e.g. 0/4.")
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in the output folder.")
@click.option("--fresh", is_flag=True, help="Discard a checkpoint in the output folder first.")
@_time_limit
@click.option("--no-prune", is_flag=True, help="Evaluate every state (no prefix pruning).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
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
    **given,
):
    """Compile SPEC, run its back end, write OUT/result.json and the content."""
    if resume and fresh:
        raise UsageError("--resume continues a checkpoint and --fresh discards it: give one")
    loaded = _load(spec, params)
    options = _options(loaded, given)
    flags = {
        "--threads": threads,
        "--shard": shard,
        "--resume": resume,
        "--fresh": fresh,
        "--time-limit": time_limit,
        "--no-prune": no_prune,
    }
    problem = _compile(loaded, "build", flags, options)
    folder = Path(out) if out else Path("out") / problem.name
    ctx = RunContext(
        seed=_seed(loaded, seed),
        threads=threads,
        progress=StderrProgress(quiet),
        work_dir=folder,
        resume=resume,
        fresh=fresh,
        shard=shard or (0, 1),
        time_limit=time_limit,
        kind=problem.kind,
        options={**options, "no_prune": no_prune},
    )
    output = problem.run(ctx)
    written = write_outputs(folder, output)
    _emit(output, as_json)
    if not as_json:
        click.echo(f"  wrote {', '.join(str(p) for p in written)}")
    _stopped(output, f" written to {folder}")
    return OK


@cli.command()
@click.argument("spec", type=click.Path())
@click.option("--constrained", is_flag=True, help="Also count the states meeting constraints.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    metavar="N",
    help="Stop after N found (the count is then a lower bound).",
)
@_time_limit
@click.option("--no-prune", is_flag=True, help="Evaluate every state (no prefix pruning).")
@_threads
@_json
@_param
@_domain_options("count")
def count(spec, constrained, limit, time_limit, no_prune, threads, as_json, params, **given):
    """Print the exact size of SPEC's space (and, with --constrained, how many are valid)."""
    loaded = _load(spec, params)
    options = _options(loaded, given)
    flags = {
        "--constrained": constrained,
        "--limit": limit,
        "--time-limit": time_limit,
        "--no-prune": no_prune,
        "--threads": threads,
    }
    problem = _compile(loaded, "count", flags, options)
    ctx = RunContext(
        seed=_seed(loaded, None),
        threads=threads,
        progress=StderrProgress(),
        time_limit=time_limit,
        limit=limit,
        kind=problem.kind,
        options={**options, "no_prune": no_prune},
    )
    output = problem.count(ctx, constrained)
    _emit(output, as_json)
    _stopped(output, "")
    return OK


@cli.command()
@click.argument("spec", type=click.Path())
@click.option(
    "--rank",
    "ranks",
    type=int,
    multiple=True,
    help="Content of this rank (repeatable; negative counts from the end).",
)
@click.option(
    "-n",
    "samples",
    type=click.IntRange(min=1),
    help="How many to sample uniformly (default 1; not with --rank).",
)
@click.option("--seed", type=click.IntRange(min=0), help="Seed (default: the spec's, or 0).")
@click.option("--distinct", is_flag=True, help="Sample distinct outputs, not derivations.")
@_json
@_param
@_domain_options("sample")
def sample(spec, ranks, samples, seed, distinct, as_json, params, **given):
    """Print content of SPEC by rank, or sampled uniformly."""
    if ranks and (samples is not None or distinct):
        raise UsageError("--rank names the content; -n and --distinct draw it: give one or other")
    loaded = _load(spec, params)
    options = _options(loaded, given)
    flags = {"--rank": ranks or None, "-n": samples, "--distinct": distinct}
    problem = _compile(loaded, "sample", flags, options)
    ctx = RunContext(seed=_seed(loaded, seed), kind=problem.kind, options=options)
    _emit(problem.sample(ctx, list(ranks) or None, samples or 1, distinct), as_json)
    return OK


@cli.command()
@click.argument("spec", type=click.Path())
@_json
@_param
def explain(spec, as_json, params):
    """Show the compiled problem: space, size, constraints, back end, estimates."""
    loaded = _load(spec, params)
    rows = loaded.domain.compile(loaded.spec).explain()
    if as_json:
        click.echo(dumps(dict(rows)))
        return OK
    width = max(len(label) for label, _ in rows)
    for label, text in rows:
        click.echo(f"{label:<{width}}  {text}")
    return OK


@cli.command()
@click.argument("spec", type=click.Path())
@click.option("--to", "target", type=click.Choice(["dsl", "yaml"]), required=True)
@click.option("-o", "--output", type=click.Path(), help="Write here instead of stdout.")
def fmt(spec, target, output):
    """Convert SPEC between YAML and the DSL, without loss."""
    doc = load_document(Path(spec))
    text = dump_dsl(doc.data) if target == "dsl" else dump_yaml(doc.data)
    if output:
        atomic_write(Path(output), text)
    else:
        click.echo(text, nl=False)
    return OK


@cli.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", type=click.Path(), required=True, help="Folder for the merged result.")
@_json
def merge(results, out, as_json):
    """Merge the shards of one run (their folders or result.json files) into one result."""
    paths = [Path(p) / "result.json" if Path(p).is_dir() else Path(p) for p in results]
    loaded = []
    for path in paths:
        try:
            loaded.append(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError) as exc:
            raise BuildError(f"{path}: not a result.json of a shard ({exc})") from None
    output = merge_results(loaded, [p.parent for p in paths])
    write_outputs(Path(out), output)
    _emit(output, as_json)
    return OK


@cli.command()
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
    for command, flags in domain.supports.items():
        extra = [f"--{o.name}" for o in domain.options if command in o.commands]
        click.echo(f"  {command:<7} {' '.join([*sorted(flags), *extra]) or '(no run flags)'}")
    click.echo("  a flag not listed for a command is refused (exit 2), never ignored")
    return OK
