"""The legal actions of each phase, for the seat on move (decisions only)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from engines.dinosaurs import actions as A
from engines.dinosaurs import phases as P

if TYPE_CHECKING:
    from engines.dinosaurs.rules import Rules


def _explorers(numbers: Iterable[int], optional: bool = False) -> list[int]:
    chosen = [A.EXPLORER + number for number in numbers]
    return [A.DONE, *chosen] if optional else chosen


def _move_step(rules: Rules) -> list[int]:
    steps = rules.explorer_choices(rules.mover, rules.visited, rules.steps_left)
    return [*steps, A.EXIT] if rules.can_exit(rules.mover) else steps


def _ptera_drop(rules: Rules) -> list[int]:
    if rules.mover // 4 == rules.player:
        return rules.safe_spaces()
    return rules.dangerous_spaces()


def _shoot_push(rules: Rules) -> list[int]:
    dinosaur = rules.dinosaur
    return rules.dinosaur_steps(dinosaur, 1, 1 << rules.dinosaurs[dinosaur])


def _dino_pick(rules: Rules) -> list[int]:
    """The dinosaurs not moved yet by this card; only those that can step, if any can."""
    left = [dinosaur for dinosaur in range(len(rules.dinosaurs))
            if not rules.dinosaurs_moved >> dinosaur & 1]
    count = rules.dinosaur_moves[0]
    able = [dinosaur for dinosaur in left if rules.can_step(dinosaur, count)]
    return [A.DINOSAUR + dinosaur for dinosaur in able or left]


DECISIONS: dict[int, Callable[[Rules], list[int]]] = {
    P.MOVE_PICK: lambda rules: rules.move_choices(),
    P.MOVE_STEP: _move_step,
    P.AFTER_MOVE: lambda rules: [A.DONE, *rules.extra_choices()],
    P.SHOOT_PUSH: _shoot_push,
    P.LAIR_PICK: lambda rules: rules.free_lairs(),
    P.DINO_PICK: _dino_pick,
    P.DINO_STEP: lambda rules: rules.dinosaur_choices(rules.dinosaur, rules.steps_left,
                                                       rules.visited),
    P.LAVA_PLACE: lambda rules: rules.lava_targets(),
    P.LAVA_LIFT: lambda rules: [*rules.lava_lifts(), A.DONE],
    P.LAVA_DROP: lambda rules: rules.lava_drops(rules.lifted),
    P.PTERA_PICK: lambda rules: _explorers(rules.pteranodon_picks(), optional=True),
    P.PTERA_DROP: _ptera_drop,
    P.FALL_PICK: lambda rules: _explorers(rules.fall_picks()),
    P.FALL_DROP: lambda rules: rules.fall_spaces(),
    P.ESCAPE_PICK: lambda rules: _explorers(rules.escape_picks(), optional=True),
    P.ESCAPE_DROP: lambda rules: rules.escape_spaces(rules.mover),
    P.FIGHT_PICK: lambda rules: _explorers(rules.fight_picks()),
    P.FIGHT_DROP: lambda rules: rules.free_footprints(rules.explorers[rules.mover]),
    P.WATER_PICK: lambda rules: _explorers(rules.water_picks()),
    P.WATER_STEP: lambda rules: rules.explorer_steps(rules.mover, rules.visited,
                                                      water_run=True),
    P.SECRET_DROP: lambda rules: rules.free_caves(),
}
"""Per decision phase, the function listing its legal actions (sorted)."""
