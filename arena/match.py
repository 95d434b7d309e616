"""The referee: plays one :class:`MatchSpec` to a :class:`MatchResult`.

Chance is sampled from the match's own seed, so a match is fully determined
by its spec and the bots' answers. Each decision is timed against a budget
of ``move_seconds`` plus what remains of the seat's ``bank_seconds``.

The referee knows the bots only through :func:`arena.seats.open_seat` and the
``Seat`` protocol (a sandboxed host process, or the bot in-process when the
match's ``isolation`` trusts it). A seat whose bot raises (``error``), overruns
its time (``timeout``), answers something that is not a legal action id
(``illegal``) or whose process dies (``crash``) is *faulted*:
it keeps its first fault as its status, is ranked last, and from then on is
played by uniform random moves so the others' finishing order still means
something. Exceptions from the engine itself are not faults of a seat: they
propagate as :class:`EngineError` and the match is recorded as failed.
"""

from __future__ import annotations

import math
import operator
import random
import time
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from arena.bot import not_an_action_id
from arena.game import Game, State, competition_ranking, drive
from arena.plugins import Registry, registry, trusted_game
from arena.records import MatchResult, MatchSpec
from arena.seats import Seat, SeatFault, open_seat

NOTHING: Mapping[str, Any] = MappingProxyType({})
"""The observation handed to bots that declare ``observes = False``."""


class EngineError(RuntimeError):
    """The game engine raised while the referee drove it: a bug in the game."""


def faulty_last(game_ranking: Sequence[int], statuses: Sequence[str]) -> tuple[int, ...]:
    """The final places: seats that ended ``ok`` in the game's order, faulty seats last.

    Competition ranking among the ``ok`` seats; every faulty seat shares the
    place after the last of them.
    """
    keys = [-float(place) if status == "ok" else -math.inf
            for place, status in zip(game_ranking, statuses, strict=True)]
    return tuple(competition_ranking(keys))


class Referee:
    """Runs one match; holds the per-seat clocks, statuses, fallbacks and outputs."""

    def __init__(
        self, spec: MatchSpec, opener: Callable[[MatchSpec, int], Seat] = open_seat
    ) -> None:
        """``opener`` starts each seat (``arena play`` opens its person's seat its own way)."""
        self.spec = spec
        count = len(spec.seats)
        self.move_seconds = spec.limits.move_seconds
        self.bank = [spec.limits.bank_seconds] * count
        self.statuses = ["ok"] * count
        self.errors: list[str | None] = [None] * count
        self.outputs = [""] * count
        self.think = [0.0] * count
        self.longest = [0.0] * count
        self.decisions = [0] * count
        self.startup = [0.0] * count
        self.peak_kb = [0] * count
        self.fallbacks: list[random.Random | None] = [None] * count  # made on a fault
        self.seats: list[Seat | None] = [None] * count
        for index in range(count):
            try:
                self.seats[index] = seat = opener(spec, index)
                self.startup[index] = seat.startup
            except SeatFault as fault:  # a bot that cannot even start forfeits its seat
                self.outputs[index] = fault.output
                self.fault(index, fault.status, str(fault))

    def fault(self, seat: int, status: str, message: str) -> None:
        if self.statuses[seat] == "ok":
            self.statuses[seat] = status
            self.errors[seat] = _shortened(message)
        faulted, self.seats[seat] = self.seats[seat], None
        if faulted is not None:
            self.outputs[seat] += _close_quietly(faulted, None)

    def decide(self, state: State, player: int) -> int:
        legal = state.legal_actions()
        seat = self.seats[player]
        if seat is None:
            return legal[int(self._fallback(player).random() * len(legal))]
        observation = state.observation(player) if seat.observes else NOTHING
        self.decisions[player] += 1
        budget = self.move_seconds + self.bank[player]
        started = time.perf_counter()
        try:
            answer = seat.act(observation, tuple(legal), started, budget)
        except SeatFault as fault:
            self._clock(player, time.perf_counter() - started)
            self.outputs[player] += fault.output
            self.fault(player, fault.status, str(fault))
            return self.decide(state, player)
        seconds = time.perf_counter() - started
        if seconds > self.move_seconds or seconds > self.longest[player]:
            if not self._clock(player, seconds):
                self.fault(player, "timeout", f"used up move time and bank ({budget:.3f}s)")
                return self.decide(state, player)
        else:
            self.think[player] += seconds
        if type(answer) is int and answer in legal:  # (``__class__`` is the answer's to say)
            return answer
        return self._checked(state, player, answer, legal)

    def _fallback(self, player: int) -> random.Random:
        """The uniform random player that stands in for a faulted seat."""
        fallback = self.fallbacks[player]
        if fallback is None:
            fallback = self.fallbacks[player] = random.Random(self.spec.bot_seeds[player] ^ 0x5EED)
        return fallback

    def _checked(self, state: State, player: int, answer: object, legal: list[int]) -> int:
        """The answer as a legal action id, or a fault and the fallback's move."""
        try:
            if isinstance(answer, bool):
                raise TypeError
            action = operator.index(answer)  # type: ignore[arg-type]
        except Exception:  # an answer's own __index__ may raise anything
            self.fault(player, "illegal", not_an_action_id(answer))
            return self.decide(state, player)
        if action not in legal:
            self.fault(player, "illegal", f"answered {_shown(action)}, not among the legal "
                                          f"actions")
            return self.decide(state, player)
        return int(action)

    def _clock(self, player: int, seconds: float) -> bool:
        """Charge ``seconds`` to the seat's clock; False once move time and bank are spent."""
        self.think[player] += seconds
        if seconds > self.longest[player]:
            self.longest[player] = seconds
        over = seconds - self.move_seconds
        if over > 0:
            self.bank[player] -= over
        return self.bank[player] >= 0

    def result(self, state: State, history: Sequence[int], started: float) -> MatchResult:
        """How the match played on ``state`` ended, begun at ``started`` (perf_counter)."""
        spec = self.spec
        return MatchResult(
            id=spec.id,
            game=spec.game,
            seed=spec.seed,
            seats=tuple(seat.label for seat in spec.seats),
            scores=tuple(float(score) for score in state.scores()),
            ranking=faulty_last(state.ranking(), self.statuses),
            statuses=tuple(self.statuses),
            actions=len(history),
            seconds=time.perf_counter() - started,
            think_seconds=tuple(self.think),
            max_move_seconds=tuple(self.longest),
            errors=tuple(self.errors),
            history=tuple(history),
            outputs=tuple(self.outputs),
        )

    def close(self, state: State | None) -> None:
        """Tell every live seat how the match ended (None: it did not) and release it."""
        outcome: dict[str, Any] | None = None
        if state is not None and state.is_terminal():
            outcome = {"scores": [float(x) for x in state.scores()],
                       "ranking": list(state.ranking()), "status": "ok"}
        for index, seat in enumerate(self.seats):
            if seat is not None:
                self.seats[index] = None
                self.outputs[index] += _close_quietly(seat, outcome)
                self.peak_kb[index] = int(getattr(seat, "peak_kb", 0))


