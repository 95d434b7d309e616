"""The phases of a match: what kind of action comes next.

Phases below :data:`MOVE_PICK` are chance nodes; the others are decisions of
the player on move, except :data:`OVER`.
"""

from __future__ import annotations

FIRST_PLAYER, DRAW, MOVE_ROLL, WATER_ROLL = range(4)
(MOVE_PICK, MOVE_STEP, AFTER_MOVE, SHOOT_PUSH, LAIR_PICK, DINO_PICK, DINO_STEP, LAVA_PLACE,
 LAVA_LIFT, LAVA_DROP, PTERA_PICK, PTERA_DROP, FALL_PICK, FALL_DROP, ESCAPE_PICK, ESCAPE_DROP,
 FIGHT_PICK, FIGHT_DROP, WATER_PICK, WATER_STEP, SECRET_DROP, OVER) = range(4, 26)

NAMES = ("first-player", "draw", "move-roll", "water-roll", "move-pick", "move-step",
         "after-move", "shoot-push", "lair-pick", "dinosaur-pick", "dinosaur-step",
         "lava-place", "lava-lift", "lava-drop", "pteranodon-pick", "pteranodon-drop",
         "fall-pick", "fall-drop", "escape-pick", "escape-drop", "fight-pick", "fight-drop",
         "water-pick", "water-step", "secret-drop", "over")
"""Phase names as shown in observations, by phase id."""
