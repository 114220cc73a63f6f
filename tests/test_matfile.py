""".mat export and import: round trips through the real GNU Backgammon, and bad input.

The round trip: random complete matches (random legal plays, random cube
actions, random options and lengths) are recorded, exported to .mat, read by
``gnubg -t`` (one process for the whole batch) and compared game by game:
start scores, every play's dice, move and the board before it, every cube
action, winner, points, the final position of every game, and gnubg's final
Match ID and Position ID. 20 matches in ``make test``, 200 in ``make soak``.
"""

import os

import pytest
from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard import cli
from pipboard.matfile import (
    MatExportError,
    MatImportError,
    export_mat,
    export_record,
    export_warnings,
    import_mat,
    parse_mat,
)
from pipcore.cube import BEAVER, OFFER, TAKE
from pipcore.record import read_record
from random_match import random_match

needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")


def round_trip(seeds, tmp_path):
    """Export the random match of every seed, have gnubg read them all, compare."""
    jobs = []
    cases = []
    for seed in seeds:
        data, ref = random_match(seed)
        record = read_record(data)
        text = export_mat(record)
        # our own import gives back the very same record
        again, _ = import_mat(text)
        assert again == data, "seed %d: import(export(record)) differs from the record" % seed
        path = os.path.join(str(tmp_path), "m%d.mat" % seed)
        with open(path, "w") as f:
            f.write(text)
        jobs.append({"path": path, "commands": commands_for(record.options)})
        cases.append((seed, record, ref))
    dumps = gnubg_read(jobs)
    games = 0
    for (seed, record, ref), dump in zip(cases, dumps):
        assert "error" not in dump, dump
        expected = expected_from_record(record)
        got = gnubg_view(dump)
        assert len(got) == len(expected), "seed %d: gnubg read %d games, we played %d" % (seed, len(got),
                                                                                          len(expected))
        for number, (e, g) in enumerate(zip(expected, got), 1):
            assert g == e, "seed %d game %d differs:\nours  %r\ngnubg %r" % (seed, number, e, g)
        assert dump["matchid"] == ref.match_id(), seed
        assert dump["positionid"] == ref.position_id(), seed
        games += len(expected)
    return games


@needs_gnubg
def test_gnubg_replays_20_random_matches(tmp_path):
    games = round_trip(range(20), tmp_path)
    assert games >= 20


@needs_gnubg
@pytest.mark.soak
def test_gnubg_replays_200_random_matches(tmp_path):
    games = round_trip(range(1000, 1200), tmp_path)
    assert games >= 200


def test_record_round_trip_with_options_mat_cannot_say():
    """Options gnubg would not understand still survive our own export -> import."""
    seen = set()
    for seed in range(40):
        data, ref = random_match(seed, gnubg_compatible=False)
        record = read_record(data)
        text = export_mat(record)
        again, _ = import_mat(text)
        assert again == data, seed
        if record.options["autoDoubles"]:
            seen.add("autoDoubles")
        if record.options["cubeProgression"] == "arithmetic":
            seen.add("arithmetic")
        if record.options["openingReroll"]:
            seen.add("openingReroll")
        if export_warnings(record.options):
            seen.add("warned")
    assert {"autoDoubles", "arithmetic", "openingReroll", "warned"} <= seen


def test_export_layout_is_gnubg_s():
    data, _ = random_match(3)
    text = export_record(data)
    lines = text.splitlines()
    assert " %d point match" % read_record(data).options["matchLength"] in lines
    assert lines[lines.index(" Game 1") + 1].startswith(" ")
    header = lines[lines.index(" Game 1") + 1]
    assert header.index(":") < 32 <= header.rindex(":")
    assert any(line.startswith("  1) ") for line in lines)
    assert any(line.strip().startswith("Wins ") for line in lines)


GOOD = """ 3 point match

 Game 1
 alice : 0                      bob : 0
  1)                             21: 13/11 24/23
  2) 52: 13/8 24/22              63: 8/5 11/5
  3)  Doubles => 2                Drops
      Wins 1 point
"""


def test_import_small_file_and_names():
    data, ref = import_mat(GOOD)
    rec = read_record(data)
    assert rec.players == ["alice", "bob"]
    assert ref.match.score == [1, 0]
    assert [e[0] for e in rec.entries] == ["game", "opening", "play", "roll", "play", "roll", "play", "cube",
                                               "cube", "end"]
    assert rec.entries[1] == ("opening", 1, 2)


def bad(text, **options):
    with pytest.raises(MatImportError) as info:
        import_mat(text, options or None)
    return str(info.value)


