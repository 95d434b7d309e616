"""Seventh rulebook pass over Lost Explorers: an independent referee of whole games.

Written from the rulebook (``rules/lost-explorers.txt``), the README (action ids,
observation) and RULINGS.md only, through the public API: the game from the registry, the
documented action ids, ``legal_actions``, ``chance_outcomes``, ``observation``, ``ranking``
and ``scores``. Nothing here imports the engine's modules.

:class:`Referee` says, from what a seat sees, which decisions the rulebook offers in each
phase, what each chance node may bring, and what each decision must do to the table: an
Equipment action, an Expedition action (a displacement included), a completed mission
followed to its end (the member back, the Leader, the catch-up token, the discard, the 4th
member, the clue tiles), the end of a turn (the members on the Equipment areas, the next
seat clockwise), and the end of the game with its ranking. Seeded games of 2, 3 and 4
players are played to the end against it, some to the clues, some to the empty stacks.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from arena_bot_greedy import GreedyBot

from arena.bot import Bot
from arena.game import CHANCE, Game, InvalidOptions, State
from arena.plugins import require_registry

# Action ids, from the README's table.
RETRIEVE, EQUIP, EXPEDITION, END_PHASE_1, COMPLETE, END_TURN = 0, 12, 28, 76, 77, 157
CATCH_UP, FLIP, VALIDATE, REVEAL, FIRST_PLAYER, MISSION, CLUE = (
    158, 162, 166, 178, 182, 186, 266)
VEHICLES = ("train", "car", "boat", "airship")
FIRST_ROUND = (1, 2, 3, 3)
"""Members each seat may use in its first turn, by its place in the turn order: "The first
player to play can only use only 1 Expedition Member, the second player only 2 ... The third
and fourth players can use all 3"."""


def game() -> Game:
    return require_registry().game("lost-explorers")


def equip(area: int, sent: int, side: int) -> int:
    return EQUIP + 8 * area + 2 * (sent - 1) + side


def expedition(place: int, vehicle: str) -> int:
    return EXPEDITION + 4 * place + VEHICLES.index(vehicle)


class Referee:
    """The rulebook's answers, computed from a seat's observation alone."""

    def legal(self, seen: dict[str, Any]) -> list[int]:
        """The decisions the rulebook offers the seat on move."""
        me = seen["current_player"]
        player = seen["players"][me]
        phase = seen["phase"]
        if phase == "flip-starting-token":
            # "Flip one starting token of your choice, Mission side up."
            return [FLIP + v for v, name in enumerate(VEHICLES) if player["vehicles"][name]]
        if phase == "phase-1":
            return self._phase_one(seen, me, player)
        if phase == "phase-2":
            # "You must have an Expedition Member on EACH of the Locations depicted by the
            # Mission token ... Locations with a Validated Location marker ... are
            # automatically validated."
            places = seen["locations"]
            done = [COMPLETE + m["id"] for m in player["missions"]
                    if all(places[p]["member"] == me or places[p]["validated"]
                           for p in m["locations"])]
            return [*sorted(set(done)), END_TURN]
        if phase == "retrieve-member":
            # "Retrieve one of your Expedition Members on one of the Locations needed ...
            # You can choose which Expedition Member you retrieve."
            places = seen["locations"]
            return sorted(RETRIEVE + p for p in seen["completing"]["locations"]
                          if places[p]["member"] == me and not places[p]["validated"])
        if phase == "catch-up-token":
            # "take a token of your choice, Vehicle face up, from the discard area"
            return [CATCH_UP + v for v, name in enumerate(VEHICLES) if seen["discard"][name]]
        raise AssertionError(f"no decision is made in phase {phase}")

    def _phase_one(self, seen: dict[str, Any], me: int, player: dict[str, Any]) -> list[int]:
        legal = []
        if not seen["sent_this_turn"]:
            # "When this phase starts, you can choose to retrieve some or all of your
            # Expedition Members from Locations of the World Map."
            legal += [RETRIEVE + p for p in player["members_on_locations"]]
        can_use = player["members_in_front"]
        if seen["turn"] < seen["num_players"]:
            place_in_order = (me - seen["first_player"]) % seen["num_players"]
            can_use = min(can_use, FIRST_ROUND[place_in_order] - seen["sent_this_turn"])
        for area in (0, 1):
            # "Move 1, 2, 3 or 4 of your Expedition Members in front of you to an empty
            # "Equipment" area to gain respectively the 1st, 2nd, 3rd or 4th token of the
            # stack." "When a stack is empty, you can no longer take a token from that stack."
            if not seen["equipment_areas"][area]:
                for sent in range(1, min(can_use, 4, seen["stacks"][area]["count"]) + 1):
                    legal += [equip(area, sent, 0), equip(area, sent, 1)]
        if can_use > 0:
            for place in seen["locations"]:
                # "You can only do this if you have in front of you ALL the Vehicles (2 or 3)
                # shown by the routes" and "never ... to a Location that has a Validated
                # Location marker!"; a location holds one member (ruling 12).
                needs = Counter(place["route"])
                if (not place["validated"] and place["member"] != me
                        and all(player["vehicles"][v] >= n for v, n in needs.items())):
                    legal += [expedition(place["id"], v) for v in sorted(needs, key=VEHICLES.index)]
        return [*sorted(legal), END_PHASE_1]

    def chance(self, seen: dict[str, Any], outcomes: list[tuple[int, float]]) -> None:
        """What a chance node may bring, and with which odds."""
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        phase = seen["phase"]
        if phase == "draw-clue":
            # Each tile drawn from those left (ruling 20).
            assert len(outcomes) == seen["clue_tiles_left"]
            assert all(CLUE <= a < CLUE + 13 for a, _ in outcomes)
        elif phase == "reveal-mission":
            box = seen["box"]
            held = {m["id"] for p in seen["players"] for m in p["missions"]}
            gone = held | set(seen["completed_missions"])
            kinds = {box["missions"][a - MISSION]["vehicle"] for a, _ in outcomes}
            starting = {a - MISSION >= box["starting_from"] for a, _ in outcomes}
            assert len(kinds) == 1 and len(starting) == 1, "one token's mission is drawn"
            assert not gone & {a - MISSION for a, _ in outcomes}, "a mission shows up twice"
            assert len({p for _, p in outcomes}) == 1, "every mission left equally likely"


