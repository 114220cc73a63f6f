"""A long money session on the simulated board, power cuts at random instants, exported whole.

Virtual players (``pipboard.simboard.VirtualPlayer``) play money games on the simulator with power
cuts at random instants (inside record appends and state saves too); the session is one match
however long it runs (no cut at 4 KB any more). ``pipboard export --all`` pulls it page by page over
the protocol, and the real gnubg imports it game by game: every game's actions, winner and points
equal ours. The normal suite plays a short session; ``make soak`` plays 500 games.
"""

import os
import random

import pytest

from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard import export
from pipboard.link import Link
from pipboard.simboard import VirtualPlayer
from pipboard.websim import server
from pipcore.record import read_record, replay

needs_gnubg = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed (make setup)")


def play_session(n_games, seed, tmp_path):
    """Play ``n_games`` money games with power cuts; returns (results, cuts, the exported .mat path, record)."""
    sim = server.start(seed=seed, http_port=0, protocol_port=0)
    try:
        board = sim.sim.board
        by_game = {}  # game number -> result (a cut inside the DONE after a game can show that game again)
        with sim.sim.lock:
            player = VirtualPlayer(board, random.Random(seed), cut_rate=0.01, double_rate=0.05, drop_rate=0.3)
            while len(by_game) < n_games:
                player._revive()
                number = board.ctl.game_no
                by_game[number] = player.play_game()
            cuts = board.power_cuts
        results = [by_game[k] for k in sorted(by_game)]
        assert sorted(by_game) == list(range(1, n_games + 1))
        folder = str(tmp_path / "export")
        with open(os.devnull, "w") as quiet:
            assert export.run("sim:" + sim.protocol_address, folder, out=quiet, every=True) == 0
        with Link.open("sim:" + sim.protocol_address) as link:
            entries, _ = link.matches()
            data = link.record(entries[-1]["id"])
    finally:
        sim.close()
    assert len(entries) == 1 and entries[0]["games"] == n_games  # one match: the whole session
    assert entries[0]["exported"] == entries[0]["bytes"] == len(data)  # marked exported on the board
    path = os.path.join(folder, "match-%05d.mat" % entries[0]["id"])
    return results, cuts, path, read_record(data)


def check_session(n_games, seed, tmp_path):
    results, cuts, path, record = play_session(n_games, seed, tmp_path)
    assert cuts >= 3, "the session met too few power cuts to mean anything (%d)" % cuts
    assert not record.torn and record.options["matchLength"] == 0
    games = record.games()
    # every game, as it ended (after the last DONE the next game has begun: at most its start and opening)
    assert len(games) in (n_games, n_games + 1)
    assert all(e[0] != "end" for e in games[n_games:][0]) if len(games) > n_games else True
    ends = [g[-1] for g in games[:n_games]]
    assert [(e[1], e[3]) for e in ends] == [(r[0], r[1]) for r in results]
    replay(record)  # the rules accept the whole session, entry by entry
    want = expected_from_record(export.without_empty_last_game(record))
    with open(path) as f:
        text = f.read()
    assert "Game %d" % n_games in text and "Game %d" % (n_games + 1) not in text
    dump = gnubg_read([{"path": path, "commands": commands_for(record.options)}], timeout=1800)[0]
    assert "error" not in dump, dump
    got = gnubg_view(dump)
    assert len(got) == len(want) == n_games
    for k, (g, w) in enumerate(zip(got, want)):
        assert g["actions"] == w["actions"], "game %d differs" % (k + 1)
        assert g["winner"] == w["winner"] and g["points"] == w["points"], "game %d" % (k + 1)
    return len(record.entries)


@needs_gnubg
def test_a_money_session_with_power_cuts_exports_whole_and_gnubg_reads_every_game(tmp_path):
    check_session(20, 31, tmp_path)


@pytest.mark.soak
@needs_gnubg
def test_soak_a_500_game_money_session_with_power_cuts(tmp_path):
    entries = check_session(500, 41, tmp_path)
    print("500 games, %d record entries" % entries)
