"""What happens to pieces: deaths, dropped coins, captures, lava, and where they may be put.

:class:`Pieces` adds to the :class:`~engines.dinosaurs.table.Table` the small
changes every rule is built from, and the lists of spaces and explorers a
card lets the player choose from. The turn's flow that strings them together
lives in :mod:`engines.dinosaurs.rules`.
"""

from __future__ import annotations

import functools
from collections import deque

from engines.dinosaurs.board import (
    AMMO_DUMP,
    CROSSING,
    INNER_SWAMP,
    LAIR,
    RIVER,
    SWAMP,
    SWAMPY,
    WALKABLE,
    Board,
)
from engines.dinosaurs.table import BULLETS_PER_DUMP, DEAD, OUTSIDE, Table

GROUND = WALKABLE | {RIVER}
"""Where the pteranodon may put an explorer outside the swamp: dry land or a river, safe
unless next to a dinosaur (ruling 16)."""
DANGEROUS = GROUND | SWAMPY
"""Terrain the pteranodon may drop an opponent on (land and rivers only next to a dinosaur)."""


def _connected(board: Board, pieces: frozenset[int]) -> bool:
    """Whether ``pieces`` hang together and hold the piece where lava meets the valley."""
    start = board.lava_start
    if start not in pieces:
        return False
    seen, queue = {start}, deque([start])
    while queue:
        for other in board.neighbors[queue.popleft()]:
            if other in pieces and other not in seen:
                seen.add(other)
                queue.append(other)
    return len(seen) == len(pieces)


@functools.cache
def _spaces_of(board: Board, kinds: frozenset[int]) -> tuple[int, ...]:
    return tuple(space for space, kind in enumerate(board.terrain) if kind in kinds)


@functools.lru_cache(maxsize=512)
def _loose_pieces(board: Board, pieces: frozenset[int]) -> frozenset[int]:
    """The valley lava pieces whose removal leaves the rest one coherent structure."""
    return frozenset(space for space in pieces if space != board.lava_start
                     and _connected(board, pieces - {space}))


