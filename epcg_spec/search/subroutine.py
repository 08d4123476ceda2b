"""Kernels compiled only for the kernels that call them.

numba compiles a kernel that another kernel calls as a dispatcher of its own: typed, lowered,
optimised by LLVM, emitted as machine code with a C wrapper, and written to the disk cache,
then linked into the caller's module and optimised there again. A kernel that only kernels
call never runs its own machine code. A `subroutine` is an intrinsic instead: a call site is
typed from the return type the decorator declares, and the body is compiled once per
argument types by numba's `compile_subroutine` (no dispatcher, no wrapper, no cache file) and
linked into its callers (docs/benchmarks.md, "Cold compile", branch `pcompile3`). A
subroutine cannot be called from Python; with numba's JIT off (coverage runs) it is the
plain function.

A subroutine is compiled without numba's runtime (no reference counts), as the hot kernels
that call it are: numba keeps one compiled body per argument types for the whole process,
and would otherwise compile it under the flags of whichever kernel reached it first. After
an ordinary kernel (runtime on) had reached the propagate engine's bans first, the engine
counted references in every ban, and a Sudoku proof ran 10x slower (docs/benchmarks.md,
"Kernels slower by what compiled first, or stale").
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from numba import config, types
from numba.core import compiler
from numba.extending import intrinsic

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)


def subroutine(
    returns: types.Type, inline: bool = False, pick: Callable | None = None
) -> Callable[[Callable], Callable]:
    """Decorate a kernel's Python function: it returns `returns` (a numba type); `inline`
    asks LLVM to inline it at every call (its `alwaysinline`); `pick`, given the argument
    types, names the function compiled instead of the decorated one (for a choice made by
    type when the caller is typed)."""

    def wrap(function: Callable) -> Callable:
        if config.DISABLE_JIT:
            return function

        def typer(typingctx, *argtypes):
            signature = returns(*(types.unliteral(t) for t in argtypes))
            body = function if pick is None else pick(*signature.args)

            def codegen(context, builder, sig, args):
                flags = compiler.Flags()
                flags.forceinline = inline
                # numba's own runtime off whatever the caller's flags (see the docstring)
                plain = context.subtarget(enable_nrt=False)
                compiled = plain.compile_subroutine(builder, body, sig, flags=flags)
                return context.call_internal(builder, compiled.fndesc, sig, args)

            return signature, codegen

        # numba reads the parameters a call binds from the typer's signature
        context = inspect.Parameter("typingctx", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params = [context, *inspect.signature(function).parameters.values()]
        typer.__signature__ = inspect.Signature(params)
        typer.__name__ = function.__name__
        typer.__doc__ = function.__doc__
        return intrinsic(typer)

    return wrap
