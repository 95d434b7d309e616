"""Checks that an observation describes a table that can exist, before it is rebuilt.

``Game.state_from_observation`` is also how a position is set up by hand (a rule
scenario, a puzzle for a bot): take a seat's observation, edit it, rebuild it. An edit
that contradicts itself (a member put on a location but still counted in front, a
mission held twice) would otherwise give a state whose play makes no sense, so
:func:`check` refuses it with a ``ValueError`` naming the field at fault. Fields the
engine derives (``can_send``, ``tokens``, ``members_on_locations``, the mission details
beside each id) are not read at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engines.lost_explorers.components import (
    CLUE_TILES,
    CLUES_TO_WIN,
    MISSIONS,
    STARTING_PER_VEHICLE,
    TOKENS_PER_VEHICLE,
    VEHICLES,
    Components,
)
from engines.lost_explorers.table import (
    BONUS_SLOT,
    FIRST_ROUND_MEMBERS,
    MARKERS_IN_PLAY,
    STACK_SIZE,
)

MEMBERS, MEMBERS_WITH_BONUS = 3, 4
DECISIONS = ("flip-starting-token", "phase-1", "phase-2", "retrieve-member", "catch-up-token")


def _fail(message: str) -> ValueError:
    return ValueError(f"lost-explorers: state_from_observation: {message}")


def check(observation: Mapping[str, Any], components: Components) -> None:
    """Raise ``ValueError`` if ``observation`` cannot be a table of this game."""
    n = observation["num_players"]
    players: Sequence[Mapping[str, Any]] = observation["players"]
    if n not in MARKERS_IN_PLAY or len(players) != n:
        raise _fail(f"num_players {n!r} with {len(players)} entries in 'players'")
    if observation["phase"] not in DECISIONS:
        raise _fail(f"phase {observation['phase']!r} is not a seat's decision "
                    f"(one of {', '.join(DECISIONS)})")
    _frame(observation, n)
    _turn(observation, n)
    _locations(observation, components, n)
    for seat, player in enumerate(players):
        _player(observation, components, seat, player)
    _missions(observation, players)
    _stacks(observation, components, players)
    _box(observation, components, players)
    _clues(observation, components, players)
    completing = observation["completing"]
    if (completing is not None) != (observation["phase"] in ("retrieve-member",
                                                             "catch-up-token")):
        raise _fail("'completing' names a mission exactly while a member or a catch-up "
                    "token is chosen")
    _decision(observation, components)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _frame(observation: Mapping[str, Any], n: int) -> None:
    """The table's frame: seats, whole numbers where counts are read, two Leaders a player,
    two Equipment areas and two stacks ("2 Equipment areas", "2 Transport areas"), a member
    on a location of a seat or ``null``, mission ids as whole numbers."""
    for key in ("seat", "current_player", "first_player"):
        if not _whole(observation[key]) or not 0 <= observation[key] < n:
            raise _fail(f"{key} {observation[key]!r} is not a seat of {n}")
    for key in ("equipment_areas", "stacks"):
        if not isinstance(observation[key], list) or len(observation[key]) != 2:
            raise _fail(f"{key} holds {len(observation[key])} entries: the box has 2 of them")
    counts = [("sent_this_turn", observation["sent_this_turn"]),
              ("clue_tiles_left", observation["clue_tiles_left"])]
    counts += [(f"equipment_areas[{a}]", sent) for a, sent in enumerate(
        observation["equipment_areas"])]
    counts += [(f"stacks[{i}].count", stack["count"]) for i, stack in enumerate(
        observation["stacks"])]
    for seat, player in enumerate(observation["players"]):
        counts += [(f"seat {seat}: {key}", player[key])
                   for key in ("members_in_front", "members_total", "clues")]
        if not isinstance(player["leaders"], list) or len(player["leaders"]) != 2:
            raise _fail(f"seat {seat}: leaders {player['leaders']!r}: two Leaders, the slot "
                        "of each on track 0 and track 1")
        counts += [(f"seat {seat}: leaders[{track}]", slot)
                   for track, slot in enumerate(player["leaders"])]
        counts += [(f"seat {seat}: missions id", mission["id"]) for mission in player["missions"]]
    counts += [("completed_missions", m) for m in observation["completed_missions"]]
    counts += [(f"location {place['id']}: member", place["member"])
               for place in observation["locations"] if place["member"] is not None]
    for field, value in counts:
        if not _whole(value):
            raise _fail(f"{field} is {value!r}, not a whole number")


def _vehicle_counts(field: str, counts: Mapping[str, Any]) -> None:
    """A ``{vehicle: count}`` table: known vehicle names (one left out counts 0), no
    negative count."""
    unknown = sorted(set(counts) - set(VEHICLES))
    if unknown:
        raise _fail(f"{field} {dict(counts)!r}: unknown vehicles {unknown} "
                    f"(the vehicles are {', '.join(VEHICLES)})")
    if any(not isinstance(count, int) or count < 0 for count in counts.values()):
        raise _fail(f"{field} {dict(counts)!r}: each count a whole number, none negative")


def _decision(observation: Mapping[str, Any], components: Components) -> None:
    """The decision named by ``phase`` has a move to make: a starting token to flip, a
    mission being completed that the player on move holds and fulfils (a member to bring
    back), a token in the discard area to take."""
    phase, seat = observation["phase"], observation["current_player"]
    player = observation["players"][seat]
    if phase == "flip-starting-token" and not any(player["vehicles"].values()):
        raise _fail(f"phase {phase!r}: seat {seat} has no starting token left to flip")
    completing = observation["completing"]
    if completing is None:
        return
    mission = completing["id"]
    if mission not in [held["id"] for held in player["missions"]]:
        raise _fail(f"completing mission {mission!r} is not one that seat {seat}, on move, "
                    "holds")
    if phase == "retrieve-member":
        places = observation["locations"]
        needed = components.mission_locations[mission]
        if not all(places[p]["validated"] or places[p]["member"] == seat for p in needed) or all(
                places[p]["validated"] for p in needed):
            raise _fail(f"completing mission {mission} in phase {phase!r}: seat {seat} needs a "
                        "member on each of its locations without a marker, one at least")
    elif not any(observation["discard"].values()):
        raise _fail(f"phase {phase!r} with no token in the discard area to take")
    _clue_tiles_due(observation, components, completing, seat)


def _clue_tiles_due(observation: Mapping[str, Any], components: Components,
                    completing: Mapping[str, Any], seat: int) -> None:
    """The clue tiles the mission being completed still brings (``completing.clue_tiles``,
    0 if left out): none before its Leader moves (``retrieve-member``), at most the glasses
    its Leader has reached while its catch-up token is chosen."""
    due = completing.get("clue_tiles", 0)
    track = components.mission_track[completing["id"]]
    slot = observation["players"][seat]["leaders"][track]
    reached = sum(1 for glass in components.glasses[track] if glass <= slot)
    most = reached if observation["phase"] == "catch-up-token" else 0
    if not isinstance(due, int) or isinstance(due, bool) or not 0 <= due <= most:
        raise _fail(f"completing.clue_tiles {due!r} in phase {observation['phase']!r}: "
                    f"0 to {most} (the glasses its Leader has reached, none before it moves)")


def _turn(observation: Mapping[str, Any], n: int) -> None:
    """The turn and the members sent in it: turns go clockwise from the first player, so
    in the first round (turns 0 to n - 1) turn ``t`` is seat ``first_player + t``'s; members
    on the Equipment areas were sent this turn; the first turns' limits hold."""
    turn, seat, first = observation["turn"], observation["current_player"], observation[
        "first_player"]
    if not isinstance(turn, int) or turn < 0:
        raise _fail(f"turn {turn!r}: turns count from 0")
    if observation["phase"] == "flip-starting-token" and turn != 0:
        raise _fail(f"turn {turn} in phase 'flip-starting-token': the starting tokens are "
                    "flipped at setup, before turn 0 is played")
    first_round = turn < n and observation["phase"] != "flip-starting-token"
    if first_round and (first + turn) % n != seat:
        raise _fail(f"turn {turn} of the first round is seat {(first + turn) % n}'s (the first "
                    f"player, seat {first}, plays turn 0), not seat {seat}'s")
    sent, on_areas = observation["sent_this_turn"], sum(observation["equipment_areas"])
    if not isinstance(sent, int) or sent < on_areas:
        raise _fail(f"sent_this_turn {sent!r} is fewer than the {on_areas} members on the "
                    "Equipment areas, sent this turn")
    total = observation["players"][seat]["members_total"]
    if sent > total:
        raise _fail(f"sent_this_turn {sent} is more than the {total} members of seat {seat}, "
                    "on move (members are retrieved only before the first is sent)")
    if first_round and sent > FIRST_ROUND_MEMBERS[turn]:
        raise _fail(f"sent_this_turn {sent} at turn {turn}: the first round allows "
                    f"{FIRST_ROUND_MEMBERS[turn]}")


