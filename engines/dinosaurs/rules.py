"""The rules that change the table: the turn and the explorer's move.

:class:`Rules` applies one action (already checked legal by the state) and
moves the match to its next decision or chance node. A turn is: draw a card
(chance) and carry it out (:mod:`engines.dinosaurs.events`), then move one
explorer, shooting and taking the secret path before or after; then the
next living seat clockwise.
"""

from __future__ import annotations

from engines.dinosaurs import actions as A
from engines.dinosaurs import cards as C
from engines.dinosaurs import phases as P
from engines.dinosaurs.board import CAVE, LAIR, RIVER, SWAMPY, TEMPLE
from engines.dinosaurs.events import RESUME_AFTER, RESUME_MOVE, Events
from engines.dinosaurs.table import (
    DEAD,
    EXPLORERS,
    MAX_TURNS,
    OUTSIDE,
)


class Rules(Events):
    """Applies actions; see :mod:`engines.dinosaurs.game` for the rules page."""

    __slots__ = ()

    def play(self, action: int) -> None:
        """Apply a legal ``action`` of the current phase. Once every explorer is dead the
        turn, and with it the match, ends at once ("If the game ends because all explorers
        have died"): nothing left of the card could change the result (ruling 27)."""
        _HANDLERS[self.phase](self, action)
        if self.phase != P.OVER and max(self.explorers) == DEAD:
            self.end_turn()

    # ------------------------------------------------------------ the turn

    def _first_player(self, action: int) -> None:
        self.player = action - A.FIRST_PLAYER
        self.start_turn()

    def start_turn(self) -> None:
        self.phase, self.card, self.path_explorer = P.DRAW, -1, -1
        self.roll = self.steps_left = self.visited = 0
        self.walked = [0] * len(self.explorers)
        self.reshuffle_if_depleted()

    def reshuffle_if_depleted(self) -> None:
        """"In the event the adventure cards are depleted, reshuffle the discard pile and
        continue to use them as the new draw deck": done before a draw, never during one."""
        if not any(self.deck):
            self.deck, self.discards = self.discards, [0] * len(self.discards)

    def end_turn(self) -> None:
        self.turns += 1
        self.mover = self.dinosaur = self.path_explorer = -1
        if all(at == DEAD for at in self.explorers):
            self.finish("deaths", self.leader())
        elif self.coins_in_play() == 0:
            self.finish("no-coins", self.leader())
        elif self.turns >= MAX_TURNS:
            self.finish("bound", self.leader())
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
        """Bullets to fire and secret paths to take (before or after the move). "Explorers use
        bullets": a seat with no explorer alive (its card killed the last one) fires none."""
        seat = self.player
        choices = []
        if self.bullets[seat] and self.alive(seat):
            choices += [A.SHOOT + dinosaur for dinosaur in range(len(self.dinosaurs))
                        if self.dinosaur_steps(dinosaur, 1, 1 << self.dinosaurs[dinosaur])]
        if self.secret_paths[seat]:
            choices += [A.SECRET + number - seat * EXPLORERS for number in self.own(seat)
                        if self.secret_path_open(number)]
        return choices

    def secret_path_open(self, number: int) -> bool:
        """Whether explorer ``number`` may take the secret path now: from a cave, or from the
        temple to a free cave; not back the way it came this turn ("Travel is one way
        only", ruling 24)."""
        if number == self.path_explorer:
            return False
        board, at = self.board, self.explorers[number]
        if at >= 0 and board.terrain[at] == CAVE:
            return True
        return at == board.temple and bool(self.free_caves())

    def free_caves(self) -> list[int]:
        return [cave for cave in self.board.caves
                if not self.lava[cave] and cave not in self.dinosaurs]

    def can_move(self, number: int) -> bool:
        at = self.explorers[number]
        if at == DEAD or (at >= 0 and self.guarded(at)):
            return False
        return self.can_exit(number) or bool(self.explorer_steps(number, self.walked[number]))

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
        # its start, unless it got there earlier this turn, was not travelled into (ruling 9)
        self.mover, self.visited = number, self.walked[number]
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
        if kind == TEMPLE:  # "An exact dice roll isn't needed to enter, but your turn will end."
            self.take_temple_coin(number)
            self.mover = -1
            self.end_turn()
        elif kind == RIVER and wading:  # "their turn ends in the water" (ruling 10)
            self.end_move(exact=self.steps_left == 0, turn_over=True)
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

    def end_move(self, exact: bool, turn_over: bool = False) -> None:
        """The move is over: an exact landing claims an abandoned coin; a gun holder ending
        on an ammunition dump takes bullets. ``turn_over`` (wading into a river) ends the
        whole turn too: no bullets or secret path after that move."""
        number = self.mover
        at = self.explorers[number]
        if exact and self.coins[at] and not self.carrying[number]:
            self.coins[at] -= 1
            self.carrying[number] = True
        self.take_bullets(number)
        self.mover = -1
        if turn_over:
            self.end_turn()
        else:
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

    def go_on(self, resume: int) -> None:
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
        self.walked[number] |= 1 << self.board.temple
        self.take_temple_coin(number)
        self._finish_extra()

    def _finish_extra(self) -> None:
        resume = self.resume
        self.resume = self.dinosaur = self.mover = -1
        self.go_on(resume)

    def _shoot_push(self, action: int) -> None:
        self.dinosaurs[self.dinosaur] = action
        if self.board.terrain[action] != LAIR and action in self.explorers:
            self.capture(action, self.resume)
        else:
            self._finish_extra()

    def _secret_drop(self, action: int) -> None:
        self.explorers[self.mover] = action
        self.walked[self.mover] |= 1 << action
        self._finish_extra()


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
