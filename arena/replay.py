"""Replaying a recorded match: checked against its record, then shown step by step.

A match record holds every action applied, chance outcomes included, so applying them to
the game's initial state (with the run's options from ``config.json``) rebuilds every
position. The replay is checked, not trusted: each action must be legal where it was
played (a chance outcome among the node's outcomes), the game must end exactly after the
last one, and its scores and ranking (faulty seats last, as the referee ranks them) must be
the recorded ones. What differs is reported as a :attr:`Replay.problems` line.

The game is loaded the way the run loaded it: from the plugin module saved in the run's
config (importing that module alone) when that is a game plugin of the arena's own package,
else from the sandboxed catalog; no bot code is imported, whatever the config names. The
views (the transcript and the interactive stepper) are :mod:`arena.watch`.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from arena.errors import ArenaError
from arena.game import CHANCE, Game, State
from arena.match import faulty_last
from arena.records import MatchResult
from arena.store import MATCHES, RunStore, read_results, results_file

CHECKPOINT = 32
"""A state is kept every this many actions, so any position is at most that many away."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a match as it was played."""

    number: int
    """1-based: the state after step ``n`` is position ``n``."""
    actor: int
    """The seat that chose the action, or :data:`arena.game.CHANCE`."""
    action: int
    text: str
    """``action_to_string`` in the state where it was played."""


@dataclass(slots=True)
class Replay:
    """A recorded match rebuilt: its steps, a way to any position, and what did not match."""

    record: MatchResult
    game: Game
    options: dict[str, Any]
    steps: list[Step]
    problems: list[str]
    """Why the replay does not reproduce the record; empty when it does."""
    final: State
    """The position after the last step that could be applied."""
    _checkpoints: dict[int, State] = field(default_factory=dict)
    _boards: dict[int, str] = field(default_factory=dict)

    @property
    def positions(self) -> int:
        """Positions 0 (before the first action) to ``len(steps)``."""
        return len(self.steps) + 1

    def state(self, position: int) -> State:
        """A fresh copy of the state after ``position`` steps."""
        base = max(k for k in self._checkpoints if k <= position)
        state = self._checkpoints[base].clone()
        for step in self.steps[base:position]:
            state.apply_action(step.action)
        return state

    def board(self, position: int) -> str:
        """``render()`` of the state after ``position`` steps."""
        board = self._boards.get(position)
        if board is None:
            board = self._boards[position] = self.state(position).render()
        return board

    def next_decision(self, position: int, seat: int) -> int | None:
        """The first position after ``position`` at which ``seat`` is on move, or None."""
        for step in self.steps[position + 1:]:
            if step.actor == seat:
                return step.number - 1
        return None

    def label(self, actor: int) -> str:
        """``seat 1 (greedy)``, or ``chance``."""
        if actor == CHANCE:
            return "chance"
        if 0 <= actor < len(self.record.seats):
            return f"seat {actor} ({self.record.seats[actor]})"
        return f"seat {actor}"


@dataclass(frozen=True, slots=True)
class RunInfo:
    """What the run folder says about how its matches were set up."""

    game: str
    options: dict[str, Any]
    game_plugin: str
    warnings: tuple[str, ...]


