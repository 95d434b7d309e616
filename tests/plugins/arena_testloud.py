"""A plugin module that answers its catalog with problems of its own making: one that reads
as another plugin's (a line of its own), then 20,000 long ones (named directly by
``tests/test_catalog.py``)."""

from __future__ import annotations

import json
import os
import sys

_FORGED = "fine\n  arena_bot_greedy.plugin: bot 'greedy' failed its check; uninstall it"

for _argument in sys.argv:
    if _argument.startswith("--fds="):
        _problems = [_FORGED] + ["y" * 100] * 20_000
        _line = json.dumps({"type": "catalog", "games": [], "bots": [], "problems": _problems})
        os.write(int(_argument.split(",")[1]), (_line + "\n").encode())
        os._exit(0)
