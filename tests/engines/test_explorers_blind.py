"""Blind rule scenarios for Explorers of the Lost Valley.

Written the way the independent rules team writes them: from the rulebook
(``rules/explorers-of-the-lost-valley.txt``) and ``engines/explorers/README.md`` only,
through the public interface (``new_initial_state``, chance outcomes named by their
``action_to_string``, the README's action ids, ``observation`` and
``Game.state_from_observation``). Each test quotes the sentence it checks.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.game import CHANCE, TERMINAL, Game, State
from arena.plugins import require_registry

GAME = "explorers-of-the-lost-valley"
TAKE0, TAKE1, DISC0, DISC1, BASE, ABANDON, BUY, REROLL, STOP = range(9)
STEAL = {"pterodactylus": 9, "iguanodon": 10, "plesiosaurus": 11, "megalosaurus": 12}
PICK = 13
TURN_END = 102
BOX_BACK, BOX_KEEP = 103, 104
HOUND_TAKE, HOUND_LET_GO = 105, 106
ASK = 107


def game() -> Game:
    return require_registry().game(GAME)


def obs(state: State, seat: int | None = None) -> dict[str, Any]:
    if seat is None:
        seat = state.current_player() if state.current_player() >= 0 else 0
    return state.observation(seat)


def outcome(state: State, text: str) -> None:
    assert state.current_player() == CHANCE
    hits = [a for a, _ in state.chance_outcomes() if text in state.action_to_string(a)]
    assert len(hits) == 1, (text, [state.action_to_string(a) for a, _ in state.chance_outcomes()])
    state.apply_action(hits[0])


def roll(state: State, total: int) -> None:
    assert state.current_player() == CHANCE, obs(state)["phase"]
    state.apply_action(75 + total)


def settle(state: State) -> None:
    """Draw the first outcome at chance nodes and end the turn at ``turn-end`` (README: an
    explorer who could still buy the extra action is asked there), until a real decision."""
    while True:
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        elif not state.is_terminal() and obs(state)["phase"] == "turn-end":
            state.apply_action(TURN_END)
        else:
            return


def act(state: State, action: int) -> None:
    state.apply_action(action)
    settle(state)


def cid(state: State, name: str) -> int:
    return list(obs(state)["cards"]["name"]).index(name)


def first_of_kind(state: State, species: str, n: int = 1) -> list[int]:
    cards = obs(state)["cards"]
    return [i for i, s in enumerate(cards["species"]) if s == species][:n]


def start(players: int, first: int = 0, advanced: bool = False) -> State:
    """A new match up to the first decision, the first player named, the rest the first
    outcome offered (the README: nothing is pre-shuffled)."""
    state = game().new_initial_state(players, {"advanced": advanced})
    outcome(state, f"seat {first} goes first")
    settle(state)
    return state


def rebuild(state: State, change: Callable[[dict[str, Any]], object]) -> State:
    table = obs(state)
    cards = table["cards"]
    edited = copy.deepcopy({k: v for k, v in table.items() if k != "cards"})
    edited["cards"] = cards
    change(edited)
    return game().state_from_observation(edited, random.Random(0))


def place(table: dict[str, Any], card: int, where: str, seat: int | None = None,
          slot: int | None = None) -> None:
    """Move ``card`` out of wherever it is into ``where`` (deck, discards, row, dinosaurs,
    advantages)."""
    for key in ("deck", "discards"):
        if card in table[key]:
            table[key].remove(card)
    for i, entry in enumerate(table["row"]):
        if entry is not None and (entry if isinstance(entry, int) else entry["id"]) == card:
            table["row"][i] = None
    for p in table["players"]:
        for key in ("dinosaurs", "advantages"):
            if card in p[key]:
                p[key].remove(card)
    if where in ("deck", "discards"):
        table[where].append(card)
    elif where == "row":
        assert slot is not None
        old = table["row"][slot]
        if old is not None:
            table["discards"].append(old if isinstance(old, int) else old["id"])
        table["row"][slot] = card
    else:
        assert seat is not None
        table["players"][seat][where].append(card)


def position(players: int = 2, *, first: int = 0, advanced: bool = False,
             row: tuple[str, str] | None = None,
             change: Callable[[dict[str, Any]], object] | None = None) -> State:
    state = start(players, first, advanced)

    def edit(t: dict[str, Any]) -> None:
        if row is not None:
            ids = [list(t["cards"]["name"]).index(name) for name in row]
            for slot, card in enumerate(ids):
                place(t, card, "row", slot=slot)
        if change is not None:
            change(t)

    return rebuild(state, edit)


def empty_deck(t: dict[str, Any]) -> None:
    t["discards"].extend(t["deck"])
    t["deck"] = []


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "discards", "ammo"), [(2, 3, 6), (3, 2, 7), (4, 1, 8)])
def test_setup_by_player_count(players: int, discards: int, ammo: int) -> None:
    """"If only two people are going to play, discard three cards. If three ..., two cards.
    If four ..., only one card." / "use six tokens ... seven tokens ... use them all." /
    "reveal the first two cards" / "each player takes 6 exploration tokens"."""
    t = obs(start(players))
    assert len(t["discards"]) == discards
    assert t["center_ammunition"] == ammo
    assert [r is not None for r in t["row"]] == [True, True]
    assert t["deck_count"] == 18 - discards - 2 == t["deck_count_at_start"]
    assert all(p["exploration_tokens"] == 6 and p["ammunition"] == 0 for p in t["players"])


def test_observations_differ_only_by_seat() -> None:
    """Everything is on the table face up: no seat sees more than another."""
    state = start(3, advanced=True)
    views = [obs(state, s) for s in range(3)]
    for v in views:
        v.pop("seat")
    assert views[0] == views[1] == views[2]


# --- turn order -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "first"), [(3, 2), (4, 1), (4, 3)])
def test_clockwise_from_the_first_player(players: int, first: int) -> None:
    """"Take the initial player token. Then, play clockwise.\""""
    state = start(players, first)
    seen = []
    for _ in range(players + 1):
        seen.append(state.current_player())
        act(state, BASE)  # a legal, card-neutral action
    assert seen == [(first + i) % players for i in range(players + 1)]


