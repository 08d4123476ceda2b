"""Checkpoints: the state of an interrupted run, saved atomically, keyed to its inputs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..output.files import atomic_write


@dataclass
class Checkpoint:
    """A checkpoint file that only a run with the same `key` may resume from."""

    path: Path
    key: str

    def load(self) -> dict[str, Any] | None:
        """The saved state, or None if there is none; a foreign checkpoint is an error."""
        if not self.path.exists():
            return None
        saved = json.loads(self.path.read_text("utf-8"))
        if saved.get("key") != self.key:
            raise UsageError(
                f"{self.path} belongs to another spec, seed or shard; delete it or run "
                f"without --resume"
            )
        return saved["state"]

    def save(self, state: dict[str, Any]) -> None:
        atomic_write(self.path, json.dumps({"key": self.key, "state": state}))

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
