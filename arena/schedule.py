"""Tournament plans: which bots meet, in which seats, with which seeds.

A round robin takes every combination of ``players`` entries out of the pool
(a *table*) and seats it in every permutation, or only in its rotations.
The whole plan is repeated ``rounds`` times with new seeds. All seatings of
one table in one round share a chance seed — the duplicate format: each bot
meets the same dice and cards from every seat, so luck evens out.

Match ids are stable and sort in canonical order (round, table, seating), so
ratings can be computed in an order that does not depend on which worker
finished first.

The plan is a generator: nothing of it is materialised, so a tournament of
millions of matches starts its first match at once and the driver's memory
does not grow with the plan. Table numbers have six digits; a plan of more
than 999,999 tables numbers them all with as many digits as its largest
needs, so ids keep one width (and string order) within a run, and every plan
that fits six digits keeps the ids it always had.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from arena.records import Limits, MatchResult, MatchSpec, SeatSpec

SEATINGS = ("permutations", "rotations")
TABLE_DIGITS = 6
"""The width of a table number in a match id (wider only for plans that need it)."""
MAX_TABLES = 999_999_999
"""A plan of more tables would take years on any cluster: refused as a mistake."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed that depends only on ``parts`` (stable across runs and machines)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def seatings(table: Sequence[int], seating: str) -> list[tuple[int, ...]]:
    """The seat orders of one table: all permutations, or the rotations of it."""
    if seating == "permutations":
        return list(itertools.permutations(table))
    if seating == "rotations":
        return [tuple(table[i:]) + tuple(table[:i]) for i in range(len(table))]
    raise ValueError(f"seating must be one of {SEATINGS}, not {seating!r}")


def match_id(round_: int, table: int, seating: int, table_digits: int = TABLE_DIGITS) -> str:
    """``r001-t000001-s001``: fixed widths, so string order is canonical order."""
    return f"r{round_ + 1:03d}-t{table + 1:0{table_digits}d}-s{seating + 1:03d}"


def table_digits(tables: int) -> int:
    """The width of the table numbers of a plan of ``tables`` tables."""
    return max(TABLE_DIGITS, len(str(tables)))


def count_matches(pool: int, players: int, rounds: int, seating: str) -> int:
    """How many matches :func:`round_robin` plans, without building them."""
    tables = math.comb(pool, players)
    per_table = math.factorial(players) if seating == "permutations" else players
    return rounds * tables * per_table


def canonical_ids(pool: int, players: int, rounds: int, seating: str) -> Iterator[str]:
    """The match ids of :func:`round_robin`'s plan in canonical (string) order, made as
    they are asked for. That is the plan's order, except that with more than 999 rounds
    the round numbers sort as strings ("r1000-" after "r100-")."""
    tables = math.comb(pool, players)
    digits = table_digits(tables)
    per_table = math.factorial(players) if seating == "permutations" else players
    for round_ in _rounds_in_id_order(rounds):
        for table in range(tables):
            for seat_order in range(per_table):
                yield match_id(round_, table, seat_order, digits)


def _rounds_in_id_order(rounds: int) -> Iterator[int]:
    """``range(rounds)`` in the string order of the ids' round numbers (``r001-``, ...,
    ``r100-``, ``r1000-``, ``r1001-``, ``r101-``), made as they are asked for: sorting the
    rounds first held them all, and ``rounds = 1000000000`` took the machine's 24 GB."""
    yield from range(min(rounds, 99))  # r001- to r099-: three digits, in number order
    for first in range(100, min(rounds, 999) + 1):  # then each three-digit start, in
        yield from _extensions(first, rounds)  # order, before its longer numbers


def _extensions(number: int, rounds: int) -> Iterator[int]:
    """``number`` and every longer round number up to ``rounds`` that begins with its
    digits, in string order (as rounds from 0); "1000-" sorts after "100-", before "101-"."""
    yield number - 1
    for digit in range(10):
        longer = number * 10 + digit
        if longer > rounds:
            break
        yield from _extensions(longer, rounds)


_MATCH_ID = re.compile(r"r(\d{3,})-t(\d+)-s(\d{3,})")


def in_plan(pool: int, players: int, rounds: int, seating: str) -> Callable[[str], bool]:
    """A test of whether a match id is one of :func:`round_robin`'s plan, without making the
    plan's ids (a resumed run of millions of matches would hold them all)."""
    tables = math.comb(pool, players)
    digits = table_digits(tables)
    per_table = math.factorial(players) if seating == "permutations" else players

    def test(given: str) -> bool:
        found = _MATCH_ID.fullmatch(given)
        if found is None:
            return False
        round_, table, seat_order = (int(part) for part in found.groups())
        return (1 <= round_ <= rounds and 1 <= table <= tables and 1 <= seat_order <= per_table
                and given == match_id(round_ - 1, table - 1, seat_order - 1, digits))

    return test


