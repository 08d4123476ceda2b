"""numba comes in only where kernels are: the cache connector before every kernel module, and
commands that compile nothing start without it."""

import ast
import subprocess
import sys
from pathlib import Path

import epcg_spec

PACKAGE = Path(epcg_spec.__file__).parent
ROOT = PACKAGE.parent


def _imports(tree: ast.Module) -> list[str]:
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names += [f"{'.' * node.level}{node.module or ''}.{a.name}" for a in node.names]
    return names


def test_every_module_with_kernels_registers_the_cache_connector_first():
    # the connector's cache locator keys a kernel on the sources it inlines; a kernel
    # decorated before it is registered would be cached by numba's own rule instead
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name.endswith("_loop.py") or path.name == "connector.py":
            continue  # templates the connector copies, never imported; the connector itself
        names = _imports(ast.parse(path.read_text("utf-8")))
        kernels = any(n.split(".")[0] == "numba" for n in names)
        if kernels and not any("compile.connector" in n for n in names):
            missing.append(str(path.relative_to(ROOT)))
    assert missing == []


def _numba_after(*argv: str) -> str:
    code = (
        "import sys\n"
        "from epcg_spec.cli.main import main\n"
        f"code = main({list(argv)!r})\n"
        "print(code, 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()[-1]


def test_commands_that_compile_nothing_do_not_import_numba():
    assert _numba_after("--version") == "0 False"
    assert _numba_after("kinds", "wfc") == "0 False"
    assert _numba_after("validate", "specs/sudoku-minimal.yaml", "specs/wfc-maze.yaml") == (
        "0 False"
    )
    assert _numba_after("fmt", "specs/n-queens.yaml", "--to", "dsl") == "0 False"
