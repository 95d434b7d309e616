"""A real Ray cluster of separate processes: a head started with ``ray start --head`` and
a second node joined with ``ray start --address``, both on this machine, then ``arena
run CONFIG --address`` as a user types it.

The cluster uses Ray's token authentication (as ``ray start`` does by default) with a
token of its own, given as ``RAY_AUTH_TOKEN``. Its nodes are started without the test's
bot package, which only the driver has (on its ``PYTHONPATH``, with an entry point): the
run must ship it. The test stops only its own Ray processes (every process whose command
line names its temporary folder, and their descendants), never ``ray stop``, which would
stop every Ray on the machine. The last test joins a third node and kills it mid-run.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent
RAY, ARENA = str(BIN / "ray"), str(BIN / "arena")

BOT_PLUGIN = '''
import time

import arena
from arena.bot import Bot
from shipped_core import highest


class Shipped(Bot):
    """Takes the highest legal action id: deterministic, and unlike the built-in bots.

    It thinks 1.5 s over its first move, so that eight matches keep one node busy long
    enough for the second node's worker to start and take its share, however loaded the
    machine (a node whose worker starts late would otherwise find nothing left to play).
    While it thinks its host runs (between its turns, and in the pool, it is stopped): a
    test sees from outside that its node is in a match."""

    name = "shipped"
    thought = False

    def act(self, observation, legal_actions):
        if not self.thought:
            self.thought = True
            time.sleep(1.5)
        return highest(legal_actions)


@arena.hookimpl
def arena_register_bots(register):
    register(Shipped)
'''

CONFIG = """
[tournament]
name = "shipped"
game = "explorers-of-the-lost-valley"
players = 2
rounds = 4
seed = 5

[limits]
move_seconds = 5

[[bots]]
name = "shipped"
[[bots]]
name = "random"
"""


@dataclass
class Cluster:
    address: str
    root: Path
    env: dict[str, str]
    """The environment a user of the cluster has: its token, no Ray address."""


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _node_ports() -> list[str]:
    """Ports of its own for each of a node's servers (the head's defaults are shared by
    every Ray on the machine); ``--node-manager-port`` comes last."""
    names = ["--metrics-export-port", "--dashboard-agent-listen-port",
             "--dashboard-agent-grpc-port", "--runtime-env-agent-port", "--object-manager-port",
             "--node-manager-port"]
    return [arg for name, port in zip(names, _free_ports(len(names)), strict=True)
            for arg in (name, str(port))]


def _join(cluster: Cluster) -> int:
    """Join one more node of 1 CPU to ``cluster``; its node manager's port. (Ray's client
    sends the cluster's token only under ``RAY_AUTH_MODE=token``: a node joins so.)"""
    ports = _node_ports()
    _ray_start([f"--address={cluster.address}", "--node-ip-address=127.0.0.1",
                "--num-cpus=1", *ports], {**cluster.env, "RAY_AUTH_MODE": "token"})
    return int(ports[-1])


