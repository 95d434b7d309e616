"""A terminal view of the valley (rich markup, at most 80 columns wide).

Each space is three characters at its drawing position: the terrain, then
what stands there (a dinosaur, the swamp monster, explorers), then ``$``
where a coin lies or is carried. Lava covers the whole space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.dinosaurs import phases
from engines.dinosaurs.cards import NAMES
from engines.dinosaurs.table import OUTSIDE

if TYPE_CHECKING:
    from engines.dinosaurs.table import Table

TERRAIN_GLYPHS = (
    ("land", ".", "green"), ("entry", "E", "bold white"), ("river", "~", "blue"),
    ("crossing", "=", "bold blue"), ("swamp", "%", "dark_olive_green3"),
    ("inner-swamp", "&", "dark_olive_green3"), ("lair", "L", "bold yellow"),
    ("footprint", "f", "yellow"), ("temple", "T", "bold magenta"),
    ("temple-arrow", "^", "magenta"), ("cave", "C", "cyan"), ("ammo-dump", "A", "cyan"),
    ("slope", "V", "red"),
)
"""(terrain, glyph, style) by terrain id."""
SEATS = (("green", "g", "bold green"), ("orange", "o", "bold dark_orange"),
         ("brown", "b", "bold orange4"), ("cream", "c", "bold wheat1"))
"""(colour name, letter, style) of each seat's explorers."""
COLUMN_WIDTH = 2
"""Characters per half-space of drawing position."""


def _piece(table: Table, space: int) -> str:
    if space in table.dinosaurs:
        return f"[bold white on red]{table.dinosaurs.index(space) + 1}[/]"
    if space == table.monster:
        return "[bold white on magenta]M[/]"
    seats = {number // 4 for number in table.explorers_at(space)}
    if len(seats) > 1:
        return "[bold]*[/]"
    if seats:
        _, letter, style = SEATS[seats.pop()]
        return f"[{style}]{letter}[/]"
    return " "


def _cell(table: Table, space: int) -> str:
    if table.lava[space]:
        return "[bold yellow on red]###[/]"
    _, glyph, style = TERRAIN_GLYPHS[table.board.terrain[space]]
    carried = any(table.carrying[number] for number in table.explorers_at(space))
    coin = "[bold yellow]$[/]" if table.coins[space] or carried else " "
    return f"[{style}]{glyph}[/]{_piece(table, space)}{coin}"


def _map_lines(table: Table) -> list[str]:
    board = table.board
    rows: dict[int, list[int]] = {}
    for space in range(board.size):
        rows.setdefault(board.y[space], []).append(space)
    lines = []
    for y in range(max(rows) + 1):
        line, width = "", 0
        for space in sorted(rows.get(y, []), key=lambda s: board.x[s]):
            column = board.x[space] * COLUMN_WIDTH
            line += " " * max(0, column - width) + _cell(table, space)
            width = max(column, width) + 3
        lines.append(line)
    return lines


def _legend() -> list[str]:
    glyphs = [f"[{style}]{glyph}[/] {name}" for name, glyph, style in TERRAIN_GLYPHS]
    return [" ".join(glyphs[:7]), " ".join(glyphs[7:]),
            "[bold white on red]1[/]-[bold white on red]6[/] dinosaurs  "
            "[bold white on magenta]M[/] swamp monster  [bold yellow on red]###[/] lava  "
            "[bold yellow]$[/] coin  [bold]*[/] explorers of several seats",
            "explorers: " + "  ".join(f"[{style}]{letter}[/] {colour}"
                                      for colour, letter, style in SEATS)]


def _seat_line(table: Table, seat: int) -> str:
    colour, letter, style = SEATS[seat]
    places = [table.explorers[number] for number in table.own(seat)]
    carried = sum(table.carrying[number] for number in table.own(seat))
    marker = "  [bold]<- on move[/]" if seat == table.player and table.phase != phases.OVER else ""
    return (f"[{style}]{letter}[/] seat {seat} {colour:6} {table.coins_out[seat]:>3}/"
            f"{table.coins_to_win} {table.alive(seat):>5} {places.count(OUTSIDE):>7} "
            f"{places.count(table.board.temple):>6} {carried:>8} {table.secret_paths[seat]:>5} "
            f"{table.bullets[seat]:>7}{marker}")


SEAT_HEADER = "seat             coins alive outside temple carrying paths bullets"


def _status(table: Table) -> str:
    card = NAMES[table.card] if table.card >= 0 else "-"
    text = (f"turn {table.turns}, {phases.NAMES[table.phase]}; card: {card}\n"
            f"deck {sum(table.deck)} cards; temple roof {table.temple_coins} coins; "
            f"lava {table.lava_placed}/30 placed")
    if table.phase == phases.OVER:
        outcome = f"won by seat {table.winner}" if table.winner >= 0 else "first place shared"
        text += f"; over ({table.end_reason}), {outcome}"
    return text


def render(table: Table) -> str:
    """The map, a legend, and every seat's coins and explorers."""
    lines = ["[bold]Lost Valley of the Dinosaurs[/bold]", _status(table), *_map_lines(table)]
    lines += _legend()
    lines += [SEAT_HEADER, *(_seat_line(table, seat) for seat in range(table.num_players))]
    return "\n".join(lines)
