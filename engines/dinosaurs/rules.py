"""The rules that change the table: the turn, the cards, movement, captures.

:class:`Rules` applies one action (already checked legal by the state) and
moves the match to its next decision or chance node. A turn is: draw a card
(chance) and carry it out, then move one explorer, shooting and taking the
secret path before or after; then the next living seat clockwise.
"""

from __future__ import annotations

from engines.dinosaurs import actions as A
from engines.dinosaurs import cards as C
from engines.dinosaurs import phases as P
from engines.dinosaurs.board import AMMO_DUMP, CAVE, LAIR, RIVER, SWAMPY, TEMPLE
from engines.dinosaurs.pieces import Pieces
from engines.dinosaurs.table import (
    BULLETS_PER_DUMP,
    DEAD,
    EXPLORERS,
    LAVA_PIECES,
    MAX_TURNS,
    OUTSIDE,
)

RESUME_CARD, RESUME_MOVE, RESUME_AFTER = range(3)
"""Where play goes on after a capture's lair is chosen (or a shot or secret path ends)."""

LAVA_PER_ERUPTION = 3
REPOSITIONS = 3


class Rules(Pieces):
    """Applies actions; see :mod:`engines.dinosaurs.game` for the rules page."""

    __slots__ = ()

    def play(self, action: int) -> None:
        """Apply a legal ``action`` of the current phase."""
        _HANDLERS[self.phase](self, action)

    # ------------------------------------------------------------ the turn

    def _first_player(self, action: int) -> None:
        self.player = action - A.FIRST_PLAYER
        self.start_turn()

    def start_turn(self) -> None:
        self.phase, self.card, self.path_explorer = P.DRAW, -1, -1
        self.roll = self.steps_left = self.visited = 0
        if not any(self.deck):  # "reshuffle the discard pile and continue"
            self.deck, self.discards = self.discards, [0] * len(self.discards)

    def end_turn(self) -> None:
        self.turns += 1
        self.mover = self.dinosaur = self.path_explorer = -1
        if all(at == DEAD for at in self.explorers):
            self.finish("deaths")
        elif self.coins_in_play() == 0:
            self.finish("no-coins")
        elif self.turns >= MAX_TURNS:
            self.finish("bound")
        else:
            seat = self.player
            for _ in range(self.num_players):
                seat = (seat + 1) % self.num_players
                if self.alive(seat):
                    break
            self.player = seat
            self.start_turn()

    def finish(self, reason: str, winner: int = -1) -> None:
        self.phase, self.end_reason, self.winner = P.OVER, reason, winner

    # ------------------------------------------------------------ cards

    def _draw(self, action: int) -> None:
        card = action - A.CARD
        self.deck[card] -= 1
        self.card = card
        _CARD_EFFECTS[card](self)

    def card_done(self) -> None:
        if self.card not in C.KEPT:
            self.discards[self.card] += 1
        self.begin_move()

    def _offer(self, phase: int, choices: list[int]) -> None:
        """Ask the drawer to choose (``phase``) if there is a choice, else the card is done."""
        if choices:
            self.phase = phase
        else:
            self.card_done()

    def _erupt(self) -> None:
        slope = self.board.volcano_slope
        if self.lava_placed < len(slope):
            self.lava[slope[self.lava_placed]] = True
            self.lava_placed += 1
            self.card_done()
        elif self.lava_placed < LAVA_PIECES:
            self.lava_left = min(LAVA_PER_ERUPTION, LAVA_PIECES - self.lava_placed)
            start = self.board.lava_start
            if not self.lava[start]:
                if start in self.dinosaurs:
                    self.lava_left = 0  # the flow is dammed at the valley's edge this time
                else:
                    self.place_lava(start)
                    self.lava_left -= 1
            self._next_lava()
        else:
            self.lava_left = REPOSITIONS
            self._next_lift()

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
        """Put the chosen explorer on space ``action`` (pteranodon, swamp, escape, fight);
        a coin it carried stays where it was."""
        self.drop_coin(self.mover)
        self.explorers[self.mover] = action
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
        self.mover, self.visited = number, 1 << self.explorers[number]
        self.phase = P.WATER_ROLL

    def _water_roll(self, action: int) -> None:
        at = self.explorers[self.mover]
        self.roll = action - A.DICE
        self.steps_left = 1 if self.board.terrain[at] in SWAMPY else self.roll
        self._next_water_step()

    def _next_water_step(self) -> None:
        if self.steps_left and self.explorer_steps(self.mover, self.visited, water_run=True):
            self.phase = P.WATER_STEP
            return
        self.kill(self.mover)  # the treasure stays on the last space of the run
        self.mover = -1
        self.card_done()

    def _water_step(self, action: int) -> None:
        self.explorers[self.mover] = action
        self.visited |= 1 << action
        self.steps_left -= 1
        if self.at_water(self.mover):
            self.mover = -1
            self.card_done()
        else:
            self._next_water_step()

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
            self._resume(resume)

    def _eat_if_attack(self, lair: int) -> None:
        """Dinosaur Attack: every explorer in a lair a dinosaur arrives in is eaten."""
        if self.card == C.DINOSAUR_ATTACK:
            self.kill_all_at(lair)

    # ------------------------------------------------------------ moving an explorer

    def begin_move(self) -> None:
        self.card, self.phase = -1, P.MOVE_PICK
        if not self.move_choices():
            self.end_turn()

    def move_choices(self) -> list[int]:
        """The decisions open before the move: move an explorer, shoot, take the secret path
        (and "done" only when no explorer can move)."""
        movers = [A.EXPLORER + number for number in self.own(self.player) if self.can_move(number)]
        extras = self.extra_choices()
        if movers:
            return movers + extras
        return [A.DONE, *extras] if extras else []

    def extra_choices(self) -> list[int]:
        """Bullets to fire and secret paths to take (before or after the move)."""
        seat = self.player
        choices = []
        if self.bullets[seat]:
            choices += [A.SHOOT + dinosaur for dinosaur in range(len(self.dinosaurs))
                        if self.dinosaur_steps(dinosaur, 1, 1 << self.dinosaurs[dinosaur])]
        if self.secret_paths[seat]:
            choices += [A.SECRET + number - seat * EXPLORERS for number in self.own(seat)
                        if self.secret_path_open(number)]
        return choices

    def secret_path_open(self, number: int) -> bool:
        board, at = self.board, self.explorers[number]
        if at >= 0 and board.terrain[at] == CAVE:
            return True
        return at == board.temple and bool(self.free_caves())

    def free_caves(self) -> list[int]:
        return [cave for cave in self.board.caves
                if not self.lava[cave] and cave not in self.dinosaurs]

    def can_move(self, number: int) -> bool:
        at = self.explorers[number]
        if at == DEAD or number == self.path_explorer or (at >= 0 and self.guarded(at)):
            return False
        visited = 1 << at if at >= 0 else 0
        return self.can_exit(number) or bool(self.explorer_steps(number, visited))

    def _move_pick(self, action: int) -> None:
        family = A.kind(action)
        if family == "explorer":
            self._start_move(action - A.EXPLORER)
        elif action == A.DONE:
            self.end_turn()
        else:
            self._extra(action, RESUME_MOVE)

    def _start_move(self, number: int) -> None:
        at = self.explorers[number]
        self.mover, self.visited = number, 1 << at if at >= 0 else 0
        if at >= 0 and (self.board.terrain[at] == RIVER or self.board.terrain[at] in SWAMPY):
            self.roll, self.steps_left = 0, 1  # in water: one space, no dice
            self._next_step()
        else:
            self.phase = P.MOVE_ROLL

    def _move_roll(self, action: int) -> None:
        self.roll = action - A.DIE if action < A.DICE + 2 else action - A.DICE
        self.steps_left = self.roll
        self._next_step()

    def _next_step(self) -> None:
        if self.can_exit(self.mover) or self.explorer_steps(self.mover, self.visited):
            self.phase = P.MOVE_STEP
        else:
            self.end_move(exact=False)  # boxed in: the move ends where it is

    def _move_step(self, action: int) -> None:
        if action == A.EXIT:
            self._leave_valley()
            return
        number = self.mover
        here = self.explorers[number]
        wading = here < 0 or self.board.terrain[here] != RIVER
        self.explorers[number] = action
        self.visited |= 1 << action
        self.steps_left -= 1
        kind = self.board.terrain[action]
        if kind == TEMPLE:
            self.take_temple_coin(number)
            self.end_move(exact=False)
        elif kind == RIVER and wading:
            self.end_move(exact=self.steps_left == 0)
        elif self.steps_left == 0:
            self.end_move(exact=True)
        else:
            self._next_step()

    def _leave_valley(self) -> None:
        number, seat = self.mover, self.player
        self.explorers[number], self.mover = OUTSIDE, -1
        if self.carrying[number]:
            self.carrying[number] = False
            self.coins_out[seat] += 1
            if self.coins_out[seat] >= self.coins_to_win:
                self.finish("coins", seat)
                return
        self.after_move()

    def end_move(self, exact: bool) -> None:
        """The move is over: an exact landing claims an abandoned coin; a gun holder ending
        on an ammunition dump takes bullets."""
        number, seat = self.mover, self.player
        at = self.explorers[number]
        if exact and self.coins[at] and not self.carrying[number]:
            self.coins[at] -= 1
            self.carrying[number] = True
        if self.board.terrain[at] == AMMO_DUMP and self.guns[seat]:
            taken = min(BULLETS_PER_DUMP, self.bullet_supply)
            self.bullets[seat] += taken
            self.bullet_supply -= taken
        self.mover = -1
        self.after_move()

    def after_move(self) -> None:
        self.phase = P.AFTER_MOVE
        if not self.extra_choices():
            self.end_turn()

    def _after_move(self, action: int) -> None:
        if action == A.DONE:
            self.end_turn()
        else:
            self._extra(action, RESUME_AFTER)

    def _resume(self, resume: int) -> None:
        if resume == RESUME_MOVE:
            self.begin_move()
        else:
            self.after_move()

    # ------------------------------------------------------------ bullets and the secret path

    def _extra(self, action: int, resume: int) -> None:
        seat = self.player
        self.resume = resume
        if A.kind(action) == "shoot":
            self.bullets[seat] -= 1
            self.bullet_supply += 1
            self.dinosaur, self.phase = action - A.SHOOT, P.SHOOT_PUSH
            return
        number = seat * EXPLORERS + action - A.SECRET
        self.secret_paths[seat] -= 1
        self.discards[C.SECRET_PATH] += 1
        self.path_explorer = number
        if self.explorers[number] == self.board.temple:
            self.mover, self.phase = number, P.SECRET_DROP
            return
        self.explorers[number] = self.board.temple
        self.take_temple_coin(number)
        self._finish_extra()

    def _finish_extra(self) -> None:
        resume = self.resume
        self.resume = self.dinosaur = self.mover = -1
        self._resume(resume)

    def _shoot_push(self, action: int) -> None:
        self.dinosaurs[self.dinosaur] = action
        if self.board.terrain[action] != LAIR and action in self.explorers:
            self.capture(action, self.resume)
        else:
            self._finish_extra()

    def _secret_drop(self, action: int) -> None:
        self.explorers[self.mover] = action
        self._finish_extra()


