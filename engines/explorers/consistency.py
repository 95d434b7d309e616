"""What a table must hold to be a position of the game at all.

``Game.state_from_observation`` takes an observation a seat received, but a rule
test may also hand it an edited one to set up a position (README, *Setting up a
position*). An edit that breaks the components (a card in two places, ammunition
made or lost, seven exploration tokens) would give a state no game can reach and
rules that answer nonsense, so it is refused here with the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from engines.explorers.cards import ALLIES, DINOSAUR, SPECIES, TRAIL_TOKENS, CardSet
from engines.explorers.table import AMMUNITION, EXPLORATION_TOKENS, MAX_TURNS_PER_ADVENTURE


def check(observation: Mapping[str, Any], cards: CardSet) -> None:
    """Raise ``ValueError`` naming the first thing in ``observation`` that no position of
    the game can hold."""
    _check_table(observation)
    row = row_ids(observation, cards)
    _check_cards(observation, cards)
    _check_hunt(observation, cards, row)
    _check_row(observation, row)
    _check_tokens(observation)
    _check_throw_bonus(observation, cards)
    _check_trail_tokens(observation)
    _check_counters(observation)
    _check_phase(observation, cards)


def _fail(problem: str) -> NoReturn:
    raise ValueError(f"explorers: not a position of the game: {problem}")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_table(observation: Mapping[str, Any]) -> None:
    """The table's frame: a player count and one entry per seat in seat order, a match still
    under way (no trophy count at two, which ends it; ``over`` is no position to play on),
    and the past adventures' ``history`` and ``trophy_history`` one row each, of the seats'
    points and of the seats that took the trophy."""
    n, players = observation["num_players"], observation["players"]
    if n not in AMMUNITION or not isinstance(players, list) or len(players) != n:
        _fail(f"num_players is {n!r} with {len(players)} entries in players: 2..4 players, "
              "one entry each")
    for seat, p in enumerate(players):
        if p["seat"] != seat:
            _fail(f"players[{seat}].seat is {p['seat']!r}: the entries are in seat order")
        for key in ("exploration_tokens", "ammunition", "trophies"):
            if not _whole(p[key]):
                _fail(f"players[{seat}].{key} is {p[key]!r}, not a whole number")
        for key in ("dinosaurs", "advantages", "trail_tokens"):
            if not isinstance(p[key], list):
                _fail(f"players[{seat}].{key} is {p[key]!r}, not a list")
        if not 0 <= p["trophies"] <= 1:
            _fail(f"players[{seat}].trophies is {p['trophies']}: 0 or 1 while the match goes "
                  "on (\"The first player to have two trophies is the absolute winner\")")
    if observation["phase"] == "over":
        _fail("phase 'over': the match is over, there is no position to play on")
    history, trophies = observation["history"], observation["trophy_history"]
    if (not isinstance(history, list) or not isinstance(trophies, list)
            or len(history) != len(trophies)):
        _fail(f"history has {len(history)} rows and trophy_history {len(trophies)}: one row "
              "each per finished adventure")
    for row, taken in zip(history, trophies, strict=True):
        if (not isinstance(row, list) or len(row) != n or not all(map(_whole, row))
                or not isinstance(taken, list) or not taken
                or any(seat not in range(n) for seat in taken)):
            _fail(f"history row {row!r} with trophy_history row {taken!r}: each seat's points "
                  f"(whole numbers, {n} of them) and the seats that took the trophy (one or "
                  "more)")


def row_ids(observation: Mapping[str, Any], cards: CardSet) -> list[int]:
    """The row's two slots as card ids (-1 for an empty slot). A slot holds what the
    observation shows (a card's dict, of which ``id`` is read), ``null``, or, in an edited
    observation, a bare card id; a dict whose ``name`` is not its card's is refused."""
    row = observation["row"]
    if not isinstance(row, list) or len(row) != 2:
        _fail(f"row is {row!r}, not a list of two slots")
    ids = []
    for slot, entry in enumerate(row):
        if entry is None:
            ids.append(-1)
            continue
        card = entry.get("id") if isinstance(entry, Mapping) else entry
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < cards.size:
            _fail(f"row[{slot}] holds {entry!r}, not a card, a card id 0..{cards.size - 1} "
                  "or null")
        if isinstance(entry, Mapping) and entry.get("name", cards.names[card]) != cards.names[card]:
            _fail(f"row[{slot}] has id {card} ({cards.names[card]}) but name {entry['name']!r}")
        ids.append(card)
    return ids


def _check_cards(observation: Mapping[str, Any], cards: CardSet) -> None:
    hands = [(p, key) for p in observation["players"] for key in ("dinosaurs", "advantages")]
    placed = [*observation["deck"], *observation["discards"],
              *(card for card in row_ids(observation, cards) if card >= 0)]
    if observation["hound_card"] is not None:
        placed.append(observation["hound_card"])
    for p, key in hands:
        placed += p[key]
    if set(placed) == set(range(cards.size)) and len(placed) == cards.size and all(
        (cards.kind[card] == DINOSAUR) == (key == "dinosaurs")
        for p, key in hands for card in p[key]
    ):
        return
    _explain_cards(observation, cards, hands)


def _explain_cards(observation: Mapping[str, Any], cards: CardSet,
                   hands: list[tuple[Mapping[str, Any], str]]) -> None:
    """Name the first card out of place (the check above found one)."""
    places: list[tuple[str, Any]] = [("deck", card) for card in observation["deck"]]
    places += [("discards", card) for card in observation["discards"]]
    places += [(f"row[{slot}]", card) for slot, card in enumerate(row_ids(observation, cards))
               if card >= 0]
    if observation["hound_card"] is not None:
        places.append(("hound_card", observation["hound_card"]))
    places += [(f"players[{p['seat']}].{key}", card) for p, key in hands for card in p[key]]
    seen: dict[int, str] = {}
    for place, card in places:
        if not isinstance(card, int) or not 0 <= card < cards.size:
            _fail(f"{place} holds {card!r}, not a card id 0..{cards.size - 1}")
        hand = place.startswith("players")
        if hand and (cards.kind[card] == DINOSAUR) != place.endswith(".dinosaurs"):
            _fail(f"{place} holds {cards.names[card]!r}")
        if card in seen:
            _fail(f"card {card} ({cards.names[card]}) is in {seen[card]} and in {place}")
        seen[card] = place
    missing = [cards.names[card] for card in range(cards.size) if card not in seen]
    _fail(f"cards in no place (deck, row, discards, a hand): {missing}")


def _check_hunt(observation: Mapping[str, Any], cards: CardSet, row: list[int]) -> None:
    """A hunt is of a dinosaur in the row, and the Hound reveals a dinosaur into
    ``hound_card`` (an advantage it reveals goes straight to its taker)."""
    hunt = observation["hunt"]
    if hunt is not None:
        slot = hunt.get("slot") if isinstance(hunt, Mapping) else None
        if slot not in (0, 1) or row[slot] < 0 or cards.kind[row[slot]] != DINOSAUR:
            _fail(f"hunt.slot is {slot!r}: a hunt needs the slot (0 or 1) of a dinosaur in "
                  "the row")
    hound = observation["hound_card"]
    if hound is not None and cards.kind[hound] != DINOSAUR:
        _fail(f"hound_card holds {cards.names[hound]!r}: the Hound's taker decides only "
              "about a dinosaur")


ONE_SLOT_EMPTY = ("exhausted", "ammunition-box", "hound-capture", "reveal", "hound-reveal")
"""The decisions taken while a card that left the row is not yet replaced: the exhausted
explorer's choice after a capture, the Ammunition Box's and the Hound's (and the draws that
replace it, for a position set up at a chance node)."""


def _check_row(observation: Mapping[str, Any], row: list[int]) -> None:
    """"At the right side of the deck, there has to be ALWAYS two cards faced up": a slot is
    empty only while the decision its card brought is taken, and never both."""
    empty = row.count(-1)
    if empty and (empty > 1 or observation["phase"] not in ONE_SLOT_EMPTY):
        _fail(f"row is {['null' if card < 0 else card for card in row]} in phase "
              f"{observation['phase']!r}: the row holds two cards, one slot only empty in "
              f"phases {list(ONE_SLOT_EMPTY)} (an empty deck is set by moving its cards to "
              "discards)")


def _check_tokens(observation: Mapping[str, Any]) -> None:
    players = observation["players"]
    for p in players:
        if not 0 <= p["exploration_tokens"] <= EXPLORATION_TOKENS:
            _fail(f"players[{p['seat']}].exploration_tokens is {p['exploration_tokens']}, "
                  f"not 0..{EXPLORATION_TOKENS}")
        if p["ammunition"] < 0:
            _fail(f"players[{p['seat']}].ammunition is {p['ammunition']}")
    mover, phase = observation["current_player"], observation["phase"]
    for p in players:
        if (not p["exploration_tokens"] and not p["abandoned"]
                and (p["seat"] != mover or phase != "exhausted")):
            _fail(f"players[{p['seat']}].exploration_tokens is 0 for an explorer still in the "
                  "adventure: \"When a player has no exploration tokens left, he has to decide "
                  "immediately\" between the base camp and abandoning: set `abandoned`, or make "
                  "them the seat on move in phase 'exhausted'")
    supply = AMMUNITION[observation["num_players"]]
    held = sum(p["ammunition"] for p in players)
    if observation["center_ammunition"] < 0 or held + observation["center_ammunition"] != supply:
        _fail(f"center_ammunition {observation['center_ammunition']} and {held} held by the "
              f"players do not make the {supply} tokens of {len(players)} players")


def _check_throw_bonus(observation: Mapping[str, Any], cards: CardSet) -> None:
    """The +1 comes from taking the one Allies card from the row: at most one seat has it,
    and its Allies is in that seat's advantages or, after its base camp, in the discards."""
    allies = cards.kind.index(ALLIES)
    holders = []
    for p in observation["players"]:
        if p["throw_bonus"] not in (0, 1):
            _fail(f"players[{p['seat']}].throw_bonus is {p['throw_bonus']!r}, not 0 or 1")
        if p["throw_bonus"]:
            holders.append(p["seat"])
    if len(holders) > 1:
        _fail(f"players {holders} all have throw_bonus 1: only the explorer who took the one "
              "Allies card from the row has it")
    for seat in holders:
        if not (allies in observation["players"][seat]["advantages"]
                or allies in observation["discards"]):
            _fail(f"players[{seat}].throw_bonus is 1 but the Allies card is not in their "
                  "advantages nor in the discards (after their base camp): the +1 comes from "
                  "taking it: move its id there")


def _check_trail_tokens(observation: Mapping[str, Any]) -> None:
    held = [token for p in observation["players"] for token in p["trail_tokens"]]
    if held and not observation["advanced"]:
        seats = [p["seat"] for p in observation["players"] if p["trail_tokens"]]
        _fail(f"players[{seats[0]}].trail_tokens: trail tokens held in the basic game")
    for p in observation["players"]:
        if len(p["trail_tokens"]) > 2:
            _fail(f"players[{p['seat']}].trail_tokens holds {len(p['trail_tokens'])} trail "
                  "tokens, not 0..2")
    for species, count in zip(SPECIES, TRAIL_TOKENS, strict=True):
        if held.count(species) > count:
            _fail(f"trail_tokens: {held.count(species)} {species} trail tokens held, "
                  f"{count} exist")
    unknown = set(held) - set(SPECIES)
    if unknown:
        _fail(f"trail_tokens: unknown trail tokens {sorted(unknown)}")


def _check_counters(observation: Mapping[str, Any]) -> None:
    """A seat is on move only within a turn of an adventure: ``turn`` counts the turns
    begun in this adventure, this one included, so it is 1 or more (a 0 would make the next
    refill of the row start the adventure's turns over), and at most the safety cap. The
    seat on move is still in the adventure, and has an action to take in phase ``turn`` (with
    none, the next action would leave -1 and the turn would never pass)."""
    turn, adventure = observation["turn"], observation["adventure"]
    if not isinstance(turn, int) or not 1 <= turn <= MAX_TURNS_PER_ADVENTURE:
        _fail(f"turn is {turn!r}: a seat is on move in turn 1..{MAX_TURNS_PER_ADVENTURE} of "
              "an adventure")
    if not isinstance(adventure, int) or adventure < 1:
        _fail(f"adventure is {adventure!r}: adventures are counted from 1")
    seats = range(observation["num_players"])
    mover, first = observation["current_player"], observation["first_player"]
    if mover not in seats or observation["players"][mover]["abandoned"]:
        _fail(f"current_player is {mover!r}: the seat on move is one still in the adventure")
    if first not in seats:
        _fail(f"first_player is {first!r}, not a seat")
    actions = observation["actions_left"]
    least = 1 if observation["phase"] == "turn" else 0
    if not isinstance(actions, int) or not least <= actions <= 3:
        _fail(f"actions_left is {actions!r}: {least}..3 in phase {observation['phase']!r} "
              "(the turn's action, a bought one, the Allies' one)")


def _check_phase(observation: Mapping[str, Any], cards: CardSet) -> None:
    """What each decision needs to be one the rules can ask: a hunt in progress only while
    hunting (and a token to take and one of the two to spare for a re-roll), the Hound's
    dinosaur only while its taker decides, someone to ask and something to take in a steal,
    no tokens for the exhausted, the extra action still to buy at ``turn-end``."""
    phase, mover = observation["phase"], observation["current_player"]
    me, hunt = observation["players"][mover], observation["hunt"]
    hunting = phase in ("hunt-reroll", "hunt-roll")
    if (hunt is not None) != hunting:
        _fail(f"hunt is {hunt!r} in phase {phase!r}: a hunt is under way in phases "
              "'hunt-reroll' and 'hunt-roll' only")
    if phase == "hunt-reroll" and not (observation["center_ammunition"] >= 1
                                       and 0 <= hunt["ammunition_used"] <= 1):
        _fail(f"hunt.ammunition_used is {hunt['ammunition_used']!r} with "
              f"{observation['center_ammunition']} in the centre: a re-roll needs a token "
              "there and at most one used in this hunt")
    if phase == "hunt-reroll":
        _check_failed_throw(observation, cards, hunt, me)
    if (observation["hound_card"] is not None) != (phase == "hound-capture"):
        _fail(f"hound_card is {observation['hound_card']!r} in phase {phase!r}: the Hound's "
              "dinosaur waits in phase 'hound-capture' only")
    if phase == "exhausted" and me["exploration_tokens"]:
        _fail(f"players[{mover}].exploration_tokens is {me['exploration_tokens']} in phase "
              "'exhausted' (no exploration tokens left)")
    if phase == "turn-end" and (me["exploration_tokens"] < 3
                                or observation["extra_action_bought"]):
        _fail("phase 'turn-end' asks only an explorer who may still buy the extra action "
              "(3 exploration tokens or more, none bought this turn)")
    _check_steal(observation, cards, phase, mover)


def _check_failed_throw(observation: Mapping[str, Any], cards: CardSet,
                        hunt: Mapping[str, Any], me: Mapping[str, Any]) -> None:
    """A re-roll is offered after a failed throw: one throw more than the ammunition used
    ("up to two ammunition tokens per dinosaur (which means that you can throw the dice up
    to three times)"), the last one a total of two dice (2..12) that, with the thrower's
    bonus, fell short of the difficulty (a throw reaching it captured the dinosaur)."""
    used, rolls, last = hunt["ammunition_used"], hunt["rolls"], hunt["last_roll"]
    if rolls != used + 1:
        _fail(f"hunt.rolls is {rolls!r} with ammunition_used {used}: each throw after the "
              "first takes an ammunition token, so rolls is ammunition_used + 1")
    difficulty = cards.difficulty[row_ids(observation, cards)[hunt["slot"]]]
    if not _whole(last) or not 2 <= last <= 12 or last + me["throw_bonus"] >= difficulty:
        _fail(f"hunt.last_roll is {last!r}: in phase 'hunt-reroll' the last throw (2..12, "
              f"before the bonus of {me['throw_bonus']}) failed, below the difficulty "
              f"{difficulty}")


def _check_steal(observation: Mapping[str, Any], cards: CardSet, phase: str,
                 mover: int) -> None:
    players, victim = observation["players"], observation["steal_victim"]
    if phase in ("steal-victim", "steal-pick") and not observation["advanced"]:
        _fail(f"phase {phase!r} in the basic game")
    if phase == "steal-victim" and all(
            p["abandoned"] for p in players if p["seat"] != mover):
        _fail("phase 'steal-victim' with no other explorer still in the adventure to ask")
    asking = phase in ("steal-pick", "steal-die")
    if (victim is not None) != asking:
        _fail(f"steal_victim is {victim!r} in phase {phase!r}: a player is asked in phases "
              "'steal-die' and 'steal-pick' only")
    if not asking:
        return
    if victim not in range(len(players)) or victim == mover or players[victim]["abandoned"]:
        _fail(f"steal_victim is {victim!r}: another explorer still in the adventure")
    roll = observation["steal_roll"]
    if phase == "steal-pick" and not (roll in range(1, 7) and any(
            cards.points[card] <= roll for card in players[victim]["dinosaurs"])):
        _fail(f"steal_roll is {roll!r}: in phase 'steal-pick' a die 1..6 and a dinosaur of "
              f"players[{victim}] with that value or less")
