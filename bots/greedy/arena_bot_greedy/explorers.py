"""Greedy heuristic for Explorers of the Lost Valley: score every legal move, play the best.

Everything comes from the observation (card stats included), so a user's own
card file is handled too. A move is valued by how it changes the bot's lead
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

SPECIES_BONUS = {"pterodactylus": 1, "iguanodon": 1, "plesiosaurus": 2, "megalosaurus": 2}
TWO_DICE = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}

Observation = Mapping[str, Any]


def throw_chance(difficulty: int, bonus: int) -> float:
    """Chance that two dice plus ``bonus`` reach ``difficulty``."""
    return sum(p for total, p in TWO_DICE.items() if total + bonus >= difficulty)


def _points(obs: Observation, holdings: Sequence[Sequence[int]]) -> list[int]:
    """Every player's dinosaur points (trail bonus, lone-species doubling) for ``holdings``."""
    species_of, points_of = obs["cards"]["species"], obs["cards"]["points"]
    holders: dict[str, int] = {}
    for held in holdings:
        for species in {species_of[card] for card in held}:
            holders[species] = holders.get(species, 0) + 1
    result = []
    for player, held in zip(obs["players"], holdings, strict=True):
        per_species: dict[str, int] = {}
        for card in held:
            species = species_of[card]
            bonus = SPECIES_BONUS[species] if species in player["trail_tokens"] else 0
            per_species[species] = per_species.get(species, 0) + points_of[card] + bonus
        result.append(sum(v * (2 if holders[s] == 1 else 1) for s, v in per_species.items()))
    return result


def _margin(obs: Observation, holdings: Sequence[Sequence[int]]) -> float:
    points = _points(obs, holdings)
    seat: int = obs["seat"]
    return points[seat] - max(p for i, p in enumerate(points) if i != seat)


def _holdings(obs: Observation) -> list[list[int]]:
    return [list(player["dinosaurs"]) for player in obs["players"]]


def capture_gain(obs: Observation, card: int, seat: int | None = None,
                 victim: int | None = None) -> float:
    """How much capturing (or stealing from ``victim``) ``card`` widens the bot's lead."""
    holdings = _holdings(obs)
    before = _margin(obs, holdings)
    if victim is not None:
        holdings[victim].remove(card)
    holdings[obs["seat"] if seat is None else seat].append(card)
    return _margin(obs, holdings) - before


class Judge:
    """Values of the moves in one observation, for one level of ``risk``."""

    def __init__(self, obs: Observation, risk: float) -> None:
        self.obs, self.risk = obs, risk
        self.me = obs["players"][obs["seat"]]
        self.tokens: int = self.me["exploration_tokens"]
        self.token_value = 0.7 * (1.5 if self.tokens <= 2 else 1.0)
        self.min_success = 0.85 - 0.7 * risk
        self.bonus: int = self.me["throw_bonus"]

    def hunt(self, card: int) -> float:
        cards = self.obs["cards"]
        gain = capture_gain(self.obs, card)
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
        gains = [capture_gain(self.obs, c) if kind[c] == "dinosaur" else -1.0 for c in deck]
        return sum(gains) / len(gains)

    def discard(self, card: int) -> float:
        if self.obs["cards"]["kind"][card] != "dinosaur":
            return -0.2
        seat, players = self.obs["seat"], self.obs["players"]
        denial = max((-capture_gain(self.obs, card, seat=p["seat"]) for p in players
                      if p["seat"] != seat and not p["abandoned"]), default=0.0)
        return float(0.3 * max(0.0, denial) - 0.1)

    def base_camp(self) -> float:
        return float(self.token_value * (6 - self.tokens) - max(0.0, self.me["points"]) - 0.5)

    def abandon(self) -> float:
        seat = self.obs["seat"]
        lead = self.me["points"] - max(p["points"] for p in self.obs["players"]
                                       if p["seat"] != seat)
        future = 0.6 * self.tokens * (0.3 + self.obs["deck_count"] / 14)
        return float((lead - 1.0 if lead > 0 else lead - 3.0) * 0.5 - future)

    def steal(self, species: str) -> float:
        species_of = self.obs["cards"]["species"]
        held = sum(1 for c in self.me["dinosaurs"] if species_of[c] == species)
        single = self.me["trail_tokens"].count(species) == 1
        keep = SPECIES_BONUS[species] * (held + 0.5) if single else 0.0
        return max(map(self.ask_value, self.victims()), default=0.0) - keep

    def victims(self) -> list[int]:
        seat = self.obs["seat"]
        return [p["seat"] for p in self.obs["players"] if p["seat"] != seat and not p["abandoned"]]

    def ask_value(self, victim: int) -> float:
        """The expected gain of asking ``victim``, the die not yet thrown."""
        points = self.obs["cards"]["points"]
        held = self.obs["players"][victim]["dinosaurs"]
        faces = [max([self.steal_gain(card, victim) for card in held if points[card] <= face],
                     default=0.0) for face in range(1, 7)]
        return sum(faces) / 6

    def steal_gain(self, card: int, victim: int) -> float:
        return capture_gain(self.obs, card, victim=victim)


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
    return judge.steal(list(SPECIES_BONUS)[action - A.STEAL])


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
    gain = capture_gain(obs, card)
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
        gain = capture_gain(observation, observation["hound_card"])
        return A.HOUND_CAPTURE if gain >= 0 else A.HOUND_RELEASE
    return rng.choice(list(legal_actions))
