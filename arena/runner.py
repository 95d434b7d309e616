"""One tournament run: which matches are left, where they go, what is recorded.

The results folder is the source of truth. A fresh run refuses a folder that
already holds results; ``resume`` keeps what is recorded (after checking the
config is the same) and plays only the rest, failed matches included. Every
finished match is appended and flushed before it is shown, so an
interruption at any moment loses nothing that was shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.cluster import Connection, Dispatcher, Failed
from arena.config import TournamentConfig
from arena.errors import ArenaError
from arena.records import MatchResult, MatchSpec
from arena.store import RunStore


@dataclass(slots=True)
class RunPlan:
    """A run ready to start: its folder, what is already done, what is left."""

    config: TournamentConfig
    store: RunStore
    done: list[MatchResult]
    pending: list[MatchSpec]
    warnings: list[str] = field(default_factory=list)
    fresh: bool = True
    """No config saved in the folder yet: :func:`execute` writes it first."""

    @property
    def total(self) -> int:
        return len(self.done) + len(self.pending)


def plan(config: TournamentConfig, directory: Path, *, resume: bool) -> RunPlan:
    """Check the folder against ``resume`` and work out the matches left to play.

    Writes nothing (but cuts a torn last line off ``matches.jsonl`` when resuming),
    so a run that fails to start leaves no half-made folder behind."""
    store = RunStore(directory)
    saved = store.saved_config()
    if not resume and (saved is not None or store.has_results()):
        raise ArenaError(
            f"{directory} already holds a run; add --resume to continue it, "
            f"or choose another folder with --out"
        )
    if resume and saved is not None and not config.same_plan(_saved(saved, directory)):
        raise ArenaError(
            f"{directory} was started with a different config; resume it with the same "
            f"config (see {directory / 'config.json'}) or choose another folder with --out"
        )
    loaded = store.done()
    planned = {spec.id for spec in config.matches()}
    done = [result for result in loaded.results if result.id in planned]
    done_ids = {result.id for result in done}
    pending = [spec for spec in config.matches() if spec.id not in done_ids]
    return RunPlan(config, store, done, pending, loaded.warnings, fresh=saved is None)


def _saved(saved: dict[str, object], directory: Path) -> TournamentConfig:
    try:
        return TournamentConfig.from_json(saved)
    except (KeyError, TypeError) as exc:
        raise ArenaError(f"{directory / 'config.json'}: not a saved config ({exc!r})") from None


def execute(
    run: RunPlan,
    connection: Connection,
    on_result: Callable[[MatchResult], None],
    on_failure: Callable[[Failed], None],
) -> Dispatcher:
    """Play the pending matches; each is stored before the callbacks see it."""
    dispatcher = Dispatcher(connection.workers, in_flight=connection.in_flight)

    def record(result: MatchResult) -> None:
        run.store.append(result)
        on_result(result)

    def record_failure(failure: Failed) -> None:
        run.store.append_failure(failure.id, failure.reason)
        on_failure(failure)

    if run.fresh:
        run.store.start(run.config.to_json())
    with run.store:
        dispatcher.run(run.pending, record, record_failure)
    return dispatcher
