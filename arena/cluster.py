"""Playing many matches on Ray: the only module that imports ``ray``.

Matches go out in batches sized to about ``batch_seconds`` of work (the size
adapts to the measured match time; at most ``max_batch`` matches, a bound that
only the quickest matches reach: Ray's cost per batch, about a millisecond, is
then spread over enough of them), with a bounded number of batches in
flight (one queued behind each running one when the workers have the
cluster's CPUs to themselves, else exactly ``workers``), and come back as
they finish (``ray.wait``), not in submission order. The matches are taken
from the plan as they go out (a look-ahead of a few batches), so a plan of
millions is never held in memory. If a worker dies, the
matches of its batch that were not recorded go out again one by one (the last
try of one with its in-process bots in sandboxed seats: :func:`contained`); a
match that fails ``max_attempts`` times is
reported to ``on_failure`` instead, and
so, at once and without a retry, is one that cannot be set up (the game
rejects its options) or whose engine raises. A match id is handed to
``on_result`` at most once.

Each result's line of ``matches.jsonl`` is encoded by the worker that played
it (:func:`arena.store.encoded`), since the driver, one process for the whole
cluster, must keep up with every worker. When the driver has time to spare
(it spent less than :data:`DRIVER_ENCODES_BELOW` of the last
:data:`BALANCE_SECONDS` handling results: few workers, or long matches), the
batches go out asking for whole results instead and the driver encodes them
(``RunStore.append_all``): the workers play on at once. It hands the encoding back
above :data:`WORKERS_ENCODE_ABOVE`. The lines are the same either way.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import os
import socket
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

import ray
import ray._private.worker as ray_worker
from ray.exceptions import LocalRayletDiedError, RayError

from arena import reaper
from arena.errors import ArenaError
from arena.match import EngineError, play_match
from arena.records import MatchResult, MatchSpec, plain
from arena.seats import cgroups
from arena.store import encoded, file_size_limit, size_limit_text


@dataclass(frozen=True, slots=True)
class Failed:
    """A match that could not be played, and why."""

    id: str
    reason: str


DRIVER_ENCODES_BELOW = 0.25
"""The driver's busy share (receiving and handling results) under which it takes the
encoding of the lines from the workers."""
WORKERS_ENCODE_ABOVE = 0.5
"""The driver's busy share above which the workers encode the lines again."""
BALANCE_SECONDS = 0.25
"""How often the driver weighs its busy share."""


def play_batch(specs: list[MatchSpec], encode: bool = True) -> list[MatchResult | Failed]:
    """Play ``specs`` in order in this process (the body of the Ray task); each result
    carries its encoded JSON line (see :func:`arena.store.encoded`), or is whole when not
    ``encode`` (the driver encodes it)."""
    outcomes: list[MatchResult | Failed] = []
    for spec in specs:
        try:
            result = play_match(spec)
            outcomes.append(encoded(result) if encode else result)
        except EngineError as exc:
            outcomes.append(Failed(spec.id, plain(str(exc))))
        except Exception as exc:  # this match's fault, not the worker's: no retry
            outcomes.append(Failed(spec.id, plain(f"{type(exc).__name__}: {exc}")))
    return outcomes


class ClusterLost(ArenaError):
    """The Ray head (its GCS) stopped answering mid-run: the cluster is gone."""


HEAD_PATIENCE_SECONDS = 20.0
"""How long the Ray head may go unanswered, while no batch finishes, before the run stops.
Ray's own driver waits 60 s (``gcs_rpc_server_reconnect_timeout_s``) and then ends the
process on the spot, without a word to the user and without the final table: a run whose
head was stopped (``ray stop`` on its machine) went silent for a minute, then exited with
status 1."""


PATIENCE_VARIABLE = "ARENA_HEAD_PATIENCE"
"""The environment variable that sets :data:`HEAD_PATIENCE_SECONDS` (seconds, above 0)."""

RAYLET_REFUSALS = 3
"""Refused connections in a row (a second apart) to this machine's raylet after which the
run takes the raylet for dead: a refusal means no process listens on its port any more."""


