"""The phases of a match: what kind of action comes next.

Phases below :data:`TURN` are chance nodes; the others are decisions of the
player on move, except :data:`OVER`.
"""

from __future__ import annotations

FIRST_PLAYER, DEAL_TRAIL, SETUP_DISCARD, REVEAL, HOUND_REVEAL, HUNT_ROLL, STEAL_DIE = range(7)
(TURN, REROLL, EXHAUSTED, STEAL_PICK, TURN_END, AMMUNITION_CHOICE, HOUND_CHOICE, STEAL_VICTIM,
 OVER) = range(7, 16)

NAMES = ("first-player", "deal-trail-tokens", "setup-discard", "reveal", "hound-reveal",
         "hunt-roll", "steal-die", "turn", "hunt-reroll", "exhausted", "steal-pick", "turn-end",
         "ammunition-box", "hound-capture", "steal-victim", "over")
"""Phase names as shown in observations, by phase id."""
