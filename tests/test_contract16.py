"""Round 16 of bots written from the documented contract alone: what a bot author had to
guess from the engine READMEs, checked against real play over seeded games.

Each test names the README sentence it holds the engine to (or that was added because the
README was silent), and, for a game question, the rulebook's sentence that decides it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.game import CHANCE, State, sample_chance
from arena.plugins import require_registry

ROOT = Path(__file__).parent.parent
EXPLORERS = "explorers-of-the-lost-valley"
THROWS = range(77, 88)
"""Explorers' hunt throws: id 75 + the two dice's total (README's action table)."""


def readme(engine: str) -> str:
    """The engine README as one line of words (its paragraphs wrap anywhere)."""
    return " ".join((ROOT / "engines" / engine / "README.md").read_text().split())


def nodes(game: str, options: dict[str, Any], games: int = 6) -> Iterator[tuple[State, int]]:
    """(state, the action then applied) at every node of seeded random games, 2 to 4 seats."""
    found = require_registry().game(game)
    for seed in range(games):
        state, rng = found.new_initial_state(2 + seed % 3, options), random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state.chance_outcomes(), rng)
            else:
                action = rng.choice(state.legal_actions())
            yield state, action
            state.apply_action(action)


def test_explorers_hunt_captures_at_the_difficulty_and_costs_the_cards_damage() -> None:
    """engines/explorers/README.md said what `difficulty`, `damage_success` and
    `damage_failure` are called, not what they do. Rulebook: "You have to obtain the
    difficulty of the dinosaur or more in order to succeed. If you are successful ...
    Inflict yourself as much damage as necessary (your damage is taken out of the exploration
    tokens)"; "If, after all, you still fail, inflict yourself as much damage as necessary";
    "there is no penalty for the overkill"; Allies: "+1 in all your future hunt throws"."""
    hunts = {True: 0, False: 0}
    watching: dict[str, Any] | None = None
    for state, action in nodes(EXPLORERS, {"advanced": True}, games=9):
        observation = state.observation(0)
        if watching is not None:
            seat = watching["seat"]
            if observation["hunt"] is None:  # the hunt is over: captured or failed
                player = observation["players"][seat]
                if observation["adventure"] == watching["adventure"]:  # not the adventure's end
                    captured = watching["card"]["id"] in player["dinosaurs"]
                    total = watching["throw"] + watching["bonus"]
                    reached = total >= watching["card"]["difficulty"]
                    assert captured == reached, watching
                    damage = watching["card"]["damage_success" if captured else "damage_failure"]
                    assert player["exploration_tokens"] == max(0, watching["tokens"] - damage)
                    hunts[captured] += 1
                watching = None
            elif action in THROWS:
                watching["throw"] = action - 75
        if watching is None and state.current_player() >= 0:
            seat = state.current_player()
            mine = state.observation(seat)
            card = mine["row"][action] if action in (0, 1) and mine["phase"] == "turn" else None
            if card is not None and card["type"] == "dinosaur":
                player = mine["players"][seat]
                watching = {"seat": seat, "card": card, "tokens": player["exploration_tokens"],
                            "bonus": player["throw_bonus"], "adventure": mine["adventure"],
                            "throw": None}
    assert hunts[True] > 10 and hunts[False] > 10
    text = readme("explorers")
    assert "dice's total plus the throw bonus reaches `difficulty`" in text
    assert "`damage_success` exploration tokens" in text


def test_explorers_extra_action_and_ammunition_are_offered_as_the_readme_says() -> None:
    """engines/explorers/README.md's action table said what 6 and 7 do, not when they are
    offered. Rulebook: "A player can earn an additional action after discarding two of his
    own exploration tokens. In order to do this, you need, at least, 3 exploration tokens.
    The same player can only win one extra action per turn"; "You can take up to two
    ammunition tokens per dinosaur ... you won't be able to take an ammunition token if
    there's not one left in the center of the table"."""
    seen = {6: 0, 7: 0}
    for state, action in nodes(EXPLORERS, {"advanced": False}):
        seat = state.current_player()
        if seat < 0:
            continue
        observation, legal = state.observation(seat), state.legal_actions()
        player = observation["players"][seat]
        if observation["phase"] in ("turn", "turn-end"):
            offered = player["exploration_tokens"] >= 3 and not observation["extra_action_bought"]
            assert (6 in legal) == offered
        if observation["phase"] == "hunt-reroll":
            hunt = observation["hunt"]
            offered = observation["center_ammunition"] > 0 and hunt["ammunition_used"] < 2
            assert (7 in legal) == offered
        if action in seen:
            seen[action] += 1
            tokens, ammunition = player["exploration_tokens"], player["ammunition"]
            probe = state.clone()
            probe.apply_action(action)
            after = probe.observation(seat)["players"][seat]
            if action == 6:
                assert after["exploration_tokens"] == tokens - 2
            else:
                assert after["ammunition"] == ammunition + 1
    assert seen[6] > 0 and seen[7] > 0
    text = readme("explorers")
    assert "offered with 3 exploration tokens or more, once a turn" in text
    assert ("offered while the centre has one and fewer than two were taken for this dinosaur"
            in text)