def head_patience() -> float:
    """:data:`HEAD_PATIENCE_SECONDS`, or what :data:`PATIENCE_VARIABLE` says."""
    given = os.environ.get(PATIENCE_VARIABLE, "").strip()
    if not given:
        return HEAD_PATIENCE_SECONDS
    try:
        seconds = float(given)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise ArenaError(f"{PATIENCE_VARIABLE} must be a number of seconds above 0, not "
                         f"{plain(given)!r}")
    return seconds


class HeadWatch:
    """Probes the Ray head's GCS port (a TCP connection, at most once a second) while
    the driver waits for batches; :meth:`check` raises :class:`ClusterLost` once it has
    answered none of the probes for ``patience`` seconds. Given this machine's ``raylet``
    (host, port), it also probes that, and raises once :data:`RAYLET_REFUSALS` probes in a
    row were refused (Ray itself took about 17 s to tell the driver its raylet had died)."""

    def __init__(self, address: str, described: str, *, patience: float = HEAD_PATIENCE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 raylet: tuple[str, int] | None = None) -> None:
        host, _, port = address.rpartition(":")
        self._where = (host, int(port))
        self._described = described
        self._patience = patience
        self._clock = clock
        self._probed_at = -math.inf
        self._silent_since: float | None = None
        self._raylet = raylet
        self._refused = 0

    def check(self) -> None:
        now = self._clock()
        if now - self._probed_at < 1.0:
            return
        self._probed_at = now
        if self._raylet is not None:
            self._probe_raylet(self._raylet)
        try:
            socket.create_connection(self._where, timeout=1.0).close()
        except OSError:
            if self._silent_since is None:
                self._silent_since = now
            elif now - self._silent_since >= self._patience:
                raise ClusterLost(
                    f"{self._described} has not answered for {now - self._silent_since:.0f} s "
                    f"(stopped, or 'ray stop' was run on its machine): the run stopped; every "
                    f"match recorded before is safe") from None
            return
        self._silent_since = None

    def _probe_raylet(self, where: tuple[str, int]) -> None:
        try:
            socket.create_connection(where, timeout=1.0).close()
        except ConnectionRefusedError:
            self._refused += 1
            if self._refused >= RAYLET_REFUSALS:
                raise ClusterLost(RAYLET_DIED) from None
            return
        except OSError:  # slow to answer is not dead
            pass
        self._refused = 0


RAYLET_DIED = ("this machine's Ray node (the raylet the run talks to) died: the run stopped; "
               "every match recorded before is safe")


_Played = tuple[str, list[MatchResult | Failed]]
"""A batch's outcomes and the id of the node that played it."""


def _play_batch_on_node(specs: list[MatchSpec], encode: bool) -> _Played:
    """:func:`play_batch`, and the id of the Ray node it ran on."""
    return ray.get_runtime_context().get_node_id(), play_batch(specs, encode)


# Retries are ours (per match, with a limit), not Ray's (per batch, silent).
_remote_batch = ray.remote(num_cpus=1, max_retries=0)(_play_batch_on_node)


@dataclass(slots=True)
class Connection:
    """A Ray runtime this process is attached to, and how many workers to use."""

    workers: int
    owned: bool
    """True if we started the local instance (and so shut it down afterwards)."""
    cpus: int = 0
    """The cluster's CPUs; 0 if unknown."""
    nodes: int = 1
    """The cluster's live nodes."""
    shipped: tuple[str, ...] = ()
    """The bot packages sent to the nodes with the run (a joined cluster only)."""
    ray_log: RayLog | None = None
    """Where Ray's own lines go while we are attached to a cluster (not the user's terminal)."""
    head: str | None = None
    """The GCS address of a Ray we started or joined, which :class:`HeadWatch` probes."""
    address: str = ""
    """The address a joined cluster was given as (``--address``, ``RAY_ADDRESS``)."""
    raylet: tuple[str, int] | None = None
    """The raylet of a local instance we started (host, port), which :class:`HeadWatch`
    probes; None for a joined cluster."""
    reports: RayReports | None = None
    """What Ray reports to the driver, kept off the terminal (a local instance's: a joined
    cluster's go to its :attr:`ray_log`)."""

    def watch(self) -> Callable[[], None] | None:
        """A check that raises :class:`ClusterLost` once the head is gone (None: not ours
        to watch)."""
        if self.head is None:
            return None
        described = (f"the head of the Ray cluster at {self.address or self.head}" if self.joined
                     else f"the local Ray instance ({self.head})")
        return HeadWatch(self.head, described, patience=head_patience(),
                         raylet=self.raylet).check

    @property
    def joined(self) -> bool:
        """True if this is a cluster we joined (not a local instance of our own)."""
        return self.ray_log is not None

    @property
    def in_flight(self) -> int:
        """Batches to keep submitted: a queued one per worker hides the round trip, but
        only when that cannot make more than ``workers`` run at once."""
        return 2 * self.workers if self.workers >= self.cpus else self.workers

    def close(self) -> None:
        try:
            if self.owned and ray.is_initialized():
                ray.shutdown()
                reaper.release()
                # Its workers are gone: the bot hosts they kept waiting (frozen) go too.
                cgroups.reap_orphans()
        finally:
            if self.ray_log is not None:
                self.ray_log.restore()
            if self.reports is not None:
                self.reports.restore()


