"""Explorers of the Lost Valley (GenX Games, 2017): 2-4 explorers hunt dinosaurs.

Players and goal
    2-4 seats. A match is a series of adventures; the best explorer of each
    adventure takes a trophy, and the first to hold two trophies wins
    (several reaching two in the same adventure all win, sharing first
    place). ``scores()`` are the trophies; below the winners, ``ranking()``
    orders seats by trophies, then total adventure points over the match,
    then exploration tokens at the end of the last adventure (equal places
    if still tied).

Setup (all chance nodes)
    The first player is drawn uniformly (the rulebook's die roll-off). In the
    advanced game each seat is then dealt two trail tokens from the 10
    (pterodactylus 4, iguanodon 3, plesiosaurus 2, megalosaurus 1). Each
    adventure: the 18 cards are the deck; 3/2/1 cards (2/3/4 players) are
    discarded face up, then two are revealed to form the row; 6/7/8
    ammunition tokens go to the centre and every explorer has 6 exploration
    tokens. Every draw is sampled from the cards left when it happens.

A turn (one action, plus extras)
    - take a row card: hunt a dinosaur, or take an advantage and use it;
    - discard a row card (the next player may not discard in their turn);
    - go back to the base camp (tokens up to 6, lose captured dinosaurs and
      advantages, return used ammunition);
    - abandon the adventure (keep everything, play no more this adventure);
    - advanced: discard a trail token to steal (choose a player still in
      the adventure, roll a die, take one of their dinosaurs with at most
      that printed value, or nothing; with no player still in, the
      discard is all it does; the next player may not steal in their
      turn).
    Once per turn, with at least 3 exploration tokens, pay 2 for one extra
    action, before an action or after the last one (an explorer who could
    still buy it is asked before the turn passes). Every card that leaves
    the row is replaced from the deck.

Hunting
    Throw two dice (one chance node, totals 2..12) plus 1 with the Allies;
    reaching the difficulty captures the dinosaur and deals its success
    damage. After a failure the hunter may take an ammunition token from the
    centre and throw again, at most twice per hunt of the dinosaur; a final
    failure deals the failure damage, the dinosaur stays in the row and the
    turn passes (any action still due is lost). An explorer left with no
    exploration tokens must at once go back to the base camp or abandon.

Advantages (each -1 point at scoring)
    Haven of Peace: tokens up to 6. Allies: one more action this turn and +1
    to every later throw until the adventure ends, even after the base camp
    discards the card (taken from the row; one the Hound reveals gives
    neither). Ammunition Box: the taker may put all their used ammunition
    back in the centre. Hound: reveal the deck's next card; the taker may
    capture a dinosaur free, or let it go, and then it replaces the Hound
    in the row; an advantage is kept without its effect.

End of an adventure and scoring
    The adventure ends when a card leaves the row and the deck is empty, or
    when everyone has abandoned. Dinosaurs score their printed points (plus
    the trail bonus +1/+1/+2/+2 for a species on a kept trail token,
    duplicates not stacking); a species held by one explorer alone scores
    double (after the bonus); each ammunition token and advantage card held
    costs 1. Most points takes the trophy; ties go to the most exploration
    tokens, then all tied explorers take one. The next adventure starts from
    scratch, the last seat of the previous turn order going first; trail
    tokens are kept.

Rulings
    Where the rulebook is silent or ambiguous, ``RULINGS.md`` beside this
    module states the reading taken and why. The card values are assumptions
    (``dinosaurs.toml``); a user may supply their own file with the option
    ``cards = "/path/file.toml"``. Options: ``advanced`` (bool, default
    false) and ``cards`` (str path, default "" for the shipped deck).

Action ids
    See :mod:`engines.explorers.actions` (decisions and chance outcomes in
    disjoint ranges; ids added after the first release come after them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from arena.game import Game, InvalidOptions, as_written
from engines.explorers import actions, determinize
from engines.explorers.cards import load_cards
from engines.explorers.state import ExplorersState

OPTION_TYPES: dict[str, type] = {"advanced": bool, "cards": str}
OPTION_KINDS = {bool: "true or false", int: "a whole number", str: "a string"}
"""How an option\'s type is named to a config\'s author (TOML\'s words)."""


def _check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, Mapping):
        raise InvalidOptions(f"explorers: options must be a table, got {options!r}")
    merged = dict(ExplorersGame.default_options)
    for key, value in (options or {}).items():
        if key not in OPTION_TYPES:
            raise InvalidOptions(
                f"explorers: unknown option {key!r}; known options: {sorted(OPTION_TYPES)}"
            )
        if not isinstance(value, OPTION_TYPES[key]):
            raise InvalidOptions(
                f"explorers: option {key!r} must be {OPTION_KINDS[OPTION_TYPES[key]]}, "
                f"got {as_written(value)}"
            )
        merged[key] = value
    return merged


class ExplorersGame(Game):
    """The factory of Explorers of the Lost Valley states."""

    name: ClassVar[str] = "explorers-of-the-lost-valley"
    title: ClassVar[str] = "Explorers of the Lost Valley"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    num_distinct_actions: ClassVar[int] = actions.NUM_ACTIONS
    default_options: ClassVar[Mapping[str, Any]] = {"advanced": False, "cards": ""}
    # Share of seat pairs tied for a place, 1,500 self-play matches each: greedy
    # 0.07-0.31 % (2-4 players), random 3.6-4.3 % (3 players). Measured again once
    # explorers reaching two trophies together all took first place (ruling 27):
    # greedy 1.13 / 0.67 / 0.32 % (2 / 3 / 4 players), random 4.6 % (3 players).
    # 1 % is kept: it lies within the range of greedy play, the tournaments' usual bots.
    draw_probability: ClassVar[float] = 0.01

    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> ExplorersState:
        if (
            not isinstance(num_players, int)
            or isinstance(num_players, bool)
            or not self.min_players <= num_players <= self.max_players
        ):
            raise InvalidOptions(
                f"explorers: {self.title} takes {self.min_players} to "
                f"{self.max_players} players, got {num_players!r}"
            )
        chosen = _check_options(options)
        return ExplorersState(load_cards(chosen["cards"]), num_players, chosen["advanced"])

    def state_from_observation(
        self, observation: Mapping[str, Any], rng: random.Random
    ) -> ExplorersState:
        """Exact: nothing is hidden but the deck's order, which is drawn by chance nodes."""
        return determinize.rebuild(observation)
