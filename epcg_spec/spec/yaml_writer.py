"""Writing a document model back as YAML (for `epcg-spec fmt --to yaml`)."""

from __future__ import annotations

import os
from pathlib import Path

import yaml


class _Dumper(yaml.SafeDumper):
    """Block style, multi-line strings as literal blocks, keys in document order."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and value == value.strip(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def schema_reference(kind: object, folder: Path) -> str | None:
    """The nearest `schemas/KIND.schema.json` at or above `folder`, relative to it (what
    an editor's YAML language server reads), or None where there is none."""
    if not isinstance(kind, str) or not kind.isidentifier():
        return None
    folder = folder.resolve()
    for above in (folder, *folder.parents):
        schema = above / "schemas" / f"{kind}.schema.json"
        if schema.is_file():
            return Path(os.path.relpath(schema, folder)).as_posix()
    return None


def dump_yaml(data: dict, schema: str | None = None) -> str:
    """YAML text of a document, headed by the schema comment editors use for completion
    when `schema` (a path from the file's folder, see `schema_reference`) is given."""
    header = f"# yaml-language-server: $schema={schema}\n" if schema else ""
    body = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )
    return header + body