def _locations(observation: Mapping[str, Any], components: Components, n: int) -> None:
    validated = [place["id"] for place in observation["locations"] if place["validated"]]
    if not set(validated) <= set(components.markers) or len(validated) != MARKERS_IN_PLAY[n]:
        raise _fail(f"{MARKERS_IN_PLAY[n]} of the locations with a marker "
                    f"{sorted(components.markers)} are validated with {n} players, "
                    f"not {sorted(validated)}")
    for place in observation["locations"]:
        member = place["member"]
        if member is not None and not 0 <= member < n:
            raise _fail(f"locations[{place['id']}].member: a member of seat {member!r}")
        if member is not None and place["validated"]:
            raise _fail(f"locations[{place['id']}].member on a validated location")
    areas = observation["equipment_areas"]
    if any(not 0 <= sent <= MEMBERS_WITH_BONUS for sent in areas):
        raise _fail(f"equipment_areas {areas!r}: 0 to 4 members each")
    _vehicle_counts("discard", observation["discard"])


def _player(observation: Mapping[str, Any], components: Components, seat: int,
            player: Mapping[str, Any]) -> None:
    total, front = player["members_total"], player["members_in_front"]
    mapped = sum(place["member"] == seat for place in observation["locations"])
    on_areas = sum(observation["equipment_areas"]) if seat == observation["current_player"] else 0
    if total not in (MEMBERS, MEMBERS_WITH_BONUS) or not 0 <= front == total - mapped - on_areas:
        raise _fail(f"seat {seat}: members_in_front {front} + {mapped} on locations + "
                    f"{on_areas} on Equipment areas must make members_total {total} (3, "
                    "or 4 with the bonus member)")
    for track, slot in enumerate(player["leaders"]):
        if not 1 <= slot <= components.track_length[track]:
            raise _fail(f"seat {seat}: leaders[{track}] on slot {slot} of track {track} "
                        f"(slots 1..{components.track_length[track]})")
    if total == MEMBERS_WITH_BONUS and min(player["leaders"]) < BONUS_SLOT:
        raise _fail(f"seat {seat}: members_total 4 with leaders {player['leaders']!r}: the 4th "
                    f"member comes with both Leaders on slot {BONUS_SLOT} or beyond")
    _vehicle_counts(f"seat {seat}: vehicles", player["vehicles"])
    if not 0 <= player["clues"] < CLUES_TO_WIN:
        raise _fail(f"seat {seat}: clues {player['clues']!r} (0 to {CLUES_TO_WIN - 1}: "
                    f"{CLUES_TO_WIN} win the game at once)")


