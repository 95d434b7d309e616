"""Shared fixtures: the misbehaving test plugins and one Ray cluster per session; and how
the suite is shared between pytest-xdist's workers (``-n 2 --dist loadfile`` in
``pyproject.toml``: a test file runs whole on one worker)."""

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


@pytest.fixture(autouse=True)
def _environment_restored() -> Iterator[None]:
    """Each test leaves the environment as it found it. ``arena --store`` sets
    ``ARENA_STORE`` in its own process for the hosts it starts, and joining a cluster sets
    Ray's variables: a test that invokes them in this process must not hand them to the
    tests after it on the same worker (stop 28's CI: a later test listed another's store)."""
    before = dict(os.environ)
    yield
    if os.environ != before:
        os.environ.clear()
        os.environ.update(before)


@pytest.fixture(params=["required", "fallback"])
def sandbox(request: pytest.FixtureRequest) -> Iterator[str]:
    """A bot host's sandbox, each in turn: bubblewrap, and the fallback without it; the pool
    of kept hosts emptied before and after, so that each test starts its own hosts."""
    from arena.seats.process import POOL

    POOL.close()
    yield request.param
    POOL.close()

TOGETHER = {"test_zoo": "zoo", "test_zoo_tournament": "zoo"}
"""Test files that must not run beside each other on two workers: the zoo's tests look for
its bots' processes on the whole machine (a daemon that left the test's process tree
included), and the zoo tournament plays the same bots. The red team's files join them by
their name (``test_redteam*``)."""

FIRST = ("zoo", "test_submit", "test_cli", "test_ray_cluster", "test_check", "test_cluster",
         "test_new_bot")
"""The longest groups, handed out first so that no worker is left with one at the end."""


def group_of(path: str) -> str:
    """The group of a test file: its name, but for the files of :data:`TOGETHER`."""
    module = Path(path).stem
    if module.startswith("test_redteam"):
        return "zoo"
    return TOGETHER.get(module, module)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest groups come first (each file's tests in their order): the order xdist's
    workers collect is the order the groups are handed out in. A run in one process
    (``-n 0``) keeps that order, so that it sees every test after every test that may come
    before it on a worker (stop 28's CI failed on a test run after ``test_submit``, which
    a plain one-process run, in the files' order, never did)."""
    rank = {group: place for place, group in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(group_of(str(item.path)), len(FIRST)))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, with the files of a group sent to one worker together (xdist's
    own ``loadgroup`` names a test's group in a field pytest 9 no longer reads)."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class ByGroup(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid.split("::", 1)[0])

    return ByGroup(config, log)
