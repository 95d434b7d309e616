"""Conformance checks that game and bot authors run against their own code.

    from arena.testing import check_game, check_bot
    check_game(MyGame())                 # raises AssertionError listing what is wrong
    check_bot(MyBot, "explorers-of-the-lost-valley")   # a game's name, or a Game

Both play seeded random games, so a failure reproduces. They check the
contract of :mod:`arena.game` and :mod:`arena.bot`, not the rules.

``Game.state_from_observation`` is optional: ``check_game`` checks it where a
game implements it and otherwise warns that it skipped it (search bots such
as ``mcts`` cannot play such a game); ``rebuild=True`` makes it required.
``State.observation_tensor`` is optional too: where a game has one, its
numbers must be finite and its length fixed per player count.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import operator
import random
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.bot import not_an_action_id, supports
from arena.classes import bot_problem
from arena.game import (
    CHANCE,
    TERMINAL,
    Game,
    NoEnd,
    State,
    Static,
    competition_ranking,
    drive,
)
from arena.ratings import DRAW_PROBABILITY, usable_draw_probability


def playout(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_actions: int | None = None,
) -> tuple[list[int], State]:
    """A uniformly random game from one seed: (every action, final state).

    Raises :class:`~arena.game.NoEnd` past ``max_actions``."""
    rng = random.Random(seed)
    state = game.new_initial_state(players, options)

    def uniform(state: State, player: int) -> int:
        return rng.choice(state.legal_actions())

    return drive(state, uniform, rng, max_actions=max_actions), state


class _Stop(Exception):
    """The walk reached a state that cannot be played on (the checker noted why)."""


class _Checker:
    """Collects contract violations found while walking random games."""

    def __init__(self, game: Game, max_actions: int, rebuild: bool = False) -> None:
        self.game = game
        self.max_actions = max_actions
        self.rebuild = rebuild
        self.rebuilds = 0
        self.problems: list[str] = []
        self.tensors = True
        """Whether the game's states have an ``observation_tensor`` (optional) to check."""
        self.tensor_lengths: dict[int, int] = {}

    def expect(self, condition: bool, message: str) -> None:
        if not condition and message not in self.problems:
            self.problems.append(message)

    def node(self, state: State, players: int, step: int) -> int | None:
        """Check one state; return the action to continue with (or None if terminal)."""
        player = state.current_player()
        if player == TERMINAL or state.is_terminal():
            self.expect(
                player == TERMINAL and state.is_terminal(),
                "is_terminal() and current_player() == TERMINAL disagree",
            )
            return None
        if player == CHANCE:
            return self.chance(state)
        self.expect(0 <= player < players, f"current_player() returned {player}")
        legal = state.legal_actions()
        self.actions(legal, "legal_actions()")
        self.expect(bool(legal), "a seat is on move with no legal action")
        for action in legal[:5]:
            text = state.action_to_string(action)
            self.expect(isinstance(text, str) and bool(text), "action_to_string() gave no text")
        if step % 7 == 0:
            self.observations(state, players)
            if self.rebuild and step % 21 == 0:
                self.rebuilt(state, player, step)
        return legal[step * 7919 % len(legal)] if legal else None

    def chance(self, state: State) -> int | None:
        outcomes = state.chance_outcomes()
        self.expect(bool(outcomes), "a chance node has no outcomes")
        self.actions([a for a, _ in outcomes], "chance_outcomes()")
        total = sum(p for _, p in outcomes)
        self.expect(abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}")
        self.expect(all(p > 0 for _, p in outcomes), "a chance outcome has probability <= 0")
        return outcomes[0][0] if outcomes else None

    def actions(self, actions: list[int], where: str) -> None:
        self.expect(actions == sorted(set(actions)), f"{where} is not sorted without repeats")
        limit = self.game.num_distinct_actions
        self.expect(
            all(isinstance(a, int) and 0 <= a < limit for a in actions),
            f"{where} has an id outside [0, {limit}): num_distinct_actions counts every id, "
            "the chance outcomes' too",
        )

    def observations(self, state: State, players: int) -> None:
        for seat in range(players):
            observation = state.observation(seat)
            try:
                frozen = json.dumps(observation, sort_keys=True)
            except (TypeError, ValueError) as exc:
                self.expect(False, f"observation({seat}) is not JSON-able: {exc}")
                continue
            self.expect(json.loads(frozen) == observation, f"observation({seat}) holds what "
                        "JSON does not give back (a tuple, a key that is not a string): "
                        "in-process bots would see it, sandboxed ones would not")
            _scribble(observation)
            again = json.dumps(state.observation(seat), sort_keys=True)
            if again != frozen:  # the state is damaged now: nothing after this is reliable
                raise AssertionError(
                    f"{self.game.name}: changing an observation changed the state "
                    "(observation() must copy, not share, the state's lists and dicts)"
                )
            if self.tensors:
                self.tensor(state, seat, players)

    def tensor(self, state: State, seat: int, players: int) -> None:
        """``observation_tensor``, where a game has one: a list of finite numbers, of one
        length per player count, that reading does not change."""
        try:
            tensor = state.observation_tensor(seat)
        except NotImplementedError:
            self.tensors = False
            return
        self.expect(isinstance(tensor, list) and all(
            type(x) in (int, float) and math.isfinite(x) for x in tensor),
            "observation_tensor() is not a list of finite numbers")
        if not isinstance(tensor, list):
            return
        length = self.tensor_lengths.setdefault(players, len(tensor))
        self.expect(len(tensor) == length, f"observation_tensor() changed its length "
                                           f"({length}, then {len(tensor)}; {players} players)")
        tensor.clear()
        self.expect(len(state.observation_tensor(seat)) == length,
                    "changing an observation_tensor() changed the state")

    def rebuilt(self, state: State, seat: int, step: int) -> None:
        """``state_from_observation`` gives the seat on move its observation and its legal
        actions back, shares nothing with the observation, and (every fifth time) a state
        that plays on (300 random actions, or to its end)."""
        observation = state.observation(seat)
        frozen = json.dumps(observation, sort_keys=True)
        try:
            twin = self.game.state_from_observation(observation, random.Random(step))
            seen = json.dumps(twin.observation(seat), sort_keys=True)
            legal = twin.legal_actions() if twin.current_player() == seat else None
        except Exception as exc:  # a broken rebuild is a finding, not a crash of the kit
            self.expect(False, f"state_from_observation() failed: {type(exc).__name__}: {exc}")
            return
        self.expect(seen == frozen, "a state rebuilt by state_from_observation() gives the "
                                    f"seat on move another observation (phase of step {step})")
        self.expect(legal == state.legal_actions(), "a state rebuilt by "
                    "state_from_observation() gives the seat on move other legal actions")
        _scribble(observation)
        self.expect(json.dumps(twin.observation(seat), sort_keys=True) == seen,
                    "a state rebuilt by state_from_observation() shares lists or dicts with "
                    "the observation")
        self.rebuilds += 1
        if self.rebuilds % 5 == 1:
            try:
                drive(twin, lambda s, _: random.Random(step).choice(s.legal_actions()),
                      random.Random(step), max_actions=min(self.max_actions, 300))
            except NoEnd:
                pass  # 300 actions played on from it: enough to show it is whole
            except Exception as exc:
                self.expect(False, "a state rebuilt by state_from_observation() cannot be "
                                   f"played on: {type(exc).__name__}: {exc}")

    def clone(self, state: State, action: int) -> None:
        before = json.dumps(state.observation(0), sort_keys=True)
        twin = state.clone()
        twin.apply_action(action)
        after = json.dumps(state.observation(0), sort_keys=True)
        self.expect(before == after, "applying an action to a clone changed the original")

    def walk(self, players: int, seed: int, options: dict[str, Any] | None) -> None:
        rng = random.Random(seed)
        state = self.game.new_initial_state(players, options)
        steps = itertools.count()

        def watch(state: State) -> None:
            step = next(steps)
            action = self.node(state, players, step)
            if action is None:  # terminal by is_terminal(), on move by current_player()
                raise _Stop
            if step % 13 == 0:
                self.clone(state, action)

        def decide(state: State, player: int) -> int:
            return rng.choice(state.legal_actions())

        try:
            drive(state, decide, rng, max_actions=self.max_actions, watch=watch)
        except NoEnd:
            self.expect(False, f"no end after {self.max_actions} actions ({players} players)")
            return
        except _Stop:
            pass
        self.node(state, players, 0)
        self.final(state, players)

    def final(self, state: State, players: int) -> None:
        scores, ranking = state.scores(), state.ranking()
        self.expect(len(scores) == players, "scores() has the wrong length")
        self.expect(len(ranking) == players, "ranking() has the wrong length")
        valid = competition_ranking([-place for place in ranking])
        self.expect(ranking == valid, f"ranking() {ranking} is not a competition ranking")
        self.expect(isinstance(state.render(), str), "render() did not return text")