def describe(workers: int | None = None, address: str | None = None) -> str:
    """What :func:`connect` is about to do, in words: "a local Ray instance with 4 workers"."""
    if ray.is_initialized():
        return "the Ray runtime this process already holds"
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        return f"the Ray cluster at {address}"
    count = workers or os.cpu_count() or 1
    return f"a local Ray instance with {count} worker{'s' if count != 1 else ''}"


def connect(
    workers: int | None = None, address: str | None = None, ship: Sequence[Path] = ()
) -> Connection:
    """Attach to Ray: the running runtime, ``address``/``RAY_ADDRESS``, or a new local one.

    ``ship``: bot packages (folders) to send to a cluster's nodes with the run; a local
    instance's workers see this machine's packages already."""
    if workers is not None and workers < 1:
        raise ArenaError(f"--workers must be at least 1, not {workers}")
    if ray.is_initialized():
        cpus = _cluster_cpus()
        return Connection(workers or cpus, owned=False, cpus=cpus)
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        return join(address, workers, ship)
    count = workers or os.cpu_count() or 1
    # "local": a new instance of our own, even when a cluster started with `ray start`
    # runs on this machine (Ray would join that one, and refuse our num_cpus).
    try:
        ray.init(
            address="local",
            num_cpus=count,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    except OSError as exc:  # its session folder cannot be made: a traceback, before
        where = f" {exc.filename}" if exc.filename else ""
        raise ArenaError(
            f"cannot start a local Ray instance: {exc.strerror or exc}:{where} (Ray keeps its "
            f"session files under {ray_temp_folder()}; make it writable, or set RAY_TMPDIR to "
            f"a folder that is)") from None
    except Exception as exc:  # whatever stopped Ray's start: one line
        # "The current node timed out during startup" on a busy machine was a traceback.
        _let_go()
        _reap_unfinished()
        said = plain(str(exc)).strip().splitlines()
        limit = file_size_limit()
        # Ray's own processes write logs past a small `ulimit -f`, and its GCS dies of it.
        advice = (f"A file size limit is in force ({size_limit_text(limit)}), which Ray's own "
                  "files pass: lift it (ulimit -f unlimited) and try again" if limit is not None
                  else "Try again (Ray starts slowly on a busy machine), or start Ray once with "
                  "'ray start --head' and give its address with --address")
        raise ArenaError(
            f"the local Ray instance did not start: {said[0] if said else type(exc).__name__}; "
            f"nothing was played. {advice}") from None
    except BaseException:
        # Ctrl-C or SIGTERM in the middle of Ray's start: the dashboard and runtime-env agents
        # it had started outlived their raylet, orphaned (about 80 MB each), for good.
        _reap_unfinished()
        START_CUT.append(True)
        raise
    session = _session_folder()
    if session is not None:
        reaper.watch(session, Path(ray.__file__).parent)
    return Connection(count, owned=True, cpus=count, head=_gcs_address(), raylet=_raylet(),
                      reports=RayReports())


START_CUT: list[bool] = []
"""Not empty once this process's start of a local instance was cut short by a stop: its
half-made Ray driver is then left alone at exit (see :func:`end_after_cut_start`)."""

AT_CUT_EXIT: list[Callable[[], object]] = []
"""What this process's exit handlers would have done that must be done all the same when
:func:`end_after_cut_start` ends it without them (removing a temporary folder), each called
once, in order, before it ends."""


def end_after_cut_start(status: int) -> None:
    """End the process now with ``status`` if a stop cut the start of its local Ray instance
    short: the interpreter's teardown of the half-started Ray driver (Ray's own exit hook,
    then its core worker's threads) ended about one such run in five with a segmentation
    fault, status -11 after the line saying it was interrupted. What Ray had started is
    stopped here first, as the reaper stops it for a run killed outright, so that the
    shell's prompt finds none of it."""
    if not START_CUT:
        return
    for task in AT_CUT_EXIT:
        with contextlib.suppress(Exception):
            task()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    session = _unfinished_session()
    if session is not None:
        with contextlib.suppress(OSError):
            reaper.reap(session, (Path(sys.executable).resolve(),
                                  Path(ray.__file__).parent.resolve()))
    os._exit(status)


def _unfinished_session() -> Path | None:
    """The session folder of the local instance this process began to start (Ray names it
    after the starting process), if there is one."""
    started = sorted(ray_temp_folder().glob(f"session_*_{os.getpid()}"),
                     key=lambda folder: folder.name)
    return started[-1] if started else None


def _reap_unfinished() -> None:
    """Watch, with a reaper, the session of the local instance this process began to start
    and did not finish starting: what is left of it once this process ends is stopped (for
    a process that does not get as far as :func:`end_after_cut_start`)."""
    session = _unfinished_session()
    if session is not None:
        reaper.watch(session, Path(ray.__file__).parent)


def _session_folder() -> Path | None:
    """The session folder of the one node of a local instance (where its sockets are)."""
    try:
        [node] = ray.nodes()  # type: ignore[no-untyped-call]
        return Path(str(node["RayletSocketName"])).parent.parent
    except (ValueError, KeyError, TypeError, RayError):
        return None


def _let_go() -> None:
    """Stop what a failed ``ray.init`` had started, if anything."""
    try:
        ray.shutdown()
    except Exception:  # nothing more can be done about it here
        return


def _raylet() -> tuple[str, int] | None:
    """Where the one node of a local instance listens (its raylet), or None if unknown."""
    try:
        [node] = ray.nodes()  # type: ignore[no-untyped-call]
        return str(node["NodeManagerAddress"]), int(node["NodeManagerPort"])
    except (ValueError, KeyError, TypeError, RayError):
        return None


def ray_temp_folder() -> Path:
    """Where a local Ray instance keeps its session files: ``$RAY_TMPDIR/ray``, else the
    system's temporary folder's ``ray``."""
    return Path(os.environ.get("RAY_TMPDIR") or tempfile.gettempdir()) / "ray"


def join(address: str, workers: int | None, ship: Sequence[Path]) -> Connection:
    """Join the cluster at ``address`` with token authentication where a token is
    available, shipping the ``ship`` packages to its nodes (Ray's ``py_modules``).

    Ray's own log lines (a wall of retries on a refused token, a node that leaves) go to
    a file instead of the terminal for as long as we are attached."""
    _reachable(address)
    # Ray retries a refused connection (a missing or wrong token) for 20 s by default; the
    # head is known reachable by now, so 5 s is plenty (a user's own setting wins).
    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(JOIN_WAIT_SECONDS))
    token = _enable_token_auth()
    runtime_env = {"py_modules": [str(path) for path in ship]} if ship else None
    log = RayLog()
    try:
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False,
                 runtime_env=runtime_env)
    except Exception as exc:
        captured = log.text()
        log.restore()
        raise ArenaError(_join_failure(address, exc, captured, token)) from None
    cpus = _cluster_cpus()
    listed: list[dict[str, object]] = ray.nodes()  # type: ignore[no-untyped-call]
    nodes = sum(1 for node in listed if node.get("Alive"))
    return Connection(workers or cpus, owned=True, cpus=cpus, nodes=nodes,
                      shipped=tuple(shipped_name(path) for path in ship
                                    if not path.name.endswith((".dist-info", ".egg-info"))),
                      ray_log=log,
                      head=_gcs_address(), address=address)


