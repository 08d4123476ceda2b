"""One handler from exceptions to exit codes; tracebacks go to a log file, never the user."""

from __future__ import annotations

import datetime
import errno
import sys
import traceback
from collections.abc import Callable

import click

from ..core.cache import cache_dir
from ..core.errors import EpcgError, Interrupted, SpecError, one_line, shortened

OK, INVALID, USAGE, INTERNAL, INTERRUPTED = 0, 1, 2, 3, 130
# what the machine refuses, not a bug of ours: a path the user gave, a full or read-only disk
REFUSED_BY_THE_SYSTEM = {
    errno.EACCES,
    errno.EPERM,
    errno.EROFS,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.ENAMETOOLONG,
    errno.ENOTDIR,
    errno.EISDIR,
}


# click 8.2 on: a group given no command raises this, with the help as its message
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


def run_guarded(action: Callable[[], int]) -> int:
    """Run a command; report any failure in one line per problem and return the exit code."""
    try:
        return action()
    except SpecError as exc:
        for diagnostic in exc.diagnostics:
            print(diagnostic, file=sys.stderr)
        return INVALID
    except Interrupted as exc:
        print(one_line(f"interrupted: {exc}"), file=sys.stderr)
        return INTERRUPTED
    except EpcgError as exc:
        if exc.exit_code == INTERNAL:
            return _internal(exc)
        where = getattr(exc, "pos", None)
        label = "usage error" if exc.exit_code == USAGE else "error"
        print(one_line(f"{where or label}: {exc}"), file=sys.stderr)
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except _NO_ARGS_IS_HELP as exc:  # a bare `epcg-spec`: the help, as it is
        print(exc.format_message(), file=sys.stderr)
        return USAGE
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx else "epcg-spec"
        message = " ".join(f"{exc.format_message()}{_misplaced(exc)}".split())  # one line
        print(f"usage error: {message} (see '{command} --help')", file=sys.stderr)
        return USAGE
    except click.ClickException as exc:
        exc.show(file=sys.stderr)
        return USAGE
    except (KeyboardInterrupt, click.exceptions.Abort):
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except MemoryError:  # past the estimate's check (--force), or under a limit it missed
        return _out_of_memory()
    except OSError as exc:
        if exc.errno == errno.ENOMEM:  # a memory map (a Fling layer's file) refused
            return _out_of_memory()
        if exc.errno not in REFUSED_BY_THE_SYSTEM:
            return _internal(exc)
        where = f"{shortened(str(exc.filename))}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror}", file=sys.stderr)
        return INVALID
    except Exception as exc:
        return _internal(exc)


def _out_of_memory() -> int:
    print(
        "error: out of memory: the run needed more than this machine, or a limit on this "
        "process, gives; make the spec smaller ('epcg-spec explain SPEC' shows its estimated "
        "memory)",
        file=sys.stderr,
    )
    return INVALID


def _misplaced(exc: click.UsageError) -> str:
    """For an option given before the command that some command takes: where it goes."""
    group = exc.ctx.command if exc.ctx else None
    if not (isinstance(exc, click.NoSuchOption) and isinstance(group, click.Group)):
        return ""
    takers = [
        name
        for name, command in sorted(group.commands.items())
        if any(exc.option_name in param.opts for param in command.params)
    ]
    if not takers:
        return ""
    return (
        f" It goes after the command (it is an option of {', '.join(takers)}): "
        f"{exc.ctx.command_path} {takers[0]} ... {exc.option_name} ..."
    )


def _internal(exc: BaseException) -> int:
    folder = cache_dir() / "logs"
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        log = folder / f"crash-{stamp}.log"
        log.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        where = f"the traceback is in {log}"
    except OSError:
        where = "the traceback could not be saved"
    print(
        f"internal error: {type(exc).__name__}: {exc}\nthis is a bug in epcg-spec; {where}",
        file=sys.stderr,
    )
    return INTERNAL
