"""The phases of a match: what kind of action comes next.

Phases below :data:`FLIP` are chance nodes; the others are decisions of the
player on move, except :data:`OVER`.
"""

from __future__ import annotations

VALIDATE, REVEAL, FIRST_PLAYER, MISSION_DRAW, CLUE_DRAW = range(5)
FLIP, PHASE_1, PHASE_2, RETRIEVE_PICK, CATCH_UP, OVER = range(5, 11)

NAMES = ("validate-location", "reveal-vehicle", "first-player", "reveal-mission", "draw-clue",
         "flip-starting-token", "phase-1", "phase-2", "retrieve-member", "catch-up-token",
         "over")
"""Phase names as shown in observations, by phase id."""
