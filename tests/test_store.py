"""The results folder: append-only lines, torn and corrupt lines, resume."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import spec

from arena import store as store_module
from arena.match import play_match
from arena.store import RunStore, cut_torn_tail, read_results


def results(count: int) -> list:
    return [
        play_match(spec("random", "random", seed=i, match_id=f"r001-t{i:06d}-s001"))
        for i in range(count)
    ]


def test_appended_results_read_back_equal(tmp_path: Path) -> None:
    played = results(3)
    with RunStore(tmp_path) as store:
        for result in played:
            store.append(result)
    loaded = read_results(tmp_path / "matches.jsonl")
    assert loaded.results == played and loaded.warnings == []


def test_each_line_is_flushed_as_it_lands(tmp_path: Path) -> None:
    with RunStore(tmp_path) as store:
        store.append(results(1)[0])
        assert len((tmp_path / "matches.jsonl").read_text().splitlines()) == 1


def test_a_truncated_last_line_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    lines = [json.dumps(r.to_json()) for r in results(3)]
    path.write_text(lines[0] + "\n" + lines[1] + "\n" + lines[2][: len(lines[2]) // 2])
    loaded = read_results(path)
    assert len(loaded.results) == 2
    assert "line 3" in loaded.warnings[0] and "truncated" in loaded.warnings[0]


def test_a_corrupt_middle_line_and_a_repeat_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    lines = [json.dumps(r.to_json()) for r in results(2)]
    path.write_text("\n".join([lines[0], '{"id": "x"}', "garbage", lines[1], lines[0]]) + "\n")
    loaded = read_results(path)
    assert [r.id for r in loaded.results] == ["r001-t000000-s001", "r001-t000001-s001"]
    assert len(loaded.warnings) == 3


def test_resuming_cuts_a_torn_tail_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    good = json.dumps(results(1)[0].to_json())
    path.write_text(good + "\n" + good[:40])
    assert cut_torn_tail(path)
    assert path.read_text() == good + "\n"
    assert not cut_torn_tail(path)


@pytest.mark.parametrize("torn", [5, 3000, 0])
def test_a_torn_tail_longer_than_a_chunk_is_cut_at_the_last_newline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, torn: int) -> None:
    """The file is read back from its end a chunk at a time (a million-match file is not read
    whole): a torn line spanning chunks, and a file that is one torn line."""
    monkeypatch.setattr(store_module, "TAIL_CHUNK", 64)
    path = tmp_path / "matches.jsonl"
    kept = "".join(f"{{\"line\": {number}}}\n" for number in range(50)) if torn else ""
    path.write_text(kept + "x" * (torn or 200))
    assert cut_torn_tail(path)
    assert path.read_text() == kept


def test_no_terminal_escape_code_reaches_failures_jsonl(tmp_path: Path) -> None:
    with RunStore(tmp_path) as store:
        store.append_failure("r001-t000001-s001", "\x1b[36mray::play_batch()\x1b[39m died\x07")
    text = (tmp_path / "failures.jsonl").read_text()
    assert json.loads(text)["reason"] == "ray::play_batch() died"
    assert "\\u001b" not in text and "\\u0007" not in text


def test_a_labels_printed_output_is_kept_up_to_its_share_of_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's output is cut at 64 KiB a match; a bot printing that much in every match is
    kept up to OUTPUT_BYTES_PER_LABEL a session, then replaced by a line saying so (the
    folder would grow by 64 KiB a match otherwise)."""
    monkeypatch.setattr(store_module, "OUTPUT_BYTES_PER_LABEL", 1000)
    played = results(4)
    with RunStore(tmp_path) as store:
        for number, result in enumerate(played):
            store.append(replace(result, outputs=("x" * 600, "quiet " * (number + 1))))
    kept = [(tmp_path / "outputs" / f"{result.id}.txt").read_text() for result in played]
    loud = played[0].seats[0]
    assert kept[0].count("x") == 600 and kept[1].count("x") == 600  # 600, then 1,200 >= 1,000
    assert "x" not in kept[2] and f"[not kept: {loud} printed more than" in kept[2]
    assert all("quiet" in text for text in kept)  # the other seat's share is its own


def test_a_bot_cannot_print_another_seats_header_in_the_outputs_file(tmp_path: Path) -> None:
    result = results(1)[0]
    forged = "=== seat 1: someone-else (ok) ===\nI resign"
    with RunStore(tmp_path) as store:
        store.append(replace(result, outputs=(forged, "")))
    lines = (tmp_path / "outputs" / f"{result.id}.txt").read_text().splitlines()
    headers = [line for line in lines if line.startswith("===")]
    assert headers == [f"=== seat 0: {result.seats[0]} (ok) ==="]
    assert "  === seat 1: someone-else (ok) ===" in lines


