"""Text mode: a whole game typed in gnubg notation, illegal input refused."""

import io
import random

from pipboard.textgame import TextGame, draw_board
from pipcore.position import Position


def new_game(seed):
    out = io.StringIO()
    return TextGame(random.Random(seed), out), out


def test_board_drawing_shows_start_position():
    text = draw_board(Position.start(), True, (3, 1))
    assert "4HPwATDgc/ABMA" in text
    assert "Pip count  O: 167  X: 167" in text
    # X's 6-point holds five checkers in the bottom half: five rows with an X in that column.
    bottom = text.splitlines()[8:13]
    assert sum(1 for row in bottom if row[25:28] == " X ") == 5


def test_illegal_play_is_refused_with_reason():
    game, out = new_game(1)
    before = game.position
    game.handle("24/18 24/18 24/18")
    assert "Illegal:" in out.getvalue()
    assert game.position == before
    game.handle("25/20")
    assert "Illegal: you have no checker on the bar" in out.getvalue()


def test_garbage_is_refused_not_crashing():
    game, out = new_game(2)
    for line in ["13/", "hello", "30/2", "6/off(9)", "13/9*/20"]:
        assert game.handle(line)
    assert out.getvalue().count("Illegal:") == 5


def test_complete_games_by_typing_legal_plays():
    for seed in range(5):
        game, out = new_game(seed)
        rng = random.Random(seed)
        turns = 0
        while not game.over:
            plays = game.legal_plays()
            choice = rng.choice(plays)
            game.handle(choice if choice != "(no move)" else "board")
            if choice == "(no move)":
                raise AssertionError("a turn with no legal play must pass by itself")
            turns += 1
            assert turns < 1000
        assert " wins a " in out.getvalue()
        assert "Illegal" not in out.getvalue()
