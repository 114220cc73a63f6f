"""Player names in .mat files: long ones both ways with gnubg, and names that try to inject lines.

* gnubg 1.07 writes a name of 31 characters (the most it keeps) with no space before the second
  column (`` Maximilian Alexander von Hohenz : 0Bob : 0``): ``pipboard import`` reads gnubg's own file
  (``tests/fixtures/longnames/gnubg-31.mat``, written by ``export match mat``; and one gnubg writes now);
* our exports write names gnubg reads back exactly: names of 26, 27, 31, 40 and 60 characters, with
  spaces, on either side: gnubg reads the name gnubg itself keeps for it (its first 31 characters), reads
  the games as ours, and our import gets the full names back;
* a name with newlines (a room pairing) cannot add a line to the file: one rule (``pipboard.fields``)
  makes every control character a space; pairings, rounds and salts are checked with clear refusals.
"""

import io
import os
import re
import subprocess

import pytest
from gnubg_replay import GNUBG, commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard.fields import FieldError, check_pairing, check_round, check_salt, clean_field, clean_name
from pipboard.matfile import export_mat, import_mat
from pipcore.record import read_record
from random_match import random_match

HERE = os.path.dirname(os.path.abspath(__file__))
LONG = "Maximilian Alexander von Hohenzollern Sigmaringen der Dritte"  # 60 characters
needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
EVIL = "Mallory\n Game 1\n Mallory : 0   Bob : 0\n  1) 66: 24/18 24/18 13/7 13/7\r\n\x85\u2028Eve"


def test_gnubg_s_own_file_with_a_31_character_name_imports():
    with open(os.path.join(HERE, "fixtures", "longnames", "gnubg-31.mat")) as f:
        text = f.read()
    assert " Maximilian Alexander von Hohenz : 0Bob : 0\n" in text  # gnubg's layout, no gap
    _, ref = import_mat(text)
    assert ref.players == ("Maximilian Alexander von Hohenz", "Bob") and ref.match.score == [0, 4]


@needs_gnubg
def test_a_file_gnubg_writes_now_with_long_names_imports(tmp_path):
    path = str(tmp_path / "long.mat")
    script = tmp_path / "write.py"
    script.write_text("import gnubg\nfor c in %r:\n    gnubg.command(c)\n" % [
        "set confirm new off", "set player 0 gnubg", "set player 1 gnubg", "set seed 9",
        "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
        "new match 1", "set player 0 name " + LONG, "set player 1 name Ann", 'export match mat "%s"' % path])
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    with open(path) as f:
        _, ref = import_mat(f.read())
    assert ref.players == (LONG[:31], "Ann")


def named(record, white, black):
    record.players = [white, black]
    return record


@needs_gnubg
def test_our_exports_give_gnubg_the_names_at_any_length(tmp_path):
    names = [LONG[:n] for n in (26, 27, 31, 40, 60)] + ["Carla  Ruiz de la Fuente y Ortega", " Ann  Lee "]
    cases = []
    for k, name in enumerate(names):
        for pair in ((name, "Bob"), ("Bob", name), (name, name[::-1])):
            data, ref = random_match(100 + k)
            record = named(read_record(data), *pair)
            path = str(tmp_path / ("m%d-%d.mat" % (k, len(cases))))
            with open(path, "w") as f:
                f.write(export_mat(record))
            cases.append((path, record, ref))
    dumps = gnubg_read([{"path": p, "commands": commands_for(ref.options)} for p, _, ref in cases])
    for (path, record, ref), dump in zip(cases, dumps):
        assert "error" not in dump, dump
        info = dump["match"]["match-info"]
        for side, full in (("X", record.players[0]), ("O", record.players[1])):
            # what gnubg keeps of a name: its first 31 characters, runs of spaces made one (as we write them)
            want = " ".join(full.split())[:31].strip()
            assert info[side]["name"] == want, (path, side, info[side]["name"], want)
        assert gnubg_view(dump) == expected_from_record(record), path
        with open(path) as f:
            _, back = import_mat(f.read())
        assert back.players == tuple(clean_name(p) for p in record.players), path  # our import: the full names