def shipped_name(folder: Path) -> str:
    """How the run's first lines name a folder it ships: a bot's package by its own name, and
    the folder of a stored bot's wheel (named by a digest, one of its own per package and
    version) by the package and version of the wheel in it."""
    wheels = list(folder.glob("*.whl")) if folder.is_dir() else []
    if len(wheels) == 1 and wheels[0].name.count("-") >= 4:
        package, version = wheels[0].name.split("-")[:2]
        return f"{package} {version} (stored)"
    return folder.name


def _gcs_address() -> str | None:
    address = ray.get_runtime_context().gcs_address
    return address if isinstance(address, str) and ":" in address else None


JOIN_WAIT_SECONDS = 5
"""How long Ray may retry joining a cluster whose head answers (Ray's default is 20 s)."""

TOKEN_HELP = ("copy the cluster's token (run 'ray get-auth-token' on its head) to "
              "~/.ray/auth_token, or set RAY_AUTH_TOKEN")


def token_available() -> bool:
    """Whether a Ray token is at hand: ``RAY_AUTH_TOKEN``, the file named by
    ``RAY_AUTH_TOKEN_PATH``, or Ray's token file ``~/.ray/auth_token``."""
    if os.environ.get("RAY_AUTH_TOKEN", "").strip():
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    return Path(path).is_file()


