"""Third rulebook pass over Explorers of the Lost Valley: black-box scenarios and a checker.

Written from the rulebook (``rules/explorers-of-the-lost-valley.txt``), the engine's README
(action ids, observation, setting up a position) and RULINGS.md only, through the public API:
``Game.new_initial_state``, chance outcomes picked by their ``action_to_string``, the
documented action ids, ``observation`` and ``Game.state_from_observation``. Nothing here
imports the engine's modules. Each test quotes the rule it checks.

The second half is an independent referee of the turn (which actions are legal in each
phase, what each chance node may bring, whose turn comes next with which lock-outs, what a
hunt throw and each decision must do to the table), written from the same sources without
reading the engine's code, and compared with the engine over a few hundred seeded matches.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from arena.game import CHANCE, Game, State
from arena.plugins import require_registry

GAME = "explorers-of-the-lost-valley"

# Action ids, from the README's table.
TAKE, DISCARD = (0, 1), (2, 3)
BASE_CAMP, ABANDON, BUY_ACTION, REROLL, STOP_HUNT = 4, 5, 6, 7, 8
STEAL_FIRST, STEAL_PICK_FIRST, DRAW_FIRST, ROLL_BASE, DIE_BASE = 9, 13, 45, 75, 87
FIRST_PLAYER_FIRST, DEAL_FIRST = 94, 98
END_TURN, BOX_PUT_BACK, BOX_KEEP, HOUND_CAPTURE, HOUND_LET_GO, ASK_FIRST = (
    102, 103, 104, 105, 106, 107)
SPECIES = ("pterodactylus", "iguanodon", "plesiosaurus", "megalosaurus")
TRAIL_TOKENS = (4, 3, 2, 1)
MAIN_ACTIONS = {0, 1, 2, 3, BASE_CAMP, ABANDON, 9, 10, 11, 12}
"""The actions a turn's action is spent on ("one of the following actions", the steal)."""

# Names from dinosaurs.toml (the shipped card file), with difficulty, points, damage.
PTERO_4 = "Pterodactylus antiquus"  # 4, 1 point, 0/1
PTERO_5 = "Pterodactylus kochi"  # 5, 1 point, 0/1
IGUA_5 = "Iguanodon mantelli"  # 5, 2 points, 1/2
IGUA_6 = "Iguanodon bernissartensis"  # 6, 2 points, 1/2
IGUA_7 = "Iguanodon atherfieldensis"  # 7, 3 points, 1/3
IGUA_8 = "Iguanodon galvensis"  # 8, 4 points, 2/3
PLES_9 = "Plesiosaurus brachypterygius"  # 9, 5 points, 3/4
MEGA_9 = "Megalosaurus bucklandii"  # 9, 5 points, 3/4
MEGA_10 = "Megalosaurus hesperis"  # 10, 6 points, 3/5
HAVEN, AMMO_BOX, HOUND = "Haven of Peace", "Ammunition Box", "Hound"
SETUP_DISCARDS = {2: 3, 3: 2, 4: 1}


# --- helpers: only the public API ----------------------------------------------------------


def game() -> Game:
    return require_registry().game(GAME)


def chance(state: State, text: str) -> None:
    """Apply the one chance outcome whose ``action_to_string`` holds ``text`` as words."""
    assert state.current_player() == CHANCE
    found = [action for action, _ in state.chance_outcomes()
             if f" {text} " in f" {state.action_to_string(action)} "]
    assert len(found) == 1, (text, [state.action_to_string(a) for a, _ in
                                    state.chance_outcomes()])
    state.apply_action(found[0])


def table_of(state: State) -> dict[str, Any]:
    return state.observation(0)


def cid(state: State, name: str) -> int:
    return int(table_of(state)["cards"]["name"].index(name))


def start(players: int = 2, *, first: int = 0, row: tuple[str, str] = (IGUA_7, IGUA_8),
          advanced: bool = False, trails: dict[int, tuple[str, str]] | None = None) -> State:
    """A new match at its first decision, every chance node of the setup named."""
    state = game().new_initial_state(players, {"advanced": advanced})
    chance(state, f"seat {first} goes first")
    for seat, species_pair in (trails or {}).items():
        for species in species_pair:
            chance(state, f"deal a {species} trail token to seat {seat}")
    discards = [name for name in (MEGA_10, PLES_9, MEGA_9) if name not in row]
    for name in discards[: SETUP_DISCARDS[players]]:
        chance(state, f"setup discard {name}")
    for name in row:
        chance(state, f"reveal {name}")
    assert state.current_player() == first
    return state


def rebuild(state: State, change: Callable[[dict[str, Any]], None]) -> State:
    """``state`` with ``change`` made to the on-move seat's observation, rebuilt through
    ``Game.state_from_observation`` as the README says (``cards`` kept as it is)."""
    seen = state.observation(state.current_player())
    edited = copy.deepcopy({key: value for key, value in seen.items() if key != "cards"})
    edited["cards"] = seen["cards"]
    change(edited)
    return game().state_from_observation(edited, random.Random(0))


def take_out(table: dict[str, Any], card: int) -> None:
    """In an observation being edited: take ``card`` out of wherever it is."""
    for place in (table["deck"], table["discards"]):
        if card in place:
            place.remove(card)
    for slot, entry in enumerate(table["row"]):
        if entry is not None and (entry["id"] if isinstance(entry, dict) else entry) == card:
            table["row"][slot] = None
    for p in table["players"]:
        for key in ("dinosaurs", "advantages"):
            if card in p[key]:
                p[key].remove(card)


