"""Kernels compiled only for the kernels that call them.

numba compiles a kernel that another kernel calls as a dispatcher of its own: typed, lowered,
optimised by LLVM, emitted as machine code with a C wrapper, and written to the disk cache,
then linked into the caller's module and optimised there again. A kernel that only kernels
call never runs its own machine code. A `subroutine` is an intrinsic instead: a call site is
typed from the return type the decorator declares, and the body is compiled once per
argument types (no dispatcher, no wrapper, no cache file) and linked into its callers
(docs/benchmarks.md, "Cold compile", branch `pcompile3`). Its library is only linked: numba
would optimise a linked library's module on its own and make machine code of it, which
nothing runs ("Subroutines linked, not finalised"). A subroutine cannot be called from
Python; with numba's JIT off (coverage runs) it is the plain function.

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
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import global_compiler_lock
from numba.extending import intrinsic

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)


class _LinkedOnly(JITCodeLibrary):
    """A subroutine's library: its functions optimised one by one, then linked into its
    callers' modules and optimised there with them. Finalising it (numba does, on linking)
    only links in the subroutines it calls."""

    def _optimize_final_module(self) -> None:
        pass

    def _finalize_final_module(self) -> None:
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True


def _compiled(context, body: Callable, sig, inline: bool):
    """`body` compiled for `sig` once per process, without numba's runtime (see the module
    docstring), into a `_LinkedOnly` library linked into the library being lowered."""
    key = (body, sig, type(context.error_model))  # numba keys its own by code object
    compiled = context.cached_internal_func.get(key)
    if compiled is None:
        flags = compiler.Flags()
        flags.forceinline = inline
        flags.no_compile = flags.no_cpython_wrapper = flags.no_cfunc_wrapper = True
        library = _LinkedOnly(context.codegen(), body.__name__)
        with global_compiler_lock:
            compiled = compiler.compile_internal(
                context.typing_context, context, library, body, sig.args, sig.return_type,
                flags, locals={},
            )  # fmt: skip
        context.cached_internal_func[key] = compiled
    context.active_code_library.add_linking_library(compiled.library)
    return compiled


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
                compiled = _compiled(context.subtarget(enable_nrt=False), body, sig, inline)
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