def test_discard_lock_falls_on_the_next_player_still_in() -> None:
    """"When a player takes this action, the next one in the turn order will NOT be able to
    choose it." An explorer who abandoned "will be ignored for the rest of the adventure"."""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["abandoned"] = True

    state = position(3, change=change)
    state.apply_action(DISC0)
    settle(state)
    assert state.current_player() == 2
    assert DISC0 not in state.legal_actions() and DISC1 not in state.legal_actions()
    act(state, BASE)
    assert state.current_player() == 0
    assert DISC0 in state.legal_actions()


def test_discarder_can_discard_again_two_turns_later_in_four_players() -> None:
    """The lock is for "the next one" only."""
    state = start(4)
    state.apply_action(DISC0)
    settle(state)
    assert DISC0 not in state.legal_actions()
    act(state, BASE)
    assert state.current_player() == 2 and DISC1 in state.legal_actions()


# --- extra action ---------------------------------------------------------------------------


@pytest.mark.parametrize(("tokens", "offered"), [(2, False), (3, True), (6, True)])
def test_extra_action_needs_three_tokens(tokens: int, offered: bool) -> None:
    """"In order to do this, you need, at least, 3 exploration tokens.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = tokens

    state = position(2, change=change)
    assert (BUY in state.legal_actions()) is offered
    if offered:
        state.apply_action(BUY)
        t = obs(state)
        assert t["players"][0]["exploration_tokens"] == tokens - 2
        assert t["actions_left"] == 2
        assert BUY not in state.legal_actions()


def test_bought_action_and_allies_give_three_actions() -> None:
    """Allies: "you will gain an additional action this turn" on top of the bought one."""
    state = position(2, row=("Allies", "Haven of Peace"))
    state.apply_action(BUY)
    state.apply_action(TAKE0)
    settle(state)
    t = obs(state)
    assert t["current_player"] == 0
    assert t["actions_left"] == 2
    assert t["players"][0]["throw_bonus"] == 1


# --- hunting --------------------------------------------------------------------------------


def test_hunt_succeeds_on_exact_difficulty_and_takes_success_damage() -> None:
    """"You have to obtain the difficulty of the dinosaur or more in order to succeed."
    / "Inflict yourself as much damage as necessary ... and take the dinosaur card"."""
    state = position(2, row=("Iguanodon galvensis", "Hound"))  # 8, 4 points, 2/3
    state.apply_action(TAKE0)
    roll(state, 8)
    settle(state)
    p = obs(state)["players"][0]
    assert p["dinosaurs"] == [cid(state, "Iguanodon galvensis")]
    assert p["exploration_tokens"] == 6 - 2
    assert p["points"] == 4 * 2  # the only iguanodon: doubled


def test_allies_bonus_turns_a_short_throw_into_a_capture() -> None:
    """Allies: "you will gain +1 in all your future hunt throws"."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Allies"), "advantages", seat=0)
        t["players"][0]["throw_bonus"] = 1

    state = position(2, row=("Iguanodon galvensis", "Hound"), change=change)
    state.apply_action(TAKE0)
    roll(state, 7)
    assert obs(state, 0)["players"][0]["dinosaurs"] == [cid(state, "Iguanodon galvensis")]


def cid_t(t: dict[str, Any], name: str) -> int:
    return list(t["cards"]["name"]).index(name)


