"""Round 18 of the documented contract: README.md followed word for word by a tournament
organiser, a spectator and player, and a bot author, and what they met that the README did
not say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
QUICK = ROOT / "configs" / "quick.toml"
ARENA = Path(sys.executable).parent / "arena"


def arena_command(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` as a user types it, in ``cwd``."""
    return subprocess.run(
        [str(ARENA), *args], cwd=cwd, capture_output=True, text=True,
        env={**os.environ, "COLUMNS": "200", **env}, timeout=120, check=False)


def test_a_local_ray_that_cannot_start_leaves_no_results_folder_behind(tmp_path: Path) -> None:
    """*Where the matches run*: "where that folder cannot be made or written, the run says so
    in one line", and a local instance that does not start leaves "nothing played and no
    folder left behind". `results/quick` went again, but the `results/` made for it stayed,
    empty, in the folder the user ran from."""
    (tmp_path / "not-a-folder").write_text("")
    done = arena_command("run", str(QUICK), "--workers", "1", cwd=tmp_path,
                         RAY_TMPDIR=str(tmp_path / "not-a-folder"))
    assert done.returncode == 2, done.stderr
    assert "RAY_TMPDIR" in done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["not-a-folder"]