def _advance_chance(state: State, referee: Referee, rng: random.Random) -> None:
    while not state.is_terminal() and state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        referee.chance(state.observation(0), outcomes)
        actions, weights = zip(*outcomes, strict=True)
        state.apply_action(rng.choices(actions, weights)[0])


def _bots(players: int, seed: int, sensible: bool) -> list[Bot] | None:
    """Half the games between ``greedy`` bots (they mostly end by the clues), the other half
    at random (mostly by the stacks), so that games end both ways."""
    if not sensible:
        return None
    return [GreedyBot(game="lost-explorers", seat=seat, num_players=players, seed=seed + seat)
            for seat in range(players)]


def _check_expedition(before: dict[str, Any], after: dict[str, Any], action: int) -> None:
    """"Move 1 of your Expedition Members in front of you to a Location ... From the Vehicle
    tokens you have just used, pick one and discard it ... If one of the other players'
    Expedition Member is already on this Location, take its place, give the player their
    Expedition Member back and your Vehicle token meant for discarding (Vehicle side up)." """
    me = before["current_player"]
    place, vehicle = divmod(action - EXPEDITION, 4)
    name = VEHICLES[vehicle]
    was = before["locations"][place]["member"]
    assert after["locations"][place]["member"] == me
    assert after["players"][me]["members_in_front"] == before["players"][me]["members_in_front"] - 1
    assert after["players"][me]["vehicles"][name] == before["players"][me]["vehicles"][name] - 1
    if was is None:
        assert after["discard"][name] == before["discard"][name] + 1
    else:
        theirs, had = after["players"][was], before["players"][was]
        assert theirs["members_in_front"] == had["members_in_front"] + 1
        assert theirs["vehicles"][name] == had["vehicles"][name] + 1
        assert after["discard"] == before["discard"]


def _check_equip(before: dict[str, Any], after: dict[str, Any], action: int) -> None:
    """The K-th token of the stack is gained on the side chosen, the tokens below it move
    up, and the area is occupied for the rest of the turn."""
    me = before["current_player"]
    area, rest = divmod(action - EQUIP, 8)
    sent, side = rest // 2 + 1, rest % 2
    taken = before["stacks"][area]["visible"][sent - 1]
    left = before["stacks"][area]["visible"][:sent - 1] + before["stacks"][area]["visible"][sent:]
    assert after["stacks"][area]["visible"] == left
    assert after["equipment_areas"][area] == sent
    mine, had = after["players"][me], before["players"][me]
    assert mine["members_in_front"] == had["members_in_front"] - sent
    if side == 0:
        assert mine["vehicles"][taken] == had["vehicles"][taken] + 1
        assert len(mine["missions"]) == len(had["missions"])
    else:
        assert mine["vehicles"] == had["vehicles"]
        new = [m for m in mine["missions"] if m not in had["missions"]]
        assert len(new) == 1 and new[0]["vehicle"] == taken, "the token's mission side, now up"


