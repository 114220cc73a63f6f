"""Text mode: games typed in gnubg notation on the firmware's referee: the cube, resignations, matches,
illegal input refused, and the match exported for GNU Backgammon."""

import io
import os
import random

import pytest
from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard.textgame import TextGame, draw_board, play
from pipcore.cube import BEAVER, DROP, OFFER, RACCOON, TAKE
from pipcore.match import ANSWER, CUBE_OR_ROLL, PLAY
from pipcore.options import make_options
from pipcore.position import Position
from pipcore.record import read_record, replay


def new_game(seed, **options):
    out = io.StringIO()
    return TextGame(random.Random(seed), out, options=make_options(options)), out


def drive(game, rng, stop=lambda game: False, double=0.0, drop=0.0):
    """Type what the prompt asks (a random legal play; roll, or double now and then; take or drop) until
    ``stop(game)`` or the match is over."""
    for _ in range(5000):
        if game.over or stop(game):
            return
        ref = game.ref
        if ref.phase == PLAY:
            plays = game.legal_plays()
            assert plays and "(no move)" not in plays, "a turn with no legal play must pass by itself"
            game.handle(rng.choice(plays))
        elif ref.phase == CUBE_OR_ROLL:
            game.handle("double" if rng.random() < double else "roll")
        elif ref.phase == ANSWER:
            game.handle("drop" if rng.random() < drop else "take")
        else:
            raise AssertionError("the game waits in phase %d" % ref.phase)
    raise AssertionError("the match never got there")


def last_board(out):
    """The lines of the last board drawn."""
    text = out.getvalue()
    return text[text.rindex(" Position ID:"):].splitlines()


def cube_entries(game):
    return [(e[1], e[2]) for e in read_record(game.record.getvalue()).entries if e[0] == "cube"]


def test_board_drawing_shows_start_position():
    text = draw_board(Position.start(), True, (3, 1))
    assert "4HPwATDgc/ABMA" in text
    assert "Pip count  O: 167  X: 167" in text
    # X's 6-point holds five checkers in the bottom half: five rows with an X in that column.
    bottom = text.splitlines()[8:13]
    assert sum(1 for row in bottom if row[25:28] == " X ") == 5
    assert bottom[3].endswith("     Rolled 31")  # beside X, as gnubg writes it


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
        drive(game, random.Random(seed), lambda game: game.ref.results)
        assert " wins a " in out.getvalue()
        assert "Illegal" not in out.getvalue() and "Refused" not in out.getvalue()
        assert game.ref.game_number == 2 and not game.over  # money play goes on with the next game
        assert "Game 2, money play" in out.getvalue()


def test_a_double_taken_then_a_redouble_dropped():
    game, out = new_game(11)
    rng = random.Random(11)
    drive(game, rng, lambda game: game.ref.phase == CUBE_OR_ROLL)
    doubler = game.ref.turn
    taker = 1 - doubler
    assert game.prompt() == "%s: roll or double> " % "XO"[doubler]
    game.handle("double")
    assert game.ref.phase == ANSWER and game.prompt() == "%s: take or drop> " % "XO"[taker]
    assert any(line.endswith("     Cube offered at 2") for line in last_board(out))
    game.handle("take")
    assert (game.ref.cube.value, game.ref.cube.owner) == (2, taker)
    label = last_board(out)[2 if taker == 1 else -2]  # the owner's name line carries the cube, as in gnubg
    assert label.endswith("%s: %s (Cube: 2)" % ("XO"[taker], "XO"[taker])), label
    assert "X rolls" in out.getvalue() or "O rolls" in out.getvalue()  # the doubler rolls at once
    game.handle("double")
    assert "Refused: you have already offered a double this turn" in out.getvalue()
    move = game.ref.move_number
    drive(game, rng, lambda game: game.ref.move_number == move + 2 and game.ref.phase == PLAY)
    assert game.ref.turn == doubler
    game.handle("double")  # his next turn: the dice rolled by themselves, as he does not own the cube
    assert "Refused: only the cube owner may redouble" in out.getvalue()
    drive(game, rng, lambda game: game.ref.phase == CUBE_OR_ROLL)
    assert game.ref.turn == taker and game.ref.game_number == 1
    game.handle("double")
    assert any(line.endswith("     Cube offered at 4") for line in last_board(out))
    game.handle("drop")
    first = game.ref.results[0]
    assert (first.winner, first.points, first.dropped) == (taker, 2, True)
    assert cube_entries(game) == [(doubler, OFFER), (taker, TAKE), (taker, OFFER), (doubler, DROP)]
    assert "%s wins 2 points (the double is dropped)." % "XO"[taker] in out.getvalue()
    assert game.ref.game_number == 2 and game.ref.cube.value == 1  # money play: the next game, cube centred


