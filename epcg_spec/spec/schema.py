"""JSON Schema validation (draft 2020-12) with every error located in the source."""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

import jsonschema_rs
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from ..core.errors import Diagnostic, closest, did_you_mean
from .document import Document, describe_path

_SCHEMA_PACKAGE = "epcg_spec.schemas"
_SCALARS = frozenset((str, int, bool, type(None)))
_JSON_TYPES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


@cache
def _schemas() -> dict[str, dict]:
    """Every schema file of the package, by file name."""
    return {
        entry.name: json.loads(entry.read_text(encoding="utf-8"))
        for entry in resources.files(_SCHEMA_PACKAGE).iterdir()
        if entry.name.endswith(".json")
    }


@cache
def _registry() -> Registry:
    return Registry().with_resources(
        (name, Resource.from_contents(schema)) for name, schema in _schemas().items()
    )


def load_schema(name: str) -> dict:
    """The schema file `name` (e.g. 'space.schema.json') from the package."""
    return _schemas()[name]


def _is_integer(checker, value) -> bool:
    """Only a Python int is an integer: 2.0 in an integer field is reported, not truncated."""
    return isinstance(value, int) and not isinstance(value, bool)


_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


@cache
def _checked_schema(name: str) -> dict:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return schema


@cache
def _validator(name: str) -> Draft202012Validator:
    """jsonschema's validator: the reference, whose errors the diagnostics are made of."""
    return _Validator(_checked_schema(name), registry=_registry())


@cache
def _compiled(name: str) -> jsonschema_rs.Validator:
    """jsonschema-rs's validator (compiled in Rust): a fast yes for a valid document."""
    registry = jsonschema_rs.Registry(list(_schemas().items()))
    return jsonschema_rs.validator_for(_checked_schema(name), registry=registry)


def _plain(data) -> bool:
    """Whether `data` is JSON that both validators see alike: str keys, lists, no float
    with an integer value (jsonschema-rs takes 2.0 for an integer, our checker does not)."""
    stack = [data]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            if not {str}.issuperset(map(type, value)):
                return False
            children = value.values()
        elif kind is list:
            children = value
        elif kind is float:
            if value.is_integer() or not math.isfinite(value):
                return False
            continue
        elif kind in _SCALARS:
            continue
        else:
            return False
        if not _SCALARS.issuperset(map(type, children)):  # one C pass over the leaves
            stack.extend(children)
    return True


def fast_accepts(data, schema_name: str) -> bool:
    """True when the compiled validator finds `data` valid, which jsonschema then would too;
    False when it refuses it or cannot say (jsonschema then finds the errors, if any)."""
    if not _plain(data):
        return False
    try:
        return _compiled(schema_name).is_valid(data)
    except ValueError:  # a value it cannot convert (older releases: an int over 64 bits)
        return False


def schema_errors(data, schema_name: str) -> list[ValidationError]:
    """jsonschema's errors for `data`; none, without asking it, if the fast check passes."""
    if fast_accepts(data, schema_name):
        return []
    return list(_validator(schema_name).iter_errors(data))


def validate(doc: Document, schema_name: str) -> list[Diagnostic]:
    """Every schema violation of `doc`, one located diagnostic each, in source order."""
    problems = {}
    errors = schema_errors(doc.data, schema_name)
    misspelt = _misspelt_keys(errors)
    for error in errors:
        relevant = _most_relevant(error)
        if relevant.validator == "required" and (
            (tuple(relevant.absolute_path), _missing_key(relevant)) in misspelt
        ):
            continue  # the unknown key beside it, "did you mean '...'?", says it all
        for diag in _diagnostics(doc, error):
            problems.setdefault((diag.pos, diag.message), diag)
    return sorted(problems.values(), key=lambda d: (d.pos.line, d.pos.col, d.message))


def broken_paths(data, schema_name: str) -> set[tuple]:
    """The document paths of `data`'s schema violations: an unknown key's own path, else
    the value (or the object missing a key) that breaks the schema."""
    paths = set()
    for error in map(_most_relevant, schema_errors(data, schema_name)):
        path = tuple(error.absolute_path)
        extras = error.instance if error.validator == "additionalProperties" else None
        if isinstance(extras, dict):
            allowed = error.schema.get("properties", {})
            paths.update((*path, key) for key in extras if key not in allowed)
        else:
            paths.add(path)
    return paths


def validate_data(data, schema_name: str) -> list[str]:
    """Schema violations of plain data (e.g. a result.json), as `path: message` lines."""
    return [
        f"{describe_path(tuple(e.absolute_path)) if e.absolute_path else 'the top level'}: "
        f"{e.message}"
        for e in schema_errors(data, schema_name)
    ]


def _misspelt_keys(errors: list[ValidationError]) -> set[tuple[tuple, str]]:
    """(path, key) for every valid key that an unknown key at that path is a near miss of."""
    found = set()
    for error in map(_most_relevant, errors):
        if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
            continue
        allowed = list(error.schema.get("properties", {}))
        for key in error.instance:
            if key not in allowed:
                close = closest(key, allowed)
                if close is not None:
                    found.add((tuple(error.absolute_path), close))
    return found


def _missing_key(error: ValidationError) -> str:
    """The key a `required` error names."""
    return error.message.split("'")[1] if "'" in error.message else error.message