def test_no_third_ammunition_for_one_dinosaur() -> None:
    """"You can take up to two ammunition tokens per dinosaur (which means that you can
    throw the dice up to three times)."""
    state = position(2, row=("Megalosaurus hesperis", "Hound"))  # 10, 3/5
    state.apply_action(TAKE0)
    roll(state, 2)
    assert REROLL in state.legal_actions()
    state.apply_action(REROLL)
    roll(state, 2)
    assert REROLL in state.legal_actions()
    state.apply_action(REROLL)
    roll(state, 2)
    t = obs(state)
    # the third failure ends the hunt: damage on failure, the turn passes
    assert t["players"][0]["ammunition"] == 2
    assert t["players"][0]["exploration_tokens"] == 1
    assert t["center_ammunition"] == 4
    assert t["current_player"] == 1
    assert t["row"][0]["name"] == "Megalosaurus hesperis"  # the dinosaur stays


def test_no_reroll_when_the_centre_is_empty() -> None:
    """"you won't be able to take an ammunition token if there's not one left"."""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["ammunition"] = t["center_ammunition"]
        t["center_ammunition"] = 0

    state = position(2, row=("Megalosaurus hesperis", "Hound"), change=change)
    state.apply_action(TAKE0)
    roll(state, 3)
    t = obs(state)
    assert t["current_player"] == 1 and t["hunt"] is None
    assert t["players"][0]["exploration_tokens"] == 1


def test_failed_hunt_passes_the_turn_despite_a_bought_action() -> None:
    """"If, after all, you still fail, inflict yourself as much damage ... and pass the
    turn.\""""
    state = position(2, row=("Pterodactylus kochi", "Hound"))
    state.apply_action(BUY)
    state.apply_action(TAKE0)
    roll(state, 2)
    state.apply_action(STOP)
    t = obs(state)
    assert t["current_player"] == 1
    assert t["players"][0]["exploration_tokens"] == 6 - 2 - 1


def test_overkill_stops_at_zero_and_asks_camp_or_abandon() -> None:
    """"When a player has no exploration tokens left, he has to decide immediately between
    going back to the base camp or abandoning" / "there is no penalty for the overkill"."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = 2

    state = position(2, row=("Megalosaurus hesperis", "Hound"), change=change)
    state.apply_action(TAKE0)
    roll(state, 2)
    state.apply_action(STOP)
    t = obs(state)
    assert t["phase"] == "exhausted" and t["current_player"] == 0
    assert t["players"][0]["exploration_tokens"] == 0
    assert sorted(state.legal_actions()) == [BASE, ABANDON]


def test_capture_to_zero_tokens_also_exhausts() -> None:
    """Exhaustion follows any damage, a successful hunt's too."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = 3

    state = position(2, row=("Megalosaurus hesperis", "Hound"), change=change)
    state.apply_action(TAKE0)
    roll(state, 12)
    t = obs(state)
    assert t["phase"] == "exhausted"
    act(state, BASE)
    settle(state)
    p = obs(state)["players"][0]
    assert p["exploration_tokens"] == 6 and p["dinosaurs"] == []


def test_base_camp_gives_everything_back() -> None:
    """"takes up to 6 exploration tokens ... discard both his advantages and his captured
    dinosaurs ... put all the ammunition he took back at the center"."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=0)
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=0)
        t["players"][0]["ammunition"] = 2
        t["center_ammunition"] -= 2
        t["players"][0]["exploration_tokens"] = 1

    state = position(2, change=change)
    act(state, BASE)
    t = obs(state, 0)
    p = t["players"][0]
    assert (p["exploration_tokens"], p["ammunition"], p["dinosaurs"], p["advantages"]) == (
        6, 0, [], [])
    assert t["center_ammunition"] == 6
    assert cid(state, "Iguanodon galvensis") in t["discards"]
    assert cid(state, "Ammunition Box") in t["discards"]


# --- advantages -----------------------------------------------------------------------------


def test_ammunition_box_returns_ammunition_from_earlier_hunts() -> None:
    """"you can put back at the center of the table all the ammunition tokens you have
    used"."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["ammunition"] = 3
        t["center_ammunition"] -= 3

    state = position(2, row=("Ammunition Box", "Hound"), change=change)
    state.apply_action(TAKE0)
    assert obs(state)["phase"] == "ammunition-box"
    state.apply_action(BOX_BACK)
    t = obs(state, 0)
    assert t["players"][0]["ammunition"] == 0 and t["center_ammunition"] == 6
    assert t["players"][0]["points"] == -1


