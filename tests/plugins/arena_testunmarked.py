"""A plugin module whose hook lacks ``@arena.hookimpl`` (named directly by
``tests/test_catalog.py``): no run may play its bot, sandboxed or in process."""

from __future__ import annotations

from arena.bot import Bot


class Unmarked(Bot):
    name = "unmarked"

    def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
        return legal_actions[0]


def arena_register_bots(register):  # type: ignore[no-untyped-def]
    register(Unmarked)
