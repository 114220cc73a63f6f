"""End-to-end: virtual players play complete games on the simulated board.

Every game runs the firmware app (``pipcore.app``) with the driver twins and
a physical model of the board; the players act as people do (see
``pipboard.simboard.VirtualPlayer``). Every turn checks that the board
accepted the legal play the player made and recorded exactly it, and every
power cut checks that the resumed state equals the last saved one.
"""

import os
import random

import pytest

from pipboard.simboard import SimBoard, VirtualPlayer
from pipcore.names import SETUP


def run_games(n_games, seed, options=None, capacity=None):
    board = SimBoard(seed=seed, options=options, capacity=capacity)
    player = VirtualPlayer(board, random.Random(seed * 7919 + 1))
    for _ in range(n_games):
        player.play_game()
    return player.stats, board


GAMES = int(os.environ.get("PIPBOARD_E2E_GAMES", "1000"))


@pytest.mark.parametrize("part", range(4))
def test_thousand_games_money_play(part):
    stats, board = run_games(GAMES // 4, seed=100 + part)
    assert stats["games"] == GAMES // 4
    assert stats["refused"] == 0
    assert stats["accepted"] == stats["turns"] > 0
    assert stats["resumed"] > 0  # power cuts happened and every resume matched the save
    assert stats["wrong"] > 0  # wrong placements were made and corrected
    assert board.ctl.accepted >= 0


def test_match_play_to_five():
    board = SimBoard(seed=5, options={"matchLength": 5})
    player = VirtualPlayer(board, random.Random(5), double_rate=0.2)
    crawford_seen = False
    for _ in range(40):
        player.play_game()
        crawford_seen = crawford_seen or board.ctl.crawford_game
        if player.match_over:
            break
    assert player.match_over, "no match of 5 points ended in 40 games"
    assert max(player.last_scores) >= 5 and min(player.last_scores) < 5
    assert player.stats["refused"] == 0


def test_small_sensor_capacity_forces_picks():
    # two switches per point: most stacks hide checkers, the board must ask instead of guessing
    cap = bytes([2] * 24 + [2, 2, 6, 6])
    stats, board = run_games(20, seed=9, capacity=cap)
    assert stats["refused"] == 0
    assert stats["picks"] > 0


@pytest.mark.soak
def test_soak_twenty_thousand_games():
    total = {}
    for part in range(20):
        stats, _ = run_games(1000, seed=1000 + part)
        for k, v in stats.items():
            total[k] = total.get(k, 0) + v
    print("soak:", total)
    assert total["games"] == 20000
    assert total["refused"] == 0


def test_long_nardy_games():
    board = SimBoard(seed=12, variant="nardy")
    player = VirtualPlayer(board, random.Random(12))
    for _ in range(6):
        player.play_game()
    assert player.stats["refused"] == 0 and player.stats["games"] == 6
    assert board.ctl.games[-1][3] in ("oin", "mars")


@pytest.mark.parametrize("options", [
    {"caucasian": True},
    {"caucasian": True, "caucasianScope": "board", "jailBearOff": True},
    {"cubeProgression": "arithmetic"},
    {"autoDoubles": 2, "jacoby": True, "beavers": True},
    {"cubeCap": 8, "noGammonsWithCube": True, "openingReroll": True},
])
def test_games_with_options(options):
    board = SimBoard(seed=21, options=options)
    player = VirtualPlayer(board, random.Random(21), double_rate=0.2)
    for _ in range(4):
        player.play_game()
    assert player.stats["games"] == 4 and player.stats["refused"] == 0


@pytest.mark.parametrize("length", [3, 7])
def test_a_new_match_is_set_up_whatever_colours_the_last_match_left(length):
    # seed 42: the match ends in its second game (a gammon on a 16-cube) with black's checkers on its
    # 1-point, white's 24-point in the start position; the guidance must clear them, not count them
    from pipcore.board import fill_counts, owner_at
    from pipcore.position import Position

    board = SimBoard(seed=42, options={"matchLength": length})
    player = VirtualPlayer(board, random.Random(42 * 7919 + 1))
    player.play_game()
    player.play_game()
    assert player.match_over and board.app is not None
    assert board.ctl.phase == SETUP and set(board.stacks[23]) == {1}  # the new match's setup, black still there
    board.follow_guidance()
    board.tidy_tall_stacks()
    start = Position.start()
    want = bytearray(28)
    fill_counts(start, 0, want)
    for loc in range(24):
        assert board.stacks[loc] == [owner_at(start, 0, loc)] * want[loc], (loc, board.stacks)
    player.play_game()  # the new match's first game is played to its end
    assert player.stats["games"] == 3 and player.stats["refused"] == 0
