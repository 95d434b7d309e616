"""Scoring: adventure points, the trophy, and the match's ranking keys."""

from __future__ import annotations

from collections.abc import Sequence

from engines.explorers.cards import SPECIES, TRAIL_BONUS, CardSet

TROPHIES_TO_WIN = 2
"""Trophies that end the match: "The first player to have two trophies is the absolute
winner of the game." (the rulebook)."""


def species_holders(cards: CardSet, dinosaurs: Sequence[Sequence[int]]) -> list[int]:
    """How many players hold at least one dinosaur of each species."""
    holders = [0] * len(SPECIES)
    for held in dinosaurs:
        for species in {cards.species[card] for card in held}:
            holders[species] += 1
    return holders


def dinosaur_points(cards: CardSet, held: Sequence[int], trail_tokens: Sequence[int],
                    holders: Sequence[int]) -> int:
    """Printed points plus trail bonuses, doubled for a species nobody else holds.

    The trail bonus counts once per species however many identical tokens the
    player keeps, and is added before the doubling (advanced rules).
    """
    per_species = [0] * len(SPECIES)
    for card in held:
        species = cards.species[card]
        bonus = TRAIL_BONUS[species] if species in trail_tokens else 0
        per_species[species] += cards.points[card] + bonus
    return sum(points * 2 if holders[species] == 1 else points
               for species, points in enumerate(per_species))


def adventure_points(cards: CardSet, dinosaurs: Sequence[Sequence[int]],
                     advantages: Sequence[Sequence[int]], ammunition: Sequence[int],
                     trail_tokens: Sequence[Sequence[int]]) -> list[int]:
    """Every player's points for the adventure as it stands now.

    Dinosaurs score (see :func:`dinosaur_points`); each ammunition token and
    each advantage card held subtracts one point.
    """
    holders = species_holders(cards, dinosaurs)
    return [dinosaur_points(cards, dinosaurs[seat], trail_tokens[seat], holders)
            - ammunition[seat] - len(advantages[seat]) for seat in range(len(dinosaurs))]


def trophy_winners(points: Sequence[int], exploration_tokens: Sequence[int]) -> list[int]:
    """Seats taking a trophy: most points, then most exploration tokens; ties all take one."""
    best = max(points)
    tied = [seat for seat, value in enumerate(points) if value == best]
    most_tokens = max(exploration_tokens[seat] for seat in tied)
    return [seat for seat in tied if exploration_tokens[seat] == most_tokens]


def ranking_keys(trophies: Sequence[int], history: Sequence[Sequence[int]],
                 final_tokens: Sequence[int]) -> list[tuple[int, int, int]]:
    """Per-seat match keys, larger is better: trophies, total points, final tokens.

    Seats holding two trophies are the absolute winners, all of them first (several take
    their second trophy in the same adventure after a tie): points and tokens only order
    the places below them (RULINGS.md, ruling 27).
    """
    return [(trophies[seat], 0, 0) if trophies[seat] >= TROPHIES_TO_WIN
            else (trophies[seat], sum(points[seat] for points in history), final_tokens[seat])
            for seat in range(len(trophies))]