def _enable_token_auth() -> bool:
    """Use token authentication when joining, unless ``RAY_AUTH_MODE`` says otherwise.

    A cluster started with ``ray start`` asks for Ray's token, but Ray's client sends it
    only under ``RAY_AUTH_MODE=token``; a cluster without authentication ignores it."""
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None:
        return mode.lower() == "token"
    if not token_available():
        return False
    os.environ["RAY_AUTH_MODE"] = "token"
    from ray._raylet import Config  # type: ignore[attr-defined] # Ray caches the mode: reread

    Config.initialize("")
    return True


def _join_failure(address: str, exc: BaseException, log: str, token: bool) -> str:
    """One line on why joining failed, from the exception and Ray's captured lines."""
    text = f"{exc}\n{log}"
    if "InvalidAuthToken" in text or "AuthenticationError" in type(exc).__name__:
        if token:
            return (f"cannot join the Ray cluster at {address}: it refused this machine's "
                    f"token; {TOKEN_HELP}")
        return (f"cannot join the Ray cluster at {address}: it requires token "
                f"authentication and no token was found; {TOKEN_HELP}")
    first = plain(str(exc)).strip().splitlines()[:1]
    return f"cannot join the Ray cluster at {address}: {first[0] if first else type(exc).__name__}"


class RayReports:
    """What Ray's driver prints of what its Ray reports (a raylet that died, a node marked
    dead) goes into ``sink``, or nowhere, until :meth:`restore`. Ray prints it on standard
    *output*, with the 20 last lines of the raylet's log: a node that left a run on a
    cluster put 50 such lines among the progress lines, and a local raylet that died 45
    before the run's one line saying so."""

    def __init__(self, sink: IO[bytes] | None = None) -> None:
        self._sink = sink
        self._printer = getattr(ray_worker, "print_to_stdstream", None)
        if self._printer is not None:
            ray_worker.print_to_stdstream = self._reported

    def _reported(self, data: dict[str, Any], ignore_prefix: bool = False) -> None:
        """In place of Ray's ``print_to_stdstream`` (its thread may still report once the
        sink is closed: those lines are dropped)."""
        if self._sink is None:
            return
        lines = data.get("lines") or []
        with contextlib.suppress(OSError, ValueError):
            self._sink.write(("".join(f"({data.get('pid')}) {line}\n" for line in lines))
                             .encode(errors="replace"))
            self._sink.flush()

    def restore(self) -> None:
        if self._printer is not None:
            ray_worker.print_to_stdstream = self._printer
            self._printer = None


