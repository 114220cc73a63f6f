"""``pipboard rules`` in a match context: "match_id" and cube actions (docs/rules-cli.md)."""

import io
import json

from pipboard.rules_cli import handle_line, run
from pipcore.match import Referee
from pipcore.matchid import MatchState
from pipcore.options import make_options

START = "4HPwATDgc/ABMA"


def ask(**request):
    return handle_line(json.dumps(request))


def referee_at_second_turn(options=None):
    ref = Referee(make_options(options or {"matchLength": 5}))
    ref.new_game()
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    return ref


def test_cube_state_and_allowed_actions():
    ref = referee_at_second_turn()
    got = ask(position_id=ref.position_id(), match_id=ref.match_id())
    assert got["cube"] == {"value": 1, "owner": "centre", "crawford": False, "may_double": True}
    assert got["cube_actions"] == ["double"] and "plays" not in got


def test_dice_from_the_match_id_give_plays_and_no_cube_action():
    ref = referee_at_second_turn()
    ref.roll((3, 1))
    got = ask(position_id=ref.position_id(), match_id=ref.match_id())
    assert got["cube_actions"] == [] and got["dice"] == [3, 1]
    plain = ask(position_id=ref.position_id(), dice=[3, 1])
    assert got["plays"] == plain["plays"] and len(got["plays"]) > 5


def test_actions_follow_the_referee():
    ref = referee_at_second_turn()
    before = ref.match_id()
    got = ask(position_id=ref.position_id(), match_id=before, action="double")
    ref.double()
    assert got["match_id_after"] == ref.match_id()
    answers = ask(position_id=ref.position_id(), match_id=ref.match_id())
    assert answers["cube_actions"] == ["take", "drop"]
    took = ask(position_id=ref.position_id(), match_id=ref.match_id(), action="take")
    ref.take()
    assert took["match_id_after"] == ref.match_id()
    dropped = ask(position_id=ref.position_id(), match_id=got["match_id_after"], action="drop")
    assert dropped["result"] == {"winner": 1, "points": 1}
    assert MatchState.decode(dropped["match_id_after"]).score == (0, 1)


def test_beaver_and_raccoon_in_money_play():
    opts = {"beavers": True, "raccoons": True}
    ref = referee_at_second_turn(opts)
    ref.double()
    got = ask(position_id=ref.position_id(), match_id=ref.match_id(), options=opts)
    assert got["cube_actions"] == ["take", "drop", "beaver"]
    after = ask(position_id=ref.position_id(), match_id=ref.match_id(), options=opts, action="beaver")
    ref.beaver()
    assert after["match_id_after"] == ref.match_id()
    got = ask(position_id=ref.position_id(), match_id=ref.match_id(), options=opts)
    assert got["cube_actions"] == ["take", "drop", "raccoon"]
    after = ask(position_id=ref.position_id(), match_id=ref.match_id(), options=opts, action="raccoon")
    ref.raccoon()
    assert after["match_id_after"] == ref.match_id()
    got = ask(position_id=ref.position_id(), match_id=ref.match_id(), options=opts)
    assert got["cube_actions"] == ["take", "drop"] and got["cube"]["value"] == 4


def test_refusals_carry_the_reason():
    ref = referee_at_second_turn()
    ref.roll((3, 1))
    assert ask(position_id=START, match_id=ref.match_id(), action="double") == {
        "error": "you must offer before rolling"}
    crawford = Referee(make_options({"matchLength": 5}))
    crawford.match.add_result(0, 4)
    crawford.new_game()
    crawford.opening_roll(6, 1)
    crawford.play([(13, 7), (8, 7)])
    got = ask(position_id=crawford.position_id(), match_id=crawford.match_id())
    assert got["cube"]["no_double"] == "no doubling in the Crawford game" and got["cube_actions"] == []
    assert "error" in ask(position_id=START, match_id="cAlnAAAAAAAF")
    assert "12 characters" in ask(position_id=START, match_id="short")["error"]
    assert "needs the 'match_id'" in ask(position_id=START, action="take")["error"]
    assert "must be one of" in ask(position_id=START, match_id=ref.match_id(), action="redouble")["error"]


def test_run_answers_every_line():
    ref = referee_at_second_turn()
    stdin = io.StringIO(json.dumps({"position_id": ref.position_id(), "match_id": ref.match_id()}) + "\nnot json\n")
    stdout = io.StringIO()
    run(stdin, stdout)
    lines = stdout.getvalue().splitlines()
    assert len(lines) == 2 and "cube" in json.loads(lines[0]) and "error" in json.loads(lines[1])
