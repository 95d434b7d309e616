"""Round-robin plans: who meets whom, in which seats, with which seeds."""

from __future__ import annotations

import itertools
import tracemalloc
from collections import Counter
from typing import Any

from arena.records import Limits, MatchResult, MatchSpec, SeatSpec
from arena.schedule import (
    canonical_ids,
    count_matches,
    derive_seed,
    match_id,
    of_the_plan,
    planned_seating,
    round_robin,
)

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


def test_round_table_and_seating_are_counted_from_one_as_the_readme_says() -> None:
    """README: a run's first match is ``r001-t000001-s001`` (a replay of ``r001-t000000-s000``,
    the guess of a reader counting from 0, found no such match)."""
    ids = [m.id for m in plan(seating="rotations", rounds=2, players=2)]
    assert ids[0] == "r001-t000001-s001" and ids[1] == "r001-t000001-s002"
    assert ids[-1] == "r002-t000006-s002"


def test_a_bot_keeps_its_seed_across_the_seatings_of_a_table() -> None:
    seeds: dict[tuple[str, str], set[int]] = {}
    for match in plan(rounds=1):
        table = match.id.split("-")[1]
        for seat, seed in zip(match.seats, match.bot_seeds, strict=True):
            seeds.setdefault((table, seat.label), set()).add(seed)
    assert all(len(s) == 1 for s in seeds.values())


def test_a_match_ids_round_table_and_seating_are_worked_out_from_the_id_alone() -> None:
    """What ``arena run --resume`` checks a recorded match against: for every id of the plan,
    the round, the table (its chance seed) and the entries in seat order, as the plan has them;
    an id outside the plan is None."""
    labels = [entry.label for entry in ENTRIES]
    for seating in ("permutations", "rotations"):
        for players in (2, 3, 4):
            where = planned_seating(len(ENTRIES), players, 2, seating)
            by_table: dict[tuple[int, int], int] = {}
            for spec in plan(seating, rounds=2, players=players):
                found = where(spec.id)
                assert found is not None, spec.id
                round_, table, order = found
                assert tuple(labels[entry] for entry in order) == tuple(
                    seat.label for seat in spec.seats)
                assert spec.seed == derive_seed(1, "chance", round_, table)
                assert by_table.setdefault((round_, table), spec.seed) == spec.seed
            assert where("r003-t000001-s001") is None and where("r001-t000001") is None


def test_the_nth_table_of_a_large_pool_is_the_nth_combination() -> None:
    where = planned_seating(12, 4, 1, "rotations")
    for index, table in enumerate(itertools.combinations(range(12), 4)):
        found = where(f"r001-t{index + 1:06d}-s001")
        assert found is not None and found[2] == table


def test_canonical_ids_come_in_string_order_without_holding_the_rounds() -> None:
    """The ids of 1,234 rounds, in canonical (string) order: "r100-" before "r1000-" before
    "r101-". The order was made by sorting every round number first: a config of a billion
    rounds took the machine's 24 GB of memory before its first match."""
    ids = list(canonical_ids(2, 2, 1234, "rotations"))
    assert ids == sorted(match_id(r, 0, s) for r in range(1234) for s in range(2))
    assert ids[196:202] == ["r099-t000001-s001", "r099-t000001-s002", "r100-t000001-s001",
                            "r100-t000001-s002", "r1000-t000001-s001", "r1000-t000001-s002"]
    tracemalloc.start()
    try:  # two million rounds: sorted first, they took 200 MB (safe to show it failing)
        first = list(itertools.islice(canonical_ids(2, 2, 2_000_000, "rotations"), 3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert first == ["r001-t000001-s001", "r001-t000001-s002", "r002-t000001-s001"]
    assert peak < 100_000


def test_a_recorded_match_is_the_plans_only_with_its_ids_game_seats_and_seed() -> None:
    """What ``arena leaderboard`` and ``--resume`` keep: every match of the plan, in any
    order (the seatings of a table are worked out together and kept); the same id with its
    seats reversed, another game or another seed is not the plan's (False); an id the plan
    lacks is None."""
    for seating, players in itertools.product(("permutations", "rotations"), (2, 3, 4)):
        labels = [f"bot{i}" for i in range(6)]
        entries = [SeatSpec(label=label, bot="random") for label in labels]
        specs = list(round_robin(game="g", options={}, entries=entries, players=players,
                                 rounds=2, seed=9, seating=seating, limits=Limits()))
        check = of_the_plan("g", labels, players, 2, seating, 9)
        shuffled = sorted(specs, key=lambda spec: derive_seed(spec.id))
        assert all(check(recorded(spec)) is True for spec in shuffled)
        assert not any(check(recorded(spec, seats=tuple(reversed(recorded(spec).seats))))
                       for spec in shuffled)
        assert check(recorded(specs[0], game="h")) is False
        assert check(recorded(specs[0], seed=specs[0].seed + 1)) is False
        for stranger in ("r003-t000001-s001", "r001-t000099-s001", "r1-t1-s1", "play-0001"):
            assert check(recorded(specs[0], match_id=stranger)) is None


def recorded(spec: MatchSpec, **changed: Any) -> MatchResult:
    seats = len(spec.seats)
    return MatchResult(
        id=changed.get("match_id", spec.id), game=changed.get("game", spec.game),
        seed=changed.get("seed", spec.seed),
        seats=changed.get("seats", tuple(seat.label for seat in spec.seats)),
        scores=(0.0,) * seats, ranking=tuple(range(seats)), statuses=("ok",) * seats,
        actions=1, seconds=0.0, think_seconds=(), max_move_seconds=(), errors=(), history=())