def test_garbage_is_not_a_mat_file():
    assert "not a .mat file" in bad("hello\nworld\n")
    assert "not a .mat file" in bad("")
    assert "no games" in bad(" 5 point match\n")
    assert "header" in bad(" 5 point match\n\n Game 1\n nonsense here\n")


def test_illegal_play_names_game_move_and_line():
    text = GOOD.replace("52: 13/8 24/22", "52: 13/8 24/20")
    msg = bad(text)
    assert "game 1, move 2 (line 6" in msg and "52: 13/8 24/20" in msg


def test_illegal_cube_action_names_the_reason():
    text = GOOD.replace("  3)  Doubles => 2                Drops",
                        "  3)  Doubles => 2                Takes\n  4) 31: 8/5 6/5                42: 8/4 6/4\n"
                        "  5)  Doubles => 4")
    msg = bad(text)
    assert "game 1, move 5 (line 9" in msg and "only the cube owner may redouble" in msg


def test_beaver_needs_the_option_and_says_so():
    text = """ 0 point match

 Game 1
 alice : 0                      bob : 0
  1)                             21: 13/11 24/23
  2)  Doubles => 2                Doubles => 4
  3)  Takes                      
"""
    assert "beavers" in bad(text) and "option" in bad(text)
    data, ref = import_mat(text, {"beavers": True})
    assert ref.cube.value == 4 and ref.cube.owner == 1


def test_wrong_result_or_score_is_reported():
    assert "the game gives player 0 1 points" in bad(GOOD.replace("Wins 1 point", "Wins 2 points"))
    text = GOOD + "\n Game 2\n alice : 0                      bob : 2\n  1) 21: 13/11 24/23\n"
    assert "score 0-2" in bad(text)
    assert "double" in bad(GOOD.replace("21: 13/11 24/23", "22: 13/11 24/22 6/4 6/4", 1))


def test_unreadable_lines_and_moves():
    assert "cannot read" in bad(GOOD.replace("  2) 52:", "  2) xyzzy 52:"))
    assert "line 6" in bad(GOOD.replace("13/8 24/22", "13/8 24/z2"))
    assert "more than two" in bad(GOOD.replace("63: 8/5 11/5", "63: 8/5 11/5 Takes Drops"))


def test_moves_listed_in_an_unplayable_order_are_accepted():
    # 5-2 with one checker running 13/11/6, written with its second step first
    text = GOOD.replace("52: 13/8 24/22", "52: 11/6 13/11")
    with pytest.raises(MatImportError):
        import_mat(text.replace("11/6 13/11", "11/6 13/10"))
    data, ref = import_mat(text)
    assert ref.match.score == [1, 0]
    # the record keeps an order that can be played: one checker from 13 to 6 via 11 or 8
    play = read_record(data).entries[4]
    assert play[0] == "play" and play[2] in ([(13, 11), (11, 6)], [(13, 8), (8, 6)])


def test_export_of_a_corrupt_record_is_a_clear_error():
    with pytest.raises(MatExportError) as info:
        export_record(b"\x05Xjunk\x00\x00more")
    assert "not a Pipboard record" in str(info.value)


def test_parse_keeps_full_names_from_comments():
    data, _ = random_match(5)
    record = read_record(data)
    text = export_mat(record)
    length, games, _ = parse_mat(text)
    assert games[0]["names"] == tuple(record.players)


def test_cli_export_and_import(tmp_path, capsys):
    data, ref = random_match(7)
    record_path = tmp_path / "game.pbr"
    record_path.write_bytes(data)
    mat_path = tmp_path / "game.mat"
    assert cli.main(["export", str(record_path), "-o", str(mat_path)]) == 0
    assert mat_path.read_text() == export_record(data)
    assert cli.main(["import", str(mat_path)]) == 0
    out = capsys.readouterr().out
    assert "game.pbr" in out and "%d game" % ref.game_number in out
    assert (tmp_path / "game.pbr").read_bytes() == data
    # bad input: a clear message and exit status 1, no traceback
    (tmp_path / "junk.mat").write_text("junk\n")
    assert cli.main(["import", str(tmp_path / "junk.mat")]) == 1
    assert cli.main(["export", str(tmp_path / "junk.mat")]) == 1
    assert cli.main(["export", str(tmp_path / "missing.pbr")]) == 1
    err = capsys.readouterr().err
    assert "not a .mat file" in err and "not a Pipboard record" in err and "cannot read" in err
    assert "Traceback" not in err


def test_cli_export_of_a_torn_record_notes_it(tmp_path, capsys):
    data, _ = random_match(8)
    path = tmp_path / "cut.pbr"
    path.write_bytes(data[:-2])
    assert cli.main(["export", str(path)]) == 0
    captured = capsys.readouterr()
    assert "cut short" in captured.err and " Game 1" in captured.out