def give(table: dict[str, Any], seat: int, *names: str) -> None:
    """In an observation being edited: move the named cards to ``seat``'s hand."""
    for name in names:
        card = table["cards"]["name"].index(name)
        take_out(table, card)
        kind = "dinosaurs" if table["cards"]["kind"][card] == "dinosaur" else "advantages"
        table["players"][seat][kind].append(card)


def keep_in_deck(table: dict[str, Any], names: Iterable[str]) -> None:
    """In an observation being edited: only ``names`` stay in the deck, the rest discarded."""
    keep = {table["cards"]["name"].index(name) for name in names}
    table["discards"] += [card for card in table["deck"] if card not in keep]
    table["deck"] = [card for card in table["deck"] if card in keep]


# --- components ------------------------------------------------------------------------------


def test_the_cards_are_fourteen_dinosaurs_of_four_species_and_the_four_advantages() -> None:
    """"14 dinosaur cards. 4 advantage cards." The species are the four of the trail tokens
    (GAME-DATA.md: 5/4/3/2 cards, as the shipped file has them), the advantages are the four
    the rulebook names, and its example card, "this Iguanodon bernissartensis", is an
    iguanodon; every card is described in the observation for every seat."""
    cards = table_of(start(2))["cards"]
    kinds = cards["kind"]
    assert len(kinds) == 18 and kinds.count("dinosaur") == 14
    assert sorted(kind for kind in kinds if kind != "dinosaur") == [
        "allies", "ammunition-box", "haven-of-peace", "hound"]
    species = [cards["species"][card] for card in range(18) if kinds[card] == "dinosaur"]
    assert [species.count(name) for name in SPECIES] == [5, 4, 3, 2]
    example = cards["name"].index(IGUA_6)
    assert cards["species"][example] == "iguanodon"
    for card in range(18):
        if kinds[card] == "dinosaur":  # "damage ... after a successful hunt" <= after a failed
            assert 0 <= cards["damage_success"][card] <= cards["damage_failure"][card]
            assert 2 <= cards["difficulty"][card] <= 12


def test_four_players_tying_twice_take_eight_of_the_five_trophy_tokens() -> None:
    """"5 trophy tokens" and "(if the tie persists, all the tied players win a trophy
    token)": four explorers tied in two adventures take eight trophies (ruling 3: the
    supply is not limited), and all four, reaching two together, win."""
    state = start(4)

    def position(table: dict[str, Any]) -> None:
        keep_in_deck(table, [])
        for p in table["players"]:
            p["trophies"] = 1
        table["adventure"], table["history"] = 2, [[0, 0, 0, 0]]
        table["trophy_history"] = [[0, 1, 2, 3]]

    state = rebuild(state, position)
    state.apply_action(DISCARD[0])  # 0 points and 6 tokens each: a tie that persists
    assert state.is_terminal()
    assert table_of(state)["trophy_history"] == [[0, 1, 2, 3], [0, 1, 2, 3]]
    assert state.scores() == [2.0, 2.0, 2.0, 2.0]
    assert state.ranking() == [0, 0, 0, 0]


def test_the_observation_tensor_tells_which_trail_tokens_a_seat_holds() -> None:
    """"These tokens have to be faced up in front of the players": which species each
    trail token is, is public and decides the bonus ("If you have a plesiosaurus trail
    token, each plesiosaurus you captured will give you +2 points") and which steal ids are
    legal. The observation tensor (README: "each seat's ... trail tokens") held only how
    many tokens a seat had, so two tables differing in their species gave one vector."""
    tensors = []
    for pair in (("iguanodon", "plesiosaurus"), ("pterodactylus", "megalosaurus")):
        state = start(2, advanced=True, trails={0: pair, 1: ("iguanodon", "pterodactylus")})
        tensors.append(state.observation_tensor(0))
    assert len(tensors[0]) == len(tensors[1]) == 191
    assert tensors[0] != tensors[1]


# --- setting up a position ---------------------------------------------------------------------


@pytest.mark.parametrize(("field", "value"), [
    ("turn", 0), ("turn", 201), ("adventure", 0), ("actions_left", 0), ("actions_left", 4),
    ("first_player", 3), ("current_player", 1)])
def test_a_position_outside_any_turn_is_refused_by_name(field: str, value: int) -> None:
    """README, *Setting up a position*: "a position no game can hold is refused with a
    ``ValueError`` naming the field at fault". A seat is on move only within a turn of an
    adventure ("In their turn, each player can take one of the following actions"), so
    ``turn`` is 1 or more, the seat on move is one still in the adventure ("He will be
    ignored for the rest of the adventure": seat 1 abandoned here) and phase ``turn`` has an
    action to take. These used to be taken as given: with ``turn`` 0 the next refill of the
    row started the adventure's turns over (here seat 2 discarded and, after the refill,
    seat 1, the first player, was on move, seat 2's turn-end and the discard lock-out it
    passes on lost); with ``actions_left`` 0 in phase ``turn`` each action left -1, -2, ...
    and the turn never passed."""
    state = start(3, first=1)
    state.apply_action(ABANDON)
    assert (state.current_player(), table_of(state)["turn"]) == (2, 2)
    with pytest.raises(ValueError, match=field):
        rebuild(state, lambda table: table.update({field: value}))
    same = rebuild(state, lambda table: None)
    same.apply_action(DISCARD[0])
    chance(same, f"reveal {PTERO_4}")
    assert (same.current_player(), table_of(same)["phase"]) == (2, "turn-end")
    same.apply_action(END_TURN)
    assert (same.current_player(), table_of(same)["discard_locked"]) == (0, True)


@pytest.mark.parametrize(("phase", "empty_slots", "refused"), [
    ("turn", [0], True), ("turn-end", [1], True), ("hunt-reroll", [0], True),
    ("hound-capture", [0, 1], True), ("hound-capture", [0], False)])
