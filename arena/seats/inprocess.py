"""Bots that run in the referee's own process: fast, for trusted code.

A bot that hangs is interrupted when its budget runs out: on the main thread
of a Unix process an interval timer raises :class:`_Deadline` inside the
bot's code. ``_Deadline`` derives from ``BaseException`` so a bot's
``except Exception`` cannot swallow it. Elsewhere (another thread, no
SIGALRM) overruns are still detected, but only once the bot returns.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Mapping, Sequence
from types import FrameType
from typing import Any

from arena.bot import BotLike
from arena.seats import BotRaised, BotTimedOut


class _Deadline(BaseException):
    """Raised inside a bot's code when its budget has run out."""


class Alarm:
    """Interrupts the current thread's bot after a budget, where signals allow it.

    Installed once per match (``with Alarm() as alarm``), armed per decision.
    """

    def __init__(self) -> None:
        self.available = (
            hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        self._armed = False
        self._previous: Any = None

    def __enter__(self) -> Alarm:
        if self.available:
            self._previous = signal.signal(signal.SIGALRM, self._fire)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.available:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        # A tick that lands after the bot returned (before disarming) is ignored.
        if self._armed:
            self._armed = False
            raise _Deadline

    def arm(self, seconds: float) -> None:
        if self.available:
            self._armed = True
            signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))

    def disarm(self) -> None:
        if self.available:
            self._armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)


class InProcessSeat:
    """Calls the bot's ``act`` directly; faults become :mod:`arena.seats` exceptions."""

    def __init__(self, bot: BotLike, alarm: Alarm) -> None:
        self.bot = bot
        self.alarm = alarm

    def act(
        self, observation: Mapping[str, Any], legal_actions: Sequence[int], budget: float
    ) -> object:
        try:
            # The alarm may fire after act() returned but before disarm() ran: the
            # outer handler turns that into a timeout too, never a referee crash.
            self.alarm.arm(budget)
            try:
                return self.bot.act(observation, legal_actions)
            finally:
                self.alarm.disarm()
        except _Deadline:
            raise BotTimedOut(f"no answer within {budget:.3f}s") from None
        except (Exception, SystemExit) as exc:
            raise BotRaised(f"{type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        close = getattr(self.bot, "close", None)
        if callable(close):
            close()
