"""``arena new-bot NAME``: a ready bot package in ``./NAME/``, installable as it stands.

The package follows the layout of the shipped bots (``bots/random``): a
``pyproject.toml`` at the top naming its one package explicitly (so a
``results/`` folder made beside it later is never taken for a package) and
its entry point, the package ``arena_bot_<name>`` holding the bot class
(``bot.py``) and the plugin module that registers it (``plugin.py``), a
README, a test file that runs :func:`arena.testing.check_bot`, and a small
tournament against ``random``. Nothing in it imports Ray.

The package is named ``arena_bot_<name>``, not ``<name>``: a bot called
``random`` or ``json`` must not shadow the standard library's module.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template

from arena.errors import ArenaError

BOT_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
MAX_NAME = 40
DEFAULT_GAME = "explorers-of-the-lost-valley"
"""The game of the generated tournament when the bot plays every game."""


@dataclass(frozen=True, slots=True)
class Names:
    """What one bot name becomes in the package."""

    bot: str
    """The registry name (``cautious``), also the folder and the entry point's name."""
    package: str
    """The import package (``arena_bot_cautious``)."""
    distribution: str
    """The pip name (``arena-bot-cautious``)."""
    cls: str
    """The bot class (``CautiousBot``)."""


def names_for(name: str) -> Names:
    """The names of a new bot called ``name``; an :class:`ArenaError` if it is not valid."""
    if len(name) > MAX_NAME or not BOT_NAME.fullmatch(name):
        raise ArenaError(
            f"bot name {name!r} is not valid: use up to {MAX_NAME} lowercase letters and digits, "
            "starting with a letter, words joined by single '-' or '_' (e.g. cautious, my-bot)"
        )
    words = re.split(r"[-_]", name)
    cls = "".join(word.capitalize() for word in words)
    if not cls.endswith("Bot"):
        cls += "Bot"
    snake = "_".join(words)
    return Names(bot=name, package=f"arena_bot_{snake}",
                 distribution=f"arena-bot-{'-'.join(words)}", cls=cls)


def observation_doc(game_class: type) -> str:
    """Where the observation of ``game_class`` is documented: its engine's README if it has one."""
    try:
        module_file = Path(inspect.getfile(game_class))
    except (TypeError, OSError):
        return f"the documentation of {game_class.__module__}"
    readme = module_file.parent / "README.md"
    if not readme.is_file():
        return f"the documentation of {game_class.__module__}"
    folder = game_class.__module__.rsplit(".", 1)[0].replace(".", "/")
    return f"{folder}/README.md, section \"Observation\""


PYPROJECT = Template('''\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "$distribution"
version = "0.1.0"
description = "The $bot bot for Lost Valley Arena."
readme = "README.md"
requires-python = ">=3.11"
# Name here every library the bot imports ("numpy>=2", say): arena submit installs the bot
# with these alone, whatever the arena's own environment holds.
dependencies = ["lostvalley-arena"]

# The arena finds the bot through this entry point: it names the module whose
# @arena.hookimpl function registers the bot class.
[project.entry-points.arena]
$bot = "$package.plugin"

# The one package, named: folders made here later (results/, build/) are not packages.
[tool.setuptools]
packages = ["$package"]
# A file the bot reads from its package (a model, a table) goes into its wheel only if a
# [tool.setuptools.package-data] table names it: $package = ["models/*.npy"], say.

[tool.pytest.ini_options]
testpaths = ["tests"]
''')

INIT = Template('''\
"""The $bot bot for Lost Valley Arena: the class in bot.py, registered by plugin.py."""
''')

BOT = Template('''\
"""The ``$bot`` bot.

The arena builds one bot per match and seat and asks it for a move with
``act(observation, legal_actions)``: ``observation`` is what its seat may
see, a dict of JSON values
($observation_doc),
and ``legal_actions`` the ids of the actions it may take now; ``act``
returns one of them. Answering anything else, raising, or taking longer than the
tournament's ``move_seconds`` (plus its bank) forfeits the match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.bot import Bot


class $cls(Bot):
    """Plays the first legal action, or with probability ``explore`` a random one."""

    name = "$bot"
    games = $games

    def __init__(
        self, *, game: str, seat: int, num_players: int, seed: int, explore: float = 0.1
    ) -> None:
        """The arena passes ``game``, ``seat``, ``num_players`` and ``seed``; every other
        keyword is a param, given per entry of a tournament config
        (``params = { explore = 0.25 }``) or on the command line:
        ``arena check $bot --params '{"explore": 0.25}'``.

        ``explore`` (0 to 1, default 0.1): how often to play a uniformly random legal action.
        A bad value raises here, before the first move, and the check or match reports it.
        """
        super().__init__(game=game, seat=seat, num_players=num_players, seed=seed)
        self.explore = float(explore)
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"$bot: explore must be between 0 and 1, not {explore!r}")

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        # self.rng is seeded per match and seat: the same match replays the same moves.
        if self.rng.random() < self.explore:
            return self.rng.choice(legal_actions)
        return legal_actions[0]
''')

PLUGIN = Template('''\
"""The module the entry point names: it registers the bot with the arena."""

from __future__ import annotations

from collections.abc import Callable

import arena

from $package.bot import $cls


@arena.hookimpl
def arena_register_bots(register: Callable[[type], None]) -> None:
    register($cls)
''')

