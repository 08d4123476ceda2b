"""The run contract's flags: which command has which, and refusing those a kind cannot honour.

Every flag of `build`, `count` and `sample` is either honoured by the spec's kind or refused
with exit 2 and one line saying why; none is ignored. A kind's domain lists what it honours
(`supports[command]`), its problem may refuse more for the spec's mode (`refused(command)`),
and the reasons below explain the other refusals. The Python API and so the CLI check here.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import UsageError

WHY_NOT: dict[str, str] = {
    "--seed": "its build draws nothing at random: every seed gives the same content",
    "--shard": "its work does not split into independent units",
    "--resume": "it keeps no checkpoint to resume from",
    "--fresh": "it keeps no checkpoint to discard",
    "--time-limit": "its work cannot stop between units and be resumed",
    "--threads": "it runs on one thread",
    "--limit": "its count is exact and does not stop early",
    "--constrained": "its count always applies every rule of the spec",
    "--no-prune": "it has no prefix pruning to turn off",
    "--rank": "its content is not addressed by rank",
    "-n": "it does not draw several samples",
    "--distinct": "it does not draw several samples",
    "--force": "it makes no estimate for --force to override",
    "--allow-python": "its specs name no Python functions",
    "--scheduler": "its work is not cut into independent units a cluster could share",
    "--device": "it has no GPU path (kinds space and fling have one)",
}


def refuse_unsupported(domain: Any, problem: Any, command: str, flags: list[str]) -> None:
    """Exit 2 (UsageError) on the first flag that the spec's kind (or mode) cannot honour.

    A domain lists the run flags its kind honours per command it has (`supports`); a problem may
    refuse some of them for its spec's mode (`refused(command)`, flag -> reason).
    """
    refused = problem.refused(command) if hasattr(problem, "refused") else {}
    for flag in flags:
        if flag in refused:
            raise refusal(flag, domain.kind, refused[flag], command)
        if flag in WHY_NOT and flag not in domain.supports.get(command, ()):
            why = WHY_NOT[flag] + _instead(flag, domain.supports[command] - refused.keys())
            raise refusal(flag, domain.kind, why, command)


def honours(domain: Any, problem: Any, command: str, flag: str) -> bool:
    """Whether the spec's kind, in the spec's mode, honours `flag` for `command`."""
    refused = problem.refused(command) if hasattr(problem, "refused") else {}
    return flag in domain.supports.get(command, ()) and flag not in refused


def refusal(flag: str, kind: str, why: str, command: str | None = None) -> UsageError:
    """The one wording of every refused flag (exit 2): the flag, the command and kind that
    refuse it, and why; `command` None where the spec refuses it for every command."""
    where = f"`{command}` of this {kind} spec" if command else f"this {kind} spec"
    return UsageError(f"{flag} is refused for {where}: {why}")


def build_instead(spec: str, flags: str, does: str) -> str:
    """The build that gives a kind's content where `sample` is refused, and what it does:
    `epcg-spec build SPEC --seed N` makes ..., for the refusal and `epcg-spec kinds`."""
    return f"`{' '.join(['epcg-spec build', spec, flags]).strip()}` {does}"


def _instead(flag: str, honoured: frozenset[str]) -> str:
    """How the kind does use several cores, where --threads is refused."""
    if flag != "--threads":
        return ""
    if "--scheduler" in honoured:
        return "; use N cores with --scheduler local:N (one process each)"
    if "--shard" in honoured:
        return "; use several cores with --shard I/N, one run a shard, then merge"
    return ""


def refuse_unconstrained(domain: Any, flags: list[str]) -> None:
    """Exit 2 on a flag of a `count` without --constrained, for a kind whose count then is
    the size of the space, worked out at once: no search for the flag to steer."""
    if flags and "--constrained" in domain.supports["count"] and "--constrained" not in flags:
        why = (
            "it applies to `count --constrained`; without it, the count is the size of the "
            "space, worked out at once with no search"
        )
        raise refusal(flags[0], domain.kind, why, "count")


def refuse_more_distinct(n: int, available: int, what: str) -> None:
    """Exit 2 where `sample -n N --distinct` asks for more than the `available` distinct
    `what` there are: -n could not be honoured."""
    if n > available:
        raise UsageError(
            f"-n {n:,} --distinct: there are only {available:,} {what}; ask for at most "
            f"{available:,}"
        )