def _missions(observation: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> None:
    held = [mission["id"] for player in players for mission in player["missions"]]
    every = Counter(held + list(observation["completed_missions"]))
    twice = sorted(m for m, count in every.items() if count > 1)
    if twice:
        raise _fail(f"missions {twice} are held or completed twice")
    if any(not 0 <= m < MISSIONS for m in every):
        raise _fail(f"a mission id outside 0..{MISSIONS - 1}")


def _stacks(observation: Mapping[str, Any], components: Components,
            players: Sequence[Mapping[str, Any]]) -> None:
    """Each stack token has a mission of its own vehicle on its back: a vehicle whose stack
    missions are all held or completed has no token left in the stacks (one taken mission
    side up would have no mission to show). Fewer unseen missions than tokens, though no
    table shows it either, is let through: a scenario hands a player a mission without
    taking a token out of the stacks, and only a token taken mission side up after the
    unseen missions of its vehicle are used up would find none (README, "Setting up a
    position")."""
    for index, stack in enumerate(observation["stacks"]):
        unknown = sorted(set(stack["visible"]) - set(VEHICLES))
        if unknown:
            raise _fail(f"stacks[{index}].visible: unknown vehicles {unknown} (the vehicles "
                        f"are {', '.join(VEHICLES)})")
        if not 0 <= stack["count"] <= STACK_SIZE:
            raise _fail(f"stacks[{index}].count {stack['count']!r}: a Transport area holds 0 "
                        f"to {STACK_SIZE} tokens (the 64 tokens are divided equally)")
    seen = {mission["id"] for player in players for mission in player["missions"]}
    seen.update(observation["completed_missions"])
    for vehicle, name in enumerate(VEHICLES):
        left = sum(stack["visible"].count(name) for stack in observation["stacks"])
        if left and all(m in seen for m in components.stack_missions(vehicle)):
            raise _fail(f"stacks: {left} {name} tokens left but every {name} mission is held "
                        "or completed: none is left for their backs")


def _box(observation: Mapping[str, Any], components: Components,
         players: Sequence[Mapping[str, Any]]) -> None:
    """No more Vehicle/Mission tokens of a vehicle than the box holds: 16 in the stacks'
    pile and 4 starting tokens ("64 Vehicle/Mission tokens", "16 Vehicle/Mission starting
    tokens"), counted in the stacks, in front of the players (vehicle side up, and mission
    side up: a held mission's token is of its mission's vehicle) and in the discard area. A
    played game holds 16 plus one starting token per player; the put-away starting tokens
    are let through, so that a scenario may hand a player a few vehicles without taking them
    out of the stacks (README, "Setting up a position")."""
    most = TOKENS_PER_VEHICLE + STARTING_PER_VEHICLE
    for vehicle, name in enumerate(VEHICLES):
        stacks = sum(stack["visible"].count(name) for stack in observation["stacks"])
        front = sum(player["vehicles"].get(name, 0) for player in players)
        held = sum(components.mission_vehicle[mission["id"]] == vehicle
                   for player in players for mission in player["missions"])
        discard = observation["discard"].get(name, 0)
        if stacks + front + held + discard > most:
            raise _fail(f"{stacks + front + held + discard} {name} tokens on the table "
                        f"({stacks} in the stacks, {front} in front of the players vehicle "
                        f"side up, {held} held mission side up, {discard} in the discard "
                        f"area): the box holds {most} ({TOKENS_PER_VEHICLE} + "
                        f"{STARTING_PER_VEHICLE} starting tokens); take some out of the "
                        "stacks")


def _clues(observation: Mapping[str, Any], components: Components,
           players: Sequence[Mapping[str, Any]]) -> None:
    mine = observation["my_clues"]
    seat = observation["seat"]
    if len(mine) != players[seat]["clues"]:
        raise _fail(f"my_clues {mine!r} and players[{seat}].clues "
                    f"{players[seat]['clues']!r} differ")
    if Counter(mine) - Counter(components.clue_numbers):
        raise _fail(f"my_clues {mine!r} are not clue tiles of the box "
                    f"{list(components.clue_numbers)!r}")
    named = Counter(mine)
    for other, player in enumerate(players):
        numbers = player.get("clue_numbers")
        if numbers is None:
            continue
        if (not isinstance(numbers, list) or not all(_whole(n) for n in numbers)
                or len(numbers) != player["clues"]):
            raise _fail(f"seat {other}: clue_numbers {numbers!r}: one number per clue held "
                        f"(clues {player['clues']!r})")
        if other == seat:
            if Counter(numbers) != Counter(mine):
                raise _fail(f"seat {seat}: clue_numbers {numbers!r} and my_clues {mine!r} "
                            "differ")
            continue
        named += Counter(numbers)
    if named - Counter(components.clue_numbers):
        raise _fail(f"the clue numbers named (my_clues and players' clue_numbers) are more "
                    f"tiles than the box's {list(components.clue_numbers)!r} hold")
    taken = sum(player["clues"] for player in players)
    if taken + observation["clue_tiles_left"] != CLUE_TILES:
        raise _fail(f"{taken} clue tiles held and clue_tiles_left "
                    f"{observation['clue_tiles_left']!r} do not make {CLUE_TILES}")