class RayLog:
    """Sends this process's standard error (where Ray's C++ core logs) and what Ray reports
    to the driver (:class:`RayReports`) to a temporary file until :meth:`restore`; the file
    is removed then, unless ``keep``."""

    def __init__(self) -> None:
        sys.stderr.flush()
        self._file = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in restore)
            prefix="arena-ray-", suffix=".log", delete=False)
        self._saved: int | None = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        self._reports = RayReports(self._file)

    def text(self) -> str:
        return Path(self._file.name).read_text(errors="replace")

    def restore(self, keep: bool = False) -> None:
        if self._saved is None:
            return
        self._reports.restore()
        sys.stderr.flush()
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._saved = None
        self._file.close()
        if not keep:
            Path(self._file.name).unlink(missing_ok=True)


def running_instance() -> str | None:
    """The address of the Ray instance last started with ``ray start`` on this machine, if
    it answers: ``arena run`` offers it (``--address``) instead of starting its own. Ray
    writes that address into its temporary folder, which ``ray start --temp-dir X`` moves:
    the folders of the raylets running here are looked in too (one started so was missed),
    the last written first."""
    files = []
    for folder in dict.fromkeys([ray_temp_folder(), *_raylet_temp_folders()]):
        with contextlib.suppress(OSError):
            files.append((os.stat(folder / "ray_current_cluster").st_mtime, folder))
    for _, folder in sorted(files, key=lambda found: found[0], reverse=True):
        try:
            address = (folder / "ray_current_cluster").read_text().strip()
            host, _, port = address.rpartition(":")
            socket.create_connection((host, int(port)), timeout=0.5).close()
        except (OSError, ValueError):
            continue
        return address
    return None


