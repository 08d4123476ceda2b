"""Writing a document model back as YAML (for `epcg-spec fmt --to yaml`)."""

from __future__ import annotations

import yaml


class _Dumper(yaml.SafeDumper):
    """Block style, multi-line strings as literal blocks, keys in document order."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and value == value.strip(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def dump_yaml(data: dict, schema_comment: bool = True) -> str:
    """YAML text of a document, with the schema comment editors use for completion (its
    path is right for a spec in a folder beside `schemas/`, as `specs/` is)."""
    header = ""
    if schema_comment and isinstance(data, dict) and isinstance(data.get("kind"), str):
        header = f"# yaml-language-server: $schema=../schemas/{data['kind']}.schema.json\n"
    body = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )
    return header + body