def _types_wanted(error: ValidationError) -> str:
    """For a oneOf/anyOf that every branch refuses for its type: "an integer or a list"."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return ""
    refused = {e.schema_path[0]: e for e in error.context if e.validator == "type" and not e.path}
    if len(refused) < len(error.validator_value):
        return ""
    names = []
    for branch in refused.values():
        expected = branch.validator_value
        names += [expected] if isinstance(expected, str) else list(expected)
    return " or ".join(dict.fromkeys(_JSON_TYPES.get(n, n) for n in names))


def _most_relevant(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf, the branch error that went deepest (the user's likely intent); at
    equal depth, a branch whose type the value has rather than one refusing its type."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        error = max(
            error.context,
            key=lambda e: (len(e.absolute_path), e.validator != "type", -len(e.schema_path)),
        )
    return error


def _diagnostics(doc: Document, error: ValidationError) -> list[Diagnostic]:
    wanted = _types_wanted(error)
    if wanted:  # no branch of a oneOf/anyOf takes a value of this type: name them all
        path = tuple(error.absolute_path)
        said = error.schema.get("description", "") if isinstance(error.schema, dict) else ""
        hint = _boolean_hint(doc, error.instance, wanted) or said[:1].lower() + said[1:].rstrip(".")
        return [
            doc.diag(
                path, f"{describe_path(path)} must be {wanted}, not {_show(error.instance)}", hint
            )
        ]
    error = _most_relevant(error)
    path = tuple(error.absolute_path)
    where = describe_path(path)
    value = error.instance
    kind = error.validator
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extras = [k for k in value if k not in allowed] if isinstance(value, dict) else []
        return [
            doc.diag(
                (*path, key),
                f"unknown key '{key}' in {where}",
                did_you_mean(key, allowed, "valid keys"),
                key=True,
            )
            for key in extras
        ]
    if kind == "required":
        return [doc.diag(path, f"{where} is missing the required key '{_missing_key(error)}'")]
    if kind == "type":
        expected = error.validator_value
        names = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_JSON_TYPES.get(n, n) for n in names)
        numeric = {"integer", "number"} & set(names) and _number_in_quotes(value) is not None
        hint = f"write {value.strip()} without quotes" if numeric else _schema_hint(error)
        hint = _boolean_hint(doc, value, wanted) or hint
        if "array" in names and doc.format == "dsl" and str(value).startswith("- "):
            hint = "a list in the DSL is [a, b, ...]; '- item' lines are YAML's"
        return [doc.diag(path, f"{where} must be {wanted}, not {_show(value)}", hint)]
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        shown = ", ".join(json.dumps(o) for o in options)
        if isinstance(value, str):
            hint = did_you_mean(value, [str(o) for o in options], "one of")
        else:
            hint = f"one of {shown}"
        return [doc.diag(path, f"{where} is {_show(value)}, which is not allowed", hint)]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {
            "minimum": ">=",
            "maximum": "<=",
            "exclusiveMinimum": ">",
            "exclusiveMaximum": "<",
        }[kind]
        return [
            doc.diag(
                path,
                f"{where} is {_show(value)}, out of range: it must be {bound} "
                f"{error.validator_value}",
            )
        ]
    if kind in ("minItems", "maxItems", "minLength", "maxLength", "minProperties"):
        return [doc.diag(path, f"{where} {_size_problem(kind, value, error.validator_value)}")]
    if kind == "pattern":
        hint = _schema_hint(error)
        return [
            doc.diag(
                path, f"{where} is {_show(value)}, which does not match the expected form", hint
            )
        ]
    if kind == "propertyNames":
        return [doc.diag(path, f"{where}: a key {error.message}")]
    return [doc.diag(path, f"{where}: {_schema_hint(error) or error.message}")]


def _size_problem(kind: str, value, bound: int) -> str:
    """What is wrong with the size of `value`, not quoting it (a list of thousands)."""
    unit = "characters" if "Length" in kind else "keys" if "Properties" in kind else "items"
    if kind.startswith("max"):
        return f"is too long: {len(value):,} {unit}, at most {bound:,}"
    if not value:
        return f"is empty; give at least {bound:,} {unit[:-1] if bound == 1 else unit}"
    return f"is too short: {len(value):,} {unit}, at least {bound:,}"


def _boolean_hint(doc: Document, value, wanted: str) -> str:
    """Where text was wanted and YAML read an unquoted on, off, yes or no as a boolean,
    how to keep the text; else ""."""
    if doc.format != "yaml" or not isinstance(value, bool) or "a string" not in wanted:
        return ""
    words, word = ("on, yes or true", "on") if value else ("off, no or false", "off")
    return f'YAML reads an unquoted {words} as {_show(value)}: write it in quotes ("{word}")'


def _schema_hint(error: ValidationError) -> str:
    """The schema's own words on what a node should be (its `errorMessage`), if any."""
    return (error.schema.get("errorMessage") if isinstance(error.schema, dict) else None) or ""


def _number_in_quotes(value) -> int | float | None:
    """The number a string such as "3" spells (a number quoted in YAML), else None."""
    if not isinstance(value, str):
        return None
    try:
        number = json.loads(value)
    except ValueError:
        return None
    return number if isinstance(number, int | float) and not isinstance(number, bool) else None


def _show(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return json.dumps(value, ensure_ascii=False)
