"""How far a run's leaderboard can be trusted: the order of neighbours, head-to-head records
and the advantage of each seat position.

- :func:`above_next`: per row of the table, the probability that its bot's skill exceeds
  the next row's, from the TrueSkill posteriors. Each skill is read as an independent normal
  ``N(mu, sigma**2)``, so ``P(a > b) = Phi((mu_a - mu_b) / sqrt(sigma_a**2 + sigma_b**2))``
  (skill, not one match's performance: TrueSkill's ``beta`` plays no part). Places whose
  probability is below :data:`SEPARATED` are *not separated*.
- :func:`head_to_head`: for each pair of bots, how often one finished ahead of the other
  over the matches they shared, with a 95% Wilson interval.
- :func:`seat_wins`: per seat position, the share of matches won from it.

Matches are counted as the ratings count them: once per id, and a *void* match (no seat
ended ``ok``) says nothing and is left out. Places are the recorded ones, faulty seats last.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from arena.ratings import Standing, canonical_order
from arena.records import MatchResult, plain

SEPARATED = 0.95
"""The probability from which two neighbouring places count as separated."""

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def probability_above(first: Standing, second: Standing) -> float:
    """The probability that ``first``'s skill exceeds ``second``'s (normal approximation)."""
    spread = math.hypot(first.sigma, second.sigma)
    if spread == 0.0:
        return 0.5 if first.mu == second.mu else float(first.mu > second.mu)
    return 0.5 * math.erfc(-(first.mu - second.mu) / (spread * math.sqrt(2.0)))


def above_next(standings: Sequence[Standing]) -> list[float | None]:
    """Per row, the probability that its skill exceeds the next row's; None for the last."""
    found: list[float | None] = [
        probability_above(row, after) for row, after in itertools.pairwise(standings)
    ]
    return [*found, None] if standings else found


def separated(probability: float | None) -> bool | None:
    """True if a row is ahead of the next one with at least 95% confidence; None for the last."""
    return None if probability is None else probability >= SEPARATED


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share; ``(0, 1)`` when there are no trials.

    ``successes`` may be a half-integer (a tie counts half to each side)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    half /= 1 + z2 / trials
    # At a share of 0 or 1 the bound is exactly 0 or 1: computed, it came out 5.6e-17 for
    # none in 3, which the JSON export wrote as such.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True, slots=True)