def test_haven_of_peace_tops_up_to_six() -> None:
    """"If you take the haven of peace, take up to 6 exploration tokens.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = 1

    state = position(2, row=("Haven of Peace", "Hound"), change=change)
    state.apply_action(TAKE0)
    assert obs(state, 0)["players"][0]["exploration_tokens"] == 6


def test_hound_captures_free_and_without_damage() -> None:
    """Hound: "If it's a dinosaur, you can capture it without making a hunt throw and
    without receiving any damage.\""""
    state = position(2, row=("Hound", "Allies"))
    state.apply_action(TAKE0)
    outcome(state, "Megalosaurus hesperis")
    assert obs(state)["phase"] == "hound-capture"
    state.apply_action(HOUND_TAKE)
    settle(state)
    p = obs(state)["players"][0]
    assert p["dinosaurs"] == [cid(state, "Megalosaurus hesperis")]
    assert p["exploration_tokens"] == 6
    assert p["points"] == 6 * 2 - 1


def test_hound_revealing_haven_gives_no_tokens_but_costs_a_point() -> None:
    """"If it's an advantage, you will NOT benefit from its effect, but it will subtract one
    point at the end of the adventure.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = 2

    state = position(2, row=("Hound", "Allies"), change=change)
    state.apply_action(TAKE0)
    outcome(state, "Haven of Peace")
    settle(state)
    p = obs(state, 0)["players"][0]
    assert p["exploration_tokens"] == 2
    assert sorted(p["advantages"]) == sorted([cid(state, "Hound"), cid(state, "Haven of Peace")])
    assert p["points"] == -2


# --- end of the adventure -------------------------------------------------------------------


def test_taking_the_last_card_with_an_empty_deck_ends_the_adventure() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the
    adventure ends.\""""
    state = position(2, row=("Haven of Peace", "Hound"), change=empty_deck)
    state.apply_action(TAKE0)
    t = obs(state, 0)
    assert t["adventure"] == 2 or t["phase"] == "over" or state.current_player() == CHANCE
    assert len(t["history"]) == 1
    assert t["history"][0] == [-1, 0]


def test_failed_hunt_with_an_empty_deck_does_not_end_the_adventure() -> None:
    """Only a card *taken* that can't be replaced ends it; a failed hunt takes nothing."""
    state = position(2, row=("Megalosaurus hesperis", "Hound"), change=empty_deck)
    state.apply_action(TAKE0)
    roll(state, 2)
    state.apply_action(STOP)
    t = obs(state)
    assert t["history"] == [] and t["current_player"] == 1


def test_hound_with_an_empty_deck_reveals_nothing_and_ends() -> None:
    """The Hound is taken and can't be replaced: the adventure ends."""
    state = position(2, row=("Hound", "Allies"), change=empty_deck)
    state.apply_action(TAKE0)
    assert len(obs(state, 0)["history"]) == 1


def test_all_abandoned_ends_the_adventure() -> None:
    """"The adventure also ends if all the players have abandoned it.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["abandoned"] = True
        t["players"][2]["abandoned"] = True

    state = position(3, change=change)
    state.apply_action(ABANDON)
    assert len(obs(state, 0)["history"]) == 1


def test_abandoned_players_come_back_next_adventure() -> None:
    """"start a new adventure from the very beginning\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["abandoned"] = True

    def both(t: dict[str, Any]) -> None:
        change(t)
        empty_deck(t)

    state = position(2, row=("Haven of Peace", "Hound"), change=both)
    state.apply_action(TAKE0)
    settle(state)
    t = obs(state)
    assert not any(p["abandoned"] for p in t["players"])
    assert all(p["exploration_tokens"] == 6 for p in t["players"])


# --- scoring --------------------------------------------------------------------------------


def test_scoring_doubles_lone_species_and_subtracts_ammo_and_advantages() -> None:
    """"If a player is the only one that has a certain dinosaur species, then all the members
    of that species will score double." / ammunition and advantages "subtracts 1 point"."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=0)  # 4, lone: 8
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=0)  # 2, lone: 4
        place(t, cid_t(t, "Pterodactylus micronyx"), "dinosaurs", seat=0)  # 3, shared
        place(t, cid_t(t, "Pterodactylus kochi"), "dinosaurs", seat=1)  # 1, shared
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=1)
        t["players"][0]["ammunition"] = 2
        t["center_ammunition"] -= 2

    state = position(2, row=("Haven of Peace", "Hound"), change=change)
    t = obs(state)
    assert [p["points"] for p in t["players"]] == [8 + 4 + 3 - 2, 1 - 1]


def test_points_can_go_negative() -> None:
    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=1)
        place(t, cid_t(t, "Allies"), "advantages", seat=1)
        t["players"][1]["ammunition"] = 1
        t["center_ammunition"] -= 1

    state = position(2, row=("Haven of Peace", "Hound"), change=change)
    assert obs(state)["players"][1]["points"] == -3


def end_with(players: int, change: Callable[[dict[str, Any]], object], first: int = 0) -> State:
    """Seat ``first`` takes Haven of Peace off a row with an empty deck: the adventure ends."""

    def edit(t: dict[str, Any]) -> None:
        empty_deck(t)
        change(t)

    state = position(players, first=first, row=("Haven of Peace", "Hound"), change=edit)
    state.apply_action(TAKE0)
    return state


def test_trophy_tie_on_points_goes_to_more_tokens() -> None:
    """"In case of a tie, only the player with more exploration tokens takes the trophy\""""

    def change(t: dict[str, Any]) -> None:
        # seat 0 ends with Haven (-1) and 6 tokens; seats 1, 2 equal on points
        place(t, cid_t(t, "Allies"), "advantages", seat=1)
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=2)
        t["players"][1]["exploration_tokens"] = 3
        t["players"][2]["exploration_tokens"] = 4
        t["players"][0]["ammunition"] = 1
        t["center_ammunition"] -= 1

    state = end_with(3, change)
    t = obs(state, 0)
    assert t["history"][-1] == [-2, -1, -1]
    assert t["trophy_history"][-1] == [2]


