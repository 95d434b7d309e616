"""A person against bots in the terminal (``arena play``).

The match is refereed like a tournament's (:class:`arena.match.Referee`, the one play loop
:func:`arena.game.drive`): the bots sit in sandboxed host processes (in-process only when
the user says they are trusted), with the usual time limits and faults; the person's seat
has no clock. The person sees the board (``render()``), every action as it is applied
(chance outcomes as they happen, the bots' moves), and at each decision the legal actions
as a numbered list of their ``action_to_string``; an entry that is not one of the numbers
asks again. A decision with one legal action is played without asking. A bot's seat that
faults is said when it does.

A finished match can be saved in a run folder in the tournament's record format
(``config.json`` and one line of ``matches.jsonl``), so ``arena replay`` and
``arena leaderboard`` read it; further matches saved to the same folder are appended.
"""

from __future__ import annotations

import json
import re
import secrets
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from arena.config import refuse_stored
from arena.errors import ArenaError, unknown_name
from arena.game import CHANCE, Game, InvalidOptions, State, drive
from arena.match import Referee
from arena.plugins import Registry
from arena.ratings import DRAW_PROBABILITY, usable_draw_probability
from arena.records import Limits, MatchResult, MatchSpec, SeatSpec, plain
from arena.schedule import derive_seed
from arena.seats import Seat, open_seat
from arena.store import CONFIG, MATCHES, RunStore, check_writable, read_results
from arena.watch import board_text

PERSON = "you"
"""The label of the person's seat in a saved match."""

HUMAN_BOT = "human"
"""What a saved config names as the person's "bot"."""


class Quit(Exception):
    """The person left the match (``q`` or the end of input)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A match to play, checked: the game, its options, who sits where."""

    game: Game
    game_plugin: str
    options: dict[str, Any]
    spec: MatchSpec
    person: int
    """The person's seat."""


TOML_KEY = "options = "
"""What :func:`parse_options` puts before the text it reads as TOML's inline table."""


def _in_the_text_typed(message: str, shift: int, length: int) -> str:
    """A TOML error's position counted in the text the user typed, not in the line
    :func:`parse_options` made of it: `--params 'x'` was refused "at line 1, column 15"."""
    def column(match: re.Match[str]) -> str:
        where = min(max(int(match.group(1)) - shift, 1), length + 1)
        return f"(at line 1, column {where})"
    return re.sub(r"\(at line 1, column (\d+)\)", column, message)


def parse_options(text: str | None, flag: str = "--options") -> dict[str, Any]:
    """``--options`` (or ``flag``): a JSON object, or TOML (``a = 1, b = true`` or
    ``{ a = 1 }``); anything else is one line naming the problem."""
    if not text or not text.strip():
        return {}
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        inline = text.strip()
        wrapped = inline if inline.startswith("{") else "{ " + inline + " }"
        try:
            parsed = tomllib.loads(f"{TOML_KEY}{wrapped}")["options"]
        except tomllib.TOMLDecodeError as exc:
            opened = 0 if inline.startswith("{") else len("{ ")
            shift = len(TOML_KEY) + opened - (len(text) - len(text.lstrip()))
            raise ArenaError(f"{flag} {text!r}: neither a JSON object nor TOML "
                             f"({_in_the_text_typed(str(exc), shift, len(text))})") from None
    if not isinstance(parsed, dict):
        example = "coins = 1" if flag == "--options" else "risk = 0.8"
        raise ArenaError(f"{flag} {text!r}: give a table, like '{example}'")
    return parsed


def _labels(bots: Sequence[str], person: int) -> list[str]:
    """Seat labels: the person's, then each bot's name (a repeated one numbered)."""
    labels: list[str] = []
    for bot in bots:
        label, count = bot, 1
        while label in labels or label == PERSON:
            count += 1
            label = f"{bot}-{count}"
        labels.append(label)
    labels.insert(person, PERSON)
    return labels


