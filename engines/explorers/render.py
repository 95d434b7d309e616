"""A terminal view of the table (rich markup)."""

from __future__ import annotations

from engines.explorers import phases
from engines.explorers.cards import DINOSAUR, SPECIES, CardSet
from engines.explorers.table import Table


def card_text(cards: CardSet, card: int) -> str:
    """One card on one line: species, difficulty, points and damage for a dinosaur."""
    if card < 0:
        return "[dim](empty)[/dim]"
    if cards.kind[card] != DINOSAUR:
        return f"[magenta]{cards.names[card]}[/magenta] (advantage)"
    return (f"[green]{cards.names[card]}[/green] {SPECIES[cards.species[card]]} "
            f"difficulty {cards.difficulty[card]}, {cards.points[card]} points, "
            f"damage {cards.damage_success[card]}/{cards.damage_failure[card]}")


def _names(cards: CardSet, held: list[int]) -> str:
    return ", ".join(cards.names[card] for card in held) or "-"


def _explorer(state: Table, seat: int, points: int) -> list[str]:
    cards = state.cards
    marks = " [red](abandoned)[/red]" if state.abandoned[seat] else ""
    marks += " [bold]<- on move[/bold]" if seat == state.current_player() else ""
    trail = ", ".join(SPECIES[s] for s in state.trail_tokens[seat]) or "-"
    return [
        f"[bold]seat {seat}[/bold]{marks}: {state.exploration_tokens[seat]} exploration tokens, "
        f"{state.ammunition[seat]} ammunition, {state.trophies[seat]} trophies, "
        f"{points} points now",
        f"    dinosaurs: {_names(cards, state.dinosaurs[seat])}",
        f"    advantages: {_names(cards, state.advantages[seat])}",
    ] + ([f"    trail tokens: {trail}"] if state.advanced else [])


def _status(state: Table) -> str:
    text = f"phase {phases.NAMES[state.phase]}"
    if state.hunt_slot >= 0:
        last = f" (last {state.last_roll})" if state.hunt_rolls else ""
        text += (f"; hunting row[{state.hunt_slot}], {state.hunt_rolls} rolls{last}, "
                 f"{state.hunt_ammunition} ammunition used")
    if state.revealed >= 0:
        text += f"; the Hound revealed {card_text(state.cards, state.revealed)}"
    if state.steal_victim >= 0:
        text += f"; stealing from seat {state.steal_victim}"
    if state.discard_locked:
        text += "; discard locked this turn"
    if state.steal_locked:
        text += "; steal locked this turn"
    return text


def render(state: Table) -> str:
    """The row, the centre and every explorer's tokens, cards and trophies."""
    cards = state.cards
    # Before the roll-off the state's first player is a placeholder (seat 0), not a seat.
    first = ("first player not drawn yet" if state.phase == phases.FIRST_PLAYER
             else f"first player seat {state.first_player}")
    lines = [
        f"[bold]Explorers of the Lost Valley[/bold] - adventure {state.adventure}, "
        f"turn {state.turns}, {first}",
        _status(state),
        f"deck: {len(state.deck)} cards; centre ammunition: {state.center_ammunition}",
        f"discards: {_names(cards, state.discards)}",
        "row:",
    ]
    lines += [f"  [{slot}] {card_text(cards, card)}" for slot, card in enumerate(state.row)]
    points = state.points_now()
    for seat in range(state.num_players):
        lines += _explorer(state, seat, points[seat])
    if state.history:
        lines.append("adventure points so far: " + "; ".join(
            " ".join(str(value) for value in past) for past in state.history))
    return "\n".join(lines)