def test_an_empty_row_slot_only_while_its_cards_decision_is_taken(
        phase: str, empty_slots: list[int], refused: bool) -> None:
    """"At the right side of the deck, there has to be ALWAYS two cards faced up. That
    means that, after taking or discarding a card, you have to replace it": a slot is empty
    only while the decision the card that left it brought is taken (the Hound's here), never
    in a turn. A row with an empty slot in phase ``turn`` used to be taken as given, and
    taking that slot then took "card -1" as if it were the Hound: -1 was put among the
    player's advantages and the Hound's reveal followed."""
    state = start(2, row=(IGUA_7, IGUA_8))

    def position(table: dict[str, Any]) -> None:
        give(table, 0, HOUND)
        for slot in empty_slots:
            table["discards"].append(table["row"][slot]["id"])
            table["row"][slot] = None
        table["phase"], table["actions_left"] = phase, 0 if phase != "turn" else 1
        if phase == "hound-capture":
            table["hound_card"] = table["cards"]["name"].index(PTERO_5)
            table["deck"].remove(table["hound_card"])
        if phase == "hunt-reroll":
            table["hunt"] = {"slot": 1, "rolls": 1, "ammunition_used": 0, "last_roll": 2}

    if refused:
        with pytest.raises(ValueError, match="row"):
            rebuild(state, position)
        return
    state = rebuild(state, position)
    state.apply_action(HOUND_LET_GO)  # "it replaces the Hound in the row" (ruling 23)
    assert [entry["name"] for entry in table_of(state)["row"]] == [PTERO_5, IGUA_8]


def _hunting(table: dict[str, Any], **hunt: int) -> None:
    table["phase"], table["actions_left"] = "hunt-reroll", 0
    table["hunt"] = {"slot": 0, "rolls": 1, "ammunition_used": 0, "last_roll": 2, **hunt}


def _asking(table: dict[str, Any], victim: int, roll: int) -> None:
    give(table, 1, MEGA_10)  # 6 printed points
    table["players"][0]["trail_tokens"] = ["iguanodon"]
    table.update(phase="steal-pick", steal_victim=victim, steal_roll=roll, actions_left=0,
                 next_steal_locked=True)


BAD_DECISIONS: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "a hunt in a turn": ("hunt", lambda t: t.update(
        hunt={"slot": 0, "rolls": 1, "ammunition_used": 0, "last_roll": 2})),
    "a re-roll with the centre empty": ("ammunition", lambda t: (
        _hunting(t), t.update(center_ammunition=0), t["players"][1].update(ammunition=6))),
    "a third ammunition token": ("ammunition", lambda t: (
        _hunting(t, ammunition_used=2), t.update(center_ammunition=4),
        t["players"][0].update(ammunition=2))),
    "the Hound's dinosaur in a turn": ("hound_card", lambda t: (
        take_out(t, t["cards"]["name"].index(PTERO_5)),
        t.update(hound_card=t["cards"]["name"].index(PTERO_5)))),
    "exhausted with tokens": ("exploration_tokens", lambda t: t.update(
        phase="exhausted", actions_left=0)),
    "turn-end with 2 tokens": ("turn-end", lambda t: (
        t.update(phase="turn-end", actions_left=0),
        t["players"][0].update(exploration_tokens=2))),
    "turn-end after buying": ("turn-end", lambda t: t.update(
        phase="turn-end", actions_left=0, extra_action_bought=True)),
    "steal-pick, nothing low enough": ("steal_roll", lambda t: _asking(t, 1, 5)),
    "steal-pick from oneself": ("steal_victim", lambda t: _asking(t, 0, 6)),
    "steal_victim outside a steal": ("steal_victim", lambda t: t.update(steal_victim=1)),
}


@pytest.mark.parametrize("case", sorted(BAD_DECISIONS))
def test_a_decision_the_rules_cannot_ask_is_refused_by_name(case: str) -> None:
    """A position is refused unless the rules could ask its decision: a re-roll "taking an
    ammunition token from the center" needs one there ("you won't be able to take an
    ammunition token if there's not one left") and "up to two ... per dinosaur"; the
    exhausted have "no exploration tokens left"; the extra action at ``turn-end`` needs "at
    least, 3 exploration tokens" and "only ... one extra action per turn"; a steal takes "a
    dinosaur with that value (or less)" of "the chosen player", another explorer. These were
    taken as given: a ``steal-pick`` with nothing low enough was a decision with no legal
    action (and the match not over), a ``turn-end`` with 2 tokens bought an action that
    left the explorer playing on with 0 tokens."""
    field, change = BAD_DECISIONS[case]
    state = start(2, row=(IGUA_7, IGUA_8), advanced=True,
                  trails={0: ("iguanodon", "pterodactylus"), 1: ("iguanodon", "pterodactylus")})
    with pytest.raises(ValueError, match=field):
        rebuild(state, change)


def test_the_decisions_a_rule_test_sets_up_are_accepted() -> None:
    """The same positions made right are accepted and play on as the rules say."""
    state = start(2, row=(IGUA_7, IGUA_8), advanced=True,
                  trails={0: ("iguanodon", "pterodactylus"), 1: ("iguanodon", "pterodactylus")})
    steal = rebuild(state, lambda t: _asking(t, 1, 6))
    assert steal.legal_actions() == [STEAL_PICK_FIRST + cid(steal, MEGA_10)]
    reroll = rebuild(state, _hunting)
    assert reroll.legal_actions() == [REROLL, STOP_HUNT]
    reroll.apply_action(REROLL)
    chance(reroll, "roll 7")  # Iguanodon atherfieldensis, difficulty 7: captured
    assert cid(reroll, IGUA_7) in table_of(reroll)["players"][0]["dinosaurs"]


