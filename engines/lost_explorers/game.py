"""Lost Explorers (Ludonaute, 2020): 2-4 players follow two explorers' trails.

Players and goal
    2-4 seats. The first player to gather 4 clues wins at once. If both
    token stacks empty first, the player whose rearmost Expedition Leader is
    the most advanced wins; ties go to fewer tokens in front, and seats equal
    on both share their place. ``scores()`` are the clues each seat holds;
    ``ranking()`` orders every seat (see
    :func:`engines.lost_explorers.scoring.ranking_keys`: after a clue win, the
    others by clues held, then by the two keys above).

Setup (chance, then one decision each)
    2/3/4 Validated Location markers (for 4/3/2 players) are drawn from the
    4 and placed on their locations. The 64 tokens form two stacks of 32,
    vehicle side up, the type of every token in view: stack 0 is set out
    token by token (each type drawn from the tokens left), then stack 1. The
    first player is drawn. Every player has 3 of their 4 Expedition Members
    in front of them, both Leaders on slot 1 of the two Discovery tracks and
    one starting token of each vehicle; in turn order each flips one
    starting token of their choice mission side up, and its mission is
    drawn from the starting missions of that vehicle.

A turn
    Phase 1: first retrieve any of your members from the World Map; then,
    in any order, Equipment actions (1-4 members from in front of you onto
    an empty Equipment area take the 1st-4th token of its stack, placed on
    the side you choose before its back is seen, never flipped after; one
    per area per turn) and Expedition actions (one member to a location
    whose whole route you hold in vehicle tokens, one of them discarded; a
    member of another player there goes back to them with the discarded
    token; never onto a validated location). In the first round the first
    player may send 1 member, the second 2, the others 3.
    Phase 2: complete missions (a member of yours on every location of the
    mission, validated ones counting by themselves): retrieve one of those
    members (none if every location is validated), advance the Leader of the
    mission's track by the members it needed, take a token from the discard
    area if that Leader moved forward and was not ahead of the other,
    discard the mission; with both Leaders on slot 4 or
    beyond take the 4th member; then, last, a Leader that reached a
    magnifying glass takes a clue tile (drawn from those left; a fourth clue
    ends the game there, the mission done). Then the members on the Equipment
    areas come back. Taking a stack's last token when the other is empty
    makes this the last turn.

Hidden information
    A token's mission is drawn when it is turned mission side up, a clue
    tile's number when it is taken; neither exists before. Clue numbers are
    in their owner's observation only. At the end the winner's clue sum and
    the location it points to are shown.

Rulings
    Where the rulebook is silent or ambiguous, ``RULINGS.md`` beside this
    module states the reading taken and why. The component values are
    assumptions (``components.toml``); a user may supply their own file
    with the option ``components = "/path/file.toml"``.

Action ids
    See :mod:`engines.lost_explorers.actions` (279 ids, decisions and chance
    outcomes in disjoint ranges).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from arena.game import Game, InvalidOptions, as_written
from engines.lost_explorers import actions, determinize
from engines.lost_explorers.components import load_components
from engines.lost_explorers.state import LostExplorersState

OPTION_TYPES: dict[str, type] = {"components": str}
OPTION_KINDS = {bool: "true or false", int: "a whole number", str: "a string"}
"""How an option\'s type is named to a config\'s author (TOML\'s words)."""


def _check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise InvalidOptions(f"lost-explorers: options must be a table, got {options!r}")
    merged = dict(LostExplorersGame.default_options)
    for key, value in (options or {}).items():
        if key not in OPTION_TYPES:
            raise InvalidOptions(
                f"lost-explorers: unknown option {key!r}; known options: {sorted(OPTION_TYPES)}"
            )
        if not isinstance(value, OPTION_TYPES[key]):
            raise InvalidOptions(f"lost-explorers: option {key!r} must be "
                                 f"{OPTION_KINDS[OPTION_TYPES[key]]}, got {as_written(value)}")
        merged[key] = value
    return merged


class LostExplorersGame(Game):
    """The factory of Lost Explorers states."""

    name: ClassVar[str] = "lost-explorers"
    title: ClassVar[str] = "Lost Explorers"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    num_distinct_actions: ClassVar[int] = actions.NUM_ACTIONS
    default_options: ClassVar[Mapping[str, Any]] = {"components": ""}
    # Share of seat pairs tied for a place, 500 self-play games each
    # (benchmarks/bench_lost_explorers.py): greedy 0 / 1.0 / 1.2 % (2 / 3 / 4 players),
    # random 1.0 / 3.4 / 6.7 %, since ruling 24 keeps to the rulebook's two tie-breaks
    # (with two more beyond it: 0 / 0.3 / 0.5 % and 0 / 0.6 / 2.5 %).
    draw_probability: ClassVar[float] = 0.01

    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> LostExplorersState:
        if (
            not isinstance(num_players, int)
            or isinstance(num_players, bool)
            or not self.min_players <= num_players <= self.max_players
        ):
            raise InvalidOptions(
                f"lost-explorers: {self.title} takes {self.min_players} to "
                f"{self.max_players} players, got {num_players!r}"
            )
        chosen = _check_options(options)
        return LostExplorersState(load_components(chosen["components"]), num_players)

    def state_from_observation(
        self, observation: Mapping[str, Any], rng: random.Random
    ) -> LostExplorersState:
        """The others' clue tiles sampled from ``rng``; the rest rebuilt exactly, with the
        components the observation shows. An edited observation sets up a position; one
        that contradicts itself raises ``ValueError`` (README, "Setting up a position")."""
        return determinize.rebuild(observation, rng)
