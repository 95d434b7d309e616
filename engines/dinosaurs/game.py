"""Lost Valley of the Dinosaurs (Waddingtons, 1985): explorers race for the temple's treasure.

Players and goal
    2-4 seats, four explorers each, all starting outside the valley. The
    first seat to bring the required number of treasure coins out of the
    valley wins: 1 in the short game (the default), 3 in the long game
    (option ``coins = 3``). If every explorer dies, no coin can still be
    brought out (one under the lava on G never can), or the hard bound of
    ``MAX_TURNS`` = 600 turns (all seats together) is reached, the most
    coins brought out wins, then the most
    explorers alive. ``scores()`` are the coins brought out; ``ranking()``
    orders every seat by coins, then explorers alive (equal places if still
    tied).

Setup (chance)
    The first player is drawn uniformly. One Tyrannosaurus stands in each of
    the six lairs, the swamp monster on its start space, the 12 coins on the
    temple roof, all 30 lava pieces in the cone, the 54 adventure cards in
    the deck.

A turn
    1. Draw an adventure card (a chance node over the kinds left in the
       deck, each with its share; an empty deck first takes back the
       discards) and carry it out, choosing what it lets you choose.
    2. Move one explorer: choose it, then (on land) a die is thrown, two
       dice when it carries a coin, and it steps space by space. In a river
       or the swamp it moves one space without dice: in the swamp, one grey
       arrow either way round the ring (never into the monster), from an
       inner space onto a ring space it touches, or from a blue exit arrow
       onto the land beside it. It may never enter a space it already
       travelled into that turn (its start space it may come back to,
       unless its card or the secret path took it there), a space with a
       dinosaur, the swamp monster or lava, a lair, or, from outside it, the
       swamp. Wading into a river from dry land ends the whole turn
       (nothing after the move); so does the temple (entered from its
       arrow spaces), which gives a coin to an explorer without one;
       stepping out at an entry ends the move and banks a carried coin.
       Otherwise the move uses the whole roll: only steps after which it
       still can are offered (all of them if none can, but on an entry,
       where leaving is then the one choice; a boxed-in explorer stops);
       landing on an abandoned coin by that exact count picks it up.
    3. Before or after the move (not after one into the temple or a river):
       fire bullets (each pushes a dinosaur one space; not once the seat's
       last explorer is dead) and take a secret
       path (cave to temple or back; one way a turn for an explorer, which
       may still make the turn's move).
    Then the next seat clockwise with a living explorer plays.

The cards (counts from the rulebook)
    Volcano Erupts (7): a lava piece down the slope A-F, then G at the valley's
    edge, then three per eruption, each next to lava in the valley (anywhere but
    the swamp, a lair or the temple); lava kills explorers; after 30 pieces,
    three pieces may be repositioned. Pteranodon Swoops (6): put one of your explorers on an
    empty safe space (land or river not next to a dinosaur), or an opponent's on an empty
    dangerous one (the swamp, or land or river next to a dinosaur). Swamp Monster
    (6): it moves one grey arrow clockwise and eats whoever is there. Falls into
    the Swamp (6): one of your explorers (not a captive) goes onto any grey
    arrow but the monster's. Escape from the Swamp (1): one of yours leaves by
    the nearest exit, with any coin it carries. Restless Dinosaurs (6),
    Undergrowth (5), Grazing (4), Danger Ahead (3), Dinosaur Attack (1):
    dinosaurs move (three by 2; all by 1; three by 1; three by 2 and three by 1;
    one by 3 and three by 1), chosen and steered by the drawer; Attack eats the
    captives in the lairs dinosaurs reach. Dinosaurs Fight (3): a captive
    escapes onto a footprint (yours if you have one in a lair, else an
    opponent's). Short of Water (2): one of your explorers (a captive, or one
    outside the valley, which enters by an arrow, too) throws two dice and must
    reach a river or crossing or dies; its last point on a coin claims it, and
    wading into a river ends the turn. Secret Path (2) and Found a Gun (2) are
    kept; a gun holder's explorer landing on an ammunition dump (its move ending
    there, or a card putting it there) takes bullets.

Dinosaurs
    They never enter lava, the swamp or the temple, never leave the valley,
    never share a space, and enter a free lair only by exact count. Each
    moves its whole count if it can (only such steps are offered), and one
    that cannot step is not chosen while another can. A
    dinosaur entering a space captures everyone there: its move ends and the
    mover takes it and its captives to a lair no other dinosaur occupies.
    Captives leave a lair when its dinosaur is away, by Dinosaurs Fight, or
    with the pteranodon.

Rulings
    Where the rulebook is silent or ambiguous, ``RULINGS.md`` beside this
    module states the reading taken and why. The board is an assumption
    (``board.toml``); a user may supply their own with the option
    ``board = "/path/file.toml"``. Options: ``coins`` (int 1-12, default 1)
    and ``board`` (str path, default "" for the shipped board).

Action ids
    See :mod:`engines.dinosaurs.actions` (229 ids: spaces, choices of
    explorers and dinosaurs, and chance outcomes in disjoint ranges).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from arena.game import Game, InvalidOptions, as_written
from engines.dinosaurs import actions, determinize
from engines.dinosaurs.board import load_board
from engines.dinosaurs.state import DinosaursState
from engines.dinosaurs.table import COINS

OPTION_TYPES: dict[str, type] = {"coins": int, "board": str}
OPTION_KINDS = {bool: "true or false", int: "a whole number", str: "a string"}
"""How an option\'s type is named to a config\'s author (TOML\'s words)."""


