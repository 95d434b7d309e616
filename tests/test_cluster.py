"""Ray for real: one session cluster, batches, dead workers, broken engines."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest
from helpers import outcome, spec
from ray.exceptions import RayError

from arena.cluster import Dispatcher, Failed, connect
from arena.match import play_match
from arena.records import Limits, MatchResult, MatchSpec, SeatSpec
from arena.seats.inprocess import OVERDUE_EXIT

pytestmark = pytest.mark.usefixtures("ray_cluster")

TRUSTED = Limits(isolation="inprocess")
"""A bot that kills its process takes the Ray worker down only when it runs in-process."""


def play(specs: list[MatchSpec], workers: int) -> tuple[list[MatchResult], list[Failed], int]:
    results: list[MatchResult] = []
    failures: list[Failed] = []
    dispatcher = Dispatcher(workers)
    dispatcher.run(specs, results.append, failures.append)
    return results, failures, dispatcher.retried


def many(count: int, *bots: str | SeatSpec, **kwargs: object) -> list[MatchSpec]:
    return [
        spec(*bots, seed=i, match_id=f"r001-t{i:06d}-s001", **kwargs)  # type: ignore[arg-type]
        for i in range(count)
    ]


def test_connect_joins_the_running_runtime_without_owning_it() -> None:
    connection = connect(workers=None)
    assert connection.workers == 2 and not connection.owned


def test_results_on_ray_equal_results_played_locally() -> None:
    specs = many(30, "random", "random", "random", game="explorers-of-the-lost-valley")
    results, failures, _ = play(specs, workers=2)
    assert failures == []
    by_id = {r.id: r for r in results}
    assert len(by_id) == len(results) == 30
    for match in specs[:5]:
        assert outcome(by_id[match.id]) == outcome(play_match(match))


def test_matches_are_batched_once_their_time_is_known() -> None:
    dispatcher = Dispatcher(2, batch_seconds=0.25)
    dispatcher.seconds_per_match = 0.01
    queue = __import__("collections").deque(range(1000))
    assert len(dispatcher._take(queue, busy=0)) == 25


def test_a_worker_killed_mid_tournament_loses_no_match_and_repeats_none(tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    kamikaze = SeatSpec("kamikaze", "kamikaze", {"marker": str(marker)})
    specs = many(40, kamikaze, "random", limits=TRUSTED)
    results, failures, retried = play(specs, workers=2)
    assert marker.exists(), "the worker was never killed"
    assert failures == []
    assert retried >= 1
    assert sorted(r.id for r in results) == sorted(s.id for s in specs)
    assert all(r.statuses == ("ok", "ok") for r in results)


QUICK_TRUSTED = Limits(isolation="inprocess", move_seconds=0.5, bank_seconds=0.5,
                      startup_seconds=3.0)
"""In-process, with a guard (:class:`arena.seats.inprocess._Guard`) that ends a worker about
4 s after a bot went silent: 2 s (a bot's ``close()``) and 2 s of grace."""


@pytest.mark.parametrize(("bot", "status", "lost"), [
    ("zoo-exit", "crash", 2), ("zoo-segfault", "crash", 2),
    ("zoo-exit:KeyboardInterrupt", "crash", 2), ("zoo-native-loop", "timeout", 2),
    ("zoo-slow-start", "timeout", 0),
])
def test_a_bot_that_takes_its_in_process_worker_down_faults_its_seat_alone(
    bot: str, status: str, lost: int
) -> None:
    """It kills every worker that plays it in-process (SIGKILL, ``os._exit``, a segfault):
    the match was given up after three dead workers and never recorded, so a bot that did it
    whenever it was losing lost no match and had no fault (the red team's ``zoo-exit`` played
    none of its four; one that raised ``KeyboardInterrupt`` (or ``GeneratorExit``), which
    the seat does not catch, failed its task three times the same way). Or it held its worker
    for good: stuck in native code, which no signal
    interrupts, swallowing the interruption (``except BaseException``), or sleeping in its
    constructor, which had no deadline in-process (``zoo-native-loop`` on two workers: no
    match of six recorded in 90 s). The guard ends such a worker; the last try of a match
    lost is played with its bots sandboxed, where the bot faults its own seat, is ranked last,
    and the rest are played."""
    name, _, raises = bot.partition(":")
    seat = SeatSpec(name, name, {"raises": raises} if raises else {})
    doomed = spec(seat, "random", match_id="r001-t000000-s001", limits=QUICK_TRUSTED)
    specs = [doomed, *many(6, "random", "random", limits=QUICK_TRUSTED)[1:]]
    results, failures, retried = play(specs, workers=2)
    assert failures == [] and retried == lost
    assert sorted(r.id for r in results) == sorted(s.id for s in specs)
    played = next(r for r in results if r.id == doomed.id)
    assert played.statuses == (status, "ok") and played.ranking == (1, 0)


def test_an_in_process_bot_that_swallows_its_interruption_ends_its_process() -> None:
    """``except BaseException`` around a loop: the watchdog's interruption is swallowed, and
    the bot went on for good. The guard ends its process (a Ray worker: its match is then
    played sandboxed, as above) and says why."""
    script = ("import sys\n"
              f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
              "from helpers import spec\n"
              "from arena.match import play_match\n"
              "from arena.records import Limits\n"
              "play_match(spec('zoo-python-loop', 'random', limits=Limits(\n"
              "    isolation='inprocess', move_seconds=0.2, bank_seconds=0.1,\n"
              "    startup_seconds=1.0)))\n")
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == OVERDUE_EXIT, done.stderr
    assert "in-process bot is past its time" in done.stderr
    assert time.monotonic() - began < 20


def test_a_match_lost_to_dead_workers_sandboxed_too_is_given_up() -> None:
    """A match lost once is tried again as it was (its worker may have died of something
    else); its last try is sandboxed, and lost even so (its node went), it is given up."""
    class NodeLost(RayError):
        pass

    doomed = spec("random", "random", limits=TRUSTED)
    failures: list[Failed] = []
    solo: deque[MatchSpec] = deque()
    attempts: dict[str, int] = {}
    dispatcher = Dispatcher(1)
    tried: list[str] = []
    for _ in range(3):
        dispatcher._lost([solo.popleft() if solo else doomed], NodeLost(), attempts, set(),
                         solo, failures.append)
        tried += [next.limits.isolation for next in solo]
    assert tried == ["inprocess", "process"] and not solo
    assert "lost 3 times" in failures[0].reason


def test_a_lost_match_says_where_and_what_of_the_workers_error() -> None:
    class TaskFailed(RayError):
        def __str__(self) -> str:
            return ("ray::_play_batch_on_node() (pid=7, ip=10.0.0.1)\n  File \"x.py\", line 1\n"
                    "ImportError: cannot import name 'hookspec' from 'arena' (unknown location)")

    doomed = spec("random", "random")
    failures: list[Failed] = []
    Dispatcher(1, max_attempts=1)._lost([doomed], TaskFailed(), {}, set(), deque(),
                                        failures.append)
    reason = failures[0].reason
    assert reason.startswith("lost 1 times; last: TaskFailed: ray::_play_batch_on_node()")
    assert reason.endswith("ImportError: cannot import name 'hookspec' from 'arena' "
                           "(unknown location)")


def test_a_sandboxed_bot_that_kills_its_host_is_a_crash_not_a_lost_worker() -> None:
    kamikaze = SeatSpec("kamikaze", "kamikaze")  # in a sandboxed seat it kills only its host
    specs = many(6, kamikaze, "random")
    results, failures, retried = play(specs, workers=2)
    assert failures == [] and retried == 0
    assert sorted(r.id for r in results) == sorted(s.id for s in specs)
    assert all(r.statuses == ("crash", "ok") and r.ranking == (1, 0) for r in results)


def test_an_engine_that_raises_fails_its_match_only() -> None:
    broken = spec("random", "random", options={"explode_after": 2}, match_id="r001-t000000-s001")
    specs = [broken, *many(5, "random", "random")[1:]]
    results, failures, _ = play(specs, workers=2)
    assert [f.id for f in failures] == [broken.id]
    assert "exploded" in failures[0].reason
    assert len(results) == 4


def test_a_hanging_bot_is_timed_out_inside_a_ray_worker() -> None:
    from arena.records import Limits

    sleeper = SeatSpec("sleeper", "sleeper", {"seconds": 60.0})
    match = spec(sleeper, "random", limits=Limits(move_seconds=0.05, bank_seconds=0.0))
    results, failures, _ = play([match], workers=1)
    assert failures == [] and results[0].statuses == ("timeout", "ok")


def test_the_driver_is_offered_its_idle_time_while_no_batch_has_finished() -> None:
    """A batch cannot come back microseconds after it went out: the driver's idle work is
    asked for before it blocks, and asked again only while it says it has more."""
    specs = many(6, "random", "random", "random", game="explorers-of-the-lost-valley")
    results: list[MatchResult] = []
    asked: list[int] = []

    def idle() -> bool:
        asked.append(len(results))
        return len(asked) < 3  # more to do twice, then nothing

    Dispatcher(1).run(specs, results.append, pytest.fail, idle)
    assert len(results) == 6 and asked[0] == 0 and len(asked) >= 3


def test_the_driver_takes_the_encoding_while_it_has_time_to_spare_and_hands_it_back() -> None:
    dispatcher = Dispatcher(1)
    start = dispatcher._weighed_at
    assert not dispatcher.driver_encodes  # the workers encode until the driver has weighed
    dispatcher._weigh(start + 0.1, 0.01)  # too soon to weigh
    assert not dispatcher.driver_encodes
    dispatcher._weigh(start + 1.0, 0.05)  # 6 % of a second busy
    assert dispatcher.driver_encodes
    dispatcher._weigh(start + 2.0, 0.4)  # 40 %: between the two bounds, no change
    assert dispatcher.driver_encodes
    dispatcher._weigh(start + 3.0, 0.7)
    assert not dispatcher.driver_encodes
    dispatcher._weigh(start + 4.0, 0.4)
    assert not dispatcher.driver_encodes


def test_the_stored_lines_are_the_same_whoever_encodes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.store import RunStore

    specs = many(12, "random", "greedy", "random", game="explorers-of-the-lost-valley")
    lines = {}
    for driver in (False, True):
        # The bounds set so that the driver weighs at once and always (or never) encodes.
        monkeypatch.setattr("arena.cluster.BALANCE_SECONDS", 0.0)
        monkeypatch.setattr("arena.cluster.DRIVER_ENCODES_BELOW", 2.0 if driver else 0.0)
        monkeypatch.setattr("arena.cluster.WORKERS_ENCODE_ABOVE", 3.0 if driver else 1.0)
        dispatcher = Dispatcher(1, batch_seconds=0.0)  # one match a batch
        dispatcher.driver_encodes = driver
        received: list[MatchResult] = []
        with RunStore(tmp_path / str(driver)) as store:
            def record(result: MatchResult, store: RunStore = store,
                       received: list[MatchResult] = received) -> None:
                store.append(result)
                received.append(result)

            dispatcher.run(specs, record, pytest.fail)
        assert dispatcher.sent > 0
        assert dispatcher.encoded_by_driver == (dispatcher.sent if driver else 0)
        # Workers send a line and what the driver reads; asked for whole results, whole.
        assert all(bool(result.line) != driver and bool(result.history) == driver
                   for result in received)
        text = (tmp_path / str(driver) / "matches.jsonl").read_text()
        records = [json.loads(line) for line in text.splitlines()]
        for record in records:  # what the clock said differs from one run to the next
            assert record.keys() >= {"seconds", "think_seconds", "history"}
            del record["seconds"], record["think_seconds"], record["max_move_seconds"]
        lines[driver] = sorted(records, key=lambda record: record["id"])
    assert lines[False] == lines[True] and len(lines[True]) == 12


def test_a_batch_is_stored_in_one_write_before_any_of_its_matches_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.store import RunStore

    specs = many(30, "random", "random", "random", game="explorers-of-the-lost-valley")
    writes: list[int] = []
    shown: list[tuple[str, bool]] = []
    with RunStore(tmp_path) as store:
        assert store._matches is not None
        write = store._matches.write
        monkeypatch.setattr(store._matches, "write",
                            lambda text: writes.append(text.count("\n")) or write(text))

        def show(result: MatchResult) -> None:  # what is on disk when a match is shown
            on_disk = (tmp_path / "matches.jsonl").read_text()
            shown.append((result.id, f'"id":"{result.id}"' in on_disk))

        # Batches of up to 10 s of matches: a machine at load 10 played these in 0.3 s each
        # or more, and with the default 0.25 s every batch was of one match.
        Dispatcher(1, batch_seconds=10.0).run(specs, show, pytest.fail, store=store.append_all)
    assert sorted(match_id for match_id, _ in shown) == sorted(spec.id for spec in specs)
    assert all(stored for _, stored in shown)
    assert sum(writes) == 30 and len(writes) < 30  # the first batches are of one match
    lines = (tmp_path / "matches.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["id"] for line in lines) == sorted(spec.id for spec in specs)


def test_one_worker_and_two_give_the_same_matches_and_leaderboard() -> None:
    from arena.config import load
    from arena.plugins import registry
    from arena.ratings import rate

    config = load(Path(__file__).parent.parent / "configs" / "quick.toml", registry())
    specs = list(config.matches())
    runs = {}
    for workers, in_flight in ((1, 1), (2, 4)):
        results: list[MatchResult] = []
        Dispatcher(workers, in_flight=in_flight).run(specs, results.append, pytest.fail)
        runs[workers] = results
    one = sorted(map(outcome, runs[1]))
    two = sorted(map(outcome, runs[2]))
    assert one == two and len(one) == config.total_matches()
    labels = [bot.label for bot in config.bots]
    assert rate(runs[1], 0.05, labels) == rate(runs[2], 0.05, labels)


def test_an_address_where_nobody_answers_fails_fast_with_a_clear_error() -> None:
    import socket

    from arena.cluster import _reachable
    from arena.errors import ArenaError

    with socket.socket() as unused:  # a port that was free a moment ago
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with pytest.raises(ArenaError, match="nothing answers there"):
        _reachable(f"127.0.0.1:{port}", timeout=2.0)


def test_a_match_the_game_cannot_set_up_fails_at_once_without_retries() -> None:
    rejected = spec("random", "random", options={"speed": 9}, match_id="r001-t000000-s001")
    specs = [rejected, *many(3, "random", "random")[1:]]
    results, failures, retried = play(specs, workers=2)
    assert [f.id for f in failures] == [rejected.id] and retried == 0
    assert "could not be set up" in failures[0].reason
    assert "unknown option 'speed'" in failures[0].reason
    assert "lost" not in failures[0].reason and "\x1b" not in failures[0].reason
    assert len(results) == 2


def test_any_exception_of_a_match_fails_that_match_in_plain_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import arena.cluster

    def broken(spec: MatchSpec) -> MatchResult:
        raise RuntimeError("\x1b[31mred\x1b[0m")

    monkeypatch.setattr(arena.cluster, "play_match", broken)
    [failure] = arena.cluster.play_batch([spec("random", "random")])
    assert isinstance(failure, Failed)
    assert failure.reason == "RuntimeError: red"


def test_without_an_address_a_local_instance_of_its_own_is_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not the cluster a `ray start` left running on this machine: Ray would join that one
    and refuse the worker count."""
    import ray

    import arena.cluster

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: calls.append(kwargs))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    connection = arena.cluster.connect(workers=3)
    assert calls[0]["address"] == "local" and calls[0]["num_cpus"] == 3
    assert connection.workers == 3 and connection.owned
    assert arena.cluster.describe(3) == "a local Ray instance with 3 workers"


def test_the_head_watch_stops_a_run_once_the_head_has_not_answered_for_its_patience() -> None:
    """A real listening socket stands for the head's GCS port: while it answers, nothing
    happens however long; once it is closed, the watch raises after ``patience`` seconds
    of silence (probing at most once a second), not before."""
    import socket

    from arena.cluster import ClusterLost, HeadWatch

    now = [0.0]
    head = socket.create_server(("127.0.0.1", 0))
    address = f"127.0.0.1:{head.getsockname()[1]}"
    watch = HeadWatch(address, "the local Ray instance", patience=5.0, clock=lambda: now[0])
    for _ in range(10):
        watch.check()
        now[0] += 1.0
    head.close()
    for _ in range(5):  # silent from the first probe on: 10, 11, ... 14 s
        watch.check()
        now[0] += 1.0
    now[0] = 14.5
    watch.check()  # within a second of the last probe: not probed
    now[0] = 15.0
    with pytest.raises(ClusterLost, match=r"the local Ray instance has not answered for 5 s"):
        watch.check()


def test_the_head_watch_takes_a_raylet_that_refuses_three_probes_in_a_row_for_dead() -> None:
    """The run's own raylet killed: Ray took about 17 s to tell the driver. A refused
    connection to its port (nobody listens) three probes in a row stops the run; a refusal
    between answers does not, and a head that still answers does not hide it."""
    import socket

    from arena.cluster import RAYLET_REFUSALS, ClusterLost, HeadWatch

    now = [0.0]
    head = socket.create_server(("127.0.0.1", 0))
    raylet = socket.create_server(("127.0.0.1", 0))
    where = ("127.0.0.1", raylet.getsockname()[1])
    watch = HeadWatch(f"127.0.0.1:{head.getsockname()[1]}", "the local Ray instance",
                      clock=lambda: now[0], raylet=where)

    def probed(times: int) -> None:  # a second apart
        for _ in range(times):
            watch.check()
            now[0] += 1.0

    try:
        probed(5)
        raylet.close()
        probed(RAYLET_REFUSALS - 1)
        raylet = socket.create_server(where)  # answers again: the count starts over
        probed(1)
        raylet.close()
        probed(RAYLET_REFUSALS - 1)
        with pytest.raises(ClusterLost, match=r"^this machine's Ray node \(the raylet"):
            watch.check()
    finally:
        head.close()
        raylet.close()


@pytest.mark.parametrize(("given", "seconds"), [("", 20.0), ("3", 3.0), (" 0.5 ", 0.5)])
def test_the_heads_patience_is_twenty_seconds_or_what_the_variable_says(
        monkeypatch: pytest.MonkeyPatch, given: str, seconds: float) -> None:
    from arena.cluster import head_patience

    monkeypatch.setenv("ARENA_HEAD_PATIENCE", given)
    assert head_patience() == seconds


@pytest.mark.parametrize("given", ["0", "-1", "soon", "nan", "inf"])
def test_a_patience_that_is_no_time_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                 given: str) -> None:
    from arena.cluster import head_patience
    from arena.errors import ArenaError

    monkeypatch.setenv("ARENA_HEAD_PATIENCE", given)
    with pytest.raises(ArenaError, match=r"^ARENA_HEAD_PATIENCE must be a number of seconds "
                                         r"above 0, not '"):
        head_patience()


@pytest.mark.parametrize("reply", [b"HTTP/1.0 400 Bad Request\r\n\r\n", b""])
def test_an_address_where_something_else_answers_is_one_line_at_once(reply: bytes) -> None:
    """Drill (ops): ``--address`` at a port where a web server (or anything not a Ray head)
    listens: Ray retried for minutes without a word (still joining after 200 s). A server
    that answers HTTP/2's preface with no SETTINGS frame, or hangs up, is no Ray head."""
    import socket
    import threading

    from arena.cluster import join
    from arena.errors import ArenaError

    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        connection, _ = server.accept()
        with connection:
            connection.recv(64)
            connection.sendall(reply)

    answering = threading.Thread(target=answer, daemon=True)
    answering.start()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(ArenaError, match=f"cannot join the Ray cluster at {address}: "
                                             "something answers there, but not a Ray head"):
            join(address, None, ())
    finally:
        answering.join(10)
        server.close()


def test_the_instance_ray_start_left_is_offered_from_where_the_readme_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``ray_current_cluster`` file that ``ray start`` leaves in ``$RAY_TMPDIR/ray`` names
    the instance offered; one started with ``--temp-dir X`` is found through its raylet
    (``test_cli.py``), as the README says."""
    import socket

    from arena import cluster
    from arena.cluster import running_instance

    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    assert ("one started with `--temp-dir X` too: its address is in `X/ray_current_cluster`"
            in readme)
    monkeypatch.setattr(cluster, "_raylet_temp_folders", list)  # no other Ray of the machine's
    # and that `ray stop` (Ray 2.60: no --address) ends every instance, not this one alone
    assert "`ray stop`, which takes no address" in readme
    with socket.create_server(("127.0.0.1", 0)) as head:
        address = f"127.0.0.1:{head.getsockname()[1]}"
        (tmp_path / "ray").mkdir()
        (tmp_path / "ray" / "ray_current_cluster").write_text(address + "\n")
        monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
        assert running_instance() == address
        monkeypatch.setenv("RAY_TMPDIR", str(tmp_path / "elsewhere"))
        assert running_instance() is None
