"""TrueSkill ratings: canonical order, free-for-all ranks, ties, faults, the mpmath fallback."""

from __future__ import annotations

import contextlib
import itertools
import math
import random
from collections.abc import Sequence

import pytest
import trueskill
from helpers import finished

from arena.freeforall import Rater
from arena.ratings import (
    BETA,
    MU,
    SIGMA,
    TAU,
    Ratings,
    Standing,
    canonical_order,
    environments,
    rate,
)
from arena.records import MatchResult


def by_bot(standings: Sequence[Standing]) -> dict[str, Standing]:
    return {row.bot: row for row in standings}


def random_tournament(matches: int, seed: int) -> list[MatchResult]:
    """Three-seat matches among four bots, with random finishing orders and some ties."""
    rng = random.Random(seed)
    bots = ["ada", "bo", "cy", "di"]
    results = []
    for number in range(matches):
        seats = rng.sample(bots, 3)
        ranking = [rng.randrange(3) for _ in seats]
        results.append(finished(f"m{number:04d}", seats, ranking))
    return results


def test_a_bot_that_always_wins_ends_first_with_its_mu_rising() -> None:
    results = []
    for n in range(12):
        seats = ["champ", "bo", "cy"]
        seats = seats[n % 3 :] + seats[: n % 3]  # the champion sits in every seat in turn
        ranking = [0 if label == "champ" else 1 + (label == "cy") for label in seats]
        results.append(finished(f"m{n:02d}", seats, ranking))
    mus = [by_bot(rate(results[:count]))["champ"].mu for count in range(1, len(results) + 1)]
    table = rate(results)
    champ = table[0]
    assert champ.bot == "champ"
    assert mus == sorted(mus) and mus[0] > MU
    assert (champ.wins, champ.matches, champ.win_rate, champ.mean_place) == (12, 12, 1.0, 1.0)
    assert [row.bot for row in table] == ["champ", "bo", "cy"]


def test_the_order_results_arrive_in_does_not_change_the_table() -> None:
    results = random_tournament(60, seed=7)
    expected = rate(results)
    for attempt in range(5):
        shuffled = results[:]
        random.Random(attempt).shuffle(shuffled)
        assert rate(shuffled) == expected


def test_a_match_id_is_rated_once_whatever_arrives_first() -> None:
    first = finished("m1", ["ada", "bo"], [0, 1])
    rival = finished("m1", ["ada", "bo"], [1, 0])
    assert canonical_order([first, rival]) == canonical_order([rival, first])
    assert by_bot(rate([first, first]))["ada"].matches == 1


def test_two_identical_bots_tied_in_every_match_keep_equal_ratings() -> None:
    results = [finished(f"m{n:02d}", ["twin-a", "twin-b"], [0, 0]) for n in range(20)]
    twin_a, twin_b = rate(results)
    assert (twin_a.mu, twin_a.sigma) == (twin_b.mu, twin_b.sigma)
    assert twin_a.mu == pytest.approx(MU)
    assert twin_a.sigma < SIGMA  # a tie is information too
    assert twin_a.wins == twin_b.wins == 20  # a shared first place is a win for each


def test_tied_places_in_a_free_for_all_move_both_bots_alike() -> None:
    # TrueSkill chains neighbouring places, so only the twin seated next to
    # the loser is compared with it directly; alternating seats evens that out.
    seatings = [["twin-a", "twin-b", "loser"], ["twin-b", "twin-a", "loser"]] * 10
    results = [finished(f"m{n:02d}", seats, [0, 0, 2]) for n, seats in enumerate(seatings)]
    table = by_bot(rate(results))
    assert table["twin-a"].mu == pytest.approx(table["twin-b"].mu, abs=1e-3)
    assert table["loser"].mu < MU < table["twin-a"].mu


def test_a_tie_is_rated_as_a_draw_not_as_an_order() -> None:
    fast, _ = environments(0.1)
    start = fast.create_rating()
    (drawn,), (_,) = fast.rate([(start,), (start,)], ranks=[0, 0])
    table = by_bot(rate([finished("m1", ["left", "right"], [0, 0])], draw_probability=0.1))
    assert table["left"].mu == pytest.approx(drawn.mu)
    assert table["left"].sigma == pytest.approx(drawn.sigma)


def test_faulty_seats_are_counted_and_lose_rating() -> None:
    crashed = finished("m1", ["steady", "crashy"], [0, 1], statuses=["ok", "crash"])
    table = by_bot(rate([crashed]))
    assert (table["crashy"].faults, table["steady"].faults) == (1, 0)
    assert table["crashy"].mu < MU < table["steady"].mu