class Pieces(Table):
    """Changes to single pieces, and the choices cards offer."""

    __slots__ = ()

    # ------------------------------------------------------------ changes

    def drop_coin(self, number: int) -> None:
        """Explorer ``number`` abandons the coin it carries on the space it occupies."""
        if not self.carrying[number]:
            return
        self.carrying[number] = False
        here = self.explorers[number]
        if here == self.board.temple:
            self.temple_coins += 1
        elif here >= 0:
            self.coins[here] += 1

    def kill(self, number: int) -> None:
        self.drop_coin(number)
        self.explorers[number] = DEAD

    def kill_all_at(self, space: int) -> None:
        for number in self.explorers_at(space):
            self.kill(number)

    def take_bullets(self, number: int) -> None:
        """Explorer ``number`` has landed on its space: on an ammunition dump its seat, if it
        holds a gun, takes bullets from the sheet ("bullets can now be taken when you land
        on an ammo dump space": the end of a move, or a card putting it there, ruling 25)."""
        at, seat = self.explorers[number], number // 4
        if at >= 0 and self.board.terrain[at] == AMMO_DUMP and self.guns[seat]:
            taken = min(BULLETS_PER_DUMP, self.bullet_supply)
            self.bullets[seat] += taken
            self.bullet_supply -= taken

    def take_temple_coin(self, number: int) -> None:
        """An explorer arriving in the temple takes a coin from the roof, if it has none."""
        if not self.carrying[number] and self.temple_coins:
            self.temple_coins -= 1
            self.carrying[number] = True

    def place_lava(self, space: int) -> None:
        self.lava[space] = True
        self.lava_placed += 1
        self.kill_all_at(space)

    def move_monster(self) -> None:
        """One grey arrow clockwise; whoever stands there is eaten."""
        ring = self.board.swamp_ring
        self.monster = ring[(ring.index(self.monster) + 1) % len(ring)]
        self.kill_all_at(self.monster)

    # ------------------------------------------------------------ lava

    def lava_targets(self) -> list[int]:
        """Valley spaces the next lava piece may cover: next to lava in the valley (the flow
        reaches the valley at G only, "The first piece to touch the valley is (G)"), no
        dinosaur there."""
        board, lava, dinosaurs = self.board, self.lava, self.dinosaurs
        return [space for space in sorted(board.lava_spaces)
                if not lava[space] and space not in dinosaurs
                and any(lava[other] for other in self._valley_near(space))]

    def _valley_near(self, space: int) -> list[int]:
        """The valley spaces next to ``space``: a slope piece beside a valley space other than
        G (a board drawn that way) is not lava the flow can spread from."""
        board = self.board
        return [other for other in board.neighbors[space] if other in board.lava_spaces]

    def _valley_lava(self) -> set[int]:
        return {space for space in self.board.lava_spaces if self.lava[space]}

    def lava_drops(self, lifted: int) -> list[int]:
        """Empty valley spaces a lifted piece may go to: next to other lava, not its old space."""
        board, lava = self.board, self.lava
        return [space for space in sorted(board.lava_spaces)
                if space != lifted and not lava[space] and not self.occupied(space)
                and any(lava[other] and other != lifted for other in self._valley_near(space))]

    def lava_lifts(self) -> list[int]:
        """Valley pieces that may be repositioned, leaving the flow one coherent structure."""
        board, lava = self.board, self.lava
        pieces = self._valley_lava()
        # Each empty space next to lava, with the lava pieces it touches: a piece may be lifted
        # if some such space touches another piece too (or touches only other pieces).
        frontier = [[other for other in self._valley_near(space) if lava[other]]
                    for space in board.lava_spaces
                    if not lava[space] and not self.occupied(space)]
        frontier = [touching for touching in frontier if touching]
        movable = _loose_pieces(board, frozenset(pieces))
        lifts = []
        for space in sorted(pieces - {board.lava_start}):
            if any(touching != [space] for touching in frontier) and space in movable:
                lifts.append(space)
        return lifts

    # ------------------------------------------------------------ choices cards offer

    def _taken(self) -> set[int]:
        """Spaces with an explorer, a dinosaur or the swamp monster (lava aside)."""
        taken = set(self.explorers)
        taken.update(self.dinosaurs)
        taken.add(self.monster)
        return taken

    def safe_spaces(self) -> list[int]:
        """Where the pteranodon may put the drawer's own explorer: an empty space of dry land
        or river that is not dangerous (not next to a dinosaur)."""
        board, taken, lava = self.board, self._taken(), self.lava
        near_dinosaurs = self._near_dinosaurs()
        return [space for space in _spaces_of(board, GROUND)
                if space not in taken and not lava[space] and space not in near_dinosaurs]

    def _near_dinosaurs(self) -> set[int]:
        neighbors = self.board.neighbors
        return {other for dinosaur in self.dinosaurs for other in neighbors[dinosaur]}

    def dangerous_spaces(self) -> list[int]:
        """Where it may drop an opponent: an empty swamp space, or an empty space of land or
        river next to a dinosaur."""
        board, taken, lava = self.board, self._taken(), self.lava
        near_dinosaurs = self._near_dinosaurs()
        return [space for space in _spaces_of(board, DANGEROUS)
                if space not in taken and not lava[space]
                and (board.terrain[space] in SWAMPY or space in near_dinosaurs)]

    def pteranodon_picks(self) -> list[int]:
        """Explorers the pteranodon may carry: the drawer's own anywhere alive, or an
        opponent's in the valley (a space or the temple)."""
        picks = []
        safe = bool(self.safe_spaces())
        dangerous = bool(self.dangerous_spaces())
        for number, at in enumerate(self.explorers):
            if at == DEAD:
                continue
            if number // 4 == self.player:
                if safe:
                    picks.append(number)
            elif at != OUTSIDE and dangerous:
                picks.append(number)
        return picks

    def fall_picks(self) -> list[int]:
        """The drawer's explorers that may fall in: in the valley (the temple too), not in a
        lair or already in the swamp."""
        terrain = self.board.terrain
        return [number for number in self.own(self.player)
                if (at := self.explorers[number]) >= 0
                and terrain[at] not in (LAIR, SWAMP, INNER_SWAMP)]

    def fall_spaces(self) -> list[int]:
        """Where a falling explorer may land: any grey-arrow space but the monster's own
        (closer than 3 spaces, either way, is the risk the rulebook allows)."""
        return sorted(space for space in self.board.swamp_ring if space != self.monster)

    def _exit_distance(self, space: int) -> dict[int, int]:
        """Ring steps from swamp ``space`` to each exit (an inner space adds one)."""
        board = self.board
        ring = board.swamp_ring
        if board.terrain[space] == INNER_SWAMP:
            starts = [other for other in board.neighbors[space] if other in ring]
            extra = 1
        else:
            starts, extra = [space], 0
        distance: dict[int, int] = {}
        for start in starts:
            here = ring.index(start)
            for exit_space in board.swamp_exits:
                there = ring.index(exit_space)
                steps = min((there - here) % len(ring), (here - there) % len(ring)) + extra
                distance[exit_space] = min(distance.get(exit_space, steps), steps)
        return distance

    def escape_spaces(self, number: int) -> list[int]:
        """Dry land beyond the exit nearest to swamp explorer ``number``."""
        board = self.board
        distance = self._exit_distance(self.explorers[number])
        nearest = min(distance.values())
        spaces = {other for exit_space, steps in distance.items() if steps == nearest
                  for other in board.neighbors[exit_space]
                  if board.terrain[other] in WALKABLE and not self.lava[other]
                  and other not in self.dinosaurs}
        return sorted(spaces)

    def escape_picks(self) -> list[int]:
        terrain = self.board.terrain
        return [number for number in self.own(self.player)
                if (at := self.explorers[number]) >= 0 and terrain[at] in SWAMPY
                and self.escape_spaces(number)]

    def fight_picks(self) -> list[int]:
        """Captives who may escape: the drawer's own if any of theirs is in a lair (none, if
        none of those can get out), else the opponents'."""
        mine = any(self.in_lair(number) for number in self.own(self.player))
        return [number for number in range(len(self.explorers))
                if (number // 4 == self.player) == mine and self.in_lair(number)
                and self.free_footprints(self.explorers[number])]

    def water_picks(self) -> list[int]:
        """The drawer's living explorers: in the valley, captives and those outside it too
        ("one of your explorers" excepts no one, ruling 23)."""
        return [number for number in self.own(self.player) if self.explorers[number] != DEAD]

    def at_water(self, number: int) -> bool:
        at = self.explorers[number]
        return at >= 0 and self.board.terrain[at] in (RIVER, CROSSING)