def test_trophy_full_tie_all_take_one() -> None:
    """"(if the tie persists, all the tied players win a trophy token)\""""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Allies"), "advantages", seat=1)
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=2)

    state = end_with(3, change)
    t = obs(state, 0)
    assert t["trophy_history"][-1] == [0, 1, 2]
    assert [p["trophies"] for p in t["players"]] == [1, 1, 1]


def test_tie_for_first_ignores_lower_players_tokens() -> None:
    """The token tie-break is among the players tied on the most points only."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Pterodactylus kochi"), "dinosaurs", seat=1)  # 1 lone: 2
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=2)  # 2 lone: 4 ...
        place(t, cid_t(t, "Allies"), "advantages", seat=2)  # ... -1: 3
        place(t, cid_t(t, "Iguanodon bernissartensis"), "dinosaurs", seat=0)  # shared iguanodon
        t["players"][1]["exploration_tokens"] = 5
        t["players"][2]["exploration_tokens"] = 1

    state = end_with(3, change)
    t = obs(state, 0)
    # 0: 2 - 1 = 1, 1: 2, 2: 2 - 1 = 1
    assert t["history"][-1] == [1, 2, 1]
    assert t["trophy_history"][-1] == [1]


def test_next_adventure_starts_with_the_last_player_of_this_one() -> None:
    """"The player who goes last in the last adventure will go first in this one.\""""
    state = end_with(4, lambda t: None, first=2)
    settle(state)
    t = obs(state)
    assert t["adventure"] == 2
    assert t["first_player"] == 1 and t["current_player"] == 1


def test_new_adventure_reshuffles_resets_and_repeats_the_setup() -> None:
    """"each player takes up to 6 exploration tokens and puts back all the used ammunition
    ... Shuffle all the cards together and start a new adventure from the very beginning."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=1)
        t["players"][1]["ammunition"] = 2
        t["players"][1]["exploration_tokens"] = 2
        t["center_ammunition"] -= 2

    state = end_with(3, change)
    t = obs(state, 0)
    assert state.current_player() == CHANCE
    settle(state)
    t = obs(state)
    assert t["center_ammunition"] == 7
    assert len(t["discards"]) == 2 and t["deck_count"] == 14
    for p in t["players"]:
        assert (p["exploration_tokens"], p["ammunition"], p["dinosaurs"], p["advantages"],
                p["throw_bonus"]) == (6, 0, [], [], 0)
    assert t["players"][1]["trophies"] == 1


def test_two_trophies_in_one_adventure_share_the_win() -> None:
    """"The first player to have two trophies is the absolute winner of the game." A full tie
    gives both a second trophy at once."""

    def change(t: dict[str, Any]) -> None:
        for p in t["players"]:
            p["trophies"] = 1
        t["history"] = [[0, 0, 0]]
        t["trophy_history"] = [[0, 1, 2]]
        place(t, cid_t(t, "Allies"), "advantages", seat=1)
        place(t, cid_t(t, "Ammunition Box"), "advantages", seat=2)
        t["players"][2]["exploration_tokens"] = 5

    state = end_with(3, change)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert list(state.scores()) == [2, 2, 1]
    assert list(state.ranking())[:2] == [0, 0]
    assert list(state.ranking())[2] == 2


def test_one_trophy_each_does_not_end_the_match() -> None:
    state = end_with(2, lambda t: None)
    assert not state.is_terminal()
    assert [p["trophies"] for p in obs(state, 0)["players"]] == [0, 1]


# --- advanced game --------------------------------------------------------------------------


def test_advanced_deals_two_tokens_each_from_the_ten() -> None:
    """"give two random tokens to each player. These tokens have to be faced up\""""
    state = game().new_initial_state(4, {"advanced": True})
    counts = {"pterodactylus": 4, "iguanodon": 3, "plesiosaurus": 2, "megalosaurus": 1}
    while state.current_player() == CHANCE:
        outs = state.chance_outcomes()
        names = [state.action_to_string(a) for a, _ in outs]
        megas = [a for a, n in zip([a for a, _ in outs], names, strict=True)
                 if "megalosaurus trail" in n]
        state.apply_action(megas[0] if megas else outs[0][0])
    tokens = [p["trail_tokens"] for p in obs(state)["players"]]
    assert all(len(t) == 2 for t in tokens)
    flat = [s for t in tokens for s in t]
    assert flat.count("megalosaurus") == 1
    for s, n in counts.items():
        assert flat.count(s) <= n


