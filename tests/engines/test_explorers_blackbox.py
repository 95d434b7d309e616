"""Black-box rule scenarios for Explorers of the Lost Valley.

Written as an outside checker would write them: from the rulebook
(``rules/explorers-of-the-lost-valley.txt``) and the engine's README and RULINGS.md
only, through the public API (``Game.new_initial_state``, chance outcomes picked by
their ``action_to_string``, the documented action ids, ``observation`` and
``Game.state_from_observation`` to set up a position). Nothing here imports the
engine's modules. Each test quotes the rule it checks.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from arena.game import CHANCE, TERMINAL, Game, InvalidOptions, State
from arena.plugins import require_registry

GAME = "explorers-of-the-lost-valley"

# Action ids, from the README's table.
TAKE = (0, 1)
DISCARD = (2, 3)
BASE_CAMP = 4
ABANDON = 5
BUY_ACTION = 6
REROLL = 7
STOP_HUNT = 8
STEAL_WITH = {"pterodactylus": 9, "iguanodon": 10, "plesiosaurus": 11, "megalosaurus": 12}
STEAL_PICK_FIRST = 13
TURN_END = 102
BOX_PUT_BACK, BOX_KEEP = 103, 104
HOUND_CAPTURE, HOUND_LET_GO = 105, 106
ASK_SEAT_FIRST = 107

# Names from dinosaurs.toml (the shipped card file).
PTERO_4 = "Pterodactylus antiquus"  # difficulty 4, 1 point, damage 0/1
PTERO_5 = "Pterodactylus kochi"  # 5, 1 point, 0/1
PTERO_5B = "Pterodactylus scolopaciceps"  # 5, 2 points, 1/1
PTERO_6 = "Pterodactylus longicollum"  # 6, 2 points, 1/2
PTERO_7 = "Pterodactylus micronyx"  # 7, 3 points, 1/2
IGUA_5 = "Iguanodon mantelli"  # 5, 2 points, 1/2
IGUA_6 = "Iguanodon bernissartensis"  # 6, 2 points, 1/2
IGUA_7 = "Iguanodon atherfieldensis"  # 7, 3 points, 1/3
IGUA_8 = "Iguanodon galvensis"  # 8, 4 points, 2/3
PLES_7 = "Plesiosaurus dolichodeirus"  # 7, 3 points, 1/3
PLES_8 = "Plesiosaurus macrocephalus"  # 8, 4 points, 2/3
PLES_9 = "Plesiosaurus brachypterygius"  # 9, 5 points, 3/4
MEGA_9 = "Megalosaurus bucklandii"  # 9, 5 points, 3/4
MEGA_10 = "Megalosaurus hesperis"  # 10, 6 points, 3/5
HAVEN = "Haven of Peace"
ALLIES = "Allies"
AMMO_BOX = "Ammunition Box"
HOUND = "Hound"

SETUP_DISCARDS = {2: 3, 3: 2, 4: 1}
STARTING_AMMUNITION = {2: 6, 3: 7, 4: 8}


# --- helpers: only the public API ----------------------------------------------------------


def game() -> Game:
    return require_registry().game(GAME)


def chance(state: State, text: str) -> None:
    """Apply the one chance outcome whose ``action_to_string`` is ``text`` or ends with it
    (card draws read ``reveal NAME (difficulty N)``: the name is enough)."""
    assert state.current_player() == CHANCE, f"not a chance node: {phase(state)}"
    found = [
        action
        for action, _ in state.chance_outcomes()
        if f" {text} " in f" {state.action_to_string(action)} "
    ]
    assert len(found) == 1, (
        text,
        [state.action_to_string(a) for a, _ in state.chance_outcomes()],
    )
    state.apply_action(found[0])


def obs(state: State, seat: int | None = None) -> dict[str, Any]:
    if seat is None:
        seat = max(state.current_player(), 0)
    return state.observation(seat)


def last_adventure(state: State) -> tuple[list[int], list[int]]:
    """The points and the trophy winners of the adventure that just ended."""
    table = obs(state, 0)
    return table["history"][-1], table["trophy_history"][-1]


def phase(state: State) -> str:
    return str(state.observation(0)["phase"])


def card_id(state: State, name: str) -> int:
    return int(obs(state, 0)["cards"]["name"].index(name))


def card_name(state: State, cid: int) -> str:
    return str(obs(state, 0)["cards"]["name"][cid])


def player(state: State, seat: int) -> dict[str, Any]:
    return dict(obs(state, 0)["players"][seat])


def row_names(state: State) -> list[str | None]:
    return [None if card is None else card["name"] for card in obs(state, 0)["row"]]


def start(
    players: int = 2,
    *,
    first: int = 0,
    row: tuple[str, str] = (PTERO_6, IGUA_7),
    discards: Iterable[str] | None = None,
    advanced: bool = False,
    trails: dict[int, tuple[str, str]] | None = None,
) -> State:
    """A new match at its first decision, every chance node of the setup chosen."""
    state = game().new_initial_state(players, {"advanced": advanced})
    chance(state, f"seat {first} goes first")
    if advanced:
        assert trails is not None
        for seat in range(players):
            for species in trails[seat]:
                chance(state, f"deal a {species} trail token to seat {seat}")
    if discards is None:
        discards = [name for name in (MEGA_10, PLES_9, MEGA_9, PLES_8) if name not in row]
    for name in list(discards)[: SETUP_DISCARDS[players]]:
        chance(state, f"setup discard {name}")
    for name in row:
        chance(state, f"reveal {name}")
    assert state.current_player() == first
    return state


def rebuild(state: State, change: Callable[[dict[str, Any]], None]) -> State:
    """The position ``state`` with ``change`` made to the observation of the seat on move,
    rebuilt through ``Game.state_from_observation`` (the only documented way to build a
    position)."""
    seen = state.observation(state.current_player())
    edited = copy.deepcopy({key: value for key, value in seen.items() if key != "cards"})
    edited["cards"] = seen["cards"]
    change(edited)
    return game().state_from_observation(edited, random.Random(0))


def give(table: dict[str, Any], seat: int, *names: str) -> None:
    """In an observation being edited: move cards from the deck (or the discards) to
    ``seat``'s hand."""
    columns = table["cards"]
    for name in names:
        cid = columns["name"].index(name)
        if cid in table["deck"]:
            table["deck"].remove(cid)
            table["deck_count"] -= 1
        else:
            table["discards"].remove(cid)
        kind = "dinosaurs" if columns["kind"][cid] == "dinosaur" else "advantages"
        table["players"][seat][kind].append(cid)


def set_deck(table: dict[str, Any], names: Iterable[str]) -> None:
    """In an observation being edited: keep only ``names`` in the deck, the rest discarded."""
    columns = table["cards"]
    keep = [columns["name"].index(name) for name in names]
    for cid in list(table["deck"]):
        if cid not in keep:
            table["deck"].remove(cid)
            table["discards"].append(cid)
    table["deck_count"] = len(table["deck"])


def hunt(state: State, slot: int, *rolls: int) -> None:
    """Hunt row[slot]; each roll after the first is bought with an ammunition token."""
    state.apply_action(TAKE[slot])
    for index, total in enumerate(rolls):
        if index:
            state.apply_action(REROLL)
        chance(state, f"roll {total}")


def end_adventure_now(state: State) -> None:
    """Discard row[0] with an empty deck: the adventure ends (ruling 14)."""
    state.apply_action(DISCARD[0])


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_discards_and_ammunition_by_player_count(players: int) -> None:
    """"If only two people are going to play, discard three cards. If three ... two cards.
    If four ... only one card." and "If only two people are going to play, use six tokens.
    If three ... seven tokens. If four ... use them all." (8)."""
    state = start(players)
    table = obs(state)
    assert len(table["discards"]) == SETUP_DISCARDS[players]
    assert table["center_ammunition"] == STARTING_AMMUNITION[players]
    assert table["deck_count"] == 18 - SETUP_DISCARDS[players] - 2
    assert table["deck_count_at_start"] == table["deck_count"]


@pytest.mark.parametrize("players", [2, 4])
def test_each_player_takes_six_exploration_tokens(players: int) -> None:
    """"Finally, each player takes 6 exploration tokens." """
    state = start(players)
    assert [p["exploration_tokens"] for p in obs(state)["players"]] == [6] * players
    assert all(p["ammunition"] == 0 and not p["dinosaurs"] for p in obs(state)["players"])


