"""Hidden Nim: a game written from the README's *Writing a game* alone, as a stranger would.

2 to 4 players take 1, 2 or 3 stones from a heap in turn (actions 0, 1, 2); who takes the last
stone wins (place 0, score 1; every other seat shares place 1, score 0). Each seat is dealt a
hidden card, 1 to 3 (chance, ids 0 to 2), and may once play it (action 3) to take exactly that
many stones. After every take a die is rolled (chance, ids 0 to 5 for 1 to 6): on a 6 one
stone goes back on the heap, at most ``refills`` times a game. Options: ``stones`` (15) and
``refills`` (3).

What the shipped games do not have, it has: a hidden hand (``render_for``,
``action_to_string_for``, sampled by ``state_from_observation``), a chance node with more
outcomes than the decisions have ids, and an ``observation_tensor`` of its own,
``2 + 4 + 2n`` numbers: the heap's share of the start, the refills left, the observer's card
one-hot (played, 1, 2, 3), every seat's card played (absolute seats) and the seat on move
relative to the observer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from arena.game import CHANCE, TERMINAL, Game, InvalidOptions, State

TAKES = (0, 1, 2)
PLAY_CARD = 3
SIX = 5


class NimState(State):
    FIELDS = ("players", "start", "heap", "refills", "cards", "played", "to_move", "rolling",
              "winner")

    def __init__(self, players: int, stones: int, refills: int) -> None:
        self.players = players
        self.start = stones
        self.heap = stones
        self.refills = refills
        self.cards: list[int] = []  # dealt so far; 0 once played
        self.played = [False] * players
        self.to_move = 0
        self.rolling = False
        self.winner: int | None = None

    def dealing(self) -> bool:
        return len(self.cards) < self.players

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.dealing() or self.rolling else self.to_move

    def is_terminal(self) -> bool:
        return self.winner is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealing():
            return [(card, 1 / 3) for card in range(3)]
        return [(face, 1 / 6) for face in range(6)] if self.rolling else []

    def legal_actions(self) -> list[int]:
        seat = self.current_player()
        if seat == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        if seat == TERMINAL:
            return []
        legal = [take for take in TAKES if take + 1 <= self.heap]
        card = self.cards[seat]
        return [*legal, PLAY_CARD] if 0 < card <= self.heap else legal

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if self.dealing():
            self.cards.append(action + 1)
        elif self.rolling:
            self.rolling = False
            if action == SIX and self.refills > 0:
                self.refills -= 1
                self.heap += 1
            self.to_move = (self.to_move + 1) % self.players
        else:
            self.take(action)

    def take(self, action: int) -> None:
        seat = self.to_move
        if action == PLAY_CARD:
            stones, self.cards[seat], self.played[seat] = self.cards[seat], 0, True
        else:
            stones = action + 1
        self.heap -= stones
        if self.heap == 0:
            self.winner = seat
        else:
            self.rolling = True

    def clone(self) -> NimState:
        copy = NimState.__new__(NimState)
        for name in self.FIELDS:
            value = getattr(self, name)
            setattr(copy, name, list(value) if isinstance(value, list) else value)
        return copy

    def scores(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]

    def ranking(self) -> list[int]:
        return [0 if seat == self.winner else 1 for seat in range(self.players)]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"heap": self.heap, "start": self.start, "refills_left": self.refills,
                "seat": seat, "to_move": self.to_move,
                "my_card": self.cards[seat] if seat < len(self.cards) else None,
                "played": list(self.played)}

    def observation_tensor(self, seat: int) -> list[float]:
        card = [0.0] * 4
        card[self.cards[seat] if seat < len(self.cards) else 0] = 1.0
        on_move = [0.0] * self.players
        on_move[(self.to_move - seat) % self.players] = 1.0
        played = [1.0 if done else 0.0 for done in self.played]
        return [self.heap / self.start, float(self.refills), *card, *played, *on_move]

    def action_to_string(self, action: int) -> str:
        if self.dealing():
            return f"seat {len(self.cards)} is dealt card {action + 1}"
        if self.rolling:
            return f"die {action + 1}"
        if action == PLAY_CARD:
            return f"play card ({self.cards[self.to_move]})"
        return f"take {action + 1}"

    def action_to_string_for(self, seat: int, action: int) -> str:
        if self.dealing() and len(self.cards) != seat:
            return f"seat {len(self.cards)} is dealt a card"
        if not self.dealing() and not self.rolling and action == PLAY_CARD \
                and self.to_move != seat:
            return "play card"
        return self.action_to_string(action)

    def render(self) -> str:
        cards = ", ".join(str(card or "-") for card in self.cards)
        return f"[bold]heap[/bold] {self.heap} (refills left {self.refills}); cards: {cards}"

    def render_for(self, seat: int) -> str:
        if self.is_terminal():
            return self.render()
        mine = self.cards[seat] if seat < len(self.cards) else None
        return f"[bold]heap[/bold] {self.heap} (refills left {self.refills}); your card: {mine}"


class HiddenNim(Game):
    name = "hidden-nim"
    title = "Hidden Nim"
    min_players = 2
    max_players = 4
    num_distinct_actions = 6  # the die's six outcomes are action ids too
    default_options: ClassVar[Mapping[str, Any]] = {"stones": 15, "refills": 3}
    draw_probability = 0.3  # the losers always share a place: ties are common

    def new_initial_state(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> NimState:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidOptions(f"hidden-nim takes 2 to 4 players, not {num_players}")
        chosen = dict(self.default_options)
        for key, value in (options or {}).items():
            if key not in chosen:
                raise InvalidOptions(f"unknown option {key!r}")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidOptions(f"{key} must be a whole number, 0 or more")
            chosen[key] = value
        if chosen["stones"] < 1:
            raise InvalidOptions("stones must be 1 or more")
        return NimState(num_players, chosen["stones"], chosen["refills"])

    def state_from_observation(
        self, observation: Mapping[str, Any], rng: random.Random
    ) -> NimState:
        played = list(observation["played"])
        state = NimState(len(played), observation["start"], observation["refills_left"])
        state.heap, state.to_move = observation["heap"], observation["to_move"]
        state.played = played
        state.cards = [0 if done else rng.randint(1, 3) for done in played]
        state.cards[observation["seat"]] = observation["my_card"]
        return state
