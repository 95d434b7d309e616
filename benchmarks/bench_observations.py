"""Benchmark: what an observation costs, and a greedy match against a random one.

Per game with a static part (the Explorers card table, the Dinosaurs board):

- ``observation()`` in µs now, and the cost of rebuilding its static part as
  every observation did before issue 11 (measured alone, same states);
- the bytes a sandboxed bot is sent per decision: the whole observation (a
  protocol-1 host) and without the static part (protocol 2, after the first
  decision of a match);
- a match of greedy bots against one of random bots, in-process, CPU ms per
  match and per decision, side by side, as a ratio (target <= 1.5 per match).

    python benchmarks/bench_observations.py [--matches M] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from arena.game import CHANCE, TERMINAL, State, Static
from arena.match import play_match
from arena.records import Limits, MatchSpec, SeatSpec
from arena.schedule import round_robin
from engines.dinosaurs.game import DinosaursGame
from engines.dinosaurs.observation import _board_lists
from engines.explorers.game import ExplorersGame
from engines.explorers.observation import card_columns

GAMES: dict[str, tuple[Callable[[], Any], str, Callable[[State], object]]] = {
    "explorers-of-the-lost-valley": (
        ExplorersGame, "cards",
        lambda state: {key: list(column)
                       for key, column in card_columns(state.cards)}),  # type: ignore[attr-defined]
    "lost-valley-of-the-dinosaurs": (
        DinosaursGame, "board", lambda state: _board_lists(state.board)),  # type: ignore[attr-defined]
}


def decision_states(game: Any, count: int) -> list[tuple[State, int]]:
    """``count`` decision points of random 3-player games."""
    rng = random.Random(1)
    found: list[tuple[State, int]] = []
    while len(found) < count:
        state = game.new_initial_state(3, {})
        while not state.is_terminal() and len(found) < count:
            player = state.current_player()
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            if player != TERMINAL:
                found.append((state.clone(), player))
                state.apply_action(rng.choice(state.legal_actions()))
    return found


def per_call(work: Callable[[], object], calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        work()
    return 1e6 * (time.process_time() - started) / calls


def observation_figures(name: str, count: int) -> None:
    make, key, rebuild = GAMES[name]
    states = decision_states(make(), count)
    now = min(per_call(lambda: [s.observation(p) for s, p in states], 1) / count
              for _ in range(3))
    static = min(per_call(lambda: [rebuild(s) for s, _ in states], 1) / count for _ in range(3))
    observation = states[-1][0].observation(states[-1][1])
    assert isinstance(observation[key], Static)
    whole = len(json.dumps(observation, separators=(",", ":")))
    without = len(json.dumps({k: v for k, v in observation.items() if k != key},
                             separators=(",", ":")))
    print(f"{name}: observation() {now:.1f} µs now; rebuilding its {key!r} as before: "
          f"{static:.1f} µs more; sent per decision: {whole:,} bytes whole, {without:,} "
          f"without {key!r}")


def specs(game: str, bot: str, count: int) -> list[MatchSpec]:
    entries = tuple(SeatSpec(f"{bot}-{i}", bot) for i in range(4))
    plan = round_robin(game=game, options={}, entries=entries, players=3, rounds=1 + count // 24,
                       seed=1, seating="permutations", limits=Limits(isolation="inprocess"))
    return [spec for _, spec in zip(range(count), plan, strict=False)]


def match_figures(game: str, count: int, repeats: int) -> None:
    best: dict[str, tuple[float, float]] = {}
    plans = {bot: specs(game, bot, count) for bot in ("random", "greedy")}
    for _ in range(repeats):
        for bot, plan in plans.items():
            started = time.process_time()
            decisions = 0
            for spec in plan:
                result = play_match(spec)
                decisions += result.actions
            seconds = (time.process_time() - started) / len(plan)
            if bot not in best or seconds < best[bot][0]:
                best[bot] = (seconds, decisions / len(plan))
    random_s, random_actions = best["random"]
    greedy_s, greedy_actions = best["greedy"]
    print(f"{game}: a match, in-process, CPU: random {1000 * random_s:.2f} ms "
          f"({random_actions:.0f} actions), greedy {1000 * greedy_s:.2f} ms "
          f"({greedy_actions:.0f} actions); greedy / random per match "
          f"{greedy_s / random_s:.1f} (target <= 1.5), per action "
          f"{(greedy_s / greedy_actions) / (random_s / random_actions):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    for name in GAMES:
        observation_figures(name, 2000)
    for name in GAMES:
        match_figures(name, args.matches, args.repeats)


if __name__ == "__main__":
    main()
