"""Readable names for action ids (``action_to_string``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.dinosaurs import actions as A
from engines.dinosaurs import phases as P
from engines.dinosaurs.board import TERRAINS
from engines.dinosaurs.cards import NAMES
from engines.dinosaurs.table import EXPLORERS

if TYPE_CHECKING:
    from engines.dinosaurs.table import Table

_SPACE_VERBS = {
    P.MOVE_STEP: "step to", P.WATER_STEP: "run for water to", P.SHOOT_PUSH: "push the dinosaur to",
    P.LAIR_PICK: "take the captives to lair", P.DINO_STEP: "dinosaur steps to",
    P.LAVA_PLACE: "lava flows onto", P.LAVA_LIFT: "lift the lava on",
    P.LAVA_DROP: "put the lava on", P.PTERA_DROP: "pteranodon drops onto",
    P.FALL_DROP: "falls into the swamp at", P.ESCAPE_DROP: "escape from the swamp to",
    P.FIGHT_DROP: "escape the lair to footprint", P.SECRET_DROP: "leave the temple by cave",
}
_DONE_MEANINGS = {
    P.MOVE_PICK: "pass (no explorer can move)", P.AFTER_MOVE: "end the turn",
    P.PTERA_PICK: "leave the pteranodon in its nest", P.ESCAPE_PICK: "do not escape",
    P.LAVA_LIFT: "stop moving lava",
}
_EXPLORER_VERBS = {
    P.MOVE_PICK: "move", P.PTERA_PICK: "pteranodon carries", P.FALL_PICK: "falls in:",
    P.ESCAPE_PICK: "escapes:", P.FIGHT_PICK: "frees from the lair:",
    P.WATER_PICK: "runs for water:",
}


def space_label(table: Table, space: int) -> str:
    """A space's name and terrain, e.g. ``d9 (land)``."""
    board = table.board
    if not 0 <= space < board.size:
        return f"space #{space}"
    return f"{board.names[space]} ({TERRAINS[board.terrain[space]]})"


def explorer_label(number: int) -> str:
    return f"explorer {number % EXPLORERS} of seat {number // EXPLORERS}"


def _dinosaur_label(table: Table, dinosaur: int) -> str:
    if 0 <= dinosaur < len(table.dinosaurs):
        return f"dinosaur {dinosaur} (at {space_label(table, table.dinosaurs[dinosaur])})"
    return f"dinosaur {dinosaur}"


def describe_action(table: Table, action: int) -> str:
    """A stable, human-readable name of ``action`` in ``table``'s phase; anything that is no
    action id (not an int, or a bool, which ``apply_action`` refuses too) is named unknown."""
    if not isinstance(action, int) or isinstance(action, bool):
        return f"unknown action {action!r}"
    family = A.kind(action)
    if family == "space":
        return f"{_SPACE_VERBS.get(table.phase, 'space')} {space_label(table, action)}"
    if family == "exit":
        return "leave the valley"
    if family == "done":
        return f"done: {_DONE_MEANINGS.get(table.phase, 'pass')}"
    if family == "explorer":
        verb = _EXPLORER_VERBS.get(table.phase, "choose")
        return f"{verb} {explorer_label(action - A.EXPLORER)}"
    if family == "dinosaur":
        return f"move {_dinosaur_label(table, action - A.DINOSAUR)}"
    if family == "shoot":
        return f"fire a bullet at {_dinosaur_label(table, action - A.SHOOT)}"
    if family == "secret":
        return f"take the secret path with your explorer {action - A.SECRET}"
    if family == "card":
        return f"draw {NAMES[action - A.CARD]}"
    if family == "die":
        return f"die {action - A.DIE}"
    if family == "dice":
        return f"dice total {action - A.DICE}"
    if family == "first-player":
        return f"seat {action - A.FIRST_PLAYER} goes first"
    return f"unknown action {action}"