class Pair:
    """Two bots over the matches they shared; ``first`` is the one placed higher."""

    first: str
    second: str
    matches: int
    first_ahead: int
    second_ahead: int
    ties: int

    @property
    def share(self) -> float | None:
        """How often ``first`` finished ahead, a tie counting half; None if they never met."""
        return (self.first_ahead + self.ties / 2) / self.matches if self.matches else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`share`."""
        return wilson(self.first_ahead + self.ties / 2, self.matches)


@dataclass(frozen=True, slots=True)
class SeatShare:
    """How the seat at one position (0: the first of a record's seats) did over the rated
    matches."""

    seat: int
    matches: int
    wins: int
    """Matches in which this seat finished first, shared first places included."""

    @property
    def share(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.matches)


def _rated(results: Iterable[MatchResult]) -> list[MatchResult]:
    """The matches that count, once per id, in match-id order."""
    return [result for result in canonical_order(results) if not all(result.faults)]


def head_to_head(results: Iterable[MatchResult], order: Sequence[str]) -> list[Pair]:
    """Every pair of the bots in ``order`` (the leaderboard's, best first) that met, higher
    placed first; bots found only in ``results`` follow ``order`` by name."""
    rated = _rated(results)
    seen = {label for result in rated for label in result.seats}
    labels = list(order) + sorted(seen - set(order))
    counts: dict[tuple[str, str], list[int]] = {}
    for result in rated:
        places = dict(zip(result.seats, result.ranking, strict=True))
        for first, second in itertools.combinations(result.seats, 2):
            if labels.index(first) > labels.index(second):
                first, second = second, first
            tally = counts.setdefault((first, second), [0, 0, 0])
            difference = places[first] - places[second]
            tally[0 if difference < 0 else 1 if difference > 0 else 2] += 1
    pairs = [
        Pair(first, second, sum(tally), tally[0], tally[1], tally[2])
        for (first, second), tally in counts.items()
    ]
    return sorted(pairs, key=lambda pair: (labels.index(pair.first), labels.index(pair.second)))


def seat_wins(results: Iterable[MatchResult]) -> list[SeatShare]:
    """Per seat position, the rated matches played from it and the wins."""
    matches: list[int] = []
    wins: list[int] = []
    for result in _rated(results):
        for seat, place in enumerate(result.ranking):
            if seat == len(matches):
                matches.append(0)
                wins.append(0)
            matches[seat] += 1
            wins[seat] += place == 0
    return [SeatShare(seat, matches[seat], wins[seat]) for seat in range(len(matches))]


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}"


def _kept(
    headers: Sequence[str], rows: Sequence[Sequence[str]], drops: Sequence[int],
    width: int | None,
) -> list[int]:
    """The columns that fit ``width`` cells, those of the least ``drops`` (from 1; 0 stays)
    left out first: at 40 columns the head-to-head table cut every header to an ellipsis
    and its bots' labels to nothing, numbers without their bots."""
    kept = list(range(len(headers)))
    if width is None:
        return kept
    widths = [max([cell_len(header)] + [cell_len(row[i]) for row in rows])
              for i, header in enumerate(headers)]
    while sum(widths[i] + 2 for i in kept) > width:
        droppable = [i for i in kept if drops[i]]
        if not droppable:
            break
        kept.remove(min(droppable, key=lambda i: drops[i]))
    return kept


def pairs_table(pairs: Sequence[Pair], title: str | None = None, width: int | None = None
                ) -> Table:
    """The head-to-head records as a rich table, one row per pair of bots that met; given
    the console's ``width``, the counts go (ties first) before a label is cut."""
    # Text: the title names the run from its config.json (rich would read "[/]" as markup).
    table = Table(title=None if title is None else Text(plain(title)), box=box.SIMPLE_HEAD,
                  collapse_padding=True, pad_edge=False,
                  caption="ahead %: matches the bot finished ahead of the other (a tie counts "
                          "half), with its 95% interval")
    headers = ("bot", "vs", "met", "ahead", "behind", "ties", "ahead %", "95% interval")
    rows = [(plain(pair.first), plain(pair.second), str(pair.matches), str(pair.first_ahead),
             str(pair.second_ahead), str(pair.ties), _percent(pair.share),
             _interval(*pair.interval)) for pair in pairs]
    kept = _kept(headers, rows, (0, 0, 4, 3, 2, 1, 0, 5), width)
    for i in kept:
        if i < 2:
            table.add_column(headers[i], overflow="fold")
        else:
            table.add_column(headers[i], justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*(Text(row[i]) for i in kept))
    return table


def seats_table(shares: Sequence[SeatShare], width: int | None = None) -> Table:
    """The share of wins per seat position as a rich table, to show a seat advantage; given
    the console's ``width``, the counts go before a header is cut."""
    caption = (f"seats in the records' order; with no seat advantage each wins about "
               f"{100 / len(shares):.1f}% (a shared first place counts for every seat in it)"
               if shares else "no match is rated yet")
    table = Table(title="Wins by seat position", box=box.SIMPLE_HEAD, collapse_padding=True,
                  pad_edge=False, caption=caption)
    headers = ("seat", "matches", "wins", "win %", "95% interval")
    rows = [(str(share.seat), str(share.matches), str(share.wins), _percent(share.share),
             _interval(*share.interval)) for share in shares]
    kept = _kept(headers, rows, (0, 2, 1, 0, 3), width)
    for i in kept:
        table.add_column(headers[i], justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*(row[i] for i in kept))
    return table


def pairs_json(pairs: Sequence[Pair], shares: Sequence[SeatShare]) -> str:
    """The head-to-head records and the seat shares as one JSON object."""
    return json.dumps({
        "pairs": [{"bot": pair.first, "vs": pair.second, "matches": pair.matches,
                   "ahead": pair.first_ahead, "behind": pair.second_ahead, "ties": pair.ties,
                   "share": pair.share, "low": pair.interval[0], "high": pair.interval[1]}
                  for pair in pairs],
        "seats": [{"seat": share.seat, "matches": share.matches, "wins": share.wins,
                   "share": share.share, "low": share.interval[0], "high": share.interval[1]}
                  for share in shares],
    }, indent=2, ensure_ascii=False)