def test_a_faulty_seats_points_are_not_its_bots_score_but_its_place_counts() -> None:
    # The faulty seat's random stand-in scored 5 after the fault: not the bot's points.
    faulted = finished("m1", ["steady", "oops"], [0, 1], statuses=["ok", "illegal"],
                       scores=[1.0, 5.0])
    clean = finished("m2", ["steady", "oops"], [1, 0], scores=[2.0, 3.0])
    table = by_bot(rate([faulted, clean]))
    assert table["oops"].mean_score == 3.0 and table["steady"].mean_score == 1.5
    assert table["oops"].mean_place == 1.5  # the fault's last place counts
    assert by_bot(rate([faulted]))["oops"].mean_score is None


def test_a_match_nobody_finished_is_counted_but_not_rated() -> None:
    void = finished("m1", ["ada", "bo"], [0, 0], statuses=["crash", "timeout"])
    played = finished("m2", ["ada", "bo"], [0, 1])
    table = by_bot(rate([void, played]))
    ada = table["ada"]
    assert (ada.matches, ada.faults, ada.wins) == (2, 1, 1)
    assert ada.win_rate == 0.5  # the void match is a match, but no win
    assert ada.mean_place == 1.0  # means only over rated matches
    assert by_bot(rate([void]))["ada"].mu == MU


def test_configured_bots_that_played_no_match_get_a_default_row() -> None:
    table = rate([finished("m1", ["ada", "bo"], [0, 1])], labels=["zed", "idle", "ada"])
    idle = by_bot(table)["idle"]
    assert (idle.mu, idle.sigma, idle.matches, idle.wins) == (MU, SIGMA, 0, 0)
    assert idle.conservative == pytest.approx(0.0)
    assert (idle.win_rate, idle.mean_score, idle.mean_place) == (None, None, None)
    # Equal conservative and mu: the label decides.
    assert [row.bot for row in table] == ["ada", "idle", "zed", "bo"]


def test_the_float_backend_failing_falls_back_to_mpmath() -> None:
    """A 60-seat free-for-all, twice in one order and then reversed, breaks the
    float backend's erfc ("Cannot calculate correctly, set backend to mpmath")."""
    bots = [f"bot{n:02d}" for n in range(60)]
    ordered = [finished(f"m{n}", bots, range(60)) for n in (1, 2)]
    reversed_ = finished("m3", bots, range(59, -1, -1))
    fast, precise = environments(0.1)
    teams = [(fast.create_rating(),) for _ in bots]
    for _ in ordered:
        teams = fast.rate(teams, ranks=list(range(60)))
    with pytest.raises(FloatingPointError):
        fast.rate(teams, ranks=list(reversed_.ranking))
    expected = precise.rate(teams, ranks=list(reversed_.ranking))

    ratings = Ratings(0.1)
    for match in [*ordered, reversed_]:
        ratings.add(match)
    table = by_bot(ratings.standings())
    assert ratings.fallbacks == 1
    assert table["bot59"].mu == pytest.approx(expected[59][0].mu)
    assert all(math.isfinite(row.mu) and math.isfinite(row.sigma) for row in table.values())
    assert by_bot(rate([reversed_, *ordered], 0.1)) == table


def test_trueskill_global_environment_is_neither_used_nor_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    results = random_tournament(10, seed=1)
    expected = rate(results)
    odd = trueskill.TrueSkill(mu=1000.0, sigma=1.0, draw_probability=0.5)
    monkeypatch.setattr(trueskill.global_env, "__trueskill__", odd, raising=False)
    assert rate(results) == expected
    assert trueskill.global_env() is odd


@pytest.mark.parametrize("draw_probability", [0.0, 1.0, -0.1])
def test_a_draw_probability_outside_the_open_unit_interval_is_refused(
    draw_probability: float,
) -> None:
    with pytest.raises(ValueError, match="draw_probability"):
        rate([], draw_probability=draw_probability)


def test_a_result_with_a_missing_place_is_refused_before_anything_is_counted() -> None:
    ratings = Ratings()
    broken = finished("m1", ["ada", "bo"], [0, 1], scores=[1.0])
    with pytest.raises(ValueError, match="m1"):
        ratings.add(broken)
    assert ratings.standings() == []