def find_match(run_dir: Path, match_id: str) -> tuple[MatchResult, list[str]]:
    """The record of ``match_id`` in ``run_dir``, and warnings about unreadable lines."""
    path = results_file(run_dir)
    if path is None:
        raise ArenaError(f"no results in {run_dir}: {run_dir / MATCHES} does not exist")
    loaded = read_results(path)
    for result in loaded.results:
        if result.id == match_id:
            return result, loaded.warnings
    ids = sorted(result.id for result in loaded.results)
    close = difflib.get_close_matches(match_id, ids, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    held = f"{len(ids)} matches, {ids[0]} to {ids[-1]}" if ids else "no match"
    raise ArenaError(f"no match {match_id!r} in {path}{hint} (it holds {held})")


def run_info(run_dir: Path, record: MatchResult) -> RunInfo:
    """The game, options and game plugin of the run, from its ``config.json``."""
    warnings: list[str] = []
    try:
        saved = RunStore(run_dir).saved_config()
    except ArenaError as exc:
        saved, warnings = None, [str(exc)]
    if not isinstance(saved, Mapping):
        warnings.append(f"{run_dir / 'config.json'} is missing or unreadable: the match is "
                        f"replayed with the game's default options")
        return RunInfo(record.game, {}, "", tuple(warnings))
    options = saved.get("options")
    return RunInfo(
        game=str(saved.get("game") or record.game),
        options=dict(options) if isinstance(options, Mapping) else {},
        game_plugin=str(saved.get("game_plugin") or ""),
        warnings=tuple(warnings),
    )


SHIPPED_BY = "lostvalley-arena"
"""The distribution whose game plugins a replay imports on a run's word: the arena's own."""


def shipped_game_plugin(plugin: str) -> bool:
    """Whether ``plugin`` is the module of a game plugin of the arena's own package, as its
    entry points say (read from its metadata: nothing is imported)."""
    from arena.catalog import installed_entry_points

    return any(entry.value == plugin and entry.dist is not None
               and canonicalize_name(entry.dist.name) == SHIPPED_BY
               for entry in installed_entry_points())


def installed_game(name: str, plugin: str = "") -> Game:
    """The game ``name``, loaded as a run loads it: from its plugin module alone when the run
    saved one that is a game plugin of the arena's own package, else from the sandboxed
    catalog (no bot code is imported here).

    The saved module is the run's ``config.json``'s word, and a results folder may come from
    anyone: the red team's named a bot's plugin module, which a replay imported here, in the
    arena's own process, outside every sandbox (as root, reading ``/root``), and then replayed
    the match from the catalog as if nothing had happened."""
    from arena.catalog import sandboxed_registry
    from arena.plugins import trusted_game

    if plugin and shipped_game_plugin(plugin):
        try:
            return trusted_game(plugin, name)
        except ArenaError:
            pass  # the game moved to another plugin since the run: look everywhere
    found = sandboxed_registry()
    if name not in found.games:
        installed = ", ".join(sorted(found.games)) or "none"
        raise ArenaError(f"the run's game {name!r} is not installed here, so its matches "
                         f"cannot be replayed (installed: {installed})")
    return found.game(name)


def load(run_dir: Path, match_id: str) -> tuple[Replay, list[str]]:
    """The match ``match_id`` of the run in ``run_dir``, replayed and checked; and warnings."""
    record, warnings = find_match(run_dir, match_id)
    info = run_info(run_dir, record)
    game = installed_game(info.game, info.game_plugin)
    return rebuild(record, game, info.options), [*warnings, *info.warnings]


def rebuild(record: MatchResult, game: Game, options: Mapping[str, Any]) -> Replay:
    """Apply ``record``'s actions to the game's initial state, checking each one and the end."""
    try:
        state = game.new_initial_state(len(record.seats), dict(options))
    except Exception as exc:
        raise ArenaError(f"match {record.id}: the game installed here cannot set it up "
                         f"({type(exc).__name__}: {exc})") from None
    replay = Replay(record, game, dict(options), [], [], state)
    replay._checkpoints[0] = state.clone()
    for number, action in enumerate(record.history, start=1):
        try:
            problem = _illegal(state, action, number)
            if problem is None:
                step = Step(number, state.current_player(), action, state.action_to_string(action))
                state.apply_action(action)
        except Exception as exc:  # the engine installed here is not the one that played it
            problem = f"action {number} ({action}): the engine raised {type(exc).__name__}: {exc}"
        if problem:
            replay.problems.append(problem)
            break
        replay.steps.append(step)
        if number % CHECKPOINT == 0:
            replay._checkpoints[number] = state.clone()
    replay.problems += _outcome_problems(record, state, complete=not replay.problems)
    return replay


def _illegal(state: State, action: int, number: int) -> str | None:
    if state.is_terminal():
        return f"action {number} ({action}) comes after the end of the game"
    if state.current_player() == CHANCE:
        allowed = [outcome for outcome, _ in state.chance_outcomes()]
    else:
        allowed = state.legal_actions()
    if action not in allowed:
        return (f"action {number} ({action}) is not legal there "
                f"({'chance outcomes' if state.current_player() == CHANCE else 'legal'}: "
                f"{_short(allowed)})")
    return None


def _short(actions: Sequence[int]) -> str:
    shown = ", ".join(str(a) for a in actions[:8])
    return shown + (", ..." if len(actions) > 8 else "")


def _outcome_problems(record: MatchResult, state: State, *, complete: bool) -> list[str]:
    problems: list[str] = []
    if record.actions != len(record.history):
        problems.append(f"the record counts {record.actions} actions but holds "
                        f"{len(record.history)}")
    if not complete:
        return problems
    if not state.is_terminal():
        problems.append(f"the game has not ended after the {len(record.history)} recorded "
                        f"actions")
        return problems
    scores = [float(score) for score in state.scores()]
    if len(scores) != len(record.scores) or not all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
        for a, b in zip(scores, record.scores, strict=False)
    ):
        problems.append(f"the replay scores {_numbers(scores)}, "
                        f"the record {_numbers(record.scores)}")
    if len(record.statuses) != len(record.seats):
        problems.append(f"the record has {len(record.statuses)} statuses for "
                        f"{len(record.seats)} seats")
        return problems
    ranking = list(faulty_last(state.ranking(), record.statuses))
    if ranking != list(record.ranking):
        problems.append(f"the replay ranks {ranking}, the record {list(record.ranking)}")
    return problems


def _numbers(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{value:g}" for value in values) + "]"
