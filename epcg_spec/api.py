"""The Python API: the same engine the command line drives, for notebooks and programs.

    import epcg_spec
    spec = epcg_spec.load("specs/n-queens.yaml", params={"n": 10})
    result = spec.build(out="out/queens", threads=2)
    print(result.count, result.items[0])

Every run option of the command line is an argument here, honoured or refused the same
way (UsageError); a bad spec raises SpecError, whose `diagnostics` carry file, line and
column.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

from .compile import budget, registry
from .compile.flags import (
    build_instead,
    honours,
    refusal,
    refuse_unconstrained,
    refuse_unsupported,
)
from .compile.protocols import Countable, Samplable
from .core.context import Progress, RunContext, RunOutput, SpecSource
from .core.errors import BuildError, Diagnostic, UsageError
from .core.files import held, not_a_file
from .core.sizes import INT64_MAX
from .output.gallery import write_gallery
from .output.jsontext import dumps
from .output.result import write_outputs
from .search import driver
from .search.cluster import connected
from .search.merge import merge_results, read_shard
from .spec.load import Loaded, check_document, parse_document, read_text
from .spec.params import parse_overrides, resolve_params

FORMATS = {"yaml": ".yaml", "dsl": ".epcg", "json": ".json"}
DEVICES = ("cpu", "gpu")
COUNT_BUDGET_SECONDS = 600.0  # a count that would take longer needs --time-limit
MAX_SAMPLES = 100_000  # at 0.6-1.9 KiB each held, and 3-28 s to draw on 2 cores
T = TypeVar("T")


@dataclass
class Result:
    """What a command produced: result.json's content, the files, and a readable summary."""

    data: dict[str, Any]
    files: dict[str, str | bytes] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    stopped: str | None = None  # None: complete; else why not (see docs/api.md)
    written: list[Path] = field(default_factory=list)

    @property
    def count(self) -> int | None:
        """The headline count: states meeting every constraint, items made, derivations."""
        return self.data.get("count")

    @property
    def items(self) -> list[Any]:
        """The content: best states, outputs, puzzles or samples, in order."""
        return self.data.get("best") or self.data.get("samples") or []

    @property
    def seconds(self) -> float | None:
        """Time spent on the work, compile time apart (see `compile_seconds`)."""
        return self.data.get("seconds")

    @property
    def compile_seconds(self) -> float | None:
        return self.data.get("compile_seconds")

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def to_json(self) -> str:
        """result.json's text (keys in a fixed order), as a build writes it and `--json`
        prints it."""
        return dumps(self.data) + "\n"

    @classmethod
    def of(cls, output: RunOutput, written: list[Path] | None = None) -> Result:
        """The Result of a problem's run output, with the paths written for it."""
        return cls(output.result, output.artifacts, output.summary, output.stopped, written or [])


def _located(method: Callable[..., T]) -> Callable[..., T]:
    """`method` of a Spec, its BuildErrors given the place in the spec of the setting
    they name, and an argument it does not take refused as the command line refuses a flag."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def located(spec: Spec, *args: Any, **kwargs: Any) -> T:
        try:
            signature.bind(spec, *args, **kwargs)
        except TypeError as exc:
            unknown = [name for name in kwargs if name not in signature.parameters]
            raise UsageError(f"{method.__name__}() {exc}{_given_elsewhere(unknown)}") from None
        try:
            return method(spec, *args, **kwargs)
        except BuildError as exc:
            if exc.pos is None:
                exc.pos = spec.loaded.document.setting_pos(exc.at)
            raise

    return located


def _given_elsewhere(names: list[str]) -> str:
    """Where the first of `names`, arguments a Spec's method does not take, is given instead
    (the text to add to the refusal), if it is a kind's option or the params."""
    options = registry.cli_options()
    for name in names:
        if name in ("params", "options"):
            return f": give {name} to epcg_spec.load(..., {name}=...)"
        if name.replace("_", "-") in options:
            option, kinds = options[name.replace("_", "-")]
            return (
                f": --{option.name} is an option of kind {', '.join(kinds)}: give it to "
                f"epcg_spec.load(..., options={{{name!r}: ...}})"
            )
    return ""


