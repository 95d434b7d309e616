"""Any registered game that has an ``observation_tensor`` as a PettingZoo AEC environment
(one without it is a ``ValueError`` saying so), and any PettingZoo-style policy as a bot.
Needs the ``pettingzoo`` extra: ``pip install lostvalley-arena[pettingzoo]``.

The environment (:class:`ArenaEnv`, or :func:`env` by game name):

- agents ``player_0`` .. ``player_{n-1}``, one per seat, in seat order;
- chance nodes (dice, draws) are resolved inside, from the seed given to ``reset`` (the same
  seed and the same actions give the same game), so agents only ever see decisions;
- each agent observes ``{"observation": float32 array, "action_mask": int8 array}``: the
  game's ``State.observation_tensor(seat)`` (a fixed length per game and player count,
  documented in each game's README) and a mask over ``num_distinct_actions`` with ones at
  the legal actions (all zeros for an agent not on move);
- rewards come only at the end, from the final ranking: place ``p`` (0 = best) of ``n`` is
  worth ``1 - 2p / (n - 1)``, so +1 for the winner, -1 for the last, evenly spaced between;
  seats tied for a place share the worth of the places they fill (two tied first of three
  get +0.5 each; a match everyone ties, as when every explorer dies, gives 0 to all), so
  the rewards of a match add up to 0; every agent then terminates, with
  ``{"place": p, "score": s}`` (its place and its ``scores()``) as its ``info``;
- ``render()`` shows the board: ``render_mode="ansi"`` returns it as plain text, ``"human"``
  prints it in colour;
- ``max_steps``: where given, a game still going after that many decisions (the agents'
  steps, chance not counted) is truncated: every agent gets ``truncation`` true, a reward
  of 0 and ``{"steps": max_steps}`` as its ``info`` (no place: the game was not finished).
  None (the default): never; every shipped game ends by itself;
- ``num_players`` defaults to the fewest the game takes. ``reset``'s ``options``
  are ignored; the game's options are given to the constructor.

The other way round, :class:`PolicyBot` enters a trained policy (a function from that
observation dict to an action) in a tournament.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "arena.adapters.pettingzoo needs PettingZoo: pip install 'lostvalley-arena[pettingzoo]'"
    ) from exc

from arena.bot import Bot
from arena.game import CHANCE, Game, State, sample_chance


def reward_of_place(place: int, num_players: int) -> float:
    """The reward of finishing alone in ``place`` (0 = best): +1 first, -1 last, linear
    between."""
    return 1.0 - 2.0 * place / (num_players - 1)


def rewards_of_ranking(ranking: Sequence[int]) -> list[float]:
    """Each seat's reward for a final ``ranking`` (competition ranking, as ``State.ranking``
    gives it): seats tied for a place share the worth of the places they fill, so the
    rewards add up to 0 and a match that everyone ties is worth 0 to each, not a win."""
    # The mean of 1 - 2q / (n - 1) over the k places q = p .. p + k - 1, in one exact step.
    return [1.0 - (2 * place + ranking.count(place) - 1) / (len(ranking) - 1)
            for place in ranking]


def game_named(name: str) -> Game:
    """The installed game registered as ``name`` (its plugin imported here: trusted)."""
    from arena.plugins import require_registry

    found = require_registry()
    if name not in found.games:
        known = ", ".join(sorted(found.games))
        raise ValueError(f"no game {name!r} is installed (installed: {known})")
    cls = found.games[name].cls
    if cls is None:
        raise ValueError(f"game {name!r} is not loaded in this process")
    game: Game = cls()
    return game


def tensor_of(game: Game, state: State, seat: int) -> list[float]:
    """``state.observation_tensor(seat)``; for a game without one (it is optional), a
    ``ValueError`` that says so in one line, not ``NotImplementedError`` from inside."""
    if type(state).observation_tensor is State.observation_tensor:
        raise ValueError(
            f"game {game.name!r} has no observation_tensor, which a PettingZoo environment "
            f"observes: its State must implement observation_tensor(seat) (see the README's "
            f"Writing a game)")
    return state.observation_tensor(seat)


def encode(state: State, seat: int, num_actions: int) -> dict[str, Any]:
    """The observation the environment gives ``seat``: tensor and action mask."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return {"observation": np.asarray(state.observation_tensor(seat), dtype=np.float32),
            "action_mask": mask}