# --- the hunt as the observation shows it ----------------------------------------------------


def test_a_new_hunt_shows_no_throw_before_its_first() -> None:
    """"In order to hunt a dinosaur, you must take your chances and throw the dice": until
    the first throw of a hunt there is no throw to show. The observation's ``hunt`` used to
    carry the previous hunt's last throw (here a 3) into the next hunt (``rolls`` 0)."""
    state = start(2, row=(IGUA_7, IGUA_8))
    state.apply_action(TAKE[0])
    chance(state, "roll 3")  # fails: 3 < 7
    state.apply_action(STOP_HUNT)  # the turn passes to seat 1
    assert state.current_player() == 1
    state.apply_action(TAKE[1])
    hunt = table_of(state)["hunt"]
    assert (hunt["card"], hunt["rolls"], hunt["last_roll"]) == (cid(state, IGUA_8), 0, None)
    assert "(last" not in state.render()  # nor does the terminal view
    chance(state, "roll 5")
    hunt = state.observation(1)["hunt"]
    assert (hunt["rolls"], hunt["last_roll"]) == (1, 5)


# --- what the table shows between adventures -------------------------------------------------


TURN_FLAGS = ("actions_left", "extra_action_bought", "discard_locked", "steal_locked",
              "next_discard_locked", "next_steal_locked", "turn_passes")


@pytest.mark.parametrize("last_move", ["discard", "steal"])
def test_no_turn_shows_between_adventures(last_move: str) -> None:
    """"Shuffle all the cards together and start a new adventure from the very beginning":
    while the new adventure is set up (its chance nodes, where the README says a finished
    adventure is read) no turn is under way, so the table shows none, as at the start of the
    match: no action due, none bought, no lock-out passed on. It used to show the last
    turn's: a bought action and the lock-out of the discard (or steal) that came last."""
    fresh = table_of(game().new_initial_state(2, {"advanced": True}))
    state = start(2, row=(IGUA_7, IGUA_8), advanced=True,
                  trails={0: ("iguanodon", "plesiosaurus"), 1: ("pterodactylus", "iguanodon")})
    state = rebuild(state, lambda table: keep_in_deck(table, []))
    state.apply_action(BUY_ACTION)
    if last_move == "steal":
        state.apply_action(STEAL_FIRST + SPECIES.index("iguanodon"))
        state.apply_action(ASK_FIRST + 1)
        chance(state, "die 6")  # seat 1 has no dinosaur: nothing
        assert table_of(state)["next_steal_locked"]
    state.apply_action(DISCARD[0])  # the deck is empty: the adventure ends
    between = table_of(state)
    assert (between["phase"], between["adventure"]) == ("setup-discard", 2)
    assert {key: between[key] for key in TURN_FLAGS} == {key: fresh[key] for key in TURN_FLAGS}
    assert not any(between[key] for key in TURN_FLAGS)
    for name in (MEGA_10, PLES_9, MEGA_9):
        chance(state, f"setup discard {name}")
    chance(state, f"reveal {IGUA_7}")
    chance(state, f"reveal {IGUA_8}")
    first = table_of(state)
    assert (first["current_player"], first["actions_left"]) == (1, 1)
    assert not first["discard_locked"] and not first["steal_locked"]


def test_no_turn_shows_once_the_match_is_over() -> None:
    """"The first player to have two trophies is the absolute winner of the game": the match
    is over and no turn is under way, whatever the last one held."""
    state = start(2)

    def position(table: dict[str, Any]) -> None:
        keep_in_deck(table, [])
        give(table, 0, PTERO_4)
        table["players"][0]["trophies"] = 1

    state = rebuild(state, position)
    state.apply_action(BUY_ACTION)
    state.apply_action(DISCARD[0])  # the adventure ends; seat 0 takes a second trophy
    assert state.is_terminal()
    over = table_of(state)
    assert over["phase"] == "over"
    assert not any(over[key] for key in TURN_FLAGS)


# --- order of resolution at the end of an adventure --------------------------------------------


def test_haven_of_peace_taken_as_the_last_card_counts_in_the_trophy_tie_break() -> None:
    """"Haven of Peace: ... take up to 6 exploration tokens" and "When a card is taken and
    can't be replaced (because the deck is empty), the adventure ends": the card's effect is
    part of taking it (ruling 14), so the tokens it gives are held when the adventure ends
    and break a tie on points ("only the player with more exploration tokens takes the
    trophy")."""
    state = start(2, row=(HAVEN, IGUA_8))

    def position(table: dict[str, Any]) -> None:
        give(table, 0, IGUA_5)  # 2, alone with iguanodons: 4
        give(table, 1, PTERO_4, PTERO_5, AMMO_BOX)  # 1 + 1, alone: 4, less 1: 3
        keep_in_deck(table, [])
        table["players"][0]["exploration_tokens"] = 1
        table["players"][1]["exploration_tokens"] = 4

    state = rebuild(state, position)
    assert [p["points"] for p in table_of(state)["players"]] == [4, 3]
    state.apply_action(TAKE[0])  # the Haven, last card: 3 points each, 6 tokens against 4
    table = table_of(state)
    assert table["adventure"] == 2
    assert table["history"] == [[3, 3]]
    assert table["trophy_history"] == [[0]]
    assert table["players"][0]["trophies"] == 1


