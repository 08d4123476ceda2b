"""A schema-valid `kind: space` document to a SpaceSpec, with every semantic check."""

from __future__ import annotations

import importlib
import keyword
import sys
from pathlib import Path
from typing import Any

from ...core import inputs
from ...core.errors import Diagnostic, EpcgError, SpaceTooLarge, SpecError
from ...core.files import NotReadable, read_bounded
from ...spaces import ProductSpace, RankedSpace, make_space
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.expr.analysis import Analyzer, Reads
from ...spec.expr.ast import parse_expression
from ...spec.expr.check import BOOL, FLOAT, ArraySymbol, ExprProblem, check
from ...spec.grammar import SyntaxProblem
from ...spec.params import expression_problem, integer_field, param_symbols, resolve_params
from .model import Condition, Pruning, SpaceSpec, UserFunction

DEFAULT_ARRAY = "x"
_USER_MODULES: set[str] = set()  # imported for a spec: re-imported from the next spec's folder
DEFAULT_TOP = 10
_SIZE_FIELDS = {
    "combination": ("n", "k"),
    "permutation": ("n",),
    "k-permutation": ("n", "k"),
    "multiset": ("n", "k"),
    "power": ("base", "k"),
}
MAX_LENGTH = 10_000
"""Most positions a state may have (far past any enumerable space; keeps checks instant)."""


def load_space_spec(doc: Document, overrides: dict[str, Any]) -> SpaceSpec:
    data = doc.data
    params = resolve_params(doc, overrides)
    space, arrays = _space(doc, params)
    symbols = {**param_symbols(params), **{a.name: a for a in arrays}}
    problems: list[Diagnostic] = []
    analyzer = Analyzer(symbols, space.length)
    constraints = [
        c
        for i, item in enumerate(data.get("constraints") or [])
        if (
            c := _condition(
                doc,
                ("constraints", i),
                item,
                str(i + 1),
                symbols,
                analyzer,
                BOOL,
                problems,
            )
        )
    ]
    objective, sense = _objective(doc, symbols, analyzer, problems)
    if problems:
        raise SpecError(problems)
    search = data.get("search") or {}
    prune = search.get("prune", True) and space.prefix_ordered and space.length > 0
    try:
        space.check_fits()
    except SpaceTooLarge as exc:
        raise SpecError(doc.diag(("space",), exc.problem, exc.HINT)) from None
    spec = SpaceSpec(
        document=doc,
        name=data.get("name") or Path(doc.source).stem,
        description=data.get("description", ""),
        params=params,
        space=space,
        arrays=arrays,
        symbols=symbols,
        constraints=constraints,
        objective=objective,
        sense=sense,
        prune=prune,
        top=search.get("top", DEFAULT_TOP),
        analyzer=analyzer,
        pruning=Pruning(),
    )
    if prune:
        _split_for_pruning(spec)
    return spec


def _space(doc: Document, params: dict[str, int]) -> tuple[RankedSpace, list[ArraySymbol]]:
    node = doc.data["space"]
    if node["type"] != "product":
        space = _lone_space(doc, ("space",), params)
        name = node.get("name", DEFAULT_ARRAY)
        return space, [_array(doc, ("space",), params, name, space, 0)]
    factors, arrays, offset = [], [], 0
    for i, factor in enumerate(node["factors"]):
        path = ("space", "factors", i)
        if factor["type"] == "product":
            raise SpecError(
                doc.diag(
                    (*path, "type"),
                    "a product cannot contain a product",
                    "list all factors in one product",
                )
            )
        name = factor.get("name", f"{DEFAULT_ARRAY}{i}")
        if any(a.name == name for a in arrays):
            raise SpecError(
                doc.diag(
                    (*path, "name"),
                    f"two factors are named '{name}'",
                    "give each factor its own name",
                )
            )
        space = _lone_space(doc, path, params)
        factors.append((name, space))
        arrays.append(_array(doc, path, params, name, space, offset))
        offset += space.length
    return ProductSpace(factors), arrays


