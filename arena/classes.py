"""What makes a registered game or bot class usable, and what a bot's constructor takes.

Checks on a class alone, with no discovery: the arena's registry
(:mod:`arena.plugins`) and a sandboxed bot host (:mod:`arena.seats.host`) both use
them, and the host imports this module rather than :mod:`arena.plugins`, whose
``importlib.metadata`` would cost every host start several milliseconds.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from types import ModuleType
from typing import Any

__all__ = ["HOOKS", "MAX_REGISTERED_NAME", "REGISTERED_NAME", "STANDARD_ARGUMENTS",
           "accepted_params", "bot_problem", "constructor_problem", "game_problem",
           "hook_problems", "name_problem"]

HOOKS = ("arena_register_games", "arena_register_bots")
"""The functions a plugin module may define, each marked ``@arena.hookimpl``."""
HOOKIMPL_MARK = "arena_impl"
"""The attribute ``@arena.hookimpl`` sets on a function (pluggy's ``<project>_impl``)."""


def hook_problems(plugin: Any) -> tuple[list[str], list[str]]:
    """The hooks of a loaded plugin that count (``HOOKS`` it defines, marked
    ``@arena.hookimpl``) and why the rest of it does not: an entry point that names something
    other than a module, a module that defines no hook, a hook without the mark (which
    pluggy, and so an in-process run, would pass over without a word)."""
    if not isinstance(plugin, ModuleType):
        return [], [f"entry point names {plugin!r}, not a module of hook functions (name "
                    "the module whose @arena.hookimpl functions register the bots)"]
    defined = [hook for hook in HOOKS if callable(getattr(plugin, hook, None))]
    if not defined:
        return [], [f"module {plugin.__name__} defines no {' or '.join(HOOKS)} function, "
                    "so it registers nothing"]
    marked = [hook for hook in defined if hasattr(getattr(plugin, hook), HOOKIMPL_MARK)]
    return marked, [f"{hook} is not marked @arena.hookimpl, so it is not called"
                    for hook in defined if hook not in marked]


def game_problem(candidate: Any) -> str | None:
    """Why ``candidate`` is not a usable game class, or None if it is."""
    if not inspect.isclass(candidate):
        return f"{candidate!r} is not a class"
    cls: Any = candidate
    for attribute, kind in (
        ("name", str),
        ("title", str),
        ("min_players", int),
        ("max_players", int),
        ("num_distinct_actions", int),
    ):
        if not isinstance(getattr(cls, attribute, None), kind):
            return f"{cls.__name__}.{attribute} is missing or not a {kind.__name__}"
    if not cls.name:
        return f"{cls.__name__}.name is empty"
    if not 1 <= cls.min_players <= cls.max_players:
        return f"{cls.__name__} has min_players > max_players"
    if not callable(getattr(cls, "new_initial_state", None)):
        return f"{cls.__name__} has no new_initial_state()"
    if inspect.isabstract(cls):
        return f"{cls.__name__} leaves abstract methods unimplemented"
    return None


REGISTERED_NAME = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
"""What a bot's or a game's registered name may be: it is typed in configs (``name@version``
picks a stored version, so no ``@``) and shown in tables (no markup, no terminal codes)."""
MAX_REGISTERED_NAME = 64


def name_problem(name: object, what: str = "bot") -> str | None:
    """Why ``name`` cannot be a registered name, or None if it can."""
    if not isinstance(name, str) or not name:
        return f"registered a {what} without a name"
    if len(name) > MAX_REGISTERED_NAME or not REGISTERED_NAME.fullmatch(name):
        shown = ascii(name[:MAX_REGISTERED_NAME])
        return (f"{what} name {shown} is not valid: use letters, digits and single - _ . "
                f"between them, up to {MAX_REGISTERED_NAME} characters")
    return None


def bot_problem(cls: Any) -> str | None:
    """Why ``cls`` is not a usable bot class, or None if it is."""
    if not inspect.isclass(cls):
        return f"{cls!r} is not a class"
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        return f"{cls.__name__}.name is missing or not a non-empty string"
    reason = name_problem(name)
    if reason is not None:
        return reason
    if not callable(getattr(cls, "act", None)):
        return f"{cls.__name__} has no act(observation, legal_actions) method"
    problem = act_problem(cls)
    if problem is not None:
        return problem
    games = getattr(cls, "games", None)
    if isinstance(games, str):
        # ("lost-explorers") is a string: `game in games` would match parts of the name.
        return (f"{cls.__name__}.games is the string {games[:MAX_REGISTERED_NAME]!a}, not "
                f"a tuple of game names (a tuple of one needs its comma: "
                f"({games[:MAX_REGISTERED_NAME]!a},))")
    if games is not None and not (isinstance(games, Iterable)
                                  and all(isinstance(g, str) for g in games)):
        return f"{cls.__name__}.games must be a collection of game names"
    return constructor_problem(cls)


def act_problem(cls: Any) -> str | None:
    """Why the referee could not call ``cls``'s ``act`` with an observation and the legal
    actions, or None if it can (or if its signature cannot be read)."""
    act = cls.act
    try:
        signature = inspect.signature(act)
    except (TypeError, ValueError):
        return None
    bound = isinstance(inspect.getattr_static(cls, "act", None), (staticmethod, classmethod))
    try:
        signature.bind(*(() if bound else (None,)), {}, ())
    except TypeError:
        return (f"{cls.__name__}.act{signature} does not take the two arguments the referee "
                "calls it with: define act(self, observation, legal_actions)")
    return None


STANDARD_ARGUMENTS = ("game", "seat", "num_players", "seed")
"""The keyword arguments the referee builds every bot with, besides its params."""


def constructor_problem(cls: Any) -> str | None:
    """Why the referee could not build ``cls`` with the :data:`STANDARD_ARGUMENTS` (a class
    without a constructor of its own takes none), or None if it can (or if its signature
    cannot be read)."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind_partial(**dict.fromkeys(STANDARD_ARGUMENTS, 0))
    except TypeError:
        return (f"{cls.__name__}() does not take the keyword arguments game, seat, num_players "
                "and seed that the referee builds each bot with (subclass arena.bot.Bot, or "
                "define __init__(self, *, game, seat, num_players, seed) or __init__(self, "
                "**kwargs))")
    return None


def accepted_params(cls: Any) -> list[str] | None:
    """The keyword params a bot's constructor names besides the standard ones (None: any)."""
    standard = ("self", *STANDARD_ARGUMENTS)
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        return None
    names = [p.name for p in parameters if p.name not in standard
             and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return names or None
    return names