def test_two_cards_face_up_at_start() -> None:
    """"Now, reveal the first two cards. Put them together, faced up" """
    state = start(3, row=(HOUND, PLES_8))
    assert row_names(state) == [HOUND, PLES_8]
    assert obs(state)["row"][0]["type"] == "advantage"
    assert obs(state)["row"][1]["type"] == "dinosaur"


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused(players: int) -> None:
    """The box is for 2-4 players."""
    with pytest.raises(InvalidOptions):
        game().new_initial_state(players)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(InvalidOptions):
        game().new_initial_state(2, {"advnaced": True})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_player_is_drawn_among_all_seats(players: int) -> None:
    """"Whoever has the thickest moustache goes first (or the one who rolls higher)":
    ruling 4, every seat equally likely."""
    state = game().new_initial_state(players)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == players
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)


def test_setup_discards_are_face_up_and_out_of_the_deck() -> None:
    """"you must discard (faced up) a certain number of cards ... Discarded cards are
    ignored for the rest of the adventure." """
    state = start(2, discards=[HAVEN, MEGA_10, PLES_9])
    table = obs(state)
    discarded = {card_name(state, cid) for cid in table["discards"]}
    assert discarded == {HAVEN, MEGA_10, PLES_9}
    assert not {card_id(state, n) for n in discarded} & set(table["deck"])


# --- turn order -------------------------------------------------------------------------------


def test_play_goes_clockwise_from_the_first_player() -> None:
    """"Then, play clockwise." (ruling 4: increasing seat index)."""
    state = start(3, first=1)
    order = [state.current_player()]
    for _ in range(3):
        state.apply_action(BASE_CAMP)
        if state.current_player() >= 0 and phase(state) == "turn-end":
            state.apply_action(TURN_END)
        order.append(state.current_player())
    assert order == [1, 2, 0, 1]


def test_one_action_then_the_next_players_turn() -> None:
    """"In their turn, each player can take one of the following actions ... Now, it's the
    next player's turn." (with no tokens to buy an extra action, the turn passes at once)."""
    state = start(2)
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    state.apply_action(DISCARD[0])
    chance(state, f"{PTERO_4}")
    assert state.current_player() == 1


def test_extra_action_costs_two_tokens() -> None:
    """"A player can earn an additional action after discarding two of his own exploration
    tokens." """
    state = start(2)
    state.apply_action(BUY_ACTION)
    assert player(state, 0)["exploration_tokens"] == 4
    assert state.current_player() == 0
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    assert state.current_player() == 0  # the bought action
    assert DISCARD[1] in state.legal_actions()


def test_extra_action_needs_three_tokens() -> None:
    """"In order to do this, you need, at least, 3 exploration tokens." """
    state = start(2)
    two = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    three = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=3))
    assert BUY_ACTION not in two.legal_actions()
    assert BUY_ACTION in three.legal_actions()


def test_only_one_extra_action_per_turn() -> None:
    """"The same player can only win one extra action per turn, no matter how many
    exploration tokens he has." """
    state = start(2)
    state.apply_action(BUY_ACTION)
    assert BUY_ACTION not in state.legal_actions()
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    assert BUY_ACTION not in state.legal_actions()
    state.apply_action(DISCARD[0])
    chance(state, PTERO_5)
    assert state.current_player() == 1


def test_extra_action_can_be_bought_after_the_first_action() -> None:
    """Ruling 7: the extra action may be bought once the last action has resolved
    (phase ``turn-end``: 6 buys it, 102 ends the turn)."""
    state = start(2)
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    assert phase(state) == "turn-end"
    assert state.current_player() == 0
    assert sorted(state.legal_actions()) == [BUY_ACTION, TURN_END]
    state.apply_action(TURN_END)
    assert state.current_player() == 1
    assert player(state, 0)["exploration_tokens"] == 6


def test_discard_locks_the_next_player_out_of_discarding() -> None:
    """"Discard one of the two cards ... When a player takes this action, the next one in
    the turn order will NOT be able to choose it." """
    state = start(3)
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    state.apply_action(TURN_END)
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert DISCARD[0] not in legal and DISCARD[1] not in legal
    assert TAKE[0] in legal and TAKE[1] in legal


def test_discard_lock_is_only_for_the_next_player() -> None:
    """"... the next one in the turn order will NOT be able to choose it": the one after
    may discard."""
    state = start(3)
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    state.apply_action(TURN_END)
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 2
    assert DISCARD[0] in state.legal_actions()


def test_an_illegal_action_is_refused() -> None:
    """Actions outside the legal list raise ``ValueError`` (the ``Game`` contract)."""
    state = start(2)
    for action in (REROLL, STOP_HUNT, TURN_END, HOUND_CAPTURE, 9, 1000, -3):
        assert action not in state.legal_actions()
        with pytest.raises(ValueError):
            state.apply_action(action)


def test_basic_game_offers_no_steal() -> None:
    """Stealing is in the Advanced Game only."""
    state = start(2)
    assert not set(state.legal_actions()) & set(STEAL_WITH.values())
    assert obs(state)["players"][0]["trail_tokens"] == []


# --- the row --------------------------------------------------------------------------------


def test_discarded_card_is_replaced_from_the_deck() -> None:
    """"At the right side of the deck, there has to be ALWAYS two cards faced up ... after
    taking or discarding a card, you have to replace it with another one from the deck." """
    state = start(2)
    before = obs(state)["deck_count"]
    state.apply_action(DISCARD[1])
    assert phase(state) != "turn"  # a draw is due
    chance(state, PLES_7)
    table = obs(state)
    assert row_names(state) == [PTERO_6, PLES_7]
    assert card_id(state, IGUA_7) in table["discards"]
    assert table["deck_count"] == before - 1


def test_captured_dinosaur_is_replaced_from_the_deck() -> None:
    state = start(2)
    hunt(state, 0, 8)
    chance(state, IGUA_5)
    assert row_names(state) == [IGUA_5, IGUA_7]


# --- hunting ---------------------------------------------------------------------------------


def test_hunt_succeeds_on_difficulty_or_more() -> None:
    """"You have to obtain the difficulty of the dinosaur or more in order to succeed. If
    you are successful, you have captured the dinosaur. Inflict yourself as much damage as
    necessary ... and take the dinosaur card for yourself." """
    state = start(2, row=(PTERO_6, IGUA_7))
    hunt(state, 1, 7)  # exactly the difficulty
    me = player(state, 0)
    assert me["dinosaurs"] == [card_id(state, IGUA_7)]
    assert me["exploration_tokens"] == 6 - 1  # damage on success


def test_hunt_fails_below_difficulty_and_offers_a_reroll() -> None:
    """"After a failed throw, you can try again, taking an ammunition token from the center
    of the table." """
    state = start(2, row=(PTERO_6, IGUA_7))
    hunt(state, 1, 6)
    assert state.current_player() == 0
    assert phase(state) == "hunt-reroll"
    assert sorted(state.legal_actions()) == [REROLL, STOP_HUNT]
    state.apply_action(REROLL)
    assert obs(state)["center_ammunition"] == 5
    assert player(state, 0)["ammunition"] == 1
    chance(state, "roll 9")
    assert player(state, 0)["dinosaurs"] == [card_id(state, IGUA_7)]


def test_at_most_two_ammunition_per_dinosaur() -> None:
    """"You can take up to two ammunition tokens per dinosaur (which means that you can
    throw the dice up to three times)." After the third failure: failure damage, turn
    passes."""
    state = start(2, row=(PTERO_6, IGUA_7))
    hunt(state, 1, 2, 3, 4)
    me = player(state, 0)
    assert me["ammunition"] == 2
    assert me["dinosaurs"] == []
    assert me["exploration_tokens"] == 6 - 3  # damage on failure
    assert obs(state)["center_ammunition"] == 4
    assert state.current_player() == 1


def test_no_reroll_without_ammunition_in_the_center() -> None:
    """"Remember that you won't be able to take an ammunition token if there's not one left
    in the center of the table." """
    state = start(2, row=(PTERO_6, IGUA_7))
    state = rebuild(
        state,
        lambda t: (t.update(center_ammunition=0), t["players"][1].update(ammunition=6)),
    )
    hunt(state, 1, 5)
    assert REROLL not in state.legal_actions()
    assert player(state, 0)["exploration_tokens"] == 3
    assert state.current_player() == 1


def test_failed_hunt_damages_leaves_the_dinosaur_and_passes_the_turn() -> None:
    """"If, after all, you still fail, inflict yourself as much damage as necessary (taken
    out of exploration tokens) and pass the turn." The dinosaur stays (ruling 12)."""
    state = start(2, row=(PTERO_6, IGUA_7))
    state.apply_action(BUY_ACTION)  # the bought action is lost with the failure
    hunt(state, 1, 3)
    state.apply_action(STOP_HUNT)
    assert player(state, 0)["exploration_tokens"] == 6 - 2 - 3
    assert row_names(state) == [PTERO_6, IGUA_7]
    assert state.current_player() == 1