def test_a_beaver_and_a_raccoon_in_money_play():
    game, out = new_game(5)
    drive(game, random.Random(5), lambda game: game.ref.phase == CUBE_OR_ROLL)
    doubler = game.ref.turn
    game.handle("double")
    game.handle("beaver")
    assert "Refused: beavers are not allowed" in out.getvalue()  # not without --beavers
    game.handle("drop")

    game, out = new_game(5, beavers=True)
    drive(game, random.Random(5), lambda game: game.ref.phase == CUBE_OR_ROLL)
    game.handle("double")
    assert game.prompt().endswith("take, drop or beaver> ")
    game.handle("raccoon")
    assert "Refused: raccoons are not allowed" in out.getvalue()
    game.handle("beaver")
    cube = game.ref.cube
    assert (cube.value, cube.owner, cube.offered_value) == (2, 1 - doubler, 4)
    assert game.prompt() == "%s: take or drop> " % "XO"[doubler]  # the doubler answers the beaver
    game.handle("take")
    assert (game.ref.cube.value, game.ref.cube.owner) == (4, 1 - doubler)
    assert "(Cube: 4)" in "\n".join(last_board(out))
    assert cube_entries(game) == [(doubler, OFFER), (1 - doubler, BEAVER), (doubler, TAKE)]

    game, out = new_game(5, beavers=True, raccoons=True)
    drive(game, random.Random(5), lambda game: game.ref.phase == CUBE_OR_ROLL)
    game.handle("double")
    game.handle("beaver")
    assert game.prompt().endswith("take, drop or raccoon> ")
    game.handle("raccoon")
    game.handle("drop")  # the beaverer refuses the raccoon: 4 points to the doubler
    r = game.ref.results[0]
    assert (r.winner, r.points, r.dropped) == (doubler, 4, True)
    assert cube_entries(game) == [(doubler, OFFER), (1 - doubler, BEAVER), (doubler, RACCOON), (1 - doubler, DROP)]


def test_a_resignation_declined_then_a_gammon_accepted():
    game, out = new_game(3)
    rng = random.Random(3)
    drive(game, rng, lambda game: game.ref.phase == CUBE_OR_ROLL)
    game.handle("double")
    game.handle("take")  # the cube on 2
    drive(game, rng, lambda game: game.ref.phase == PLAY)
    resigner = game.ref.turn
    before = game.record.getvalue()
    game.handle("resign gammon")
    assert game.prompt() == "%s: accept or decline> " % "XO"[1 - resigner]
    assert "%s offers to resign a gammon (4 points)" % "XO"[resigner] in out.getvalue()
    game.handle("13/11")  # the game waits for the answer
    assert "Refused: %s's offer to resign a gammon waits" % "XO"[resigner] in out.getvalue()
    game.handle("decline")
    assert game.record.getvalue() == before  # a declined offer leaves no trace
    assert game.ref.phase == PLAY and game.ref.turn == resigner and game.resigning is None
    game.handle("resign gammon")
    game.handle("accept")
    r = game.ref.results[0]
    assert (r.winner, r.kind, r.points, r.resigned) == (1 - resigner, 2, 4, True)
    assert "%s wins 4 points (%s resigns a gammon)." % ("XO"[1 - resigner], "XO"[resigner]) in out.getvalue()
    assert game.ref.match.score[1 - resigner] == 4 and game.ref.game_number == 2
    assert [e for e in read_record(game.record.getvalue()).entries if e[0] == "resign"] == [("resign", resigner, 2)]


def test_with_jacoby_a_gammon_is_not_offered_while_the_cube_is_centred():
    game, out = new_game(3, jacoby=True)
    game.handle("resign gammon")
    assert "Refused: a gammon would score as a single now: offer a single" in out.getvalue()
    game.handle("resign")  # a single, the default
    game.handle("accept")
    assert game.ref.results[0].points == 1 and game.ref.results[0].kind == 1