TEST = Template('''\
"""The arena's conformance checks on the bot: run ``pytest`` in this folder."""

from __future__ import annotations

import pytest
from arena.testing import check_bot

from $package.bot import $cls

GAMES = $test_games
"""The games it is checked in (installed when it was made; add one you install later)."""


@pytest.mark.parametrize("game", GAMES)
def test_it_keeps_the_bot_contract(game: str) -> None:
    # Every answer legal, the same seeds the same moves; raises AssertionError otherwise.
    report = check_bot($cls, game)
    assert report.decisions > 0


@pytest.mark.parametrize("explore", [0.0, 1.0])
def test_it_plays_at_either_end_of_its_param(explore: float) -> None:
    report = check_bot($cls, GAMES[0], params={"explore": explore})
    assert report.params == {"explore": explore}


def test_a_param_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="explore must be between 0 and 1"):
        $cls(game=GAMES[0], seat=0, num_players=2, seed=0, explore=2)
''')

TOURNAMENT = Template('''\
# A small tournament: $bot against random. Play it with
#     arena run $tournament_path
# (results go to results/$tournament/; add --resume to show them again;
# after you edit the bot, give the next try a folder of its own: --out results/$bot-2).
[tournament]
name = "$tournament"
game = "$tournament_game"
players = 2
rounds = 2
seed = 1
seating = "rotations"

[[bots]]
name = "$bot"
params = { explore = 0.1 }

[[bots]]
name = "random"

[limits]
move_seconds = 1.0
bank_seconds = 10.0
''')

README = Template('''\
# $distribution

The `$bot` bot for Lost Valley Arena: $plays.

Install it (beside the arena, in the same environment), then check and play it, from the
folder that holds this one:

$commands

After an edit (live with `pip install -e`; else install it again), run the tests and the check
again, and the tournament into a new folder: the first one holds its run already.

    arena run $tournament_path --out results/$bot-2  # then -3, -4, ...

## Layout

| file | what |
|---|---|
| `$package/bot.py` | the bot: `$cls.act(observation, legal_actions)` returns a legal id |
| `$package/plugin.py` | registers the bot (the entry point in `pyproject.toml` names this module) |
| `tests/test_$snake.py` | `arena.testing.check_bot` on it |
| `tournament.toml` | $bot against `random` in $tournament_game |

## What it sees and answers

`observation`: a dict of JSON values, what its seat may see
($observation_doc).
`legal_actions`: the ids it may answer now (sorted); the game's README lists what each id
means. `act` returns one of them.

## Params

`explore` (0 to 1, default 0.1): how often it plays a uniformly random legal action. Set it in a
tournament config (`params = { explore = 0.25 }` under its `[[bots]]` entry) or with
`arena check $bot --params '{"explore": 0.25}'`. Any keyword argument of the constructor
besides `game`, `seat`, `num_players` and `seed` is a param; the arena refuses params it does
not name.
''')


def files(
    name: str, game: str | None, installed: Mapping[str, type]
) -> dict[str, str]:
    """The package of a bot called ``name`` (playing ``game``, or every game if None):
    path relative to its folder -> text. ``installed``: the installed games by name."""
    names = names_for(name)
    if game is not None and game not in installed:
        raise ArenaError(f"unknown game {game!r}")
    tournament_game = game or (DEFAULT_GAME if DEFAULT_GAME in installed else min(installed))
    checked = [game] if game is not None else sorted(installed)
    if game is not None:
        doc = f"documented in the arena's {observation_doc(installed[game])}"
        plays = f"it plays `{game}`"
    else:
        doc = "documented per game in the arena:\n" + ";\n".join(
            f"{name} in {observation_doc(installed[name])}" for name in checked)
        plays = "it plays every game"
    values = {
        "bot": names.bot, "package": names.package, "distribution": names.distribution,
        "cls": names.cls, "snake": names.package.removeprefix("arena_bot_"),
        "games": "None  # every game" if game is None else _tuple_source([game]),
        "test_games": _tuple_source(checked), "commands": _commands(names.bot),
        "observation_doc": doc, "plays": plays,
        "tournament": f"{names.bot}-vs-random", "tournament_game": tournament_game,
        "tournament_path": f"{names.bot}/tournament.toml",
    }
    return {
        "pyproject.toml": PYPROJECT.substitute(values),
        "README.md": README.substitute(values),
        f"{names.package}/__init__.py": INIT.substitute(values),
        f"{names.package}/bot.py": BOT.substitute(values),
        f"{names.package}/plugin.py": PLUGIN.substitute(values),
        f"tests/test_{values['snake']}.py": TEST.substitute(values),
        "tournament.toml": TOURNAMENT.substitute(values),
    }


def _tuple_source(items: list[str]) -> str:
    """Python source of a tuple of strings, one per line when there are several."""
    if len(items) == 1:
        return f"({json.dumps(items[0])},)"
    return "(\n" + "".join(f"    {json.dumps(item)},\n" for item in items) + ")"


def _commands(bot: str) -> str:
    """The README's indented block of commands, each with what it does."""
    steps = [
        (f"pip install ./{bot}", f"or pip install -e ./{bot} while you edit it"),
        ("arena bots", f"lists {bot}"),
        (f"pytest {bot}", "the conformance checks in tests/"),
        (f"arena check {bot}", "plays it sandboxed, as a tournament seats it"),
        (f"arena run {bot}/tournament.toml", f"{bot} against random"),
    ]
    width = max(len(command) for command, _ in steps) + 2
    return "\n".join(f"    {command.ljust(width)}# {what}" for command, what in steps)


def create(
    name: str, parent: Path, game: str | None, installed: Mapping[str, type]
) -> tuple[Path, list[str]]:
    """Write the package of bot ``name`` into ``parent/name``; its folder and its files.
    Refuses (an :class:`ArenaError`) a folder that exists already."""
    folder = parent / name
    contents = files(name, game, installed)
    if folder.exists() or folder.is_symlink():
        raise ArenaError(f"{folder} exists already: new-bot never overwrites; "
                         "remove it or choose another name")
    try:
        for relative, text in contents.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"cannot write {folder}: {exc.strerror or exc}") from None
    return folder, list(contents)
