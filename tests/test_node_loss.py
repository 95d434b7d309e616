"""A simulated multi-node Ray cluster (``ray.cluster_utils.Cluster``) that loses a node
mid-run: the tournament still completes, every match recorded exactly once.

The cluster lives in a child process: the test session's own Ray runtime stays as it is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys, threading, time
import ray
from ray.cluster_utils import Cluster
sys.path.insert(0, sys.argv[1])
from helpers import spec
from arena.cluster import Dispatcher
from arena.records import Limits, SeatSpec

cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
doomed = cluster.add_node(num_cpus=1)
cluster.add_node(num_cpus=1)
ray.init(address=cluster.address, log_to_driver=False)
cluster.wait_for_nodes()
sleeper = SeatSpec("sleeper", "sleeper", {"seconds": 0.02})
limits = Limits(move_seconds=1.0, bank_seconds=1.0)
# 30: the node goes once 5 are in, with the next batches in flight on both nodes.
specs = [spec(sleeper, "random", seed=i, match_id=f"r001-t{i:06d}-s001", limits=limits)
         for i in range(30)]
results, failures = [], []
removed = threading.Event()

def on_result(result):
    results.append(result.id)
    if len(results) == 5 and not removed.is_set():
        # Removed while the driver waits here: batches are in flight on both nodes, and
        # those on the doomed one can only come back as lost.
        removed.set()
        cluster.remove_node(doomed)

dispatcher = Dispatcher(2, batch_seconds=0.5)
dispatcher.run(specs, on_result, failures.append)
print(json.dumps({"results": results, "failures": [f.id for f in failures],
                  "retried": dispatcher.retried, "removed": removed.is_set(),
                  "expected": [s.id for s in specs]}))
ray.shutdown()
cluster.shutdown()
"""


def test_losing_a_node_mid_run_loses_no_match_and_repeats_none(tmp_path: Path) -> None:
    env = {**os.environ}
    env.pop("RAY_ADDRESS", None)
    script = tmp_path / "node_loss.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(Path(__file__).parent)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["removed"] and summary["retried"] >= 1  # the lost node had work on it
    assert summary["failures"] == []
    assert sorted(summary["results"]) == sorted(summary["expected"])  # each exactly once