@dataclass
class Spec:
    """A loaded, checked spec, ready to build, count, sample or explain."""

    loaded: Loaded
    options: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # the spec file, for the regenerate commands of the gallery
    params: dict[str, Any] = field(default_factory=dict)
    source: SpecSource | None = None  # what cluster workers rebuild the spec from

    @property
    def kind(self) -> str:
        return self.loaded.domain.kind

    @property
    def name(self) -> str:
        return self._problem().name

    @property
    def data(self) -> Any:
        """The spec's document as plain data (what `epcg-spec fmt` writes)."""
        return self.loaded.document.data

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        """Located problems of the spec that do not stop it (`validate` and `build` print
        them)."""
        return self.loaded.warnings

    def validate(self) -> None:
        """Every check `epcg-spec validate` makes, with the params the spec was loaded with;
        a loaded spec passed them already."""
        check_document(self.loaded.document, self.params)

    @_located
    def explain(self) -> list[tuple[str, str]]:
        """The compiled problem described: rows (label, text) of its space, size,
        constraints, back end and estimates; an indented label belongs to the row above.
        A kind that estimates a build without rows of its own for it gets them here."""
        problem = self._problem()
        rows = problem.explain()
        estimate = getattr(problem, "estimate", None)
        if callable(estimate) and not any("estimated" in label for label, _ in rows):
            ctx = RunContext(seed=self._seed(None), kind=self.kind, options=self.options)
            rows += budget.estimate_rows(estimate(ctx))
        return rows

    @_located
    def space_size(self) -> int | None:
        """The exact number of candidate states, or None where it is not finite or known."""
        return self._problem().space_size()

    @_located
    def build(
        self,
        out: str | Path | None = None,
        *,
        seed: int | None = None,
        threads: int | None = None,
        shard: tuple[int, int] | None = None,
        resume: bool = False,
        fresh: bool = False,
        time_limit: float | None = None,
        no_prune: bool = False,
        force: bool = False,
        allow_python: bool = False,
        scheduler: Any = None,
        device: str = "cpu",
        progress: Progress | None = None,
    ) -> Result:
        """Run the spec's back end; with `out`, write result.json, the files and the gallery
        page (index.html) there, and keep a checkpoint there while the run goes on.
        `scheduler` ("local:N", a scheduler's address or a dask.distributed Client) runs
        the work on a Dask cluster, with the same result (see docs/cluster.md).

        A build whose estimate exceeds the machine's memory, disk or a day is refused unless
        `force`; the spec's Python functions are imported only with `allow_python`."""
        _switches(resume=resume, fresh=fresh, no_prune=no_prune, force=force)
        _switches(allow_python=allow_python)
        if resume and fresh:
            raise UsageError("--resume continues a checkpoint and --fresh discards it: give one")
        _given("progress", progress, Progress, "an epcg_spec.core.context.Progress")
        _at_least("--seed", seed, 0, most=INT64_MAX)
        _at_least("--threads", threads, 1)
        _at_least("--time-limit", time_limit, 0, whole=False, equal=False)
        _given("out", out, (str, os.PathLike), "the path of a folder")
        if out is not None:
            not_a_file(Path(out))
        elif resume or fresh:
            flag = "--resume" if resume else "--fresh"
            raise UsageError(f"{flag} needs `out`: a build without one keeps no checkpoint")
        flags = {
            "--device": _device(device),
            "--seed": seed,
            "--threads": threads,
            "--shard": shard,
            "--resume": resume,
            "--fresh": fresh,
            "--time-limit": time_limit,
            "--no-prune": no_prune,
            "--force": force,
            "--allow-python": allow_python,
            "--scheduler": scheduler,
        }
        problem = self._checked("build", flags)
        used = self._threads(problem, "build", threads, scheduler)
        ctx = RunContext(
            seed=self._seed(seed),
            threads=threads,
            progress=progress,
            work_dir=Path(out) if out is not None else None,
            resume=resume,
            fresh=fresh,
            shard=_shard(shard),
            time_limit=time_limit,
            kind=self.kind,
            options={**self.options, "no_prune": no_prune},
            allow_python=allow_python,
            source=self.source,
            device=device,
        )
        if device == "gpu":
            _cuda()  # no CUDA device (nor the simulator): exit 2 at once
        if not force:
            folder = Path(out) if out is not None else Path.cwd()
            budget.refuse_oversize(problem, ctx, folder, on_cluster=scheduler is not None)
        if out is None:
            with connected(scheduler, ctx):
                return Result.of(_ran_on(problem.run(ctx), used))
        with held(Path(out)):
            with connected(scheduler, ctx):
                output = _ran_on(problem.run(ctx), used)
            written = write_outputs(Path(out), output, progress)
            page = write_gallery(Path(out), self.path, self.params or None, checked=False)
            written.append(page)
            if output.stopped is None:  # kept until now: a stop while writing resumes
                driver.discard(Path(out))
        return Result.of(output, written)

    @_located
    def count(
        self,
        *,
        constrained: bool = False,
        limit: int | None = None,
        time_limit: float | None = None,
        threads: int | None = None,
        no_prune: bool = False,
        allow_python: bool = False,
        scheduler: Any = None,
        device: str = "cpu",
        progress: Progress | None = None,
    ) -> Result:
        """The exact size of the space (and, if `constrained`, how many meet every rule);
        `scheduler` as in `build`."""
        _given("progress", progress, Progress, "an epcg_spec.core.context.Progress")
        _switches(constrained=constrained, no_prune=no_prune, allow_python=allow_python)
        _at_least("--limit", limit, 1, most=INT64_MAX)
        _at_least("--threads", threads, 1)
        _at_least("--time-limit", time_limit, 0, whole=False, equal=False)
        flags = {
            "--device": _device(device),
            "--constrained": constrained,
            "--limit": limit,
            "--time-limit": time_limit,
            "--no-prune": no_prune,
            "--threads": threads,
            "--allow-python": allow_python,
            "--scheduler": scheduler,
        }
        problem = self._checked("count", flags)
        used = self._threads(problem, "count", threads, scheduler) if constrained else None
        ctx = RunContext(
            seed=self._seed(None),
            threads=threads,
            progress=progress,
            time_limit=time_limit,
            limit=limit,
            budget_seconds=COUNT_BUDGET_SECONDS if time_limit is None else None,
            kind=self.kind,
            options={**self.options, "no_prune": no_prune},
            allow_python=allow_python,
            source=self.source,
            device=device,
        )
        if device == "gpu":
            _cuda()
        with connected(scheduler, ctx):
            result = Result.of(_ran_on(problem.count(ctx, constrained), used))
        if result.stopped == "limit":  # a lower bound, which every kind's JSON says so
            result.data.setdefault("complete", False)
        if result.stopped == "too long":
            took = result.data["partial"]["estimated_seconds"]
            raise UsageError(
                f"this count would take about {_duration(took)} at the rate measured in its "
                f"first second ({result.data.get('space_size', 0):,} states); give "
                "--time-limit SECONDS to count for that long (a partial count if it stops first)"
            )
        return result

    @_located
    def sample(
        self,
        n: int | None = None,
        *,
        ranks: Sequence[int] | None = None,
        seed: int | None = None,
        distinct: bool = False,
        scheduler: Any = None,
    ) -> Result:
        """Content by rank, or `n` (default 1) drawn uniformly, distinct if asked."""
        _switches(distinct=distinct)
        if ranks is not None and not (_integers(ranks) and ranks):  # [] would draw at random
            raise UsageError(f"--rank {ranks!r}: give a list of integers, one or more")
        if ranks and (n is not None or distinct or seed is not None):
            raise UsageError(
                "--rank names the content; -n, --seed and --distinct draw it: give one or other"
            )
        _at_least("-n", n, 1)
        _at_least("--seed", seed, 0, most=INT64_MAX)
        if n is not None and n > MAX_SAMPLES:
            raise UsageError(
                f"-n {n:,}: sample holds what it draws in memory and prints it, at most "
                f"{MAX_SAMPLES:,} at a time; draw in several runs with other seeds, or build"
            )
        flags = {
            "--rank": list(ranks) if ranks else None,
            "-n": n,
            "--distinct": distinct,
            "--seed": seed,
            "--scheduler": scheduler,
        }
        problem = self._checked("sample", flags)
        ctx = RunContext(seed=self._seed(seed), kind=self.kind, options=self.options)
        return Result.of(problem.sample(ctx, list(ranks) if ranks else None, n or 1, distinct))

    def _problem(self):
        return self.loaded.domain.compile(self.loaded.spec, self.options)

    def _checked(self, command: str, flags: dict[str, Any]):
        """The compiled problem, once every run flag given is known to be honoured."""
        problem = self._problem()
        needs = {"count": Countable, "sample": Samplable}.get(command)
        if needs is not None and not isinstance(problem, needs):
            raise UsageError(
                f"kind {problem.kind} does not support `{command}`{self._instead(problem, command)}"
            )
        given = [flag for flag, value in flags.items() if value not in (None, False)]
        for name in self.options:
            option = registry.cli_options()[name.replace("_", "-")][0]
            if command not in option.commands:
                why = f"it applies to {', '.join(f'`{c}`' for c in option.commands)}"
                raise refusal(f"--{option.name}", self.kind, why, command)
            given.append(f"--{option.name}")
        refuse_unsupported(self.loaded.domain, problem, command, given)
        if command == "count":
            refuse_unconstrained(self.loaded.domain, given)
        if "--scheduler" in given and "--allow-python" in given:
            raise UsageError(
                "--allow-python cannot go with --scheduler: cluster workers are sent the "
                "spec's text, not the Python files it names"
            )
        if "--scheduler" in given and "--device" in given:
            raise UsageError(
                "--device gpu cannot go with --scheduler yet: cluster workers run their "
                "units on their CPUs; give one or the other"
            )
        return problem

    def _threads(self, problem: Any, command: str, threads: int | None, scheduler: Any):
        """The threads the run's kernels get here, where its kind (and the spec's mode) run
        them side by side; more than numba has are refused (exit 2) before any work. None
        elsewhere, and on a cluster, whose workers check and set their own."""
        if scheduler is not None or not honours(self.loaded.domain, problem, command, "--threads"):
            return None
        from .search.blocks import threads_for  # numba: the run imports it anyway

        return threads_for(threads)

    def _instead(self, problem: Any, command: str) -> str:
        """The build that gives this spec's content where `sample` cannot, as a hint."""
        if command != "sample":
            return ""
        mode = getattr(problem, "sample_instead", lambda: None)()
        instead = mode or getattr(self.loaded.domain, "sample_instead", None)
        if instead is None:
            return ""
        spec = shlex.quote(str(self.path)) if self.path else "SPEC"
        params = [f"--param {shlex.quote(f'{k}={v}')}" for k, v in self.params.items()]
        return f"; {build_instead(' '.join([spec, *params]), *instead)}"

    def _seed(self, seed: int | None) -> int:
        if seed is not None:
            return seed
        value = self.data.get("seed", 0) if isinstance(self.data, dict) else 0
        return value if isinstance(value, int) else 0


