"""The action encoding: one fixed id range per kind of move.

Decisions and chance outcomes have disjoint ids, so an id alone says what
happened (the state only adds names to it):

======  =========================================================
id      meaning
======  =========================================================
0, 1    take row[0] / row[1]: hunt the dinosaur or take the advantage
2, 3    discard row[0] / row[1]
4       go back to the base camp
5       abandon the adventure
6       pay 2 exploration tokens for an extra action this turn
7       hunt: take an ammunition token and roll again
8       hunt: stop rolling and accept the failure
9-12    steal: discard a trail token of species 0..3
13-44   steal card 0..31 (from the player asked)
45-76   chance: draw card 0..31 from the deck
77-87   chance: two dice total 2..12 (a hunt throw, before bonuses)
88-93   chance: one die 1..6 (a steal)
94-97   chance: seat 0..3 is the first player
98-101  chance: deal a trail token of species 0..3
102     end the turn without buying an extra action
103     Ammunition Box: put all your used ammunition back in the centre
104     Ammunition Box: keep your used ammunition
105     Hound: capture the revealed dinosaur
106     Hound: let the revealed dinosaur go (it replaces the Hound in the row)
107-110 steal: ask seat 0..3 (before the die)
======  =========================================================

Ids 0-101 are those of the first release; later decisions were added after them.
"""

from __future__ import annotations

from engines.explorers.cards import MAX_CARDS, SPECIES

TAKE = 0
DISCARD = 2
BASE_CAMP = 4
ABANDON = 5
EXTRA_ACTION = 6
REROLL = 7
STOP_HUNT = 8
STEAL = 9
STEAL_CARD = STEAL + len(SPECIES)
DRAW = STEAL_CARD + MAX_CARDS
ROLL = DRAW + MAX_CARDS - 2
"""``ROLL + total`` for a total of 2..12 on two dice."""
DIE = ROLL + 12
"""``DIE + face`` for a face of 1..6."""
FIRST_PLAYER = DIE + 7
TRAIL_DEAL = FIRST_PLAYER + 4
END_TURN = TRAIL_DEAL + len(SPECIES)
RETURN_AMMUNITION = END_TURN + 1
KEEP_AMMUNITION = RETURN_AMMUNITION + 1
HOUND_CAPTURE = KEEP_AMMUNITION + 1
HOUND_RELEASE = HOUND_CAPTURE + 1
STEAL_FROM = HOUND_RELEASE + 1
NUM_ACTIONS = STEAL_FROM + 4

TWO_DICE = {total: 6 - abs(total - 7) for total in range(2, 13)}
"""Ways (out of 36) to throw each total on two six-sided dice."""

ROLL_OUTCOMES = [(ROLL + total, ways / 36) for total, ways in TWO_DICE.items()]
DIE_OUTCOMES = [(DIE + face, 1 / 6) for face in range(1, 7)]

FIXED_NAMES = {
    BASE_CAMP: "go back to the base camp",
    ABANDON: "abandon the adventure",
    EXTRA_ACTION: "pay 2 exploration tokens for an extra action",
    REROLL: "take an ammunition token and roll again",
    STOP_HUNT: "stop hunting (the hunt fails)",
    END_TURN: "end the turn (no extra action)",
    RETURN_AMMUNITION: "Ammunition Box: put your used ammunition back in the centre",
    KEEP_AMMUNITION: "Ammunition Box: keep your used ammunition",
    HOUND_CAPTURE: "Hound: capture the revealed dinosaur",
    HOUND_RELEASE: "Hound: let the revealed dinosaur go",
}


_RANGES = (
    ("steal", STEAL, STEAL_CARD),
    ("steal-card", STEAL_CARD, DRAW),
    ("draw", DRAW, ROLL + 2),
    ("roll", ROLL + 2, DIE + 1),
    ("die", DIE + 1, FIRST_PLAYER),
    ("first-player", FIRST_PLAYER, TRAIL_DEAL),
    ("trail-deal", TRAIL_DEAL, END_TURN),
    ("steal-from", STEAL_FROM, NUM_ACTIONS),
)


def kind(action: int) -> str:
    """The family an id belongs to: take, discard, fixed, steal, steal-card, draw, roll, die,
    first-player, trail-deal, steal-from, or unknown (outside ``[0, NUM_ACTIONS)``)."""
    if not 0 <= action < NUM_ACTIONS:
        return "unknown"
    if action < DISCARD:
        return "take"
    if action < BASE_CAMP:
        return "discard"
    if action in FIXED_NAMES:
        return "fixed"
    return next(name for name, start, stop in _RANGES if start <= action < stop)