def test_each_ammunition_token_costs_a_point() -> None:
    """"Each ammunition token you have at the end of the adventure subtracts 1 point." """
    state = start(2, row=(PTERO_6, IGUA_7))
    hunt(state, 1, 2, 9)  # one reroll, captured: 3 points - 1 ammunition
    assert player(state, 0)["points"] == 3 * 2 - 1  # alone with iguanodons: doubled


def test_overkill_has_no_penalty() -> None:
    """"If the inflicted damage was superior to the player's current tokens, nothing special
    happens": tokens stop at 0."""
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    hunt(state, 1, 4)
    state.apply_action(STOP_HUNT)
    assert player(state, 0)["exploration_tokens"] == 0


def test_exhausted_explorer_must_choose_base_camp_or_abandon() -> None:
    """"When a player has no exploration tokens left, he has to decide immediately between
    going back to the base camp or abandoning the adventure." """
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    state.apply_action(TAKE[1])
    chance(state, "roll 10")
    assert state.current_player() == 0
    assert phase(state) == "exhausted"
    assert sorted(state.legal_actions()) == [BASE_CAMP, ABANDON]


# --- base camp and abandoning ---------------------------------------------------------------


def test_base_camp_refills_and_discards_everything() -> None:
    """"A player that goes back to the base camp takes up to 6 exploration tokens. After
    that, he must discard both his advantages and his captured dinosaurs. Also, he will have
    to put all the ammunition he took back at the center of the table." """
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_4, IGUA_5, HAVEN)
        table["players"][0].update(exploration_tokens=2, ammunition=2)
        table["center_ammunition"] = 4

    state = rebuild(state, setup)
    state.apply_action(BASE_CAMP)
    me = player(state, 0)
    assert me["exploration_tokens"] == 6
    assert me["dinosaurs"] == [] and me["advantages"] == [] and me["ammunition"] == 0
    assert obs(state)["center_ammunition"] == 6
    discards = obs(state)["discards"]
    assert {card_id(state, n) for n in (PTERO_4, IGUA_5, HAVEN)} <= set(discards)


def test_abandoning_keeps_cards_and_ammunition_and_skips_the_player() -> None:
    """"A player that abandons the adventure will stop playing. He won't discard any cards
    and he keeps the used ammunition. He will be ignored for the rest of the adventure" """
    state = start(3)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PLES_7)
        table["players"][0].update(ammunition=1)
        table["center_ammunition"] = 6

    state = rebuild(state, setup)
    state.apply_action(ABANDON)
    me = player(state, 0)
    assert me["abandoned"] and me["dinosaurs"] == [card_id(state, PLES_7)]
    assert me["ammunition"] == 1
    assert state.current_player() == 1
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 1  # seat 0 is skipped


def test_abandoned_player_scores_and_can_win() -> None:
    """"at the end, he will score like everyone else... and can be declared winner!" """
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, MEGA_9)
        set_deck(table, [])

    state = rebuild(state, setup)
    state.apply_action(ABANDON)
    assert state.current_player() == 1
    end_adventure_now(state)
    table = obs(state, 0)
    assert table["trophy_history"] == [[0]]
    assert table["players"][0]["trophies"] == 1


def test_adventure_ends_when_all_abandon() -> None:
    """"The adventure also ends if all the players have abandoned it." """
    state = start(2)
    state.apply_action(ABANDON)
    state.apply_action(ABANDON)
    table = obs(state, 0)
    assert table["adventure"] == 2 or state.is_terminal()
    assert len(table["history"]) == 1


# --- advantages ------------------------------------------------------------------------------


def test_taking_an_advantage_needs_no_hunt() -> None:
    """"If it's an advantage, just take it." """
    state = start(2, row=(HAVEN, IGUA_7))
    state.apply_action(TAKE[0])
    assert player(state, 0)["advantages"] == [card_id(state, HAVEN)]
    chance(state, PTERO_4)
    assert row_names(state) == [PTERO_4, IGUA_7]


def test_haven_of_peace_tops_up_to_six_tokens() -> None:
    """"Haven of Peace: If you take the haven of peace, take up to 6 exploration tokens." """
    state = start(2, row=(HAVEN, IGUA_7))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=1))
    state.apply_action(TAKE[0])
    assert player(state, 0)["exploration_tokens"] == 6


def test_allies_give_an_action_and_plus_one_to_throws() -> None:
    """"Allies: ... you will gain an additional action this turn. Also, you will gain +1 in
    all your future hunt throws (until the adventure ends)." """
    state = start(2, row=(ALLIES, IGUA_7))
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    assert state.current_player() == 0
    assert player(state, 0)["throw_bonus"] == 1
    hunt(state, 1, 6)  # 6 + 1 = difficulty 7
    assert card_id(state, IGUA_7) in player(state, 0)["dinosaurs"]


def test_allies_action_is_on_top_of_the_bought_one() -> None:
    """Ruling 8: Allies' action does not count toward the one-extra-action limit."""
    state = start(2, row=(ALLIES, IGUA_7))
    state.apply_action(BUY_ACTION)
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    assert obs(state)["actions_left"] == 2


def test_ammunition_box_puts_used_ammunition_back() -> None:
    """"Ammunition Box: If you take the ammunition box, you can put back at the center of
    the table all the ammunition tokens you have used." """
    state = start(2, row=(AMMO_BOX, IGUA_7))
    state = rebuild(
        state,
        lambda t: (t["players"][0].update(ammunition=2), t.update(center_ammunition=4)),
    )
    state.apply_action(TAKE[0])
    assert phase(state) == "ammunition-box"
    state.apply_action(BOX_PUT_BACK)
    assert player(state, 0)["ammunition"] == 0
    assert obs(state)["center_ammunition"] == 6


def test_hound_captures_the_revealed_dinosaur_free() -> None:
    """"Hound: If you take the hound, reveal the next card of the deck. If it's a dinosaur,
    you can capture it without making a hunt throw and without receiving any damage." """
    state = start(2, row=(HOUND, IGUA_7))
    state.apply_action(TAKE[0])
    chance(state, PLES_7)
    assert phase(state) == "hound-capture"
    state.apply_action(HOUND_CAPTURE)
    me = player(state, 0)
    assert card_id(state, PLES_7) in me["dinosaurs"]
    assert card_id(state, HOUND) in me["advantages"]
    assert me["exploration_tokens"] == 6
    chance(state, PTERO_4)  # the Hound's place is refilled
    assert row_names(state) == [PTERO_4, IGUA_7]


def test_hound_revealing_an_advantage_costs_a_point_without_effect() -> None:
    """"If it's an advantage, you will NOT benefit from its effect, but it will subtract one
    point at the end of the adventure." """
    state = start(2, row=(HOUND, IGUA_7))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    state.apply_action(TAKE[0])
    chance(state, HAVEN)
    me = player(state, 0)
    assert card_id(state, HAVEN) in me["advantages"]
    assert me["exploration_tokens"] == 2  # no Haven effect
    assert me["points"] == -2


def test_each_advantage_costs_a_point() -> None:
    """"Each advantage card you have at the end of the adventure subtracts 1 point." """
    state = start(2, row=(HAVEN, IGUA_7))
    state.apply_action(TAKE[0])
    assert player(state, 0)["points"] == -1


# --- scoring ---------------------------------------------------------------------------------


def test_lone_species_scores_double() -> None:
    """"If a player is the only one that has a certain dinosaur species, then all the
    members of that species will score double." """
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_4, PTERO_5B, IGUA_5)
        give(table, 1, IGUA_6)

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == (1 + 2) * 2 + 2
    assert player(state, 1)["points"] == 2


def test_trophy_to_the_most_points_at_the_end_of_the_adventure() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the
    adventure ends." and "The player with the most points takes a trophy token." """
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_4)
        give(table, 1, IGUA_5, IGUA_6)
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    table = obs(state, 0)
    assert table["history"][0] == [2, 8]
    assert table["trophy_history"] == [[1]]
    assert [p["trophies"] for p in table["players"]] == [0, 1]


def test_points_tie_goes_to_more_exploration_tokens() -> None:
    """"In case of a tie, only the player with more exploration tokens takes the trophy" """
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_5B)
        give(table, 1, IGUA_5)
        table["players"][0]["exploration_tokens"] = 3
        table["players"][1]["exploration_tokens"] = 4
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    table = obs(state, 0)
    assert table["history"][0] == [4, 4]
    assert table["trophy_history"] == [[1]]