def _scribble(value: Any) -> None:
    """Overwrite every list and dict inside ``value``, to catch shared state (a
    :class:`~arena.game.Static` part is shared on purpose, and read-only)."""
    if isinstance(value, Static):
        return
    if isinstance(value, dict):
        for key in list(value):
            _scribble(value[key])
            value[key] = None
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.clear()


def check_game(
    game: Game,
    *,
    players: Iterable[int] | None = None,
    options: dict[str, Any] | None = None,
    games: int = 5,
    seed: int = 0,
    max_actions: int = 100_000,
    rebuild: bool | None = None,
) -> None:
    """Play ``games`` random games per player count and check the engine contract.

    ``rebuild``: check ``state_from_observation`` (None: where the game implements it,
    warning that the check was skipped otherwise; True: required; False: skip it)."""
    implemented = implements_state_from_observation(game)
    if rebuild and not implemented:
        raise AssertionError(f"{game.name}: Game.state_from_observation is not implemented")
    if rebuild is None and not implemented:
        warnings.warn(f"{game.name}: Game.state_from_observation is not implemented, so its "
                      "check was skipped (search bots such as mcts cannot play this game)",
                      stacklevel=2)
    checker = _Checker(game, max_actions, rebuild is not False and implemented)
    declared = getattr(game, "draw_probability", None)
    checker.expect(
        usable_draw_probability(declared) is not None,
        f"draw_probability {declared!r} is not a number strictly between 0 and 1 (TrueSkill "
        f"cannot rate a tie at 0, nor anything at 1; the arena would rate with "
        f"{DRAW_PROBABILITY} instead)")
    counts = list(players or range(game.min_players, game.max_players + 1))
    for count in counts:
        for index in range(games):
            checker.walk(count, seed + index, copy.deepcopy(options))
        if checker.problems:
            break  # a game that does not end would not end here either
        first = playout(game, count, seed, copy.deepcopy(options), max_actions)
        second = playout(game, count, seed, copy.deepcopy(options), max_actions)
        checker.expect(
            first[0] == second[0] and first[1].scores() == second[1].scores(),
            "the same seed gave two different games",
        )
    if checker.problems:
        raise AssertionError(f"{game.name}: " + "; ".join(checker.problems))


