"""A plugin module that answers its catalog with a line nested too deep to decode
(named directly by ``tests/test_catalog.py``)."""

from __future__ import annotations

import os
import sys

for _argument in sys.argv:
    if _argument.startswith("--fds="):
        os.write(int(_argument.split(",")[1]), b"[" * 100_000 + b"]" * 100_000 + b"\n")