def _ran_on(output: RunOutput, threads: int | None) -> RunOutput:
    """`output`, its result given the threads its kernels ran on (`threads`), if known."""
    if threads is not None:
        output.result["threads"] = threads
    return output


def _at_least(
    flag: str,
    value: Any,
    least: int,
    whole: bool = True,
    equal: bool = True,
    most: int | None = None,
) -> None:
    """A usage error unless `value` (given for `flag`) is None or a number at least `least`
    (above it if not `equal`; an integer if `whole`) and at most `most`, if given, as the
    command line checks its flags."""
    kinds = numbers.Integral if whole else numbers.Real
    if value is None or (
        isinstance(value, kinds)
        and not isinstance(value, bool)
        and (value >= least if equal else value > least)
        and (most is None or value <= most)
    ):
        return
    rule = f"{'an integer' if whole else 'a number'} {'>=' if equal else '>'} {least}"
    rule += f" and <= {most}" if most is not None else ""
    raise UsageError(f"{flag} {value!r}: give {rule}")


def _given(
    argument: str, value: Any, kinds: type | tuple[type, ...], what: str, optional: bool = True
) -> None:
    """A usage error unless `value` (given for `argument`) is one of `kinds` (or None, if
    `optional`), as the command line's parameter types check theirs."""
    if not (isinstance(value, kinds) or (optional and value is None)):
        raise UsageError(f"{argument} {value!r}: give {what}")