def test_damaged_records_and_mat_files_never_crash():
    """Random damage gives RecordError / MatExportError / MatImportError, never another exception."""
    import random

    from pipcore.record import RecordError, frame, replay

    rng = random.Random(2024)
    data, _ = random_match(4)
    for _ in range(200):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(damaged))
            op = rng.random()
            if op < 0.5:
                damaged[k] = rng.randrange(256)
            elif op < 0.7:
                del damaged[k:k + rng.randint(1, 20)]
            else:
                damaged[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 5)))
        try:
            replay(read_record(bytes(damaged)))
            export_record(bytes(damaged))
        except (RecordError, MatExportError):
            pass
    for _ in range(200):
        # well-framed entries with nonsense inside
        body = bytes([rng.choice(b"HNOGIRMCSET")]) + bytes(rng.randrange(256) for _ in range(rng.randint(0, 11)))
        try:
            record = read_record(data[:60] + frame(body) + data[60:])
            replay(record)
            export_mat(record)
        except (RecordError, MatExportError):
            pass
    for name, options in (("match5.mat", None), ("beavers.mat", {"beavers": True, "jacoby": True})):
        _damage_mat(rng, name, options)


def _damage_mat(rng, name, options):
    with open(os.path.join(os.path.dirname(__file__), "fixtures", "gnubg", name)) as f:
        lines = f.read().split("\n")
    for _ in range(150):
        damaged = list(lines)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(damaged))
            line = damaged[k]
            op = rng.random()
            if op < 0.4 and line:
                j = rng.randrange(len(line))
                damaged[k] = line[:j] + rng.choice("0123456789/*: abDTW()x-") + line[j + 1:]
            elif op < 0.6:
                del damaged[k]
            elif op < 0.8:
                damaged.insert(k, damaged[rng.randrange(len(damaged))])
            else:
                damaged[k] = line[:rng.randrange(len(line) + 1)]
        try:
            import_mat("\n".join(damaged), options)
        except MatImportError:
            pass


BEAVER_CHAIN = """; [Site "Club"]
; [Event "Winter League"]

; kept byte for byte\t
 0 point match

 Game 1
 Carla Ruiz : 0                 Bob Smith : 0
  1)                             21: 13/11 24/23
  2)  Doubles => 2                Beavers => 4
  3) 52: 13/8 24/22              63: 8/5 11/5
"""


def test_beaver_chain_without_the_take_that_closes_it():
    # gnubg writes no "Takes" after "Beavers => 4": the doubler simply rolls
    data, ref = import_mat(BEAVER_CHAIN, {"beavers": True})
    record = read_record(data)
    assert record.players == ["Carla Ruiz", "Bob Smith"]
    assert [e for e in record.entries if e[0] == "cube"] == [("cube", 0, OFFER), ("cube", 1, BEAVER), ("cube", 0, TAKE)]
    assert ref.cube.value == 4 and ref.cube.owner == 1
    assert record.header_lines == ['; [Site "Club"]', '; [Event "Winter League"]', "", "; kept byte for byte\t"]
    text = export_mat(record)
    assert text.startswith(BEAVER_CHAIN.split(" Game 1")[0].rstrip("\n") + "\n")
    assert import_mat(text)[0] == data
    # a plain double is not closed by a roll: that is an error naming game, move and line
    msg = bad(BEAVER_CHAIN.replace("Beavers => 4", "             "), beavers=True)
    assert "game 1, move 3 (line 11: '52: 13/8 24/22')" in msg and "cube answer" in msg


def test_roll_without_a_play_needs_a_resignation():
    text = GOOD.replace("  3)  Doubles => 2                Drops\n      Wins 1 point\n",
                        "  3) 43:                         Wins 1 point\n")
    data, ref = import_mat(text)
    assert ref.result.resigned and ref.result.winner == 1 and read_record(data).entries[-3][0] == "roll"
    assert import_mat(export_mat(read_record(data)))[0] == data
    msg = bad(GOOD.replace("  3)  Doubles => 2                Drops\n      Wins 1 point\n", "  3) 43:\n"))
    assert "game 1, move 3 (line 7: '43:')" in msg and "no resignation" in msg


def test_names_with_spaces_are_written_as_gnubg_writes_them():
    from pipboard.matfile import mat_name

    assert mat_name("  Carla   Ruiz ") == "Carla Ruiz"
    assert mat_name("A: B") == "A_ B" and mat_name("Joe,1500") == "Joe_1500" and mat_name("") == "Player"
