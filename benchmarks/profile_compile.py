"""Where a cold build's compile time goes: CPU seconds per compiled kernel, from numba's events.

Builds one kind's shipped spec (as bench_compile.py does) in this process, on an empty kernel
cache and an empty numba cache, listening to numba's `numba:compile` events. A kernel's
compile includes those of the kernels it calls that were not compiled yet; "self" is its
own part (its typing, lowering, and LLVM's optimisation of its module, which holds a copy of
every kernel it reaches). Kernels compiled more than once (one copy per argument types) are
listed with the arguments that differ.

Run: python benchmarks/profile_compile.py KIND|SPEC [--top N]   (SPEC: a spec file's path)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bench_compile import BUILDS, resolve  # noqa: E402


def name_of(dispatcher) -> str:
    function = getattr(dispatcher, "py_func", dispatcher)
    return f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", help=f"one of {', '.join(BUILDS)}, or a spec file")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="profile-compile-")
    os.environ["EPCG_CACHE_DIR"] = f"{scratch}/epcg"
    os.environ["NUMBA_CACHE_DIR"] = f"{scratch}/numba"  # read when numba is imported
    from numba.core import event

    from epcg_spec.cli.main import main as cli

    open_compiles: list[list] = []  # [name, argument types, CPU at start, CPU of callees]
    done: list[tuple[float, float, str, tuple]] = []  # (self, total, name, argument types)

    class Compiles(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            name = name_of(ev.data["dispatcher"])
            open_compiles.append([name, ev.data["args"], time.process_time(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            name, types, began, callees = open_compiles.pop()
            total = time.process_time() - began
            if open_compiles:
                open_compiles[-1][3] += total
            done.append((total - callees, total, name, types))

    if args.kind not in BUILDS and not Path(args.kind).is_file():
        parser.error(f"{args.kind!r} is neither a kind ({', '.join(BUILDS)}) nor a spec file")
    _, spec, params = resolve(args.kind)
    argv = ["build", str(spec), "--out", f"{scratch}/out", "-q"]
    argv += [f"--param={k}={v}" for k, v in params.items()]
    began = time.process_time()
    with event.install_listener("numba:compile", Compiles()):
        code = cli(argv)
    spent = time.process_time() - began
    print(f"{args.kind}: exit {code}, {spent:.1f} s CPU, {len(done)} compiles")
    print(f"{'self s':>7} {'total s':>8}  kernel")
    for own, total, name, _ in sorted(done, key=lambda row: -row[0])[: args.top]:
        print(f"{own:>7.2f} {total:>8.2f}  {name}")
    copies = defaultdict(list)
    for own, _, name, types in done:
        copies[name].append((own, [str(t) for t in types]))
    print("kernels compiled more than once (arguments that differ from the first copy):")
    for name, rows in sorted(copies.items(), key=lambda item: -sum(r[0] for r in item[1])):
        if len(rows) > 1 and sum(r[0] for r in rows) >= 0.2:
            first = rows[0][1]
            print(f"  {name}: {len(rows)} copies, {sum(r[0] for r in rows):.2f} s")
            for own, types in rows[1:]:
                differ = [
                    f"#{i} {t[:60]}"
                    for i, t in enumerate(types)
                    if i >= len(first) or t != first[i]
                ]
                print(f"    {own:.2f} s: {', '.join(differ)}")


if __name__ == "__main__":
    main()