def test_trail_bonus_before_doubling_and_identical_tokens_do_not_stack() -> None:
    """"you will apply the extra points BEFORE doubling" / "If you have two identical trail
    tokens, you won't accumulate the extra points.\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["trail_tokens"] = ["plesiosaurus", "plesiosaurus"]
        t["players"][1]["trail_tokens"] = ["iguanodon", "pterodactylus"]
        place(t, cid_t(t, "Plesiosaurus dolichodeirus"), "dinosaurs", seat=0)  # 3 +2, lone: 10
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=1)  # 2 +1, lone: 6
        place(t, cid_t(t, "Pterodactylus kochi"), "dinosaurs", seat=1)  # 1 +1, shared: 2
        place(t, cid_t(t, "Pterodactylus antiquus"), "dinosaurs", seat=0)  # 1, shared: 1

    state = position(2, advanced=True, row=("Haven of Peace", "Hound"), change=change)
    assert [p["points"] for p in obs(state)["players"]] == [11, 8]


def steal_position(die_change: Callable[[dict[str, Any]], object] | None = None) -> State:
    def change(t: dict[str, Any]) -> None:
        t["players"][0]["trail_tokens"] = ["iguanodon", "pterodactylus"]
        t["players"][1]["trail_tokens"] = ["pterodactylus", "pterodactylus"]
        t["players"][2]["trail_tokens"] = ["plesiosaurus", "iguanodon"]
        place(t, cid_t(t, "Megalosaurus hesperis"), "dinosaurs", seat=1)  # 6 points
        place(t, cid_t(t, "Pterodactylus micronyx"), "dinosaurs", seat=1)  # 3 points
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=1)  # 2 points
        if die_change:
            die_change(t)

    return position(3, advanced=True, row=("Haven of Peace", "Hound"), change=change)


def test_steal_offers_only_dinosaurs_at_most_the_die() -> None:
    """"throw a die. The result will be the maximum point value that dinosaur has to have
    (count only the printed value).\""""
    state = steal_position()
    state.apply_action(STEAL["iguanodon"])
    assert obs(state)["phase"] == "steal-victim"
    assert sorted(state.legal_actions()) == [ASK + 1, ASK + 2]  # never oneself
    state.apply_action(ASK + 1)
    state.apply_action(87 + 3)
    assert obs(state)["phase"] == "steal-pick"
    assert sorted(state.legal_actions()) == sorted(
        PICK + cid(state, n) for n in ("Pterodactylus micronyx", "Iguanodon mantelli"))
    act(state, PICK + cid(state, "Pterodactylus micronyx"))
    t = obs(state, 0)
    assert t["players"][0]["dinosaurs"] == [cid(state, "Pterodactylus micronyx")]
    assert t["players"][0]["trail_tokens"] == ["pterodactylus"]
    assert t["current_player"] == 1


def test_steal_with_a_low_die_gets_nothing() -> None:
    """"If the chosen player doesn't have any dinosaur with that value (or less), you get
    nothing.\""""
    state = steal_position()
    state.apply_action(STEAL["pterodactylus"])
    state.apply_action(ASK + 1)
    state.apply_action(87 + 1)
    t = obs(state, 0)
    assert t["players"][0]["dinosaurs"] == [] and len(t["players"][1]["dinosaurs"]) == 3
    assert t["players"][0]["trail_tokens"] == ["iguanodon"]


def test_cannot_ask_a_player_who_abandoned() -> None:
    """"You can't steal from a player that has abandoned the adventure.\""""
    state = steal_position(lambda t: t["players"][1].__setitem__("abandoned", True))
    state.apply_action(STEAL["iguanodon"])
    assert state.legal_actions() == [ASK + 2]


def test_steal_locks_the_next_player_out() -> None:
    """"When a player decides to discard a trail token, the next one CAN'T choose this
    action.\""""
    state = steal_position()
    state.apply_action(STEAL["iguanodon"])
    state.apply_action(ASK + 2)
    act(state, 87 + 6)
    assert state.current_player() == 1
    assert not set(STEAL.values()) & set(state.legal_actions())
    act(state, BASE)
    assert state.current_player() == 2
    assert STEAL["plesiosaurus"] in state.legal_actions()


