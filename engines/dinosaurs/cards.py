"""The 54 adventure cards: their kinds, counts and what the dinosaur cards move.

The deck is a multiset of card kinds (a count per kind); a draw is a chance
node over the kinds left, each with its count's share. The counts are the
rulebook's.
"""

from __future__ import annotations

CARDS: tuple[tuple[str, int], ...] = (
    ("Volcano Erupts!", 7),
    ("Pteranodon Swoops!", 6),
    ("The Swamp Monster is Disturbed!", 6),
    ("One Member Falls into the Swamp!", 6),
    ("Escape from the Swamp!", 1),
    ("Restless Dinosaurs!", 6),
    ("Expedition Disturbs the Undergrowth!", 5),
    ("Encounter Grazing Dinosaurs!", 4),
    ("Danger Ahead!", 3),
    ("Dinosaur Attack!", 1),
    ("Dinosaurs Fight!", 3),
    ("Your Expedition is Short of Water!", 2),
    ("Discovered a Secret Path to the Temple!", 2),
    ("You Have Found a Gun!", 2),
)
"""(name, copies) per card kind, indexed by kind id."""

NAMES = tuple(name for name, _ in CARDS)
COUNTS = tuple(count for _, count in CARDS)
DECK_SIZE = sum(COUNTS)

(VOLCANO, PTERANODON, SWAMP_MONSTER, FALLS_INTO_SWAMP, ESCAPE_SWAMP, RESTLESS, UNDERGROWTH,
 GRAZING, DANGER_AHEAD, DINOSAUR_ATTACK, DINOSAURS_FIGHT, SHORT_OF_WATER, SECRET_PATH,
 GUN) = range(len(CARDS))

KEPT = frozenset({SECRET_PATH, GUN})
"""Cards the drawer keeps instead of discarding."""

DINOSAUR_MOVES: dict[int, tuple[int, ...]] = {
    RESTLESS: (2, 2, 2),
    UNDERGROWTH: (1, 1, 1, 1, 1, 1),
    GRAZING: (1, 1, 1),
    DANGER_AHEAD: (2, 2, 2, 1, 1, 1),
    DINOSAUR_ATTACK: (3, 1, 1, 1),
}
"""Spaces each chosen dinosaur moves, one entry per dinosaur, in the order they are chosen.

"All the Dinosaurs move 1 space each" is one entry per dinosaur on the board (six)."""

SLUGS = ("volcano", "pteranodon", "swamp-monster", "falls-into-swamp", "escape-swamp",
         "restless", "undergrowth", "grazing", "danger-ahead", "dinosaur-attack",
         "dinosaurs-fight", "short-of-water", "secret-path", "gun")
"""Short stable names of the kinds, as used in observations."""
