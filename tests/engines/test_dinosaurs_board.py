"""The board: its shape as the rulebook and GAME-DATA.md describe it, and a checked file."""

from __future__ import annotations

import copy
import itertools
import tomllib
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from test_dinosaurs_helpers import BOARD, GAME, names, space

from engines.dinosaurs.board import (
    CROSSING,
    ENTRY,
    INNER_SWAMP,
    LAIR,
    RIVER,
    SWAMP,
    WALKABLE,
    BoardError,
    load_board,
    parse_board,
)

DOCUMENT: dict[str, Any] = tomllib.loads(
    resources.files("engines.dinosaurs").joinpath("board.toml").read_text("utf-8"))


def test_the_counts_of_the_published_board() -> None:
    """GAME-DATA.md: "a hex grid of about 149 spaces in 11 rows", 4 entry arrows, 6 lairs with
    2 footprints each, 2 caves, 2 ammunition dumps, 4 inner swamp spaces, 6 slope spaces."""
    terrain = BOARD.terrain
    assert 140 <= BOARD.size <= 150 and len(set(BOARD.y)) == 11
    assert len(BOARD.entries) == 4 and all(terrain[at] == ENTRY for at in BOARD.entries)
    assert len(BOARD.lairs) == 6 and all(len(marks) == 2 for marks in BOARD.footprints)
    assert len(BOARD.caves) == 2 and len(BOARD.ammo_dumps) == 2
    assert len(BOARD.temple_arrows) == 4
    assert terrain.count(INNER_SWAMP) == 4 and len(BOARD.volcano_slope) == 6
    assert len(BOARD.swamp_ring) == 10 and len(BOARD.swamp_exits) == 2


def test_three_rivers_one_with_two_crossings() -> None:
    """"There are two crossings for one river, but only one for the other two rivers.\""""
    crossings: dict[int, int] = {}
    for at, number in enumerate(BOARD.river):
        if number:
            assert BOARD.terrain[at] in (RIVER, CROSSING)
            crossings.setdefault(number, 0)
            crossings[number] += BOARD.terrain[at] == CROSSING
    assert sorted(crossings.values()) == [1, 1, 2]


def test_every_land_space_is_reachable_from_an_entry() -> None:
    """"They may enter or leave the valley by any of the four arrows": from them an explorer
    can walk (or wade) to every space of dry land or river."""
    ground = WALKABLE | {RIVER}
    seen = set(BOARD.entries)
    queue = deque(seen)
    while queue:
        for other in BOARD.neighbors[queue.popleft()]:
            if other not in seen and BOARD.terrain[other] in ground:
                seen.add(other)
                queue.append(other)
    land = {at for at, kind in enumerate(BOARD.terrain) if kind in ground}
    assert land <= seen


def test_the_swamp_ring_is_a_clockwise_cycle() -> None:
    """"The swamp monster moves 1 space in a clockwise motion (on the grey arrows).\""""
    ring = BOARD.swamp_ring
    for here, there in zip(ring, ring[1:] + ring[:1], strict=True):
        assert there in BOARD.neighbors[here]
    points = [(BOARD.x[at], BOARD.y[at]) for at in ring]
    # Shoelace with y growing downwards: clockwise on screen is a positive sum.
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2)
               in zip(points, points[1:] + points[:1], strict=True))
    assert area > 0
    assert sorted(ring) == [at for at, kind in enumerate(BOARD.terrain) if kind == SWAMP]
    assert BOARD.swamp_monster in ring


def test_only_the_exit_arrows_lead_out_of_the_swamp() -> None:
    """"In order to leave the swamp they must be based on an adjacent space with an arrow
    (exit arrow)." Inner spaces touch the ring; only exits touch dry land."""
    for at in BOARD.swamp_ring:
        dry = [other for other in BOARD.neighbors[at] if BOARD.terrain[other] in WALKABLE]
        assert bool(dry) == (at in BOARD.swamp_exits)
    for at, kind in enumerate(BOARD.terrain):
        if kind == INNER_SWAMP:
            assert any(other in BOARD.swamp_ring for other in BOARD.neighbors[at])


def test_each_lair_opens_onto_its_footprints() -> None:
    """"Explorers may escape from a lair by following the footprint spaces.\""""
    for lair, marks in zip(BOARD.lairs, BOARD.footprints, strict=True):
        assert BOARD.terrain[lair] == LAIR
        assert sorted(BOARD.neighbors[lair]) == sorted(marks)
        assert all(BOARD.lair_of(mark) == lair for mark in marks)


def test_the_temple_is_entered_from_its_arrow_spaces() -> None:
    """"They may enter on any spaces marked with an arrow.\""""
    assert sorted(BOARD.neighbors[BOARD.temple]) == sorted(BOARD.temple_arrows)
    assert names(list(BOARD.temple_arrows)) == ["e6", "e7", "f5", "f7"]


