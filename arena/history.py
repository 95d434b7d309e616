"""Each bot's conservative rating (mu - 3*sigma) over a run's matches: a chart for the
terminal and a picture file, to see whether the ratings have settled.

The series is rated exactly as the final table is (canonical match order, void matches
counted but not rated), so its last point is the table's ``conservative`` column. Point 0
is before the first match: every bot starts at 0.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.ratings import Ratings, canonical_order
from arena.records import MatchResult, plain

PLOT_SUFFIXES = (".png", ".svg")
"""The picture formats ``--plot`` writes."""

MARKERS = "123456789abcdefghijklmnopqrstuvwxyz"
"""The marks of the terminal chart, by final place: place 1 is ``1``, place 10 is ``a``."""


POINTS = 1000
"""At most this many points after the start: a run of more matches is sampled evenly (every
match is still rated), so a million-match run charts as fast as its table is rated."""


@dataclass(frozen=True, slots=True)
class History:
    """The conservative rating of every bot at evenly spaced points of a run, bots best
    first. Point 0 is before the first match; the last point is after the last match."""

    bots: tuple[str, ...]
    """Labels in the final table's order."""
    after: tuple[int, ...]
    """Per point, how many matches had been rated: ``0, ..., total``."""
    matches: tuple[str, ...]
    """Per point after the first, the id of the last match rated (rating order)."""
    series: dict[str, list[float]]
    """Per bot, one value per point."""

    @property
    def total(self) -> int:
        """The matches rated."""
        return self.after[-1]

    def last_quarter_change(self, bot: str) -> float:
        """How far ``bot``'s rating moved over the last quarter of the matches."""
        start = bisect.bisect_right(self.after, (3 * self.total) // 4) - 1
        return self.series[bot][-1] - self.series[bot][start]

    def value_near(self, bot: str, matches: float) -> float:
        """``bot``'s rating at the last point at or before ``matches`` matches."""
        return self.series[bot][max(0, bisect.bisect_right(self.after, matches) - 1)]

    def to_json(self) -> dict[str, object]:
        return {"after": list(self.after), "matches": list(self.matches),
                "bots": {bot: self.series[bot] for bot in self.bots}}


def rating_history(
    results: Iterable[MatchResult], draw_probability: float, labels: Iterable[str] = (),
    points: int = POINTS,
) -> History:
    """The conservative ratings as :func:`arena.ratings.rate` computes them, after every
    match of a run of up to ``points`` matches, else at ``points`` evenly spaced matches."""
    ordered = canonical_order(results)
    names = list(dict.fromkeys([*labels, *(label for r in ordered for label in r.seats)]))
    ratings = Ratings(draw_probability, names)
    series: dict[str, list[float]] = {name: [0.0] for name in names}
    total = len(ordered)
    marks = {math.ceil(k * total / points) for k in range(1, points + 1)} if total > points \
        else set(range(1, total + 1))
    after, ids = [0], []
    for count, result in enumerate(ordered, start=1):
        ratings.add(result)
        if count in marks:
            after.append(count)
            ids.append(result.id)
            for row in ratings.standings():
                series[row.bot].append(row.conservative)
    final = [row.bot for row in ratings.standings()]
    return History(tuple(final), tuple(after), tuple(ids), series)


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
    values = [v for bot in history.bots for v in history.series[bot]]
    if not values:
        return ["no bots and no matches: nothing to chart"]
    low, high = _scale(min(values), max(values))
    axis = max(len(f"{low:.1f}"), len(f"{high:.1f}"))
    columns = max(10, min(len(history.after), width - axis - 2))
    grid = [[" "] * columns for _ in range(height)]
    for place in reversed(range(len(history.bots))):
        bot = history.bots[place]
        for column in range(columns):
            value = history.value_near(bot, column * history.total / max(1, columns - 1))
            row = round((high - value) / (high - low) * (height - 1))
            grid[row][column] = MARKERS[place] if place < len(MARKERS) else "*"
    lines = []
    for row, cells in enumerate(grid):
        label = f"{high - row * (high - low) / (height - 1):.1f}" if row % 3 == 0 else ""
        tick = _TICK if label else _AXIS
        lines.append(f"{label:>{axis}} {tick}{''.join(cells)}")
    lines.append(" " * axis + " " + _CORNER + _RULE * columns)
    end = f"{history.total} matches"
    lines.append(" " * (axis + 2) + "0" + end.rjust(columns - 1))
    lines.append("")
    lines += [
        f"{MARKERS[place] if place < len(MARKERS) else '*'}  {plain(bot)}: "
        f"{history.series[bot][-1]:.2f}, moved {history.last_quarter_change(bot):+.2f} "
        f"over the last quarter of the matches"
        for place, bot in enumerate(history.bots)
    ]
    return lines


def require_pyplot() -> Any:
    """matplotlib's ``pyplot`` drawing off screen, or the one line saying how to install it
    (``arena leaderboard`` asks before it shows anything, so that a missing matplotlib is
    not said under a table, as an error after the output)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed, whatever the environment says
        from matplotlib import pyplot
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib: pip install 'lostvalley-arena[plot]'"
        ) from None
    return pyplot


def _literal(text: str) -> str:
    """``text`` as matplotlib shows it as it is: plain, and each ``$`` escaped (between two
    of them, matplotlib reads its math markup: a run's name from a results folder edited by
    hand, ``x$\\frac{$``, ended ``--plot`` in a traceback; a label could do the same)."""
    return plain(text).replace("$", r"\$")


def plot(history: History, path: Path, title: str) -> None:
    """Write the series as a line chart to ``path`` (``.png`` or ``.svg``) with matplotlib."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise ArenaError(f"--plot {path}: write a .png or an .svg file")
    pyplot = require_pyplot()
    figure, axes = pyplot.subplots(figsize=(9, 5), layout="constrained")
    for bot in history.bots:
        axes.plot(history.after, history.series[bot], label=_literal(bot), linewidth=1.5)
    axes.set_xlabel("matches rated (in match-id order)")
    axes.set_ylabel(f"conservative rating {_MU_3_SIGMA}")
    axes.set_title(_literal(title))
    axes.grid(alpha=0.3)
    if history.bots:
        axes.legend(loc="best", fontsize="small")
    try:
        figure.savefig(path)
    except OSError as exc:
        raise ArenaError(f"--plot {path}: cannot write it: {exc.strerror or exc}") from None
    finally:
        pyplot.close(figure)

