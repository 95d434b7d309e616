"""Round-robin plans: who meets whom, in which seats, with which seeds."""

from __future__ import annotations

import itertools
from collections import Counter

from arena.records import Limits, SeatSpec
from arena.schedule import count_matches, round_robin

ENTRIES = tuple(SeatSpec(label=name, bot="random") for name in "abcd")


def plan(seating: str = "permutations", rounds: int = 2, players: int = 3) -> list:
    return list(
        round_robin(
            game="g",
            options={},
            entries=ENTRIES,
            players=players,
            rounds=rounds,
            seed=1,
            seating=seating,
            limits=Limits(),
        )
    )


def test_every_table_is_seated_in_every_permutation_each_round() -> None:
    matches = plan()
    assert len(matches) == 2 * 4 * 6 == count_matches(4, 3, 2, "permutations")
    seatings = Counter(tuple(s.label for s in m.seats) for m in matches)
    assert set(seatings) == set(itertools.permutations("abcd", 3))
    assert set(seatings.values()) == {2}


def test_rotations_seat_each_table_once_per_seat() -> None:
    matches = plan("rotations")
    assert len(matches) == 2 * 4 * 3 == count_matches(4, 3, 2, "rotations")
    first = [tuple(s.label for s in m.seats) for m in matches[:3]]
    assert first == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_all_seatings_of_a_table_in_a_round_share_the_chance_seed() -> None:
    by_table: dict[tuple[str, str], set[int]] = {}
    for match in plan():
        round_, table, _ = match.id.split("-")
        by_table.setdefault((round_, table), set()).add(match.seed)
    assert all(len(seeds) == 1 for seeds in by_table.values())
    assert len({next(iter(s)) for s in by_table.values()}) == len(by_table)


def test_match_ids_are_unique_stable_and_sort_in_plan_order() -> None:
    first, second = plan(), plan()
    ids = [m.id for m in first]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    assert [(m.id, m.seed, m.bot_seeds) for m in first] == [
        (m.id, m.seed, m.bot_seeds) for m in second
    ]


def test_a_bot_keeps_its_seed_across_the_seatings_of_a_table() -> None:
    seeds: dict[tuple[str, str], set[int]] = {}
    for match in plan(rounds=1):
        table = match.id.split("-")[1]
        for seat, seed in zip(match.seats, match.bot_seeds, strict=True):
            seeds.setdefault((table, seat.label), set()).add(seed)
    assert all(len(s) == 1 for s in seeds.values())