def test_full_tie_gives_every_tied_player_a_trophy() -> None:
    """"(if the tie persists, all the tied players win a trophy token)." """
    state = start(3)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, IGUA_5)
        give(table, 1, IGUA_6)
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    table = obs(state, 0)
    assert table["trophy_history"] == [[0, 1]]
    assert [p["trophies"] for p in table["players"]] == [1, 1, 0]


def test_discarding_with_an_empty_deck_ends_the_adventure() -> None:
    """Ruling 14: a card leaving the row with the deck empty ends the adventure."""
    state = start(2)
    state = rebuild(state, lambda t: set_deck(t, []))
    end_adventure_now(state)
    assert obs(state, 0)["adventure"] == 2


def test_new_adventure_resets_tokens_ammunition_and_first_player() -> None:
    """"Now, each player takes up to 6 exploration tokens and puts back all the used
    ammunition tokens ... Shuffle all the cards together and start a new adventure ...
    The player who goes last in the last adventure will go first in this one." """
    state = start(3, first=1)

    def setup(table: dict[str, Any]) -> None:
        give(table, 1, MEGA_9)
        table["players"][1].update(exploration_tokens=1, ammunition=2)
        table["center_ammunition"] = 5
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    for name in (PTERO_4, PTERO_5):
        chance(state, f"setup discard {name}")
    chance(state, f"reveal {IGUA_5}")
    chance(state, f"reveal {IGUA_6}")
    table = obs(state)
    assert table["adventure"] == 2
    assert table["first_player"] == 0  # seat 0 went last (turn order 1, 2, 0)
    assert state.current_player() == 0
    assert [p["exploration_tokens"] for p in table["players"]] == [6, 6, 6]
    assert [p["ammunition"] for p in table["players"]] == [0, 0, 0]
    assert table["center_ammunition"] == 7
    assert all(not p["dinosaurs"] for p in table["players"])
    assert table["deck_count"] == 18 - 2 - 2


def _second_trophy_won() -> Any:
    """A 2-player match whose seat 1, holding a trophy and the only dinosaur, wins the
    adventure that ends now (the deck is empty)."""

    def setup(table: dict[str, Any]) -> None:
        give(table, 1, MEGA_9)
        table["players"][1]["trophies"] = 1
        set_deck(table, [])

    state = rebuild(start(2), setup)
    end_adventure_now(state)
    return state


def test_two_trophies_win_the_game() -> None:
    """"The first player to have two trophies is the absolute winner of the game." """
    state = _second_trophy_won()
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.scores() == [0, 2]
    assert state.ranking() == [1, 0]


def test_one_trophy_does_not_end_the_game() -> None:
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 1, MEGA_9)
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    assert not state.is_terminal()


# --- advanced game ---------------------------------------------------------------------------


def test_advanced_deals_two_trail_tokens_each() -> None:
    """"At the beginning of the game, give two random tokens to each player." from 4
    pterodactylus, 3 iguanodon, 2 plesiosaurus, 1 megalosaurus."""
    state = game().new_initial_state(4, {"advanced": True})
    chance(state, "seat 0 goes first")
    assert dict(state.chance_outcomes()) == pytest.approx(
        {98: 0.4, 99: 0.3, 100: 0.2, 101: 0.1}
    )
    state = start(
        4,
        advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon"),
                2: ("plesiosaurus", "plesiosaurus"), 3: ("pterodactylus", "iguanodon")},
    )
    assert [sorted(p["trail_tokens"]) for p in obs(state)["players"]] == [
        ["megalosaurus", "pterodactylus"], ["iguanodon", "iguanodon"],
        ["plesiosaurus", "plesiosaurus"], ["iguanodon", "pterodactylus"],
    ]


def test_trail_token_bonus_per_captured_dinosaur() -> None:
    """"If you have a plesiosaurus trail token, each plesiosaurus you captured will give
    you +2 points." (and pterodactylus +1)."""
    state = start(
        2, advanced=True,
        trails={0: ("plesiosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PLES_7, PTERO_4)
        give(table, 1, PLES_8, PTERO_5)

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == (3 + 2) + (1 + 1)


def test_identical_trail_tokens_do_not_stack() -> None:
    """"If you have two identical trail tokens, you won't accumulate the extra points." """
    state = start(
        2, advanced=True,
        trails={0: ("iguanodon", "iguanodon"), 1: ("pterodactylus", "pterodactylus")},
    )

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, IGUA_5)
        give(table, 1, IGUA_6)

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == 2 + 1


def test_trail_bonus_is_added_before_doubling() -> None:
    """"If you are the only player with a certain dinosaur species, you will apply the
    extra points BEFORE doubling the score." """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 0, MEGA_9))
    assert player(state, 0)["points"] == (5 + 2) * 2


def test_steal_a_dinosaur_worth_at_most_the_die() -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so,
    you can politely ask for a dinosaur ... throw a die. The result will be the maximum
    point value that dinosaur has to have (count only the printed value)." """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 1, PTERO_7, MEGA_9))
    state.apply_action(STEAL_WITH["megalosaurus"])
    assert player(state, 0)["trail_tokens"] == ["pterodactylus"]
    assert phase(state) == "steal-victim"
    assert state.legal_actions() == [ASK_SEAT_FIRST + 1]
    state.apply_action(ASK_SEAT_FIRST + 1)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6
    roll_three = [a for a, _ in outcomes if state.action_to_string(a).endswith("3")]
    assert len(roll_three) == 1
    state.apply_action(roll_three[0])
    assert phase(state) == "steal-pick"
    assert state.legal_actions() == [STEAL_PICK_FIRST + card_id(state, PTERO_7)]
    state.apply_action(STEAL_PICK_FIRST + card_id(state, PTERO_7))
    assert player(state, 0)["dinosaurs"] == [card_id(state, PTERO_7)]
    assert player(state, 1)["dinosaurs"] == [card_id(state, MEGA_9)]


