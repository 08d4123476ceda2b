"""The `epcg-spec` command: parsing here, the work in spec/, compile/ and the domains."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..compile import budget, registry
from ..compile.protocols import Problem, RunContext, RunOutput
from ..errors import UsageError
from ..output.files import atomic_write, output_folder
from ..output.jsontext import dumps
from ..output.result import write_outputs
from ..search.merge import merge_results
from ..spec.dsl import dump_dsl
from ..spec.load import load_document, load_spec
from ..spec.params import parse_overrides
from ..spec.yaml_writer import dump_yaml
from .errors import OK, run_guarded
from .progress import StderrProgress
from .validate import validate_paths


def main(argv: list[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]) and return the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    return run_guarded(
        lambda: cli.main(args=args, prog_name="epcg-spec", standalone_mode=False) or OK
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


def _domain_options(command):
    for name, (option, kinds) in sorted(registry.cli_options().items()):
        command = click.option(
            f"--{name}",
            name.replace("-", "_"),
            default=None,
            metavar=option.metavar,
            help=f"{option.help} (kind: {', '.join(kinds)})",
        )(command)
    return command


_param = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a spec param (repeatable).",
)
_json = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
_threads = click.option("--threads", type=click.IntRange(min=1), help="Worker threads.")
_allow_python = click.option(
    "--allow-python",
    is_flag=True,
    help="Import and run the Python functions the spec names (trusted specs only).",
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
    if not callable(getattr(problem, method, None)):
        raise UsageError(f"kind {problem.kind} does not support `{command}`")


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
@click.option("--shard", metavar="I/N", help="Run only shard I of N (rank ranges), e.g. 0/4.")
@click.option("--resume", is_flag=True, help="Continue from the checkpoint in the output folder.")
@click.option("--no-prune", is_flag=True, help="Evaluate every state (no prefix pruning).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--force", is_flag=True, help="Start even if the estimates exceed the machine.")
@_allow_python
@_domain_options
def build(
    spec,
    out,
    seed,
    threads,
    as_json,
    params,
    shard,
    resume,
    no_prune,
    quiet,
    force,
    allow_python,
    **given,
):
    """Compile SPEC, run its back end, write OUT/result.json and the content."""
    loaded = _load(spec, params)
    problem = loaded.domain.compile(loaded.spec)
    folder = output_folder(out, problem.name)
    options = {**_options(loaded, given), "no_prune": no_prune}
    ctx = RunContext(
        seed=_seed(loaded, seed),
        threads=threads,
        progress=StderrProgress(quiet),
        work_dir=folder,
        resume=resume,
        shard=_shard(shard),
        options=options,
        allow_python=allow_python,
    )
    if not force:
        budget.refuse_oversize(problem, ctx, folder)
    output = problem.run(ctx)
    written = write_outputs(folder, output)
    _emit(output, as_json)
    if not as_json:
        click.echo(f"  wrote {', '.join(str(p) for p in written)}")
    return OK


def _shard(text: str | None) -> tuple[int, int]:
    if text is None:
        return 0, 1
    index, sep, count = text.partition("/")
    if not (sep and index.isdigit() and count.isdigit() and int(index) < int(count)):
        raise UsageError(f"--shard {text!r}: write I/N with 0 <= I < N, e.g. --shard 0/4")
    return int(index), int(count)


@cli.command()
@click.argument("spec", type=click.Path())
@click.option("--constrained", is_flag=True, help="Also count the states meeting constraints.")
@_threads
@_json
@_param
@_allow_python
@_domain_options
def count(spec, constrained, threads, as_json, params, allow_python, **given):
    """Print the exact size of SPEC's space (and, with --constrained, how many are valid)."""
    loaded = _load(spec, params)
    problem = loaded.domain.compile(loaded.spec)
    _need(problem, "count", "count")
    ctx = RunContext(
        seed=_seed(loaded, None),
        threads=threads,
        progress=StderrProgress(),
        options=_options(loaded, given),
        allow_python=allow_python,
    )
    _emit(problem.count(ctx, constrained), as_json)
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
    default=1,
    show_default=True,
    help="How many to sample uniformly.",
)
@click.option("--seed", type=click.IntRange(min=0), help="Seed (default: the spec's, or 0).")
@click.option("--distinct", is_flag=True, help="Sample distinct outputs, not derivations.")
@_json
@_param
@_domain_options
def sample(spec, ranks, samples, seed, distinct, as_json, params, **given):
    """Print content of SPEC by rank, or sampled uniformly."""
    loaded = _load(spec, params)
    problem = loaded.domain.compile(loaded.spec)
    _need(problem, "sample", "sample")
    ctx = RunContext(seed=_seed(loaded, seed), options=_options(loaded, given))
    _emit(problem.sample(ctx, list(ranks) or None, samples, distinct), as_json)
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
    """Merge the result.json files of all shards of one run into one result."""
    loaded = [json.loads(Path(p).read_text("utf-8")) for p in results]
    output = merge_results(loaded)
    write_outputs(Path(out), output)
    _emit(output, as_json)
    return OK


@cli.command()
def kinds():
    """List the spec kinds and what each generates."""
    for kind in registry.kinds():
        click.echo(f"{kind:<10}  {registry.domain(kind).summary}")
    return OK