@pytest.mark.parametrize(("choice", "adventure"), [(ABANDON, 2), (BASE_CAMP, 1)])
def test_the_last_explorer_still_in_exhausted_decides_whether_the_adventure_ends(
        choice: int, adventure: int) -> None:
    """"When a player has no exploration tokens left, he has to decide immediately between
    going back to the base camp or abandoning the adventure" and "The adventure also ends if
    all the players have abandoned it": the last explorer still in, exhausted by a capture,
    ends the adventure by abandoning (cards still in the deck), or plays on alone from the
    base camp."""
    state = start(3, first=0, row=(MEGA_10, IGUA_8))
    state.apply_action(ABANDON)
    state.apply_action(ABANDON)
    assert state.current_player() == 2
    state = rebuild(state, lambda t: t["players"][2].update(exploration_tokens=3))
    state.apply_action(TAKE[0])
    chance(state, "roll 10")  # Megalosaurus hesperis captured: 3 damage, 3 -> 0 tokens
    assert table_of(state)["phase"] == "exhausted"
    assert table_of(state)["deck_count"] > 0
    state.apply_action(choice)
    table = table_of(state)
    assert table["adventure"] == adventure
    if adventure == 2:
        # He keeps the capture: 6 doubled, the only points; the trophy is his.
        assert table["history"] == [[0, 0, 12]]
        assert table["trophy_history"] == [[2]]
    else:
        chance(state, f"reveal {PTERO_4}")
        assert state.current_player() == 2
        assert table_of(state)["players"][2]["dinosaurs"] == []


def test_haven_of_peace_lets_an_explorer_with_two_tokens_buy_the_extra_action() -> None:
    """"you need, at least, 3 exploration tokens" counts the tokens held when the action is
    bought: an explorer with 2 tokens cannot buy it, takes the Haven of Peace ("take up to 6
    exploration tokens") and then may, in the same turn (ruling 7)."""
    state = start(2, row=(HAVEN, IGUA_8))
    state = rebuild(state, lambda t: t["players"][0].update(exploration_tokens=2))
    assert BUY_ACTION not in state.legal_actions()
    state.apply_action(TAKE[0])
    chance(state, f"reveal {PTERO_4}")
    table = table_of(state)
    assert (table["phase"], table["current_player"]) == ("turn-end", 0)
    state.apply_action(BUY_ACTION)
    assert table_of(state)["players"][0]["exploration_tokens"] == 4
    assert (table_of(state)["phase"], state.current_player()) == ("turn", 0)


def test_two_players_take_turns_going_first_adventure_after_adventure() -> None:
    """"The player who goes last in the last adventure will go first in this one": with two
    players, the one who went second goes first, so the first seat alternates (ruling 6)."""
    state = start(2, first=1)
    firsts = [state.current_player()]
    for winner in (1, 0):  # one trophy each: the match goes on to a third adventure

        def position(table: dict[str, Any], winner: int = winner) -> None:
            give(table, winner, PTERO_4)
            keep_in_deck(table, [])

        state = rebuild(state, position)
        state.apply_action(DISCARD[0])  # the deck is empty: the adventure ends
        assert table_of(state)["trophy_history"][-1] == [winner]
        for name in (MEGA_10, PLES_9, MEGA_9):
            chance(state, f"setup discard {name}")
        chance(state, f"reveal {IGUA_7}")
        chance(state, f"reveal {IGUA_8}")
        firsts.append(state.current_player())
    assert firsts == [1, 0, 1]
    assert table_of(state)["first_player"] == 1



# --- an independent referee, compared with the engine over random matches -------------------


Observation = dict[str, Any]


def two_dice(total: int) -> float:
    """The chance of ``total`` on "2 six-faced dice"."""
    return (6 - abs(total - 7)) / 36


def others_still_in(table: Observation) -> list[int]:
    me = table["current_player"]
    return [p["seat"] for p in table["players"] if p["seat"] != me and not p["abandoned"]]


def expected_legal(table: Observation) -> list[int]:
    """The legal decisions of the seat on move, from the rulebook and the README's ids."""
    phase, me = table["phase"], table["players"][table["current_player"]]
    cards = table["cards"]
    if phase == "turn":
        # "each player can take one of the following actions": take or discard a row card,
        # the base camp, abandon; "you need, at least, 3 exploration tokens", "only ... one
        # extra action per turn"; the discard lock-out; advanced: "as an action, discard one
        # of your trail tokens", even with no one left to ask, and the steal lock-out.
        legal = [*TAKE]
        if not table["discard_locked"]:
            legal += DISCARD
        legal += [BASE_CAMP, ABANDON]
        if me["exploration_tokens"] >= 3 and not table["extra_action_bought"]:
            legal.append(BUY_ACTION)
        if table["advanced"] and not table["steal_locked"]:  # ruling 30 (sixth pass)
            legal += [STEAL_FIRST + SPECIES.index(s) for s in sorted(set(me["trail_tokens"]),
                                                                       key=SPECIES.index)]
        return sorted(legal)
    if phase == "turn-end":
        assert me["exploration_tokens"] >= 3 and not table["extra_action_bought"], \
            "turn-end is offered only to an explorer who may still buy the action"
        return [BUY_ACTION, END_TURN]
    if phase == "hunt-reroll":
        hunt = table["hunt"]
        assert table["center_ammunition"] > 0, "no re-roll without ammunition in the centre"
        assert hunt["ammunition_used"] < 2, "up to two ammunition tokens per dinosaur"
        assert hunt["last_roll"] + hunt["bonus"] < cards["difficulty"][hunt["card"]]
        return [REROLL, STOP_HUNT]
    if phase == "exhausted":
        assert me["exploration_tokens"] == 0, "only an explorer with no tokens is exhausted"
        return [BASE_CAMP, ABANDON]
    if phase == "ammunition-box":
        assert me["ammunition"] > 0, "the Ammunition Box asks only who has used ammunition"
        return [BOX_PUT_BACK, BOX_KEEP]
    if phase == "hound-capture":
        assert cards["kind"][table["hound_card"]] == "dinosaur"
        return [HOUND_CAPTURE, HOUND_LET_GO]
    if phase == "steal-victim":
        return [ASK_FIRST + seat for seat in others_still_in(table)]
    if phase == "steal-pick":
        victim = table["players"][table["steal_victim"]]
        picks = [STEAL_PICK_FIRST + card for card in victim["dinosaurs"]
                 if cards["points"][card] <= table["steal_roll"]]
        assert picks, "with no dinosaur of that value or less, you get nothing (no pick)"
        return sorted(picks)
    raise AssertionError(f"a seat is on move in phase {phase}")


