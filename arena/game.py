"""The engine contract: what every game gives the referee.

The shape follows OpenSpiel's Python games. A :class:`Game` is a small factory
registered under a stable ``name``; it makes :class:`State` objects. A state
is either a decision point for one seat, a chance node (dice, a shuffle, a
card draw), or terminal. Chance outcomes are sampled by whoever drives the
state (the referee, or a search bot on its own clone), never inside the
engine, so a deck is a multiset and each draw is decided when it happens: no
bot can peek at a future card.

Engines import nothing from the arena but this module.
"""

from __future__ import annotations

import itertools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

CHANCE = -1
"""``current_player()`` at a chance node."""

TERMINAL = -4
"""``current_player()`` once the game is over."""


def _read_only(self: object, *args: object, **kwargs: object) -> Any:
    raise TypeError("a static part of an observation is read-only")


class StaticList(list[Any]):
    """A list inside a :class:`Static` part: read-only too (``append``, ``sort``, item
    assignment and the like raise ``TypeError``). JSON writes it as a list; ``+``, slices
    and ``sorted`` give plain lists."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[type[StaticList], tuple[list[Any]]]:
        return StaticList, (list(self),)


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""What JSON makes of a number, a string, ``true``, ``false`` and ``null``."""


def _frozen(value: Any) -> Any:
    """``value`` with every list in it a :class:`StaticList` and every dict a :class:`Static`
    (a list of scalars, the most of a static part, is copied whole, without a look at each
    item: a bot host does this once a match)."""
    kind = value.__class__
    if kind is StaticList or kind is Static:
        return value
    if isinstance(value, list):
        if set(map(type, value)) <= _SCALARS:
            return StaticList(value)
        return StaticList([_frozen(item) for item in value])
    if isinstance(value, dict):
        return Static(value)
    return value


class Static(dict[str, Any]):
    """A read-only dict for a part of an observation that never changes in a match (a
    card table, a board): the engine builds it once and puts the same object in every
    observation, so it is neither rebuilt at each decision nor, for a sandboxed bot, sent
    again (the bot host keeps it). JSON reads it as a dict; writing to it raises
    ``TypeError``, and so does writing to the lists and dicts in it (made a
    :class:`StaticList` and a ``Static`` when it is built).

    In a seat of the referee's own process (``isolation = "inprocess"``) it is the engine's
    view, shared by every seat of every match of that process: its lists were plain, and a
    bot that sorted Explorers' card columns (``.sort()`` for ``sorted()``) changed every later
    match there (greedy's play in three of three), so results hung on which worker had
    played it before."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, value in dict.items(self):
            frozen = _frozen(value)
            if frozen is not value:
                dict.__setitem__(self, key, frozen)

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _read_only
    __ior__ = _read_only

    def __reduce__(self) -> tuple[type[Static], tuple[dict[str, Any]]]:
        return Static, (dict(self),)


class InvalidOptions(ValueError):
    """Raised by ``new_initial_state`` for a player count or option the game rejects."""


def as_written(value: Any) -> str:
    """An option's value as a config's TOML (or ``--options``' JSON) writes it, ``true`` or
    ``"yes"``, not as Python does, ``True`` or ``'yes'``: for an :class:`InvalidOptions`
    message, so that its reader finds what they typed."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # a date or a time: TOML writes them as Python's str
        return str(value)


class State(ABC):
    """One position of a game. Mutable: ``apply_action`` changes it in place."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat on move (0-based), :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted action ids in ``[0, num_distinct_actions)`` for the seat on move.

        At a chance node: the outcomes' action ids. Empty when terminal.
        """

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability), ...]`` at a chance node; probabilities sum to 1.

        The outcomes' ids lie in ``[0, num_distinct_actions)``, as the decisions' do."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action`` (a decision or a chance outcome). Raises ``ValueError`` if illegal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: changing one never changes the other."""

    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own points per seat (meaningful when terminal)."""

    @abstractmethod
    def ranking(self) -> list[int]:
        """Final place per seat, 0 = best, equal places for ties (competition ranking:
        a seat's place is the number of seats that finished strictly ahead of it)."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """A dict of everything ``seat`` may see now, as JSON would decode it (lists, not
        tuples; string keys): a fresh dict, whose parts that never change in the match may be
        one shared :class:`Static` each. An in-process bot gets it as it is, a sandboxed one
        through JSON, so both see the same."""

    def observation_tensor(self, seat: int) -> list[float]:
        """What ``seat`` may see as a flat list of numbers, for learning agents (see
        :mod:`arena.adapters.pettingzoo`): its length is fixed per game and player count,
        and each game documents its layout. Optional: a game without one raises
        ``NotImplementedError`` here."""
        raise NotImplementedError(f"{type(self).__name__} has no observation_tensor")

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A stable, human-readable name for ``action`` in this state."""

    @abstractmethod
    def render(self) -> str:
        """A text view of the state for the terminal (rich markup allowed)."""

    def render_for(self, seat: int) -> str:
        """:meth:`render` as ``seat`` may see it, for a person playing that seat (``arena
        play``). Optional: the default is the whole :meth:`render`, so a game that hides
        something from a seat overrides it."""
        return self.render()

    def action_to_string_for(self, seat: int, action: int) -> str:
        """:meth:`action_to_string` as ``seat`` may see it: a chance outcome that only
        another seat sees (a card drawn into a hand) told without what it was. Optional,
        like :meth:`render_for`; the default is :meth:`action_to_string`."""
        return self.action_to_string(action)


