"""A plugin module that takes 3 s to import (named directly by ``tests/test_catalog.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable

import arena

time.sleep(3)


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    """Registers nothing: it is too slow to be listed."""
