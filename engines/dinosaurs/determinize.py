"""A state rebuilt from a seat's observation (``Game.state_from_observation``).

Nothing of Lost Valley of the Dinosaurs is hidden but the order of the deck,
and that does not exist until a card is drawn (a chance node), so the state
is rebuilt exactly: no sampling is needed. The board comes from the
observation (the shipped one is recognised and shared, so the engine's
per-board caches keep working); the bookkeeping of the turn in progress is in
``now``.

Any observation will do, a chance node's too (the card about to be drawn, the die about to
be thrown), and it may be edited first: that is how a position is set up (README, "Setting
up a position"). :func:`engines.dinosaurs.position.check` refuses one the rules cannot
reach, naming what is wrong.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engines.dinosaurs import cards, phases, position
from engines.dinosaurs.board import TERRAINS, Board, default_board
from engines.dinosaurs.events import RESUME_NAMES
from engines.dinosaurs.observation import board_view
from engines.dinosaurs.state import DinosaursState


@functools.cache
def _shipped_view() -> dict[str, Any]:
    return board_view(default_board())


def _board(view: Mapping[str, Any] | None) -> Board:
    if view is None or view == _shipped_view():
        return default_board()
    return Board(
        names=tuple(view["names"]), terrain=tuple(TERRAINS.index(t) for t in view["terrain"]),
        neighbors=tuple(tuple(near) for near in view["neighbors"]),
        river=tuple(view["river"]), x=tuple(view["x"]), y=tuple(view["y"]),
        lairs=tuple(view["lairs"]), footprints=tuple(tuple(m) for m in view["footprints"]),
        swamp_ring=tuple(view["swamp_ring"]), swamp_exits=tuple(view["swamp_exits"]),
        swamp_monster=view["swamp_ring"][0],  # only where the monster starts: not needed now
        volcano_slope=tuple(view["volcano_slope"]), lava_start=view["lava_start"],
        lava_spaces=frozenset(view["lava_spaces"]), entries=tuple(view["entries"]),
        temple=view["temple"], temple_arrows=tuple(view["temple_arrows"]),
        caves=tuple(view["caves"]), ammo_dumps=tuple(view["ammo_dumps"]),
        source="observation")


def _bits(spaces: list[int]) -> int:
    bits = 0
    for space in spaces:
        bits |= 1 << space
    return bits


def rebuild(observation: Mapping[str, Any]) -> DinosaursState:
    """The state behind ``observation``; ``ValueError`` if it is no reachable position."""
    board = _board(observation.get("board"))
    position.check(observation, board)
    n = observation["num_players"]
    state = DinosaursState(board, n, observation["coins_to_win"])
    state.phase = phases.NAMES.index(observation["phase"])
    state.player, state.turns = observation["player"], observation["turn"]
    players = observation["players"]
    state.explorers = [at for p in players for at in p["explorers"]]
    state.carrying = [held for p in players for held in p["carrying"]]
    for field, key in (("coins_out", "coins_out"), ("secret_paths", "secret_paths"),
                       ("guns", "guns"), ("bullets", "bullets")):
        setattr(state, field, [p[key] for p in players])
    state.dinosaurs, state.monster = list(observation["dinosaurs"]), observation["swamp_monster"]
    state.lava = [False] * board.size
    for space in observation["lava"]:
        state.lava[space] = True
    state.lava_placed = observation["lava_placed"]
    state.coins = [0] * board.size
    for space, count in observation["coins"]:
        state.coins[space] = count
    state.temple_coins, state.bullet_supply = observation["temple_coins"], \
        observation["bullet_supply"]
    state.deck = [observation["deck"][slug] for slug in cards.SLUGS]
    state.discards = [observation["discards"][slug] for slug in cards.SLUGS]
    _turn(state, observation["now"])
    state.winner = observation["winner"]
    state.end_reason = observation["end_reason"] or ""
    if state.phase == phases.DRAW:
        # a draw node with an empty deck: the discards become the deck before the draw, as
        # they do when a turn starts (ruling 4); otherwise the node would have no outcome
        state.reshuffle_if_depleted()
    elif state.phase == phases.MOVE_PICK and not state.move_choices():
        # nothing to move, fire or take: the turn ends, as it does in play (ruling 7); the
        # seat would otherwise be on move with no legal action
        state.end_turn()
    return state


def _turn(state: DinosaursState, now: Mapping[str, Any]) -> None:
    state.card = cards.SLUGS.index(now["card"]) if now["card"] is not None else -1
    state.mover, state.dinosaur = now["explorer"], now["dinosaur"]
    state.roll, state.steps_left = now["roll"], now["steps_left"]
    state.visited = _bits(now["visited"])
    state.dinosaur_moves = tuple(now["dinosaur_moves"])
    state.dinosaurs_moved = _bits(now["dinosaurs_moved"])
    state.lava_left, state.lifted = now["lava_left"], now["lifted"]
    state.resume = RESUME_NAMES.index(now["resume"]) if now["resume"] is not None else -1
    state.captured, state.path_explorer = tuple(now["captured"]), now["path_explorer"]
    state.walked = [_bits(spaces) for spaces in now["walked"]]