class Game(ABC):
    """A game's factory and its fixed facts. Constructed with no arguments."""

    name: ClassVar[str]
    """Registry key, e.g. ``explorers-of-the-lost-valley``; stable."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    num_distinct_actions: ClassVar[int]
    """How many action ids the game uses: every id, a decision's or a chance outcome's, lies
    in ``[0, num_distinct_actions)`` (OpenSpiel counts chance outcomes apart; the arena does
    not)."""
    default_options: ClassVar[Mapping[str, Any]] = {}
    """Every option the game accepts, with its default; others are rejected."""
    draw_probability: ClassVar[float] = 0.01
    """How often two seats of equal skill tie for a place; TrueSkill's draw margin.

    Optional: a game should measure it (share of tied seat pairs in self-play). Strictly
    between 0 and 1, the only values TrueSkill rates with: ``check_game`` refuses any other,
    and ``arena run`` warns that it rates such a game with 0.1."""

    @abstractmethod
    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> State:
        """The state before setup's first chance node.

        Raises :class:`InvalidOptions` for a player count outside
        ``[min_players, max_players]`` or an unknown or malformed option.
        """

    def state_from_observation(self, observation: Mapping[str, Any], rng: random.Random) -> State:
        """A state consistent with ``observation``, its hidden parts sampled from ``rng``.

        Optional: what search bots (``mcts``) need, since they never see the referee's
        state. ``observation`` is one a seat received at one of its decisions (the seat on
        move); the state returned gives that seat the same observation and the same legal
        actions, and whatever the observation does not show (an opponent's hidden tiles, which
        missions are still face down) is drawn from ``rng`` as the seat's knowledge allows:
        a *determinization*. Draws still to come (the deck, dice) are chance nodes anyway, so
        they need no sampling. A search bot samples one state per iteration and searches the
        tree of its own actions over them (determinized MCTS), so the hidden parts average
        out instead of being fixed once. ``arena.testing.check_game`` checks it where a game
        implements it. The default raises :class:`NotImplementedError`.
        """
        raise NotImplementedError(
            f"{self.name}: this game does not implement Game.state_from_observation, so "
            "search bots that plan from their observation (mcts) cannot play it"
        )


def competition_ranking(keys: Sequence[Any]) -> list[int]:
    """Places from per-seat sort keys where a *larger* key is better.

    A seat's place is the number of seats with a strictly larger key, so
    ties share a place: ``competition_ranking([3, 5, 3]) == [1, 0, 1]``.
    """
    return [sum(1 for other in keys if other > mine) for mine in keys]


class NoEnd(RuntimeError):
    """Raised by :func:`drive` when a game has not ended within ``max_actions``."""


def drive(
    state: State,
    decide: Callable[[State, int], int],
    rng: random.Random,
    *,
    max_actions: int | None = None,
    watch: Callable[[State], None] | None = None,
) -> list[int]:
    """Play ``state`` to its end, in place; returns every action applied, chance included.

    The one play loop of the arena (the referee, :mod:`arena.testing`, replays
    checks and the benchmarks all use it). At a chance node the outcome is
    drawn from ``rng`` with :func:`sample_chance`; at a decision
    ``decide(state, player)`` answers, and its answer is applied as it is
    (checking it is the caller's job). ``watch(state)``, if given, sees every
    node before it is played, chance nodes included. Past ``max_actions``
    actions it raises :class:`NoEnd`.
    """
    history: list[int] = []
    append = history.append
    steps = itertools.count() if max_actions is None else range(max_actions)
    for _ in steps:
        player = state.current_player()
        if player < 0 and player != CHANCE:  # TERMINAL
            return history
        if watch is not None:
            watch(state)
        if player == CHANCE:
            action = sample_chance(state.chance_outcomes(), rng)
        else:
            action = decide(state, player)
        state.apply_action(action)
        append(action)
    if state.current_player() == TERMINAL:
        return history
    raise NoEnd(f"no end after {max_actions} actions")


def sample_chance(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """One outcome of a chance node, drawn with its probability from ``rng``."""
    threshold = rng.random()
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            return action
    return outcomes[-1][0]  # rounding left the sum a hair below 1
