"""What a seat sees: the whole table (only the deck's order is hidden, and it does not exist).

Spaces are board indices; an explorer's position is a space, -1 (outside the
valley) or -2 (dead). The board itself (names, terrain, adjacency, the
special spaces) comes along in ``board``, so a bot needs nothing but its
observation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.game import CHANCE, TERMINAL, Static
from engines.dinosaurs import cards, phases
from engines.dinosaurs.board import TERRAINS, Board
from engines.dinosaurs.events import RESUME_NAMES

if TYPE_CHECKING:
    from engines.dinosaurs.table import Table


_BOARD_VIEWS: dict[int, tuple[Board, Static]] = {}


def board_view(board: Board) -> Static:
    """The board as JSON-able lists, built once per board and shared by every observation
    (read-only: see :class:`arena.game.Static`); found by identity, not by hashing."""
    kept = _BOARD_VIEWS.get(id(board))
    if kept is None or kept[0] is not board:
        if len(_BOARD_VIEWS) >= 4:  # a card or board file read anew for each match: keep a few
            _BOARD_VIEWS.clear()
        kept = _BOARD_VIEWS[id(board)] = (board, Static(_board_lists(board)))
    return kept[1]


def _board_lists(board: Board) -> dict[str, Any]:
    return {
        "names": list(board.names),
        "terrain": [TERRAINS[kind] for kind in board.terrain],
        "neighbors": [list(near) for near in board.neighbors],
        "river": list(board.river),
        "x": list(board.x), "y": list(board.y),
        "lairs": list(board.lairs),
        "footprints": [list(marks) for marks in board.footprints],
        "swamp_ring": list(board.swamp_ring), "swamp_exits": list(board.swamp_exits),
        "volcano_slope": list(board.volcano_slope), "lava_start": board.lava_start,
        "lava_spaces": sorted(board.lava_spaces),
        "entries": list(board.entries), "temple": board.temple,
        "temple_arrows": list(board.temple_arrows), "caves": list(board.caves),
        "ammo_dumps": list(board.ammo_dumps),
    }


def _players(table: Table) -> list[dict[str, Any]]:
    return [{
        "seat": seat,
        "explorers": [table.explorers[number] for number in table.own(seat)],
        "carrying": [table.carrying[number] for number in table.own(seat)],
        "coins_out": table.coins_out[seat],
        "alive": table.alive(seat),
        "secret_paths": table.secret_paths[seat],
        "guns": table.guns[seat],
        "bullets": table.bullets[seat],
    } for seat in range(table.num_players)]


def _turn(table: Table) -> dict[str, Any]:
    return {
        "card": cards.SLUGS[table.card] if table.card >= 0 else None,
        "explorer": table.mover,
        "dinosaur": table.dinosaur,
        "roll": table.roll,
        "steps_left": table.steps_left,
        "visited": [space for space in range(table.board.size) if table.visited >> space & 1],
        "dinosaur_moves": list(table.dinosaur_moves),
        "dinosaurs_moved": [dinosaur for dinosaur in range(len(table.dinosaurs))
                            if table.dinosaurs_moved >> dinosaur & 1],
        "lava_left": table.lava_left,
        "lifted": table.lifted,
        "captured": list(table.captured),
        "path_explorer": table.path_explorer,
        "walked": [_spaces(walked) for walked in table.walked],
        "resume": RESUME_NAMES[table.resume] if table.resume >= 0 else None,
    }


def build(table: Table, seat: int) -> dict[str, Any]:
    """The observation of ``seat``: a JSON-able dict of the whole public table."""
    current = TERMINAL if table.phase == phases.OVER else (
        table.player if table.phase >= phases.MOVE_PICK else CHANCE)
    return {
        "game": "lost-valley-of-the-dinosaurs",
        "seat": seat,
        "num_players": table.num_players,
        "coins_to_win": table.coins_to_win,
        "phase": phases.NAMES[table.phase],
        "current_player": current,
        "player": table.player,
        "turn": table.turns,
        "players": _players(table),
        "dinosaurs": table.dinosaurs[:],
        "swamp_monster": table.monster,
        "lava": [space for space, hot in enumerate(table.lava) if hot],
        "lava_placed": table.lava_placed,
        "coins": [[space, count] for space, count in enumerate(table.coins) if count],
        "temple_coins": table.temple_coins,
        "deck": dict(zip(cards.SLUGS, table.deck, strict=True)),
        "deck_count": sum(table.deck),
        "discards": dict(zip(cards.SLUGS, table.discards, strict=True)),
        "bullet_supply": table.bullet_supply,
        "now": _turn(table),
        "winner": table.winner,
        "end_reason": table.end_reason or None,
        "board": board_view(table.board),
    }


def _spaces(mask: int) -> list[int]:
    """The spaces of a bit mask, in increasing order: its set bits alone are visited (a look
    at every space of the board, for each explorer, made the observation four times
    dearer, 94 µs against 23)."""
    spaces = []
    while mask:
        low = mask & -mask
        spaces.append(low.bit_length() - 1)
        mask ^= low
    return spaces
