"""The terminal map: every space at its drawing position, pieces on it, a legend, 80 columns."""

from __future__ import annotations

from rich.text import Text
from test_dinosaurs_helpers import BOARD, put, put_dinosaur, space, started

from engines.dinosaurs.render import COLUMN_WIDTH


def _plain_map(text: str) -> list[str]:
    lines = Text.from_markup(text).plain.splitlines()
    return lines[3:3 + 11]  # title, two status lines, then the 11 rows


def _cell(lines: list[str], name: str) -> str:
    at = space(name)
    column = BOARD.x[at] * COLUMN_WIDTH
    return lines[BOARD.y[at]][column:column + 3]


def test_every_space_is_drawn_where_the_board_file_puts_it() -> None:
    lines = _plain_map(started().render())
    assert len(lines) == 11
    assert _cell(lines, "a5") == "E  " and _cell(lines, "g6") == "~  "
    assert _cell(lines, "f6") == "T  " and _cell(lines, "i2") == "&  "
    assert _cell(lines, "i4") == "%  " and _cell(lines, "g4") == "=  "


def test_pieces_lava_and_coins_show_on_their_spaces() -> None:
    state = put(put(started(4), 0, "b5"), 5, "b6")
    put(state, 9, "b6")
    put_dinosaur(state, 2, "c3")
    state.lava[space("d9")] = True
    state.coins[space("c6")] = 1
    state.carrying[0] = True
    lines = _plain_map(state.render())
    assert _cell(lines, "b5") == ".g$"
    assert _cell(lines, "b6") == ".* "  # explorers of two seats
    assert _cell(lines, "c3") == ".3 "  # dinosaur number 3 (index 2)
    assert _cell(lines, "h2") == "%M "  # the swamp monster
    assert _cell(lines, "d9") == "###" and _cell(lines, "c6") == ". $"
    assert _cell(lines, "d5") == "L2 "  # a dinosaur at home in its lair


def test_the_legend_and_the_seats_fit_80_columns() -> None:
    plain = Text.from_markup(started(4).render()).plain
    assert max(len(line) for line in plain.splitlines()) <= 80
    for word in ("land", "entry", "river", "crossing", "swamp", "inner-swamp", "lair",
                 "footprint", "temple", "temple-arrow", "cave", "ammo-dump", "slope",
                 "dinosaurs", "swamp monster", "lava", "coin", "green", "orange", "brown",
                 "cream", "<- on move"):
        assert word in plain