def expected_chances(table: Observation, pool: list[int], dealt_to: int) -> dict[int, float]:
    """The outcomes of a chance node and their probabilities."""
    phase = table["phase"]
    if phase == "first-player":
        return {FIRST_PLAYER_FIRST + s: 1 / table["num_players"]
                for s in range(table["num_players"])}
    if phase == "deal-trail-tokens":
        assert 0 <= dealt_to < table["num_players"]
        left = sum(pool)
        return {DEAL_FIRST + s: count / left for s, count in enumerate(pool) if count}
    if phase in ("setup-discard", "reveal", "hound-reveal"):
        # "Shuffle all the cards together": any card left in the deck, equally likely.
        return {DRAW_FIRST + card: 1 / len(table["deck"]) for card in table["deck"]}
    if phase == "hunt-roll":
        return {ROLL_BASE + total: two_dice(total) for total in range(2, 13)}
    if phase == "steal-die":
        return {DIE_BASE + face: 1 / 6 for face in range(1, 7)}
    raise AssertionError(f"chance node in phase {phase}")


class Shadow:
    """The turn as the rulebook runs it, followed alongside the engine."""

    def __init__(self, players: int, advanced: bool) -> None:
        self.players, self.advanced = players, advanced
        self.pool = list(TRAIL_TOKENS) if advanced else [0, 0, 0, 0]
        self.dealt = 0
        self.adventures = 0
        self.first = -1
        self.seat = -1
        self.turn_number = 0
        self.actions_left = 0
        self.bought = self.discarded = self.stole = self.passes = False
        self.locks = (False, False)
        self.trail_kept: list[list[str]] = []

    # ------------------------------------------------------------- one turn

    def _new_turn(self, seat: int, locks: tuple[bool, bool]) -> None:
        self.seat, self.locks, self.actions_left = seat, locks, 1
        self.bought = self.discarded = self.stole = self.passes = False
        self.turn_number += 1

    def _next_seat(self, table: Observation) -> int:
        """"play clockwise" past explorers who abandoned ("ignored for the rest")."""
        n = self.players
        for step in range(1, n + 1):
            seat = (self.seat + step) % n
            if not table["players"][seat]["abandoned"]:
                return seat
        raise AssertionError("nobody left to play: the adventure should have ended")

    def check_decision(self, table: Observation) -> None:
        """At a decision: the seat on move, its locks, and the phase's legal actions."""
        if table["phase"] == "turn" and table["turn"] != self.turn_number:
            assert table["turn"] == self.turn_number + 1, "turns are counted one by one"
            assert not self.actions_left or self.passes or self.seat < 0 or \
                table["players"][self.seat]["abandoned"], \
                f"seat {self.seat} lost an action still due ({self.actions_left})"
            if self.seat >= 0 and not self.passes:
                left = table["players"][self.seat]
                assert left["abandoned"] or left["exploration_tokens"] < 3 or self.bought, \
                    "an explorer who may still buy the extra action is asked first"
            if self.seat < 0:  # the adventure's first turn
                self.check_new_adventure(table)
                seat, locks = self.first, (False, False)
            else:
                seat, locks = self._next_seat(table), (self.discarded, self.stole)
            self._new_turn(seat, locks)
        assert table["current_player"] == self.seat, \
            f"seat {self.seat} should be on move, not {table['current_player']}"
        if table["phase"] in ("turn", "turn-end"):
            assert (table["discard_locked"], table["steal_locked"]) == self.locks, \
                "the next one in the turn order (only) is locked out"
        if table["phase"] == "turn":
            assert self.actions_left > 0, "a turn phase with no action left"
            assert table["actions_left"] == self.actions_left
        if table["phase"] == "turn-end":
            assert self.actions_left == 0 and not self.passes

    def decided(self, before: Observation, action: int) -> None:
        """Book the decision ``action`` of the seat on move."""
        phase = before["phase"]
        if phase == "turn" and action in MAIN_ACTIONS:
            self.actions_left -= 1
            self.discarded |= action in DISCARD
            self.stole |= STEAL_FIRST <= action < STEAL_PICK_FIRST
            if action in TAKE:
                card = before["row"][action]
                if card["type"] == "advantage" and card["effect"] == "allies":
                    self.actions_left += 1  # "an additional action this turn"
        elif action == BUY_ACTION:
            self.actions_left += 1
            self.bought = True
        elif action == END_TURN:
            self.passes = True
        elif action == STOP_HUNT:
            self.passes = True  # "If, after all, you still fail ... pass the turn"

    # ------------------------------------------------------------- what a decision does

    def check_effect(self, before: Observation, action: int, after: Observation) -> None:
        """The visible result of a decision, when the adventure goes on after it."""
        if len(after["history"]) > len(before["history"]):
            return
        me, cards = before["current_player"], before["cards"]
        was, now = before["players"][me], after["players"][me]
        if action == BASE_CAMP:
            # "takes up to 6 exploration tokens ... discard both his advantages and his
            # captured dinosaurs ... put all the ammunition he took back at the center"
            assert (now["exploration_tokens"], now["dinosaurs"], now["advantages"],
                    now["ammunition"]) == (6, [], [], 0)
            assert after["center_ammunition"] == before["center_ammunition"] + was["ammunition"]
            assert set(was["dinosaurs"] + was["advantages"]) <= set(after["discards"])
        elif action == ABANDON:
            # "He won't discard any cards and he keeps the used ammunition."
            assert now["abandoned"]
            assert [now[k] for k in ("dinosaurs", "advantages", "ammunition")] == \
                [was[k] for k in ("dinosaurs", "advantages", "ammunition")]
        elif action == BUY_ACTION:
            assert now["exploration_tokens"] == was["exploration_tokens"] - 2
        elif before["phase"] == "turn" and action in DISCARD:
            assert before["row"][action - DISCARD[0]]["id"] in after["discards"]
        elif before["phase"] == "turn" and action in TAKE:
            self._check_take(before["row"][action], was, now, after)
        elif action == BOX_PUT_BACK:
            assert now["ammunition"] == 0
            assert after["center_ammunition"] == before["center_ammunition"] + was["ammunition"]
        elif action == HOUND_CAPTURE:
            # "capture it without making a hunt throw and without receiving any damage"
            assert before["hound_card"] in now["dinosaurs"]
            assert now["exploration_tokens"] == was["exploration_tokens"]
        elif action == HOUND_LET_GO:
            assert before["hound_card"] in [c and c["id"] for c in after["row"]]
        elif STEAL_FIRST <= action < STEAL_PICK_FIRST:
            species = SPECIES[action - STEAL_FIRST]
            assert sorted(now["trail_tokens"] + [species]) == sorted(was["trail_tokens"])
        elif STEAL_PICK_FIRST <= action < DRAW_FIRST:
            card, victim = action - STEAL_PICK_FIRST, before["steal_victim"]
            assert card in now["dinosaurs"]
            assert card not in after["players"][victim]["dinosaurs"]
            assert cards["points"][card] <= before["steal_roll"]

    @staticmethod
    def _check_take(card: Observation, was: Observation, now: Observation,
                    after: Observation) -> None:
        if card["type"] == "dinosaur":
            assert after["phase"] == "hunt-roll", "a dinosaur taken is hunted"
            return
        assert card["id"] in now["advantages"], "an advantage is just taken"
        if card["effect"] == "haven-of-peace":
            assert now["exploration_tokens"] == 6, "take up to 6 exploration tokens"
        elif card["effect"] == "allies":
            assert now["throw_bonus"] == 1, "+1 in all your future hunt throws"
        elif card["effect"] == "ammunition-box":
            assert (after["phase"] == "ammunition-box") == (was["ammunition"] > 0)
        else:
            assert after["phase"] == "hound-reveal", "reveal the next card of the deck"

    # ------------------------------------------------------------- a hunt throw

    def check_throw(self, before: Observation, total: int, after: Observation) -> None:
        """"You have to obtain the difficulty of the dinosaur or more" (+1 with the Allies);
        the damage; a re-roll only with a token in the centre and at most two per hunt."""
        hunt, me = before["hunt"], self.seat
        card, cards = hunt["card"], before["cards"]
        ended = len(after["history"]) > len(before["history"])
        tokens = before["players"][me]["exploration_tokens"]
        if total + hunt["bonus"] >= cards["difficulty"][card]:
            if not ended:
                assert card in after["players"][me]["dinosaurs"], "a success captures it"
                assert after["hunt"] is None
                assert after["players"][me]["exploration_tokens"] == max(
                    0, tokens - cards["damage_success"][card])
            return
        if hunt["ammunition_used"] < 2 and before["center_ammunition"] > 0:
            assert not ended and after["phase"] == "hunt-reroll", "a failed throw may be retried"
            return
        self.passes = True
        if not ended:
            assert after["hunt"] is None and card in [c and c["id"] for c in after["row"]], \
                "a dinosaur that survives the hunt stays in the row"
            assert after["players"][me]["exploration_tokens"] == max(
                0, tokens - cards["damage_failure"][card])

    def check_hound(self, before: Observation, card: int, after: Observation) -> None:
        """"Hound: ... reveal the next card of the deck. If it's a dinosaur, you can capture
        it ... If it's an advantage, you will NOT benefit from its effect, but it will
        subtract one point at the end of the adventure." """
        ended = len(after["history"]) > len(before["history"])
        was, now = before["players"][self.seat], after["players"][self.seat]
        if before["cards"]["kind"][card] == "dinosaur":
            assert not ended and after["phase"] == "hound-capture"
            assert after["hound_card"] == card
        elif not ended:
            assert now["advantages"] == [*was["advantages"], card]
            for key in ("exploration_tokens", "ammunition", "throw_bonus"):
                assert now[key] == was[key], f"the Hound's {key}: no benefit from the effect"
            assert after["center_ammunition"] == before["center_ammunition"]

    # ------------------------------------------------------------- adventures

    def chance(self, before: Observation, action: int) -> None:
        if before["phase"] == "first-player":
            self.first = action - FIRST_PLAYER_FIRST
        elif before["phase"] == "deal-trail-tokens":
            self.pool[action - DEAL_FIRST] -= 1
            self.dealt += 1

    def adventure_over(self, before: Observation, action: int) -> None:
        """An adventure ended: only when everyone abandoned, or a card left the row with
        the deck empty; the next one starts with "the player who goes last"."""
        still_in = [p["seat"] for p in before["players"] if not p["abandoned"]]
        last_abandons = action == ABANDON and still_in == [before["current_player"]]
        deck_empties = before["deck_count"] == 0 or (
            before["phase"] == "hound-reveal" and before["deck_count"] == 1)
        assert last_abandons or deck_empties or before["turn"] >= 200, \
            "an adventure ended with cards in the deck and explorers still in"
        self.adventures += 1
        self.first = (self.first - 1) % self.players
        self.seat, self.turn_number, self.actions_left = -1, 0, 0
        self.trail_kept = [sorted(p["trail_tokens"]) for p in before["players"]]

    def check_trophy(self, before: Observation, after: Observation) -> None:
        """"The player with the most points takes a trophy token. In case of a tie, only
        the player with more exploration tokens takes the trophy (if the tie persists, all
        the tied players win a trophy token)"; "The first player to have two trophies is the
        absolute winner of the game"."""
        points, winners = after["history"][-1], after["trophy_history"][-1]
        best = [seat for seat, value in enumerate(points) if value == max(points)]
        assert winners and set(winners) <= set(best), "the trophy goes to the most points"
        if len(best) == 1:
            assert winners == best
        for p in after["players"]:
            won = p["seat"] in winners
            assert p["trophies"] == before["players"][p["seat"]]["trophies"] + won
        over = any(p["trophies"] >= 2 for p in after["players"])
        assert (after["phase"] == "over") == over, "the match ends at two trophies"

    def check_new_adventure(self, table: Observation) -> None:
        """"Now, each player takes up to 6 exploration tokens and puts back all the used
        ammunition tokens at the center of the table. Shuffle all the cards together and
        start a new adventure from the very beginning"; trail tokens "are kept from
        adventure to adventure" (two each at the start of the game)."""
        n = self.players
        assert table["adventure"] == self.adventures + 1
        assert len(table["discards"]) == {2: 3, 3: 2, 4: 1}[n]
        assert table["deck_count"] == len(table["cards"]["name"]) - len(table["discards"]) - 2
        assert table["center_ammunition"] == {2: 6, 3: 7, 4: 8}[n]
        for p in table["players"]:
            assert (p["exploration_tokens"], p["ammunition"], p["dinosaurs"], p["advantages"],
                    p["abandoned"], p["throw_bonus"]) == (6, 0, [], [], False, 0)
        trails = [sorted(p["trail_tokens"]) for p in table["players"]]
        if not self.adventures:
            assert all(len(held) == (2 if self.advanced else 0) for held in trails)
        else:
            assert trails == self.trail_kept


