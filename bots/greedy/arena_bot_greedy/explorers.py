"""Greedy heuristic for Explorers of the Lost Valley: score every legal move, play the best.

Everything comes from the observation (card stats, the deck's length), and
points are counted by the engine's own :mod:`engines.explorers.scoring`, so a
user's own card file is handled too. A move is valued by how it changes the bot's lead
over the best opponent in this adventure's points, minus what it costs in
exploration tokens (future hunting power) and ammunition.

``risk`` (0..1) sets the boldness: the least chance of a capture (re-rolls
included) for which the bot hunts, 0.85 - 0.7 * risk; how readily it spends
ammunition on a re-roll; how much it wants the Allies; and how readily it
pays exploration tokens for an extra action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.explorers import actions as A
from engines.explorers.cards import SPECIES, TRAIL_BONUS, CardSet
from engines.explorers.observation import cards_from_columns
from engines.explorers.scoring import adventure_points

Observation = Mapping[str, Any]


def throw_chance(difficulty: int, bonus: int) -> float:
    """Chance that two dice plus ``bonus`` reach ``difficulty``."""
    return sum(ways for total, ways in A.TWO_DICE.items() if total + bonus >= difficulty) / 36


_LAST: list[tuple[Mapping[str, Any], CardSet]] = []
"""The card table seen last and its card set: the engine (and a bot host) hand every
decision of a match the same ``cards`` object, so it is read once a match."""


def card_set(columns: Mapping[str, Any]) -> CardSet:
    """The card set of an observation's ``cards``."""
    if not _LAST or _LAST[0][0] is not columns:
        _LAST[:] = [(columns, cards_from_columns(columns))]
    return _LAST[0][1]


class Scorer:
    """The adventure's points for any holdings of dinosaurs, by the engine's own scoring."""

    def __init__(self, obs: Observation) -> None:
        self.cards = card_set(obs["cards"])
        players = obs["players"]
        self.advantages = [player["advantages"] for player in players]
        self.ammunition = [player["ammunition"] for player in players]
        self.trail_tokens = [[SPECIES.index(name) for name in player["trail_tokens"]]
                             for player in players]
        self.seat: int = obs["seat"]
        self.holdings = [list(player["dinosaurs"]) for player in players]
        self.lead = self.margin(self.holdings)

    def points(self, holdings: Sequence[Sequence[int]]) -> list[int]:
        return adventure_points(self.cards, holdings, self.advantages, self.ammunition,
                                self.trail_tokens)

    def margin(self, holdings: Sequence[Sequence[int]]) -> int:
        """The bot's points minus the best opponent's."""
        points = self.points(holdings)
        return points[self.seat] - max(p for i, p in enumerate(points) if i != self.seat)

    def capture_gain(self, card: int, seat: int | None = None,
                     victim: int | None = None) -> float:
        """How much capturing (or stealing from ``victim``) ``card`` widens the bot's lead."""
        holdings = [held[:] for held in self.holdings]
        if victim is not None:
            holdings[victim].remove(card)
        holdings[self.seat if seat is None else seat].append(card)
        return float(self.margin(holdings) - self.lead)


class Judge:
    """Values of the moves in one observation, for one level of ``risk``."""

    def __init__(self, obs: Observation, risk: float) -> None:
        self.obs, self.risk = obs, risk
        self.scorer = Scorer(obs)
        self.me = obs["players"][obs["seat"]]
        self.tokens: int = self.me["exploration_tokens"]
        self.token_value = 0.7 * (1.5 if self.tokens <= 2 else 1.0)
        self.min_success = 0.85 - 0.7 * risk
        self.bonus: int = self.me["throw_bonus"]

    def hunt(self, card: int) -> float:
        cards = self.obs["cards"]
        gain = self.scorer.capture_gain(card)
        p = throw_chance(cards["difficulty"][card], self.bonus)
        tries = 1 + (min(2, self.obs["center_ammunition"]) if self.rerolls_pay(p, gain) else 0)
        success = 1 - (1 - p) ** tries
        ammunition = sum((1 - p) ** k for k in range(1, tries))
        damage = (success * cards["damage_success"][card]
                  + (1 - success) * cards["damage_failure"][card])
        exhausted = damage >= self.tokens
        if success < self.min_success:
            return -5.0 + success
        return float(success * gain - ammunition - self.token_value * min(damage, self.tokens)
                     - (self.me["points"] * 0.5 if exhausted else 0.0))

    def rerolls_pay(self, p: float, gain: float) -> bool:
        return p * gain >= 1.3 - 0.6 * self.risk

    def advantage(self, effect: str) -> float:
        if effect == "haven-of-peace":
            return self.token_value * (6 - self.tokens) - 1
        if effect == "allies":
            return 1.2 + 0.6 * self.risk
        if effect == "ammunition-box":
            return float(self.me["ammunition"]) - 1
        return self.hound() - 1

    def hound(self) -> float:
        deck = self.obs["deck"]
        if not deck:
            return 0.0
        kind = self.obs["cards"]["kind"]
        gains = [self.scorer.capture_gain(c) if kind[c] == "dinosaur" else -1.0 for c in deck]
        return sum(gains) / len(gains)

    def discard(self, card: int) -> float:
        if self.obs["cards"]["kind"][card] != "dinosaur":
            return -0.2
        seat, players = self.obs["seat"], self.obs["players"]
        denial = max((-self.scorer.capture_gain(card, seat=p["seat"]) for p in players
                      if p["seat"] != seat and not p["abandoned"]), default=0.0)
        return float(0.3 * max(0.0, denial) - 0.1)

    def base_camp(self) -> float:
        return float(self.token_value * (6 - self.tokens) - max(0.0, self.me["points"]) - 0.5)

    def abandon(self) -> float:
        seat = self.obs["seat"]
        lead = self.me["points"] - max(p["points"] for p in self.obs["players"]
                                       if p["seat"] != seat)
        left = self.obs["deck_count"] / max(1, self.obs["deck_count_at_start"])
        future = 0.6 * self.tokens * (0.3 + left)
        return float((lead - 1.0 if lead > 0 else lead - 3.0) * 0.5 - future)

    def steal(self, species: str) -> float:
        species_of = self.obs["cards"]["species"]
        held = sum(1 for c in self.me["dinosaurs"] if species_of[c] == species)
        single = self.me["trail_tokens"].count(species) == 1
        keep = TRAIL_BONUS[SPECIES.index(species)] * (held + 0.5) if single else 0.0
        return max(map(self.ask_value, self.victims()), default=0.0) - keep

    def victims(self) -> list[int]:
        seat = self.obs["seat"]
        return [p["seat"] for p in self.obs["players"] if p["seat"] != seat and not p["abandoned"]]

    def ask_value(self, victim: int) -> float:
        """The expected gain of asking ``victim``, the die not yet thrown."""
        points = self.obs["cards"]["points"]
        gains = [(points[card], self.steal_gain(card, victim))
                 for card in self.obs["players"][victim]["dinosaurs"]]
        faces = [max([gain for value, gain in gains if value <= face], default=0.0)
                 for face in range(1, 7)]
        return sum(faces) / 6

    def steal_gain(self, card: int, victim: int) -> float:
        return self.scorer.capture_gain(card, victim=victim)


