"""A race policy for Lost Valley of the Dinosaurs, in expected turns, from the observation.

The short game is a race: the first seat to carry a coin out of the valley
wins. This module values a position by how many turns each seat still needs,
and plays the move that leaves the seat furthest ahead in that race. It reads
nothing but the observation (the board included), so it works for a seat of
the real game and inside the search's rollouts (which ask each rebuilt state
for the observation of the seat on move). Where the rules decide what a card
allows (the pteranodon's safe and dangerous spaces) it asks the engine, on the
state rebuilt from that observation, rather than keep a copy of its rulings.

- **Turns, not steps** (:mod:`arena_bot_mcts.turns`): a dynamic programme over the
  distance ``d`` still to go, ``E[d] = 1 + sum_r P(r) E[d - r]`` with
  ``E[d <= 0] = 0``: one die when empty-handed, two dice carrying; the temple
  and the exit need no exact roll, so overshooting counts as arriving. An
  explorer's turns are the turns to the temple (while it has coins) plus the
  turns from the temple out, or the turns out when it carries a coin; from
  the swamp one ring step a turn to its exit arrow; from a guarded lair a
  wait of :data:`GUARDED_WAIT` turns first.
- **Danger in probability**: before the seat moves again each other seat
  draws a card; the chance that it is a dinosaur card reaching an explorer
  (the deck's known counts: one space for the five dinosaur kinds, two for
  Restless, Danger Ahead and the Attack, three for the Attack), or the swamp
  monster's step onto it. A hit explorer goes to a guarded lair (or dies);
  Falls into the Swamp takes our leader when no other explorer of ours stands
  where the card can take one (a *decoy*).
- **The seat's turns** are the expected minimum over its explorers, each
  explorer either spared or hit (two leaders enumerated, the rest as they
  are); a position's worth for a seat is the most dangerous other seat's
  turns minus its own.
- **Whole moves**: a step is valued by the best place the rest of the roll
  can reach from it (the temple or the exit if within reach, any space within
  the steps left otherwise); the explorer to move is the one whose move,
  averaged over the roll, leaves the seat furthest ahead. Cards are played
  by the same worth: a dinosaur, the pteranodon, lava, the swamp are sent
  where the race gains most.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena_bot_mcts.turns import (
    FAR,
    ONE_DIE,
    OUTSIDE,
    SWAMPY,
    TWO_DICE,
    plan_of,
)
from engines.dinosaurs.game import DinosaursGame

Observation = Mapping[str, Any]

EXIT, DONE, EXPLORER, DINOSAUR, SHOOT, SECRET = 160, 161, 162, 178, 184, 190
DEAD = -2
WATER = ("river", "crossing")
GAME = DinosaursGame()
"""The engine, asked where a card may put an explorer rather than keeping a copy of its
rulings."""
GUARDED_WAIT = 5.0
"""Turns a captive waits in a guarded lair before it can walk again (a fight, a swoop or the
dinosaur leaving)."""
LOST = 40.0
"""Turns of an explorer that is dead: never (a large finite number keeps the sums finite)."""

RACE_SCALE = 1.0
"""Turns ahead that make a seat's value (for the search's rollouts) about 73 %."""

DINOSAUR_CARDS = {"restless": 2, "undergrowth": 1, "grazing": 1, "danger-ahead": 2,
                  "dinosaur-attack": 3}
"""The reach of each dinosaur card: the most steps one dinosaur it moves may take."""


class Race:
    """One observation, arranged for valuing positions in turns; the lists may be changed
    to try a move (:meth:`worth` then values the changed position) and changed back."""

    def __init__(self, obs: Observation) -> None:
        self.plan = plan = plan_of(obs["board"])
        self.seat: int = obs["seat"]
        self.seats: int = obs["num_players"]
        self.positions: list[int] = [at for player in obs["players"]
                                     for at in player["explorers"]]
        self.carrying: list[bool] = [held for player in obs["players"]
                                     for held in player["carrying"]]
        self.coins_out: list[int] = [player["coins_out"] for player in obs["players"]]
        self.to_win: int = obs["coins_to_win"]
        self.dinosaurs: list[int] = list(obs["dinosaurs"])
        self.monster: int = obs["swamp_monster"]
        self.lava: set[int] = set(obs["lava"])
        self.roof: int = obs["temple_coins"]
        self.coins: dict[int, int] = {space: count for space, count in obs["coins"]}
        self.now: Mapping[str, Any] = obs["now"]
        self.obs = obs
        self._engine: Any = None
        self._ends: dict[tuple[int, int], float] = {}
        self._theirs: dict[tuple[Any, ...], float] = {}
        self._moves: dict[int, float] = {}
        deck: Mapping[str, int] = obs["deck"] if obs["deck_count"] else obs["discards"]
        total = sum(deck.values()) or 1
        self.reach = [0.0] * 5
        for kind, steps in DINOSAUR_CARDS.items():
            for k in range(1, steps + 1):
                self.reach[k] += deck.get(kind, 0) / total
        self.monster_chance = deck.get("swamp-monster", 0) / total
        self.fall_chance = deck.get("falls-into-swamp", 0) / total
        self.cycle = plan.one[plan.entry_to_temple] + plan.carry_from_temple
        ring = plan.ring
        self.monster_next = ring[(ring.index(self.monster) + 1) % len(ring)] \
            if self.monster in ring else -1

    def mine(self, number: int) -> bool:
        return number // 4 == self.seat

    def engine(self) -> Any:
        """The engine's state behind the observation, rebuilt once (nothing is hidden)."""
        if self._engine is None:
            self._engine = GAME.state_from_observation(self.obs, random.Random(0))
        return self._engine

    # ---------------------------------------------------------------- the value of a position

    def explorer_turns(self, number: int) -> tuple[float, float, float]:
        """(turns if spared, chance of being hit before its seat moves again, turns if hit)
        for explorer ``number`` where it now stands."""
        plan, at = self.plan, self.positions[number]
        if at == DEAD:
            return LOST, 0.0, LOST
        carrying = self.carrying[number]
        wait = 0.0
        if at >= 0 and plan.terrain[at] == "lair" and at in self.dinosaurs:
            wait = GUARDED_WAIT
        if carrying:
            turns = plan.carry_turns(at)
        elif self.roof:
            turns = plan.fetch_turns(at)
        elif self.coins:
            turns = plan.claim_turns(at, list(self.coins))
        else:
            return LOST, 0.0, LOST
        left = self.to_win - self.coins_out[number // 4] - 1
        turns += wait + left * self.cycle
        if at < 0 or at == plan.temple or wait:
            return turns, 0.0, turns
        others = self.seats - 1
        if at == self.monster_next:
            return turns, 1 - (1 - self.monster_chance) ** self.seats, LOST
        if plan.terrain[at] in SWAMPY:
            return turns, 0.0, turns
        near = min((plan.dinosaur_steps[d][at] for d in self.dinosaurs if d >= 0), default=FAR)
        chance = self.reach[near] if near < len(self.reach) else 0.0
        if not chance:
            return turns, 0.0, turns
        hit = GUARDED_WAIT + plan.fetch_turns(plan.lairs[0]) + left * self.cycle
        return turns, 1 - (1 - chance) ** others, max(hit, turns)

    def seat_turns(self, seat: int) -> float:
        """Expected turns until ``seat`` brings its coin out: the least over its explorers,
        each spared or hit (its two leaders enumerated); 0 once it has won."""
        if self.coins_out[seat] >= self.to_win:
            return 0.0
        plan = self.plan
        terms = sorted(self.explorer_turns(number) for number in range(4 * seat, 4 * seat + 4))
        # Falls into the Swamp: the seat's own next draw takes an explorer in the valley, the
        # leader only when no other (a decoy) can be taken.
        eligible = [number for number in range(4 * seat, 4 * seat + 4)
                    if self.positions[number] >= 0
                    and plan.terrain[self.positions[number]] not in SWAMPY
                    and plan.terrain[self.positions[number]] != "lair"]
        if len(eligible) == 1 and self.fall_chance:
            number = eligible[0]
            spared, chance, hit = self.explorer_turns(number)
            fall = 1 - (1 - self.fall_chance) ** min(spared, 3.0)
            index = terms.index((spared, chance, hit))
            swamp = spared + 3.0
            terms[index] = (spared, 1 - (1 - chance) * (1 - fall),
                            (chance * hit + fall * swamp) / (chance + fall) if chance + fall
                            else spared)
            terms.sort()
        (a, pa, ha), (b, pb, hb) = terms[0], terms[1]
        rest = min((term[0] for term in terms[2:]), default=LOST)
        return ((1 - pa) * (1 - pb) * min(a, b, rest) + (1 - pa) * pb * min(a, hb, rest)
                + pa * (1 - pb) * min(ha, b, rest) + pa * pb * min(ha, hb, rest))

    def worth(self, seat: int | None = None, moved: int = -1) -> float:
        """How far ``seat`` (default: ours) is ahead: the fewest turns another seat needs minus
        its own. ``moved``: only that seat's explorers changed since the last call with the
        same table (the others' turns are kept)."""
        seat = self.seat if seat is None else seat
        mine = self.seat_turns(seat)
        if mine == 0.0:
            return 100.0
        key = (seat, self.roof, len(self.coins), tuple(self.dinosaurs), len(self.lava))
        theirs = self._theirs.get(key) if moved == seat else None
        if theirs is None:
            theirs = self._theirs[key] = min(self.seat_turns(other) for other in range(self.seats)
                                             if other != seat)
        return theirs - mine

    # ---------------------------------------------------------------- trying changes

    def _with(self, changes: Sequence[tuple[int, int, bool]], seat: int | None = None) -> float:
        """:meth:`worth` with explorers moved: (number, space, carrying) each."""
        kept = [(number, self.positions[number], self.carrying[number])
                for number, _, _ in changes]
        for number, at, carrying in changes:
            self.positions[number], self.carrying[number] = at, carrying
        seats = {number // 4 for number, _, _ in changes}
        value = self.worth(seat, seats.pop() if len(seats) == 1 else -1)
        for number, at, carrying in reversed(kept):
            self.positions[number], self.carrying[number] = at, carrying
        return value

    def place(self, number: int, space: int) -> float:
        """Our worth with explorer ``number`` put on ``space`` by a card: a coin it carried
        is left where it stood."""
        carrying = self.carrying[number]
        dropped = carrying and space != self.positions[number]
        if dropped:
            self._drop(self.positions[number], 1)
        value = self.move_to(number, space, carrying and not dropped)
        if dropped:
            self._drop(self.positions[number], -1)
        return value

    def move_to(self, number: int, space: int, carrying: bool | None = None) -> float:
        """Our worth with explorer ``number`` walked to ``space`` (keeping its coin; taking
        one if it arrives in the temple)."""
        carrying = self.carrying[number] if carrying is None else carrying
        taking = space == self.plan.temple and not carrying and self.roof > 0
        self.roof -= taking
        value = self._with([(number, space, carrying or taking)])
        self.roof += taking
        return value

    def _drop(self, space: int, count: int) -> None:
        if space == self.plan.temple:
            self.roof += count
        elif space >= 0:
            self.coins[space] = self.coins.get(space, 0) + count
            if not self.coins[space]:
                del self.coins[space]

    def dinosaur_to(self, dinosaur: int, space: int) -> float:
        """Our worth with ``dinosaur`` on ``space``: explorers there are caught (taken to a
        guarded lair, their coins left there)."""
        old = self.dinosaurs[dinosaur]
        caught = [number for number, at in enumerate(self.positions) if at == space] \
            if self.plan.terrain[space] != "lair" else []
        lair = space
        if caught:
            free = [lair for lair in self.plan.lairs if lair not in self.dinosaurs or lair == old]
            lair = free[0] if free else space
        self.dinosaurs[dinosaur] = lair
        changes = []
        for number in caught:
            if self.carrying[number]:
                self._drop(space, 1)
            changes.append((number, lair, False))
        value = self._with(changes)
        for number in caught:
            if self.carrying[number]:
                self._drop(space, -1)
        self.dinosaurs[dinosaur] = old
        return value

    def dinosaur_best(self, dinosaur: int, start: int, steps: int) -> float:
        """The best worth ``dinosaur`` can make of up to ``steps`` more steps from ``start``."""
        plan, best = self.plan, -FAR * 1.0
        blocked = set(self.dinosaurs) | self.lava
        reach = plan.dinosaur_steps[start]
        for space in range(plan.size):
            if 0 < reach[space] <= steps and space not in blocked and (
                    plan.terrain[space] != "lair" or reach[space] == steps):
                best = max(best, self.dinosaur_to(dinosaur, space))
        return best if best > -FAR else self.dinosaur_to(dinosaur, start)

    # ---------------------------------------------------------------- whole moves

    def ends(self, number: int, start: int, left: int) -> list[tuple[int, int]]:
        """(steps, space) an explorer standing on ``start`` may end on with ``left`` points:
        any free space within reach (rivers and the temple end a move early); the exit is
        ``EXIT`` from an entry with a point to spare."""
        plan = self.plan
        steps = plan.steps[start]
        blocked = set(self.dinosaurs) | self.lava
        found = [(0, start)] if left == 0 else []
        if left == 0:
            return found
        for space in range(plan.size):
            if 0 < steps[space] <= left and space not in blocked:
                found.append((steps[space], space))
        if any(steps[entry] < left for entry in plan.entries) or (
                start in plan.entries):
            found.append((min(steps[entry] for entry in plan.entries) + 1, EXIT))
        return found

    def end_value(self, number: int, space: int) -> float:
        """Our worth once explorer ``number``'s move ends on ``space`` (kept per decision)."""
        key = (number, space)
        value = self._ends.get(key)
        if value is None:
            value = self._ends[key] = self._end_value(number, space)
        return value

    def _end_value(self, number: int, space: int) -> float:
        if space == EXIT:
            if self.carrying[number]:
                return 100.0 if self.coins_out[number // 4] + 1 >= self.to_win else \
                    self._with([(number, OUTSIDE, False)]) + self.cycle
            return self._with([(number, OUTSIDE, False)])
        if not self.carrying[number] and space in self.coins:
            self._drop(space, -1)
            value = self._with([(number, space, True)])
            self._drop(space, 1)
            return value
        return self.move_to(number, space)

    def move_value(self, number: int) -> float:
        """Our worth after moving explorer ``number``, averaged over its roll (kept per
        decision)."""
        value = self._moves.get(number)
        if value is None:
            value = self._moves[number] = self._move_value(number)
        return value

    def _move_value(self, number: int) -> float:
        plan, at = self.plan, self.positions[number]
        if at >= 0 and (plan.terrain[at] == "river" or plan.terrain[at] in SWAMPY):
            return self.best_end(number, at, 1)
        rolls = TWO_DICE if self.carrying[number] else ONE_DIE
        if at == OUTSIDE:
            return sum(p * max(self.best_end(number, entry, roll - 1)
                               for entry in plan.entries if entry not in self.dinosaurs)
                       for roll, p in rolls.items())
        return sum(p * self.best_end(number, at, roll) for roll, p in rolls.items())

    def best_end(self, number: int, start: int, left: int) -> float:
        plan = self.plan
        if start >= 0 and plan.terrain[start] in SWAMPY:
            turns = plan.swamp_out[start][0]
            options = [n for n in plan.neighbors[start]
                       if (n in plan.swamp_out and plan.swamp_out[n][0] < turns)
                       or (plan.walkable[n] and start in plan.exits)]
            options = [n for n in options if n not in self.dinosaurs and n != self.monster]
            return max((self.end_value(number, n) for n in options),
                       default=self.end_value(number, start))
        return max((self.end_value(number, space) - 0.01 * steps
                    for steps, space in self.ends(number, start, left)),
                   default=self.end_value(number, start))


# -------------------------------------------------------------------- the policy, per phase

def _move_pick(race: Race, action: int) -> float:
    if EXPLORER <= action < DINOSAUR:
        number = action - EXPLORER
        twin = (race.positions[number], race.carrying[number])
        for other in range(4 * race.seat, number):  # the same place moves the same
            if (race.positions[other], race.carrying[other]) == twin:
                return race.move_value(other)
    if action == DONE:
        return race.worth()
    if SHOOT <= action < SECRET:
        return _shoot(race, action - SHOOT) - 0.25  # fired only for a clear gain
    if action >= SECRET:
        number = race.seat * 4 + action - SECRET
        at = race.positions[number]
        if at == race.plan.temple:
            return max(race.move_to(number, cave) for cave in race.plan.caves) - 0.25
        return race.move_to(number, race.plan.temple) - 0.25
    return race.move_value(action - EXPLORER)


def _shoot(race: Race, dinosaur: int) -> float:
    at = race.dinosaurs[dinosaur]
    return race.dinosaur_best(dinosaur, at, 1)


def _move_step(race: Race, action: int) -> float:
    number = race.now["explorer"]
    if action == EXIT:
        return race.end_value(number, EXIT)
    plan, here = race.plan, race.positions[number]
    left = race.now["steps_left"] - 1
    kind = plan.terrain[action]
    wading = kind == "river" and (here < 0 or plan.terrain[here] != "river")
    if left <= 0 or kind == "temple" or wading:
        return race.end_value(number, action)
    return race.best_end(number, action, left)


def _after_move(race: Race, action: int) -> float:
    if action == DONE:
        return race.worth()
    return _move_pick(race, action)


def _push(race: Race, action: int) -> float:
    return race.dinosaur_to(race.now["dinosaur"], action)


def _lair(race: Race, action: int) -> float:
    dinosaur = race.now["dinosaur"]
    caught = race.now["captured"]
    old = race.dinosaurs[dinosaur] if dinosaur >= 0 else -1
    if dinosaur >= 0:
        race.dinosaurs[dinosaur] = action
    value = race._with([(number, action, False) for number in caught])
    if dinosaur >= 0:
        race.dinosaurs[dinosaur] = old
    return value


def _dinosaur_pick(race: Race, action: int) -> float:
    dinosaur = action - DINOSAUR
    moves = race.now["dinosaur_moves"]
    steps = moves[0] if moves else 1
    return race.dinosaur_best(dinosaur, race.dinosaurs[dinosaur], steps)


def _dinosaur_step(race: Race, action: int) -> float:
    dinosaur = race.now["dinosaur"]
    left = race.now["steps_left"] - 1
    caught = race.plan.terrain[action] != "lair" and action in race.positions
    if left <= 0 or caught:
        return race.dinosaur_to(dinosaur, action)
    return race.dinosaur_best(dinosaur, action, left)


def _lava(race: Race, action: int) -> float:
    caught = [number for number, at in enumerate(race.positions) if at == action]
    race.lava.add(action)
    value = race._with([(number, DEAD, False) for number in caught])
    race.lava.discard(action)
    return value


def _lava_lift(race: Race, action: int) -> float:
    if action == DONE:
        return race.worth() + 0.01
    race.lava.discard(action)
    value = race.worth()
    race.lava.add(action)
    return value


def _ptera_pick(race: Race, action: int) -> float:
    if action == DONE:
        return race.worth()
    number = action - EXPLORER
    spaces = _drops(race, number)
    return max((race.place(number, space) for space in spaces), default=race.worth())


def _drops(race: Race, number: int) -> list[int]:
    """Where the pteranodon may put explorer ``number`` (a safe space for our own, a dangerous
    one for an opponent's): the engine's answer once the explorer is picked, so the bot
    follows its rulings (RULINGS.md 16) instead of a copy that could fall behind them."""
    trial = race.engine().clone()
    trial.apply_action(EXPLORER + number)
    return list(trial.legal_actions())


def _ptera_drop(race: Race, action: int) -> float:
    return race.place(race.now["explorer"], action)


def _fall_pick(race: Race, action: int) -> float:
    number = action - EXPLORER
    return max((race.place(number, space) for space in race.plan.ring
                if space != race.monster), default=race.worth())


def _placed(race: Race, action: int) -> float:
    return race.place(race.now["explorer"], action)


def _escape_pick(race: Race, action: int) -> float:
    if action == DONE:
        return race.worth()
    number = action - EXPLORER
    plan, at = race.plan, race.positions[number]
    if at not in plan.swamp_out:
        return race.worth()
    return race.place(number, plan.swamp_out[at][1])


def _fight_pick(race: Race, action: int) -> float:
    number = action - EXPLORER
    plan, at = race.plan, race.positions[number]
    if at not in plan.lairs:
        return race.worth()
    marks = plan.footprints[plan.lairs.index(at)]
    return max(race.place(number, mark) for mark in marks)


def _water_pick(race: Race, action: int) -> float:
    number = action - EXPLORER
    alive = _water_chance(race, number)
    return alive * race.worth() + (1 - alive) * race._with([(number, DEAD, False)])


def _water_chance(race: Race, number: int) -> float:
    """The chance that explorer ``number``'s Short of Water run reaches water (RULINGS.md 23):
    sure in the water already; from the swamp one space, so only beside water; none from a
    guarded lair; from outside the valley its first point is the step onto an entry; else
    two dice against its walk to the nearest river or crossing."""
    plan, at = race.plan, race.positions[number]
    if at >= 0 and plan.terrain[at] in WATER:
        return 1.0
    if at >= 0 and plan.terrain[at] in SWAMPY:
        return float(any(plan.terrain[near] in WATER for near in plan.neighbors[at]))
    if at >= 0 and plan.terrain[at] == "lair" and at in race.dinosaurs:
        return 0.0
    if at == OUTSIDE:
        distance = 1 + min((plan.to_river[entry] for entry in plan.entries
                            if entry not in race.dinosaurs and entry not in race.lava),
                           default=FAR)
    else:
        distance = plan.to_river[at]
    return sum(p for total, p in TWO_DICE.items() if total >= distance)


def _water_step(race: Race, action: int) -> float:
    return -float(race.plan.to_river[action])


def _secret_drop(race: Race, action: int) -> float:
    return race.place(race.now["explorer"], action)


SCORES = {
    "move-pick": _move_pick, "move-step": _move_step, "after-move": _after_move,
    "shoot-push": _push, "lair-pick": _lair, "dinosaur-pick": _dinosaur_pick,
    "dinosaur-step": _dinosaur_step, "lava-place": _lava, "lava-lift": _lava_lift,
    "lava-drop": _lava, "pteranodon-pick": _ptera_pick, "pteranodon-drop": _ptera_drop,
    "fall-pick": _fall_pick, "fall-drop": _placed, "escape-pick": _escape_pick,
    "escape-drop": _placed, "fight-pick": _fight_pick, "fight-drop": _placed,
    "water-pick": _water_pick, "water-step": _water_step, "secret-drop": _secret_drop,
}


def choose(observation: Observation, legal_actions: Sequence[int], rng: random.Random) -> int:
    """The legal action that leaves the seat furthest ahead in the race (ties by ``rng``)."""
    return ranked(observation, legal_actions, rng)[0]


def ranked(observation: Observation, legal_actions: Sequence[int],
           rng: random.Random) -> list[int]:
    """The legal actions, the one that leaves the seat furthest ahead first (ties by
    ``rng``)."""
    if len(legal_actions) == 1:
        return [legal_actions[0]]
    score = SCORES.get(observation["phase"])
    if score is None:
        shuffled = list(legal_actions)
        rng.shuffle(shuffled)
        return shuffled
    race = Race(observation)
    keys = {action: (score(race, action), rng.random()) for action in legal_actions}
    return sorted(legal_actions, key=lambda action: keys[action], reverse=True)


# -------------------------------------------------------------------- for the search

def policy(state: Any, player: int, legal: list[int], rng: random.Random) -> int:
    """:func:`choose` for ``player`` on a (rebuilt) state: it reads only the observation."""
    return choose(state.observation(player), legal, rng)


def rank(state: Any, player: int, legal: list[int], rng: random.Random) -> list[int]:
    """:func:`ranked` for ``player`` on a (rebuilt) state, from its observation."""
    return ranked(state.observation(player), legal, rng)


def race_values(state: Any) -> list[float]:
    """Per seat, a value in [0, 1] of a state that is not over: a logistic of how many turns
    it is ahead of the fewest another seat needs (:data:`RACE_SCALE` turns for 73 %)."""
    race = Race(state.observation(0))
    turns = [race.seat_turns(seat) for seat in range(race.seats)]
    values = []
    for seat, mine in enumerate(turns):
        theirs = min(turn for other, turn in enumerate(turns) if other != seat)
        lead = max(-50.0, min(50.0, (theirs - mine) / RACE_SCALE))
        values.append(1.0 / (1.0 + math.exp(-lead)))
    return values