def _process_table() -> tuple[dict[int, int], dict[int, bytes]]:
    """Every process's parent and command line."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            commands[int(entry.name)] = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    return parents, commands


def _with_descendants(roots: set[int], parents: dict[int, int]) -> set[int]:
    found = set(roots)
    grown = True
    while grown:
        children = {pid for pid, parent in parents.items() if parent in found} - found
        found |= children
        grown = bool(children)
    return found


def _processes_of(root: Path) -> set[int]:
    """Every process whose command line names ``root``, and all their descendants."""
    parents, commands = _process_table()
    named = {pid for pid, command in commands.items() if str(root).encode() in command}
    return _with_descendants(named, parents) - {os.getpid()}


def _stop(root: Path) -> None:
    for _ in range(3):
        pids = _processes_of(root)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)


def _ray_start(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([RAY, "start", *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    # A short folder: Ray's socket paths inside it must stay under the kernel's limit.
    root = Path(tempfile.mkdtemp(prefix="arena-rc-", dir="/tmp"))
    home = root / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("RAY_") and key != "PYTHONPATH"}
    env.update(HOME=str(home), RAY_AUTH_TOKEN=secrets.token_hex(16),
               RAY_USAGE_STATS_ENABLED="0")
    port, dashboard = _free_ports(2)
    try:
        _ray_start(["--head", "--node-ip-address=127.0.0.1", f"--port={port}",
                    f"--dashboard-port={dashboard}", "--include-dashboard=false",
                    f"--temp-dir={root / 'ray'}", "--num-cpus=1", *_node_ports()], env)
        joined = Cluster(f"127.0.0.1:{port}", root, env)
        _join(joined)
        yield joined
    finally:
        _stop(root)
        shutil.rmtree(root, ignore_errors=True)


def _driver_with_the_bot(cluster: Cluster) -> tuple[dict[str, str], Path]:
    """The driver's environment: the cluster's, plus a bot package only it has."""
    packages = cluster.root / "driver-only"
    (packages / "shipped_bot").mkdir(parents=True, exist_ok=True)
    (packages / "shipped_bot" / "__init__.py").write_text("")
    (packages / "shipped_bot" / "plugin.py").write_text(BOT_PLUGIN)
    # The distribution's second top-level module, which the plugin imports: a node has it
    # only if the run ships it, and the node's sandbox binds it only if it is told (by the
    # distribution's metadata, shipped too) that the bot is made of it.
    (packages / "shipped_core.py").write_text(
        "def highest(legal_actions):\n    return max(legal_actions)\n")
    info = packages / "shipped_bot-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shipped-bot\nVersion: 0.1\n")
    (info / "top_level.txt").write_text("shipped_bot\nshipped_core\n")
    (info / "entry_points.txt").write_text("[arena]\nshipped = shipped_bot.plugin\n")
    config = cluster.root / "shipped.toml"
    config.write_text(CONFIG)
    return {**cluster.env, "PYTHONPATH": str(packages)}, config


def _arena(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ARENA, *args], env={**env, "COLUMNS": "120"}, capture_output=True,
                          text=True, timeout=300, check=False)


def _played(out: Path) -> list[dict[str, Any]]:
    """The recorded matches without their timings, in match-id order."""
    timings = {"seconds", "think_seconds", "max_move_seconds"}
    lines = [json.loads(line) for line in (out / "matches.jsonl").read_text().splitlines()]
    return sorted(({k: v for k, v in line.items() if k not in timings} for line in lines),
                  key=lambda line: str(line["id"]))


def test_a_run_on_a_two_node_cluster_ships_its_bot_and_equals_a_local_run(
    cluster: Cluster,
) -> None:
    env, config = _driver_with_the_bot(cluster)
    joined = _arena(env, "run", str(config), "--address", cluster.address,
                    "--out", str(cluster.root / "on-cluster"))
    assert joined.returncode == 0, joined.stdout[-3000:] + joined.stderr[-3000:]
    assert "Cluster: 2 node(s), 2 CPU(s)" in joined.stdout
    assert "bot packages shipped to the nodes: shipped_bot, shipped_core.py" in joined.stdout
    [per_node] = [line for line in joined.stdout.splitlines() if line.startswith("Matches per")]
    counts = [int(part.split()[1]) for part in per_node.partition(": ")[2].split(", ")]
    assert len(counts) == 2 and all(counts) and sum(counts) == 8  # both nodes played
    assert joined.stderr == ""  # none of Ray's own log lines reach the user
    on_cluster = _played(cluster.root / "on-cluster")
    statuses = {tuple(match["statuses"]) for match in on_cluster}
    assert statuses == {("ok", "ok")}, joined.stdout  # its faults, if any, are listed there

    local = _arena(env, "run", str(config), "--workers", "2", "--out", str(cluster.root / "local"))
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-3000:]
    assert _played(cluster.root / "local") == on_cluster


def test_joining_without_the_token_says_what_is_missing_in_one_line(cluster: Cluster) -> None:
    env, config = _driver_with_the_bot(cluster)
    del env["RAY_AUTH_TOKEN"]  # and HOME holds no ~/.ray/auth_token
    refused = _arena(env, "run", str(config), "--address", cluster.address,
                     "--out", str(cluster.root / "refused"))
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"arena: error: cannot join the Ray cluster at {cluster.address}: it requires token "
        f"authentication and no token was found; copy the cluster's token (run 'ray "
        f"get-auth-token' on its head) to ~/.ray/auth_token, or set RAY_AUTH_TOKEN"
    ]


LONG_CONFIG = """
[tournament]
name = "long"
game = "explorers-of-the-lost-valley"
players = 3
rounds = 1
seed = 2

[limits]
move_seconds = 5

