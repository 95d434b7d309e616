"""What a seat sees: the whole table but the hidden sides.

Hidden from everyone: the mission side of tokens still in the stacks or
taken vehicle side up (the vehicle side of every stack token is in view, in
order). Hidden from the other seats: the numbers on a player's clue tiles
(their count is public). None of it is in the state to leak: it is drawn when revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.game import Static
from engines.lost_explorers import phases as P
from engines.lost_explorers.components import MISSIONS, TOKENS, VEHICLES, Components
from engines.lost_explorers.scoring import secret_entrance
from engines.lost_explorers.table import END_NAMES

if TYPE_CHECKING:
    from engines.lost_explorers.state import LostExplorersState


def mission_view(components: Components, mission: int) -> dict[str, Any]:
    """One mission: its id, vehicle, locations (ids) and track (id)."""
    return {"id": mission, "vehicle": VEHICLES[components.mission_vehicle[mission]],
            "locations": list(components.mission_locations[mission]),
            "track": components.mission_track[mission]}


_BOXES: dict[int, tuple[Components, Static]] = {}


def box_view(components: Components) -> Static:
    """What the box holds that the table does not show: every mission (its vehicle,
    locations and track; ids from ``starting_from`` on are the starting tokens'), the
    locations with a Validated Location marker, and the clue tiles' numbers (which tile
    a seat holds stays hidden). Public facts, built once per component set and shared by
    every observation (read-only: see :class:`arena.game.Static`)."""
    found = _BOXES.get(id(components))
    if found is None or found[0] is not components:
        if len(_BOXES) >= 4:  # a component file read anew for each match: keep a few
            _BOXES.clear()
        view = Static({
            "missions": [{"vehicle": VEHICLES[components.mission_vehicle[m]],
                          "locations": list(components.mission_locations[m]),
                          "track": components.mission_track[m]} for m in range(MISSIONS)],
            "starting_from": TOKENS,
            "markers": list(components.markers),
            "clue_numbers": list(components.clue_numbers),
        })
        found = _BOXES[id(components)] = (components, view)
    return found[1]


def _vehicle_counts(counts: list[int]) -> dict[str, int]:
    return dict(zip(VEHICLES, counts, strict=True))


def _locations(state: LostExplorersState) -> list[dict[str, Any]]:
    components = state.components
    return [{"id": place, "name": name,
             "route": [VEHICLES[v] for v in components.routes[place]],
             "validated": state.validated[place],
             "member": state.occupant[place] if state.occupant[place] >= 0 else None}
            for place, name in enumerate(components.location_names)]


def _players(state: LostExplorersState) -> list[dict[str, Any]]:
    components = state.components
    return [{
        "seat": seat,
        "vehicles": _vehicle_counts(state.vehicles[seat]),
        "missions": [mission_view(components, m) for m in state.missions[seat]],
        "members_in_front": state.members_front[seat],
        "members_total": state.members_total[seat],
        "members_on_locations": [p for p, s in enumerate(state.occupant) if s == seat],
        "leaders": state.leaders[seat][:],
        "clues": len(state.clues[seat]),
        "tokens": state.token_count(seat),
    } for seat in range(state.num_players)]


def _ending(state: LostExplorersState) -> dict[str, Any] | None:
    if not state.ended:
        return None
    found = secret_entrance(state)
    return {"by": END_NAMES[state.ended], "winner": state.winner if state.winner >= 0 else None,
            "clue_sum": found[0] if found else None,
            "secret_entrance": state.components.location_names[found[1]] if found else None}


def _completed(state: LostExplorersState) -> list[int]:
    """Missions turned over and since completed: neither face down nor held."""
    unseen = {m for pool in state.hidden_missions for m in pool}
    for held in state.missions:
        unseen.update(held)
    return [m for m in range(MISSIONS) if m not in unseen]


def build(state: LostExplorersState, seat: int) -> dict[str, Any]:
    """The observation of ``seat``: a JSON-able dict, freshly built (never shared). A seat
    outside the match is refused: ``-1`` (``CHANCE``) would index the last seat's clue tiles."""
    if (not isinstance(seat, int) or isinstance(seat, bool)
            or not 0 <= seat < state.num_players):
        raise ValueError(f"lost-explorers: no seat {seat!r} in a game of {state.num_players}")
    components = state.components
    return {
        "game": "lost-explorers",
        "seat": seat,
        "num_players": state.num_players,
        "phase": P.NAMES[state.phase],
        "current_player": state.current_player(),
        "turn": state.turn,
        "first_player": state.first_player,
        "can_send": state.send_limit() if state.phase == P.PHASE_1 else 0,
        "sent_this_turn": state.sent,  # at a draw in the middle of a turn too
        "locations": _locations(state),
        "stacks": [{"count": state.stack_left[stack],
                    "visible": [VEHICLES[v] for v in state.visible[stack]]} for stack in (0, 1)],
        "equipment_areas": state.area_members[:],
        "discard": _vehicle_counts(state.discard),
        "tracks": [{"name": name, "length": components.track_length[track],
                    "glasses": list(components.glasses[track])}
                   for track, name in enumerate(components.track_names)],
        "players": _players(state),
        "my_clues": [components.clue_numbers[tile] for tile in state.clues[seat]],
        "clue_tiles_left": len(state.clue_pool),
        "completed_missions": _completed(state),
        "completing": ({**mission_view(components, state.completing),
                        "clue_tiles": state.clues_due}
                       if state.completing >= 0 else None),
        "end": _ending(state),
        "box": box_view(components),
    }
