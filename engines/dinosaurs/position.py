"""Is an observation a position the rules can reach? Checked before a state is rebuilt from it.

``Game.state_from_observation`` is also how a test or an analysis sets up a position: take
an observation, edit it (put an explorer on a space, move a dinosaur, lay lava), rebuild.
An edit that leaves the table inconsistent (a coin made or lost, two dinosaurs on one
space, an explorer under lava, a space the board does not have) would give a state the
rules never reach, so it is refused here with a ``ValueError`` naming what is wrong.
What an observation only derives from the rest (``alive``, ``deck_count``,
``current_player``) is not read: the rebuilt state works it out again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.dinosaurs import cards, phases
from engines.dinosaurs.board import LAIR, NO_DINOSAUR, SLOPE, SWAMP, TEMPLE, Board
from engines.dinosaurs.table import (
    BULLETS,
    COINS,
    DEAD,
    EXPLORERS,
    LAVA_PIECES,
    MAX_TURNS,
    OUTSIDE,
)


def _fail(problem: str) -> ValueError:
    return ValueError(f"dinosaurs: state_from_observation: {problem}")


def _space(board: Board, where: str, space: Any) -> int:
    if not isinstance(space, int) or isinstance(space, bool) or not 0 <= space < board.size:
        raise _fail(f"{where} is {space!r}, not a space of the board (0-{board.size - 1})")
    return space


def check(observation: Mapping[str, Any], board: Board) -> None:
    """Raise ``ValueError`` unless ``observation`` is a consistent position on ``board``."""
    n = observation["num_players"]
    if not isinstance(n, int) or not 2 <= n <= 4 or len(observation["players"]) != n:
        raise _fail(f"num_players is {n!r} with {len(observation['players'])} entries in "
                    "players: 2-4 seats, one entry each")
    _turn_order(observation, n)
    for number, spaces in enumerate(observation["now"]["walked"]):
        for space in spaces:
            _space(board, f"a space explorer {number} walked into this turn", space)
    dinosaurs = _dinosaurs(observation, board)
    lava = _lava(observation, board)
    for number, at in enumerate(dinosaurs):
        if at in lava:
            raise _fail(f"dinosaur {number} stands on lava at {board.names[at]} ({at}): no "
                        "dinosaur may land on lava, and lava is never placed on one")
    _explorers(observation, board, dinosaurs, lava)
    _counts(observation, board)
    _going_on(observation, board, lava)


def _turn_order(observation: Mapping[str, Any], n: int) -> None:
    phase, player = observation["phase"], observation["player"]
    if phase not in phases.NAMES:
        raise _fail(f"phase {phase!r} is not one of {', '.join(phases.NAMES)}")
    if not isinstance(player, int) or not 0 <= player < n:
        raise _fail(f"player is {player!r}, not a seat (0-{n - 1})")
    walked = observation["now"]["walked"]
    if not isinstance(walked, list) or len(walked) != EXPLORERS * n:
        raise _fail(f"now.walked holds {len(walked)} entries, not one per explorer "
                    f"({EXPLORERS * n})")


def _dinosaurs(observation: Mapping[str, Any], board: Board) -> list[int]:
    dinosaurs = observation["dinosaurs"]
    if len(dinosaurs) != len(board.lairs):
        raise _fail(f"dinosaurs holds {len(dinosaurs)} positions, not {len(board.lairs)}")
    for number, at in enumerate(dinosaurs):
        _space(board, f"dinosaur {number}", at)
        if board.terrain[at] in NO_DINOSAUR:
            raise _fail(f"dinosaur {number} is on {board.names[at]} ({at}), a space no "
                        "dinosaur enters (swamp, temple, slope)")
    if len(set(dinosaurs)) != len(dinosaurs):
        raise _fail(f"two dinosaurs share a space: {dinosaurs}")
    monster = _space(board, "swamp_monster", observation["swamp_monster"])
    if board.terrain[monster] != SWAMP:
        raise _fail(f"the swamp monster is on {board.names[monster]} ({monster}), not on the "
                    f"swamp ring {list(board.swamp_ring)}")
    return list(dinosaurs)


def _lava(observation: Mapping[str, Any], board: Board) -> set[int]:
    lava = {_space(board, "a lava piece", space) for space in observation["lava"]}
    placed = observation["lava_placed"]
    lifted = observation["now"]["lifted"]
    in_hand = 1 if observation["phase"] == "lava-drop" and lifted >= 0 else 0
    if len(lava) != len(observation["lava"]) or not 0 <= placed <= LAVA_PIECES \
            or len(lava) + in_hand != placed:
        raise _fail(f"lava_placed is {placed!r} but lava lists {len(observation['lava'])} "
                    f"space(s): it counts the pieces out of the cone (at most {LAVA_PIECES})")
    slope, start = board.volcano_slope, board.lava_start
    poured = set(slope[:min(placed, len(slope))])
    if lava & set(slope) != poured:
        raise _fail(f"lava on the slope must be its first {len(poured)} space(s) "
                    f"{sorted(poured)} (A, B, ... in volcano_slope's order)")
    valley = lava - poured
    for space in valley:
        if space not in board.lava_spaces:
            raise _fail(f"lava on {board.names[space]} ({space}), outside lava_spaces")
    if valley and start not in valley:
        raise _fail(f"lava in the valley without G (lava_start, {start})")
    reached, frontier = {start} & valley, [start] if start in valley else []
    while frontier:
        for near in board.neighbors[frontier.pop()]:
            if near in valley and near not in reached:
                reached.add(near)
                frontier.append(near)
    if reached != valley:
        raise _fail(f"lava on {sorted(valley - reached)} is not joined to G ({start}) by "
                    "lava: the flow is one coherent structure")
    return lava


def _explorers(observation: Mapping[str, Any], board: Board, dinosaurs: list[int],
               lava: set[int]) -> None:
    capture_pending = observation["phase"] == "lair-pick"
    for seat, player in enumerate(observation["players"]):
        spots: Sequence[int] = player["explorers"]
        held: Sequence[bool] = player["carrying"]
        if len(spots) != EXPLORERS or len(held) != EXPLORERS:
            raise _fail(f"seat {seat} needs {EXPLORERS} explorers and {EXPLORERS} carrying flags")
        for k, (at, carrying) in enumerate(zip(spots, held, strict=True)):
            who = f"explorer {k} of seat {seat}"
            if at in (OUTSIDE, DEAD):
                if carrying:
                    state = "outside" if at == OUTSIDE else "dead"
                    raise _fail(f"{who} carries a coin but is {state}")
                continue
            _space(board, who, at)
            terrain = board.terrain[at]
            if terrain == SLOPE or at in lava:
                raise _fail(f"{who} stands on {board.names[at]} ({at}): slope or lava")
            if at == observation["swamp_monster"]:
                raise _fail(f"{who} shares the swamp monster's space {at}")
            if at in dinosaurs and terrain != LAIR and not capture_pending:
                raise _fail(f"{who} shares dinosaur {dinosaurs.index(at)}'s space {at} outside "
                            "a lair (a dinosaur entering a space captures everyone there)")
            if carrying and terrain == LAIR:
                raise _fail(f"{who} carries a coin in a lair: a captive leaves its coin behind")


def _counts(observation: Mapping[str, Any], board: Board) -> None:
    players = observation["players"]
    abandoned = 0
    for space, count in observation["coins"]:
        _space(board, "an abandoned coin", space)
        if not isinstance(count, int) or count < 1:
            raise _fail(f"coins holds [{space}, {count!r}]: a count is at least 1")
        if board.terrain[space] in (TEMPLE, LAIR, SLOPE):
            raise _fail(f"an abandoned coin on {board.names[space]} ({space}): a coin left in "
                        "the temple goes back on the roof (temple_coins), and none is ever "
                        "left in a lair or on the slope")
        abandoned += count
    carried = sum(sum(1 for held in p["carrying"] if held) for p in players)
    out = sum(p["coins_out"] for p in players)
    roof = observation["temple_coins"]
    if min(roof, out, *(p["coins_out"] for p in players)) < 0 \
            or roof + abandoned + carried + out != COINS:
        raise _fail(f"{roof} coin(s) on the temple roof, {abandoned} abandoned, {carried} "
                    f"carried and {out} brought out make {roof + abandoned + carried + out}, "
                    f"not the game's {COINS}")
    deck, discards = observation["deck"], observation["discards"]
    in_play = observation["now"]["card"]
    kept = {"secret-path": sum(p["secret_paths"] for p in players),
            "gun": sum(p["guns"] for p in players)}
    for slug, count in zip(cards.SLUGS, cards.COUNTS, strict=True):
        total = deck[slug] + discards[slug] + kept.get(slug, 0) + (slug == in_play)
        if min(deck[slug], discards[slug]) < 0 or total != count:
            raise _fail(f"{slug}: {deck[slug]} in the deck, {discards[slug]} discarded, "
                        f"{kept.get(slug, 0)} kept{', 1 in play' if slug == in_play else ''} "
                        f"make {total}, not the rulebook's {count}")
    bullets = observation["bullet_supply"] + sum(p["bullets"] for p in players)
    if bullets != BULLETS or min(observation["bullet_supply"],
                                 *(p["bullets"] for p in players)) < 0:
        raise _fail(f"bullet_supply and the seats' bullets make {bullets}, not the sheet's "
                    f"{BULLETS}")
    for seat, player in enumerate(players):
        if player["bullets"] and not player["guns"]:
            raise _fail(f"seat {seat} holds {player['bullets']} bullet(s) but no gun: bullets "
                        "are taken only once a gun is drawn (guns: 1, from the deck)")


def _going_on(observation: Mapping[str, Any], board: Board, lava: set[int]) -> None:
    """A match not over has no winner yet, and a turn starts (``draw``) only for a seat with
    an explorer alive, with a coin still to bring out, before the hard bound."""
    players, target = observation["players"], observation["coins_to_win"]
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= COINS:
        raise _fail(f"coins_to_win is {target!r}, not 1-{COINS} (1: short game, 3: long game)")
    phase = observation["phase"]
    if phase == "over":
        return
    for seat, player in enumerate(players):
        if player["coins_out"] >= target:
            raise _fail(f"seat {seat} has brought out {player['coins_out']} coin(s) of the "
                        f"{target} needed: the match is over (phase 'over'), not at {phase!r}")
    if phase != "draw":
        return
    seat = observation["player"]
    if all(at == DEAD for at in players[seat]["explorers"]):
        raise _fail(f"seat {seat} draws a card with no explorer alive: a seat whose four "
                    "explorers are dead takes no more turns")
    carried = sum(sum(1 for held in p["carrying"] if held) for p in players)
    # a coin under the lava on G (never lifted) can never be claimed again (ruling 26)
    buried = board.lava_start if board.lava_start in lava else -1
    lying = sum(count for space, count in observation["coins"] if space != buried)
    if observation["temple_coins"] + lying + carried == 0:
        raise _fail("no coin is left to bring out (none on the roof, lying outside the lava "
                    "on G or carried): the match ended with the turn before")
    if observation["turn"] >= MAX_TURNS:
        raise _fail(f"turn {observation['turn']}: the match ends after {MAX_TURNS} turns")
