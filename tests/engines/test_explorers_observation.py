"""What a seat sees: the whole public table, the same for every seat, scored as the rules say.

"discard (faced up)", "These tokens have to be faced up in front of the players": in this
game nothing is hidden but the order of the deck, and that order does not exist until a
card is drawn. Random playouts check, at every node, that the seats see one table, that
every card is somewhere in it, that the components are conserved, and that the points
shown are the rulebook's score recomputed from the table.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_explorers_helpers import CARDS

from arena.game import CHANCE
from engines.explorers.game import ExplorersGame

GAME = ExplorersGame()


def playout_nodes(players: int, advanced: bool, seed: int) -> list[Any]:
    """Every state of one random match (chance sampled, decisions uniform), cloned."""
    state, rng, nodes = GAME.new_initial_state(players, {"advanced": advanced}), \
        random.Random(seed), []
    while not state.is_terminal():
        nodes.append(state.clone())
        if state.current_player() == CHANCE:
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return [*nodes, state]


def places(observation: dict[str, Any]) -> list[int]:
    """Every card the observation places: deck, row, discards, holdings, the Hound's find."""
    held = [card for player in observation["players"]
            for card in player["dinosaurs"] + player["advantages"]]
    row = [entry["id"] for entry in observation["row"] if entry is not None]
    hound = [] if observation["hound_card"] is None else [observation["hound_card"]]
    placed: list[int] = observation["deck"] + row + observation["discards"] + held + hound
    return placed


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (4, True)])
def test_every_seat_sees_the_same_whole_table(players: int, advanced: bool) -> None:
    """Nothing is private: the observations of two seats differ only in ``seat``; every
    card is placed exactly once (so none is missing), and the deck is listed in card order,
    which tells nothing of the draws to come."""
    for state in playout_nodes(players, advanced, seed=players)[::3]:
        seen = [state.observation(seat) for seat in range(players)]
        for seat, observation in enumerate(seen):
            assert {**observation, "seat": 0} == {**seen[0], "seat": 0}
            assert observation["seat"] == seat
        observation = seen[0]
        if observation["phase"] in ("first-player", "deal-trail-tokens"):
            continue
        assert sorted(places(observation)) == list(range(CARDS.size))
        assert observation["deck"] == sorted(observation["deck"])
        assert observation["deck_count"] == len(observation["deck"])


@pytest.mark.parametrize(("players", "advanced"), [(3, False), (3, True), (4, False)])
def test_components_are_conserved(players: int, advanced: bool) -> None:
    """"8 ammunition tokens" (6/7/8 in play), "Players begin with 6 exploration tokens",
    "10 trail tokens": ammunition only moves between the centre and the explorers,
    exploration tokens stay within 0..6, and trail tokens are only ever lost."""
    in_play = {2: 6, 3: 7, 4: 8}[players]
    for seed in range(3):
        trail = [2] * players
        for state in playout_nodes(players, advanced, seed)[40:]:
            observation = state.observation(0)
            seats = observation["players"]
            assert observation["center_ammunition"] + sum(p["ammunition"] for p in seats) \
                == in_play
            assert all(0 <= p["exploration_tokens"] <= 6 for p in seats)
            held = [len(p["trail_tokens"]) for p in seats]
            assert all(now <= before for now, before in zip(held, trail, strict=True))
            trail = held


BONUS = {"pterodactylus": 1, "iguanodon": 1, "plesiosaurus": 2, "megalosaurus": 2}


def rulebook_points(observation: dict[str, Any], seat: int) -> int:
    """The "Scoring" section and the advanced game's trail bonuses, from the table alone."""
    columns, players = observation["cards"], observation["players"]
    mine = players[seat]
    total: int = -mine["ammunition"] - len(mine["advantages"])
    for species, bonus in BONUS.items():
        held = [card for card in mine["dinosaurs"] if columns["species"][card] == species]
        if not held:
            continue
        others = [p for p in players if p["seat"] != seat and any(
            columns["species"][card] == species for card in p["dinosaurs"])]
        extra = bonus if species in mine["trail_tokens"] else 0
        value = sum(columns["points"][card] + extra for card in held)
        total += value if others else 2 * value
    return total


@pytest.mark.parametrize(("players", "advanced"), [(2, True), (3, True), (4, False)])
def test_the_points_shown_are_the_rulebooks_score(players: int, advanced: bool) -> None:
    """"Each captured dinosaur will give you as many points as indicated on its card" /
    "all the members of that species will score double" / "Each ammunition token ... Each
    advantage card ... subtracts 1 point" / the trail bonuses "BEFORE doubling": recomputed
    from the observation at every node of random matches."""
    for seed in range(4):
        for state in playout_nodes(players, advanced, 10 + seed):
            observation = state.observation(0)
            assert [p["points"] for p in observation["players"]] == [
                rulebook_points(observation, seat) for seat in range(players)]