class ArenaEnv(AECEnv):  # type: ignore[misc]
    """A game of the arena as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, game: Game | str, num_players: int | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 max_steps: int | None = None):
        super().__init__()
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(
                max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a whole number of at least 1 or None, "
                             f"not {max_steps!r}")
        self.max_steps = max_steps
        self.steps = 0
        self.game = game_named(game) if isinstance(game, str) else game
        self.num_players = num_players or self.game.min_players
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": self.game.name}  # type: ignore[misc]
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        size = len(tensor_of(self.game, self._new_state(), 0))
        actions = self.game.num_distinct_actions
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.state: State = self._new_state()

    def _new_state(self) -> State:
        return self.game.new_initial_state(self.num_players, self.options)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self._new_state()
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        return encode(self.state, self.possible_agents.index(agent),
                      self.game.num_distinct_actions)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.state.legal_actions():
            raise ValueError(f"{agent} played {action!r}, not a legal action")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self.steps += 1
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance nodes from the seed; then select the seat on move, or end."""
        while self.state.current_player() == CHANCE:
            self.state.apply_action(sample_chance(self.state.chance_outcomes(), self._rng))
        if self.state.is_terminal():
            ranking = self.state.ranking()
            rewards = rewards_of_ranking(ranking)
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = rewards[seat]
                self.terminations[agent] = True
                self.infos[agent] = {"place": ranking[seat], "score": self.state.scores()[seat]}
            self.agent_selection = self.agents[0]
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for agent in self.possible_agents:
                self.rewards[agent] = 0.0
                self.truncations[agent] = True
                self.infos[agent] = {"steps": self.steps}
            self.agent_selection = self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def render(self) -> str | None:
        """The board, the game's ``render()`` with its rich markup read: ``"ansi"`` returns
        it as plain text, ``"human"`` prints it in its colours."""
        # rich is imported here: a stored bot's environment holds no rich, and a PolicyBot
        # imports this module there without ever rendering.
        from rich.console import Console
        from rich.errors import MarkupError
        from rich.text import Text

        board = self.state.render()
        try:
            text = Text.from_markup(board)
        except MarkupError:
            text = Text(board)
        if self.render_mode == "human":
            Console().print(text, highlight=False, soft_wrap=True)
            return None
        return text.plain

    def close(self) -> None:
        pass


def env(game: str, num_players: int | None = None, **kwargs: Any) -> ArenaEnv:
    """The AEC environment of the installed game ``game`` with ``num_players`` seats (by
    default the fewest the game takes); the keywords ``options`` (the game's options),
    ``render_mode`` (``"ansi"`` or ``"human"``) and ``max_steps`` (truncate a game after
    that many decisions) go to :class:`ArenaEnv`."""
    return ArenaEnv(game, num_players, **kwargs)


class PolicyBot(Bot):
    """A PettingZoo-style policy as a bot, so an agent trained on :class:`ArenaEnv` can
    enter a tournament. Subclass it with a ``name`` (and ``games``) and override
    :meth:`policy` (load a trained model in ``__init__``, once per match and seat; the
    entry's ``params`` arrive as ``self.params``).

    Each decision rebuilds a state from the bot's observation with the game's
    ``state_from_observation`` and encodes it exactly as the environment does, so the
    policy sees what it saw in training; an answer the mask does not allow is the bot's
    illegal move, as for any bot.

    The observation's length depends on ``num_players``, and ``arena check`` and ``arena
    submit`` play the fewest and the most players each game takes: pick a model per player
    count. A model file reaches the bot's wheel only as package data
    (``[tool.setuptools.package-data]`` in its ``pyproject.toml``; the README's
    *Reinforcement learning* section)."""

    def __init__(self, *, game: str, seat: int, num_players: int, seed: int,
                 **params: Any) -> None:
        super().__init__(game=game, seat=seat, num_players=num_players, seed=seed)
        self.params = params
        self.engine = game_named(game)

    def policy(self, observation: Mapping[str, Any]) -> int:
        """An action id for ``{"observation": array, "action_mask": array}``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement policy()")

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        state = self.engine.state_from_observation(observation, self.rng)
        return int(self.policy(encode(state, self.seat, self.engine.num_distinct_actions)))
