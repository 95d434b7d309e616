"""A terminal view of the table (rich markup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.lost_explorers import phases as P
from engines.lost_explorers.actions import MAX_SENT
from engines.lost_explorers.components import VEHICLES
from engines.lost_explorers.describe import mission_label
from engines.lost_explorers.scoring import secret_entrance
from engines.lost_explorers.table import END_NAMES

if TYPE_CHECKING:
    from engines.lost_explorers.state import LostExplorersState


def _counts(counts: list[int]) -> str:
    return ", ".join(f"{n} {VEHICLES[v]}" for v, n in enumerate(counts) if n) or "-"


def _stack(order: list[int]) -> str:
    """A stack's tokens from the 1st down: the four an Equipment action can reach, then
    the rest."""
    reach = ", ".join(VEHICLES[v] for v in order[:MAX_SENT]) or "empty"
    below = ", ".join(VEHICLES[v] for v in order[MAX_SENT:])
    return f"{reach}; further down: {below}" if below else reach


def _locations(state: LostExplorersState) -> list[str]:
    components, lines = state.components, ["World Map (routes from Venice):"]
    for place, name in enumerate(components.location_names):
        route = ", ".join(VEHICLES[v] for v in components.routes[place])
        mark = " [green]VALIDATED[/green]" if state.validated[place] else ""
        who = state.occupant[place]
        member = f" - member of seat {who}" if who >= 0 else ""
        lines.append(f"  {place:2} {name} ({route}){mark}{member}")
    return lines


def _track(state: LostExplorersState, track: int) -> str:
    components = state.components
    glasses = components.glasses[track]
    cells = []
    for slot in range(1, components.track_length[track] + 1):
        here = "".join(str(seat) for seat in range(state.num_players)
                       if state.leaders[seat][track] == slot)
        cells.append((here or ".") + ("?" if slot in glasses else ""))
    return f"  {components.track_names[track]:>8}: " + " ".join(cells)


def _player(state: LostExplorersState, seat: int, viewer: int | None) -> list[str]:
    components = state.components
    mark = " [bold]<- on move[/bold]" if seat == state.current_player() else ""
    numbers = ", ".join(str(components.clue_numbers[t]) for t in state.clues[seat]) or "-"
    if viewer is not None and viewer != seat and not state.ended and state.clues[seat]:
        numbers = f"{len(state.clues[seat])} (numbers hidden)"
    places = ", ".join(components.location_names[p] for p, s in enumerate(state.occupant)
                       if s == seat) or "-"
    lines = [f"[bold]seat {seat}[/bold]{mark}: {state.members_front[seat]} of "
             f"{state.members_total[seat]} members in front, leaders at "
             f"{state.leaders[seat][0]}/{state.leaders[seat][1]}, clues {numbers}",
             f"    on locations: {places}",
             f"    vehicles: {_counts(state.vehicles[seat])}"]
    lines += [f"    {mission_label(components, m)}" for m in state.missions[seat]]
    return lines


def _ending(state: LostExplorersState) -> list[str]:
    if not state.ended:
        return []
    line = f"[bold]game over[/bold] by {END_NAMES[state.ended]}; ranking {state.ranking()}"
    found = secret_entrance(state)
    if found:
        line += (f"; seat {state.winner}'s clues add up to {found[0]}: the entrance to the "
                 f"lost world is at {state.components.location_names[found[1]]}")
    return [line]


def render(state: LostExplorersState, viewer: int | None = None) -> str:
    """The map, the stacks, the discard area, the tracks and every player's table; with a
    ``viewer`` seat, the other seats' clue numbers hidden until the game is over."""
    # Until the draw the state's first player is -1, not a seat.
    first = (f"first player seat {state.first_player}" if state.first_player >= 0
             else "first player not drawn yet")
    lines = [f"[bold]Lost Explorers[/bold] - turn {state.turn}, {first}, "
             f"phase {P.NAMES[state.phase]}"]
    lines += _locations(state)
    for stack in (0, 1):
        tops = _stack(state.visible[stack])
        used = state.area_members[stack]
        area = (f"; {used} member{'s' if used > 1 else ''} on its Equipment area"
                if used else "")
        lines.append(f"stack {stack}: {state.stack_left[stack]} tokens, within reach: "
                     f"{tops}{area}")
    lines.append(f"discard area: {_counts(state.discard)}; clue tiles left: "
                 f"{len(state.clue_pool)}")
    lines.append("Discovery tracks (seats on each slot, ? = magnifying glass):")
    lines += [_track(state, track) for track in (0, 1)]
    for seat in range(state.num_players):
        lines += _player(state, seat, viewer)
    return "\n".join(lines + _ending(state))