def test_dinosaurs_a_lifted_lava_piece_is_counted_out_of_the_cone_but_covers_nothing() -> None:
    """engines/dinosaurs/README.md: `lava_placed` is the pieces out of the cone and `lava`
    the spaces they cover, which a bot reads as `len(lava) == lava_placed`. Once all 30 are
    out, a Volcano Erupts lets the drawer "reposition three pieces of lava" (rulebook): while
    a lifted piece waits to be dropped (`lava-drop`) it is out of the cone and on no space,
    so `lava` holds one piece fewer and `now.lifted` says where it was. The README said
    neither; a rebuilt `lava-drop` position is the same position."""
    found = require_registry().game("lost-valley-of-the-dinosaurs")
    drops = 0
    for state, _ in nodes("lost-valley-of-the-dinosaurs", {"coins": 3}, games=8):
        observation = state.observation(0)
        lava, lifted = observation["lava"], observation["now"]["lifted"]
        if observation["phase"] == "lava-drop":
            assert observation["lava_placed"] == 30 and len(lava) == 29
            assert lifted >= 0 and lifted not in lava
            if drops % 20 == 0:
                seat = state.current_player()
                rebuilt = found.state_from_observation(state.observation(seat), random.Random(0))
                assert rebuilt.observation(seat) == state.observation(seat)
                assert rebuilt.legal_actions() == state.legal_actions()
            drops += 1
        else:
            assert len(lava) == observation["lava_placed"] and lifted == -1
    assert drops > 0
    text = readme("dinosaurs")
    assert "in `lava-drop` the lifted piece is counted in `lava_placed` and on no space" in text


def test_lost_explorers_stacks_show_every_tokens_vehicle_once_set_out() -> None:
    """engines/lost_explorers/README.md: `stacks` give each token's vehicle, "all `count` of
    them". Rulebook: "Shuffle the 64 Vehicle/Mission tokens and divide them equally (32
    tokens) between the 2 Transport areas. Set the tokens, Vehicle side up, so that the type
    of each token is visible": the set-up's chance nodes (`validate-location`, then
    `reveal-vehicle`, stack 0's 1st to 32nd, then stack 1's) already count 32 a stack while
    `visible` holds only the vehicles drawn so far, which the README did not say; from the
    first decision on, `visible` has all `count` of them."""
    revealing = 0
    for state, _ in nodes("lost-explorers", {}, games=3):
        observation = state.observation(0)
        stacks = observation["stacks"]
        if observation["phase"] in ("validate-location", "reveal-vehicle"):
            shown = [len(stack["visible"]) for stack in stacks]
            assert [stack["count"] for stack in stacks] == [32, 32]
            assert shown[1] == 0 or shown[0] == 32  # stack 0 first
            revealing += 1
        else:
            assert all(stack["count"] == len(stack["visible"]) for stack in stacks)
    assert revealing > 0
    text = readme("lost_explorers")
    assert "at the set-up's `validate-location` and `reveal-vehicle` chance nodes" in text