def _check_mission(before: dict[str, Any], after: dict[str, Any], mission: int) -> None:
    """A completed mission, followed to its end (the rulebook's Phase 2)."""
    me = before["current_player"]
    held = next(m for m in before["players"][me]["missions"] if m["id"] == mission)
    places = before["locations"]
    needed = sum(1 for p in held["locations"] if not places[p]["validated"])
    track = held["track"]
    length = before["tracks"][track]["length"]
    had, mine = before["players"][me], after["players"][me]
    start, other = had["leaders"][track], had["leaders"][1 - track]
    # "move the Expedition Leader forward ... by a number of slots equal to the number of
    # Expedition Members needed"; a track ends on its last slot (ruling 17).
    end = min(start + needed, length)
    assert mine["leaders"][track] == end
    assert mine["leaders"][1 - track] == other
    # "Retrieve one of your Expedition Members on one of the Locations needed".
    mine_before = set(had["members_on_locations"])
    back = mine_before - set(mine["members_on_locations"])
    assert len(back) == (1 if needed else 0) and back <= set(held["locations"])
    # "If you move forward an Expedition Leader whose position was equal or lower to your
    # other Expedition Leader's, take a token of your choice, Vehicle face up, from the
    # discard area." (the slot before the move, ruling 18)
    catch_up = end > start and start <= other and sum(before["discard"].values()) > 0
    vehicles_gained = sum(mine["vehicles"].values()) - sum(had["vehicles"].values())
    assert vehicles_gained == int(catch_up)
    # "Discard the Mission token in the discard area next to the box."
    assert mission not in [m["id"] for m in mine["missions"]]
    assert mission in after["completed_missions"]
    assert mine["tokens"] == had["tokens"] - 1 + int(catch_up)
    assert sum(after["discard"].values()) == sum(before["discard"].values()) + 1 - int(catch_up)
    # "BONUS: If both your Expedition Leaders reach the 4th slot of each track, you can take
    # the 4th Expedition Member".
    bonus = had["members_total"] == 3 and min(mine["leaders"]) >= 4
    assert mine["members_total"] == had["members_total"] + int(bonus)
    assert mine["members_in_front"] == had["members_in_front"] + len(back) + int(bonus)
    # "If one of your Expedition Leaders gets to a slot with a magnifying glass, take a
    # "Clue" tile." (reached or passed, ruling 19); the 4th ends the game (ruling 22).
    glasses = sum(1 for slot in before["tracks"][track]["glasses"] if start < slot <= end)
    expected = min(had["clues"] + glasses, 4)
    assert mine["clues"] == expected
    assert len(after["my_clues"]) == expected
    if expected == 4:
        assert after["end"] == {**after["end"], "by": "clues", "winner": me}


def _check_end_of_turn(before: dict[str, Any], after: dict[str, Any]) -> None:
    """"Finally, retrieve the Expedition Members on Equipment areas and place them in front
    of you." Then the next seat clockwise, unless both stacks are empty: "Each turn is
    played clockwise, one player at a time, until ... both token piles are empty"."""
    me, n = before["current_player"], before["num_players"]
    mine, had = after["players"][me], before["players"][me]
    assert after["equipment_areas"] == [0, 0]
    assert mine["members_in_front"] == had["members_in_front"] + sum(before["equipment_areas"])
    if not any(stack["count"] for stack in before["stacks"]):
        assert after["end"] is not None and after["end"]["by"] == "stacks"
    elif before["turn"] == 399:  # the safety cap (ruling 23), ranked as the empty stacks
        assert after["end"] is not None and after["end"]["by"] == "turn-limit"
    else:
        assert after["end"] is None
        assert after["current_player"] == (me + 1) % n
        assert after["turn"] == before["turn"] + 1
        assert after["phase"] == "phase-1" and after["sent_this_turn"] == 0


