"""Small builders shared by the framework tests."""

from __future__ import annotations

from typing import Any

from arena.records import Limits, MatchSpec, SeatSpec


def spec(
    *bots: str | SeatSpec,
    game: str = "tiny-race",
    seed: int = 7,
    options: dict[str, Any] | None = None,
    limits: Limits | None = None,
    match_id: str = "r001-t000001-s001",
) -> MatchSpec:
    """A one-off match spec; a bot given by name plays under its own name."""
    seats = tuple(
        b if isinstance(b, SeatSpec) else SeatSpec(label=f"{b}-{i}", bot=b)
        for i, b in enumerate(bots)
    )
    return MatchSpec(
        id=match_id,
        game=game,
        options=options or {},
        seats=seats,
        seed=seed,
        bot_seeds=tuple(100 + i for i in range(len(seats))),
        limits=limits or Limits(move_seconds=1.0, bank_seconds=1.0),
    )


def outcome(result: Any) -> tuple[Any, ...]:
    """The parts of a result that must not depend on timing or on the worker."""
    return (
        result.id,
        result.seats,
        result.scores,
        result.ranking,
        result.statuses,
        result.actions,
        result.history,
    )
