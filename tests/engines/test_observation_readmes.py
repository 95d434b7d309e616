"""What the engine READMEs say of an observation's values, where a bot written from them
alone had to guess: checked over random games of each engine, at every decision."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from arena.game import State
from arena.plugins import require_registry

SPECIES = ("pterodactylus", "iguanodon", "plesiosaurus", "megalosaurus")
EXPLORER_IDS = range(162, 178)


def decisions(game: str, options: dict[str, Any], games: int = 4
              ) -> Iterator[tuple[State, dict[str, Any], int]]:
    """(state, observation of the seat on move, the action it then plays), every decision."""
    found = require_registry().game(game)
    for seed in range(games):
        rng = random.Random(seed)
        state = found.new_initial_state(2 + seed % 3, options)
        while not state.is_terminal():
            if state.current_player() < 0:
                ids, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, weights)[0])
                continue
            action = rng.choice(state.legal_actions())
            yield state, state.observation(state.current_player()), action
            state.apply_action(action)


def test_explorers_trail_tokens_hunt_and_card_columns_are_as_the_readme_says() -> None:
    """engines/explorers/README.md: trail tokens are species names; an advantage's `kind` is
    its `effect`, its `species` "", its `difficulty` -1; the hunt's throws and last roll."""
    hunts = 0
    for _, observation, _ in decisions("explorers-of-the-lost-valley", {"advanced": True}):
        cards = observation["cards"]
        for player in observation["players"]:
            assert set(player["trail_tokens"]) <= set(SPECIES)
        for card in observation["row"]:
            if card is not None and card["type"] == "advantage":
                assert cards["kind"][card["id"]] == card["effect"]
                assert cards["species"][card["id"]] == "" and cards["difficulty"][card["id"]] == -1
            elif card is not None:
                assert cards["kind"][card["id"]] == "dinosaur"
                assert cards["species"][card["id"]] == card["species"] in SPECIES
        hunt = observation["hunt"]
        if observation["phase"] == "hunt-reroll":
            hunts += 1
            assert hunt["rolls"] >= 1 and 2 <= hunt["last_roll"] <= 12
            assert hunt["card"] == observation["row"][hunt["slot"]]["id"]
    assert hunts > 0


def test_dinosaurs_alive_is_a_count_and_explorers_are_numbered_seat_times_four() -> None:
    """engines/dinosaurs/README.md: `alive` counts the living explorers; `now.explorer` is
    the explorer chosen with `162 + seat * 4 + k`."""
    picked = None
    steps = 0
    for _, observation, action in decisions("lost-valley-of-the-dinosaurs", {}):
        for player in observation["players"]:
            assert player["alive"] == sum(at != -2 for at in player["explorers"])
        if observation["phase"] == "move-step" and picked is not None:
            assert observation["now"]["explorer"] == picked
            steps += 1
        if observation["phase"] == "move-pick":
            picked = action - 162 if action in EXPLORER_IDS else None
        elif observation["phase"] != "move-step":
            picked = None
        board = observation["board"]
        assert isinstance(board["temple"], int) and len(board["footprints"]) == len(board["lairs"])
    assert steps > 0


def test_lost_explorers_members_on_locations_are_location_ids() -> None:
    """engines/lost_explorers/README.md: `members_on_locations` holds the ids of the
    locations where the seat's members stand; `glasses` are slots of the track."""
    for _, observation, _ in decisions("lost-explorers", {}, games=2):
        for player in observation["players"]:
            standing = [place["id"] for place in observation["locations"]
                        if place["member"] == player["seat"]]
            assert player["members_on_locations"] == standing
        for track in observation["tracks"]:
            assert all(2 <= slot <= track["length"] for slot in track["glasses"])


def test_explorers_adventure_and_turn_count_as_the_readme_says() -> None:
    """engines/explorers/README.md: `adventure` is the adventure under way from 1, `turn` the
    turn under way in it from 1 (counted again each adventure; extra actions stay in one turn),
    `first_player` the seat that opened the adventure. The README named the three only."""
    last: tuple[int, int, int] | None = None
    opened: dict[int, int] = {}
    for _, observation, _ in decisions("explorers-of-the-lost-valley", {}):
        adventure, turn = observation["adventure"], observation["turn"]
        seat = observation["current_player"]
        assert adventure >= 1 and turn >= 1
        if last is None or adventure != last[0]:
            assert turn == 1 and (last is None or adventure in (last[0] + 1, 1))
            opened[adventure] = seat
            assert observation["first_player"] == seat
        elif turn == last[1]:
            assert seat == last[2]  # an extra action or a step of one turn: the same seat
        else:
            assert turn == last[1] + 1
        assert observation["first_player"] == opened[adventure]
        last = (adventure, turn, seat)


def test_dinosaurs_turn_counts_every_seats_finished_turns_from_zero() -> None:
    """engines/dinosaurs/README.md: `turn` counts the turns finished by all the seats together,
    from 0; `player` is whose turn it is. The README named `turn` only. Read at every node,
    chance ones too: a turn may hold no decision at all (a card with nothing to choose, then
    nothing to move), and it is counted all the same (fifth pass: only decisions were read,
    and a match that met such a turn saw `turn` go up by two)."""
    found = require_registry().game("lost-valley-of-the-dinosaurs")
    for seed in range(3):
        rng = random.Random(seed)
        state = found.new_initial_state(2 + seed % 3, {})
        last: tuple[int, int] | None = None
        while True:
            observation = state.observation(0)
            turn, player, phase = observation["turn"], observation["player"], observation["phase"]
            if phase != "first-player":
                if last is None:
                    assert turn == 0
                elif turn == last[0]:
                    assert player == last[1]
                else:  # a seat whose explorers are all dead is skipped, uncounted
                    assert turn == last[0] + 1 and phase in ("draw", "over")
                last = (turn, player)
            if state.is_terminal():
                break
            if state.current_player() < 0:
                ids, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
