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

A bot that is not back :data:`HARD_GRACE_SECONDS` past its time (stuck in
native code, which no signal handler interrupts, or swallowing ``_Deadline``
with ``except BaseException``) ends its whole process, the Ray worker: see
:class:`_Guard`. The match is then played again with its bots sandboxed
(:func:`arena.cluster.contained`), where the bot times out alone.
"""

from __future__ import annotations

import contextlib
import faulthandler
import math
import os
import signal
import sys
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


HARD_GRACE_SECONDS = 2.0
"""How long past its time an in-process bot may still be running (constructing, deciding or
closing) before its process is ended."""

GUARD_PUSH_SECONDS = 0.5
"""How often :class:`_Guard`'s thread puts the last resort off while the bots behave."""

CLOSE_SECONDS = 2.0
"""The time a bot's ``close()`` has, as a sandboxed host has for the end of a match."""

OVERDUE_EXIT = 70
"""The exit status of a worker ended by :class:`_Guard`."""


class _Guard:
    """The last resort against an in-process bot that never gives its thread back: the Ray
    worker ends, and its match is played again sandboxed.

    The watchdog's signal reaches only Python code: a bot stuck in native code holding the
    GIL (a regular expression that backtracks without end) was never interrupted, nor was one
    that swallowed the interruption (``except BaseException``) and went on, nor a constructor
    or a ``close()`` that never returned (neither had a deadline): each held its Ray worker
    for good, and two such matches stopped a tournament (the red team's ``zoo-native-loop``
    on two workers: no match of six recorded in 90 s). While an in-process seat is open,
    ``faulthandler``'s timer (a thread of C, which needs no GIL) is set to end the process
    :attr:`window` seconds on (``dump_traceback_later(exit=True)``); a thread of this guard
    puts it off every :data:`GUARD_PUSH_SECONDS` while it can run, and itself ends the
    process once the bot in hand is :data:`HARD_GRACE_SECONDS` past its time (``until``).
    Setting the timer costs about 70 µs (a tenth of a short match), so a seat sets it only
    where it is not set, and the guard's thread puts it off and unsets it: a decision only
    writes ``until``."""

    def __init__(self) -> None:
        self.seats = 0
        self.window = 0.0
        """Seconds the timer waits: the longest a seat may need at once, and the grace."""
        self.until = math.inf
        """When the bot in hand must be back (``perf_counter``), its grace included."""
        self.armed = False
        """Whether faulthandler's timer is set."""
        self.lock = threading.Lock()
        # Where the timer writes the stuck thread's traceback: the process's own stderr (a
        # Ray worker's log), if it has one.
        self.sink = _stderr_fd()
        threading.Thread(target=self._watch, daemon=True, name="arena-guard").start()

    def open(self, patience: float) -> None:
        """An in-process seat opens whose bot may hold the thread ``patience`` seconds. The
        timer is set only if it is not (or for less than that): matches one after the other
        keep it set."""
        with self.lock:
            self.seats += 1
            window = patience + HARD_GRACE_SECONDS
            if not self.armed or window > self.window:
                self.window = max(self.window, window)
                faulthandler.dump_traceback_later(self.window, exit=True, file=self.sink)
                self.armed = True

    def close(self) -> None:
        """A seat closes; once none is open, the guard's thread unsets the timer (within
        :data:`GUARD_PUSH_SECONDS`, far within the timer's window)."""
        with self.lock:
            self.seats = max(0, self.seats - 1)

    def _watch(self) -> None:
        while True:
            time.sleep(GUARD_PUSH_SECONDS)
            with self.lock:
                if not self.armed:
                    continue
                if not self.seats:
                    faulthandler.cancel_dump_traceback_later()
                    self.armed, self.window = False, 0.0
                    continue
                if time.perf_counter() > self.until:
                    with contextlib.suppress(OSError, ValueError):
                        os.write(self.sink, b"arena: an in-process bot is past its "
                                 b"time by more than its grace; ending this process\n")
                    os._exit(OVERDUE_EXIT)
                faulthandler.dump_traceback_later(self.window, exit=True, file=self.sink)


def _stderr_fd() -> int:
    """The descriptor of this process's stderr, or of ``/dev/null`` where it has none."""
    try:
        stream = sys.__stderr__
        if stream is not None:
            return stream.fileno()
    except (OSError, ValueError, AttributeError):
        pass
    return os.open(os.devnull, os.O_WRONLY)


_guard: _Guard | None = None


def guard() -> _Guard:
    """The process's one :class:`_Guard`, started on first use."""
    global _guard
    if _guard is None:
        _guard = _Guard()
    return _guard


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

    def __init__(self, bot: str, start: Mapping[str, Any], startup_seconds: float = math.inf,
                 decision_seconds: float = 0.0) -> None:
        """``startup_seconds``: the constructor's time; ``decision_seconds``: the longest
        decision (move time and bank). Past either by :data:`HARD_GRACE_SECONDS`, the
        process ends (:class:`_Guard`)."""
        from arena.plugins import registry

        self.guard = guard()
        self.guard.open(max(startup_seconds, decision_seconds, CLOSE_SECONDS))
        self.alarm = alarm = shared_alarm()
        began = time.perf_counter()
        params = dict(start["params"])
        try:
            cls = registry().bot(bot)
            alarm.deadline = began + startup_seconds
            self.guard.until = alarm.deadline + HARD_GRACE_SECONDS
            alarm.in_bot = True
            try:
                self.bot: BotLike = cls(game=start["game"], seat=start["seat"],
                                        num_players=start["num_players"], seed=start["seed"],
                                        **params)
            finally:
                alarm.in_bot = False
                alarm.deadline = self.guard.until = math.inf
        except _Deadline:
            self.guard.close()
            raise BotTimedOut(f"took longer than {startup_seconds:g}s to start") from None
        except Exception as exc:  # a bot that cannot even start forfeits its seat
            self.guard.close()
            raise BotRaised(f"constructor raised {type(exc).__name__}: {exc}") from exc
        except BaseException:
            self.guard.close()
            raise
        self.startup = time.perf_counter() - began
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
            self.guard.until = alarm.deadline + HARD_GRACE_SECONDS
            alarm.in_bot = True
            try:
                return self.bot.act(observation, legal_actions)
            finally:
                alarm.in_bot = False
                alarm.deadline = self.guard.until = math.inf
        except _Deadline:
            raise BotTimedOut(f"no answer within {budget:.3f}s") from None
        except (Exception, SystemExit) as exc:
            raise BotRaised(f"{type(exc).__name__}: {exc}") from exc

    def close(self, outcome: Mapping[str, Any] | None = None) -> str:
        """The bot's optional ``close()`` once a match it played to the end is over (not after
        a fault or an abandoned match: a sandboxed seat's host is killed then, unasked)."""
        try:
            close = getattr(self.bot, "close", None)
            if outcome is not None and callable(close):
                self.guard.until = time.perf_counter() + CLOSE_SECONDS + HARD_GRACE_SECONDS
                close()
        finally:
            self.guard.until = math.inf
            self.guard.close()
        return ""
