"""TrueSkill ratings of the bots of a run, computed in canonical match order.

TrueSkill is order-dependent: the same matches fed in another order give other
ratings. A run's results arrive in whatever order the cluster finishes them,
and a resumed run reads them back in yet another order, so :func:`rate` sorts
them by match id first. The final table is therefore a function of the set of
results alone.

Every match is one free-for-all over its full finishing order: each seat is a
team of one, ranked by :attr:`MatchResult.ranking` (ties are equal ranks, which
TrueSkill treats as draws). Faulty seats are already ranked last by the
referee, so a fault costs rating like a loss does.

Bookkeeping decisions:

- A *void* match, in which no seat ended ``ok`` (say every process crashed),
  says nothing about skill. It counts in ``matches`` and ``faults`` of its
  seats, but it updates no rating and adds no win, score or place.
- A faulty seat's points are not its bot's (random moves played on after the
  fault, ruling of the referee): ``mean_score`` is over the matches a bot
  finished ``ok``. Its place (last) counts, in ``mean_place`` and the rating.
- A match id is a match's identity: if one id appears twice (a result written
  twice around an interruption) it is rated once.
- ``mean_place`` is 1-based, so ``1.0`` means "always first".

The parameters are TrueSkill's customary ones (mu 25, sigma 25/3, beta
sigma/2, tau sigma/100), held in explicit environments: trueskill's global
environment is never read nor changed. A match is rated by
:mod:`arena.freeforall` (the ``trueskill`` package's float computation, bit for
bit, about ten times faster); the few lopsided matches whose float formulas
fail go to the package's mpmath backend.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import trueskill

from arena.freeforall import Rater
from arena.records import MatchResult

MU = 25.0
"""The mean of a new bot's rating."""
SIGMA = MU / 3
"""The uncertainty of a new bot's rating: mu - 3*sigma starts at 0."""
BETA = SIGMA / 2
"""The skill gap that gives the better bot about a 76% chance to win."""
TAU = SIGMA / 100
"""Uncertainty added before each match, so ratings can still move late in a run."""
DRAW_PROBABILITY = 0.10
"""TrueSkill's customary draw rate, for callers that know nothing better.

Pass the game's own rate of ties between neighbours in the finishing order
when it is known: games with tie-breaks rarely tie, games of points often do.
It must lie strictly between 0 and 1: at 0 a tie is impossible and TrueSkill
cannot rate one; very small values make the float backend inaccurate on ties.
"""


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot's line in the final table.

    ``win_rate`` is over all of the bot's matches, void ones included;
    ``mean_place`` is over the matches that were rated, ``mean_score`` over those the bot
    finished ``ok`` (a faulty seat's points were scored by its random stand-in).
    All three are None when there is nothing to average.
    """

    bot: str
    """The bot's label in the tournament config."""
    mu: float
    sigma: float
    conservative: float
    """mu - 3*sigma: the skill the bot has with about 99% confidence; the sort key."""
    matches: int
    wins: int
    """Matches finished in first place, shared first places included."""
    win_rate: float | None
    mean_score: float | None
    mean_place: float | None
    """1-based: 1.0 means always first."""
    faults: int
    """Matches in which this bot's seat did not end ``ok``."""


@dataclass(slots=True)
class _Tally:
    """What is known about one bot so far; mutable, private to :class:`Ratings`."""

    pi: float
    """The rating's precision (1 / sigma**2), as TrueSkill holds it."""
    tau: float
    """The rating's precision-adjusted mean (pi * mu)."""
    matches: int = 0
    rated: int = 0
    wins: int = 0
    faults: int = 0
    score_sum: float = 0.0
    place_sum: int = 0
    scored: int = 0
    """Rated matches finished ``ok``: the ones ``score_sum`` is over."""

    def standing(self, bot: str) -> Standing:
        """This tally as a finished line of the table."""
        # As trueskill.Rating derives them from pi and tau.
        mu = float(self.pi and self.tau / self.pi)
        sigma = float(math.sqrt(1 / self.pi) if self.pi else math.inf)
        return Standing(
            bot=bot,
            mu=mu,
            sigma=sigma,
            conservative=mu - 3 * sigma,
            matches=self.matches,
            wins=self.wins,
            win_rate=_mean(self.wins, self.matches),
            mean_score=_mean(self.score_sum, self.scored),
            mean_place=_mean(self.place_sum + self.rated, self.rated),
            faults=self.faults,
        )


def _mean(total: float, count: int) -> float | None:
    return total / count if count else None


def usable_draw_probability(value: object) -> float | None:
    """``value`` as a draw probability TrueSkill can rate with (a number strictly between 0
    and 1), or None: a game's declared ``draw_probability``, or one saved in a run folder, is
    used only if it is one; where it is not, the arena rates with :data:`DRAW_PROBABILITY`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0.0 < value < 1.0 else None


@lru_cache(maxsize=16)
def environments(draw_probability: float) -> tuple[Any, Any]:
    """The float-backed and the mpmath-backed TrueSkill environments, same parameters.

    The float backend is fast; mpmath is slow but precise enough for the
    lopsided matches where floats give up (see :meth:`Ratings.add`).
    """
    if not 0.0 < draw_probability < 1.0:
        raise ValueError(f"draw_probability must lie in (0, 1), not {draw_probability!r}")
    parameters = {
        "mu": MU,
        "sigma": SIGMA,
        "beta": BETA,
        "tau": TAU,
        "draw_probability": draw_probability,
    }
    return trueskill.TrueSkill(**parameters), trueskill.TrueSkill(**parameters, backend="mpmath")


class Ratings:
    """Ratings and tallies updated one match at a time, in the order given.

    :func:`rate` feeds it in canonical order; a live view may feed it in
    arrival order, which is cheap but not the final word.
    """

    def __init__(
        self, draw_probability: float = DRAW_PROBABILITY, labels: Iterable[str] = ()
    ) -> None:
        self._fast, self._precise = environments(draw_probability)
        self._rater = _rater(draw_probability)
        self._tallies: dict[str, _Tally] = {}
        self.fallbacks = 0
        """How many matches needed the mpmath backend."""
        for label in labels:
            self._tally(label)

    def add(self, result: MatchResult) -> None:
        """Count one match and, unless it is void, update the ratings of its seats.

        Raises ``ValueError``, before counting anything, for a result whose
        per-seat fields do not match its seats.
        """
        self.add_facts(result.id, result.seats, result.scores, result.ranking, result.statuses)

    def add_facts(self, match_id: str, seats: Sequence[str], scores: Sequence[float],
                  ranking: Sequence[int], statuses: Sequence[str]) -> None:
        """:meth:`add` from the fields it reads (a ledger's record gives them without making
        a :class:`MatchResult`)."""
        if not len(scores) == len(ranking) == len(statuses) == len(seats):
            raise ValueError(
                f"match {match_id!r}: scores, ranking and statuses need one per seat")
        tallies = [self._tally(label) for label in seats]
        faults = [status != "ok" for status in statuses]
        for tally, fault in zip(tallies, faults, strict=True):
            tally.matches += 1
            tally.faults += fault
        if all(faults):
            return  # void: no seat ended ok
        for tally, score, place, fault in zip(tallies, scores, ranking, faults, strict=True):
            tally.rated += 1
            tally.wins += place == 0
            tally.place_sum += place
            if not fault:
                tally.score_sum += score
                tally.scored += 1
        # TrueSkill needs two teams; a one-seat match can only be counted.
        if len(tallies) >= 2:
            self._update(match_id, ranking, tallies)

    def state(self) -> dict[str, Any]:
        """Where this stands, as JSON-able data :meth:`restore` continues from exactly (each
        rating as TrueSkill holds it, precision and precision-adjusted mean: JSON keeps
        every bit of a float)."""
        return {
            "fallbacks": self.fallbacks,
            "tallies": {label: [tally.pi, tally.tau, tally.matches, tally.rated,
                                tally.wins, tally.faults, tally.score_sum, tally.place_sum,
                                tally.scored]
                        for label, tally in self._tallies.items()},
        }

    @classmethod
    def restore(cls, draw_probability: float, state: Mapping[str, Any]) -> Ratings:
        """The ratings :meth:`state` described; raises ``KeyError``, ``TypeError`` or
        ``ValueError`` for anything else."""
        ratings = cls(draw_probability)
        ratings.fallbacks = int(state["fallbacks"])
        for label, values in state["tallies"].items():
            pi, tau, matches, rated, wins, faults, score_sum, place_sum, scored = values
            ratings._tallies[str(label)] = _Tally(
                float(pi), float(tau), int(matches), int(rated), int(wins), int(faults),
                float(score_sum), int(place_sum), int(scored))
        return ratings

    def copy(self) -> Ratings:
        """An independent copy: matches added to it leave this one as it is."""
        twin = copy.copy(self)
        twin._tallies = {label: replace(tally) for label, tally in self._tallies.items()}
        return twin

    def standings(self) -> list[Standing]:
        """The table so far, best first: by mu - 3*sigma, then mu, then label."""
        rows = [tally.standing(bot) for bot, tally in self._tallies.items()]
        return sorted(rows, key=lambda row: (-row.conservative, -row.mu, row.bot))

    def _tally(self, label: str) -> _Tally:
        tally = self._tallies.get(label)
        if tally is None:
            start = self._fast.create_rating()
            tally = self._tallies[label] = _Tally(start.pi, start.tau)
        return tally

    def _update(self, match_id: str, ranks: Sequence[int], tallies: list[_Tally]) -> None:
        try:
            # trueskill's float backend, computed without its objects (arena.freeforall).
            rated = self._rater.rate([(tally.pi, tally.tau) for tally in tallies], ranks)
        except ArithmeticError:
            # The float backend's erfc loses precision when a far weaker bot
            # beats a far stronger one and trueskill raises FloatingPointError
            # (or divides by zero); mpmath gets the same answer slowly.
            rated = self._rate_precisely(match_id, tallies, list(ranks))
            self.fallbacks += 1
        for tally, (pi, tau) in zip(tallies, rated, strict=True):
            tally.pi, tally.tau = pi, tau

    def _rate_precisely(self, match_id: str, tallies: list[_Tally],
                        ranks: list[int]) -> list[tuple[float, float]]:
        teams = []
        for tally in tallies:
            rating = self._precise.create_rating()
            rating.pi, rating.tau = tally.pi, tally.tau
            teams.append((rating,))
        try:
            rated = self._precise.rate(teams, ranks=ranks)
        except ArithmeticError as error:
            raise FloatingPointError(
                f"TrueSkill cannot rate match {match_id!r}, even with mpmath: {error}"
            ) from error
        return [(float(rating.pi), float(rating.tau)) for (rating,) in rated]


@lru_cache(maxsize=16)
def _rater(draw_probability: float) -> Rater:
    return Rater(BETA, TAU, draw_probability)


def canonical_order(results: Iterable[MatchResult]) -> list[MatchResult]:
    """The results sorted by id, one per id.

    Of two different results under one id, the one whose JSON sorts first is
    kept, so the choice does not depend on arrival order either.
    """
    by_id: dict[str, MatchResult] = {}
    for result in results:
        kept = by_id.get(result.id)
        if kept is None or (kept != result and _fingerprint(result) < _fingerprint(kept)):
            by_id[result.id] = result
    return [by_id[match_id] for match_id in sorted(by_id)]


def _fingerprint(result: MatchResult) -> str:
    return json.dumps(result.to_json(), sort_keys=True)


def rate(
    results: Iterable[MatchResult],
    draw_probability: float = DRAW_PROBABILITY,
    labels: Iterable[str] = (),
) -> list[Standing]:
    """The final table of a run, best first; independent of the order of ``results``.

    ``labels`` are the bots of the config: each gets a row even if it played
    no match (mu 25, sigma 8.33, 0 matches). Bots found only in ``results``
    get rows too. Raises ``ValueError`` for a draw probability outside (0, 1)
    and ``FloatingPointError`` for a match that even mpmath cannot rate.
    """
    ratings = Ratings(draw_probability, labels)
    for result in canonical_order(results):
        ratings.add(result)
    return ratings.standings()
