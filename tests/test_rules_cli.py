"""``pipboard rules``: JSON lines in, one JSON line out per request."""

import json
import os
import subprocess

from pipboard.rules_cli import MAX_LINE, handle_line
from pipcore.position import Position
from pipcore.rules import Turn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIPBOARD = os.path.join(ROOT, ".venv", "bin", "pipboard")
START = "4HPwATDgc/ABMA"


def ask(position_id, dice):
    return handle_line(json.dumps({"position_id": position_id, "dice": dice}))


def test_opening_three_one():
    out = ask(START, [3, 1])
    assert out["position_id"] == START and out["dice"] == [3, 1]
    plays = out["plays"]
    assert plays == sorted(plays) and len(set(plays)) == len(plays)
    start = Position.start()
    # the classic 8/5 6/5 is among them, encoded with the mover still on roll
    made_point = Position.from_dicts({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {1: 2, 12: 5, 17: 3, 19: 5})
    assert made_point.position_id() in plays
    for pid in plays:
        result = Position.from_id(pid)
        assert result.opp == start.opp  # orientation unchanged: the opponent did not move
        assert result.pips() == 167 - 4
    expected = sorted(set(r.position_id() for r in Turn(start, (3, 1)).results()))
    assert plays == expected
    assert len(plays) == 16  # gnubg lists 16 moves for the opening 3-1


def test_dice_order_does_not_matter_and_is_echoed():
    a = ask(START, [1, 3])
    assert a["dice"] == [1, 3]
    assert a["plays"] == ask(START, [3, 1])["plays"]


def test_doubles_and_one_sided_positions():
    out = ask(START, [6, 6])
    assert len(out["plays"]) == 11  # RULES.md BG-05
    bg03 = Position.from_dicts({13: 1, 6: 14}, {10: 2, 8: 2})
    only = Position.from_dicts({13: 1, 6: 12, 3: 1, 1: 1}, {10: 2, 8: 2})  # 6/3 6/1, BG-03
    assert ask(bg03.position_id(), [5, 3])["plays"] == [only.position_id()]


def test_nothing_to_play_gives_an_empty_list():
    blocked = Position.from_dicts({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {20: 2, 22: 2})  # BG-10
    out = ask(blocked.position_id(), [5, 3])
    assert out["plays"] == []
    assert "error" not in out


def test_hits_show_in_the_result_ids():
    bg12 = Position.from_dicts({13: 1, 1: 14}, {9: 1})
    plays = ask(bg12.position_id(), [4, 2])["plays"]
    bars = sorted(Position.from_id(pid).opp[25] for pid in plays)
    assert bars == [0, 1]


def test_bad_lines_get_an_error_each():
    bad = [
        "not json",
        "{",
        "[1, 2]",
        "42",
        '"4HPwATDgc/ABMA"',
        "null",
        json.dumps({"dice": [3, 1]}),
        json.dumps({"position_id": START}),
        json.dumps({"position_id": "4HPwATDgc/ABM", "dice": [3, 1]}),
        json.dumps({"position_id": "4HPwATDgc/AB!A", "dice": [3, 1]}),
        json.dumps({"position_id": "//////////////", "dice": [3, 1]}),
        json.dumps({"position_id": Position.from_dicts({6: 15}, {6: 1}).position_id(), "dice": [3, 1]}),
        json.dumps({"position_id": 12345, "dice": [3, 1]}),
        json.dumps({"position_id": None, "dice": [3, 1]}),
        json.dumps({"position_id": START, "dice": [0, 1]}),
        json.dumps({"position_id": START, "dice": [7, 1]}),
        json.dumps({"position_id": START, "dice": [-3, 1]}),
        json.dumps({"position_id": START, "dice": [10 ** 30, 1]}),
        json.dumps({"position_id": START, "dice": [3]}),
        json.dumps({"position_id": START, "dice": [3, 1, 2]}),
        json.dumps({"position_id": START, "dice": ["3", 1]}),
        json.dumps({"position_id": START, "dice": [3.0, 1]}),
        json.dumps({"position_id": START, "dice": [True, 1]}),
        json.dumps({"position_id": START, "dice": "31"}),
        json.dumps({"position_id": START, "dice": {"a": 3}}),
        json.dumps({"position_id": START, "dice": None}),
        "[" * 50000,
        json.dumps({"position_id": START, "dice": [3, 1], "pad": "x" * (MAX_LINE + 1)}),
        "{\"position_id\": NaN, \"dice\": [3, 1]}",
    ]
    for line in bad:
        out = handle_line(line)
        assert set(out) == {"error"}, (line[:80], out)
        assert isinstance(out["error"], str) and out["error"], line[:80]


def test_error_messages_say_what_is_wrong():
    assert "not JSON" in handle_line("not json")["error"]
    assert "position_id" in handle_line(json.dumps({"dice": [3, 1]}))["error"]
    assert "dice" in ask(START, [7, 1])["error"]
    assert "14 characters" in ask("abc", [3, 1])["error"]
    assert "longer than" in handle_line("x" * (MAX_LINE + 1))["error"]


def test_command_line_answers_every_line_and_keeps_going():
    lines = [
        json.dumps({"position_id": START, "dice": [3, 1]}),
        "garbage",
        "",
        json.dumps({"position_id": "AAAAAAAAAAAAA!", "dice": [3, 1]}),
        "[" * 60000,
        json.dumps({"position_id": START, "dice": [6, 6]}),
    ]
    last = json.dumps({"position_id": START, "dice": [2, 1]})
    data = ("\n".join(lines) + "\n").encode() + b"\xff\xfe\n" + last.encode() + b"\n"  # undecodable bytes
    proc = subprocess.run([PIPBOARD, "rules"], input=data, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(answers) == 7  # the blank line gets no answer
    assert answers[0] == ask(START, [3, 1])
    assert "error" in answers[1] and "error" in answers[2] and "error" in answers[3]
    assert len(answers[4]["plays"]) == 11
    assert "error" in answers[5]
    assert answers[6] == ask(START, [2, 1])
    assert proc.stderr == b""
