"""Bots that run in the referee's own process: fast, for trusted code.

A bot that hangs is interrupted once its budget runs out: a watchdog thread
naps until the current decision's deadline (at most :data:`IDLE_SECONDS` at
a time, so it wakes rarely and seldom takes the GIL from the match) and,
past the deadline, signals the main thread, whose SIGALRM handler
raises :class:`_Deadline` inside the bot's code. ``_Deadline`` derives from
``BaseException`` so a bot's ``except Exception`` cannot swallow it. Arming
and disarming are two attribute writes, so a fast bot pays next to nothing.
Where signals cannot reach the bot (not the main thread, no SIGALRM),
overruns are still detected, but only once the bot returns.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import Any

from arena.bot import BotLike
from arena.seats import BotRaised, BotTimedOut

IDLE_SECONDS = 0.05
"""The watchdog's longest nap: how late an interruption can come, at worst."""


class _Deadline(BaseException):
    """Raised inside a bot's code when its budget has run out."""


class _Watchdog:
    """One daemon thread per process, watching whichever match is being played."""

    def __init__(self, main_thread: int) -> None:
        self.main_thread = main_thread
        self.alarm: Alarm | None = None
        threading.Thread(target=self._watch, daemon=True, name="arena-watchdog").start()

    def _watch(self) -> None:
        while True:
            alarm = self.alarm
            nap = IDLE_SECONDS
            if alarm is not None and alarm.in_bot:
                left = alarm.deadline - time.perf_counter()
                if left <= 0:
                    alarm.deadline = math.inf
                    signal.pthread_kill(self.main_thread, signal.SIGALRM)
                nap = min(max(left, 0.001), IDLE_SECONDS)
            time.sleep(nap)


_watchdog: _Watchdog | None = None


def _fire(signum: int, frame: FrameType | None) -> None:
    """The SIGALRM handler: interrupt the current match's bot, if it is still thinking."""
    alarm = _watchdog.alarm if _watchdog is not None else None
    # A signal that lands after the bot returned is ignored.
    if alarm is not None and alarm.in_bot:
        alarm.in_bot = False
        raise _Deadline


class Alarm:
    """Interrupts the main thread's bot past its deadline: entered once per process
    (:func:`shared_alarm`), then ``deadline`` and ``in_bot`` are set around each
    decision (see :meth:`InProcessSeat.act`).

    The SIGALRM handler is installed once per process and left in place (it
    does nothing unless a bot is thinking); installing and restoring it for
    every match cost more than a short match's whole bookkeeping.
    """

    def __init__(self) -> None:
        self.available = (
            hasattr(signal, "pthread_kill")
            and threading.current_thread() is threading.main_thread()
        )
        self.deadline = math.inf
        self.in_bot = False

    def __enter__(self) -> Alarm:
        global _watchdog
        if self.available:
            if signal.getsignal(signal.SIGALRM) is not _fire:
                signal.signal(signal.SIGALRM, _fire)
            if _watchdog is None:
                _watchdog = _Watchdog(threading.get_ident())
            _watchdog.alarm = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.in_bot = False
        if _watchdog is not None and _watchdog.alarm is self:
            _watchdog.alarm = None


_main_alarm: Alarm | None = None


def shared_alarm() -> Alarm:
    """The process's one armed :class:`Alarm` (in-process bots think one at a time, on the
    main thread); off the main thread, an alarm that can only notice overruns afterwards."""
    global _main_alarm
    if threading.current_thread() is not threading.main_thread():
        return Alarm()
    if _main_alarm is None:
        _main_alarm = Alarm().__enter__()
    return _main_alarm


class InProcessSeat:
    """Builds the bot and calls its ``act`` directly; faults become :mod:`arena.seats`
    exceptions. The deadline is enforced by the match's :class:`Alarm`."""

    def __init__(self, bot: str, start: Mapping[str, Any]) -> None:
        from arena.plugins import registry

        began = time.perf_counter()
        params = dict(start["params"])
        try:
            cls = registry().bot(bot)
            self.bot: BotLike = cls(game=start["game"], seat=start["seat"],
                                    num_players=start["num_players"], seed=start["seed"],
                                    **params)
        except Exception as exc:  # a bot that cannot even start forfeits its seat
            raise BotRaised(f"constructor raised {type(exc).__name__}: {exc}") from exc
        self.startup = time.perf_counter() - began
        self.alarm = shared_alarm()
        self.observes = bool(getattr(self.bot, "observes", True))

    def act(
        self,
        observation: Mapping[str, Any],
        legal_actions: Sequence[int],
        started: float,
        budget: float,
    ) -> object:
        alarm = self.alarm
        try:
            # The signal may land after act() returned but before in_bot is cleared: the
            # outer handler turns that into a timeout too, never a referee crash.
            alarm.deadline = started + budget  # armed inline: this is the hot path
            alarm.in_bot = True
            try:
                return self.bot.act(observation, legal_actions)
            finally:
                alarm.in_bot = False
                alarm.deadline = math.inf
        except _Deadline:
            raise BotTimedOut(f"no answer within {budget:.3f}s") from None
        except (Exception, SystemExit) as exc:
            raise BotRaised(f"{type(exc).__name__}: {exc}") from exc

    def close(self, outcome: Mapping[str, Any] | None = None) -> str:
        """The bot's optional ``close()`` once a match it played to the end is over (not after
        a fault or an abandoned match: a sandboxed seat's host is killed then, unasked)."""
        close = getattr(self.bot, "close", None)
        if outcome is not None and callable(close):
            close()
        return ""
