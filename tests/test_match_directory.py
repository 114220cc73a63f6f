"""The board's directory of matches over the protocol: ``pipboard export --list``, ``--match N``, dates, deletion.

Two short matches are played on the simulator (the second started by the host); the host lists them,
exports one by number (marked exported on the board), refuses an unknown number, and deletes one only
when asked; the board dates matches by the host's clock.
"""

import io
import os
import random

import pytest

from pipboard import export
from pipboard.link import CommandError, Link
from pipboard.simboard import VirtualPlayer
from pipboard.websim import server
from pipcore.record import read_record

pytest.importorskip("pipboard.simboard")


def play_games(board, n, seed):
    player = VirtualPlayer(board, random.Random(seed), cut_rate=0.0, double_rate=0.0)
    for _ in range(n):
        player.play_game()


def test_list_export_by_number_dates_and_deletion(tmp_path):
    sim = server.start(seed=8, http_port=0, protocol_port=0, flash_dir=str(tmp_path / "flash"))
    target = "sim:" + sim.protocol_address
    try:
        with Link.open(target) as link:
            assert link.set_time(1764597600)  # 2025-12-01 14:00 UTC
        with sim.sim.lock:
            play_games(sim.sim.board, 1, 8)
        with Link.open(target) as link:
            link.new_game()  # a new match from the host: the first one is closed and kept
        out = io.StringIO()
        assert export.run(target, "-", out=out, listing=True) == 0
        lines = out.getvalue().splitlines()
        assert len([x for x in lines if x.strip()[:1].isdigit()]) == 2, lines
        assert "2025-12-01 14:00" in lines[0] and "closed" in lines[0] and "not exported" in lines[0]
        assert "playing" in lines[1]
        path = str(tmp_path / "first.mat")
        assert export.run(target, path, out=io.StringIO(), match=1) == 0
        with open(path) as f:
            text = f.read()
        assert '; [EventDate "2025.12.01"]' in text and "Game 1" in text and "Wins" in text
        with Link.open(target) as link:
            entries, storage = link.matches()
            first = entries[0]
            assert first["exported"] == first["bytes"] > 0 and not first["open"]
            assert storage["free"] > 0 and storage["low"] is False
            assert read_record(link.record(1)).players == ["white", "black"]
            with pytest.raises(CommandError):
                link.record(99)
            with pytest.raises(CommandError):  # the match being played is never deleted
                link.delete_match(entries[1]["id"])
            sgf = str(tmp_path / "first.sgf")
            export.export_match(link, first, sgf, io.StringIO())
            with open(sgf) as f:
                assert f.read().startswith("(;") and "DT[2025-12-01]" in open(sgf).read()
            link.delete_match(1)
            assert [e["id"] for e in link.matches()[0]] == [entries[1]["id"]]
        err = io.StringIO()
        assert export.run(target, str(tmp_path / "x.mat"), out=io.StringIO(), match=1) == 1
        assert export.run(target, str(tmp_path / "second.sgf"), out=io.StringIO(), match=entries[1]["id"],
                          sgf=True) == 1  # nothing played in it yet: a clear error, no file
        folder = str(tmp_path / "all")
        assert export.run(target, folder, out=io.StringIO(), every=True) == 0  # (the empty match is skipped)
        assert os.listdir(folder) == []  # match 1 was deleted; the live one has nothing yet
        assert sorted(os.listdir(str(tmp_path / "flash")))  # the simulated flash is a folder
        del err
    finally:
        sim.close()


def test_the_cli_parses_the_directory_options():
    from pipboard.cli import build_parser

    args = build_parser().parse_args(["export", "--all", "-o", "DIR", "--sgf", "--sim"])
    assert args.all and args.sgf and args.output == "DIR"
    args = build_parser().parse_args(["export", "--match", "3"])
    assert args.match == 3
    with pytest.raises(SystemExit):
        build_parser().parse_args(["export", "--list", "--all"])
