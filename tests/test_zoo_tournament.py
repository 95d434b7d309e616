"""The zoo of hostile bots in a real tournament: ``arena run`` on Ray, sandboxed seats.

Every match is recorded once, each zoo bot ends with its own status in
every match it plays, matches between good bots are untouched, what the
bots printed lands in ``outputs/``, the snoop finds nothing, and no bot
process is left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from helpers import alive, bot_hosts_under

EXPECTED = {
    "random": "ok",
    "random-2": "ok",
    "zoo-chatty": "ok",
    "zoo-forker": "ok",
    "zoo-snoop": "ok",
    "zoo-native-loop": "timeout",
    "zoo-exit": "crash",
    "zoo-segfault": "crash",
    "zoo-hog": "error",
    "crasher": "error",
    "cheater": "illegal",
}


def config(tmp_path: Path) -> Path:
    entries = []
    for label in EXPECTED:
        name = "random" if label == "random-2" else label
        params = ""
        if label == "zoo-snoop":
            params = f'params = {{ targets = ["{tmp_path / "run"}"] }}\n'
        entries.append(f'[[bots]]\nname = "{name}"\nlabel = "{label}"\n{params}')
    text = (
        '[tournament]\nname = "zoo"\ngame = "tiny-race"\nplayers = 2\nrounds = 1\nseed = 3\n'
        'seating = "rotations"\n\n' + "\n".join(entries) + "\n[limits]\nmove_seconds = 0.2\n"
        'bank_seconds = 0.1\nstartup_seconds = 5\nmemory_mb = 512\nsandbox = "required"\n'
    )
    path = tmp_path / "zoo.toml"
    path.write_text(text)
    return path


def arena(*args: str) -> tuple[subprocess.CompletedProcess[str], set[int]]:
    """Run an ``arena`` command; also every bot host seen under it while it ran."""
    env = {**os.environ, "COLUMNS": "160", "ARENA_TEST_SECRET": "hunter2"}
    env.pop("RAY_ADDRESS", None)
    command = [str(Path(sys.executable).parent / "arena"), *args]
    seen: set[int] = set()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env) as running:
        deadline = time.monotonic() + 400
        while running.poll() is None and time.monotonic() < deadline:
            seen |= bot_hosts_under(running.pid)
            time.sleep(0.2)
        stdout, stderr = running.communicate(timeout=60)
    done = subprocess.CompletedProcess(command, running.returncode, stdout, stderr)
    return done, seen


def test_the_zoo_plays_a_whole_tournament_without_harm(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done, hosts = arena("run", str(config(tmp_path)), "--out", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (out / "matches.jsonl").read_text().splitlines()]
    count = len(EXPECTED) * (len(EXPECTED) - 1)
    assert len(records) == count and len({r["id"] for r in records}) == count
    assert not (out / "failures.jsonl").exists()
    seen: Counter[tuple[str, str]] = Counter()
    for record in records:
        for label, status in zip(record["seats"], record["statuses"], strict=True):
            seen[label, status] += 1
    assert seen == Counter({(label, status): 2 * (len(EXPECTED) - 1)
                            for label, status in EXPECTED.items()})
    printed = [path.read_text() for path in (out / "outputs").glob("*.txt")]
    snooped = [text for text in printed if "zoo-snoop" in text]
    assert snooped and all("SNOOPED" in text and "FOUND:" not in text for text in snooped)
    assert not (out / "snooped.txt").exists()
    chatty = [text for text in printed if "thinking about" in text]
    assert len(chatty) == 2 * (len(EXPECTED) - 1)
    assert hosts, "no bot host was seen while the tournament ran"
    for _ in range(25):
        if not [pid for pid in hosts if alive(pid)]:
            break
        time.sleep(0.2)
    assert [pid for pid in hosts if alive(pid)] == []


def test_arena_bots_reports_a_bot_plugin_that_fails_to_import() -> None:
    done, _ = arena("bots")
    assert done.returncode == 0, done.stderr
    assert "zoo-snoop" in done.stdout
    assert "testzoo-broken" in done.stdout and "broken on purpose" in done.stdout
