"""``pipboard export``: a game played on the simulator, pulled over the protocol, read by the real gnubg."""

import os
import random

import pytest

pytest.importorskip("pipboard.simboard", reason="the simulated board (controller issue) is not on this branch yet")

from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view  # noqa: E402
from pipboard import export  # noqa: E402
from pipboard.link import Link  # noqa: E402
from pipboard.simboard import VirtualPlayer  # noqa: E402
from pipboard.websim import server  # noqa: E402
from pipcore.record import read_record, replay  # noqa: E402


def play_until_game_over(sim, seed, double_rate=0.1):
    """Virtual players play one game (cube actions included) and stop at its end, record intact."""
    from pipcore.controller import CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, PICK, SETUP, TURN_START

    board = sim.sim.board
    rng = random.Random(seed)
    with sim.sim.lock:
        player = VirtualPlayer(board, rng, cut_rate=0.0)
        for _ in range(3000):
            ctl = board.ctl
            ph = ctl.phase
            if ph in (GAME_OVER, MATCH_OVER):
                return ctl.result
            if ph == SETUP:
                board.follow_guidance()
            elif ph == OPENING:
                board.press("ROLL")
            elif ph == TURN_START:
                board.press("DOUBLE" if ctl.can_double() and rng.random() < double_rate else "ROLL")
            elif ph == CUBE_OFFERED:
                board.press("DROP" if rng.random() < 0.2 else "TAKE")
            elif ph in (MOVING, PICK):
                player.play_turn()
    raise AssertionError("the game did not end")


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed (make setup installs it)")
def test_export_of_simulated_games_imports_into_gnubg(tmp_path):
    jobs = []
    expected = []
    for seed in (3, 4, 5):
        sim = server.start(seed=seed, http_port=0, protocol_port=0)
        try:
            result = play_until_game_over(sim, seed)
            assert result is not None
            path = str(tmp_path / ("game%d.mat" % seed))
            assert export.run("sim:" + sim.protocol_address, path, out=open(os.devnull, "w")) == 0
            with Link.open("sim:" + sim.protocol_address) as link:
                snap = link.snapshot()
                data = link.record()
        finally:
            sim.close()
        assert export.is_binary_record(data), data[:40]
        assert snap["options"]["matchLength"] == read_record(data).options["matchLength"]
        record = read_record(data)
        jobs.append({"path": path, "commands": commands_for(record.options)})
        expected.append(expected_from_record(record))
        with open(path) as f:
            text = f.read()
        assert "Game 1" in text and "Wins" in text, text
    dumps = gnubg_read(jobs, timeout=300)
    for dump, want in zip(dumps, expected):
        assert "error" not in dump, dump
        got = gnubg_view(dump)
        assert len(got) == len(want) == 1
        assert got[0]["actions"] == want[0]["actions"]
        assert got[0]["winner"] == want[0]["winner"] and got[0]["points"] == want[0]["points"]


def play_match(sim, seed):
    """Virtual players play every game of the match until it is over; returns the controller."""
    from pipcore.controller import GAME_OVER, MATCH_OVER

    board = sim.sim.board
    for _ in range(40):
        play_until_game_over(sim, seed, double_rate=0.02)
        seed += 100
        with sim.sim.lock:
            if board.ctl.phase == MATCH_OVER:
                return board.ctl
            assert board.ctl.phase == GAME_OVER
            board.press("DONE")
    raise AssertionError("the match did not end")


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed (make setup installs it)")
def test_export_of_a_whole_simulated_match_imports_into_gnubg(tmp_path):
    """A 3-point match on the simulator: the export holds every game, and gnubg reads the same games and scores."""
    sim = server.start(seed=11, http_port=0, protocol_port=0, options={"matchLength": 3})
    try:
        ctl = play_match(sim, 11)
        games = list(ctl.games)
        scores = list(ctl.scores)
        path = str(tmp_path / "match.mat")
        assert export.run("sim:" + sim.protocol_address, path, out=open(os.devnull, "w")) == 0
        with Link.open("sim:" + sim.protocol_address) as link:
            data = link.record()
    finally:
        sim.close()
    assert len(games) >= 2, games  # a match, not one game (seed chosen so)
    assert max(scores) >= 3
    record = read_record(data)
    assert not record.torn and record.options["matchLength"] == 3
    ref = replay(record)
    assert list(ref.match.score) == scores
    want = expected_from_record(record)
    assert len(want) == len(games)
    with open(path) as f:
        text = f.read()
    assert " 3 point match" in text and "Game %d" % len(games) in text, text[:300]
    dump = gnubg_read([{"path": path, "commands": commands_for(record.options)}], timeout=300)[0]
    assert "error" not in dump, dump
    got = gnubg_view(dump)
    assert len(got) == len(games)
    for g, w, (_, winner, points, _) in zip(got, want, games):
        assert g["score"] == w["score"]
        assert g["actions"] == w["actions"]
        assert g["winner"] == w["winner"] == "XO"[winner] and g["points"] == w["points"] == points


def test_export_without_a_record_is_a_clear_error():
    sim = server.start(seed=1, http_port=0, protocol_port=0)
    try:
        with Link.open("sim:" + sim.protocol_address) as link:
            with pytest.raises(export.ExportError) as err:
                export.export(link, os.devnull)
        assert "no game record" in str(err.value)
    finally:
        sim.close()


def test_export_to_sgf_by_extension(tmp_path):
    sim = server.start(seed=6, http_port=0, protocol_port=0)
    try:
        play_until_game_over(sim, 6)
        path = str(tmp_path / "game.sgf")
        assert export.run("sim:" + sim.protocol_address, path, out=open(os.devnull, "w")) == 0
    finally:
        sim.close()
    with open(path) as f:
        text = f.read()
    assert text.startswith("(;") and "GM[6]" in text, text[:200]


def test_unknown_log_line_is_reported_with_its_number():
    with pytest.raises(export.ExportError) as err:
        export.text_log_to_record("white rolls 31\nsomething odd\n", {})
    assert "line 2" in str(err.value) and "something odd" in str(err.value)
