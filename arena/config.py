"""Tournament configs: TOML in, a validated :class:`TournamentConfig` out.

Every mistake is reported as an :class:`~arena.errors.ArenaError` naming the
file and the key, so the CLI can print one clear line and exit with status 2.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, closest, unknown_name
from arena.game import InvalidOptions, as_written
from arena.plugins import Registry, nothing_loaded, require_registry
from arena.records import FORMULA_STARTS, Limits, MatchSpec, SeatSpec, is_label
from arena.schedule import MAX_TABLES, SEATINGS, count_matches, round_robin
from arena.seats.sandbox import SANDBOX_MODES, use_bubblewrap

PROBES_AT_ONCE = 8
"""Sandboxed bots started at once to check a config's entries."""

ISOLATIONS = ("process", "inprocess")
"""Where bots run: each in a sandboxed host process (the default), or in the referee's
process (trusted bots only)."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """A validated tournament: what to play, who plays, under which limits."""

    name: str
    game: str
    players: int
    rounds: int
    seed: int
    seating: str
    options: dict[str, Any]
    bots: tuple[SeatSpec, ...]
    limits: Limits
    game_plugin: str = ""
    """The plugin module that registers the game (sandboxed runs load it alone)."""

    def matches(self) -> Iterator[MatchSpec]:
        """Every match of the round robin, in canonical order."""
        plan = round_robin(
            game=self.game,
            options=self.options,
            entries=self.bots,
            players=self.players,
            rounds=self.rounds,
            seed=self.seed,
            seating=self.seating,
            limits=self.limits,
        )
        if not self.game_plugin:
            return plan
        return (replace(spec, game_plugin=self.game_plugin) for spec in plan)

    def total_matches(self) -> int:
        return count_matches(len(self.bots), self.players, self.rounds, self.seating)

    def to_json(self) -> dict[str, Any]:
        """The resolved config as JSON-able data (saved beside the results)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentConfig:
        return cls(
            name=data["name"],
            game=data["game"],
            players=data["players"],
            rounds=data["rounds"],
            seed=data["seed"],
            seating=data["seating"],
            options=dict(data["options"]),
            bots=tuple(SeatSpec(**bot) for bot in data["bots"]),
            limits=Limits(**data["limits"]),
            game_plugin=str(data.get("game_plugin", "")),
        )

    def same_plan(self, other: TournamentConfig) -> bool:
        """True if both configs schedule and play the same matches."""
        return json.dumps(self.to_json(), sort_keys=True) == json.dumps(
            other.to_json(), sort_keys=True
        )