def test_steal_with_nothing_low_enough_gets_nothing() -> None:
    """"If the chosen player doesn't have any dinosaur with that value (or less), you get
    nothing." """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 1, MEGA_9))
    state.apply_action(STEAL_WITH["pterodactylus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a).endswith("4")]
    state.apply_action(roll[0])
    assert player(state, 0)["dinosaurs"] == []
    assert player(state, 0)["trail_tokens"] == ["megalosaurus"]
    assert player(state, 1)["dinosaurs"] == [card_id(state, MEGA_9)]


def test_cannot_steal_from_an_abandoned_player() -> None:
    """"You can't steal from a player that has abandoned the adventure." """
    state = start(
        3, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon"),
                2: ("pterodactylus", "pterodactylus")},
    )

    def setup(table: dict[str, Any]) -> None:
        give(table, 1, PTERO_4)
        table["players"][1]["abandoned"] = True

    state = rebuild(state, setup)
    state.apply_action(STEAL_WITH["megalosaurus"])
    assert state.legal_actions() == [ASK_SEAT_FIRST + 2]


def test_steal_locks_the_next_player_out_of_stealing() -> None:
    """"When a player decides to discard a trail token, the next one CAN'T choose this
    action." """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    state.apply_action(STEAL_WITH["megalosaurus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a).endswith("6")]
    state.apply_action(roll[0])  # seat 1 has nothing: the steal ends
    if phase(state) == "turn-end":
        state.apply_action(TURN_END)
    assert state.current_player() == 1
    assert not set(state.legal_actions()) & set(STEAL_WITH.values())
    assert DISCARD[0] in state.legal_actions()


def test_trail_tokens_are_kept_from_adventure_to_adventure() -> None:
    """"Remember also that trail tokens are kept from adventure to adventure and, if you
    discard one, there is no way to recover it." """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    state.apply_action(STEAL_WITH["megalosaurus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a).endswith("6")]
    state.apply_action(roll[0])
    if phase(state) == "turn-end":
        state.apply_action(TURN_END)
    state = rebuild(state, lambda t: set_deck(t, []))
    end_adventure_now(state)
    assert obs(state, 0)["adventure"] == 2
    assert player(state, 0)["trail_tokens"] == ["pterodactylus"]
    assert sorted(player(state, 1)["trail_tokens"]) == ["iguanodon", "plesiosaurus"]


# --- more edge cases a checker would try ------------------------------------------------------


def test_reroll_limit_is_per_hunt_not_per_turn() -> None:
    """"You can take up to two ammunition tokens per dinosaur": ruling 17 counts them per
    hunt, so a later hunt of the same dinosaur has two again."""
    state = start(2, row=(PTERO_6, IGUA_7))

    def setup(table: dict[str, Any]) -> None:
        table["players"][0]["ammunition"] = 2
        table["center_ammunition"] = 4

    state = rebuild(state, setup)
    hunt(state, 1, 2)
    assert REROLL in state.legal_actions()


def test_only_the_ammunition_left_can_be_taken() -> None:
    """With one token in the centre, one re-roll only."""
    state = start(2, row=(PTERO_6, IGUA_7))

    def setup(table: dict[str, Any]) -> None:
        table["players"][1]["ammunition"] = 5
        table["center_ammunition"] = 1

    state = rebuild(state, setup)
    hunt(state, 1, 2, 3)
    assert REROLL not in state.legal_actions()
    assert obs(state)["center_ammunition"] == 0


def test_allies_bonus_applies_to_rerolls() -> None:
    """"you will gain +1 in all your future hunt throws" """
    state = start(2, row=(ALLIES, PLES_8))
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    hunt(state, 1, 6, 7)  # 7 + 1 = 8
    assert card_id(state, PLES_8) in player(state, 0)["dinosaurs"]


def test_allies_bonus_outlasts_the_base_camp() -> None:
    """Ruling 21: "until the adventure ends", the base camp discards the card, not the +1."""
    state = start(2, row=(ALLIES, PLES_8))
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    state.apply_action(BASE_CAMP)
    me = player(state, 0)
    assert me["advantages"] == [] and me["throw_bonus"] == 1


def test_allies_bonus_ends_with_the_adventure() -> None:
    state = start(2, row=(ALLIES, PLES_8))
    state.apply_action(TAKE[0])
    chance(state, PTERO_4)
    state = rebuild(state, lambda t: set_deck(t, []))
    end_adventure_now(state)
    assert player(state, 0)["throw_bonus"] == 0


def test_hound_revealing_allies_gives_no_bonus_nor_action() -> None:
    """"If it's an advantage, you will NOT benefit from its effect" (ruling 21)."""
    state = start(2, row=(HOUND, IGUA_7))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    state.apply_action(TAKE[0])
    chance(state, ALLIES)
    chance(state, PTERO_4)
    me = player(state, 0)
    assert me["throw_bonus"] == 0
    assert card_id(state, ALLIES) in me["advantages"]
    assert state.current_player() == 1  # no action gained, none could be bought


def test_hound_let_go_leaves_the_dinosaur_as_the_next_card() -> None:
    """Ruling 23: the Hound's capture is the taker's choice ("you can capture it"); a
    dinosaur let go was only revealed ("reveal the next card of the deck"), so it is the card
    that replaces the Hound in the row."""
    state = start(2, row=(HOUND, IGUA_7))
    state.apply_action(TAKE[0])
    chance(state, PLES_7)
    state.apply_action(HOUND_LET_GO)
    assert player(state, 0)["dinosaurs"] == []
    assert card_id(state, PLES_7) not in obs(state, 0)["discards"]
    assert row_names(state) == [PLES_7, IGUA_7]


def test_hound_with_an_empty_deck_ends_the_adventure() -> None:
    """Ruling 23: nothing to reveal, and the Hound cannot be replaced."""
    state = start(2, row=(HOUND, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, []))
    state.apply_action(TAKE[0])
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"][0][0] == -1  # the Hound's point


def test_ammunition_box_without_ammunition_does_nothing() -> None:
    """Ruling 22: with no ammunition there is nothing to decide."""
    state = start(2, row=(AMMO_BOX, IGUA_7))
    state.apply_action(TAKE[0])
    assert phase(state) != "ammunition-box"
    chance(state, PTERO_4)
    assert player(state, 0)["advantages"] == [card_id(state, AMMO_BOX)]


def test_ammunition_box_may_keep_the_ammunition() -> None:
    """"you can put back": 104 keeps them (ruling 22)."""
    state = start(2, row=(AMMO_BOX, IGUA_7))
    state = rebuild(
        state,
        lambda t: (t["players"][0].update(ammunition=2), t.update(center_ammunition=4)),
    )
    state.apply_action(TAKE[0])
    state.apply_action(BOX_KEEP)
    assert player(state, 0)["ammunition"] == 2
    assert obs(state)["center_ammunition"] == 4


def test_haven_of_peace_never_exceeds_six() -> None:
    state = start(2, row=(HAVEN, IGUA_7))
    state.apply_action(TAKE[0])
    assert player(state, 0)["exploration_tokens"] == 6


def test_base_camp_is_an_action_the_turn_goes_on() -> None:
    """"Go back to the base camp." is one of the actions (ruling 10: even at 6 tokens)."""
    state = start(2)
    assert BASE_CAMP in state.legal_actions()
    state.apply_action(BASE_CAMP)
    assert phase(state) == "turn-end"
    state.apply_action(TURN_END)
    assert state.current_player() == 1


def test_exhausted_by_a_capture_base_camp_loses_the_capture() -> None:
    """Exhausted by a success's damage, the explorer chooses at once; the base camp
    discards the dinosaur just captured."""
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=3))
    hunt(state, 1, 11)
    assert phase(state) == "exhausted"
    state.apply_action(BASE_CAMP)
    me = player(state, 0)
    assert me["dinosaurs"] == [] and me["exploration_tokens"] == 6
    assert card_id(state, MEGA_10) in obs(state, 0)["discards"]


def test_exhausted_explorer_abandons_and_keeps_the_capture() -> None:
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=3))
    hunt(state, 1, 11)
    state.apply_action(ABANDON)
    me = player(state, 0)
    assert me["abandoned"] and me["dinosaurs"] == [card_id(state, MEGA_10)]


def test_discard_lock_skips_an_abandoned_player() -> None:
    """Ruling 9: "the next one in the turn order" is the next one still in the adventure."""
    state = start(3)
    state = rebuild(state, lambda t: t["players"][1].update(abandoned=True))
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    state.apply_action(TURN_END)
    assert state.current_player() == 2
    assert DISCARD[0] not in state.legal_actions()


def test_discard_lock_holds_for_the_extra_action_too() -> None:
    """Ruling 9: the locked explorer may not discard in their whole next turn."""
    state = start(2)
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    state.apply_action(TURN_END)
    state.apply_action(BUY_ACTION)
    state.apply_action(BASE_CAMP)
    assert DISCARD[0] not in state.legal_actions()


def test_discarder_may_discard_again_with_an_extra_action() -> None:
    state = start(2)
    state.apply_action(DISCARD[0])
    chance(state, PTERO_4)
    state.apply_action(BUY_ACTION)
    assert DISCARD[0] in state.legal_actions()


def test_lone_species_counts_an_abandoned_players_dinosaurs() -> None:
    """Ruling 11: an abandoned explorer still holds their dinosaurs for the doubling."""
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, IGUA_5)
        give(table, 1, IGUA_6)
        table["players"][1]["abandoned"] = True

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == 2


def test_scores_may_be_negative() -> None:
    """Ammunition and advantages subtract points (ruling 24)."""
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, HAVEN, HOUND)
        table["players"][0]["ammunition"] = 2
        table["center_ammunition"] = 4

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == -4


def test_capturing_the_last_card_ends_the_adventure() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the
    adventure ends." """
    state = start(2, row=(PTERO_6, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, []))
    state.apply_action(BUY_ACTION)
    hunt(state, 0, 12)
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"][0] == [4, 0]


def test_failed_hunt_with_an_empty_deck_does_not_end_the_adventure() -> None:
    """A failed hunt takes no card (ruling 12)."""
    state = start(2, row=(PTERO_6, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, []))
    hunt(state, 0, 2)
    state.apply_action(STOP_HUNT)
    assert obs(state, 0)["adventure"] == 1
    assert state.current_player() == 1


def test_four_players_next_adventure_starts_with_the_seat_before() -> None:
    """"The player who goes last in the last adventure will go first in this one." """
    state = start(4, first=2)
    state = rebuild(state, lambda t: set_deck(t, []))
    end_adventure_now(state)
    chance(state, f"setup discard {PTERO_4}")
    chance(state, f"reveal {IGUA_5}")
    chance(state, f"reveal {IGUA_6}")
    assert obs(state)["first_player"] == 1
    assert state.current_player() == 1
    assert obs(state)["center_ammunition"] == 8


def test_simultaneous_second_trophies_tie_the_match() -> None:
    """Ruling 27: several reaching two trophies together tie on trophies."""
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, IGUA_5)
        give(table, 1, IGUA_6)
        for seat in (0, 1):
            table["players"][seat]["trophies"] = 1
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    assert state.is_terminal()
    assert state.scores() == [2, 2]