def _switches(**given: Any) -> None:
    """A usage error unless each argument named is True or False: a string such as "no"
    would otherwise count as True (allow_python="false" would run the spec's Python)."""
    for name, value in given.items():
        _given(f"--{name.replace('_', '-')}", value, bool, "True or False", optional=False)


def _integers(values: Any) -> bool:
    """Whether `values` is a list (or tuple) of integers, bools and text excluded."""
    return isinstance(values, list | tuple) and all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values
    )


def load(
    path: str | Path,
    params: dict[str, Any] | Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
) -> Spec:
    """Load and check a spec file (YAML, DSL, or a format a kind reads as it is).

    `params` overrides the spec's params ({"n": 10}, or ["n=10"] as on the command line);
    `options` are a kind's own options (e.g. {"origin": "#hero#"} for tracery).
    """
    _given("path", path, (str, os.PathLike), "the path of a spec file", optional=False)
    text = read_text(Path(path))
    return _spec(text, parse_document(text, Path(path)), params, options, Path(path))


def loads(
    text: str,
    format: str = "yaml",
    params: dict[str, Any] | Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    name: str = "<string>",
) -> Spec:
    """Load and check a spec from text; `format` is yaml, dsl or json (Tracery). `name`
    names it in messages, and the files it names are found beside that name."""
    _given("text", text, str, "the spec's text", optional=False)
    if not (isinstance(name, str) and name):
        raise UsageError(f"name {name!r}: give a name for the spec in messages, e.g. '<string>'")
    if not isinstance(format, str) or format not in FORMATS:
        raise UsageError(f"format {format!r}: give one of {', '.join(FORMATS)}")
    document = parse_document(text, Path(name + FORMATS[format]))
    return _spec(text, document, params, options)