def test_stolen_dinosaur_changes_lone_species_doubling() -> None:
    """A stolen dinosaur is scored by its new owner like any captured one."""
    state = steal_position()
    state.apply_action(STEAL["pterodactylus"])
    state.apply_action(ASK + 1)
    state.apply_action(87 + 2)
    state.apply_action(PICK + cid(state, "Iguanodon mantelli"))
    t = obs(state, 0)
    # seat 0: lone iguanodon 2 (+1 iguanodon trail) doubled = 6; seat 1: 6*2 + 3*2(+1 each pt)
    assert t["players"][0]["points"] == 6
    assert t["players"][1]["points"] == 12 + (3 + 1) * 2


# --- more corners ---------------------------------------------------------------------------


def one_card_deck(name: str) -> Callable[[dict[str, Any]], object]:
    def change(t: dict[str, Any]) -> None:
        keep = cid_t(t, name)
        empty_deck(t)
        t["discards"].remove(keep)
        t["deck"] = [keep]

    return change


def test_hound_revealing_the_last_card_then_capturing_ends_the_adventure() -> None:
    """The revealed card was the deck's last: the Hound's slot can't be replaced."""
    state = position(2, row=("Hound", "Allies"), change=one_card_deck("Iguanodon mantelli"))
    state.apply_action(TAKE0)
    outcome(state, "Iguanodon mantelli")
    state.apply_action(HOUND_TAKE)
    t = obs(state, 0)
    assert len(t["history"]) == 1
    assert t["history"][0][0] == 2 * 2 - 1


def test_hound_let_go_puts_the_dinosaur_in_the_row() -> None:
    """README: let go, "it replaces the Hound in the row"."""
    state = position(2, row=("Hound", "Allies"), change=one_card_deck("Iguanodon mantelli"))
    state.apply_action(TAKE0)
    outcome(state, "Iguanodon mantelli")
    act(state, HOUND_LET_GO)
    t = obs(state)
    assert t["history"] == [] and t["current_player"] == 1
    assert t["row"][0]["name"] == "Iguanodon mantelli" and t["deck_count"] == 0


def test_lone_explorer_is_locked_out_of_discarding_by_their_own_discard() -> None:
    """README: the next explorer still in is locked out, "the discarder themselves when
    alone"."""
    state = position(2, change=lambda t: t["players"][1].__setitem__("abandoned", True))
    act(state, DISC0)
    assert state.current_player() == 0
    assert DISC0 not in state.legal_actions() and DISC1 not in state.legal_actions()
    act(state, BASE)
    assert DISC0 in state.legal_actions()


def test_extra_action_offered_after_the_action_at_turn_end() -> None:
    """"A player can earn an additional action after discarding two of his own exploration
    tokens" -- README: asked at `turn-end`."""
    state = position(2, row=("Haven of Peace", "Hound"))
    state.apply_action(TAKE0)
    settle_chance = state
    while settle_chance.current_player() == CHANCE:
        settle_chance.apply_action(settle_chance.chance_outcomes()[0][0])
    assert obs(state)["phase"] == "turn-end"
    assert sorted(state.legal_actions()) == [BUY, TURN_END]
    state.apply_action(BUY)
    t = obs(state)
    assert t["phase"] == "turn" and t["actions_left"] == 1
    assert t["players"][0]["exploration_tokens"] == 4


def test_abandoned_seat_skipped_in_four_players() -> None:
    """"He will be ignored for the rest of the adventure\""""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["abandoned"] = True
        t["players"][2]["abandoned"] = True

    state = position(4, change=change)
    act(state, BASE)
    assert state.current_player() == 3
    act(state, BASE)
    assert state.current_player() == 0


def test_abandoned_player_keeps_ammunition_and_cards_and_loses_points_for_them() -> None:
    """"He won't discard any cards and he keeps the used ammunition.\""""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=0)
        t["players"][0]["ammunition"] = 2
        t["center_ammunition"] -= 2

    state = position(2, change=change)
    act(state, ABANDON)
    p = obs(state, 0)["players"][0]
    assert p["abandoned"] and p["ammunition"] == 2 and len(p["dinosaurs"]) == 1
    assert p["points"] == 4 - 2
    assert state.current_player() == 1
    assert obs(state)["center_ammunition"] == 4


def test_ranking_below_the_winner_uses_trophies_then_points() -> None:
    """README: "ranking() orders seats by trophies, then total adventure points"."""

    def change(t: dict[str, Any]) -> None:
        t["players"][1]["trophies"] = 1
        t["history"] = [[5, 3, 9]]
        t["trophy_history"] = [[1]]
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=1)

    state = end_with(3, change)
    assert state.is_terminal()
    assert list(state.ranking()) == [2, 0, 1]