def implements_state_from_observation(game: Game) -> bool:
    """True if ``game`` overrides the optional ``Game.state_from_observation``."""
    return type(game).state_from_observation is not Game.state_from_observation


@dataclass(frozen=True, slots=True)
class BotReport:
    """What :func:`check_bot` checked; it raises ``AssertionError`` at the first problem."""

    bot: str
    game: str
    players: int
    games: int
    """Games played, each twice from the same seeds."""
    decisions: int
    """Answers checked (each a legal action id), over the first play of each game."""
    params: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    """The game's options the games were played with (none: its defaults)."""

    def summary(self) -> str:
        params = f" with params {json.dumps(self.params, sort_keys=True)}" if self.params else ""
        options = (f" with options {json.dumps(self.options, sort_keys=True)}"
                   if self.options else "")
        return (
            f"check_bot: {self.bot} passed in {self.game}{options}{params}: {self.games} games of "
            f"{self.players} seats, {self.decisions} answers all legal action ids, "
            "the same seeds gave the same moves"
        )


def check_bot(
    bot_class: type,
    game: Game | str,
    *,
    players: int | None = None,
    params: dict[str, Any] | None = None,
    games: int = 3,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> BotReport:
    """Play ``games`` games of ``game`` (a :class:`~arena.game.Game` or an installed game's
    name, with its ``options``, as a config's ``options`` gives them: Explorers'
    ``{"advanced": True}``, say) with ``bot_class`` in every seat, built as the referee
    builds it. Checks that the
    bot has a ``name`` and plays the game, that every answer is a legal action id (an int,
    or an int-like such as ``numpy.int64``, as the referee reads it) given the observation
    a seat receives in a tournament (decoded JSON, its :class:`~arena.game.Static` parts
    read-only) and the legal actions as a tuple, that it leaves those static parts as they
    were given (their lists are shared: an in-process seat's are the engine's own), and that
    the same seeds give the same moves; each bot's optional ``close()`` is called at the end
    of its game, as a seat's is (what it raises passes through here: a tournament would
    ignore it). Prints
    :meth:`BotReport.summary` and returns the report."""
    resolved = _game_named(game) if isinstance(game, str) else game
    problem = bot_problem(bot_class)  # what arena bots would skip it for
    if problem is not None:
        raise AssertionError(problem)
    name: str = bot_class.name  # type: ignore[attr-defined]
    if not supports(bot_class, resolved.name):
        declared = getattr(bot_class, "games", None)
        raise AssertionError(f"{name} declares games {declared!r}, without {resolved.name!r}")
    count = players or resolved.min_players
    decisions = 0
    for index in range(games):
        first = _bot_game(bot_class, resolved, count, params or {}, seed + index, options)
        second = _bot_game(bot_class, resolved, count, params or {}, seed + index, options)
        if first != second:
            raise AssertionError(f"{bot_class.__name__}: the same seeds gave different moves")
        decisions += len(first[1])
    report = BotReport(name, resolved.name, count, games, decisions, dict(params or {}),
                       dict(options or {}))
    print(report.summary())
    return report


def _game_named(name: str) -> Game:
    """The installed game called ``name`` (its plugin imported here, as in a bot's tests)."""
    from arena.plugins import registry

    return registry().game(name)


def _bot_game(
    bot_class: type, game: Game, players: int, params: dict[str, Any], seed: int,
    options: dict[str, Any] | None,
) -> tuple[list[int], list[int]]:
    """One game: every action applied, and the bot's answers among them."""
    rng = random.Random(seed)
    bots = [
        bot_class(game=game.name, seat=seat, num_players=players, seed=seed * 31 + seat, **params)
        for seat in range(players)
    ]
    observes = bool(getattr(bot_class, "observes", True))
    state = game.new_initial_state(players, options)
    answers: list[int] = []
    static: dict[str, Static] = {}

    def decide(state: State, player: int) -> int:
        legal = state.legal_actions()
        seen: Mapping[str, Any] = _as_sent(state.observation(player), static) if observes else {}
        answer = bots[player].act(seen, tuple(legal))
        action = _action_id(answer)
        if action is None:
            raise AssertionError(f"{bot_class.__name__} {not_an_action_id(answer)}")
        if action not in legal:
            raise AssertionError(f"{bot_class.__name__} answered {action}, not one of {legal}")
        answers.append(action)
        return action

    actions = drive(state, decide, rng)
    for bot in bots:  # as a seat that played its match to the end
        close = getattr(bot, "close", None)
        if callable(close):
            close()
    _unchanged(bot_class, static, state.observation(0))
    return actions, answers


def _unchanged(bot_class: type, static: dict[str, Static], engine: dict[str, Any]) -> None:
    """The static parts the bots were given are still the engine's: in an in-process seat
    they are the engine's own objects, which every seat of the worker reads in every later
    match (they are read-only, lists and dicts in them too; this catches a bot that got
    round that)."""
    for key, given in static.items():
        if json.dumps(given, sort_keys=True) != json.dumps(engine[key], sort_keys=True):
            raise AssertionError(
                f"{bot_class.__name__} changed observation[{key!r}]: its lists are shared, in "
                "an in-process seat with every seat of every later match of the worker; copy "
                f"what you change (copy.deepcopy(observation[{key!r}]))")


def _action_id(answer: object) -> int | None:
    """The answer as the referee reads it: an int, or an int-like (``numpy.int64``, say)
    as its value; a bool, a float or anything else is no action id."""
    if isinstance(answer, bool):
        return None
    try:
        return operator.index(answer)  # type: ignore[arg-type]
    except Exception:  # an answer's own __index__ may raise anything
        return None


def _as_sent(observation: dict[str, Any], static: dict[str, Static]) -> Any:
    """The observation as a sandboxed bot receives it: through JSON (tuples become lists,
    keys become strings), each :class:`~arena.game.Static` part read-only again and the
    same object at every decision of the game (``static`` keeps them, by key)."""
    sent = json.loads(json.dumps(observation))
    for key, value in observation.items():
        if isinstance(value, Static):
            if key not in static:
                static[key] = Static(sent[key])
            sent[key] = static[key]
    return sent
