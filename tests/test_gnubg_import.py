"""Matches GNU Backgammon wrote itself import cleanly, and survive import -> export -> gnubg.

The fixtures in tests/fixtures/gnubg/ are gnubg playing itself (match lengths
1 to 9, and money sessions with the cube, with and without the Jacoby rule and
beavers), saved with gnubg's own ``export match mat``; the script that makes
them is tests/fixtures/make_gnubg_fixtures.py. For each we check that

* our import accepts every roll, play, cube action and resignation, and our
  replay agrees with how gnubg reads the same file, game by game (start
  scores, dice, moves, the board before every play, cube actions, winner,
  points, final position);
* exporting our record and letting gnubg read that reproduces gnubg's reading
  of the original (same games, plays, cube values and scores), and gnubg's
  final Match ID and Position ID.
"""

import json
import os

import pytest
from gnubg_replay import expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard.matfile import export_mat, import_mat
from pipcore.record import read_record, replay

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "gnubg")

with open(os.path.join(FIXTURES, "fixtures.json")) as _f:
    META = json.load(_f)

NAMES = sorted(META)


def load(name):
    with open(os.path.join(FIXTURES, name)) as f:
        text = f.read()
    data, ref = import_mat(text, META[name]["options"] or None)
    return text, read_record(data), ref


def test_fixtures_cover_match_lengths_and_money_play_with_the_cube():
    lengths = set()
    doubles = 0
    resignations = 0
    for name in NAMES:
        _, record, ref = load(name)
        lengths.add(record.options["matchLength"])
        doubles += sum(1 for e in record.entries if e[0] == "cube")
        resignations += sum(1 for e in record.entries if e[0] == "resign")
        if record.options["matchLength"]:
            assert ref.match.is_over(), name
    assert {0, 1, 3, 5, 7, 9} <= lengths
    assert doubles >= 10 and resignations >= 1


@pytest.mark.parametrize("name", NAMES)
def test_gnubg_fixture_imports_cleanly(name):
    text, record, ref = load(name)
    again = replay(record)
    assert again.match.score == ref.match.score
    # every game in the file became a game of the record, with its result
    assert sum(1 for e in record.entries if e[0] == "game") == text.count(" Game ")
    assert sum(1 for e in record.entries if e[0] == "end") == ref.game_number


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_import_export_gnubg_reimport_reproduces_the_fixtures(tmp_path):
    jobs = []
    cases = []
    for name in NAMES:
        text, record, ref = load(name)
        out = os.path.join(str(tmp_path), name)
        with open(out, "w") as f:
            f.write(export_mat(record))
        settings = META[name]["gnubg_settings"]
        jobs.append({"path": os.path.join(FIXTURES, name), "commands": settings})
        jobs.append({"path": out, "commands": settings})
        cases.append((name, record, ref))
    dumps = gnubg_read(jobs)
    for i, (name, record, ref) in enumerate(cases):
        original, exported = dumps[2 * i], dumps[2 * i + 1]
        assert "error" not in original and "error" not in exported, (original, exported)
        theirs = gnubg_view(original)
        ours = expected_from_record(record)
        assert len(ours) == len(theirs), name
        for number, (o, t) in enumerate(zip(ours, theirs), 1):
            assert o == t, "%s game %d: our import differs from gnubg's reading\nours  %r\ngnubg %r" % (
                name, number, o, t)
        assert gnubg_view(exported) == theirs, name
        assert exported["matchid"] == original["matchid"] == ref.match_id(), name
        assert exported["positionid"] == original["positionid"] == ref.position_id(), name