def _lone_space(doc: Document, path: DocPath, params: dict[str, int]) -> RankedSpace:
    node = doc.get(path)
    kind = node["type"]
    for key in ("factors", "order", "radices", "base", "n", "k"):
        if key in node and key not in _allowed_keys(kind):
            raise SpecError(
                doc.diag(
                    (*path, key),
                    f"'{key}' does not apply to a {kind} space",
                    f"a {kind} space takes: {', '.join(_allowed_keys(kind))}",
                    key=True,
                )
            )
    try:
        if kind == "radix":
            _check_length(doc, (*path, "radices"), len(node["radices"]))
            radices = [
                integer_field(doc, (*path, "radices", i), params)
                for i in range(len(node["radices"]))
            ]
            return make_space("radix", radices=radices)
        values = {key: integer_field(doc, (*path, key), params) for key in _SIZE_FIELDS[kind]}
        length = "n" if kind == "permutation" else "k"
        _check_length(doc, (*path, length), values[length])
        if kind == "power":
            if values["base"] < 1:  # located here: the space's own check names it p
                raise SpecError(
                    doc.diag(
                        (*path, "base"),
                        f"a power space needs base >= 1, got {values['base']}",
                        "the values are 0..base-1",
                    )
                )
            values = {"p": values["base"], "k": values["k"]}
        if kind == "permutation":
            values["order"] = node.get("order", "lex")
        return make_space(kind, **values)
    except ValueError as exc:
        raise SpecError(doc.diag(path, f"invalid {kind} space: {exc}")) from None


def _check_length(doc: Document, path: DocPath, length: int) -> None:
    if length > MAX_LENGTH:
        raise SpecError(
            doc.diag(
                path,
                f"a state of {length:,} positions; at most {MAX_LENGTH:,} are supported "
                "(a space this long could never be enumerated)",
            )
        )


def _allowed_keys(kind: str) -> tuple[str, ...]:
    extra = {"permutation": ("order",), "radix": ("radices",)}.get(kind, ())
    return (*_SIZE_FIELDS.get(kind, ()), *extra)


def _array(doc, path, params, name, space: RankedSpace, offset: int) -> ArraySymbol:
    start = integer_field(doc, (*path, "start"), params) if "start" in doc.get(path) else 0
    bounds = [space.value_range(p) for p in range(space.length)]
    lo = min((b[0] for b in bounds), default=0) + start
    hi = max((b[1] for b in bounds), default=0) + start
    if name in params:
        raise SpecError(
            doc.diag(
                (*path, "name"), f"'{name}' is both a param and a state array", "rename one of them"
            )
        )
    return ArraySymbol(name, offset, space.length, lo, hi, start)


def _condition(doc, path, item, default_name, symbols, analyzer, want, problems):
    if isinstance(item, str):
        item, text_path = {"expr": item}, path
    else:
        text_path = (*path, "expr")
    name = item.get("name", default_name)
    if "python" in item:
        try:
            return Condition(
                name, path, user=_user_function(doc, (*path, "python"), item["python"])
            )
        except EpcgError as exc:
            problems.extend(getattr(exc, "diagnostics", []))
            return None
    text = item["expr"]
    try:
        expr = parse_expression(text)
        found = check(expr, symbols, want)
        if found:
            problems.extend(expression_problem(doc, text_path, p) for p in found)
            return None
        analyzer.fresh().value(expr, {}, Reads())
    except (SyntaxProblem, ExprProblem) as problem:
        problems.append(expression_problem(doc, text_path, problem))
        return None
    return Condition(name, text_path, text=text, expr=expr)


def _objective(doc, symbols, analyzer, problems) -> tuple[Condition | None, str]:
    node = doc.data.get("objective")
    if not node:
        return None, "maximize"
    senses = [key for key in ("maximize", "minimize") if key in node]
    if len(senses) > 1 or (senses and "python" in node) or ("python" in node) != ("sense" in node):
        problems.append(
            doc.diag(
                ("objective",),
                "an objective is either 'maximize: EXPR', 'minimize: EXPR', "
                "or 'python: module:function' with 'sense'",
            )
        )
        return None, "maximize"
    if "python" in node:
        item = {"python": node["python"], "name": "objective"}
        return _condition(
            doc, ("objective",), item, "objective", symbols, analyzer, FLOAT, problems
        ), node["sense"]
    sense = senses[0]
    condition = _condition(
        doc, ("objective", sense), node[sense], "objective", symbols, analyzer, FLOAT, problems
    )
    return condition, sense