def _check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise InvalidOptions(f"dinosaurs: options must be a table, got {options!r}")
    merged = dict(DinosaursGame.default_options)
    for key, value in (options or {}).items():
        if key not in OPTION_TYPES:
            raise InvalidOptions(
                f"dinosaurs: unknown option {key!r}; known options: {sorted(OPTION_TYPES)}")
        if not isinstance(value, OPTION_TYPES[key]) or isinstance(value, bool):
            raise InvalidOptions(f"dinosaurs: option {key!r} must be "
                                 f"{OPTION_KINDS[OPTION_TYPES[key]]}, got {as_written(value)}")
        merged[key] = value
    if not 1 <= merged["coins"] <= COINS:
        raise InvalidOptions(f"dinosaurs: option 'coins' must be from 1 to {COINS} "
                             f"(1: short game, 3: long game), got {as_written(merged['coins'])}")
    return merged


class DinosaursGame(Game):
    """The factory of Lost Valley of the Dinosaurs states."""

    name: ClassVar[str] = "lost-valley-of-the-dinosaurs"
    title: ClassVar[str] = "Lost Valley of the Dinosaurs"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = actions.MAX_PLAYERS
    num_distinct_actions: ClassVar[int] = actions.NUM_ACTIONS
    default_options: ClassVar[Mapping[str, Any]] = {"coins": 1, "board": ""}
    # Share of seat pairs tied for a place in greedy self-play, 150 matches each: 0 / 29 / 44 %
    # with 2 / 3 / 4 players in the short game, 0 / 10 / 11 % in the long game (losers with
    # as many coins and explorers alive). 0.2 sits between.
    draw_probability: ClassVar[float] = 0.2

    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> DinosaursState:
        if (
            not isinstance(num_players, int)
            or isinstance(num_players, bool)
            or not self.min_players <= num_players <= self.max_players
        ):
            raise InvalidOptions(
                f"dinosaurs: {self.title} takes {self.min_players} to "
                f"{self.max_players} players, got {num_players!r}"
            )
        chosen = _check_options(options)
        return DinosaursState(load_board(chosen["board"]), num_players, chosen["coins"])

    def state_from_observation(
        self, observation: Mapping[str, Any], rng: random.Random
    ) -> DinosaursState:
        """Exact: nothing is hidden but the deck's order, which is drawn by chance nodes.

        Any observation rebuilds, a chance node's too, and an edited one gives the position it
        describes (README, "Setting up a position"); one the rules cannot reach raises
        ``ValueError`` naming what is wrong."""
        return determinize.rebuild(observation)
