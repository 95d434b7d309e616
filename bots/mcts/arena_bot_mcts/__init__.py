"""The ``mcts`` bot: Monte Carlo tree search from the bot's own observation.

For each decision the bot rebuilds states consistent with its observation
with ``Game.state_from_observation`` (never the referee's state: it receives
none) and searches them with determinized UCT (:mod:`arena_bot_mcts.search`):
chance nodes sampled, rollouts guided by the game's evaluation
(:mod:`arena_bot_mcts.evaluate`) for ``rollout_depth`` decisions and then
scored by it.

Params (all optional):

- ``iterations`` (int, default 100 when ``seconds`` is not given):
  simulations per decision;
- ``seconds`` (float): a time limit per decision instead (or as well: the
  first limit reached stops). The bot gets no clock from the referee, so keep
  it well under the tournament's ``move_seconds`` (half is a safe share: the
  search overruns it by up to one simulation, the bot first rebuilds its
  states, and a sandboxed seat's observation travels as JSON inside the
  referee's clock). A search by ``seconds`` depends on the machine's speed,
  so it is not reproducible from a seed; one by ``iterations`` alone is;
- ``exploration`` (float, default 0.7): UCB1's constant, values being in [0, 1];
- ``rollout`` (``"guided"``, the default: at each rollout decision the move
  the evaluation likes best for the seat on move among five drawn at random,
  a random move one time in ten; ``"evaluate"``: uniformly random rollout
  moves, then the evaluation; ``"random"``: uniformly random rollouts to the
  end of the game, no evaluation);
- ``rollout_depth`` (int, default 4, 3 in Dinosaurs): decisions a rollout
  plays before the evaluation scores it; 0 scores the new node at once;
- ``determinizations`` (int, default 8): states sampled from the observation
  per decision, searched in turn;
- ``search`` (``"uct"``: the tree above, the default in Explorers;
  ``"rollouts"``: paired policy rollouts at the root
  (:mod:`arena_bot_mcts.rollouts`), the default in Lost Explorers (when the
  greedy package is installed) and in Dinosaurs, where they measured
  stronger). With ``"rollouts"`` the policy is, in Dinosaurs, the bot's own
  race policy and evaluation (:mod:`arena_bot_mcts.dinosaurs`, in expected
  turns), elsewhere the ``greedy`` bot's (package ``arena-bot-greedy``, the
  ``greedy`` extra); ``rollout_depth`` (default 20, 8 in Dinosaurs) counts
  the policy's decisions before the evaluation, ``candidates`` (int, default
  4, 2 in Dinosaurs) is how many moves are compared and ``margin`` (float,
  default 0, 1 in Dinosaurs) how many standard errors a challenger must beat
  the policy's move by; ``exploration`` and ``rollout`` do not apply.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena.bot import Bot
from arena.game import Game, State
from arena_bot_mcts import dinosaurs
from arena_bot_mcts.evaluate import evaluation
from arena_bot_mcts.rollouts import PairedRollouts, Policy, Rank
from arena_bot_mcts.search import Budget, Evaluate, Search
from engines.dinosaurs.game import DinosaursGame
from engines.explorers.game import ExplorersGame
from engines.lost_explorers.game import LostExplorersGame

GAMES: dict[str, type[Game]] = {
    game.name: game for game in (ExplorersGame, LostExplorersGame, DinosaursGame)}
"""The games the bot plays: every shipped game (each implements state_from_observation)."""

ROLLOUT_DEPTH = {"explorers-of-the-lost-valley": 4, "lost-explorers": 4,
                 "lost-valley-of-the-dinosaurs": 3}
"""Default decisions per rollout before the evaluation, per game. In Dinosaurs 3 did better
against greedy than 6 or 10 (longer guided rollouts of single steps drift: the evaluation is
a race of distances, and the few simulations go further when rollouts are short)."""

ROLLOUTS_DEPTH = {"lost-valley-of-the-dinosaurs": 8}
"""Default policy decisions per paired rollout (20 where not named)."""

CANDIDATES = {"lost-valley-of-the-dinosaurs": 2}
"""Default moves paired rollouts compare, per game (4 where not named)."""
MARGIN = {"lost-valley-of-the-dinosaurs": 2.0}
"""Default standard errors a challenger must beat the policy's move by (0 where not named). In
Dinosaurs 2: with 1, a runner-up as good as the policy's move replaced it about one time in
six on 20-odd paired samples, and the search scored 52.2 % against greedy over 1,200 matches,
below the policy alone (55.6 % over 3,000); with 2, 55.6 % (53.2-58.0 %) over 1,600 fresh
matches (bots/mcts/README.md)."""

ROLLOUTS = ("guided", "evaluate", "random")

SEARCHES = ("uct", "rollouts")
SEARCH = {"lost-explorers": "rollouts", "lost-valley-of-the-dinosaurs": "rollouts"}
"""The default search per game ("uct" where not named): the one measured stronger against
``greedy`` (Lost Explorers: paired rollouts 67.0-68.5 % over 200 matches, the tree 26.5 %;
bots/mcts/README.md)."""


OWN_POLICIES: dict[str, tuple[Policy, Evaluate, Rank]] = {
    "lost-valley-of-the-dinosaurs": (dinosaurs.policy, dinosaurs.race_values, dinosaurs.rank)}
"""Games whose paired rollouts play the bot's own policy and evaluation, not greedy's (and
take the policy's own runners-up as the challengers)."""


def greedy_policy(game: str) -> Policy:
    """The ``greedy`` bot's move (risk 0.5) from the seat's observation of a state."""
    try:
        from arena_bot_greedy import CHOOSERS
    except ImportError:
        raise ValueError("mcts: search 'rollouts' plays the greedy bot's policy; install its "
                         "package (pip install ./bots/greedy, or arena-bot-mcts[greedy])"
                         ) from None
    choose = CHOOSERS[game]

    def policy(state: State, player: int, legal: list[int], rng: random.Random) -> int:
        return int(choose(state.observation(player), legal, rng, 0.5))

    return policy


class MCTSBot(Bot):
    """Determinized Monte Carlo tree search with UCT; see the module's docstring."""

    name = "mcts"
    games = tuple(GAMES)

    def __init__(self, *, game: str, seat: int, num_players: int, seed: int,
                 iterations: int | None = None, seconds: float | None = None,
                 exploration: float = 0.7, rollout_depth: int | None = None,
                 rollout: str = "guided", determinizations: int = 8,
                 search: str | None = None, candidates: int | None = None,
                 margin: float | None = None) -> None:
        super().__init__(game=game, seat=seat, num_players=num_players, seed=seed)
        if game not in GAMES:
            raise ValueError(f"mcts: game {game!r} is not one of {sorted(GAMES)}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"mcts: rollout must be one of {ROLLOUTS}, got {rollout!r}")
        if search is None:
            search = SEARCH.get(game, "uct")
            if search == "rollouts" and game not in OWN_POLICIES and \
                    importlib.util.find_spec("arena_bot_greedy") is None:
                search = "uct"  # without the greedy package: the tree, which needs nothing
        if search not in SEARCHES:
            raise ValueError(f"mcts: search must be one of {SEARCHES}, got {search!r}")
        if iterations is None and seconds is None:
            iterations = 100
        if rollout_depth is None:
            rollout_depth = (ROLLOUTS_DEPTH.get(game, 20) if search == "rollouts"
                             else ROLLOUT_DEPTH.get(game, 12))
        depth = int(rollout_depth)
        if depth < 0:
            raise ValueError(f"mcts: rollout_depth must be 0 or more, got {rollout_depth!r}")
        candidates = CANDIDATES.get(game, 4) if candidates is None else candidates
        margin = MARGIN.get(game, 0.0) if margin is None else margin
        if int(candidates) < 1 or not float(margin) >= 0:
            raise ValueError(f"mcts: candidates must be 1 or more and margin 0 or more, got "
                             f"{candidates!r} and {margin!r}")
        self.search: Search | PairedRollouts
        if search == "rollouts":
            rank = None
            if game in OWN_POLICIES:
                policy, evaluate, rank = OWN_POLICIES[game]
            else:
                found = evaluation(game)
                if found is None:
                    raise ValueError(f"mcts: search 'rollouts' needs an evaluation of {game}")
                policy, evaluate = greedy_policy(game), found
            self.search = PairedRollouts(
                GAMES[game](), budget=Budget(iterations, seconds), rng=random.Random(seed),
                policy=policy, evaluate=evaluate, depth=depth,
                candidates=int(candidates), determinizations=int(determinizations),
                margin=float(margin), rank=rank)
            return
        self.search = Search(
            GAMES[game](), budget=Budget(iterations, seconds), rng=random.Random(seed),
            exploration=float(exploration), rollout_depth=depth,
            evaluate=evaluation(game) if rollout != "random" else None,
            guided=rollout == "guided", determinizations=int(determinizations))

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.search.choose(observation, legal_actions)
