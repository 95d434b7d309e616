"""The end of the game: who won, and the places of everyone else."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.lost_explorers.table import BY_CLUES

if TYPE_CHECKING:
    from engines.lost_explorers.table import Table


def ranking_keys(table: Table) -> list[tuple[int, ...]]:
    """Per-seat keys, larger is better.

    By clues: the winner, then clues held, then the rulebook's stack-end keys.
    By empty stacks (or the turn cap): the rearmost Leader's slot, then fewer
    tokens in front, the rulebook's two keys and no more: seats equal on both
    share their place (RULINGS.md, ruling 24).
    """
    keys: list[tuple[int, ...]] = []
    for seat in range(table.num_players):
        stack_keys = (table.rearmost(seat), -table.token_count(seat))
        if table.ended == BY_CLUES:
            keys.append((int(seat == table.winner), len(table.clues[seat]), *stack_keys))
        else:
            keys.append(stack_keys)
    return keys


def secret_entrance(table: Table) -> tuple[int, int] | None:
    """(sum of the winner's clue numbers, the location it points to), once won by clues."""
    if table.ended != BY_CLUES:
        return None
    total = table.clue_sum(table.winner)
    return total, table.components.secret_entrance(total)