def planned_seating(
    pool: int, players: int, rounds: int, seating: str
) -> Callable[[str], tuple[int, int, tuple[int, ...]] | None]:
    """For a match id of :func:`round_robin`'s plan, its round, table and entries in seat
    order (None for an id not in the plan), worked out from the id alone: what a resumed run
    checks a recorded match against."""
    planned = in_plan(pool, players, rounds, seating)
    last: dict[int, tuple[int, ...]] = {}  # the last table's entries: its seatings come together

    def where(given: str) -> tuple[int, int, tuple[int, ...]] | None:
        if not planned(given):
            return None
        found = _MATCH_ID.fullmatch(given)
        assert found is not None
        round_, table, seat_order = (int(part) - 1 for part in found.groups())
        entries = last.get(table)
        if entries is None:
            last.clear()
            entries = last[table] = _nth_combination(pool, players, table)
        if seating == "rotations":
            return round_, table, entries[seat_order:] + entries[:seat_order]
        return round_, table, _nth_permutation(entries, seat_order)

    return where


def of_the_plan(
    game: str, labels: Sequence[str], players: int, rounds: int, seating: str, seed: int
) -> Callable[[MatchResult], bool | None]:
    """Whether a recorded match is one of this plan's: None for an id the plan lacks, False
    for one of its ids played otherwise (another game, other seats, another chance seed: a
    line of another run), True when it is the plan's match of that id.

    The seatings of a table are worked out together, once (a file holds them side by
    side): the leaderboard checks every line of a million-match run."""
    planned = in_plan(len(labels), players, rounds, seating)
    together = (math.factorial(players) if seating == "permutations" else players
                ) <= SEATINGS_AT_ONCE
    table_seats: dict[str, tuple[str, ...]] = {}  # the last table's seatings, by match id
    table_seed = [0]

    def check(result: MatchResult) -> bool | None:
        seats = table_seats.get(result.id)
        if seats is None:
            found = _MATCH_ID.fullmatch(result.id)
            if found is None or not planned(result.id):
                return None
            if len(result.seats) != players:  # nothing to work out: not this plan's table
                return False
            round_, table, order = (int(part) - 1 for part in found.groups())
            entries = _nth_combination(len(labels), players, table)
            table_seats.clear()
            table_seed[0] = derive_seed(seed, "chance", round_, table)
            if not together:
                seats = tuple(labels[i] for i in _nth_seating(entries, seating, order))
                return (result.game == game and result.seats == seats
                        and result.seed == table_seed[0])
            prefix = result.id[:result.id.rindex("-s") + 2]
            for index, seated in enumerate(seatings(entries, seating)):
                table_seats[f"{prefix}{index + 1:03d}"] = tuple(labels[i] for i in seated)
            seats = table_seats[result.id]
        return result.game == game and result.seats == seats and result.seed == table_seed[0]

    return check


SEATINGS_AT_ONCE = 720
"""The most seatings of a table :func:`of_the_plan` works out together (the permutations of
six seats); past it, each recorded match's own alone. A results folder may come from
anyone, and its ``config.json``'s 12 players (``permutations``: 479,001,600 seatings a
table) and one line had ``arena leaderboard`` list every seating of the table, a
``MemoryError`` traceback (or the kernel's kill) instead of a table."""


def _nth_seating(entries: tuple[int, ...], seating: str, index: int) -> tuple[int, ...]:
    """The ``index``-th of :func:`seatings` of ``entries``, alone."""
    if seating == "rotations":
        return entries[index:] + entries[:index]
    return _nth_permutation(entries, index)


def _nth_combination(pool: int, players: int, index: int) -> tuple[int, ...]:
    """The ``index``-th of ``itertools.combinations(range(pool), players)``."""
    chosen: list[int] = []
    start = 0
    for left in range(players, 0, -1):
        for candidate in range(start, pool):
            count = math.comb(pool - candidate - 1, left - 1)
            if index < count:
                chosen.append(candidate)
                start = candidate + 1
                break
            index -= count
    return tuple(chosen)


def _nth_permutation(items: Sequence[int], index: int) -> tuple[int, ...]:
    """The ``index``-th of ``itertools.permutations(items)``."""
    left = list(items)
    order: list[int] = []
    for size in range(len(left), 0, -1):
        place, index = divmod(index, math.factorial(size - 1))
        order.append(left.pop(place))
    return tuple(order)


def round_robin(
    *,
    game: str,
    options: Mapping[str, Any],
    entries: Sequence[SeatSpec],
    players: int,
    rounds: int,
    seed: int,
    seating: str,
    limits: Limits,
) -> Iterator[MatchSpec]:
    """Every match of the tournament, in canonical order, made as it is asked for."""
    tables_count = math.comb(len(entries), players)
    if tables_count > MAX_TABLES:
        raise ValueError(f"more than {MAX_TABLES} tables: use fewer bots or fewer players")
    digits = table_digits(tables_count)
    for round_ in range(rounds):
        tables = itertools.combinations(range(len(entries)), players)
        for table_index, table in enumerate(tables):
            chance_seed = derive_seed(seed, "chance", round_, table_index)
            for seating_index, order in enumerate(seatings(table, seating)):
                seats = tuple(entries[i] for i in order)
                yield MatchSpec(
                    id=match_id(round_, table_index, seating_index, digits),
                    game=game,
                    options=dict(options),
                    seats=seats,
                    seed=chance_seed,
                    bot_seeds=tuple(
                        derive_seed(seed, "bot", round_, table_index, seat.label) for seat in seats
                    ),
                    limits=limits,
                )