def _expected_ranking(last: dict[str, Any]) -> list[int]:
    """"You win the game if that second Expedition Leader is more advanced than that of
    your opponents. If tied, you win if you have fewer tokens in front of you"; seats equal
    on both share their place (ruling 24). After a clue win: the winner, then clues held,
    then the same two keys."""
    players = last["players"]
    if last["end"]["by"] == "clues":
        winner = last["end"]["winner"]
        keys = [(int(p["seat"] == winner), p["clues"], min(p["leaders"]), -p["tokens"])
                for p in players]
    else:
        keys = [(0, 0, min(p["leaders"]), -p["tokens"]) for p in players]
    return [sum(1 for other in keys if other > key) for key in keys]


def _finish_mission(state: State, referee: Referee, rng: random.Random, me: int) -> None:
    """Play a completed mission's chance nodes and questions (the member that comes back,
    the catch-up token), each question checked, until ``me`` is back in phase 2 or the game
    is over."""
    questions = ("retrieve-member", "catch-up-token")
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            _advance_chance(state, referee, rng)
        elif state.observation(me)["phase"] in questions:
            legal = state.legal_actions()
            assert legal == referee.legal(state.observation(me))
            state.apply_action(rng.choice(legal))
        else:
            return


def play_one(players: int, seed: int) -> str:
    """One seeded game under the referee; returns how it ended."""
    rng = random.Random(f"pass7-{players}-{seed}")
    referee, bots = Referee(), _bots(players, seed, seed % 2 == 0)
    state = game().new_initial_state(players)
    _advance_chance(state, referee, rng)
    while not state.is_terminal():
        seen = state.observation(state.current_player())
        legal = state.legal_actions()
        assert legal == referee.legal(seen), (seen["phase"], legal, referee.legal(seen))
        action = (rng.choice(legal) if bots is None
                  else bots[seen["current_player"]].act(state.observation(seen["seat"]), legal))
        state.apply_action(action)
        if COMPLETE <= action < END_TURN:
            _finish_mission(state, referee, rng, seen["current_player"])
            _check_mission(seen, state.observation(seen["current_player"]), action - COMPLETE)
            continue
        _advance_chance(state, referee, rng)
        after = state.observation(seen["current_player"])
        if EXPEDITION <= action < END_PHASE_1:
            _check_expedition(seen, after, action)
        elif EQUIP <= action < EXPEDITION:
            _check_equip(seen, after, action)
        elif action == END_TURN:
            _check_end_of_turn(seen, after)
    last = state.observation(0)
    assert state.ranking() == _expected_ranking(last)
    assert state.scores() == [float(p["clues"]) for p in last["players"]]
    return last["end"]["by"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_play_as_the_independent_referee_says(players: int) -> None:
    """Forty seeded games per player count, every decision's legal actions, every chance
    node's odds and every move's effect on the table checked by :class:`Referee`; both ways
    the rulebook ends a game occur: "until one of the players has gathered 4 clues or both
    token piles are empty"."""
    endings = Counter(play_one(players, seed) for seed in range(40))
    assert endings["clues"] > 0 and endings["stacks"] > 0, endings


def test_a_component_file_that_is_not_utf8_text_is_refused_in_one_line(tmp_path: Path) -> None:
    """Bad input gets a clear one-line message: a component file saved in Latin-1 (or any
    binary file) is refused as the other unreadable files are, with ``InvalidOptions`` naming
    the file and the first byte at fault. It used to escape as Python's ``UnicodeDecodeError``."""
    latin1 = tmp_path / "components.toml"
    latin1.write_bytes('markers = ["Chichén Itzá"]\n'.encode("latin-1"))
    with pytest.raises(InvalidOptions) as refused:
        game().new_initial_state(2, {"components": str(latin1)})
    message = str(refused.value)
    assert "\n" not in message
    assert str(latin1) in message and "is not UTF-8 text (byte 0xe9 at offset" in message


@pytest.mark.parametrize("seat", [-1, 2, None, "0"])
def test_an_observation_for_no_seat_of_the_game_is_refused(seat: object) -> None:
    """``observation(seat)`` holds what that seat may see, its own clue numbers among it.
    A seat outside the game is refused in one line: ``-1`` (the value of ``CHANCE``) used to
    read as the last seat and show that seat's clue numbers."""
    state = game().new_initial_state(2)
    with pytest.raises(ValueError, match=r"^lost-explorers: no seat .* in a game of 2$"):
        state.observation(seat)  # type: ignore[arg-type]
    assert state.observation(1)["seat"] == 1