def test_no_action_is_legal_once_the_match_is_over() -> None:
    state = _second_trophy_won()
    assert state.legal_actions() == []
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_steal_not_offered_without_trail_tokens() -> None:
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    state = rebuild(state, lambda t: t["players"][0].update(trail_tokens=[]))
    assert not set(state.legal_actions()) & set(STEAL_WITH.values())


def test_steal_offers_only_the_tokens_held() -> None:
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    steal = set(state.legal_actions()) & set(STEAL_WITH.values())
    assert steal == {STEAL_WITH["megalosaurus"], STEAL_WITH["pterodactylus"]}


def test_stolen_dinosaur_scores_for_the_thief() -> None:
    """Ruling 32: a stolen dinosaur takes its new holder's trail bonus."""
    state = start(
        2, advanced=True,
        trails={0: ("plesiosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 1, PLES_7))
    state.apply_action(STEAL_WITH["pterodactylus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a) == "die 3"]
    state.apply_action(roll[0])
    state.apply_action(STEAL_PICK_FIRST + card_id(state, PLES_7))
    assert player(state, 0)["points"] == (3 + 2) * 2
    assert player(state, 1)["points"] == 0


def test_discarded_trail_token_gives_no_bonus() -> None:
    """"Each token you keep at the end of the adventure will give you extra points" """
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 0, PTERO_4))
    before = player(state, 0)["points"]
    state.apply_action(STEAL_WITH["pterodactylus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a) == "die 1"]
    state.apply_action(roll[0])
    assert before == (1 + 1) * 2
    assert player(state, 0)["points"] == 1 * 2


def test_with_everyone_else_abandoned_a_trail_token_is_discarded_for_nothing() -> None:
    """"In your turn you can, as an action, discard one of your trail tokens. If you do so, you
    can politely ask for a dinosaur" and "You can't steal from a player that has abandoned the
    adventure." Ruling 30 (changed in the sixth pass): with nobody to ask the discard is still
    offered; it spends the action, asks no one, and the token is gone."""
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: t["players"][1].update(abandoned=True))
    assert set(state.legal_actions()) & set(STEAL_WITH.values()) == {
        STEAL_WITH["megalosaurus"], STEAL_WITH["pterodactylus"]}
    state.apply_action(STEAL_WITH["megalosaurus"])
    table = obs(state, 0)
    assert table["phase"] == "turn-end" and table["steal_victim"] is None
    assert table["players"][0]["trail_tokens"] == ["pterodactylus"]
    assert table["actions_left"] == 0


def test_steal_counts_only_the_printed_value() -> None:
    """"count only the printed value": the owner's trail bonus and doubling do not raise a
    dinosaur out of reach."""
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "iguanodon")},
    )
    state = rebuild(state, lambda t: give(t, 1, IGUA_5))  # 2 printed, (2 + 1) * 2 scored
    state.apply_action(STEAL_WITH["megalosaurus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    roll = [a for a, _ in state.chance_outcomes() if state.action_to_string(a) == "die 2"]
    state.apply_action(roll[0])
    assert state.legal_actions() == [STEAL_PICK_FIRST + card_id(state, IGUA_5)]


def test_same_seed_same_match() -> None:
    """Chance is sampled by the driver: the same rng gives the same match."""
    from arena.game import drive

    def first_legal(state: State, seat: int) -> int:
        return state.legal_actions()[-1] if seat % 2 else state.legal_actions()[0]

    histories = []
    for _ in range(2):
        state = game().new_initial_state(3, {"advanced": True})
        histories.append(drive(state, first_legal, random.Random(7), max_actions=20000))
    assert histories[0] == histories[1]


def test_exhausted_by_a_failure_then_base_camp_still_passes_the_turn() -> None:
    """Ruling 19 with ruling 18: after a failed hunt the turn passes even if the explorer
    went back to the base camp with an action still due."""
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=5))
    state.apply_action(BUY_ACTION)  # 3 tokens left, failure costs 5
    hunt(state, 1, 2)
    state.apply_action(STOP_HUNT)
    assert phase(state) == "exhausted"
    state.apply_action(BASE_CAMP)
    assert state.current_player() == 1


def test_exhausted_by_a_success_then_base_camp_plays_the_action_left() -> None:
    """Ruling 19: the choice is not an action; an action still due is played."""
    state = start(2, row=(PTERO_6, MEGA_10))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=5))
    state.apply_action(BUY_ACTION)
    hunt(state, 1, 12)
    state.apply_action(BASE_CAMP)
    chance(state, PTERO_4)
    assert state.current_player() == 0
    assert phase(state) == "turn"


def test_hound_revealing_the_last_card_ends_the_adventure() -> None:
    """Ruling 23: "if it takes the deck's last card, the adventure ends too"."""
    state = start(2, row=(HOUND, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, [PLES_7]))
    state.apply_action(TAKE[0])
    chance(state, PLES_7)
    state.apply_action(HOUND_CAPTURE)
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"][0] == [3 * 2 - 1, 0]


def test_endless_base_camps_still_end_the_match() -> None:
    """Ruling 28: an adventure is scored as ended after 200 turns."""
    from arena.game import drive

    def base_camp(state: State, seat: int) -> int:
        legal = state.legal_actions()
        return BASE_CAMP if BASE_CAMP in legal else TURN_END if TURN_END in legal else legal[0]

    state = game().new_initial_state(2)
    drive(state, base_camp, random.Random(3), max_actions=100000)
    assert state.is_terminal()
    assert sorted(state.scores(), reverse=True)[0] >= 2


def _invariants(state: State, supply: int, cards: int) -> None:
    table = obs(state, 0)
    held = sum(p["ammunition"] for p in table["players"])
    assert held + table["center_ammunition"] == supply
    for p in table["players"]:
        assert 0 <= p["exploration_tokens"] <= 6
    places = list(table["deck"]) + list(table["discards"])
    places += [card["id"] for card in table["row"] if card is not None]
    for p in table["players"]:
        places += list(p["dinosaurs"]) + list(p["advantages"])
    if table["hound_card"] is not None:
        places.append(table["hound_card"])
    if table["hunt"] is None and table["phase"] not in ("first-player", "setup-discard"):
        assert sorted(places) == list(range(cards)), (table["phase"], sorted(places))
    assert table["deck_count"] == len(table["deck"])
    if table["phase"] == "turn":
        assert None not in table["row"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True])
def test_random_play_keeps_components_whole(players: int, advanced: bool) -> None:
    """Every card is somewhere exactly once, ammunition is neither made nor lost, tokens
    stay within 0..6, the row holds two cards whenever a turn is played."""
    rng = random.Random(players * 10 + advanced)
    for _ in range(5):
        state = game().new_initial_state(players, {"advanced": advanced})

        def checked(s: State, seat: int) -> int:
            _invariants(s, STARTING_AMMUNITION[players], 18)
            return rng.choice(s.legal_actions())

        from arena.game import drive

        drive(state, checked, rng, max_actions=100000)
        assert state.is_terminal()
        assert max(state.scores()) >= 2


def _card_file(tmp_path: Any, difficulty: int = 6) -> str:
    lines = []
    for index, species in enumerate(
        ("pterodactylus", "iguanodon", "plesiosaurus", "megalosaurus")
    ):
        lines += [
            "[[dinosaurs]]", f'name = "Test {species}"', f'species = "{species}"',
            f"difficulty = {difficulty}", f"points = {index + 1}",
            "damage_success = 1", "damage_failure = 2", "",
        ]
    for effect, name in (("haven-of-peace", "Haven"), ("allies", "Allies"),
                         ("ammunition-box", "Box"), ("hound", "Hound")):
        lines += ["[[advantages]]", f'name = "{name}"', f'effect = "{effect}"', ""]
    path = tmp_path / "cards.toml"
    path.write_text("\n".join(lines))
    return str(path)


def test_own_card_file_replaces_the_deck(tmp_path: Any) -> None:
    """README: ``options = { cards = "/path/to/it.toml" }`` replaces the shipped cards."""
    state = game().new_initial_state(2, {"cards": _card_file(tmp_path)})
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        ids, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(ids, weights)[0])
    table = obs(state)
    assert len(table["cards"]["name"]) == 8
    assert table["deck_count"] == table["deck_count_at_start"] == 8 - 3 - 2


def test_broken_card_file_is_refused(tmp_path: Any) -> None:
    """README: the file "is checked and a mistake is reported with the card and field at
    fault" (difficulty 2..12)."""
    with pytest.raises(InvalidOptions, match="difficulty"):
        game().new_initial_state(2, {"cards": _card_file(tmp_path, difficulty=13)})


@pytest.mark.parametrize(("players", "length"), [(2, 191), (3, 223), (4, 255)])
def test_observation_tensor_length_is_as_documented(players: int, length: int) -> None:
    """README: "191 for two players, 223 for three, 255 for four"."""
    state = start(players)
    assert len(state.observation_tensor(0)) == length


