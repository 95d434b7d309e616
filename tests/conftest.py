"""Shared fixtures: the misbehaving test plugins and one Ray cluster per session."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The test plugins are found through real entry points (their dist-info
# folders), in this process and in every Ray worker started from it.
PLUGINS = Path(__file__).parent / "plugins"
sys.path.insert(0, str(PLUGINS))
os.environ["PYTHONPATH"] = os.pathsep.join(
    part for part in (str(PLUGINS), os.environ.get("PYTHONPATH", "")) if part
)
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[None]:
    """One local Ray runtime with 2 CPUs, shared by every test that needs Ray."""
    import ray

    # address="local": a runtime of its own even where `ray start` (the README's tip for
    # repeated runs) or RAY_ADDRESS names another, which ray.init() would join instead.
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    yield
    ray.shutdown()


