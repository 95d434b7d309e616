"""The table of a match: every piece's position, compact and cheap to copy.

Explorers are numbered ``seat * 4 + k``; an explorer's position is a space
id, :data:`OUTSIDE` the valley, or :data:`DEAD`. The deck is a count per
card kind (its order does not exist until a card is drawn). :class:`Table`
holds the data and answers questions about it (who is where, where a piece
may go); the rules that change it live in :mod:`engines.dinosaurs.events`
and :mod:`engines.dinosaurs.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Self

from engines.dinosaurs.board import (
    LAIR,
    NO_DINOSAUR,
    RIVER,
    SWAMP,
    SWAMPY,
    TEMPLE,
    WALKABLE,
    Board,
)
from engines.dinosaurs.cards import COUNTS
from engines.dinosaurs.phases import FIRST_PLAYER

OUTSIDE = -1
DEAD = -2
EXPLORERS = 4
COINS = 12
LAVA_PIECES = 30
BULLETS = 12
"""Bullets on the press-out sheet: the supply players take from."""
BULLETS_PER_DUMP = 3
"""Bullets a gun holder takes when one of their explorers lands on an ammunition dump (a move
ending there, or a card putting it there: RULINGS.md ruling 25)."""
LOOKAHEAD = 12
"""The most steps ahead a move is searched to see whether it can still use its whole count
(a roll is at most 12): beyond it a path counts as complete."""
MAX_TURNS = 600
"""Hard bound: the match ends, and is scored, after this many turns (all seats together)."""

_SLOTS = ("board", "num_players", "coins_to_win", "phase", "player", "turns", "explorers",
          "carrying", "dinosaurs", "monster", "lava", "lava_placed", "coins", "temple_coins",
          "coins_out", "deck", "discards", "secret_paths", "guns", "bullets", "bullet_supply",
          "card", "mover", "dinosaur", "steps_left", "roll", "visited", "dinosaur_moves",
          "dinosaurs_moved", "lava_left", "lifted", "resume", "captured", "path_explorer",
          "walked", "winner", "end_reason")


def _completing(steps: list[int], visited: int, steps_left: int,
                can_finish: Callable[[int, int, int], bool], finished_otherwise: bool = False,
                ) -> list[int]:
    """The ``steps`` after which ``can_finish(space, visited, left)`` holds for the rest of the
    move (searched at most :data:`LOOKAHEAD` steps deep), or all of them if none does and
    the move has no other proper ending (``finished_otherwise``: leaving the valley)."""
    left = min(steps_left - 1, LOOKAHEAD)
    if left <= 0 or (len(steps) < 2 and not finished_otherwise):
        return steps  # nothing to search, or nothing to choose between
    full = [space for space in steps if can_finish(space, visited | 1 << space, left)]
    return full if full or finished_otherwise else steps


class Table:
    """The pieces on the board and the bookkeeping of the turn in progress."""

    __slots__ = _SLOTS

    board: Board
    num_players: int
    coins_to_win: int
    phase: int
    player: int
    turns: int
    explorers: list[int]
    carrying: list[bool]
    dinosaurs: list[int]
    monster: int
    lava: list[bool]
    lava_placed: int
    coins: list[int]
    """Abandoned coins per space."""
    temple_coins: int
    coins_out: list[int]
    deck: list[int]
    discards: list[int]
    secret_paths: list[int]
    guns: list[int]
    bullets: list[int]
    bullet_supply: int
    card: int
    mover: int
    dinosaur: int
    steps_left: int
    roll: int
    visited: int
    """Bit set of the spaces entered by the piece moving now (a dinosaur's start included, not
    an explorer's: ruling 9)."""
    dinosaur_moves: tuple[int, ...]
    """Spaces each dinosaur still to be chosen by the current card will move."""
    dinosaurs_moved: int
    lava_left: int
    lifted: int
    resume: int
    """Phase to return to once a capture's lair is chosen."""
    captured: tuple[int, ...]
    path_explorer: int
    walked: list[int]
    """Per explorer, the bit set of the spaces it travelled into earlier this turn (by its card
    or the secret path): its move may not enter them again (ruling 9)."""
    winner: int
    end_reason: str

    def __init__(self, board: Board, num_players: int, coins_to_win: int) -> None:
        self.board, self.num_players, self.coins_to_win = board, num_players, coins_to_win
        self.phase, self.player, self.turns = FIRST_PLAYER, 0, 0
        self.explorers = [OUTSIDE] * (EXPLORERS * num_players)
        self.carrying = [False] * (EXPLORERS * num_players)
        self.dinosaurs = list(board.lairs)
        self.monster = board.swamp_monster
        self.lava, self.lava_placed = [False] * board.size, 0
        self.coins, self.temple_coins = [0] * board.size, COINS
        self.coins_out = [0] * num_players
        self.deck, self.discards = list(COUNTS), [0] * len(COUNTS)
        self.secret_paths, self.guns = [0] * num_players, [0] * num_players
        self.bullets, self.bullet_supply = [0] * num_players, BULLETS
        self.card = self.mover = self.dinosaur = -1
        self.steps_left = self.roll = self.visited = 0
        self.dinosaur_moves, self.dinosaurs_moved = (), 0
        self.lava_left, self.lifted, self.resume = 0, -1, -1
        self.captured, self.path_explorer = (), -1
        self.walked = [0] * (EXPLORERS * num_players)
        self.winner, self.end_reason = -1, ""

    def copy(self) -> Self:
        """An independent copy: every declared field, lists copied, the board shared."""
        other = object.__new__(type(self))
        for name in _SLOTS:
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        return other

    # ------------------------------------------------------------ who is where

    def own(self, seat: int) -> range:
        """The explorer numbers of ``seat``."""
        return range(seat * EXPLORERS, seat * EXPLORERS + EXPLORERS)

    def explorers_at(self, space: int) -> list[int]:
        return [number for number, at in enumerate(self.explorers) if at == space]

    def alive(self, seat: int) -> int:
        """How many of ``seat``'s explorers are still alive."""
        return sum(1 for number in self.own(seat) if self.explorers[number] != DEAD)

    def in_lair(self, number: int) -> bool:
        at = self.explorers[number]
        return at >= 0 and self.board.terrain[at] == LAIR

    def guarded(self, lair: int) -> bool:
        return lair in self.dinosaurs

    def occupied(self, space: int) -> bool:
        """Anything on ``space``: an explorer, a dinosaur, the swamp monster or lava."""
        return (self.lava[space] or space in self.dinosaurs or space == self.monster
                or space in self.explorers)

    def standing(self, seat: int) -> tuple[int, int]:
        """What ranks ``seat`` at the end: coins brought out, then explorers alive."""
        return self.coins_out[seat], self.alive(seat)

    def leader(self) -> int:
        """The one seat ahead of all others by :meth:`standing`, or -1 if first place is
        shared."""
        standings = [self.standing(seat) for seat in range(self.num_players)]
        best = max(standings)
        return standings.index(best) if standings.count(best) == 1 else -1

    def coins_in_play(self) -> int:
        """Coins that can still be brought out: on the roof, abandoned, or carried. A coin
        under the lava on G is not: G is never lifted (ruling 15), so no explorer can ever
        land on it ("it's impossible to claim any more treasure coins", ruling 26)."""
        start = self.board.lava_start
        buried = self.coins[start] if self.lava[start] else 0
        return self.temple_coins + sum(self.coins) - buried + sum(self.carrying)

    # ------------------------------------------------------------ where pieces may go

    def explorer_steps(self, number: int, visited: int, water_run: bool = False) -> list[int]:
        """Spaces explorer ``number`` may step into next, ``visited`` being the bit set of the
        spaces already entered this move (the valley's exit not included)."""
        return list(self._explorer_steps_from(self.explorers[number], visited, water_run))

    def _explorer_steps_from(self, here: int, visited: int,
                             water_run: bool = False) -> Iterator[int]:
        """The steps from ``here``, one by one (a search stops at the first that will do)."""
        board = self.board
        terrain, lava, dinosaurs = board.terrain, self.lava, self.dinosaurs
        if here == OUTSIDE:
            near: tuple[int, ...] = board.entries
        else:
            near = board.neighbors[here]
        in_swamp = here >= 0 and terrain[here] in SWAMPY
        for space in near:
            if visited >> space & 1 or lava[space] or space in dinosaurs or space == self.monster:
                continue
            kind = terrain[space]
            if (kind in WALKABLE or kind == RIVER or (kind == TEMPLE and not water_run)
                    or (in_swamp and kind == SWAMP)):
                yield space

    def explorer_choices(self, number: int, visited: int, steps_left: int) -> list[int]:
        """The steps explorer ``number`` may take next, with ``steps_left`` points of its roll:
        those after which the roll can still be used up or the move properly ended early (in
        the temple, a river, or on an entry to leave by); every step if none can, unless the
        explorer stands on an entry, where leaving ends the move properly (ruling 8)."""
        return _completing(self.explorer_steps(number, visited), visited, steps_left,
                           self._explorer_can_finish, finished_otherwise=self.can_exit(number))

    def _explorer_can_finish(self, here: int, visited: int, left: int) -> bool:
        """Whether an explorer just arrived on ``here`` with ``left`` points to go can end its
        move properly (depth-first, stopping at the first way found)."""
        if left == 0 or self.board.terrain[here] in (TEMPLE, RIVER) or here in self.board.entries:
            return True
        return any(self._explorer_can_finish(space, visited | 1 << space, left - 1)
                   for space in self._explorer_steps_from(here, visited))

    def can_exit(self, number: int) -> bool:
        here = self.explorers[number]
        return here >= 0 and here in self.board.entries

    def dinosaur_steps(self, dinosaur: int, steps_left: int, visited: int) -> list[int]:
        """Spaces dinosaur ``dinosaur`` may step into with ``steps_left`` steps to go."""
        return list(self._dinosaur_steps_from(self.dinosaurs[dinosaur], steps_left, visited))

    def _dinosaur_steps_from(self, here: int, steps_left: int, visited: int) -> Iterator[int]:
        """The steps from ``here``, one by one (a search stops at the first that will do)."""
        board, lava, dinosaurs = self.board, self.lava, self.dinosaurs
        terrain = board.terrain
        for space in board.neighbors[here]:
            kind = terrain[space]
            if (visited >> space & 1 or kind in NO_DINOSAUR or lava[space]
                    or space in dinosaurs or (kind == LAIR and steps_left != 1)):
                continue
            yield space

    def can_step(self, dinosaur: int, steps_left: int) -> bool:
        """Whether dinosaur ``dinosaur``, not moving yet, has a first step."""
        here = self.dinosaurs[dinosaur]
        return next(self._dinosaur_steps_from(here, steps_left, 1 << here), -1) >= 0

    def dinosaur_choices(self, dinosaur: int, steps_left: int, visited: int) -> list[int]:
        """The steps dinosaur ``dinosaur`` may take next, with ``steps_left`` to go: those
        after which it can still move its whole count (or capture on the way); every step if
        none can (ruling 20)."""
        return _completing(self.dinosaur_steps(dinosaur, steps_left, visited), visited,
                           steps_left, self._dinosaur_can_finish)

    def _dinosaur_can_finish(self, here: int, visited: int, left: int) -> bool:
        """Whether a dinosaur just arrived on ``here`` with ``left`` steps to go can move them
        all, a capture ending its move early (a lair is entered by its last step only)."""
        if left == 0 or here in self.explorers:
            return True
        return any(self._dinosaur_can_finish(space, visited | 1 << space, left - 1)
                   for space in self._dinosaur_steps_from(here, left, visited))

    def free_lairs(self) -> list[int]:
        """Lairs no dinosaur occupies (captives may be there)."""
        return [lair for lair in self.board.lairs if lair not in self.dinosaurs]

    def free_footprints(self, lair: int) -> list[int]:
        board = self.board
        marks = board.footprints[board.lairs.index(lair)]
        return [mark for mark in marks if not self.lava[mark] and mark not in self.dinosaurs]
