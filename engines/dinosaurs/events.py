"""The adventure cards' effects, and the dinosaurs they move.

:class:`Events` carries out the card just drawn: it changes the table at
once (the swamp monster, kept cards, the slope's lava) or asks the drawer
for the choices the card leaves open (where lava goes, whom the pteranodon
carries, which dinosaurs move and where, which lair a captor takes its
captives to). When the card is done the turn goes on to the move, which
:mod:`engines.dinosaurs.rules` plays.
"""

from __future__ import annotations

from engines.dinosaurs import actions as A
from engines.dinosaurs import cards as C
from engines.dinosaurs import phases as P
from engines.dinosaurs.board import LAIR, RIVER, SWAMPY
from engines.dinosaurs.pieces import Pieces
from engines.dinosaurs.table import LAVA_PIECES

RESUME_CARD, RESUME_MOVE, RESUME_AFTER = range(3)
"""Where play goes on after a capture's lair is chosen (or a shot or secret path ends)."""
RESUME_NAMES = ("card", "move", "after-move")
"""The names of the ``RESUME_*`` values, as shown in observations."""

LAVA_PER_ERUPTION = 3
REPOSITIONS = 3


class Events(Pieces):
    """Carries out adventure cards; see :mod:`engines.dinosaurs.game` for the rules page."""

    __slots__ = ()

    def begin_move(self) -> None:
        """The second part of the turn (played by :class:`~engines.dinosaurs.rules.Rules`)."""
        raise NotImplementedError

    def go_on(self, resume: int) -> None:
        """Go back to the move or after it, once a shot's capture is settled."""
        raise NotImplementedError

    def end_turn(self) -> None:
        """End the turn (played by :class:`~engines.dinosaurs.rules.Rules`)."""
        raise NotImplementedError

    # ------------------------------------------------------------ cards

    def _draw(self, action: int) -> None:
        card = action - A.CARD
        self.deck[card] -= 1
        self.card = card
        _CARD_EFFECTS[card](self)

    def card_done(self) -> None:
        self.discard()
        self.begin_move()

    def discard(self) -> None:
        """The card carried out goes onto the discard pile, unless it is kept."""
        if self.card not in C.KEPT:
            self.discards[self.card] += 1

    def _offer(self, phase: int, choices: list[int]) -> None:
        """Ask the drawer to choose (``phase``) if there is a choice, else the card is done."""
        if choices:
            self.phase = phase
        else:
            self.card_done()

    def _erupt(self) -> None:
        slope, start = self.board.volcano_slope, self.board.lava_start
        if self.lava_placed < len(slope):
            self.lava[slope[self.lava_placed]] = True
            self.lava_placed += 1
            self.card_done()
        elif self.lava_placed >= LAVA_PIECES:
            self.lava_left = REPOSITIONS
            self._next_lift()
        elif not self.lava[start]:
            # G, the first piece to touch the valley, comes alone (a dinosaur there dams it)
            if start not in self.dinosaurs:
                self.place_lava(start)
            self.card_done()
        else:
            self.lava_left = min(LAVA_PER_ERUPTION, LAVA_PIECES - self.lava_placed)
            self._next_lava()

    def _next_lava(self) -> None:
        if self.lava_left and self.lava_targets():
            self.phase = P.LAVA_PLACE
        else:
            self.lava_left = 0
            self.card_done()

    def _lava_place(self, action: int) -> None:
        self.place_lava(action)
        self.lava_left -= 1
        self._next_lava()

    def _next_lift(self) -> None:
        if self.lava_left and self.lava_lifts():
            self.phase = P.LAVA_LIFT
        else:
            self.lava_left = 0
            self.card_done()

    def _lava_lift(self, action: int) -> None:
        if action == A.DONE:
            self.lava_left = 0
            self.card_done()
            return
        self.lifted, self.lava[action] = action, False
        self.phase = P.LAVA_DROP

    def _lava_drop(self, action: int) -> None:
        self.lava[action], self.lifted = True, -1
        self.lava_left -= 1
        self._next_lift()

    def _pteranodon(self) -> None:
        self._offer(P.PTERA_PICK, self.pteranodon_picks())

    def _ptera_pick(self, action: int) -> None:
        if action == A.DONE:
            self.card_done()
            return
        self.mover, self.phase = action - A.EXPLORER, P.PTERA_DROP

    def _put(self, action: int) -> None:
        """Put the chosen explorer on space ``action`` (pteranodon, swamp, escape, fight).
        Carried off by the pteranodon or fallen into the swamp, it leaves a coin it carried
        where it was; escaping from the swamp, it keeps it (the rulebook abandons the coin
        only when an explorer "falls into the swamp, is captured by a dinosaur or is carried
        off by the Pteranodon"; a captive freed by Dinosaurs Fight carries none). Stepping
        out of a lair onto a footprint is travelling into it; being flown or placed is not
        (ruling 9). Put on an ammunition dump, it has landed there: a gun holder's seat
        takes bullets (ruling 25)."""
        if self.phase != P.ESCAPE_DROP:
            self.drop_coin(self.mover)
        self.explorers[self.mover] = action
        if self.phase == P.FIGHT_DROP:
            self.walked[self.mover] |= 1 << action
        self.take_bullets(self.mover)
        self.mover = -1
        self.card_done()

    def _swamp_monster(self) -> None:
        self.move_monster()
        self.card_done()

    def _falls(self) -> None:
        self._offer(P.FALL_PICK, self.fall_picks())

    def _pick(self, action: int) -> None:
        """Choose the explorer a card acts on; the next phase asks where it goes."""
        self.mover = action - A.EXPLORER
        self.phase += 1

    def _escape(self) -> None:
        self._offer(P.ESCAPE_PICK, self.escape_picks())

    def _escape_pick(self, action: int) -> None:
        if action == A.DONE:
            self.card_done()
        else:
            self._pick(action)

    def _fight(self) -> None:
        self._offer(P.FIGHT_PICK, self.fight_picks())

    def _short_of_water(self) -> None:
        self._offer(P.WATER_PICK, self.water_picks())

    def _water_pick(self, action: int) -> None:
        number = action - A.EXPLORER
        if self.at_water(number):
            self.card_done()
            return
        self.mover, self.visited = number, self.walked[number]
        self.phase = P.WATER_ROLL

    def _water_roll(self, action: int) -> None:
        at = self.explorers[self.mover]
        self.roll = action - A.DICE
        swamp = at >= 0 and self.board.terrain[at] in SWAMPY
        self.steps_left = 1 if swamp else self.roll
        self._next_water_step()

    def _next_water_step(self) -> None:
        """The run goes on while it has points and a step (one outside the valley enters by
        an entry, as a move does); with none left it dies where it stands."""
        at = self.explorers[self.mover]
        if (self.steps_left and not (at >= 0 and self.board.terrain[at] == LAIR
                                     and self.guarded(at))
                and self.explorer_steps(self.mover, self.visited, water_run=True)):
            self.phase = P.WATER_STEP
            return
        self.kill(self.mover)  # the treasure stays on the last space of the run
        self.mover = -1
        self.card_done()

    def _water_step(self, action: int) -> None:
        """One step of the run. Reaching a river or a crossing saves the explorer; its last
        point landing there claims an abandoned coin ("by exact count", ruling 13); wading
        into a river ends the whole turn ("their turn ends in the water", ruling 23)."""
        number = self.mover
        self.explorers[number] = action
        self.visited |= 1 << action
        self.steps_left -= 1
        if not self.at_water(number):
            self._next_water_step()
            return
        if self.steps_left == 0 and self.coins[action] and not self.carrying[number]:
            self.coins[action] -= 1
            self.carrying[number] = True
        self.walked[number] = self.visited
        self.mover = -1
        if self.board.terrain[action] == RIVER:
            self.discard()
            self.card = -1
            self.end_turn()
        else:
            self.card_done()

    def _keep(self) -> None:
        if self.card == C.SECRET_PATH:
            self.secret_paths[self.player] += 1
        else:
            self.guns[self.player] += 1
        self.card_done()

    # ------------------------------------------------------------ dinosaurs

    def _dinosaur_card(self) -> None:
        moves = C.DINOSAUR_MOVES[self.card]
        if self.card == C.UNDERGROWTH:
            moves = (1,) * len(self.dinosaurs)
        self.dinosaur_moves, self.dinosaurs_moved = moves, 0
        self._next_dinosaur()

    def _next_dinosaur(self) -> None:
        self.dinosaur = -1
        if self.dinosaur_moves and self.dinosaurs_moved != (1 << len(self.dinosaurs)) - 1:
            self.phase = P.DINO_PICK
        else:
            self.dinosaur_moves = ()
            self.card_done()

    def _dinosaur_pick(self, action: int) -> None:
        dinosaur = action - A.DINOSAUR
        self.dinosaurs_moved |= 1 << dinosaur
        self.steps_left, self.dinosaur_moves = self.dinosaur_moves[0], self.dinosaur_moves[1:]
        self.dinosaur, self.visited = dinosaur, 1 << self.dinosaurs[dinosaur]
        self._next_dinosaur_step()

    def _next_dinosaur_step(self) -> None:
        if self.steps_left and self.dinosaur_steps(self.dinosaur, self.steps_left, self.visited):
            self.phase = P.DINO_STEP
        else:
            self._next_dinosaur()

    def _dinosaur_step(self, action: int) -> None:
        self.dinosaurs[self.dinosaur] = action
        self.visited |= 1 << action
        self.steps_left -= 1
        if self.board.terrain[action] == LAIR:
            self._eat_if_attack(action)
            self._next_dinosaur()
        elif action in self.explorers:
            self.capture(action, RESUME_CARD)
        else:
            self._next_dinosaur_step()

    def capture(self, space: int, resume: int) -> None:
        """The dinosaur that entered ``space`` captures everyone there; its move ends and
        the mover chooses the lair it takes them to. Carried coins stay on ``space``."""
        self.captured = tuple(self.explorers_at(space))
        for number in self.captured:
            self.drop_coin(number)
        self.resume, self.steps_left, self.phase = resume, 0, P.LAIR_PICK

    def _lair_pick(self, action: int) -> None:
        self.dinosaurs[self.dinosaur] = action
        for number in self.captured:
            self.explorers[number] = action
        self.captured = ()
        resume = self.resume
        self.resume = -1
        if resume == RESUME_CARD:
            self._eat_if_attack(action)
            self._next_dinosaur()
        else:
            self.dinosaur = -1
            self.go_on(resume)

    def _eat_if_attack(self, lair: int) -> None:
        """Dinosaur Attack: every explorer in a lair a dinosaur arrives in is eaten."""
        if self.card == C.DINOSAUR_ATTACK:
            self.kill_all_at(lair)


_CARD_EFFECTS = {
    C.VOLCANO: Events._erupt, C.PTERANODON: Events._pteranodon,
    C.SWAMP_MONSTER: Events._swamp_monster, C.FALLS_INTO_SWAMP: Events._falls,
    C.ESCAPE_SWAMP: Events._escape, C.RESTLESS: Events._dinosaur_card,
    C.UNDERGROWTH: Events._dinosaur_card, C.GRAZING: Events._dinosaur_card,
    C.DANGER_AHEAD: Events._dinosaur_card, C.DINOSAUR_ATTACK: Events._dinosaur_card,
    C.DINOSAURS_FIGHT: Events._fight, C.SHORT_OF_WATER: Events._short_of_water,
    C.SECRET_PATH: Events._keep, C.GUN: Events._keep,
}