def merge(
    shards: Sequence[str | os.PathLike], out: str | os.PathLike, progress: Progress | None = None
) -> Result:
    """Merge the shards of one run (their output folders or result.json files) into what
    one run would have written, written to the folder `out` (`epcg-spec merge`)."""
    listed = isinstance(shards, list | tuple) and bool(shards)
    if not (listed and all(isinstance(s, str | os.PathLike) for s in shards)):
        raise UsageError(
            f"shards {shards!r}: give a list of the shards' folders or result.json files"
        )
    _given("out", out, (str, os.PathLike), "the path of a folder", optional=False)
    _given("progress", progress, Progress, "an epcg_spec.core.context.Progress")
    not_a_file(Path(out))
    paths = [Path(p) / "result.json" if Path(p).is_dir() else Path(p) for p in shards]
    output = merge_results([read_shard(p) for p in paths], [p.parent for p in paths])
    domain = registry.domain(output.result["kind"])
    if hasattr(domain, "merged_files"):
        output.artifacts.update(domain.merged_files(output.result))
    with held(Path(out)):
        written = write_outputs(Path(out), output, progress)
        written.append(write_gallery(Path(out), checked=False))  # the page a build writes
    return Result.of(output, written)


def compiled_source(source: SpecSource) -> Any:
    """The compiled problem of a spec sent to a cluster worker."""
    document = parse_document(source.text, Path(source.name))
    return _spec(source.text, document, source.params, source.options)._problem()