def test_observation_shows_the_whole_public_table_to_every_seat() -> None:
    """README: "A dict of the whole public table": every seat sees the same cards."""
    state = start(3)
    state = rebuild(state, lambda t: give(t, 2, PLES_7))
    seen = [state.observation(seat) for seat in range(3)]
    assert all(s["players"] == seen[0]["players"] for s in seen)
    assert all(s["row"] == seen[0]["row"] and s["deck"] == seen[0]["deck"] for s in seen)
    assert [s["seat"] for s in seen] == [0, 1, 2]


def test_hunting_and_discarding_cost_no_tokens() -> None:
    """Only damage and the extra action take exploration tokens."""
    state = start(2, row=(PTERO_4, IGUA_7))
    hunt(state, 0, 4)  # damage on success 0
    assert player(state, 0)["exploration_tokens"] == 6
    chance(state, PTERO_5)
    state.apply_action(TURN_END)
    state.apply_action(DISCARD[0])
    assert player(state, 1)["exploration_tokens"] == 6


# --- setting up positions: what state_from_observation accepts --------------------------------


def _edit(change: Callable[[dict[str, Any]], None]) -> None:
    rebuild(start(3, row=(PTERO_6, HAVEN)), change)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda t: t["players"][0]["dinosaurs"].append(t["row"][0]["id"]), "row"),
        (lambda t: t["deck"].append(t["deck"][0]), "deck"),
        (lambda t: t["deck"].pop(), "no place"),
        (lambda t: t["players"][1]["dinosaurs"].append(t["row"][1]["id"]), "dinosaurs"),
        (lambda t: t["players"][0].update(exploration_tokens=7), "exploration_tokens"),
        (lambda t: t["players"][0].update(exploration_tokens=-1), "exploration_tokens"),
        (lambda t: t.update(center_ammunition=3), "center_ammunition"),
        (lambda t: t["players"][2].update(ammunition=1), "center_ammunition"),
        (lambda t: t["players"][0].update(trail_tokens=["iguanodon"]), "basic game"),
        (lambda t: t["discards"].append(99), "card id"),
    ],
)
def test_a_position_no_game_can_hold_is_refused(
    change: Callable[[dict[str, Any]], None], fault: str
) -> None:
    """README, *Setting up a position*: an edited observation is checked; a card in two
    places or none, ammunition made or lost, tokens out of 0..6 are refused by name."""
    with pytest.raises(ValueError, match=fault):
        _edit(change)


def test_too_many_trail_tokens_of_a_species_are_refused() -> None:
    state = start(
        2, advanced=True,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    with pytest.raises(ValueError, match="megalosaurus"):
        rebuild(state, lambda t: t["players"][1].update(trail_tokens=["megalosaurus"]))


def test_derived_fields_are_recomputed_from_the_position() -> None:
    """README: ``points``, ``total_points`` and ``deck_count`` are worked out, not read."""
    state = start(2)

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PLES_7)
        table["players"][0]["points"] = 99
        table["deck_count"] = 0

    state = rebuild(state, setup)
    assert player(state, 0)["points"] == 3 * 2
    assert obs(state)["deck_count"] == len(obs(state)["deck"]) == 12


@pytest.mark.parametrize("players", [2, 4])
def test_every_observation_of_random_play_rebuilds(players: int) -> None:
    """The check refuses no position the game itself reaches."""
    from arena.game import drive

    rng = random.Random(players)
    for _ in range(3):
        state = game().new_initial_state(players, {"advanced": True})

        def rebuilt(s: State, seat: int) -> int:
            copy_ = game().state_from_observation(s.observation(seat), rng)
            assert copy_.legal_actions() == s.legal_actions()
            return rng.choice(s.legal_actions())

        drive(state, rebuilt, rng, max_actions=100000)


def test_a_card_id_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(ValueError, match="not a card id"):
        _edit(lambda t: t["deck"].append("3"))


# --- second pass (h-rules-explorers2): rules and README claims not yet checked ---------------


def test_a_row_slot_may_be_set_by_card_id() -> None:
    """README, *Setting up a position*: "Move a card by taking its id out of one place
    (`deck`, `row`, ...) and putting it in another". A bare id put in a row slot is that
    card (it used to fail with a TypeError); the card's dict works as before."""
    state = start(2, row=(PTERO_6, IGUA_7))

    def setup(table: dict[str, Any]) -> None:
        table["deck"].remove(card_id(state, HOUND))
        table["deck"].append(table["row"][0]["id"])
        table["row"][0] = card_id(state, HOUND)

    state = rebuild(state, setup)
    assert row_names(state) == [HOUND, IGUA_7]
    assert obs(state)["row"][0]["type"] == "advantage"
    assert state.action_to_string(TAKE[0]) == f"take row[0] {HOUND} (advantage)"


def test_a_row_slot_whose_name_and_id_disagree_is_refused() -> None:
    """An edited row card is read by its `id`; one whose `name` names another card is a
    mistake and is refused by name, not silently taken as the id's card."""
    state = start(2, row=(PTERO_6, IGUA_7))
    with pytest.raises(ValueError, match=r"row\[1\]"):
        rebuild(state, lambda t: t["row"][1].update(name=MEGA_10))
    with pytest.raises(ValueError, match=r"row\[0\]"):
        rebuild(state, lambda t: t["row"].__setitem__(0, "Hound"))


def test_an_unknown_phase_is_refused_by_name() -> None:
    state = start(2)
    with pytest.raises(ValueError, match="phase"):
        rebuild(state, lambda t: t.update(phase="hunting"))


def test_the_adventure_ends_mid_round_and_later_seats_get_no_turn() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the
    adventure ends." It ends at once, in the middle of the round: with four players and
    seat 1 first, seat 2's capture of a card that cannot be replaced ends it before seats 3
    and 0 play; "The player who goes last in the last adventure will go first in this
    one": seat 0 (turn order 1, 2, 3, 0)."""
    state = start(4, first=1, row=(PTERO_4, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, [PLES_7]))
    state.apply_action(DISCARD[1])  # seat 1: the deck's last card replaces it
    assert row_names(state)[1] is None
    chance(state, f"reveal {PLES_7}")
    state.apply_action(TURN_END)  # seat 1 buys no extra action
    assert state.current_player() == 2 and obs(state)["deck_count"] == 0
    hunt(state, 0, 4)  # seat 2 captures Pterodactylus antiquus: no card replaces it
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"] == [[0, 0, 2, 0]]
    assert table["trophy_history"] == [[2]]
    assert state.current_player() == CHANCE
    chance(state, f"setup discard {PTERO_5}")
    chance(state, f"reveal {IGUA_5}")
    chance(state, f"reveal {IGUA_6}")
    assert obs(state)["first_player"] == 0
    assert state.current_player() == 0


def test_allies_taken_as_the_last_card_end_the_adventure_and_their_action_is_lost() -> None:
    """"When a card is taken and can't be replaced (because the deck is empty), the
    adventure ends." Taking the Allies is taking a card: the action it gives comes too late
    (ruling 14), and the card costs its point ("Each advantage card you have at the end of
    the adventure subtracts 1 point")."""
    state = start(3, first=0, row=(ALLIES, IGUA_7))

    def setup(table: dict[str, Any]) -> None:
        give(table, 0, PTERO_4)
        set_deck(table, [])

    state = rebuild(state, setup)
    state.apply_action(TAKE[0])
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"] == [[2 - 1, 0, 0]]
    assert table["trophy_history"] == [[0]]
    assert state.current_player() == CHANCE


def test_a_second_trophy_ends_the_match_mid_round() -> None:
    """"The first player to have two trophies is the absolute winner of the game." The
    adventure that gives it ends at once (the last card leaves the row) and no further turn
    or adventure is played: the match is over, with the winner first."""
    state = start(3, first=0, row=(PTERO_4, IGUA_7))

    def setup(table: dict[str, Any]) -> None:
        table["players"][1]["trophies"] = 1
        table["players"][2]["trophies"] = 1
        give(table, 1, IGUA_5)
        set_deck(table, [])

    state = rebuild(state, setup)
    hunt(state, 0, 4)  # seat 0 captures a 1-point dinosaur; seat 1 keeps the lead
    assert state.is_terminal()
    assert state.scores() == [0, 2, 1]
    assert state.ranking()[1] == 0
    assert state.legal_actions() == []