def test_lost_explorers_a_mission_names_its_vehicle_as_the_token_showed_it() -> None:
    """engines/lost_explorers/README.md lists a mission as `{id, vehicle, locations, track}`
    beside action ids that number vehicles (`V` 0 train .. 3 airship), so `vehicle` could be
    either: it is the name, as `visible` shows it. Rulebook: "Place that token in front of
    you, Vehicle side or Mission side up, without checking the Mission side beforehand": the
    mission revealed is on the back of the token whose vehicle the taker saw in `stacks`."""
    vehicles = ("train", "car", "boat", "airship")
    taken = 0
    for state, action in nodes("lost-explorers", {}, games=4):
        seat = state.current_player()
        if seat < 0:
            continue
        before = state.observation(seat)
        for mission in [*before["players"][seat]["missions"], *before["box"]["missions"]]:
            assert mission["vehicle"] in vehicles
        area, rest = divmod(action - 12, 8)
        if before["phase"] != "phase-1" or not 0 <= area <= 1 or rest % 2 == 0:
            continue
        probe, rng = state.clone(), random.Random(action)
        probe.apply_action(action)  # Equipment, side 1: a mission, revealed by chance
        while probe.current_player() == CHANCE:
            probe.apply_action(sample_chance(probe.chance_outcomes(), rng))
        held = {m["id"] for m in before["players"][seat]["missions"]}
        new = [m for m in probe.observation(seat)["players"][seat]["missions"]
               if m["id"] not in held]
        assert [m["vehicle"] for m in new] == [before["stacks"][area]["visible"][rest // 2]]
        taken += 1
    assert taken > 0
    text = readme("lost_explorers")
    assert ("`vehicle` the vehicle's name (`train`, `car`, `boat`, `airship`), not its id `V`"
            in text)


def test_a_policy_bot_gets_the_very_array_the_environment_gives() -> None:
    """README, Reinforcement learning: `policy(observation)` "receives exactly what the
    environment gives (the bot rebuilds it from its observation with the game's
    `state_from_observation`)". The shipped test checks the mask only; here the observation
    array too, at every decision of a seeded game of each game at 3 seats (Lost Explorers'
    rebuilt state draws the other seats' clue numbers, which the array must not show)."""
    import numpy as np

    from arena.adapters.pettingzoo import PolicyBot

    class Recorder(PolicyBot):
        name = "recorder"

        def policy(self, observation: Any) -> int:
            self.seen = observation
            return int(np.flatnonzero(observation["action_mask"])[0])

    for game in (EXPLORERS, "lost-explorers", "lost-valley-of-the-dinosaurs"):
        state, rng = require_registry().game(game).new_initial_state(3), random.Random(3)
        bots = [Recorder(game=game, seat=seat, num_players=3, seed=seat) for seat in range(3)]
        decisions = 0
        while not state.is_terminal() and decisions < 300:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            bots[seat].act(state.observation(seat), tuple(state.legal_actions()))
            expected = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(bots[seat].seen["observation"], expected)
            assert np.flatnonzero(bots[seat].seen["action_mask"]).tolist() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        assert decisions > 20


def test_lost_explorers_a_leader_passing_a_glass_takes_its_clue() -> None:
    """engines/lost_explorers/README.md said a Leader "reaching" a glass takes a clue tile,
    which reads as landing on its slot. Rulebook: "If one of your Expedition Leaders gets to
    a slot with a magnifying glass, take a Clue tile"; RULINGS.md ruling 19 counts passing
    over it too. At every phase-1 decision of seeded games (every mission completed when
    offered, so Leaders run far), each seat's clues are the glasses its Leaders have reached
    or passed, and some Leader jumped over a glass on the way."""
    found = require_registry().game("lost-explorers")
    jumps = 0
    for seed in range(6):
        state, rng = found.new_initial_state(2 + seed % 3), random.Random(seed)
        last: dict[int, list[int]] = {}
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
                continue
            observation, legal = state.observation(seat), state.legal_actions()
            if observation["phase"] == "phase-1":
                tracks = observation["tracks"]
                for player in observation["players"]:
                    leaders = player["leaders"]
                    passed = [slot for track, at in zip(tracks, leaders, strict=True)
                              for slot in track["glasses"] if slot <= at]
                    assert player["clues"] == len(passed)
                    before = last.get(player["seat"], [1, 1])
                    jumps += sum(from_ < slot < to for track, from_, to
                                 in zip(tracks, before, leaders, strict=True)
                                 for slot in track["glasses"])
                    last[player["seat"]] = leaders
            completing = [action for action in legal if 77 <= action <= 156]
            state.apply_action(completing[0] if completing else rng.choice(legal))
    assert jumps > 0
    assert "where a Leader reaching or passing one takes a clue tile" in readme("lost_explorers")


def test_dinosaurs_resume_says_where_a_bullet_a_secret_path_or_a_capture_goes_on() -> None:
    """engines/dinosaurs/README.md gave `now.resume` for a capture's lair only; a bullet's
    push (`shoot-push`) and a secret path out of the temple (`secret-drop`) set it too, the
    move still to make (`move`) or made (`after-move`): rulebook, "Bullets can be used before
    or after you move an explorer"; "You may use this card as an additional action". The
    seat is asked next where `resume` said (or the turn ends: nothing left to do there)."""
    next_phase = {"move": {"move-pick", "draw", "over"},
                  "after-move": {"after-move", "draw", "over"}}
    seen: dict[str, set[str]] = {}
    for state, action in nodes("lost-valley-of-the-dinosaurs", {"coins": 3}, games=6):
        observation = state.observation(0)
        phase, resume = observation["phase"], observation["now"]["resume"]
        if phase not in ("lair-pick", "shoot-push", "secret-drop"):
            assert resume is None, phase
            continue
        seen.setdefault(phase, set()).add(resume)
        if phase == "lair-pick":
            assert resume in ("card", "move", "after-move")
            continue
        assert resume in next_phase
        probe = state.clone()
        probe.apply_action(action)
        after = probe.observation(0)
        if after["phase"] != "lair-pick":  # the pushed dinosaur captured someone: a lair first
            assert after["phase"] in next_phase[resume], (resume, after["phase"])
    assert seen.get("shoot-push", set()) >= {"move", "after-move"} and "secret-drop" in seen
    assert "a bullet's push (`shoot-push`) or a secret path's cave (`secret-drop`)" in readme(
        "dinosaurs")
