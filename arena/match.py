"""The referee: plays one :class:`MatchSpec` to a :class:`MatchResult`.

Chance is sampled from the match's own seed, so a match is fully determined
by its spec and the bots' answers. Each decision is timed against a budget
of ``move_seconds`` plus what remains of the seat's ``bank_seconds``.

A seat whose bot raises (``error``), overruns its time (``timeout``) or
answers something that is not a legal action id (``illegal``) is *faulted*:
it keeps its first fault as its status, is ranked last, and from then on is
played by uniform random moves so the others' finishing order still means
something. Exceptions from the engine itself are not faults of a seat: they
propagate as :class:`EngineError` and the match is recorded as failed.
"""

from __future__ import annotations

import operator
import random
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from arena.game import CHANCE, State, sample_chance
from arena.plugins import Registry, registry
from arena.records import MatchResult, MatchSpec
from arena.seats import Seat, SeatFault
from arena.seats.inprocess import Alarm, InProcessSeat

NOTHING: Mapping[str, Any] = MappingProxyType({})
"""The observation handed to bots that declare ``observes = False``."""


class EngineError(RuntimeError):
    """The game engine raised while the referee drove it: a bug in the game."""


def faulty_last(game_ranking: Sequence[int], statuses: Sequence[str]) -> tuple[int, ...]:
    """The final places: seats that ended ``ok`` in the game's order, faulty seats last.

    Competition ranking among the ``ok`` seats; every faulty seat shares the
    place after the last of them.
    """
    ok = [seat for seat, status in enumerate(statuses) if status == "ok"]
    places = []
    for seat, status in enumerate(statuses):
        if status != "ok":
            places.append(len(ok))
        else:
            places.append(sum(1 for other in ok if game_ranking[other] < game_ranking[seat]))
    return tuple(places)


class Referee:
    """Runs one match; holds the per-seat clocks, statuses and fallbacks."""

    def __init__(self, spec: MatchSpec, found: Registry, alarm: Alarm) -> None:
        self.spec = spec
        count = len(spec.seats)
        self.move_seconds = spec.limits.move_seconds
        self.bank = [spec.limits.bank_seconds] * count
        self.statuses = ["ok"] * count
        self.errors: list[str | None] = [None] * count
        self.think = [0.0] * count
        self.longest = [0.0] * count
        self.fallbacks: list[random.Random | None] = [None] * count  # made on a fault
        self.seats: list[Seat | None] = [None] * count
        for index in range(count):
            self.seats[index] = self._seat(index, found, alarm)

    def _seat(self, index: int, found: Registry, alarm: Alarm) -> Seat | None:
        seat_spec = self.spec.seats[index]
        try:
            bot = found.bot(seat_spec.bot)(
                game=self.spec.game,
                seat=index,
                num_players=len(self.spec.seats),
                seed=self.spec.bot_seeds[index],
                **seat_spec.params,
            )
        except Exception as exc:  # a bot that cannot even start forfeits its seat
            self.fault(index, "error", f"constructor raised {type(exc).__name__}: {exc}")
            return None
        return InProcessSeat(bot, alarm)

    def fault(self, seat: int, status: str, message: str) -> None:
        if self.statuses[seat] == "ok":
            self.statuses[seat] = status
            self.errors[seat] = message
        faulted, self.seats[seat] = self.seats[seat], None
        if faulted is not None:
            _close_quietly(faulted)

    def decide(self, state: State, player: int) -> int:
        legal = state.legal_actions()
        seat = self.seats[player]
        if seat is None:
            return legal[int(self._fallback(player).random() * len(legal))]
        observation = state.observation(player) if seat.observes else NOTHING
        budget = self.move_seconds + self.bank[player]
        started = time.perf_counter()
        try:
            answer = seat.act(observation, tuple(legal), started, budget)
        except SeatFault as fault:
            self._clock(player, time.perf_counter() - started)
            self.fault(player, fault.status, str(fault))
            return self.decide(state, player)
        seconds = time.perf_counter() - started
        if seconds > self.move_seconds or seconds > self.longest[player]:
            if not self._clock(player, seconds):
                self.fault(player, "timeout", f"used up move time and bank ({budget:.3f}s)")
                return self.decide(state, player)
        else:
            self.think[player] += seconds
        if answer.__class__ is int and answer in legal:
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
            self.fault(player, "illegal", f"answered {_shown(answer)}, not an action id")
            return self.decide(state, player)
        if action not in legal:
            self.fault(player, "illegal", f"answered {action}, not among the legal actions")
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

    def close(self) -> None:
        for seat in self.seats:
            if seat is not None:
                _close_quietly(seat)


def _shown(answer: object) -> str:
    """A short description of a bot's answer; even a broken ``__repr__`` cannot fail it."""
    try:
        return f"{answer!r:.80}"
    except Exception:
        return f"an object of type {type(answer).__name__}"


def _close_quietly(seat: Seat) -> None:
    try:
        seat.close()
    except Exception:  # a bot's broken close() must not lose the match result
        return


def run_loop(state: State, referee: Referee, chance_rng: random.Random) -> list[int]:
    """Drive ``state`` to the end; returns every action applied, chance included."""
    history: list[int] = []
    append = history.append
    decide = referee.decide
    while True:
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state.chance_outcomes(), chance_rng)
        elif player < 0:
            return history
        else:
            action = decide(state, player)
        state.apply_action(action)
        append(action)


def play_match(spec: MatchSpec, found: Registry | None = None) -> MatchResult:
    """Play ``spec`` to the end and report how every seat did."""
    found = found or registry()
    started = time.perf_counter()
    state = found.game(spec.game).new_initial_state(len(spec.seats), spec.options)
    with Alarm() as alarm:
        referee = Referee(spec, found, alarm)
        try:
            history = run_loop(state, referee, random.Random(spec.seed))
        except Exception as exc:
            raise EngineError(
                f"match {spec.id}: engine raised {type(exc).__name__}: {exc}"
            ) from exc
        finally:
            referee.close()
    return MatchResult(
        id=spec.id,
        game=spec.game,
        seed=spec.seed,
        seats=tuple(seat.label for seat in spec.seats),
        scores=tuple(float(score) for score in state.scores()),
        ranking=faulty_last(state.ranking(), referee.statuses),
        statuses=tuple(referee.statuses),
        actions=len(history),
        seconds=time.perf_counter() - started,
        think_seconds=tuple(referee.think),
        max_move_seconds=tuple(referee.longest),
        errors=tuple(referee.errors),
        history=tuple(history),
    )


def replay(spec: MatchSpec, history: Sequence[int], found: Registry | None = None) -> State:
    """The state reached by applying a recorded ``history`` to ``spec``'s initial state."""
    state = (found or registry()).game(spec.game).new_initial_state(len(spec.seats), spec.options)
    for action in history:
        state.apply_action(action)
    return state