def set_table(
    found: Registry, game_name: str, bots: Sequence[str], *, seat: int, seed: int,
    options: Mapping[str, Any], limits: Limits, match_id: str = "play",
) -> Table:
    """Check the game, bots, seat and options; the match they make."""
    game = found.game(game_name)
    players = len(bots) + 1
    if not game.min_players <= players <= game.max_players:
        raise ArenaError(f"{game_name} is for {game.min_players} to {game.max_players} "
                         f"players; you and {len(bots)} bot(s) make {players}")
    if not 0 <= seat < players:
        raise ArenaError(f"--seat {seat}: choose a seat from 0 to {players - 1}")
    accepted = dict(getattr(game, "default_options", None) or {})
    for option in options:
        if accepted and option not in accepted:
            raise unknown_name("option", option, accepted, where="--options")
    try:
        game.new_initial_state(players, dict(options))
    except InvalidOptions as exc:
        raise ArenaError(f"--options: {exc}") from None
    except Exception as exc:  # a game that raises another error for them: was a traceback
        raise ArenaError(f"--options: {game_name} cannot start a game of {players} with "
                         f"{dict(options)}: {type(exc).__name__}: {exc}") from None
    seats = []
    labels = _labels(bots, seat)
    robots = iter(bots)
    for index, label in enumerate(labels):
        if index == seat:
            seats.append(SeatSpec(label=PERSON, bot=HUMAN_BOT))
            continue
        name = next(robots)
        if limits.isolation != "process" and name not in found.bots:
            refuse_stored(name, "--trusted", "leave out --trusted to play it so")
        info = found.bot_info(name)
        if not info.supports(game_name):
            raise ArenaError(f"bot {name!r} does not play {game_name} "
                             f"(it plays {', '.join(info.games or ())})")
        plugin = info.module if limits.isolation == "process" else ""
        seats.append(SeatSpec(label=label, bot=f"{info.name}@{info.version}" if info.version
                              else name, plugin=plugin, environment=info.environment))
    entry = found.games[game_name]
    spec = MatchSpec(
        id=match_id,
        game=game_name,
        options=dict(options),
        seats=tuple(seats),
        seed=seed,
        bot_seeds=tuple(derive_seed(seed, "bot", index) for index in range(players)),
        limits=limits,
        game_plugin=entry.module if limits.isolation == "process" else "",
    )
    return Table(game, entry.module, dict(options), spec, seat)


def new_seed() -> int:
    """A seed for a match the user gave none for (shown, so it can be played again)."""
    return secrets.randbelow(2**31)


class _PersonSeat:
    """The person's place at the referee's table: asked by :class:`_Referee`, never by a
    bot protocol."""

    observes = False
    startup = 0.0

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int],
            started: float, budget: float) -> object:
        raise RuntimeError("the person's seat is asked through the play loop")

    def close(self, outcome: Mapping[str, Any] | None = None) -> str:
        return ""


class _Referee(Referee):
    """The tournament's referee, with the person's seat asked by ``ask`` and unclocked."""

    def __init__(self, spec: MatchSpec, person: int, ask: Callable[[State, int], int],
                 faulted: Callable[[int, str, str], None] | None = None) -> None:
        self.person, self.ask, self.faulted = person, ask, faulted
        super().__init__(spec, opener=self._open)

    def fault(self, seat: int, status: str, message: str) -> None:
        first = self.statuses[seat] == "ok"
        super().fault(seat, status, message)
        if first and self.faulted is not None:
            self.faulted(seat, status, message)

    def _open(self, spec: MatchSpec, index: int) -> Seat:
        return _PersonSeat() if index == self.person else open_seat(spec, index)

    def decide(self, state: State, player: int) -> int:
        if player != self.person:
            return super().decide(state, player)
        self.decisions[player] += 1
        started = time.perf_counter()
        action = self.ask(state, player)
        self.think[player] += time.perf_counter() - started
        return action


