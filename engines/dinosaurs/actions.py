"""The action encoding: one fixed id range per kind of move.

Decisions and chance outcomes have disjoint ids. A space id means "this
space" in whatever the phase asks for (the next step of an explorer or a
dinosaur, where lava goes, where the pteranodon drops someone, which lair a
captor goes to):

=========  ==============================================================
id         meaning
=========  ==============================================================
0-159      space 0..159 of the board (its index in the board file)
160        step out of the valley (from an entry space)
161        done / decline (stop shooting, do not use an optional card)
162-177    choose explorer 0..15 (seat * 4 + explorer number)
178-183    choose dinosaur 0..5 (to move it with the card)
184-189    fire a bullet at dinosaur 0..5
190-193    take the secret path with your explorer 0..3
194-207    chance: draw an adventure card of kind 0..13
208-213    chance: one die shows 1..6
214-224    chance: two dice total 2..12
225-228    chance: seat 0..3 goes first
=========  ==============================================================
"""

from __future__ import annotations

from engines.dinosaurs.board import MAX_SPACES
from engines.dinosaurs.cards import CARDS

EXPLORERS_PER_PLAYER = 4
MAX_PLAYERS = 4
DINOSAURS = 6

SPACE = 0
EXIT = MAX_SPACES
DONE = EXIT + 1
EXPLORER = DONE + 1
DINOSAUR = EXPLORER + MAX_PLAYERS * EXPLORERS_PER_PLAYER
SHOOT = DINOSAUR + DINOSAURS
SECRET = SHOOT + DINOSAURS
CARD = SECRET + EXPLORERS_PER_PLAYER
DIE = CARD + len(CARDS) - 1
"""``DIE + face`` for a face of 1..6."""
DICE = DIE + 7 - 2
"""``DICE + total`` for a total of 2..12 on two dice."""
FIRST_PLAYER = DICE + 13
NUM_ACTIONS = FIRST_PLAYER + MAX_PLAYERS

TWO_DICE = {total: 6 - abs(total - 7) for total in range(2, 13)}
"""Ways (out of 36) to throw each total on two six-sided dice."""
DIE_OUTCOMES = [(DIE + face, 1 / 6) for face in range(1, 7)]
DICE_OUTCOMES = [(DICE + total, ways / 36) for total, ways in TWO_DICE.items()]

_RANGES = (
    ("space", SPACE, EXIT), ("exit", EXIT, DONE), ("done", DONE, EXPLORER),
    ("explorer", EXPLORER, DINOSAUR), ("dinosaur", DINOSAUR, SHOOT), ("shoot", SHOOT, SECRET),
    ("secret", SECRET, CARD), ("card", CARD, DIE + 1), ("die", DIE + 1, DICE + 2),
    ("dice", DICE + 2, FIRST_PLAYER), ("first-player", FIRST_PLAYER, NUM_ACTIONS),
)


def kind(action: int) -> str:
    """The family an id belongs to (see the table above), or "unknown"."""
    for name, start, stop in _RANGES:
        if start <= action < stop:
            return name
    return "unknown"