def _shown(action: int) -> str:
    """An int a bot answered, as its fault says it: an int past 4,300 digits has no text
    (``str`` raises ``ValueError``), and the red team's in-process bot answered ``10**5000``:
    the referee raised formatting its fault, and the match was void as the engine's failure
    (``EngineError``), the bot's loss with it."""
    return str(action) if -(10**18) < action < 10**18 else f"an int of {action.bit_length()} bits"


MAX_ERROR_CHARS = 4000
"""The most of a seat's error text a match record keeps (its end, where the exception is): a
bot's host may send any error text it likes, and a record is read whole (matches.jsonl, the
summary of faults)."""


def _shortened(message: str) -> str:
    """``message`` within :data:`MAX_ERROR_CHARS`: its start (what went wrong) and its end."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    head, tail = 100, MAX_ERROR_CHARS - 160  # 60 left for the line saying what was cut
    cut = f"\n[... {len(message) - head - tail} characters not kept ...]\n"
    return message[:head] + cut + message[-tail:]


def _close_quietly(seat: Seat, outcome: dict[str, Any] | None) -> str:
    try:
        return seat.close(outcome)
    except Exception:  # a bot's broken close() must not lose the match result
        return ""


def load_game(spec: MatchSpec, found: Registry | None = None) -> Game:
    """The game of ``spec``: from ``found``, else from the one plugin module the spec names
    (so a sandboxed run imports no bot plugin here), else from every installed plugin."""
    if found is not None:
        return found.game(spec.game)
    if spec.game_plugin:
        return trusted_game(spec.game_plugin, spec.game)
    if spec.limits.isolation != "inprocess":
        from arena.catalog import sandboxed_registry

        return sandboxed_registry().game(spec.game)
    return registry().game(spec.game)


def play_match(spec: MatchSpec, found: Registry | None = None) -> MatchResult:
    """Play ``spec`` to the end and report how every seat did.

    Raises :class:`EngineError` if the game cannot be set up or its engine raises."""
    return refereed(spec, found)[0]


def refereed(spec: MatchSpec, found: Registry | None = None) -> tuple[MatchResult, Referee]:
    """:func:`play_match`, and the referee with its per-seat figures (``arena check``)."""
    started = time.perf_counter()
    try:
        state = load_game(spec, found).new_initial_state(len(spec.seats), spec.options)
    except Exception as exc:
        raise EngineError(
            f"match {spec.id}: the game could not be set up: {type(exc).__name__}: {exc}"
        ) from exc
    referee = Referee(spec)
    finished: State | None = None
    try:
        history = drive(state, referee.decide, random.Random(spec.seed))
        finished = state
    except Exception as exc:
        raise EngineError(f"match {spec.id}: engine raised {type(exc).__name__}: {exc}") from exc
    finally:
        referee.close(finished)
    return referee.result(state, history, started), referee


def replay(spec: MatchSpec, history: Sequence[int], found: Registry | None = None) -> State:
    """The state reached by applying a recorded ``history`` to ``spec``'s initial state."""
    state = load_game(spec, found).new_initial_state(len(spec.seats), spec.options)
    for action in history:
        state.apply_action(action)
    return state