class Narrated(State):
    """A state that reports every action applied to it (``told(state, actor, action)``,
    called before the action is applied), and otherwise is the state it wraps."""

    def __init__(self, inner: State, told: Callable[[State, int, int], None]) -> None:
        self.inner, self.told = inner, told

    def current_player(self) -> int:
        return self.inner.current_player()

    def legal_actions(self) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def apply_action(self, action: int) -> None:
        self.told(self.inner, self.inner.current_player(), action)
        self.inner.apply_action(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def clone(self) -> State:
        return self.inner.clone()

    def scores(self) -> list[float]:
        return self.inner.scores()

    def ranking(self) -> list[int]:
        return self.inner.ranking()

    def observation(self, seat: int) -> dict[str, Any]:
        return self.inner.observation(seat)

    def action_to_string(self, action: int) -> str:
        return self.inner.action_to_string(action)

    def render(self) -> str:
        return self.inner.render()

    def render_for(self, seat: int) -> str:
        return self.inner.render_for(seat)

    def action_to_string_for(self, seat: int, action: int) -> str:
        return self.inner.action_to_string_for(seat, action)


def play(
    table: Table,
    ask: Callable[[State, int], int],
    told: Callable[[State, int, int], None],
    faulted: Callable[[int, str, str], None] | None = None,
) -> tuple[MatchResult, State]:
    """Play ``table`` to the end: the person's decisions from ``ask``, every applied action
    told to ``told``, a bot's seat that faults to ``faulted(seat, status, message)`` when it
    does. Raises :class:`Quit` (the bots' seats released) if the person leaves."""
    import random

    spec = table.spec
    started = time.perf_counter()
    state = table.game.new_initial_state(len(spec.seats), dict(spec.options))
    referee = _Referee(spec, table.person, ask, faulted)
    finished: State | None = None
    try:
        history = drive(Narrated(state, told), referee.decide, random.Random(spec.seed))
        finished = state
    finally:
        referee.close(finished)
    return referee.result(state, history, started), state


def _config(table: Table, directory: Path) -> dict[str, Any]:
    """A ``config.json`` in the tournament's shape, so the run tools read the folder."""
    spec = table.spec
    return {
        "name": directory.name,
        "game": spec.game,
        "players": len(spec.seats),
        "rounds": 1,
        "seed": spec.seed,
        "seating": "permutations",
        "options": dict(spec.options),
        "bots": [asdict(seat) for seat in spec.seats],
        "limits": asdict(spec.limits),
        "game_plugin": table.game_plugin,
        # As arena run saves it: the game's, if TrueSkill can rate with it (0.0 was saved,
        # and arena leaderboard then said no draw probability was saved or installed).
        "ratings": {"draw_probability": usable_draw_probability(
            getattr(table.game, "draw_probability", None)) or DRAW_PROBABILITY},
        "played_by": "arena play",
    }


def check_save_folder(directory: Path, game: str, options: Mapping[str, Any]) -> str:
    """Refuse, before the match, a folder that holds another game's matches; the id the
    match will have there (``play-0001``, then ``play-0002``...)."""
    if directory.exists() and not directory.is_dir():
        raise ArenaError(f"--save {directory}: a file, not a folder")
    # Before the match, not after it: a folder that cannot be written was a traceback once
    # the person had played the whole match, which was lost.
    check_writable(directory, flag="--save")
    saved = RunStore(directory).saved_config() if directory.is_dir() else None
    if saved is not None and (saved.get("game") != game or saved.get("options") != options):
        raise ArenaError(f"--save {directory}: it holds matches of {saved.get('game')} with "
                         f"options {saved.get('options')}; choose another folder")
    if saved is not None and "played_by" not in saved:
        # Its table is its plan's: a match played here would be left out of it, with a warning.
        raise ArenaError(f"--save {directory}: it holds a tournament (arena run), whose "
                         "table rates its own matches only; choose another folder")
    path = directory / MATCHES
    done = len(read_results(path).results) if path.is_file() else 0
    return f"play-{done + 1:04d}"


def save(directory: Path, table: Table, result: MatchResult) -> Path:
    """Append the finished match to the run folder ``directory`` (made if need be)."""
    directory.mkdir(parents=True, exist_ok=True)
    if not (directory / CONFIG).exists():
        (directory / CONFIG).write_text(json.dumps(_config(table, directory), indent=2) + "\n",
                                        encoding="utf-8")
    with RunStore(directory) as store:
        store.append(result)
    return directory / MATCHES


def describe(state: State, actor: int, labels: Sequence[str], action: int, viewer: int) -> str:
    """One applied action as ``viewer`` may see it: ``chance: roll 5``, ``seat 1 (greedy):
    hunt ...`` (a chance outcome only another seat sees is told without what it was)."""
    who = "chance" if actor == CHANCE else f"seat {actor} ({labels[actor]})"
    return f"{who}: {state.action_to_string_for(viewer, action)}"


def _number(entry: str) -> int:
    """The number typed, else 0: ``isdigit`` let through what ``int`` cannot read (``²``,
    a superscript), and ``int`` refuses more than 4,300 digits; either ended the match with
    a traceback."""
    if not entry.isdecimal():
        return 0
    try:
        return int(entry)
    except ValueError:
        return 0


FAULT_CHARS = 400
"""The most of a fault's last line that :meth:`Terminal.faulted` shows: the last 160
characters of a constructor's missing param cut its error off, ``faulted, error:  not
given: arena submit ...``, with the param's name and the exception's type."""


class Terminal:
    """The person's side of the table: what they see and how they answer."""

    def __init__(self, console: Console, labels: Sequence[str], person: int,
                 read_line: Callable[[str], str] | None = None) -> None:
        self.console, self.labels, self.person = console, list(labels), person
        self.read_line = read_line or console.input

    def say(self, text: str | Text) -> None:
        self.console.print(text, markup=False, highlight=False)

    def told(self, state: State, actor: int, action: int) -> None:
        """Every action as it is applied: chance as it happens, the bots' moves, yours."""
        line = describe(state, actor, self.labels, action, self.person)
        if actor == self.person and len(state.legal_actions()) == 1:
            line += " (the only legal action)"
        self.say(line)

    def faulted(self, seat: int, status: str, message: str) -> None:
        """A bot's seat faulted: said at once, not only in the result at the end."""
        reason = (plain(message).strip().splitlines() or [""])[-1]
        if len(reason) > FAULT_CHARS:  # its start says what went wrong: keep it
            reason = reason[:FAULT_CHARS - 100] + " ... " + reason[-95:]
        self.say(f"seat {seat} ({self.labels[seat]}) faulted, {status}: {reason}; random moves "
                 "play its seat from here, and it is ranked last")

    def ask(self, state: State, player: int) -> int:
        """The person's decision: the board, the numbered legal actions, a checked answer."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.say("")
        self.say(board_text(state.render_for(self.person)))
        self.say("")
        width = len(str(len(legal)))
        for number, action in enumerate(legal, start=1):
            self.say(f"  {number:>{width}}. {plain(state.action_to_string(action))}")
        while True:
            try:
                entry = self.read_line(f"Your move, seat {player} (1-{len(legal)}, q quits): ")
            except EOFError:
                raise Quit from None
            entry = entry.strip()
            if entry.lower() in ("q", "quit"):
                raise Quit
            number = _number(entry)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"{plain(entry)!r} is not one of the actions: enter a number from 1 to "
                     f"{len(legal)}, or q to quit")

    def finish(self, state: State, result: MatchResult) -> None:
        """The final board and the result."""
        self.say("")
        self.say(board_text(state.render_for(self.person)))
        self.say("")
        self.say("Result:")
        for seat, label in enumerate(result.seats):
            status = result.statuses[seat]
            why = f": {plain(result.errors[seat] or '').strip()[-120:]}" if status != "ok" else ""
            self.say(f"  seat {seat} {label}: place {result.ranking[seat] + 1}, "
                     f"score {result.scores[seat]:g} ({status}{why})")
        place = result.ranking[self.person] + 1
        shared = sum(1 for other in result.ranking if other + 1 == place) > 1
        self.say(f"You finished in place {place} of {len(result.seats)}"
                 f"{' (shared)' if shared else ''}.")