_CARD_EFFECTS = {
    C.VOLCANO: Rules._erupt, C.PTERANODON: Rules._pteranodon,
    C.SWAMP_MONSTER: Rules._swamp_monster, C.FALLS_INTO_SWAMP: Rules._falls,
    C.ESCAPE_SWAMP: Rules._escape, C.RESTLESS: Rules._dinosaur_card,
    C.UNDERGROWTH: Rules._dinosaur_card, C.GRAZING: Rules._dinosaur_card,
    C.DANGER_AHEAD: Rules._dinosaur_card, C.DINOSAUR_ATTACK: Rules._dinosaur_card,
    C.DINOSAURS_FIGHT: Rules._fight, C.SHORT_OF_WATER: Rules._short_of_water,
    C.SECRET_PATH: Rules._keep, C.GUN: Rules._keep,
}

_HANDLERS = {
    P.FIRST_PLAYER: Rules._first_player, P.DRAW: Rules._draw, P.MOVE_ROLL: Rules._move_roll,
    P.WATER_ROLL: Rules._water_roll, P.MOVE_PICK: Rules._move_pick,
    P.MOVE_STEP: Rules._move_step, P.AFTER_MOVE: Rules._after_move,
    P.SHOOT_PUSH: Rules._shoot_push, P.LAIR_PICK: Rules._lair_pick,
    P.DINO_PICK: Rules._dinosaur_pick, P.DINO_STEP: Rules._dinosaur_step,
    P.LAVA_PLACE: Rules._lava_place, P.LAVA_LIFT: Rules._lava_lift,
    P.LAVA_DROP: Rules._lava_drop, P.PTERA_PICK: Rules._ptera_pick, P.PTERA_DROP: Rules._put,
    P.FALL_PICK: Rules._pick, P.FALL_DROP: Rules._put, P.ESCAPE_PICK: Rules._escape_pick,
    P.ESCAPE_DROP: Rules._put, P.FIGHT_PICK: Rules._pick, P.FIGHT_DROP: Rules._put,
    P.WATER_PICK: Rules._water_pick, P.WATER_STEP: Rules._water_step,
    P.SECRET_DROP: Rules._secret_drop,
}
