"""A match record that stopped (the board's flash full) says so in every export, and a raw record exports as
``--match`` does.

On the simulator with its flash in a folder: a money session is played, the flash then fills so the
record stops while play goes on. The board's directory entry says in which game and why
(``stopped``, ``stopped_game``: ``pipcore.keeper``); ``pipboard export --list`` shows it, ``export --match``
and the live ``export`` write a ``; [Pipboard record "stopped in game N: ..."]`` line (which gnubg skips
and our import reads past) and a note on stderr; after a new match the closed entry still says it. The
record file copied off the flash with its directory entry beside it (``m00001.rec``, ``m00001.inf``)
exports to the very text ``--match`` writes: the date kept, no empty last game.
"""

import io
import os
import random
import shutil

import pytest
from gnubg_replay import gnubg_available, gnubg_read
from pipboard import cli, export
from pipboard.link import Link
from pipboard.matfile import import_mat
from pipboard.simboard import VirtualPlayer
from pipboard.websim import server
from pipdrivers import recstore


def test_a_stopped_record_is_said_by_list_export_and_the_file(tmp_path, capsys):
    flash_dir = tmp_path / "flash"
    sim = server.start(seed=12, http_port=0, protocol_port=0, flash_dir=str(flash_dir))
    target = "sim:" + sim.protocol_address
    try:
        with Link.open(target) as link:
            assert link.set_time(1764597600)  # 2025-12-01 14:00 UTC
        board = sim.sim.board
        player = VirtualPlayer(board, random.Random(12), cut_rate=0.0, double_rate=0.0)
        with sim.sim.lock:
            player.play_game()
            player.play_game()
            board.flash.capacity = board.flash.used() + recstore.RESERVE + 300  # the flash fills up
            games = 2
            while not board.ctl.records.stopped:
                player.play_game()
                games += 1
                assert games < 12, "the record never stopped"
            player.play_game()  # play goes on after the record stopped
            stopped_game = board.ctl.records.games + 1
        out = io.StringIO()
        assert export.run(target, "-", out=out, listing=True) == 0
        line = [x for x in out.getvalue().splitlines() if x.strip().startswith("1 ")][0]
        assert "RECORD stopped in game %d: the flash is full" % stopped_game in line, line
        mat = tmp_path / "m1.mat"
        capsys.readouterr()
        assert export.run(target, str(mat), out=io.StringIO(), match=1) == 0
        assert "record stopped in game %d" % stopped_game in capsys.readouterr().err
        text = mat.read_text()
        tag = '; [Pipboard record "stopped in game %d: the flash is full' % stopped_game
        assert tag in text and text.count("\n Game ") in (stopped_game - 1, stopped_game)  # (the last one cut)
        _, ref = import_mat(text)  # our import reads past the comment
        assert ref.game_number >= stopped_game - 1
        live = tmp_path / "live.mat"
        assert export.run(target, str(live), out=io.StringIO()) == 0
        assert '; [Pipboard record "the match record stopped (the flash is full' in live.read_text()
        if gnubg_available():
            (dump,) = gnubg_read([{"path": str(mat)}])
            assert "error" not in dump and len(dump["match"]["games"]) == ref.game_number
        # the raw record copied off the flash, with its directory entry: the same text as --match
        raw = tmp_path / "copy"
        raw.mkdir()
        for ext in (".rec", ".inf"):
            shutil.copy(str(flash_dir / ("m00001" + ext)), str(raw / ("m00001" + ext)))
        out_raw = tmp_path / "raw.mat"
        assert cli.main(["export", str(raw / "m00001.rec"), "-o", str(out_raw)]) == 0
        assert out_raw.read_text() == text
        assert '; [EventDate "2025.12.01"]' in text
        # a new match closes this one: its entry keeps saying where its record stopped
        board.flash.capacity = recstore.LOW_SPACE * 4 + board.flash.used()
        with Link.open(target) as link:
            link.new_game()
            entries, _ = link.matches()
        assert entries[0]["id"] == 1 and not entries[0]["open"]
        assert entries[0]["stopped_game"] == stopped_game and entries[0]["stopped"].startswith("the flash is full")
    finally:
        sim.close()


def test_a_raw_record_without_its_entry_exports_without_an_empty_last_game(tmp_path):
    sim = server.start(seed=13, http_port=0, protocol_port=0, flash_dir=str(tmp_path / "flash"))
    target = "sim:" + sim.protocol_address
    try:
        with sim.sim.lock:
            VirtualPlayer(sim.sim.board, random.Random(13), cut_rate=0.0, double_rate=0.0).play_game()
        by_match = tmp_path / "match.mat"
        assert export.run(target, str(by_match), out=io.StringIO(), match=1) == 0
    finally:
        sim.close()
    raw = tmp_path / "m00001.rec"
    shutil.copy(str(tmp_path / "flash" / "m00001.rec"), str(raw))  # the .inf left behind: no date to give
    out = tmp_path / "raw.mat"
    assert cli.main(["export", str(raw), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.count(" Game ") == 1 and "Game 2" not in text  # the board began game 2 at DONE: not written
    dated = by_match.read_text()  # (export dates the match by the host's clock; the raw file has no entry)
    assert "; [EventDate" in dated and [x for x in dated.splitlines() if "; [Event" not in x] == text.splitlines()


@pytest.mark.parametrize("games", [1, 2])
def test_describe_match_says_game_and_games(games):
    line = export.describe_match({"id": 3, "games": games, "players": ["a", "b"], "bytes": 10})
    assert ("%d game," % games in line) == (games == 1) and ("%d games," % games in line) == (games != 1)
    assert "RECORD" not in line


def test_export_match_says_1_game(tmp_path):
    class OneGame:
        def __init__(self, data):
            self.data = data

        def record(self, match=None):
            return self.data

        def mark_exported(self, match, length):
            pass

    from random_match import random_match

    for seed in range(40):
        data, ref = random_match(seed)
        if ref.game_number == 1:
            break
    out = io.StringIO()
    export.export_match(OneGame(data), {"id": 1}, str(tmp_path / "one.mat"), out)
    assert "1 game)" in out.getvalue() and "1 games" not in out.getvalue()
    assert os.path.exists(tmp_path / "one.mat")
