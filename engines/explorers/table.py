"""The table of a match: every component's position, compact and cheap to copy.

Cards are ids into the shared :class:`~engines.explorers.cards.CardSet`; the
deck is the sorted list of the cards still in it (its order does not exist
until a card is drawn). :class:`Table` holds the data and answers questions
about it; the rules that change it live in :mod:`engines.explorers.rules`.
"""

from __future__ import annotations

from typing import Self

from arena.game import CHANCE, TERMINAL
from engines.explorers.cards import TRAIL_TOKENS, CardSet
from engines.explorers.phases import FIRST_PLAYER, OVER, TURN
from engines.explorers.scoring import adventure_points

SETUP_DISCARDS = {2: 3, 3: 2, 4: 1}
AMMUNITION = {2: 6, 3: 7, 4: 8}
EXPLORATION_TOKENS = 6
EXTRA_ACTION_COST = 2
MAX_AMMUNITION_PER_HUNT = 2
MAX_TURNS_PER_ADVENTURE = 200
"""Safety cap: an adventure ends (and is scored) once this many turns were played."""
MAX_ADVENTURES = 12
"""Safety cap on adventures; never reached, as each adventure awards a trophy."""

_SLOTS = ("cards", "num_players", "advanced", "phase", "player", "first_player", "adventure",
          "turns", "deck", "row", "discards", "center_ammunition", "exploration_tokens",
          "ammunition", "dinosaurs", "advantages", "allied", "abandoned", "trophies",
          "trail_tokens", "trail_pool", "dealt", "setup_left", "actions_left", "extra_bought",
          "passing", "discarded", "stole", "discard_locked", "steal_locked", "revealed",
          "hunt_slot", "hunt_rolls", "hunt_ammunition", "last_roll", "steal_victim", "steal_roll",
          "history", "trophy_history", "final_tokens")


def _copied(value: object) -> object:
    """``value`` with its lists copied (nested lists too); anything else is immutable."""
    if type(value) is not list:
        return value
    if value and type(value[0]) is list:
        return [_copied(item) for item in value]
    return value[:]


class Table:
    """The components on the table and the bookkeeping of the turn in progress."""

    __slots__ = _SLOTS

    cards: CardSet
    num_players: int
    advanced: bool
    phase: int
    player: int
    first_player: int
    adventure: int
    turns: int
    deck: list[int]
    row: list[int]
    discards: list[int]
    center_ammunition: int
    exploration_tokens: list[int]
    ammunition: list[int]
    dinosaurs: list[list[int]]
    advantages: list[list[int]]
    allied: list[bool]
    """Per seat: holds an Allies taken from the row, so +1 to every throw (not the Hound's)."""
    abandoned: list[bool]
    trophies: list[int]
    trail_tokens: list[list[int]]
    trail_pool: list[int]
    dealt: int
    setup_left: int
    actions_left: int
    extra_bought: bool
    passing: bool
    """The turn passes once the move resolves, whatever actions are left (a failed hunt)."""
    discarded: bool
    stole: bool
    discard_locked: bool
    steal_locked: bool
    revealed: int
    """The dinosaur the Hound revealed, while its taker decides; else -1."""
    hunt_slot: int
    hunt_rolls: int
    hunt_ammunition: int
    last_roll: int
    steal_victim: int
    """The seat asked for a dinosaur during a steal; else -1."""
    steal_roll: int
    history: list[list[int]]
    trophy_history: list[list[int]]
    final_tokens: list[int]

    def __init__(self, cards: CardSet, num_players: int, advanced: bool) -> None:
        n = num_players
        self.cards, self.num_players, self.advanced = cards, n, advanced
        self.phase, self.player, self.first_player = FIRST_PLAYER, 0, 0
        self.adventure, self.turns = 0, 0
        self.deck, self.row, self.discards = [], [-1, -1], []
        self.center_ammunition = AMMUNITION[n]
        self.exploration_tokens = [EXPLORATION_TOKENS] * n
        self.ammunition, self.trophies = [0] * n, [0] * n
        self.dinosaurs, self.advantages = [[] for _ in range(n)], [[] for _ in range(n)]
        self.allied = [False] * n
        self.abandoned = [False] * n
        self.trail_tokens = [[] for _ in range(n)]
        self.trail_pool = list(TRAIL_TOKENS)
        self.dealt, self.setup_left = 0, 0
        self.actions_left, self.extra_bought, self.passing = 0, False, False
        self.discarded = self.stole = False
        self.discard_locked = self.steal_locked = False
        self.revealed = -1
        self.hunt_slot, self.hunt_rolls, self.hunt_ammunition = -1, 0, 0
        self.last_roll = self.steal_roll = 0
        self.steal_victim = -1
        self.history, self.trophy_history = [], []
        self.final_tokens = [EXPLORATION_TOKENS] * n

    def copy(self) -> Self:
        """An independent copy: every field in ``_SLOTS`` copied, lists of lists to the bottom.

        Only the card set (frozen) and scalars are shared. Going through ``_SLOTS`` means a
        field added later is copied as well, without a list to keep in step.
        """
        other = type(self).__new__(type(self))
        for name in _SLOTS:
            setattr(other, name, _copied(getattr(self, name)))
        return other

    def current_player(self) -> int:
        """The seat on move, ``CHANCE`` in the phases before ``TURN``, or ``TERMINAL``."""
        if self.phase < TURN:
            return CHANCE
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def may_buy_extra_action(self) -> bool:
        """Once per turn, with at least 3 exploration tokens, 2 buy an extra action."""
        return not self.extra_bought and self.exploration_tokens[self.player] > EXTRA_ACTION_COST

    def points_now(self) -> list[int]:
        """Every player's adventure points if the adventure ended now."""
        return adventure_points(self.cards, self.dinosaurs, self.advantages, self.ammunition,
                                self.trail_tokens)

    def throw_bonus(self, seat: int) -> int:
        """What ``seat`` adds to a hunt throw: 1 with an Allies taken from the row."""
        return 1 if self.allied[seat] else 0

    def victims(self) -> list[int]:
        """Seats the explorer on move may ask for a dinosaur: the others still in."""
        return [seat for seat in range(self.num_players)
                if seat != self.player and not self.abandoned[seat]]

    def stealable(self) -> list[int]:
        """Cards the thief may take: the chosen player's, printed points at most the die."""
        points, roll = self.cards.points, self.steal_roll
        return sorted(card for card in self.dinosaurs[self.steal_victim] if points[card] <= roll)

    def owner(self, card: int) -> int:
        """The seat holding dinosaur ``card``, or -1."""
        return next((seat for seat, held in enumerate(self.dinosaurs) if card in held), -1)

