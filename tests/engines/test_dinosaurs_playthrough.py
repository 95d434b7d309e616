"""A checked-in playthrough: a seeded match, every action by id and name, replayed and compared.

A rule change that alters play shows up as a diff of
``tests/data/dinosaurs-playthrough.txt``. Regenerate it deliberately with
``DINOSAURS_PLAYTHROUGH=write pytest tests/engines/test_dinosaurs_playthrough.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from rich.text import Text
from test_dinosaurs_helpers import GAME

from arena.game import CHANCE, sample_chance
from engines.dinosaurs.state import DinosaursState

PLAYTHROUGH = Path(__file__).parent.parent / "data" / "dinosaurs-playthrough.txt"
PLAYERS, COINS, SEED = 3, 1, 1985


def _line(state: DinosaursState, action: int) -> str:
    who = state.current_player()
    actor = "chance" if who == CHANCE else f"seat {who}"
    return f"{action}\t{actor}: {state.action_to_string(action)}"


def _footer(state: DinosaursState) -> list[str]:
    return ["", f"scores {state.scores()} ranking {state.ranking()} end {state.end_reason}",
            Text.from_markup(state.render()).plain, ""]


def playthrough_text() -> str:
    """One seeded match of random moves, every action named, then the final table."""
    rng = random.Random(SEED)
    state = GAME.new_initial_state(PLAYERS, {"coins": COINS})
    lines = []
    while not state.is_terminal():
        legal = state.legal_actions()
        action = (sample_chance(state.chance_outcomes(), rng)
                  if state.current_player() == CHANCE
                  else legal[int(rng.random() * len(legal))])
        lines.append(_line(state, action))
        state.apply_action(action)
    return "\n".join([*lines, *_footer(state)])


def test_the_saved_playthrough_replays_move_by_move() -> None:
    """Each saved action is legal where it was played and has the same name; the final
    table is the same."""
    if os.environ.get("DINOSAURS_PLAYTHROUGH") == "write":
        PLAYTHROUGH.write_text(playthrough_text(), "utf-8")
    saved = PLAYTHROUGH.read_text("utf-8").split("\n")
    moves = saved[:saved.index("")]
    state = GAME.new_initial_state(PLAYERS, {"coins": COINS})
    for number, line in enumerate(moves, 1):
        action = int(line.split("\t")[0])
        assert action in state.legal_actions(), f"line {number}: {line}"
        assert _line(state, action) == line, f"line {number}"
        state.apply_action(action)
    assert state.is_terminal()
    assert "\n".join(saved[len(moves):]) == "\n".join(_footer(state))


def test_the_seeded_match_still_plays_as_saved() -> None:
    """The same seed still chooses the same moves: the rules and chance are unchanged."""
    assert playthrough_text() == PLAYTHROUGH.read_text("utf-8")