def load(path: Path, found: Registry | None = None) -> TournamentConfig:
    """Read and validate the TOML config at ``path``."""
    try:
        # utf-8-sig: a byte-order mark (Windows Notepad writes one) is not TOML's "Invalid
        # statement" at line 1, column 1.
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ArenaError(f"config file not found: {path}") from None
    except OSError as exc:
        raise ArenaError(f"cannot read config {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:  # was a traceback
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise ArenaError(f"{path}: not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at line "
                         f"{line} (save the config as UTF-8)") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArenaError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # a config may come from anyone: 50,000 nested arrays were a traceback
        raise ArenaError(f"{path}: not a config the arena reads: arrays or tables nested too "
                         f"deep") from None
    try:
        return parse(raw, found)
    except ArenaError as exc:
        raise ArenaError(f"{path}: {exc}{_not_installed(path, str(exc))}") from None


def _not_installed(path: Path, error: str) -> str:
    """A note for a config beside the package of the bot it names that is unknown (``arena
    new-bot``'s ``tournament.toml`` run before ``pip install``): install it first."""
    try:
        pyproject = tomllib.loads((path.parent / "pyproject.toml").read_text(encoding="utf-8"))
        registered = sorted(pyproject["project"]["entry-points"]["arena"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return ""
    if not any(f"unknown bot {name!r}" in error for name in registered):
        return ""
    folder = path.parent.as_posix()
    folder = folder if folder.startswith((".", "/")) else f"./{folder}"
    return (f"; the package beside this config ({folder}) registers it: install it first "
            f"(pip install {folder}), or submit it (arena submit {folder})")


def parse(raw: Mapping[str, Any], found: Registry | None = None) -> TournamentConfig:
    """Validate a parsed TOML document against the installed games and bots (``found``, or
    what discovery finds: through sandboxed hosts unless ``isolation = "inprocess"``)."""
    _only_keys(raw, "top level", {"tournament", "bots", "limits"})
    limits = _limits(_table(raw, "limits", required=False))
    if found is None:
        found = registry_for(limits)
    tournament = _table(raw, "tournament", required=True)
    _only_keys(
        tournament,
        "[tournament]",
        {"name", "game", "players", "rounds", "seed", "seating", "options"},
    )
    name = _name(tournament)  # before any bot is started: it is said at once
    game_name = _get(tournament, "[tournament]", "game", str)
    game = found.game(game_name)
    players = _get(tournament, "[tournament]", "players", int, default=game.min_players)
    if not game.min_players <= players <= game.max_players:
        raise ArenaError(
            f"[tournament] players = {players}: {game_name} is for "
            f"{game.min_players} to {game.max_players} players"
        )
    options = _json_values(dict(_get(tournament, "[tournament]", "options", dict, default={})),
                           "[tournament] options")
    accepted = getattr(game, "default_options", None) or {}
    for option in options:
        if accepted and option not in accepted:
            raise unknown_name("option", option, accepted, where="[tournament] options")
    try:
        game.new_initial_state(players, options)
    except InvalidOptions as exc:
        raise ArenaError(f"[tournament] options: {exc}") from None
    except Exception as exc:  # a game that raises another error for them: was a traceback
        raise ArenaError(f"[tournament] options: {game_name} cannot start a game of "
                         f"{players} with {options}: {type(exc).__name__}: {exc}") from None
    seating = _get(tournament, "[tournament]", "seating", str, default="permutations")
    if seating not in SEATINGS:
        raise ArenaError(f"[tournament] seating = {_as_written(seating)}: use one of "
                         f"{', '.join(SEATINGS)}")
    rounds = _positive(_get(tournament, "[tournament]", "rounds", int, default=1), "rounds")
    bots = _bots(raw, found, game_name, players, limits, rounds)
    return TournamentConfig(
        name=name,
        game=game_name,
        players=players,
        rounds=rounds,
        seed=_get(tournament, "[tournament]", "seed", int, default=0),
        seating=seating,
        options=options,
        bots=bots,
        limits=limits,
        game_plugin=found.games[game_name].module if limits.isolation == "process" else "",
    )


def registry_for(limits: Limits) -> Registry:
    """The games and bots as a run with ``limits`` finds them."""
    if limits.isolation == "inprocess":
        return require_registry()
    from arena.botstore import add_to, default_store
    from arena.catalog import sandboxed_registry

    use_bubblewrap(limits.sandbox)  # refuses a "required" sandbox that is missing, first
    discovered = sandboxed_registry(limits.sandbox)
    found = Registry(games=dict(discovered.games), bots=dict(discovered.bots),
                     problems=list(discovered.problems), sandboxed=True)
    add_to(found, default_store())
    if not found.games and not found.bots:
        raise nothing_loaded(found)
    return found


def _bots(
    raw: Mapping[str, Any], found: Registry, game: str, players: int, limits: Limits,
    rounds: int,
) -> tuple[SeatSpec, ...]:
    entries = raw.get("bots", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ArenaError("[[bots]] must be an array of tables, one per bot entry")
    tables = math.comb(len(entries), players)
    if tables > MAX_TABLES:
        raise ArenaError(
            f"[[bots]] {len(entries)} bots in matches of {players} make {tables:,} tables "
            f"(at most {MAX_TABLES:,}): use fewer bots or fewer players"
        )
    _plan_size(rounds, tables)  # before the bots are started: it is said at once
    seats = tuple(
        _bot(entry, index, found, game, players, limits) for index, entry in enumerate(entries)
    )
    _refuse_stored_in_the_fallback(seats, limits)
    if limits.isolation == "process":
        _probe(seats, [str(entry["name"]) for entry in entries], game, players, limits)
    labels = [seat.label for seat in seats]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise ArenaError(
            f"[[bots]] label = {as_written(duplicates[0])} is used twice; give each entry its "
            f"own label"
        )
    if len(seats) < players:
        raise ArenaError(
            f"[[bots]] has {len(seats)} bot(s) but each match seats {players}: "
            f"add bots or lower [tournament] players"
        )
    return seats


def _refuse_stored_in_the_fallback(seats: tuple[SeatSpec, ...], limits: Limits) -> None:
    """Refuse ``sandbox = "fallback"`` for a config that seats a stored bot.

    A stored bot is a stranger's code (``arena submit`` is how strangers' bots come in), and
    the fallback is for bots you trust: its host reads and writes whatever the arena's user
    may (the results, the key that seals their rating checkpoints, ``~/.ssh``). A config may
    come from anyone, and one handed over with ``sandbox = "fallback"`` in it ran the store's
    bots so, where bubblewrap was installed and would have held them."""
    stored = next((seat for seat in seats if seat.environment), None)
    if stored is not None and limits.isolation == "process" and limits.sandbox == "fallback":
        raise ArenaError(f'[limits] sandbox = "fallback": bot {stored.bot!r} is a stored bot, '
                         f"a stranger's code, and the fallback lets a bot read and write what "
                         f'your user may; play stored bots in bubblewrap (sandbox = "auto" or '
                         f'"required")')


def refuse_stored(name: str, where: str, remedy: str = 'isolation = "process"') -> None:
    """An in-process run knows only the installed bots: a stored one is refused as one that
    plays only sandboxed, not as an unknown bot (``arena bots --store`` lists it), saying
    ``remedy``, what plays it sandboxed."""
    from arena.botstore import default_store, read_entries

    wanted = name.partition("@")
    for bot in read_entries(default_store()):
        if bot.name == wanted[0] and wanted[2] in ("", bot.version):
            raise ArenaError(f"{where}: bot {name!r} is a stored bot: it plays only sandboxed "
                             f"({remedy})")


def _played(game: str, found: Registry) -> str:
    """A game a bot declares, said with the closest installed names if none is called so."""
    if game in found.games:
        return game
    near = closest(game, found.games)
    meant = f": did you mean {' or '.join(map(repr, near))}?" if near else ""
    return f"{game!r}, which is no installed game{meant}"


def _bot(
    entry: Mapping[str, Any], index: int, found: Registry, game: str, players: int,
    limits: Limits,
) -> SeatSpec:
    where = f"[[bots]] entry {index + 1}"
    _only_keys(entry, where, {"name", "label", "params"})
    name = _get(entry, where, "name", str)
    if limits.isolation != "process" and name not in found.bots:
        refuse_stored(name, where)
    info = found.bot_info(name)
    if not info.supports(game):
        raise ArenaError(f"{where}: bot {name!r} does not play {game} (it plays "
                         f"{', '.join(_played(other, found) for other in info.games or ())})")
    if info.environment and limits.isolation != "process":
        raise ArenaError(f"{where}: bot {name!r} is a stored bot: it plays only sandboxed "
                         f"(isolation = \"process\")")
    default_label = f"{info.name}@{info.version}" if info.version else name
    seat = SeatSpec(
        label=_label(_get(entry, where, "label", str, default=default_label), where),
        bot=f"{info.name}@{info.version}" if info.version else name,
        params=_json_values(dict(_get(entry, where, "params", dict, default={})),
                            f"{where}: params"),
        plugin=info.module if limits.isolation == "process" else "",
        environment=info.environment,
    )
    for param in seat.params:
        if info.params is not None and param not in info.params:
            raise unknown_name("param", param, info.params, where=f"{where}: bot {name!r}")
    if limits.isolation != "process":  # sandboxed bots are probed together, see _probe
        problem = _construct(found.bot(name), seat, game, players)
        if problem:
            raise ArenaError(f"{where}: {refusal(name, seat.params, problem)}")
    return seat


def _probe(
    seats: tuple[SeatSpec, ...], names: list[str], game: str, players: int, limits: Limits
) -> None:
    """Start each entry's bot once in a sandboxed host with its params, side by side (a start
    mostly waits on a process: one after the other, 60 entries took half a minute); the
    first entry, in the config's order, whose bot fails is reported."""
    from arena.catalog import probe

    with ThreadPoolExecutor(max_workers=min(PROBES_AT_ONCE, max(1, len(seats)))) as pool:
        problems = list(pool.map(lambda seat: probe(seat, game, players, limits), seats))
    for index, (seat, name, problem) in enumerate(zip(seats, names, problems, strict=True)):
        if problem and "time allowed for start-up" in problem:
            raise ArenaError(f"[[bots]] entry {index + 1}: bot {name!r} did not start within "
                             f"startup_seconds = {limits.startup_seconds:g} (its import or its "
                             f"constructor with params {written_params(seat.params)} takes "
                             f"too long)")
        if problem:
            raise ArenaError(f"[[bots]] entry {index + 1}: {refusal(name, seat.params, problem)}")


def written_params(params: Mapping[str, Any]) -> str:
    """Params as a config's TOML writes them, ``{ risk = 0.8 }``, not as Python does,
    ``{'risk': 0.8}``: the refusal names what its reader typed."""
    pairs = (f"{key if key.isidentifier() else json.dumps(key)} = {as_written(value)}"
             for key, value in params.items())
    return "{ " + ", ".join(pairs) + " }" if params else "{}"


def refusal(name: str, params: dict[str, Any], problem: str) -> str:
    """Why a bot cannot be seated: its params, or, given none, the bot itself (a
    constructor that raises whatever it is given, an import that fails)."""
    if params:
        return f"bot {name!r} rejects params = {written_params(params)}: {problem}"
    return f"bot {name!r} fails to start (with no params): {problem}"


def _json_values(table: dict[str, Any], where: str) -> dict[str, Any]:
    """``table`` (a config's options or params), refused in one line if it holds a value
    JSON cannot carry: TOML's dates and times. The options and params travel as JSON (to a
    bot's host, into ``config.json``), and a config may come from anyone: the red team's
    ``params = { after = 1979-05-27T07:32:00Z }`` ended ``arena run`` in a ``TypeError``
    traceback as the run folder's ``config.json`` was written."""
    try:
        json.dumps(table)
    except (TypeError, ValueError):
        raise ArenaError(f"{where}: a date or a time is not a value the arena passes on "
                         f"(write it as a string, in quotes)") from None
    except RecursionError:
        raise ArenaError(f"{where}: nested too deep") from None
    return table


def _label(label: str, where: str) -> str:
    """A label is shown in tables and typed by users: visible, printable, one line."""
    if not is_label(label):
        raise ArenaError(
            f"{where}: label = {json.dumps(label)}: use visible, printable text "
            f"(no control characters or escape codes, no leading or trailing spaces, "
            f"not beginning with {' '.join(FORMULA_STARTS)}: a spreadsheet reads a formula)"
        )
    return label


def _construct(cls: type, seat: SeatSpec, game: str, players: int) -> str | None:
    """Construct a trusted bot once, so a wrong param fails now and not in every match."""
    try:
        cls(game=game, seat=0, num_players=players, seed=0, **seat.params)
    except (TypeError, ValueError) as exc:
        return str(exc)
    return None


def _limits(table: Mapping[str, Any]) -> Limits:
    _only_keys(table, "[limits]", {"isolation", "move_seconds", "bank_seconds",
                                   "startup_seconds", "memory_mb", "cpus", "sandbox"})
    isolation = _get(table, "[limits]", "isolation", str, default="process")
    if isolation not in ISOLATIONS:
        raise ArenaError(
            f"[limits] isolation = {_as_written(isolation)}: use one of: {', '.join(ISOLATIONS)}"
        )
    sandbox = _get(table, "[limits]", "sandbox", str, default="auto")
    if sandbox not in SANDBOX_MODES:
        raise ArenaError(f"[limits] sandbox = {_as_written(sandbox)}: use one of: "
                         f"{', '.join(SANDBOX_MODES)}")
    memory = _get(table, "[limits]", "memory_mb", int, default=1024)
    if not 64 <= memory <= MAX_MEMORY_MB:
        raise ArenaError(f"[limits] memory_mb = {memory}: must be from 64 to {MAX_MEMORY_MB:,} "
                         "(4 TiB)")
    written = _get(table, "[limits]", "cpus", (int, float), default=1.0)
    cpus = float(written)
    if not (math.isfinite(cpus) and 0.01 <= cpus <= 1024):  # as written: 0, not 0.0
        raise ArenaError(f"[limits] cpus = {written}: must be a number of cores from 0.01 to 1024")
    return Limits(
        move_seconds=_seconds(table, "move_seconds", 1.0, zero_allowed=False),
        bank_seconds=_seconds(table, "bank_seconds", 10.0, zero_allowed=False),
        isolation=isolation,
        startup_seconds=_seconds(table, "startup_seconds", 10.0, zero_allowed=False),
        memory_mb=memory,
        cpus=cpus,
        sandbox=sandbox,
    )


def _seconds(table: Mapping[str, Any], key: str, default: float, *, zero_allowed: bool) -> float:
    """A time limit: a finite number of seconds; a nan or an inf would let a bot hang the run."""
    value = float(_get(table, "[limits]", key, (int, float), default=default))
    low = value >= 0 if zero_allowed else value > 0
    if not (math.isfinite(value) and low and value <= MAX_SECONDS):
        bound = "0 or more" if zero_allowed else "more than 0"
        raise ArenaError(f"[limits] {key} = {value}: must be a finite number of seconds, {bound} "
                         f"and at most {MAX_SECONDS:,}")
    return value


MAX_SECONDS = 1_000_000
"""The longest time limit (11 days): ``startup_seconds = 1e300`` was taken, and every bot
then failed its start-up check with "OverflowError: timestamp too large", as if the bots
were broken."""
MAX_MEMORY_MB = 4 * 1024 * 1024
"""The largest ``memory_mb`` (4 TiB): a larger one overflowed the address-space limit set in
each bot's host, and every bot failed its start-up check with the host's traceback."""


MAX_NAME_BYTES = 255
"""The longest run name, in bytes of UTF-8: a folder name's limit on Linux file systems."""


def _name(tournament: Mapping[str, Any]) -> str:
    """The run's name: a plain folder name (``results/<name>/``), shown as it is written.

    A config may come from anyone, and its name is the first thing ``arena run`` prints: the
    red team's ``"x\\u001b]0;PWNED\\u0007\\u001b[2J"`` set the terminal's title and cleared its
    screen (and named the results folder so); a ``\\u0000`` in it, or a name past the file
    system's 255 bytes, ended the run in a traceback as the folder was made."""
    name: str = _get(tournament, "[tournament]", "name", str, default="tournament")
    if (not name or "/" in name or name.startswith(".") or not name.isprintable()
            or len(name.encode("utf-8", "replace")) > MAX_NAME_BYTES):
        # json.dumps: the name as TOML writes it, every code in it spelt out (\u001b).
        raise ArenaError(f"[tournament] name = {json.dumps(name[:100])}: use a plain folder "
                         f"name (not empty, no '/', not beginning with '.', printable: no "
                         f"control characters or escape codes, at most {MAX_NAME_BYTES} bytes)")
    return name


def _positive(value: int, key: str) -> int:
    if value < 1:
        raise ArenaError(f"[tournament] {key} = {value}: must be at least 1")
    return value


def _plan_size(rounds: int, tables: int) -> None:
    """Refuse a plan of more than ``MAX_TABLES`` tables in all rounds: years of play on any
    cluster, a mistyped number (``rounds = 1000000000`` ran the machine out of memory)."""
    if rounds * tables > MAX_TABLES:
        raise ArenaError(
            f"[tournament] rounds = {rounds:,}: {rounds:,} round(s) of {tables:,} table(s) make "
            f"{rounds * tables:,} tables (at most {MAX_TABLES:,}): use fewer rounds"
        )


def _table(raw: Mapping[str, Any], key: str, *, required: bool) -> Mapping[str, Any]:
    value = raw.get(key)
    if value is None:
        if required:
            raise ArenaError(f"missing [{key}] table")
        return {}
    if not isinstance(value, dict):
        raise ArenaError(f"[{key}] must be a table")
    return value


_MISSING = object()


def _get(
    table: Mapping[str, Any],
    where: str,
    key: str,
    kind: type | tuple[type, ...],
    default: Any = _MISSING,
) -> Any:
    value = table.get(key, default)
    if value is _MISSING:
        raise ArenaError(f"{where}: missing required key {key!r}")
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        expected = _KINDS.get(kind, "a number") if isinstance(kind, type) else "a number"
        raise ArenaError(f"{where}: {key} = {_as_written(value)} should be {expected}")
    return value


_as_written = as_written
"""A config's value as TOML writes it (``true``, ``"3"``), not as Python does (``True``,
``'3'``): what the user typed, to find it in the file."""


_KINDS = {int: "a whole number", str: "a string", dict: "a table", bool: "true or false"}
"""How a TOML user calls the value a key wants."""


def _only_keys(table: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise unknown_name("key", unknown[0], allowed, where=where)
