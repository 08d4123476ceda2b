"""Where the CC0 fixtures are (copied from shared/wfc-fixtures), and what they draw."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
PIPES = DATA / "pipes.xml"
# pipe ends of each tile in its base orientation (right, up, left, down), as the fixtures drew them
PIPE_EXITS = {
    "empty": [],
    "line": ["right", "left"],
    "corner": ["right", "up"],
    "t": ["right", "left", "down"],
    "cross": ["right", "up", "left", "down"],
}
