"""The rules: how each move changes the table.

:class:`Rules` applies chance outcomes and decisions already checked for
legality by :class:`~engines.explorers.state.ExplorersState`. After any move
resolves, :meth:`Rules._advance` decides what comes next: the end of the
adventure, the exhausted explorer's choice, a refill of the row, another
action of the same explorer, or the next explorer's turn.
"""

from __future__ import annotations

from engines.explorers import actions as A
from engines.explorers.cards import ALLIES, AMMUNITION_BOX, DINOSAUR, HAVEN_OF_PEACE, HOUND
from engines.explorers.phases import (
    AMMUNITION_CHOICE,
    DEAL_TRAIL,
    EXHAUSTED,
    FIRST_PLAYER,
    HOUND_CHOICE,
    HOUND_REVEAL,
    HUNT_ROLL,
    OVER,
    REROLL,
    REVEAL,
    SETUP_DISCARD,
    STEAL_DIE,
    STEAL_PICK,
    STEAL_VICTIM,
    TURN,
    TURN_END,
)
from engines.explorers.scoring import TROPHIES_TO_WIN, trophy_winners
from engines.explorers.table import (
    AMMUNITION,
    EXPLORATION_TOKENS,
    EXTRA_ACTION_COST,
    MAX_ADVENTURES,
    MAX_AMMUNITION_PER_HUNT,
    MAX_TURNS_PER_ADVENTURE,
    SETUP_DISCARDS,
    Table,
)