def _user_function(doc: Document, path: DocPath, target: str) -> UserFunction:
    """The reference `module:function`, checked for syntax only: nothing is imported here
    (see import_user_functions, which `build --allow-python` calls)."""
    module_name, _, function = target.partition(":")
    names = [*module_name.split("."), function]
    if not all(n.isidentifier() and not keyword.iskeyword(n) for n in names):
        raise SpecError(
            doc.diag(
                path,
                f"{target!r} is not a Python function reference",
                "write module:function, e.g. my_rules:check (my_rules.py beside the spec)",
            )
        )
    folder = Path(doc.source).resolve().parent
    module_file = _module_file(folder, module_name)
    if module_file is None:
        inputs.note(folder.joinpath(*module_name.split(".")).with_suffix(".py"), None)
    else:
        try:
            read_bounded(module_file)  # read, not run: its digest joins the spec's inputs
        except (OSError, NotReadable) as exc:
            raise SpecError(doc.diag(path, f"cannot read {module_file.name}: {exc}")) from None
    return UserFunction(module_name, function, folder)


def _module_file(folder: Path, module: str) -> Path | None:
    """The file beside the spec that importing `module` runs (a module's, else a package's
    __init__.py), or None where it is not beside the spec: the build imports it from there
    (the spec's folder comes first on the path), so a checkpoint or a shard made with another
    version of it is refused, as for any file a spec names."""
    base = folder.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def user_functions(spec: SpaceSpec) -> list[tuple[Condition, UserFunction]]:
    """The constraints and objective of `spec` written as Python functions."""
    conditions = [*spec.constraints, spec.objective]
    return [(c, c.user) for c in conditions if c is not None and c.user is not None]


def import_user_functions(spec: SpaceSpec) -> None:
    """Import the Python functions `spec` names (user code runs here: only with the user's
    consent, --allow-python); a module from the spec's folder replaces one of the same name
    that an earlier spec brought in."""
    for condition, user in user_functions(spec):
        path = (*condition.path, "python")
        if user.module in _USER_MODULES:
            sys.modules.pop(user.module, None)
        sys.path.insert(0, str(user.folder))
        try:
            module = importlib.import_module(user.module)
        except Exception as exc:
            raise SpecError(
                spec.document.diag(
                    path,
                    f"cannot import {user.module!r}: {exc}",
                    f"put {user.module}.py beside the spec",
                )
            ) from None
        finally:
            sys.path.remove(str(user.folder))
        _USER_MODULES.add(user.module)
        if not callable(getattr(module, user.function, None)):
            raise SpecError(
                spec.document.diag(path, f"{user.module} has no function {user.function!r}")
            )


def _split_for_pruning(spec: SpaceSpec) -> None:
    """Split each expression constraint into terms checked as soon as their depth is set."""
    terms, distincts = {}, {}
    length = spec.space.length
    for condition in spec.constraints:
        if condition.expr is None:
            spec.pruning.usable.append(f"no: a Python function, checked at depth {length}")
            continue
        analyzer = spec.analyzer.fresh()
        known = set(terms)
        try:
            analyzer.decompose(condition.expr, {}, (), terms, distincts)
        except ExprProblem as problem:  # the analysis budget, spent on a huge expansion
            raise SpecError(expression_problem(spec.document, condition.path, problem)) from None
        usable = sorted(d for d in analyzer.depths if d < length)
        bounds = [row[0] for key, f in terms.items() if key not in known for row in f.bounds]
        spec.pruning.usable.append(_usable(usable, bounds, length))
    spec.pruning.terms = list(terms.values())
    spec.pruning.distincts = list(distincts.values())


def _usable(depths: list[int], bounds: list[int], length: int) -> str:
    """How a constraint prunes: from which depth its terms are checked whole, and from
    which its terms' bounds (sums, counts, arithmetic) are tested, if they are."""
    if not depths and not bounds:
        return f"no: it reads the whole state (checked at depth {length})"
    whole = (
        f"terms checked from depth {depths[0]} of {length}"
        if depths
        else f"checked whole at depth {length}"
    )
    if not bounds:
        return f"yes: {whole}"
    return f"yes: bounds on its sums and counts from depth {min(bounds)}, {whole}"
