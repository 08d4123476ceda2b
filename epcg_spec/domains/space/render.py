"""A state as an SVG picture: each array as a board of dots (index across, value down), or,
where order does not matter (a sorted array: marks, a multiset) or the values spread wide,
as a ruler."""

from __future__ import annotations

from xml.sax.saxutils import escape

CELL = 28  # pixels per index (and per value, in a dot chart)
MARGIN = 14
TITLE = 22  # the array's name above its chart
DOT_ROWS = 12  # up to this many values (or as many as the array's length), dots; else a ruler
RULER = 44  # height of a ruler
RULER_WIDTH = 600  # a ruler's length in pixels, unless its values are too few to fill it
TICK_GAP = 6  # the fewest pixels between two values a unit apart on a ruler that fits
INK, GRID, DOT, LIGHT = "#1d2733", "#d4d8de", "#2f6fde", "#f4f6f9"


def state_svg(state: dict[str, list[int]], title: str = "") -> str:
    """The arrays of a state, one chart each, stacked; `title` as the picture's <title>."""
    charts, width, height = [], 0, MARGIN
    for name, values in state.items():
        parts, w, h = _chart(values)
        charts.append(
            f'<text x="{MARGIN}" y="{height + 15}" font-size="14" fill="{INK}">'
            f"{escape(name)}</text>"
            f'<g transform="translate({MARGIN},{height + TITLE})">{"".join(parts)}</g>'
        )
        width, height = max(width, w + 2 * MARGIN), height + TITLE + h + MARGIN
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
    )
    label = f"<title>{escape(title)}</title>" if title else ""
    back = f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
    return "\n".join([head + label, back, *charts, "</svg>"]) + "\n"


def _chart(values: list[int]) -> tuple[list[str], int, int]:
    if not values:
        return [], 0, 0
    lo, hi = min(values), max(values)
    rows = hi - lo + 1
    if values != sorted(values) and rows <= max(DOT_ROWS, len(values)):
        return _dots(values, lo, rows)
    return _ruler(values, lo, hi)


def _dots(values: list[int], lo: int, rows: int) -> tuple[list[str], int, int]:
    """A board: column i holds a dot at row (value - lo), counted from the top."""
    w, h = len(values) * CELL, rows * CELL
    parts = [f'<rect width="{w}" height="{h}" fill="{LIGHT}" stroke="{GRID}"/>']
    parts += [
        f'<line x1="{x * CELL}" y1="0" x2="{x * CELL}" y2="{h}" stroke="{GRID}"/>'
        for x in range(1, len(values))
    ]
    parts += [
        f'<line x1="0" y1="{y * CELL}" x2="{w}" y2="{y * CELL}" stroke="{GRID}"/>'
        for y in range(1, rows)
    ]
    for i, v in enumerate(values):
        cx, cy = (i + 0.5) * CELL, (v - lo + 0.5) * CELL
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.4:g}" fill="{DOT}"/>'
            f'<text x="{cx:g}" y="{cy:g}" fill="#ffffff" font-size="{CELL * 0.45:g}" '
            f'text-anchor="middle" dominant-baseline="central">{v}</text>'
        )
    return parts, w, h


def _ruler(values: list[int], lo: int, hi: int) -> tuple[list[str], int, int]:
    """A line from the smallest value to the largest, a labelled tick at each value: at
    least TICK_GAP pixels a unit, unless the values spread over more than RULER_WIDTH of
    those (then the line is RULER_WIDTH long)."""
    span = hi - lo
    if span * TICK_GAP > RULER_WIDTH:  # x by integers: a span of 10^400 is no float
        w, at = RULER_WIDTH, lambda v: (v - lo) * RULER_WIDTH / span
    else:
        scale = min(CELL, RULER_WIDTH / max(span, 1))
        w, at = round(span * scale), lambda v: (v - lo) * scale
    parts = [f'<line x1="0" y1="12" x2="{w}" y2="12" stroke="{INK}" stroke-width="2"/>']
    for v in dict.fromkeys(values):
        x = at(v)
        times = values.count(v)
        label = f"{v}×{times}" if times > 1 else str(v)
        parts.append(
            f'<line x1="{x:g}" y1="2" x2="{x:g}" y2="22" stroke="{DOT}" stroke-width="3"/>'
            f'<text x="{x:g}" y="36" font-size="12" text-anchor="middle" fill="{INK}">'
            f"{label}</text>"
        )
    return parts, w, RULER


def best_pictures(best: list[dict]) -> dict[str, str]:
    """best-k.svg for each entry of a result's best list (k from 0): a run's and a merge's."""
    return {f"best-{k}.svg": state_svg(b["state"], f"rank {b['rank']}") for k, b in enumerate(best)}