def test_the_lava_flow_runs_down_the_slope_to_the_valley() -> None:
    """"The first lava piece (A) is placed in the tip of the volcanic cone, then the next 5
    pieces (B - F)... The first piece to touch the valley is (G)"; lava never covers the
    swamp."""
    chain = [*BOARD.volcano_slope, BOARD.lava_start]
    for here, there in itertools.pairwise(chain):
        assert there in BOARD.neighbors[here]
    assert BOARD.lava_start in BOARD.lava_spaces
    assert not any(BOARD.terrain[at] in (SWAMP, INNER_SWAMP) for at in BOARD.lava_spaces)
    assert space("d9") == BOARD.lava_start


def _broken(change: Any) -> dict[str, Any]:
    document = copy.deepcopy(DOCUMENT)
    change(document)
    return document


def _space(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(entry for entry in document["spaces"] if entry["id"] == name)


def _unlink(document: dict[str, Any], first: str, second: str) -> None:
    _space(document, first)["next"].remove(second)


BROKEN = [
    (lambda d: d.pop("lava_start"), "missing top-level keys \\['lava_start'\\]"),
    (lambda d: _space(d, "a1").update(terrain="jungle"), "space 'a1': terrain must be one of"),
    (lambda d: _unlink(d, "a1", "a2"), "space 'a2' lists 'a1' in `next` but not the other way"),
    (lambda d: _space(d, "a1")["next"].append("zz9"),
     "space 'a1': next names unknown spaces \\['zz9'\\]"),
    (lambda d: _space(d, "g4").update(terrain="river"), "needs 3 rivers, one with two crossings"),
    (lambda d: d["swamp_ring"].reverse() or d["swamp_ring"].insert(0, d["swamp_ring"].pop(3)),
     "swamp_ring is not a cycle"),
    (lambda d: d.update(swamp_monster="a1"), "swamp_monster must start on a swamp ring space"),
    (lambda d: d.update(swamp_exits=["h2"]), "swamp exit 'h2' leads to no dry land"),
    (lambda d: d["volcano_slope"].reverse(), "volcano_slope"),
    (lambda d: d["lava_spaces"].append("h1"), "lava_spaces: lava never covers swamp space 'h1'"),
    (lambda d: d["lava_spaces"].append("d5"), "lava_spaces: lava never covers lair space 'd5'"),
    (lambda d: _space(d, "b1").update(footprints=["b0"]), "lair 'b1' must be next to its"),
    (lambda d: _space(d, "a5").update(terrain="land"), "needs 4 entry spaces, found 3"),
    (lambda d: _space(d, "f4").update(x="left"), "space 'f4': x must be an integer"),
    (lambda d: d["spaces"].append(dict(_space(d, "a1"))), "space 'a1' appears twice"),
    (lambda d: _space(d, "a1").update(terrain="temple-arrow"),
     "the temple must be next to every temple-arrow space"),
    (lambda d: _space(d, "a2").update(x=3), "spaces 'a1' and 'a2' are drawn on top of each"),
]


@pytest.mark.parametrize(("change", "message"), BROKEN)
def test_a_broken_board_gets_a_clear_error(change: Any, message: str) -> None:
    with pytest.raises(BoardError, match="dinosaurs: board file mine.toml: " + message):
        parse_board(_broken(change), "mine.toml")


def test_an_island_is_reported(tmp_path: Path) -> None:
    """A space nobody can walk to is named in the error."""
    def island(document: dict[str, Any]) -> None:
        for other in _space(document, "a1")["next"]:
            _unlink(document, other, "a1")
        _space(document, "a1")["next"] = []
    with pytest.raises(BoardError, match="spaces \\['a1'\\] cannot be reached from an entry"):
        parse_board(_broken(island), "mine.toml")


def test_a_board_file_is_loaded_through_the_game_option(tmp_path: Path) -> None:
    shipped = resources.files("engines.dinosaurs").joinpath("board.toml").read_text("utf-8")
    mine = tmp_path / "board.toml"
    mine.write_text(shipped.replace('swamp_monster = "h2"', 'swamp_monster = "k1"'))
    state = GAME.new_initial_state(2, {"board": str(mine)})
    assert state.board.names[state.monster] == "k1"
    mine.write_text("spaces = [")
    with pytest.raises(BoardError, match="is not valid TOML"):
        GAME.new_initial_state(2, {"board": str(mine)})
    with pytest.raises(BoardError, match="cannot be read"):
        load_board(str(tmp_path / "absent.toml"))


def test_a_board_file_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    """It escaped as ``UnicodeDecodeError``, no ``InvalidOptions``."""
    board = tmp_path / "latin1.toml"
    board.write_bytes("# plateau du volcan\n[spaces]\nname = 'caf\u00e9'\n".encode("latin-1"))
    with pytest.raises(BoardError, match=r"latin1.toml: is not UTF-8 text \(byte 0xe9 at "
                                         r"offset \d+\)"):
        load_board(str(board))
