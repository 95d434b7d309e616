"""The bot contract.

A bot is any class with a ``name`` class attribute (its registry name), an
optional ``games`` class attribute (a tuple of the game names it supports, so one game
is ``("lost-explorers",)`` with its comma; absent or ``None`` means all), a constructor
and a method ``act(observation, legal_actions) -> action``.
The referee constructs one instance per match and seat with the keyword
arguments ``game``, ``seat``, ``num_players``, ``seed`` and the bot's own
``params`` from the tournament config, so the constructor must take them (:class:`Bot`'s
does; a class without an ``__init__`` of its own takes none and is skipped, as a string
``games`` is): the constructor is the match's start (there is
no ``reset``), and what the instance keeps lasts the match. Search bots simulate with
the engine they import themselves; they never receive the referee's state.

``act`` receives the seat's observation, a dict of JSON values (lists, string keys;
its parts that never change in the match, such as a card table or a board, one
read-only :class:`~arena.game.Static` each, the same object at every decision of the
match) and ``legal_actions``, a tuple of sorted action ids. It answers one of them: an
``int``, or an int-like (``numpy.int64``) that counts as its value; a ``bool``, a
float or anything else is an illegal answer.

Optionally, ``close()`` (no arguments) is called once when a match the seat played to
the end is over (not after the seat faulted); what it raises is ignored. The bot is not
told the result, nor its time limits (take those as a param).

A bot whose ``act`` never reads the observation (a uniformly random bot, say)
may set ``observes = False``; the referee then passes an empty mapping and
skips building the observation.

Subclassing :class:`Bot` is optional; it stores the arguments as ``self.game``,
``self.seat``, ``self.num_players`` and ``self.seed``, and gives a seeded
``random.Random`` as ``self.rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol


class BotLike(Protocol):
    """What the referee needs from a bot instance."""

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int: ...


class Bot:
    """Convenience base class for bots."""

    name: ClassVar[str]
    games: ClassVar[tuple[str, ...] | None] = None
    observes: ClassVar[bool] = True

    def __init__(self, *, game: str, seat: int, num_players: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.num_players = num_players
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return one of ``legal_actions``."""
        raise NotImplementedError(f"bot {type(self).__name__} does not implement act()")


def supports(bot_class: type, game: str) -> bool:
    """True if ``bot_class`` declares no ``games`` or lists ``game`` among them."""
    games = getattr(bot_class, "games", None)
    return games is None or game in games


def not_an_action_id(answer: object) -> str:
    """The fault of an answer that is no action id at all: what it was, and what to answer."""
    shown = shown_answer(answer)
    typed = answer is not None and not shown.startswith("an object of type")
    kind = f" (a {type_name(answer)})" if typed else ""
    return (f"answered {shown}{kind}, not an action id: act must return one of legal_actions,"
            " an int")


def shown_answer(answer: object) -> str:
    """A short description of a bot's answer; even a broken ``__repr__`` cannot fail it."""
    try:
        return f"{answer!r:.80}"
    except Exception:
        return f"an object of type {type_name(answer)}"


def type_name(value: object) -> str:
    """The name of ``value``'s class, as the class was made: not what its metaclass says when
    asked (a property of the metaclass may raise: the red team's in-process bot answered
    such an object, and the referee raised formatting its fault, which made the match void as
    the engine's failure)."""
    name = type.__dict__["__name__"].__get__(type(value))
    return str(name)[:80]