class Rules(Table):
    """The moves of the game as methods on the table."""

    __slots__ = ()

    def play(self, action: int) -> None:
        """Apply ``action``, already known to be legal, in the current phase."""
        phase = self.phase
        if phase in (TURN, TURN_END):
            self._play_turn(action)
        elif phase == HUNT_ROLL:
            self._hunt_roll(action - A.ROLL)
        elif phase in (SETUP_DISCARD, REVEAL, HOUND_REVEAL):
            self.deck.remove(action - A.DRAW)
            self._drawn(action - A.DRAW)
        elif phase == STEAL_DIE:
            self._steal_roll(action - A.DIE)
        elif phase < TURN:
            self._play_setup(action)
        else:
            self._play_answer(action)

    def _play_answer(self, action: int) -> None:
        """The decisions inside a move: re-roll, the exhausted's choice, an advantage's
        option, the stolen card."""
        if action == A.REROLL:
            self._reroll()
        elif action == A.STOP_HUNT:
            self._hunt_failed()
        elif action == A.BASE_CAMP:
            self._base_camp()
        elif action == A.ABANDON:
            self._abandon()
        elif action == A.RETURN_AMMUNITION:
            self._return_ammunition()
        elif action == A.KEEP_AMMUNITION:
            self._advance()
        elif action in (A.HOUND_CAPTURE, A.HOUND_RELEASE):
            self._hound_choice(action == A.HOUND_CAPTURE)
        elif action >= A.STEAL_FROM:
            self._ask(action - A.STEAL_FROM)
        else:
            self._steal_card(action - A.STEAL_CARD)

    # --------------------------------------------------------------- setup

    def _play_setup(self, action: int) -> None:
        if self.phase == FIRST_PLAYER:
            self.first_player = action - A.FIRST_PLAYER
            if self.advanced:
                self.phase = DEAL_TRAIL
                return
        else:
            species = action - A.TRAIL_DEAL
            self.trail_pool[species] -= 1
            self.trail_tokens[self.dealt // 2].append(species)
            self.dealt += 1
            if self.dealt < 2 * self.num_players:
                return
        self._start_adventure()

    def _drawn(self, card: int) -> None:
        if self.phase == SETUP_DISCARD:
            self.discards.append(card)
            self.setup_left -= 1
            if not self.setup_left:
                self.phase = REVEAL
        elif self.phase == REVEAL:
            self.row[self.row.index(-1)] = card
            if -1 in self.row:
                return
            if self.turns:
                self._advance()
            else:
                self._start_turn(self.first_player, False, False)
        elif self.cards.kind[card] == DINOSAUR:
            self.revealed = card
            self.phase = HOUND_CHOICE
        else:
            self.advantages[self.player].append(card)
            self._advance()

    # ---------------------------------------------------------- adventures

    def _start_adventure(self) -> None:
        n = self.num_players
        self.adventure += 1
        self.turns = 0
        self.deck = list(range(self.cards.size))
        self.row, self.discards = [-1, -1], []
        self.center_ammunition = AMMUNITION[n]
        self.exploration_tokens = [max(t, EXPLORATION_TOKENS) for t in self.exploration_tokens]
        self.ammunition = [0] * n
        self.dinosaurs, self.advantages = [[] for _ in range(n)], [[] for _ in range(n)]
        self.allied = [False] * n
        self.abandoned = [False] * n
        self.setup_left = SETUP_DISCARDS[n]
        self.phase = SETUP_DISCARD

    def _end_adventure(self) -> None:
        self._clear_turn()
        points = self.points_now()
        self.history.append(points)
        self.final_tokens = self.exploration_tokens[:]
        winners = trophy_winners(points, self.exploration_tokens)
        self.trophy_history.append(winners)
        for seat in winners:
            self.trophies[seat] += 1
        if max(self.trophies) >= TROPHIES_TO_WIN or self.adventure >= MAX_ADVENTURES:
            self.phase = OVER
            return
        self.first_player = (self.first_player - 1) % self.num_players
        self._start_adventure()

    # --------------------------------------------------------------- turns

    def _clear_turn(self) -> None:
        """No turn is under way (between adventures, once the match is over): nothing of
        the last turn (a bought action, a lock-out it passes on) shows in the observation."""
        self.actions_left, self.extra_bought, self.passing = 0, False, False
        self.discarded = self.stole = self.discard_locked = self.steal_locked = False

    def _start_turn(self, seat: int, discard_locked: bool, steal_locked: bool) -> None:
        self.player = seat
        self.turns += 1
        self.actions_left, self.extra_bought, self.passing = 1, False, False
        self.discarded = self.stole = False
        self.discard_locked, self.steal_locked = discard_locked, steal_locked
        self.phase = TURN

    def _next_turn(self) -> None:
        if self.turns >= MAX_TURNS_PER_ADVENTURE:
            self._end_adventure()
            return
        n = self.num_players
        for step in range(1, n + 1):
            following = (self.player + step) % n
            if not self.abandoned[following]:
                self._start_turn(following, self.discarded, self.stole)
                return
        self._end_adventure()

    def _advance(self) -> None:
        """After a move resolves: end the adventure, ask the exhausted, refill, or move on.

        With no action left, an explorer who may still buy one is asked first (``TURN_END``).
        """
        player = self.player
        if all(self.abandoned):
            self._end_adventure()
        elif self.exploration_tokens[player] == 0 and not self.abandoned[player]:
            # "He has to decide immediately": before the adventure ends too (ruling 14).
            self.phase = EXHAUSTED
        elif -1 in self.row and not self.deck:
            self._end_adventure()
        elif -1 in self.row:
            self.phase = REVEAL
        elif self.abandoned[player] or self.passing:
            self._next_turn()
        elif self.actions_left:
            self.phase = TURN
        elif self.may_buy_extra_action():
            self.phase = TURN_END
        else:
            self._next_turn()

    def _play_turn(self, action: int) -> None:
        if action == A.EXTRA_ACTION:
            self.exploration_tokens[self.player] -= EXTRA_ACTION_COST
            self.actions_left += 1
            self.extra_bought = True
            self.phase = TURN
            return
        if action == A.END_TURN:
            self._next_turn()
            return
        self.actions_left -= 1
        if action < A.DISCARD:
            self._take(action - A.TAKE)
        elif action < A.BASE_CAMP:
            self._discard(action - A.DISCARD)
        elif action == A.BASE_CAMP:
            self._base_camp()
        elif action == A.ABANDON:
            self._abandon()
        else:
            self._start_steal(action - A.STEAL)

    def _discard(self, slot: int) -> None:
        self.discards.append(self.row[slot])
        self.row[slot] = -1
        self.discarded = True
        self._advance()

    def _base_camp(self) -> None:
        seat = self.player
        self.exploration_tokens[seat] = max(self.exploration_tokens[seat], EXPLORATION_TOKENS)
        self.discards += self.dinosaurs[seat] + self.advantages[seat]
        self.dinosaurs[seat], self.advantages[seat] = [], []
        self.center_ammunition += self.ammunition[seat]
        self.ammunition[seat] = 0
        self._advance()

    def _abandon(self) -> None:
        self.abandoned[self.player] = True
        self._advance()

    def _take(self, slot: int) -> None:
        card = self.row[slot]
        kind = self.cards.kind[card]
        if kind == DINOSAUR:
            self.hunt_slot, self.hunt_rolls, self.hunt_ammunition = slot, 0, 0
            self.last_roll = 0  # no throw of this hunt yet: not the last hunt's
            self.phase = HUNT_ROLL
            return
        self.row[slot] = -1
        seat = self.player
        self.advantages[seat].append(card)
        if kind == HAVEN_OF_PEACE:
            self.exploration_tokens[seat] = max(self.exploration_tokens[seat],
                                                EXPLORATION_TOKENS)
        elif kind == ALLIES:
            self.actions_left += 1
            self.allied[seat] = True
        elif kind == AMMUNITION_BOX and self.ammunition[seat]:
            self.phase = AMMUNITION_CHOICE
            return
        elif kind == HOUND and self.deck:
            self.phase = HOUND_REVEAL
            return
        self._advance()

    def _return_ammunition(self) -> None:
        """"you can put back at the center of the table all the ammunition tokens you have
        used": all of them, whatever the centre holds."""
        seat = self.player
        self.center_ammunition += self.ammunition[seat]
        self.ammunition[seat] = 0
        self._advance()

    def _hound_choice(self, capture: bool) -> None:
        """"you can capture it without making a hunt throw and without receiving any
        damage"; a dinosaur let go is still the deck's next card, so it replaces the Hound."""
        if capture:
            self.dinosaurs[self.player].append(self.revealed)
        else:
            self.row[self.row.index(-1)] = self.revealed
        self.revealed = -1
        self._advance()

    # ----------------------------------------------------------- hunting

    def _hunt_roll(self, total: int) -> None:
        self.hunt_rolls += 1
        self.last_roll = total
        card = self.row[self.hunt_slot]
        if total + self.throw_bonus(self.player) >= self.cards.difficulty[card]:
            self.row[self.hunt_slot] = -1
            self.dinosaurs[self.player].append(card)
            self._end_hunt(self.cards.damage_success[card])
        elif (self.hunt_ammunition < MAX_AMMUNITION_PER_HUNT
              and self.center_ammunition > 0):
            self.phase = REROLL
        else:
            self._hunt_failed()

    def _reroll(self) -> None:
        self.center_ammunition -= 1
        self.ammunition[self.player] += 1
        self.hunt_ammunition += 1
        self.phase = HUNT_ROLL

    def _hunt_failed(self) -> None:
        """"If, after all, you still fail, inflict yourself as much damage as necessary ...
        and pass the turn": any action still due this turn is lost."""
        self.passing = True
        self._end_hunt(self.cards.damage_failure[self.row[self.hunt_slot]])

    def _end_hunt(self, damage: int) -> None:
        seat = self.player
        self.exploration_tokens[seat] = max(0, self.exploration_tokens[seat] - damage)
        self.hunt_slot = -1
        self._advance()

    # ----------------------------------------------------------- stealing

    def _start_steal(self, species: int) -> None:
        """"In your turn you can, as an action, discard one of your trail tokens. If you do so,
        you can politely ask for a dinosaur": with no one left to ask (every other explorer
        abandoned) the discard is all the action does (ruling 30)."""
        self.trail_tokens[self.player].remove(species)
        self.stole = True
        if self.victims():
            self.phase = STEAL_VICTIM
        else:
            self._end_steal()

    def _ask(self, victim: int) -> None:
        """The thief chooses whom to ask before the die: "If the chosen player doesn't have
        any dinosaur with that value (or less), you get nothing." """
        self.steal_victim = victim
        self.phase = STEAL_DIE

    def _steal_roll(self, face: int) -> None:
        self.steal_roll = face
        if self.stealable():
            self.phase = STEAL_PICK
        else:
            self._end_steal()

    def _steal_card(self, card: int) -> None:
        self.dinosaurs[self.steal_victim].remove(card)
        self.dinosaurs[self.player].append(card)
        self._end_steal()

    def _end_steal(self) -> None:
        self.steal_victim = -1
        self._advance()