def test_a_match_to_three_played_through_with_the_crawford_game():
    game, out = new_game(13, matchLength=3)
    rng = random.Random(13)
    crawford = []
    while not game.over:
        drive(game, rng, lambda game: game.ref.cube.crawford_game and game.ref.game_number not in crawford,
              double=0.02, drop=0.5)
        if game.over:
            break
        crawford.append(game.ref.game_number)
        assert game.ref.phase == PLAY  # the opening roll is being played
        assert "Game %d of a 3 point match" % crawford[0] in out.getvalue()
        assert "The Crawford game: no doubling in this game" in out.getvalue()
        assert "3 points match (Crawford game)" in last_board(out)[8]  # the centre line, as gnubg draws it
        drive(game, rng, lambda game: game.ref.phase == CUBE_OR_ROLL or game.ref.turn != game.ref.turn or
              game.ref.game_number > crawford[-1] or game.ref.phase == PLAY and game.ref.move_number > 1)
        if game.ref.game_number == crawford[-1]:
            game.handle("double")  # the dice rolled by themselves: no doubling in the Crawford game
            assert out.getvalue().rstrip().endswith("Refused: no doubling in the Crawford game")
    assert crawford, "this seed's match has its Crawford game"
    assert len(crawford) == 1
    assert game.over and game.ref.match.is_over() and not game.handle("roll")
    score = game.ref.match.score
    winner = 0 if score[0] >= 3 else 1
    assert "%s wins the match %d-%d." % ("XO"[winner], score[winner], score[1 - winner]) in out.getvalue()
    assert replay(read_record(game.record.getvalue())).match.score == score  # the referee's record replays


def test_illegal_commands_are_refused_with_the_reason_and_change_nothing():
    game, out = new_game(6, matchLength=5)
    record = game.record.getvalue()
    for line, reason in [("take", "no double has been offered"), ("accept", "no resignation is offered"),
                         ("roll", "has rolled"), ("resign triple", "resign single, gammon or backgammon"),
                         ("export", "say where"), ("legal please", None), ("frobnicate 3", None)]:
        assert game.handle(line)
        if reason:
            assert out.getvalue().rstrip().endswith(reason) or reason in out.getvalue().splitlines()[-1], line
    assert game.record.getvalue() == record and game.ref.phase == PLAY
    game.handle("double")
    assert "Refused: the opening roll is played as it fell" in out.getvalue()
    drive(game, random.Random(6), lambda game: game.ref.phase == CUBE_OR_ROLL)
    game.handle("8/5 6/5")
    assert "Refused: not a time to move: %s on roll" % game.mover in out.getvalue()
    game.handle("double")
    game.handle("beaver")
    assert "Refused: beavers are not allowed" in out.getvalue()
    game.handle("raccoon")
    assert "Refused: raccoons are not allowed" in out.getvalue()
    game.handle("roll")
    assert "Refused: the double waits for" in out.getvalue()
    game.handle("double")
    assert "Refused: a double is already waiting for an answer" in out.getvalue()
    assert cube_entries(game) == [(game.ref.turn, OFFER)]


def test_help_and_prompt_say_what_is_awaited():
    game, out = new_game(4)
    game.handle("help")
    for word in ("roll", "double", "take", "drop", "beaver", "raccoon", "resign", "accept", "decline", "legal",
                 "export FILE", "score", "clock", "quit"):
        assert "\n  %s" % word in out.getvalue() or ", %s" % word in out.getvalue(), word
    assert game.prompt() == "%s to play %d-%d> " % (game.mover, max(game.dice), min(game.dice))


def test_play_reads_stdin_and_saves_the_match(tmp_path):
    path = str(tmp_path / "money.mat")
    out = io.StringIO()
    status = play(io.StringIO("resign\naccept\nresign backgammon\naccept\nquit\n"), out, seed=2, save=path)
    assert status == 0, out.getvalue()[-2000:]
    assert "Match written to %s" % path in out.getvalue()
    with open(path) as f:
        text = f.read()
    assert " 0 point match" in text and text.count(" Game ") == 2 and "Wins 3 points" in text
    bad = str(tmp_path / "no-such-folder" / "x.mat")
    out = io.StringIO()
    assert play(io.StringIO("resign\naccept\nexport %s\n" % bad), out, seed=2, save=bad) == 1
    assert "Cannot write %s" % bad in out.getvalue()
    out = io.StringIO()
    assert play(io.StringIO(""), out, seed=2, save=str(tmp_path / "empty.mat")) == 1  # nothing played
    assert "Cannot export: nothing has been played yet." in out.getvalue()
    path = str(tmp_path / "one.mat")
    out = io.StringIO()  # a match to 1, then exported once it is over
    assert play(io.StringIO("resign gammon\naccept\nscore\nexport %s\nroll\nscore\n" % path), out, seed=2,
                options={"matchLength": 1}) == 0
    text = out.getvalue()
    assert "wins the match 2-0." in text and "The match is over: export FILE.mat, or quit> " in text
    assert "Match written to %s" % path in text and text.count("Score: ") == 2  # roll ended the session
    with open(path) as f:
        assert " 1 point match" in f.read()