def test_four_player_ranking_below_the_winner() -> None:
    """"The first player to have two trophies is the absolute winner of the game." Below
    the winner the rulebook names no order; README: `ranking()` orders the others by
    trophies, then total adventure points over the match, then exploration tokens at the end
    of the last adventure, equal places if still tied."""
    state = start(4, first=0)

    def setup(table: dict[str, Any]) -> None:
        for seat, trophies in enumerate((1, 1, 0, 0)):
            table["players"][seat]["trophies"] = trophies
        table["history"] = [[5, 3, 0, 0], [0, 0, 4, 4]]
        table["trophy_history"] = [[0], [1]]
        give(table, 0, MEGA_9)  # seat 0 wins this adventure: its second trophy
        give(table, 3, PTERO_4)  # seat 3: 2 points now, 6 over the match, seat 2: 4
        table["players"][2]["exploration_tokens"] = 5
        set_deck(table, [])

    state = rebuild(state, setup)
    assert [p["total_points"] for p in obs(state)["players"]] == [5, 3, 4, 4]
    end_adventure_now(state)
    assert state.is_terminal()
    assert obs(state, 0)["history"][-1] == [10, 0, 0, 2]
    assert state.scores() == [2, 1, 0, 0]
    assert state.ranking() == [0, 1, 3, 2]


def test_four_player_ranking_ties_on_points_go_to_tokens_then_share() -> None:
    """README: below the winner, equal trophies and points go to the exploration tokens at
    the end of the last adventure; still equal, the place is shared."""
    state = start(4, first=0)

    def setup(table: dict[str, Any]) -> None:
        table["players"][0]["trophies"] = 1
        give(table, 0, MEGA_9)
        for seat, tokens in ((1, 4), (2, 5), (3, 5)):
            table["players"][seat]["exploration_tokens"] = tokens
        set_deck(table, [])

    state = rebuild(state, setup)
    end_adventure_now(state)
    assert state.is_terminal()
    assert state.ranking() == [0, 3, 1, 1]


def test_stealing_from_an_explorer_back_from_the_base_camp_gets_nothing() -> None:
    """"he must discard both his advantages and his captured dinosaurs" and "If the chosen
    player doesn't have any dinosaur with that value (or less), you get nothing." The
    trail token stays discarded ("if you discard one, there is no way to recover it")."""
    state = start(
        2, advanced=True, first=1,
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    state = rebuild(state, lambda t: give(t, 1, PTERO_4, IGUA_5))
    state.apply_action(BASE_CAMP)  # seat 1 discards both dinosaurs
    if phase(state) == "turn-end":
        state.apply_action(TURN_END)
    assert state.current_player() == 0
    assert player(state, 1)["dinosaurs"] == []
    state.apply_action(STEAL_WITH["pterodactylus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    chance(state, "die 6")
    assert player(state, 0)["dinosaurs"] == []
    assert player(state, 0)["trail_tokens"] == ["megalosaurus"]
    assert phase(state) == "turn-end"  # the steal was the turn's action


def test_a_steal_can_break_the_victims_lone_species_doubling() -> None:
    """"If a player is the only one that has a certain dinosaur species, then all the
    members of that species will score double." A stolen dinosaur changes who holds a
    species: the victim, alone with two pterodactylus (doubled), shares them after a steal,
    and neither player's pterodactylus are doubled any more."""
    state = start(
        2, advanced=True,
        trails={0: ("iguanodon", "iguanodon"), 1: ("iguanodon", "plesiosaurus")},
    )

    def setup(table: dict[str, Any]) -> None:
        give(table, 1, PTERO_5B, PTERO_7)

    state = rebuild(state, setup)
    assert player(state, 1)["points"] == (2 + 3) * 2
    state.apply_action(STEAL_WITH["iguanodon"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    chance(state, "die 3")
    assert sorted(state.legal_actions()) == sorted(
        STEAL_PICK_FIRST + card_id(state, name) for name in (PTERO_5B, PTERO_7))
    state.apply_action(STEAL_PICK_FIRST + card_id(state, PTERO_5B))
    assert player(state, 0)["points"] == 2  # shared species, no trail bonus for it
    assert player(state, 1)["points"] == 3
    assert player(state, 0)["trail_tokens"] == ["iguanodon"]


def test_the_hound_as_the_last_card_reveals_nothing_and_costs_its_point() -> None:
    """"Hound: If you take the hound, reveal the next card of the deck." With the deck
    empty there is nothing to reveal, and the Hound "can't be replaced": the adventure ends
    with the Hound's -1 ("Each advantage card you have at the end ... subtracts 1 point")."""
    state = start(2, first=0, row=(HOUND, IGUA_7))
    state = rebuild(state, lambda t: set_deck(t, []))
    state.apply_action(TAKE[0])
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["history"] == [[-1, 0]]
    assert table["trophy_history"] == [[1]]


def test_abandoning_players_keep_their_turn_order_and_the_last_one_plays_alone() -> None:
    """"He will be ignored for the rest of the adventure": with four players, seats 1 and
    2 abandon; turns go 3, 0, 3, 0 ... and once seat 3 abandons too, seat 0 plays every
    turn; "The adventure also ends if all the players have abandoned it"."""
    state = start(4, first=1)
    state.apply_action(ABANDON)
    assert state.current_player() == 2
    state.apply_action(ABANDON)
    assert state.current_player() == 3
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 0
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 3
    state.apply_action(ABANDON)
    assert state.current_player() == 0
    state.apply_action(BASE_CAMP)
    state.apply_action(TURN_END)
    assert state.current_player() == 0
    assert obs(state)["adventure"] == 1
    state.apply_action(ABANDON)
    table = obs(state, 0)
    assert table["adventure"] == 2
    assert table["trophy_history"] == [[0, 1, 2, 3]]  # 0 points and 6 tokens each


def test_the_allies_bonus_is_for_hunt_throws_only_not_the_steal_die() -> None:
    """"Allies: ... you will gain +1 in all your future hunt throws" and, to steal, "throw a
    die. The result will be the maximum point value that dinosaur has to have": the steal's
    die is no hunt throw, so a thief with the Allies' +1 who throws a 2 cannot take a
    3-point dinosaur."""
    state = start(
        2, advanced=True, row=(ALLIES, IGUA_7),
        trails={0: ("megalosaurus", "pterodactylus"), 1: ("iguanodon", "plesiosaurus")},
    )
    state = rebuild(state, lambda t: give(t, 1, PTERO_7))
    state.apply_action(TAKE[0])  # the Allies: +1 to hunt throws and one more action
    chance(state, f"reveal {IGUA_5}")
    assert player(state, 0)["throw_bonus"] == 1
    state.apply_action(STEAL_WITH["megalosaurus"])
    state.apply_action(ASK_SEAT_FIRST + 1)
    chance(state, "die 2")
    assert player(state, 0)["dinosaurs"] == []
    assert player(state, 1)["dinosaurs"] == [card_id(state, PTERO_7)]


def test_a_hunt_of_no_dinosaur_in_the_row_is_refused() -> None:
    """README, *Setting up a position*: a position no game can hold is refused with a
    `ValueError` naming the field. A hunt is of a dinosaur in the row ("Choose one of the
    two cards ... If it's a dinosaur, you will try to "hunt" it"); an edited `hunt` on an
    advantage or an empty slot used to be rebuilt and to capture nonsense."""
    state = start(2, row=(HOUND, IGUA_7))

    def hunting(slot: Any) -> Callable[[dict[str, Any]], None]:
        def change(table: dict[str, Any]) -> None:
            table["phase"] = "hunt-reroll"
            table["hunt"] = {"slot": slot, "rolls": 1, "ammunition_used": 0, "last_roll": 2}
        return change

    with pytest.raises(ValueError, match=r"hunt\.slot"):
        rebuild(state, hunting(0))
    with pytest.raises(ValueError, match=r"hunt\.slot"):
        rebuild(state, hunting(2))
    rebuilt = rebuild(state, hunting(1))
    assert rebuilt.legal_actions() == [REROLL, STOP_HUNT]
    assert obs(rebuilt)["hunt"]["card"] == card_id(state, IGUA_7)


def test_an_advantage_as_the_hounds_revealed_dinosaur_is_refused() -> None:
    """"If it's a dinosaur, you can capture it ... If it's an advantage, you will NOT benefit
    from its effect": only a dinosaur waits for the taker's decision in `hound_card`."""
    state = start(2, row=(PTERO_6, IGUA_7))

    def reveal(table: dict[str, Any]) -> None:
        table["deck"].remove(card_id(state, ALLIES))
        table["hound_card"] = card_id(state, ALLIES)
        table["phase"] = "hound-capture"

    with pytest.raises(ValueError, match="hound_card"):
        rebuild(state, reveal)
