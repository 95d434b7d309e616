"""A stored bot's environment (``arena submit``'s second step), with and without pip's
resolution for a bot that needs only the runtime.

A bot whose every requirement is the runtime as the environment holds it (``lostvalley-arena``
without extras, ``pluggy``) has nothing to resolve or download, and ``make_environment`` skips
pip's ``install --dry-run``; pip's install still checks its requirements. Here the wheel of a
bot made by ``arena new-bot`` gets an environment both ways, alternating, ``--repeats`` times;
the best of each and their ratio are reported, with the other steps of a submission not
timed (the wheel's build, the listing, the check: see ``Submission.seconds``).

    .venv/bin/python benchmarks/bench_submit.py --repeats 3
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

from arena import submit


def bot_wheel(scratch: Path) -> Path:
    """The wheel of a bot as ``arena new-bot`` writes it (it requires ``lostvalley-arena``)."""
    arena = Path(sys.executable).with_name("arena")
    subprocess.run([str(arena), "new-bot", "benched"], cwd=scratch, check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(scratch / "wheel"), str(scratch / "benched")],
                   check=True, capture_output=True)
    return next((scratch / "wheel").glob("*.whl"))


def environment_seconds(wheel: Path, scratch: Path, resolve: bool) -> float:
    target = scratch / "env"
    shutil.rmtree(target, ignore_errors=True)
    began = time.perf_counter()
    if resolve:  # as before: pip resolves even what the runtime meets
        with mock.patch.object(submit, "_needs_only_the_runtime", return_value=False):
            submit.make_environment(target, wheel, ["--no-index"])
    else:
        submit.make_environment(target, wheel, ["--no-index"])
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        wheel = bot_wheel(scratch)
        best = {True: float("inf"), False: float("inf")}
        for _ in range(args.repeats):
            for resolve in (True, False):
                best[resolve] = min(best[resolve], environment_seconds(wheel, scratch, resolve))
    print(f"environment with pip's resolution: {best[True]:.2f} s")
    print(f"environment without it:            {best[False]:.2f} s")
    print(f"ratio (without / with):            {best[False] / best[True]:.2f}")


if __name__ == "__main__":
    main()