def test_pipboard_sim_text_takes_the_cube_options(capsys):
    from pipboard import cli

    parse = cli.build_parser().parse_args
    args = parse(["sim", "--text", "--beavers", "--raccoons", "--jacoby", "--auto-doubles", "unlimited",
                  "--cube-cap", "16"])
    assert cli._sim_options(args) == {"beavers": True, "raccoons": True, "jacoby": True, "autoDoubles": -1,
                                      "cubeCap": 16}
    assert cli._sim_options(parse(["sim", "--match", "3", "--no-crawford", "--no-gammons-with-cube"])) == {
        "matchLength": 3, "crawford": False, "noGammonsWithCube": True}
    assert cli._sim_options(parse(["sim", "--no-cube", "--opening-reroll", "--arithmetic-cube"])) == {
        "cubeEnabled": False, "openingReroll": True, "cubeProgression": "arithmetic"}
    for argv, message in [(["--match", "3", "--beavers"], "beavers is for money play only"),
                          (["--raccoons"], "raccoons require beavers"),
                          (["--cube-cap", "12"], "cubeCap must be 0 (none) or a power of two"),
                          (["--match", "300"], "matchLength must be 0 (money play) or 1..255"),
                          (["--match", "5", "--auto-doubles", "2"], "automatic doubles are for money play only")]:
        with pytest.raises(SystemExit) as info:
            cli.main(["sim", "--text"] + argv)
        assert message in str(info.value), (argv, info.value)
    with pytest.raises(SystemExit) as info:
        parse(["sim", "--auto-doubles", "many"])
    assert info.value.code == 2 and "automatic doubles are 0 (off)" in capsys.readouterr().err
    assert cli.main(["sim", "--save", "x.mat"]) == 2
    assert "--save is for the text mode" in capsys.readouterr().err
    assert cli.main(["sim", "--text", "--save", os.path.join("no", "such", "folder", "x.mat")]) == 2


def test_automatic_doubles_on_opening_ties():
    class Dice(random.Random):
        """The opening ties twice (3-3, 5-5), then X wins it with 4-1."""

        def __init__(self):
            super().__init__(1)
            self.script = [3, 3, 5, 5, 4, 1]

        def randint(self, a, b):
            return self.script.pop(0) if self.script else super().randint(a, b)

    out = io.StringIO()
    game = TextGame(Dice(), out, options=make_options({"autoDoubles": 1}))
    assert "A tie: both roll again. Automatic double: the cube is at 2." in out.getvalue()
    assert out.getvalue().count("A tie: both roll again.") == 2  # the second tie doubles no more (limit 1)
    assert game.ref.cube.value == 2 and game.ref.cube.owner == -1 and game.x_on_roll
    assert "(Cube: 2)" in last_board(out)[8]


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_a_match_exported_from_the_text_game_is_read_by_gnubg_with_its_score(tmp_path):
    game, out = new_game(12, matchLength=3)
    rng = random.Random(12)
    drive(game, rng, lambda game: game.ref.game_number == 2 and game.ref.phase == PLAY and game.ref.move_number > 4,
          double=0.02, drop=0.5)
    game.handle("resign")  # a resignation accepted, read by gnubg as one
    game.handle("accept")
    drive(game, rng, double=0.02, drop=0.5)
    assert game.over
    path = str(tmp_path / "text.mat")
    assert game.export(path), out.getvalue()[-500:]
    record = read_record(game.record.getvalue())
    dump = gnubg_read([{"path": path, "commands": commands_for(game.options)}])[0]
    assert "error" not in dump, dump
    theirs = gnubg_view(dump)
    assert theirs == expected_from_record(record)
    last = theirs[-1]
    final = list(last["score"])
    final["XO".index(last["winner"])] += last["points"]
    assert final == game.ref.match.score and max(final) >= 3
    assert any(g["resigned"] for g in theirs) and len(theirs) == game.ref.game_number
    assert dump["matchid"] == game.ref.match_id()
