"""The greedy bot on Explorers of the Lost Valley: legal, clearly better than random, and
no risk level dominates the shipped card values."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
from arena_bot_greedy import GreedyBot
from arena_bot_greedy.explorers import Judge, Scorer, choose
from arena_bot_random import RandomBot

from arena.bot import Bot
from arena.game import CHANCE
from engines.explorers.cards import DINOSAUR_FIELDS
from engines.explorers.game import ExplorersGame

GAME = ExplorersGame()
Seat = float | str           # a greedy risk level, or "random"


def make_bot(kind: Seat, seat: int, players: int, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(game=GAME.name, seat=seat, num_players=players, seed=seed)
    return GreedyBot(game=GAME.name, seat=seat, num_players=players, seed=seed,
                     risk=float(kind))


def play_match(seated: Sequence[Seat], seed: int, advanced: bool) -> list[int]:
    """One match driven like the referee does; returns the ranking."""
    players = len(seated)
    state = GAME.new_initial_state(players, {"advanced": advanced})
    bots = [make_bot(kind, seat, players, seed * 10 + seat) for seat, kind in enumerate(seated)]
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            legal = state.legal_actions()
            action = bots[seat].act(state.observation(seat), legal)
            assert action in legal
            state.apply_action(action)
    return state.ranking()


def win_shares(kinds: Sequence[Seat], matches: int, advanced: bool) -> dict[Seat, float]:
    """Share of matches each kind wins (shared first places split), seats rotated."""
    shares: dict[Seat, float] = dict.fromkeys(kinds, 0.0)
    for match in range(matches):
        shift = match % len(kinds)
        seated = list(kinds[shift:]) + list(kinds[:shift])
        ranking = play_match(seated, match, advanced)
        winners = [kind for kind, place in zip(seated, ranking, strict=True) if place == 0]
        for kind in winners:
            shares[kind] += 1 / len(winners) / matches
    return shares


@pytest.mark.parametrize("advanced", [False, True])
def test_greedy_clearly_beats_random(advanced: bool) -> None:
    shares = win_shares([0.5, "random", "random"], 200, advanced)
    assert shares[0.5] > 0.6, shares


@pytest.mark.parametrize("advanced", [False, True])
def test_no_risk_level_dominates(advanced: bool) -> None:
    """Card values check: cautious (0.2) and bold (0.8) hunting both win a fair share."""
    shares = win_shares([0.2, 0.8], 200, advanced)
    assert 0.35 < shares[0.2] < 0.65, shares


@pytest.mark.parametrize("risk", [0.0, 0.5, 1.0])
def test_choose_always_returns_a_legal_action(risk: float) -> None:
    rng = random.Random(risk)
    for seed in range(30):
        state = GAME.new_initial_state(2 + seed % 3, {"advanced": seed % 2 == 1})
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            legal = state.legal_actions()
            seat = state.current_player()
            action = choose(state.observation(seat), legal, rng, risk)
            assert action in legal
            # mix in random moves so that rare phases (steals, exhaustion) come up
            state.apply_action(action if rng.random() < 0.7 else rng.choice(legal))


def test_greedy_rejects_a_risk_outside_zero_to_one() -> None:
    with pytest.raises(ValueError, match="risk"):
        GreedyBot(game=GAME.name, seat=0, num_players=3, seed=1, risk=1.5)


SHIPPED = Path(__file__).parents[2] / "engines/explorers/dinosaurs.toml"


def big_card_file(folder: Path) -> str:
    """A user's card file: the shipped cards plus a second edition of each dinosaur (28),
    one point more, so the deck is twice as long and the values differ."""
    shipped = SHIPPED.read_text("utf-8")
    extra = []
    for entry in tomllib.loads(shipped)["dinosaurs"]:
        entry = dict(entry, name=entry["name"] + " II", points=min(9, entry["points"] + 1))
        extra.append("[[dinosaurs]]\n" + "".join(
            f"{key} = {entry[key]!r}\n".replace("'", '"') for key in DINOSAUR_FIELDS))
    path = folder / "cards.toml"
    path.write_text("\n".join(extra) + "\n" + shipped, "utf-8")
    return str(path)


def first_turn_observation(options: dict[str, object]) -> dict[str, object]:
    state = GAME.new_initial_state(3, options)
    while state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    return state.observation(state.current_player())


def test_greedy_reads_the_deck_size_from_the_observation(tmp_path: Path) -> None:
    """A user's card file may make the deck any length: at an adventure's first turn the
    whole adventure lies ahead, whatever the number of cards."""
    shipped = first_turn_observation({})
    big = first_turn_observation({"cards": big_card_file(tmp_path)})
    assert shipped["deck_count"] == shipped["deck_count_at_start"] == 14
    assert big["deck_count"] == big["deck_count_at_start"] == 28
    assert Judge(big, 0.5).abandon() == Judge(shipped, 0.5).abandon()


def test_greedy_scores_with_the_engine_on_a_user_card_file(tmp_path: Path) -> None:
    """The bot's points for the holdings it sees are the engine's own (trail bonuses,
    doubling, ammunition and advantages), for a user's card file too."""
    options = {"advanced": True, "cards": big_card_file(tmp_path)}
    rng = random.Random(4)
    checked = 0
    for players in (2, 3, 4):
        state = GAME.new_initial_state(players, options)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            observation = state.observation(state.current_player())
            scorer = Scorer(observation)
            assert scorer.points(scorer.holdings) == state.points_now()
            checked += 1
            legal = state.legal_actions()
            state.apply_action(choose(observation, legal, rng, 0.5) if rng.random() < 0.7
                               else rng.choice(legal))
    assert checked > 100