def _raylet_temp_folders() -> list[Path]:
    """The temporary folders (``--temp_dir``) of the raylets of this machine we may read."""
    folders = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            argv = Path(entry.path, "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if not argv[0].endswith(b"/raylet"):
            continue
        folders += [Path(os.fsdecode(arg.removeprefix(b"--temp_dir=")))
                    for arg in argv if arg.startswith(b"--temp_dir=")]
    return folders


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``host:port`` nobody answers at; Ray itself retries for minutes."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return  # "auto", "ray://...": leave those to Ray
    try:
        connection = socket.create_connection((host, int(port)), timeout=timeout)
    except OSError as exc:
        raise ArenaError(
            f"cannot join the Ray cluster at {address}: nothing answers there ({exc}); "
            f"start one with 'ray start --head' or leave out --address for a local one"
        ) from None
    with connection:
        # Under TLS the head answers a handshake, not the preface: left to Ray.
        if os.environ.get("RAY_USE_TLS", "").strip() not in ("", "0") or _speaks_grpc(connection):
            return
    raise ArenaError(
        f"cannot join the Ray cluster at {address}: something answers there, but not a Ray "
        f"head (it does not speak gRPC); check the port: 'ray start --head' prints the "
        f"address to join, port 6379 by default")


_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_SETTINGS_FRAME = 4


def _speaks_grpc(connection: socket.socket, timeout: float = 5.0) -> bool:
    """False if what listens on ``connection`` is surely no gRPC server (a Ray head's GCS):
    it answers HTTP/2's client preface with something other than a SETTINGS frame, or hangs
    up. Ray itself, joining such a port (a web server, a dashboard, a reused port), retried
    for minutes without a word. No answer within ``timeout`` is left for Ray to judge."""
    try:
        connection.settimeout(timeout)
        connection.sendall(_HTTP2_PREFACE)
        header = b""
        while len(header) < 4 and (part := connection.recv(9)):
            header += part
    except TimeoutError:
        return True
    except OSError:
        return False
    return len(header) >= 4 and header[3] == _SETTINGS_FRAME


def _cluster_cpus() -> int:
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


class Dispatcher:
    """Sends matches to the workers in adaptive batches and collects them as they finish."""

    def __init__(
        self,
        workers: int,
        *,
        in_flight: int | None = None,
        batch_seconds: float = 0.25,
        max_batch: int = 1024,
        max_attempts: int = 3,
        lookahead: int = 1024,
    ) -> None:
        self.workers = workers
        self.in_flight = in_flight or 2 * workers
        self.batch_seconds = batch_seconds
        self.max_batch = max_batch
        self.max_attempts = max_attempts
        self.lookahead = max(lookahead, 2 * max_batch * self.in_flight)
        """Matches taken from the plan ahead of the batches (sizing sees the end coming)."""
        self.seconds_per_match: float | None = None
        self.retried = 0
        """How many match attempts were lost to dead workers and sent again."""
        self.nodes: dict[str, int] = {}
        """Matches played (results and failures that came back) per Ray node id."""
        self.driver_encodes = False
        """True while the batches ask for whole results (the driver encodes the lines)."""
        self.sent = 0
        """Batches sent to the workers."""
        self.encoded_by_driver = 0
        """Of those, the batches whose lines the driver encoded."""
        self._busy = 0.0
        self._weighed_at = time.perf_counter()

    def run(
        self,
        specs: Iterable[MatchSpec],
        on_result: Callable[[MatchResult], None],
        on_failure: Callable[[Failed], None],
        on_idle: Callable[[], bool] | None = None,
        store: Callable[[list[MatchResult]], None] | None = None,
        watch: Callable[[], None] | None = None,
    ) -> None:
        """Play ``specs``; ``on_idle``, when given, is called while no batch has finished
        (for work that can wait, such as rating: a short piece each call, True while it has
        more) before the driver blocks waiting for one. ``store``, when given, gets the
        results of each finished batch at once, before ``on_result`` sees any of them (one
        write for a batch, not one per match). ``watch``, when given, is called whenever a
        wait for a batch ends with none finished, and may raise to stop the run (see
        :class:`HeadWatch`)."""
        plan = iter(specs)
        queue: deque[MatchSpec] = deque()
        solo: deque[MatchSpec] = deque()  # survivors of a dead worker, sent one by one
        attempts: dict[str, int] = {}
        recorded: set[str] = set()  # only ids sent more than once can come back twice
        running: dict[ray.ObjectRef[_Played], list[MatchSpec]] = {}
        self._refill(queue, plan)
        while queue or solo or running:
            self._submit(queue, solo, plan, running)
            ready, _ = ray.wait(list(running), num_returns=1, timeout=0)
            if not ready:
                if on_idle is not None and on_idle():
                    continue
                ready, _ = ray.wait(list(running), num_returns=1, timeout=0.5)
                if not ready and watch is not None:
                    watch()
            finished = [(ref, running.pop(ref)) for ref in ready]
            if self.seconds_per_match is not None:
                # The worker's next batch goes out before this one's results are handled:
                # with one batch in flight per worker, it would otherwise wait for them.
                self._submit(queue, solo, plan, running)
            started = time.perf_counter()
            for ref, batch in finished:
                try:
                    node, outcomes = ray.get(ref)
                except LocalRayletDiedError:
                    # The driver's own Ray node is gone: no batch can run again. Sending the
                    # rest out anyway failed every match three times over minutes, and the
                    # run ended with status 0 and all of them in failures.jsonl.
                    raise ClusterLost(RAYLET_DIED) from None
                except RayError as exc:
                    self._lost(batch, exc, attempts, recorded, solo, on_failure)
                    continue
                self.nodes[node] = self.nodes.get(node, 0) + len(outcomes)
                self._deliver(outcomes, attempts, recorded, on_result, on_failure, store)
            self._weigh(time.perf_counter(), time.perf_counter() - started)

    def _weigh(self, now: float, busy: float) -> None:
        """Count ``busy`` seconds of handling results; every :data:`BALANCE_SECONDS`, decide
        who encodes the next batches' lines from the share of the time they took."""
        self._busy += busy
        elapsed = now - self._weighed_at
        if elapsed < BALANCE_SECONDS:
            return
        share = self._busy / elapsed
        if share < DRIVER_ENCODES_BELOW:
            self.driver_encodes = True
        elif share > WORKERS_ENCODE_ABOVE:
            self.driver_encodes = False
        self._busy, self._weighed_at = 0.0, now

    def _submit(self, queue: deque[MatchSpec], solo: deque[MatchSpec],
                plan: Iterator[MatchSpec], running: dict[ray.ObjectRef[_Played],
                                                         list[MatchSpec]]) -> None:
        """Send batches until ``in_flight`` are running or nothing is left to send."""
        while (queue or solo) and len(running) < self.in_flight:
            batch = [solo.popleft()] if solo else self._take(queue, len(running))
            running[_remote_batch.remote(batch, not self.driver_encodes)] = batch
            self.sent += 1
            self.encoded_by_driver += self.driver_encodes
            self._refill(queue, plan)

    def _refill(self, queue: deque[MatchSpec], plan: Iterator[MatchSpec]) -> None:
        """Take matches from the plan until the look-ahead is full or the plan ends."""
        missing = self.lookahead - len(queue)
        if missing > 0:
            queue.extend(itertools.islice(plan, missing))

    def _take(self, queue: deque[MatchSpec], busy: int) -> list[MatchSpec]:
        """The next batch: about ``batch_seconds`` of work, but never starving a worker."""
        if self.seconds_per_match is None:
            size = 1
        else:
            size = int(self.batch_seconds / max(self.seconds_per_match, 1e-6))
        share = math.ceil(len(queue) / max(1, self.in_flight - busy))
        size = max(1, min(size, self.max_batch, share))
        return [queue.popleft() for _ in range(min(size, len(queue)))]

    def _deliver(
        self,
        outcomes: list[MatchResult | Failed],
        attempts: dict[str, int],
        recorded: set[str],
        on_result: Callable[[MatchResult], None],
        on_failure: Callable[[Failed], None],
        store: Callable[[list[MatchResult]], None] | None = None,
    ) -> None:
        results: list[MatchResult] = []
        for outcome in outcomes:
            if attempts and outcome.id in attempts:
                if outcome.id in recorded:
                    continue
                recorded.add(outcome.id)
            if isinstance(outcome, Failed):
                on_failure(outcome)
                continue
            results.append(outcome)
        if store is not None and results:
            store(results)
        for result in results:
            self._learn(result.seconds)
            on_result(result)

    def _learn(self, seconds: float) -> None:
        """Track the mean match time (moving average) that sizes the batches."""
        if self.seconds_per_match is None:
            self.seconds_per_match = seconds
        else:
            self.seconds_per_match = 0.8 * self.seconds_per_match + 0.2 * seconds

    def _lost(
        self,
        batch: list[MatchSpec],
        error: RayError,
        attempts: dict[str, int],
        recorded: set[str],
        solo: deque[MatchSpec],
        on_failure: Callable[[Failed], None],
    ) -> None:
        """A batch whose worker died: send each unrecorded match again, or give up on it."""
        lines = [line.strip() for line in plain(str(error)).strip().splitlines() if line.strip()]
        reason = f"{type(error).__name__}: {lines[0] if lines else ''}"
        if len(lines) > 1:  # a task's error: its first line says where, its last line what
            reason += f" ... {lines[-1][:300]}"
        for spec in batch:
            if spec.id in recorded:
                continue
            attempts[spec.id] = attempts.get(spec.id, 0) + 1
            if attempts[spec.id] >= self.max_attempts:
                recorded.add(spec.id)
                on_failure(Failed(spec.id, f"lost {attempts[spec.id]} times; last: {reason}"))
            else:
                self.retried += 1
                # The last try is sandboxed: a match lost twice was lost to one of its
                # bots, not to a worker that died of something else once.
                last = attempts[spec.id] == self.max_attempts - 1
                solo.append(contained(spec) if last else spec)


def contained(spec: MatchSpec) -> MatchSpec:
    """``spec`` with its bots in sandboxed seats, if they ran in-process: a match that took its
    worker down again, alone, was taken down by one of its bots (or its node went), and played
    so, the bot that did it ends ``crash`` in its own host while the match goes on. Given up
    instead, the match was not recorded at all: a bot that left through ``os._exit`` or a
    segfault whenever it was losing lost no match (the red team's played none and had no
    fault). The match is fully determined by its spec and the bots' answers, so it is the
    same match, up to the bot's fault."""
    if spec.limits.isolation != "inprocess":
        return spec
    return replace(spec, limits=replace(spec.limits, isolation="process"))
