"""Generated connector modules: the one way kernel source is generated and cached.

A module's text joins a problem's kernels with a back end's loop template (`loop_template`).
Its first lines carry `source_fingerprint` of every module it imports, so the text, and the
file name derived from a hash of it, changes whenever an imported or inlined kernel changes
(numba's own cache notices only the generated file itself). A changed source therefore gets
a new file, and an existing file is used only if it holds exactly the text asked for. The
package's own kernels (njit(cache=True) in its files), and those of any file that imports
the package (a benchmark's), get the same fingerprint in numba's source stamp
(`_Fingerprinted`): editing the package never needs a manual cache delete.

Nothing from a spec reaches the text except through `identifier` (a checked Python
identifier) or `repr()` (a quoted literal).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import keyword
import site
import sys
import sysconfig
import threading
from collections.abc import Iterable
from contextlib import suppress
from functools import cache
from importlib import resources
from pathlib import Path
from types import ModuleType

from numba.core import caching

from ..core.cache import cache_dir
from ..core.errors import EpcgError
from ..core.files import atomic_write, contained

IMPORTS = "import numpy as np\nfrom numba import njit\n"
TEMPLATE_MARKER = "from numba import njit\n"
PACKAGE = "epcg_spec"
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def identifier(text: str, dotted: bool = False) -> str:
    """`text` if it is a Python identifier (with `dotted`, a dotted module path), else exit 3:
    the loaders check every name a spec gives, so one reaching here unchecked is our bug."""
    parts = text.split(".") if dotted else [text]
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise EpcgError(f"internal error: {text!r} reached generated source unchecked")
    return text


def source_fingerprint(modules: Iterable[str]) -> str:
    """A hash of the source files of `modules` and of every epcg_spec module they import,
    directly or not: what a compiled kernel may have inlined."""
    digest = hashlib.sha256()
    seen: set[str] = set()
    todo = sorted(set(modules))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        origin = _origin(name)
        if origin is None:
            continue
        text = origin.read_bytes()
        digest.update(name.encode() + b"\0" + text + b"\0")
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            todo += [m for m in _imported(name, origin, text) if m.split(".")[0] == PACKAGE]
    _save_import_index()
    return digest.hexdigest()[:16]


@cache
def _package_fingerprint(modules: tuple[str, ...]) -> str:
    """source_fingerprint of epcg_spec modules (whose files do not change in a run)."""
    return source_fingerprint(modules)


def _package_modules_of(module: str, py_file: str) -> tuple[str, ...]:
    """What a kernel of `module` (file `py_file`) may have inlined of this package: the module
    itself if it is one of the package's, else the package modules its file imports (a
    benchmark's kernel, or a user's, calling ours); none for a file that imports none."""
    if module == PACKAGE or module.startswith(PACKAGE + "."):
        return (module,)
    origin = Path(py_file)
    try:
        imported = _imported(module, origin, origin.read_bytes())
    except (OSError, ImportError, SyntaxError, ValueError):  # unreadable, or no package
        return ()
    return tuple(sorted({m for m in imported if m.split(".")[0] == PACKAGE}))


class _Fingerprinted:
    """A numba cache locator for the kernels that may inline epcg_spec's: the source stamp
    numba keeps with a cached kernel also holds the fingerprint of the package modules its
    file is or imports, so editing a kernel that another file inlines recompiles that
    file's kernels too. numba's own stamp covers the kernel's file alone: a benchmark's
    kernel kept the package code it was first compiled with (docs/benchmarks.md, "Kernels
    slower by what compiled first, or stale")."""

    @classmethod
    def from_function(cls, py_func, py_file):
        modules = _package_modules_of(py_func.__module__, py_file)
        if not modules:
            return None
        locator = super().from_function(py_func, py_file)
        if locator is not None:
            locator.modules = modules
        return locator

    def get_source_stamp(self):
        return (super().get_source_stamp(), _package_fingerprint(self.modules))


class _UserProvided(_Fingerprinted, caching.UserProvidedCacheLocator):
    pass


class _InTree(_Fingerprinted, caching.InTreeCacheLocator):
    """Beside the source, as numba keeps it, but for an installed package: `pip uninstall`
    leaves the cache files behind, and the folder they keep then hides an editable install
    of the package (`import epcg_spec` finds a namespace package). Those kernels go to the
    user-wide cache instead."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if _installed(py_file):
            return None
        return super().from_function(py_func, py_file)


def _installed(py_file: str) -> bool:
    """Whether `py_file` lies in a folder pip installs packages into."""
    path = Path(py_file).resolve()
    return any(path.is_relative_to(folder) for folder in _install_folders())


@cache
def _install_folders() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    folders = {paths["purelib"], paths["platlib"], *site.getsitepackages()}
    if site.ENABLE_USER_SITE:
        folders.add(site.getusersitepackages())
    return tuple(Path(f).resolve() for f in folders)


class _UserWide(_Fingerprinted, caching.UserWideCacheLocator):
    pass


# before numba's own locators, in their order: every epcg_spec kernel is decorated after
# this runs, as every module that imports numba imports this module (a test checks)
caching.CacheImpl._locator_classes[:0] = [_UserProvided, _InTree, _UserWide]


@cache
def _origin(module: str) -> Path | None:
    """The .py file of `module`, or None (a compiled or built-in module, or none at all).

    A module of this package is found as Python's import would find it (a package's
    __init__.py before a module's file), without importing the packages above it as
    importlib.util.find_spec does: a kernel's stamp then imports no kind it does not use."""
    top, *parts = module.split(".")
    if top == PACKAGE:
        base = PACKAGE_DIR.joinpath(*parts)
        for candidate in (base / "__init__.py", base.with_name(f"{base.name}.py")):
            if candidate.is_file():
                return candidate
        return None
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = Path(found.origin) if found and found.origin else None
    return origin if origin is not None and origin.suffix == ".py" else None


def _imported(name: str, origin: Path, text: bytes) -> list[str]:
    """The modules (and possible submodules) that a module's import statements name.

    Parsing every package module costs more than a warm start's other work (every kernel's
    cache stamp walks the package's imports), so the answers are kept in the cache folder,
    keyed by a hash of the module's name and text, and each text is parsed once."""
    key = hashlib.sha256(f"{name}\0{origin.name}\0".encode() + text).hexdigest()
    index = _import_index()
    found = index.get(key)
    if not (isinstance(found, list) and all(isinstance(m, str) for m in found)):
        found = index[key] = _parse_imports(name, origin, text)
        _UNSAVED.add(key)
    return found


_UNSAVED: set[str] = set()  # keys of import lists parsed since the index was last saved


def _save_import_index() -> None:
    """Write the index once after a walk that parsed something (not once per module)."""
    if _UNSAVED:
        with suppress(OSError):  # a read-only cache folder: parse again next time
            atomic_write(_import_index_path(), json.dumps(_import_index(), sort_keys=True))
        _UNSAVED.clear()


def _import_index_path() -> Path:
    return cache_dir() / "imports.json"


@cache
def _import_index() -> dict[str, list[str]]:
    """The saved import lists (empty if none were saved or the file is unreadable)."""
    try:
        index = json.loads(_import_index_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return index if isinstance(index, dict) else {}


def _parse_imports(name: str, origin: Path, text: bytes) -> list[str]:
    package = name if origin.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            found.append(base)
            if base.split(".")[0] == PACKAGE:  # a name may be a submodule; never import others
                found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def _import_modules(imports: list[str]) -> list[str]:
    """The modules that import lines (`import X`, `from X import ...`) name."""
    return _parse_imports("__generated__", Path("generated.py"), "\n".join(imports).encode())


@cache
def loop_template(module: str, package: str = "epcg_spec.search") -> str:
    """The body of a loop template (`<package>/<module>.py`) below its imports."""
    text = resources.files(package).joinpath(f"{module}.py").read_text("utf-8")
    return text.split(TEMPLATE_MARKER, 1)[1].lstrip("\n")


def generated_source(what: str, imports: list[str], parts: list[str]) -> str:
    """The text of the module made of `imports` and source `parts`; `what` is quoted."""
    head = f"{'Generated by epcg-spec for ' + what + '; do not edit.'!r}\n"
    head += f"# imported sources {source_fingerprint(_import_modules(imports))}\n"
    unique_imports = list(dict.fromkeys([IMPORTS.rstrip("\n"), *imports]))
    body = "\n\n".join(p.strip("\n") for p in parts)
    return head + "\n".join(unique_imports) + "\n\n\n" + body + "\n"


_IMPORTING = threading.RLock()  # a module is in sys.modules before its import has finished


def generated_module(what: str, imports: list[str], parts: list[str]) -> ModuleType:
    """Write (unless the cache holds this very text) and import the generated module; a
    thread asking for it while another imports it waits for the whole module."""
    text = generated_source(what, imports, parts)
    name = "epcg_k_" + hashlib.sha256(text.encode()).hexdigest()[:20]
    with _IMPORTING:
        if name in sys.modules:
            return sys.modules[name]
        return _imported_module(name, text)


def _imported_module(name: str, text: str) -> ModuleType:
    folder = cache_dir() / "kernels"
    path = contained(folder, f"{name}.py")
    try:
        current = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        current = None
    if current != text:
        atomic_write(path, text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:  # Ctrl-C while importing: the next call imports it again
        del sys.modules[name]
        raise
    return module