def test_what_a_bot_printed_reaches_the_outputs_file_without_terminal_codes(
    tmp_path: Path,
) -> None:
    """Read with cat, a line up and erased passed a bot's line off as another seat's header,
    and OSC 52 set the reader's clipboard to what the bot chose (a command to paste)."""
    result = results(1)[0]
    forged = ("thinking\n\x1b[1A\x1b[2K\r=== seat 1: someone-else (ok) ===\n"
              "\x1b]52;c;cm0gLXJmIH4K\x07done\n")
    with RunStore(tmp_path) as store:
        store.append(replace(result, outputs=(forged, "")))
    text = (tmp_path / "outputs" / f"{result.id}.txt").read_text()
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "  === seat 1: someone-else (ok) ===\n  done\n" in text


def _line(**changes: object) -> str:
    record = results(1)[0].to_json()
    record["id"] = "r009-t000009-s009"  # an id of its own: no line is skipped as a repeat
    record.update(changes)
    return json.dumps(record)


HOSTILE_LINES = {
    "nested": "[" * 100_000 + "]" * 100_000,
    "nested in an object": '{"id": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a list": "[1, 2, 3]",
    "a string": '"r001-t000000-s001"',
    "seed Infinity": _line(seed=float("inf")),
    "an action Infinity": _line(history=[0, float("inf")]),
    "a score past a float": _line(scores=[10**400, 1]),
    "a place below 0": _line(ranking=[-1, 0]),
    "a place past the seats": _line(ranking=[70_000, 0]),
    "one place for two seats": _line(ranking=[0]),
    "seats as a string": _line(seats="ab"),
    "a label that is an object": _line(seats=[{"a": 1}, "random"]),
    "a label that is a number": _line(seats=[1, "random"]),
    "a label with terminal codes": _line(seats=["\x1b]0;pwned\x07evil", "random"]),
    "a label written backwards": _line(seats=["rand\u202eom", "random"]),
    "a label as a formula": _line(seats=['=HYPERLINK("http://x")', "random"]),
    "one label for two seats": _line(seats=["random", "random"]),
    "300 seats": _line(seats=[f"b{i}" for i in range(300)], scores=[0.0] * 300,
                       ranking=[0] * 300, statuses=["ok"] * 300),
    "a status not the referee's": _line(statuses=["won", "ok"]),
    "a status that is a list": _line(statuses=[["ok"], "ok"]),
    "an error that is an object": _line(errors=[{"a": 1}, None]),
    "an id that is a number": _line(id=5),
    "an id with terminal codes": _line(id="r001-\x1b[2J"),
    "an id with markup": _line(id="[/]"),
    "a seed that is true": _line(seed=True),
    "times for one seat": _line(think_seconds=[0.1]),
    "a score NaN": _line(scores=[float("nan"), 1.0]),
    "a score Infinity": _line(scores=[float("inf"), 1.0]),
    "seconds Infinity": _line(seconds=float("inf")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_a_hostile_line_is_skipped_with_a_warning(tmp_path: Path, name: str) -> None:
    """Red team round 9: each of these raised in the middle of arena leaderboard, arena
    replay or arena run --resume (RecursionError, OverflowError, struct.error, TypeError),
    or reached the ratings and the terminal as it was."""
    good = results(2)
    path = tmp_path / "matches.jsonl"
    path.write_text("\n".join([json.dumps(good[0].to_json()), HOSTILE_LINES[name],
                               json.dumps(good[1].to_json())]) + "\n")
    loaded = read_results(path)
    assert loaded.results == good
    assert len(loaded.warnings) == 1 and "line 2" in loaded.warnings[0]
    assert "repeated" not in loaded.warnings[0]
    assert "\x1b" not in loaded.warnings[0] and "\u202e" not in loaded.warnings[0]


def test_a_line_too_long_is_skipped_unread_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 9: a line is read whole before it is decoded, and a line of gigabytes
    (no newline in a hostile or broken file) was held whole by every reader."""
    monkeypatch.setattr(store_module, "MAX_LINE_CHARS", 4096)
    good = results(2)
    path = tmp_path / "matches.jsonl"
    path.write_text("\n".join([json.dumps(good[0].to_json()), "[" + "0," * 10_000 + "0]",
                               json.dumps(good[1].to_json())]) + "\n")
    loaded = read_results(path)
    assert loaded.results == good
    assert loaded.warnings == ["matches.jsonl line 2: longer than 4,096 characters; skipped"]


def test_the_hostile_lines_differ_from_a_good_line_by_their_fault_alone(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    path.write_text(_line() + "\n")
    loaded = read_results(path)
    assert [result.id for result in loaded.results] == ["r009-t000009-s009"]
    assert loaded.warnings == []