def _spec(text: str, document, params, options, path: Path | None = None) -> Spec:
    if params is None:
        overrides: dict[str, Any] = {}
    elif isinstance(params, dict) and all(isinstance(k, str) for k in params):
        wrong = [name for name, value in params.items() if not _integers([value])]
        if wrong:
            value = params[wrong[0]]
            raise UsageError(f"params {wrong[0]}={value!r}: a param's value is an integer")
        overrides = {name: int(value) for name, value in params.items()}
    elif isinstance(params, list | tuple) and all(isinstance(p, str) for p in params):
        overrides = parse_overrides(list(params))
    else:
        raise UsageError(f"params {params!r}: give a dict {{name: value}} or NAME=VALUE strings")
    if options is not None and not (
        isinstance(options, dict) and all(isinstance(k, str) for k in options)
    ):
        raise UsageError(f"options {options!r}: give a dict {{option name: value}}")
    loaded = check_document(document, overrides)
    chosen = _domain_options(loaded, options or {})
    name = str(path.resolve()) if path is not None else document.source
    # every param's value, given or not, and the files read: a checkpoint's key, result.json's
    # inputs, and what a worker rebuilds
    params = resolve_params(document, overrides)
    source = SpecSource(text, name, params, chosen, loaded.inputs)
    return Spec(loaded, chosen, path, overrides, source)


def _domain_options(loaded: Loaded, options: dict[str, Any]) -> dict[str, Any]:
    """A kind's own options, each checked to belong to this kind."""
    chosen = {k.replace("-", "_"): v for k, v in options.items() if v is not None}
    known = registry.cli_options()
    for name in chosen:
        option = name.replace("_", "-")
        if option not in known:
            raise UsageError(f"unknown option {option!r}; the kinds' options are {sorted(known)}")
        kinds = known[option][1]
        if loaded.domain.kind not in kinds:
            why = f"it is an option of kind {', '.join(kinds)}"
            raise refusal(f"--{option}", loaded.domain.kind, why)
        chosen[name] = _option_value(option, chosen[name], known[option][0].type)
    return chosen


def _option_value(option: str, value: Any, kind: Any) -> Any:
    """`value` given for --`option` (of click type `kind`), converted and checked as the
    command line converts its text: text, or a value of the option's own type (an integer,
    a path); click would turn any other value into one (2.5 into 2, a list into its repr)."""
    kind = click.types.convert_type(kind)
    whole = isinstance(kind, click.types.IntParamType)
    own = numbers.Integral if whole else os.PathLike
    if isinstance(value, bool) or not isinstance(value, str | own):
        raise UsageError(f"--{option} {value!r}: give {'an integer' if whole else 'text'}")
    try:
        return kind.convert(value, None, None)
    except click.BadParameter as exc:
        raise UsageError(f"--{option} {value!r}: {exc.message}") from None


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:,.0f} s"


def _device(device: str) -> bool:
    """Whether `device` asks for a GPU path (every kind runs on the CPU)."""
    if device not in DEVICES:
        raise UsageError(f"device {device!r}: give one of {', '.join(DEVICES)}")
    return device == "gpu"


def _shard(shard: tuple[int, int] | str | None) -> tuple[int, int]:
    """(I, N) from (I, N) or "I/N"; (0, 1) for None."""
    if shard is None:
        return 0, 1
    try:
        index, count = shard.split("/") if isinstance(shard, str) else shard
        index, count = (int(x) if isinstance(x, str) else x for x in (index, count))
    except (TypeError, ValueError):
        index = count = None
    whole = all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in (index, count))
    if not whole or not 0 <= index < count:
        raise UsageError(f"shard {shard!r}: give (I, N) or 'I/N' with 0 <= I < N, e.g. (0, 4)")
    return index, count


def _cuda() -> None:
    """Exit 2 at once where --device gpu cannot run (numba.cuda imported only then)."""
    from .search.gpu import cuda

    cuda()
