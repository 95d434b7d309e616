"""Each bot's conservative rating (mu - 3*sigma) over a run's matches: a chart for the
terminal and a picture file, to see whether the ratings have settled.

The series is rated exactly as the final table is (canonical match order, void matches
counted but not rated), so its last point is the table's ``conservative`` column. Point 0
is before the first match: every bot starts at 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.ratings import Ratings, canonical_order
from arena.records import MatchResult, plain

PLOT_SUFFIXES = (".png", ".svg")
"""The picture formats ``--plot`` writes."""

MARKERS = "123456789abcdefghijklmnopqrstuvwxyz"
"""The marks of the terminal chart, by final place: place 1 is ``1``, place 10 is ``a``."""


@dataclass(frozen=True, slots=True)
class History:
    """The conservative rating of every bot after each match, bots best first."""

    bots: tuple[str, ...]
    """Labels in the final table's order."""
    matches: tuple[str, ...]
    """Match ids in rating order; point ``i + 1`` of a series is after ``matches[i]``."""
    series: dict[str, list[float]]
    """Per bot, ``len(matches) + 1`` values."""

    def last_quarter_change(self, bot: str) -> float:
        """How far ``bot``'s rating moved over the last quarter of the matches."""
        values = self.series[bot]
        return values[-1] - values[(3 * (len(values) - 1)) // 4]

    def to_json(self) -> dict[str, object]:
        return {"matches": list(self.matches), "bots": {bot: self.series[bot] for bot in self.bots}}


def rating_history(
    results: Iterable[MatchResult], draw_probability: float, labels: Iterable[str] = ()
) -> History:
    """The conservative ratings after each match, as :func:`arena.ratings.rate` computes them."""
    ordered = canonical_order(results)
    names = list(dict.fromkeys([*labels, *(label for r in ordered for label in r.seats)]))
    ratings = Ratings(draw_probability, names)
    series: dict[str, list[float]] = {name: [0.0] for name in names}
    for result in ordered:
        ratings.add(result)
        for row in ratings.standings():
            series[row.bot].append(row.conservative)
    final = [row.bot for row in ratings.standings()]
    return History(tuple(final), tuple(r.id for r in ordered), series)


_TICK, _AXIS = "\N{BOX DRAWINGS LIGHT VERTICAL AND LEFT}", "\N{BOX DRAWINGS LIGHT VERTICAL}"
_CORNER, _RULE = "\N{BOX DRAWINGS LIGHT UP AND RIGHT}", "\N{BOX DRAWINGS LIGHT HORIZONTAL}"
_MU_3_SIGMA = "\N{GREEK SMALL LETTER MU}\N{MINUS SIGN}3\N{GREEK SMALL LETTER SIGMA}"


def _scale(low: float, high: float) -> tuple[float, float]:
    if math.isclose(low, high):
        return low - 1.0, high + 1.0
    return low, high


def chart(history: History, width: int = 80, height: int = 13) -> list[str]:
    """The series as lines of text at most ``width`` cells wide: a y axis of ratings, an x
    axis of matches, each bot drawn with its mark from :data:`MARKERS` (the best on top),
    then a legend of marks and of how far each rating moved over the last quarter."""
    points = len(history.matches) + 1
    values = [v for bot in history.bots for v in history.series[bot]]
    if not values:
        return ["no bots and no matches: nothing to chart"]
    low, high = _scale(min(values), max(values))
    axis = max(len(f"{low:.1f}"), len(f"{high:.1f}"))
    columns = max(10, min(points, width - axis - 2))
    grid = [[" "] * columns for _ in range(height)]
    for place in reversed(range(len(history.bots))):
        series = history.series[history.bots[place]]
        for column in range(columns):
            value = series[round(column * (points - 1) / max(1, columns - 1))]
            row = round((high - value) / (high - low) * (height - 1))
            grid[row][column] = MARKERS[place] if place < len(MARKERS) else "*"
    lines = []
    for row, cells in enumerate(grid):
        label = f"{high - row * (high - low) / (height - 1):.1f}" if row % 3 == 0 else ""
        tick = _TICK if label else _AXIS
        lines.append(f"{label:>{axis}} {tick}{''.join(cells)}")
    lines.append(" " * axis + " " + _CORNER + _RULE * columns)
    end = f"{points - 1} matches"
    lines.append(" " * (axis + 2) + "0" + end.rjust(columns - 1))
    lines.append("")
    lines += [
        f"{MARKERS[place] if place < len(MARKERS) else '*'}  {plain(bot)}: "
        f"{history.series[bot][-1]:.2f}, moved {history.last_quarter_change(bot):+.2f} "
        f"over the last quarter of the matches"
        for place, bot in enumerate(history.bots)
    ]
    return lines


def plot(history: History, path: Path, title: str) -> None:
    """Write the series as a line chart to ``path`` (``.png`` or ``.svg``) with matplotlib."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise ArenaError(f"--plot {path}: write a .png or an .svg file")
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed, whatever the environment says
        from matplotlib import pyplot
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib: pip install 'lostvalley-arena[plot]'"
        ) from None
    figure, axes = pyplot.subplots(figsize=(9, 5), layout="constrained")
    steps = range(len(history.matches) + 1)
    for bot in history.bots:
        axes.plot(steps, history.series[bot], label=plain(bot), linewidth=1.5)
    axes.set_xlabel("matches rated (in match-id order)")
    axes.set_ylabel(f"conservative rating {_MU_3_SIGMA}")
    axes.set_title(plain(title))
    axes.grid(alpha=0.3)
    if history.bots:
        axes.legend(loc="best", fontsize="small")
    try:
        figure.savefig(path)
    except OSError as exc:
        raise ArenaError(f"--plot {path}: cannot write it: {exc.strerror or exc}") from None
    finally:
        pyplot.close(figure)