def play(state: State, shadow: Shadow, choose: Callable[[list[int]], int],
         sample: Callable[[list[int], list[float]], int]) -> int:
    """Play ``state`` to its end under ``shadow``; return the decisions checked."""
    checked = 0
    while not state.is_terminal():
        table = state.observation(0)
        if state.current_player() == CHANCE:
            dealt_to = shadow.dealt // 2
            outcomes = dict(state.chance_outcomes())
            expected = expected_chances(table, shadow.pool, dealt_to)
            assert outcomes.keys() == expected.keys(), table["phase"]
            assert all(abs(outcomes[a] - p) < 1e-9 for a, p in expected.items())
            action = sample(list(outcomes), list(outcomes.values()))
            state.apply_action(action)
            shadow.chance(table, action)
            after = state.observation(0)
            if table["phase"] == "hunt-roll":
                shadow.check_throw(table, action - ROLL_BASE, after)
            elif table["phase"] == "hound-reveal":
                shadow.check_hound(table, action - DRAW_FIRST, after)
        else:
            table = state.observation(state.current_player())
            shadow.check_decision(table)
            legal = state.legal_actions()
            assert legal == expected_legal(table), (table["phase"], legal)
            action = choose(legal)
            state.apply_action(action)
            shadow.decided(table, action)
            checked += 1
            after = state.observation(0)
            shadow.check_effect(table, action, after)
        if len(after["history"]) > len(table["history"]):
            shadow.adventure_over(table, action)
            shadow.check_trophy(table, after)
    trophies = [p["trophies"] for p in state.observation(0)["players"]]
    assert state.scores() == [float(count) for count in trophies]
    # "the absolute winner": every explorer with two trophies first, the others below.
    assert [place == 0 for place in state.ranking()] == [count >= 2 for count in trophies]
    return checked


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, False), (4, False),
                                                    (2, True), (3, True), (4, True)])
def test_the_engine_plays_as_the_independent_referee_says(players: int, advanced: bool) -> None:
    """Seeded random matches, every decision and chance node checked by :class:`Shadow`:
    600 matches in all, about 50,000 decisions. Chance comes as the engine gives it (the
    referee checks its odds); decisions are uniform over the legal ones in half the matches,
    and in the other half seldom give up (abandon 1/30, the base camp 1/10 of another
    action's weight), so that more adventures run down to their last cards."""
    rng = random.Random(f"{players}-{advanced}")
    seldom = {ABANDON: 1 / 30, BASE_CAMP: 0.1}

    def stubborn(legal: list[int]) -> int:
        if legal == [BASE_CAMP, ABANDON]:  # exhausted: a real choice either way
            return rng.choice(legal)
        return rng.choices(legal, [seldom.get(action, 1.0) for action in legal])[0]

    checked = 0
    for match in range(100):
        state = game().new_initial_state(players, {"advanced": advanced})
        checked += play(state, Shadow(players, advanced), stubborn if match % 2 else rng.choice,
                        lambda actions, weights: rng.choices(actions, weights)[0])
    assert checked > 2000