def _package_rate(environment: trueskill.TrueSkill, ratings: list[tuple[float, float]],
                  ranks: list[int]) -> list[tuple[float, float]] | str:
    teams = []
    for pi, tau in ratings:
        rating = environment.create_rating()
        rating.pi, rating.tau = pi, tau
        teams.append((rating,))
    try:
        return [(rating.pi, rating.tau) for (rating,) in environment.rate(teams, ranks=ranks)]
    except ArithmeticError as error:
        return type(error).__name__


def _our_rate(rater: Rater, ratings: list[tuple[float, float]],
              ranks: list[int]) -> list[tuple[float, float]] | str:
    try:
        return rater.rate(ratings, ranks)
    except ArithmeticError as error:
        return type(error).__name__


@pytest.mark.parametrize("draw_probability", [0.1, 0.01, 0.5])
def test_the_flat_rater_gives_trueskills_ratings_to_the_last_bit(draw_probability: float) -> None:
    """arena.freeforall passes trueskill's messages without its objects: 2 to 8 seats,
    ties, settled and new ratings, lopsided ones; every pi and tau equal, not approximately."""
    rng = random.Random(draw_probability)
    environment, _ = environments(draw_probability)
    rater = Rater(BETA, TAU, draw_probability)
    for _ in range(600):
        seats = rng.choice([2, 2, 3, 3, 4, 5, 8])
        ratings = []
        for _ in range(seats):
            sigma = rng.choice([SIGMA, rng.uniform(0.3, 9.0), 0.05])
            mu = rng.gauss(25.0, 30.0 if rng.random() < 0.2 else 4.0)
            ratings.append((sigma**-2, sigma**-2 * mu))
        spread = seats if rng.random() < 0.7 else 2
        ranks = [rng.randrange(spread) for _ in range(seats)]
        assert _our_rate(rater, ratings, ranks) == _package_rate(environment, ratings, ranks)


def test_a_match_rated_written_out_is_rated_exactly_as_by_the_general_passes() -> None:
    """The written-out path (no function call per message) gives the general passes'
    ratings to the last bit, ties or not, and is the one taken."""
    from arena import freeforall

    rng = random.Random(11)
    fast = Rater(BETA, TAU, 0.05)
    general = Rater(BETA, TAU, 0.05)
    taken = 0

    def unusual(*args: object) -> list[tuple[float, float]]:
        raise freeforall._Unusual

    general._rate_written_out = unusual  # type: ignore[method-assign]
    written_out = fast._rate_written_out
    for _ in range(3000):
        seats = rng.choice([2, 3, 3, 4, 6])
        ratings = []
        for _ in range(seats):
            sigma = rng.choice([SIGMA, rng.uniform(0.3, 9.0), 0.05])
            mu = rng.gauss(25.0, 30.0 if rng.random() < 0.2 else 4.0)
            ratings.append((sigma**-2, sigma**-2 * mu))
        ranks = (rng.sample(range(seats), seats) if rng.random() < 0.6
                 else [rng.randrange(seats) for _ in range(seats)])
        assert _our_rate(fast, ratings, ranks) == _our_rate(general, ratings, ranks)
        order = sorted(range(seats), key=ranks.__getitem__)
        ties = [ranks[a] == ranks[b] for a, b in itertools.pairwise(order)]
        with contextlib.suppress(ArithmeticError, freeforall._Unusual):
            taken += written_out(ratings, order, ties) == fast.rate(ratings, ranks)
    assert taken > 2900


def test_the_flat_rater_fails_where_trueskills_float_backend_fails() -> None:
    """Large free-for-alls rated again in reverse break the float backend's erfc; the flat
    rater raises the same error on the same matches, so the mpmath fallback is taken alike."""
    rng = random.Random(7)
    environment, _ = environments(0.1)
    rater = Rater(BETA, TAU, 0.1)
    outcomes = set()
    for _ in range(40):
        seats = rng.choice([20, 40, 60])
        ratings = [(SIGMA**-2, SIGMA**-2 * MU)] * seats
        for _ in range(rng.randrange(1, 4)):
            rated = _package_rate(environment, ratings, list(range(seats)))
            if isinstance(rated, str):
                break
            ratings = rated
        ranks = list(range(seats))[::-1] if rng.random() < 0.5 else [
            rng.randrange(seats) for _ in range(seats)]
        expected = _package_rate(environment, ratings, ranks)
        assert _our_rate(rater, ratings, ranks) == expected
        outcomes.add(isinstance(expected, str))
    assert outcomes == {True, False}


def test_the_flat_rater_refuses_a_match_of_one() -> None:
    with pytest.raises(ValueError, match="two players"):
        Rater(BETA, TAU, 0.1).rate([(1.0, 25.0)], [0])
