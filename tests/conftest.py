"""Shared fixtures: the misbehaving test plugins and one Ray cluster per session; and how
the suite shares two cores (see :func:`pytest_xdist_make_scheduler`)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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



COMPUTING = frozenset({
    "test_game.py", "test_leaderboard.py", "test_live.py", "test_new_game.py",
    "test_observation_keys_documented.py", "test_pettingzoo.py", "test_ratings.py",
    "test_schedule.py", "test_store.py",
})
"""Test files outside ``tests/engines/`` that only compute in this process: no subprocess, no
bot host, no Ray, no clock."""


def _group(nodeid: str) -> str:
    """``computing`` for the rules' tests and :data:`COMPUTING`'s; ``running`` for the rest."""
    path = Path(nodeid.split("::", 1)[0])
    return "computing" if path.parent.name == "engines" or path.name in COMPUTING else "running"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``pytest -n 2`` (the README's test command) each of the two workers runs one of two
    groups. The tests that start processes, bot hosts and Ray, and the ones whose bots race a
    clock, run one at a time as without xdist; beside them, the pure computation of the rules'
    tests (about a fifth of the suite) runs at the lowest priority (:func:`pytest_runtest_setup`),
    so it takes only the CPU the other worker leaves idle and no time limit of theirs is met
    sooner. xdist's own ``--dist loadgroup`` marks do not group under pytest 9 (they rename
    a node id that pytest 9 no longer reads), so the groups are its scopes here."""
    from xdist.scheduler import LoadScopeScheduling

    class TwoGroups(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

    return TwoGroups(config, log)


_lowered: list[bool] = []


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In an xdist worker, lower the priority once a computing test comes (its worker gets
    no other kind: two groups, two workers)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and not _lowered and _group(item.nodeid) == "computing":
        os.nice(19)
        _lowered.append(True)