def test_a_name_with_newlines_adds_no_line_to_the_file():
    data, ref = random_match(5)
    record = named(read_record(data), EVIL, "Bob")
    text = export_mat(record)
    games = ref.game_number
    assert len(re.findall(r"(?m)^ Game \d+$", text)) == games and " Mallory Game 1 Mallory _ 0 Bob : 0" in text
    lines = text.splitlines()
    assert " Mallory : 0   Bob : 0" not in lines and not [x for x in lines if x.startswith("  1) 66: 24/18 24/18 13/7")]
    _, back = import_mat(text)
    assert back.players[0] == clean_name(EVIL) and "\n" not in back.players[0] and back.game_number == games
    assert len(text.splitlines()) == len(export_mat(named(read_record(data), "Mallory", "Bob")).splitlines()) + 1


@needs_gnubg
def test_gnubg_reads_a_file_whose_name_tried_to_inject_lines(tmp_path):
    from pipboard.room import match_texts

    data, ref = random_match(5)
    mat, sgf = match_texts(data, {}, {"white": EVIL, "black": "Bob"}, "Club\nnight", "3")
    path = tmp_path / "evil.mat"
    path.write_text(mat)
    (dump,) = gnubg_read([{"path": str(path), "commands": commands_for(ref.options)}])
    record = named(read_record(data), EVIL, "Bob")
    assert gnubg_view(dump) == expected_from_record(record)
    assert dump["match"]["match-info"]["O"]["name"] == "Bob"
    assert "\n" not in sgf.split("PW[")[1].split("]")[0]


def test_one_rule_cleans_names_and_events():
    assert clean_field("A\tB\x00C\x7fD\x85E\u2028F\u202eG", 80) == "A B C D E F G"
    assert clean_field("  x" * 50, 10) == "x  x  x  x" and clean_name("\n\r ") == "Player"
    assert len(clean_name("y" * 500)) == 60


def test_pairings_rounds_and_salts_are_checked():
    assert check_pairing({"white": " Ann\n", "black": "Bo", "round": 2, "event": "Club\nnight"}) == {
        "white": "Ann", "black": "Bo", "round": 2, "event": "Club night"}
    assert check_round("Final") == "Final" and check_round(" 7 ") == "7"
    for bad in ({"round": -1}, {"round": 0}, {"round": "-1"}, {"round": True}, {"round": 1.5}, {"round": "x" * 30},
                {"white": ""}, {"white": "\n"}, {"white": 7}, {"event": ["x"]}, {"colour": "red"}, "Ann", None):
        with pytest.raises(FieldError):
            check_pairing(bad)
    assert check_salt("0123456789abcdef0123456789ABCDEF")
    for bad in ("0123456789abcdef", "zz" * 16, "0123456789abcdef0123456789abcdef0", 12, None):
        with pytest.raises(FieldError):
            check_salt(bad)


def test_the_room_refuses_a_bad_pairing_and_cleans_a_good_one():
    from pipboard.room import BoardBridge, RoomError

    published = []
    out = io.StringIO()
    bridge = BoardBridge("club", "top", "sim:127.0.0.1:1", lambda *a: published.append(a), {"white": "Ann"},
                         round_=1, out=out)
    assert not bridge.set_pairing({"white": "Eve", "round": -1})
    assert "pairing refused: round -1" in out.getvalue() and bridge.round == 1 and bridge.players["white"] == "Ann"
    assert bridge.set_pairing({"white": EVIL, "round": "Final"})
    state = bridge.state()
    assert state["players"]["white"] == clean_name(EVIL) and state["round"] == "Final"
    with pytest.raises(RoomError):
        BoardBridge("club", "top", "sim:127.0.0.1:1", lambda *a: None, round_=-1)


def test_a_remote_match_refuses_a_salt_that_is_not_32_hex_characters():
    from pipboard.remote import RemoteMatch

    out = io.StringIO()
    match = RemoteMatch(None, "mqtt://127.0.0.1:1", "m1", "white", out=out, seed=b"s" * 32)
    from pipboard.remote import sign

    body = {"v": 1, "salt": "not hex at all", "by": "black", "n": 1}  # black's, signed with the match key
    body["mac"] = sign(match.key, match.match, "salt", body)
    match._on_message(match.topic("salt"), body, True)
    assert match.salt is None and "a salt was refused: a salt is 32 hex characters" in out.getvalue()