def _turn_value(judge: Judge, obs: Observation, action: int) -> float:
    row = obs["row"]
    if action < A.DISCARD:
        entry = row[action - A.TAKE]
        if entry["type"] == "dinosaur":
            return judge.hunt(entry["id"])
        return judge.advantage(entry["effect"])
    if action < A.BASE_CAMP:
        return judge.discard(row[action - A.DISCARD]["id"])
    if action == A.BASE_CAMP:
        return judge.base_camp()
    if action == A.ABANDON:
        return judge.abandon()
    return judge.steal(SPECIES[action - A.STEAL])


def _best(values: Mapping[int, float], rng: random.Random) -> int:
    top = max(values.values())
    return rng.choice([action for action, value in values.items() if value >= top - 1e-9])


def _choose_turn(obs: Observation, legal: Sequence[int], rng: random.Random,
                 risk: float) -> int:
    # The extra action is bought only after seeing how the action went (turn-end): bought
    # before, a failed hunt would waste it.
    judge = Judge(obs, risk)
    values = {a: _turn_value(judge, obs, a) for a in legal if a != A.EXTRA_ACTION}
    return _best(values, rng)


def _choose_turn_end(obs: Observation, risk: float) -> int:
    # Tokens spent now are missed in later hunts (playouts show buying early loses), so
    # only near the adventure's end, with a good take in the row.
    judge = Judge(obs, risk)
    best_take = max(_turn_value(judge, obs, A.TAKE + slot) for slot in (0, 1))
    late = obs["deck_count"] <= 1 + 2 * risk
    return A.EXTRA_ACTION if late and best_take > 0.5 else A.END_TURN


def _choose_reroll(obs: Observation, risk: float) -> int:
    card, cards = obs["hunt"]["card"], obs["cards"]
    judge = Judge(obs, risk)
    p = throw_chance(cards["difficulty"][card], obs["hunt"]["bonus"])
    gain = judge.scorer.capture_gain(card)
    saved = judge.token_value * (cards["damage_failure"][card] - cards["damage_success"][card])
    return A.REROLL if p * (gain + saved) >= 1.3 - 0.6 * risk else A.STOP_HUNT


def _choose_exhausted(obs: Observation) -> int:
    me = obs["players"][obs["seat"]]
    return A.ABANDON if me["points"] > 0 else A.BASE_CAMP


def choose(observation: Mapping[str, Any], legal_actions: Sequence[int], rng: random.Random,
           risk: float) -> int:
    """The greedy move for ``observation`` among ``legal_actions``."""
    phase = observation["phase"]
    if phase == "hunt-reroll":
        return _choose_reroll(observation, risk)
    if phase == "exhausted":
        return _choose_exhausted(observation)
    if phase == "steal-victim":
        judge = Judge(observation, risk)
        return _best({a: judge.ask_value(a - A.STEAL_FROM) for a in legal_actions}, rng)
    if phase == "steal-pick":
        judge, victim = Judge(observation, risk), observation["steal_victim"]
        return _best({a: judge.steal_gain(a - A.STEAL_CARD, victim) for a in legal_actions},
                     rng)
    if phase == "turn":
        return _choose_turn(observation, legal_actions, rng, risk)
    if phase == "turn-end":
        return _choose_turn_end(observation, risk)
    if phase == "ammunition-box":        # each token put back is a point back
        return A.RETURN_AMMUNITION
    if phase == "hound-capture":
        gain = Scorer(observation).capture_gain(observation["hound_card"])
        return A.HOUND_CAPTURE if gain >= 0 else A.HOUND_RELEASE
    return rng.choice(list(legal_actions))