def test_an_abandoned_players_dinosaurs_still_break_a_lone_species() -> None:
    """"he will score like everyone else": his dinosaurs are still his, so another player
    is not "the only one that has" that species."""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=0)
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=1)
        t["players"][1]["abandoned"] = True

    state = position(2, change=change)
    assert [p["points"] for p in obs(state)["players"]] == [2, 4]


def test_base_camp_dinosaurs_no_longer_count_for_the_species() -> None:
    """"After that, he must discard ... his captured dinosaurs.\""""

    def change(t: dict[str, Any]) -> None:
        place(t, cid_t(t, "Iguanodon mantelli"), "dinosaurs", seat=0)
        place(t, cid_t(t, "Iguanodon galvensis"), "dinosaurs", seat=1)
        t["current_player"] = 1
        t["first_player"] = 1

    state = position(2, change=change)
    act(state, BASE)
    assert obs(state, 0)["players"][0]["points"] == 4


def test_hound_revealing_allies_gives_neither_action_nor_bonus() -> None:
    """Hound: "If it's an advantage, you will NOT benefit from its effect\""""
    state = position(2, row=("Hound", "Haven of Peace"))
    state.apply_action(TAKE0)
    outcome(state, "Allies")
    settle(state)
    t = obs(state)
    assert t["players"][0]["throw_bonus"] == 0
    assert t["current_player"] == 1


def test_allies_bonus_lasts_after_the_base_camp_until_the_adventure_ends() -> None:
    """"you will gain +1 in all your future hunt throws (until the adventure ends)\""""
    state = position(2, row=("Allies", "Haven of Peace"))
    act(state, TAKE0)
    act(state, BASE)
    p = obs(state, 0)["players"][0]
    assert p["advantages"] == [] and p["throw_bonus"] == 1


def test_failed_hunt_exhaustion_then_base_camp_still_passes_the_turn() -> None:
    """"If, after all, you still fail, inflict yourself as much damage ... and pass the
    turn" -- the base camp of an exhausted explorer does not give the turn back."""

    def change(t: dict[str, Any]) -> None:
        t["players"][0]["exploration_tokens"] = 5

    state = position(2, row=("Megalosaurus hesperis", "Hound"), change=change)
    state.apply_action(BUY)  # 3 tokens left, two actions
    state.apply_action(TAKE0)
    roll(state, 2)
    state.apply_action(STOP)  # 5 damage: exhausted
    assert obs(state)["phase"] == "exhausted"
    act(state, BASE)
    assert state.current_player() == 1


def test_ammunition_box_with_no_ammunition_asks_nothing() -> None:
    """Nothing used, nothing to put back: the card only costs its point."""
    state = position(2, row=("Ammunition Box", "Hound"))
    state.apply_action(TAKE0)
    settle(state)
    assert obs(state)["phase"] != "ammunition-box"
    assert obs(state, 0)["players"][0]["points"] == -1


def test_turn_counter_counts_seat_turns_not_actions() -> None:
    """README: `turn` ... "from 1 at its first decision; ... a seat's extra actions are one
    turn"."""
    state = start(3)
    assert obs(state)["turn"] == 1
    state.apply_action(BUY)
    act(state, BASE)
    assert obs(state)["turn"] == 1 and state.current_player() == 0
    act(state, BASE)
    assert obs(state)["turn"] == 2 and state.current_player() == 1


def test_illegal_and_out_of_turn_ids_are_refused() -> None:
    """An id absent from `legal_actions()` (a locked discard, a chance outcome at a decision,
    a decision at a chance node) is refused and changes nothing."""
    state = start(2)
    act(state, DISC0)
    before = obs(state)
    for bad in (DISC0, DISC1, 45, 77, REROLL, TURN_END, 111, -1):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert obs(state) == before
    state.apply_action(TAKE0)
    if state.current_player() == CHANCE:
        with pytest.raises(ValueError):
            state.apply_action(BASE)


@pytest.mark.parametrize(("field", "edit"), [
    ("ammunition", lambda t: t["players"][0].__setitem__("ammunition", 1)),
    ("exploration_tokens", lambda t: t["players"][0].__setitem__("exploration_tokens", 7)),
    ("trophies", lambda t: t["players"][1].__setitem__("trophies", 2)),
    ("trail_tokens", lambda t: t["players"][0].__setitem__("trail_tokens", ["iguanodon"])),
    ("throw_bonus", lambda t: t["players"][0].__setitem__("throw_bonus", 1)),
    ("deck", lambda t: t["deck"].pop()),
])
def test_impossible_positions_are_refused_naming_the_field(
        field: str, edit: Callable[[dict[str, Any]], object]) -> None:
    """README: "a position no game can hold is refused with a `ValueError` naming the field
    at fault"."""
    with pytest.raises(ValueError, match=field):
        position(2, change=edit)