[[bots]]
name = "random"
[[bots]]
name = "greedy"
[[bots]]
name = "shipped"
[[bots]]
name = "random"
label = "random-2"
"""
"""24 matches, 18 of them with ``shipped``, who thinks 1.5 s over its first move, its host
running meanwhile: the test kills a node while it is in the middle of a match. (With three
nodes of one CPU each, each node plays from the start: the third is caught thinking within
its first matches, and the other two play what is left, about 1.5 s a match.)"""


def _kill_node(manager_port: int) -> int:
    """SIGKILL the raylet serving ``manager_port`` and everything under it (its workers and
    their bot hosts); how many processes that was."""
    parents, commands = _process_table()
    doomed = _raylet_of(manager_port, parents, commands)
    for pid in doomed:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(doomed)


def _raylet_of(manager_port: int, parents: dict[int, int], commands: dict[int, bytes]
               ) -> set[int]:
    """The raylet serving ``manager_port``, and everything under it."""
    flag = f"--node_manager_port={manager_port}".encode()
    raylets = {pid for pid, command in commands.items()
               if b"/raylet/raylet" in command and flag in command}
    return _with_descendants(raylets, parents) if raylets else set()


def _shipped_thinks_on(manager_port: int) -> bool:
    """Whether a host of ``shipped`` on the node of ``manager_port`` runs (it is stopped
    between its turns and in the pool): it thinks, in the middle of a match. Seen from
    outside: a bot writes nothing outside its sandbox, not even a root arena's fallback
    host, whose mounts are read-only since red team round 10 (it wrote a beacon file)."""
    parents, commands = _process_table()
    for pid in _raylet_of(manager_port, parents, commands):
        command = commands.get(pid, b"")
        if b"arena.seats.host" not in command or b"--bot=shipped" not in command:
            continue
        with contextlib.suppress(OSError, IndexError):
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
            if state in ("R", "S", "D"):
                return True
    return False


def test_a_node_that_leaves_mid_run_loses_no_match_and_repeats_none(cluster: Cluster) -> None:
    manager_port = _join(cluster)  # a third node, to lose
    env, _ = _driver_with_the_bot(cluster)
    config = cluster.root / "long.toml"
    config.write_text(LONG_CONFIG)
    out = cluster.root / "node-lost"
    running = subprocess.Popen(
        [ARENA, "run", str(config), "--address", cluster.address, "--out", str(out)],
        env={**env, "COLUMNS": "120"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        # Kill the node while shipped thinks there: a match is in flight on it.
        deadline = time.monotonic() + 120
        matches = out / "matches.jsonl"
        thinking = False
        while time.monotonic() < deadline and not thinking:
            thinking = _shipped_thinks_on(manager_port)
            if not thinking:
                time.sleep(0.05)
        # Seen once is enough: asked again, its turn may be over (its host stopped again).
        assert thinking, "the third node never played"
        assert _kill_node(manager_port) >= 1
        stdout, stderr = running.communicate(timeout=300)
    finally:
        if running.poll() is None:
            running.kill()
            running.communicate()
    assert running.returncode == 0, stdout[-3000:] + stderr[-3000:]
    assert "Cluster: 3 node(s), 3 CPU(s)" in stdout
    assert stderr == ""  # Ray's lines on the lost node stay off the terminal
    assert "were lost with a dead worker and played again" in stdout  # the node had work
    ids = [json.loads(line)["id"] for line in matches.read_text().splitlines()]
    assert len(ids) == 24 and len(set(ids)) == 24  # 4 tables x 6 seatings x 1 round
    assert not (out / "failures.jsonl").exists()


HEAD_LOST_CONFIG = """
[tournament]
name = "headless"
game = "tiny-race"
players = 2
rounds = 30
seed = 4

[[bots]]
name = "random"
[[bots]]
name = "sleeper"
params = { seconds = 0.005 }
"""


def test_a_cluster_whose_head_stops_mid_run_ends_the_run_in_one_line(tmp_path: Path) -> None:
    """Drill (ops): the head of the cluster a run had joined was stopped mid-run. The run
    went silent for a minute (Ray's driver waits 60 s for its GCS), then Ray ended the
    process on the spot: exit status 1, not a word, no table. Now the run sees the head gone
    and stops with one line saying so, every recorded match intact."""
    root = Path(tempfile.mkdtemp(prefix="arena-hl-", dir="/tmp"))
    home = root / "home"
    home.mkdir()
    # PYTHONPATH kept: the head's workers and the driver find the tests' game and bot.
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env.update(HOME=str(home), RAY_AUTH_TOKEN=secrets.token_hex(16),
               RAY_USAGE_STATS_ENABLED="0", COLUMNS="120",
               ARENA_HEAD_PATIENCE="3")  # 20 s by default: the same watch, sooner
    [port] = _free_ports(1)
    # Outside ``root``: stopping the head stops what names ``root``, and not the driver.
    config, out = tmp_path / "headless.toml", tmp_path / "out"
    config.write_text(HEAD_LOST_CONFIG)
    try:
        _ray_start(["--head", "--node-ip-address=127.0.0.1", f"--port={port}",
                    "--include-dashboard=false", f"--temp-dir={root / 'ray'}", "--num-cpus=1",
                    *_node_ports()], env)
        running = subprocess.Popen(
            [ARENA, "run", str(config), "--address", f"127.0.0.1:{port}", "--out", str(out)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            matches = out / "matches.jsonl"
            while time.monotonic() < deadline and running.poll() is None and not (
                    matches.exists() and len(matches.read_text().splitlines()) >= 5):
                time.sleep(0.05)
            _stop(root)  # the head and everything under it, as 'ray stop' on its machine
            stdout, stderr = running.communicate(timeout=120)
        finally:
            if running.poll() is None:
                running.kill()
                running.communicate()
        assert running.returncode == 2, stdout[-3000:] + stderr[-3000:]
        [error] = stderr.splitlines()
        assert error.startswith(
            f"arena: error: the head of the Ray cluster at 127.0.0.1:{port} has not answered")
        assert re.search(r"has not answered for [34] s", error)  # ARENA_HEAD_PATIENCE
        assert "every match recorded before is safe" in error
        # the command it was given, so that it resumes on the cluster, not on a local instance
        assert error.endswith(f"continue with: arena run {config} --out {out} --address "
                              f"127.0.0.1:{port} --resume")
        ids = [json.loads(line)["id"] for line in matches.read_text().splitlines()]
        assert 5 <= len(ids) < 120 and len(set(ids)) == len(ids)
    finally:
        _stop(root)
        shutil.rmtree(root, ignore_errors=True)
