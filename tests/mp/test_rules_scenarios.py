"""RULES.md section 6.1, scenarios BG-01 to BG-26, one test each.

Positions are written as in RULES.md (mover's numbering, ``Position.from_dicts``).
Expected results are built independently of the generator: by applying the
scenario's plays, written one die per segment, with ``apply_move``, or from
the scenario's own ``M{...}`` text. Runs under CPython and MicroPython.
"""

from pipcore.cube import CubeError
from pipcore.match import Referee
from pipcore.notation import parse_play
from pipcore.options import make_options
from pipcore.position import BAR, Position
from pipcore.rules import (
    BACKGAMMON,
    GAMMON,
    SINGLE,
    AmbiguousPlayError,
    IllegalPlayError,
    Turn,
    apply_move,
    check_play,
    game_result,
    winner_of,
)


def pos(me, opp=None):
    return Position.from_dicts(me, opp or {})


def after(position, text):
    """``position`` after the plays in ``text``, one die per written segment."""
    result = position.copy()
    for s, t, _ in parse_play(text):
        apply_move(result, s, t)
    return result


def keys(positions):
    return sorted(p.key() for p in positions)


def assert_results(position, dice, plays):
    """The turn offers exactly the results of ``plays``; each checks as legal."""
    turn = Turn(position, dice)
    got = turn.results()
    assert len(set(keys(got))) == len(got), "a result is offered twice"
    expected = [after(position, text) for text in plays]
    assert len(set(keys(expected))) == len(plays), "test lists the same result twice"
    offered = [turn.notation(c) for c in turn.plays]
    assert keys(got) == keys(expected), "%s %r: got %s" % (position.describe(), dice, offered)
    for text in plays:
        assert_legal(position, dice, text)
    # every offered play, written in notation with its hits, checks back to itself
    for code in turn.plays:
        back, result = check_play(position, dice, parse_play(turn.notation(code)))
        assert result == turn.result(code)
        assert turn.result(back) == result
    return turn


def assert_legal(position, dice, text, expected=None):
    code, result = check_play(position, dice, parse_play(text))
    want = expected if expected is not None else after(position, text)
    assert result == want, "%s gave %s" % (text, result.describe())
    assert Turn(position, dice).result(code) == result
    return result


def assert_illegal(position, dice, text, reason, error=IllegalPlayError):
    try:
        check_play(position, dice, parse_play(text))
    except error as exc:
        assert reason in str(exc), "%r refused with %r, expected %r" % (text, str(exc), reason)
        return
    raise AssertionError("%r was accepted with %r in %s" % (text, dice, position.describe()))


START = "{24:2, 13:5, 8:3, 6:5}"


def test_bg01_new_game():
    start = Position.start()
    assert start.describe() == "M%s O{19:5, 17:3, 12:5, 1:2}" % START
    for side in (start.me, start.opp):
        assert (side[24], side[13], side[8], side[6], side[0], side[BAR]) == (2, 5, 3, 5, 0, 0)
        assert start.on_board(side) == 15
    # mover's 24-point is the opponent's 1-point
    assert pos({}, {24: 2}).opp[1] == 2
    assert pos({}, {1: 2}).opp[24] == 2
    assert start.pips() == 167
    assert start.pips(start.opp) == 167
    assert start.swapped() == start
    start.validate()


def test_bg02_opening_plays_five_three():
    # The opening roll's dice are the first play's dice: B plays 5-3.
    start = Position.start()
    turn = Turn(start, (5, 3))
    assert turn.dice_used == 2 and not turn.double
    assert_legal(start, (3, 5), "8/3 6/3", pos({24: 2, 13: 5, 8: 2, 6: 4, 3: 2}, {1: 2, 12: 5, 17: 3, 19: 5}))
    assert after(start, "8/3 6/3") in turn.results()


def test_bg02_opening_roll_through_the_referee():
    ref = Referee(make_options({}))
    ref.new_game()
    assert ref.opening_roll(4, 4) is None  # tie: both roll again, nobody moves
    assert ref.cube.value == 1 and ref.position == Position.start()
    assert ref.opening_roll(3, 5) == 1  # B's 5 beats A's 3: B moves first with 5-3
    assert sorted(ref.dice) == [3, 5]
    try:
        ref.double()
    except CubeError:
        pass
    else:
        raise AssertionError("the opening player doubled before his first play")
    ref.play(parse_play("8/3 6/3"))
    assert ref.turn == 0


def test_bg03_both_intermediate_points_closed():
    position = pos({13: 1, 6: 14}, {10: 2, 8: 2})
    assert_results(position, (5, 3), ["6/3 6/1"])
    assert after(position, "6/3 6/1") == pos({13: 1, 6: 12, 3: 1, 1: 1}, {10: 2, 8: 2})
    assert_illegal(position, (5, 3), "13/8 6/3", "point 8 is closed")
    assert_illegal(position, (5, 3), "13/10 6/1", "point 10 is closed")
    assert_illegal(position, (5, 3), "13/5", "is closed")
    assert_illegal(position, (5, 3), "6/3", "you must use both dice")


def test_bg04_three_results_one_intermediate_open():
    position = pos({13: 1, 6: 14}, {8: 2})
    assert_results(position, (5, 3), ["13/10/5", "13/10 6/1", "6/3 6/1"])
    assert_legal(position, (5, 3), "13/5", after(position, "13/10/5"))  # only via 10
    assert_illegal(position, (5, 3), "13/8 6/3", "point 8 is closed")
    assert_illegal(position, (5, 3), "13/8/5", "point 8 is closed")


def test_bg05_double_sixes_from_the_start():
    start = Position.start()
    plays = []
    # four 6s from 24 (at most 2: 18/12 is closed), 13 (7/1 is closed) and 8
    for from24 in range(3):
        for from13 in range(5):
            from8 = 4 - from24 - from13
            if 0 <= from8 <= 3:
                plays.append(" ".join(["24/18"] * from24 + ["13/7"] * from13 + ["8/2"] * from8))
    assert len(plays) == 11
    turn = assert_results(start, (6, 6), plays)
    assert turn.dice_used == 4
    assert_legal(start, (6, 6), "24/18(2) 13/7(2)")
    assert_illegal(start, (6, 6), "24/18(2)", "you must play 4 6s; this play uses 2")
    assert_illegal(start, (6, 6), "24/18(2) 13/7", "you must play 4 6s; this play uses 3")
    assert_illegal(start, (6, 6), "13/7", "you must play 4 6s")
    assert_illegal(start, (6, 6), "24/18/12", "point 12 is closed")
    assert_illegal(start, (6, 6), "24/18(2) 13/7(2) 8/2", "no dice left")


def test_bg06_either_die_alone_higher_wins():
    position = pos({14: 1, 1: 14}, {3: 2})
    turn = assert_results(position, (6, 5), ["14/8"])
    assert turn.dice_used == 1
    assert_illegal(position, (6, 5), "14/9", "you must play the higher die (6)")
    assert_illegal(position, (6, 5), "14/8/3", "point 3 is closed")
    assert_illegal(position, (6, 5), "14/9/3", "point 3 is closed")
    assert_illegal(position, (6, 5), "", "you must play the 6")


def test_bg07_only_the_lower_die_is_playable():
    position = pos({14: 1, 1: 14}, {8: 2, 3: 2})
    assert_results(position, (6, 5), ["14/9"])
    assert_illegal(position, (6, 5), "14/8", "point 8 is closed")
    assert_illegal(position, (6, 5), "", "you must play the 5")


def test_bg08_both_dice_in_one_order_only():
    position = pos({14: 1, 1: 14}, {8: 2})
    assert_results(position, (6, 5), ["14/9/3"])
    assert_legal(position, (6, 5), "14/3", after(position, "14/9/3"))
    assert_illegal(position, (6, 5), "14/9", "you must use both dice")
    assert_illegal(position, (6, 5), "14/8/3", "point 8 is closed")


def test_bg09_partial_double():
    position = pos({20: 1, 1: 14}, {8: 2})
    turn = assert_results(position, (4, 4), ["20/16/12"])
    assert turn.dice_used == 2
    assert_illegal(position, (4, 4), "20/16", "you must play 2 4s; this play uses 1")
    assert_illegal(position, (4, 4), "20/8", "point 8 is closed")
    assert_illegal(position, (4, 4), "20/16/12 1/off", "you cannot bear off")


def test_bg10_entry_blocked_turn_forfeited():
    position = pos({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {20: 2, 22: 2})
    turn = assert_results(position, (5, 3), [""])
    assert turn.dice_used == 0
    assert turn.results() == [position]
    assert_legal(position, (5, 3), "", position)
    assert_illegal(position, (5, 3), "13/8 13/10", "you must enter from the bar first")
    assert_illegal(position, (5, 3), "24/21", "you must enter from the bar first")
    assert_illegal(position, (5, 3), "bar/20", "point 20 is closed")
    assert_illegal(position, (5, 3), "bar/22", "point 22 is closed")


def test_bg11_hits_on_final_and_intermediate_landings():
    position = pos({13: 1, 6: 14}, {9: 1})
    turn = assert_results(position, (4, 1), ["13/9* 6/5", "13/9*/8", "13/12/8", "13/12 6/2", "6/2 6/5", "6/2/1"])
    hits = [r for r in turn.results() if r.opp[BAR]]
    assert len(hits) == 2
    for r in hits:
        assert r.opp[BAR] == 1 and r.opp[25 - 9] == 0
    assert_legal(position, (4, 1), "6/5/1", after(position, "6/2/1"))
    # as in gnubg notation an unmarked landing does not hit, "*" marks a hit
    assert_legal(position, (4, 1), "13/8", after(position, "13/12/8"))
    assert_legal(position, (4, 1), "13/8*", after(position, "13/9*/8"))
    assert_legal(position, (4, 1), "13/9 6/5", after(position, "13/9* 6/5"))  # only reading
    assert_illegal(position, (4, 1), "13/9*", "you must use both dice")


def test_bg12_two_ways_to_the_same_point():
    position = pos({13: 1, 1: 14}, {9: 1})
    turn = assert_results(position, (4, 2), ["13/9*/7", "13/11/7"])
    bars = sorted(r.opp[BAR] for r in turn.results())
    assert bars == [0, 1]
    assert_legal(position, (4, 2), "13/7*", after(position, "13/9*/7"))
    assert_legal(position, (4, 2), "13/7", after(position, "13/11/7"))
    # blots on both intermediate points: "13/7*" could hit either
    both = pos({13: 1, 1: 14}, {9: 1, 11: 1})
    assert_illegal(both, (4, 2), "13/7*", "13/9*/7 or 13/11*/7", AmbiguousPlayError)
    assert_illegal(both, (4, 2), "13/7", "ambiguous", AmbiguousPlayError)
    assert_legal(both, (4, 2), "13/11*/7", after(both, "13/11/7"))


def test_bg13_enter_with_the_only_open_die_then_play_on():
    position = pos({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {19: 2})
    assert_results(position, (6, 4), ["bar/21 21/15", "bar/21 24/18", "bar/21 13/7", "bar/21 8/2"])
    assert_legal(position, (6, 4), "bar/15", after(position, "bar/21/15"))
    # the order written does not matter once the set of moves is legal
    assert_legal(position, (6, 4), "13/7 bar/21", after(position, "bar/21 13/7"))
    assert_illegal(position, (6, 4), "bar/19", "point 19 is closed")
    assert_illegal(position, (6, 4), "24/18 13/9", "you must enter from the bar first")
    assert_illegal(position, (6, 4), "bar/21", "you must use both dice")


def test_bg14_second_checker_stays_on_the_bar():
    position = pos({"bar": 2, 13: 5, 8: 3, 6: 5}, {19: 2})
    turn = assert_results(position, (6, 4), ["bar/21"])
    assert turn.dice_used == 1
    assert turn.results()[0].me[BAR] == 1
    assert_illegal(position, (6, 4), "bar/21 13/7", "you must enter from the bar first")
    assert_illegal(position, (6, 4), "bar/21 21/15", "you must enter from the bar first")
    assert_illegal(position, (6, 4), "bar/21(2)", "no dice left for bar/21")
    assert_illegal(position, (6, 4), "", "you must play the 4")


def test_bg15_double_entry_then_two_more():
    position = pos({"bar": 2, 13: 5, 8: 3, 6: 5})
    rest = ["22/19(2)", "22/19/16", "22/19 13/10", "22/19 8/5", "22/19 6/3", "13/10(2)", "13/10/7",
            "13/10 8/5", "13/10 6/3", "8/5(2)", "8/5 6/3", "8/5/2", "6/3(2)"]
    turn = assert_results(position, (3, 3), ["bar/22(2) " + r for r in rest])
    assert len(turn.plays) == 13
    for r in turn.results():
        assert r.me[BAR] == 0 and r.me[22] + r.me[19] + r.me[16] == 2
    assert_illegal(position, (3, 3), "bar/22 13/10(3)", "you must enter from the bar first")
    assert_illegal(position, (3, 3), "bar/22(2)", "you must play 4 3s; this play uses 2")


def test_bg16_bring_home_then_bear_off():
    position = pos({7: 1, 5: 14})
    assert_results(position, (6, 2), ["7/1 5/3", "7/5 5/off"])
    assert after(position, "7/1 5/3") == pos({5: 13, 3: 1, 1: 1})
    assert after(position, "7/5 5/off") == pos({5: 14, "off": 1})
    assert_illegal(position, (6, 2), "7/1 1/off", "a 2 bears off from 1 only when no checker stands higher")
    assert_illegal(position, (6, 2), "5/off 5/3", "you cannot bear off while checkers are outside your home board")
    assert_illegal(position, (6, 2), "7/1", "you must use both dice")
    # written bear-off first: still the legal set of moves
    assert_legal(position, (6, 2), "5/off 7/5", pos({5: 14, "off": 1}))


def test_bg17_bear_off_or_move_inside():
    position = pos({6: 2, 4: 1, "off": 12})
    assert_results(position, (4, 1), ["4/off 6/5", "6/2/1", "6/2 4/3", "6/2 6/5"])
    assert_legal(position, (4, 1), "6/5/1", after(position, "6/2/1"))
    assert_illegal(position, (4, 1), "4/3/off", "a 4 bears off from 3 only when no checker stands higher")
    assert_illegal(position, (4, 1), "6/off", "the dice 4-1 cannot make 6/off")
    assert_illegal(position, (4, 1), "4/off 4/3", "you have only 1 checker on point 4")


def test_bg18_higher_dice_bear_off_from_the_highest_point():
    position = pos({3: 2, 1: 1, "off": 12})
    assert_results(position, (6, 5), ["3/off 3/off"])
    assert_legal(position, (6, 5), "3/off(2)", pos({1: 1, "off": 14}))
    assert_illegal(position, (6, 5), "3/off 1/off", "bears off from 1 only when no checker stands higher (one is on 3)")
    assert_illegal(position, (6, 5), "3/off", "you must use both dice")


def test_bg19_no_bear_off_possible():
    position = pos({6: 2, "off": 13})
    turn = assert_results(position, (3, 2), ["6/3 6/4", "6/3/1"])
    for r in turn.results():
        assert r.me[0] == 13
    assert_legal(position, (3, 2), "6/4/1", after(position, "6/3/1"))
    assert_illegal(position, (3, 2), "6/3 3/off", "no dice left for 3/off")
    assert_illegal(position, (3, 2), "6/off", "the dice 3-2 cannot make 6/off")


def test_bg20_declining_to_bear_off_is_legal():
    position = pos({5: 1, 3: 1, "off": 13})
    assert_results(position, (3, 1), ["3/off 5/4", "5/2/1", "5/2 3/2"])
    assert_legal(position, (3, 1), "5/4/1", after(position, "5/2/1"))
    assert_illegal(position, (3, 1), "3/2/off", "a 3 bears off from 2 only when no checker stands higher (one is on 5)")


def test_bg21_entering_checker_blocks_bear_off():
    position = pos({"bar": 1, 6: 14})
    turn = assert_results(position, (6, 5), ["bar/19 6/1", "bar/19/14"])
    for r in turn.results():
        assert r.me[0] == 0
    assert_legal(position, (6, 5), "bar/20/14", after(position, "bar/19/14"))
    assert_illegal(position, (6, 5), "bar/20 6/off", "you cannot bear off while checkers are outside your home board")
    assert_illegal(position, (6, 5), "bar/20", "you must use both dice")


def test_bg22_last_checker_off_ends_the_game():
    position = pos({1: 1, "off": 14}, {19: 5, 20: 10})  # opponent has borne off none
    turn = assert_results(position, (6, 5), ["1/off"])
    assert turn.dice_used == 1
    final = turn.results()[0]
    assert final.me[0] == 15
    assert winner_of(final) == (0, GAMMON)
    assert winner_of(position) is None
    assert_illegal(position, (6, 5), "1/off 1/off", "you have only 1 checker on point 1")


def _finished(loser):
    """A finished game: the mover bore off all 15; ``loser`` in its own numbering."""
    position = pos({})
    for p in loser:
        position.opp[p] = loser[p]
    position.opp[0] = 15 - position.on_board(position.opp)
    position.validate()
    return position


def points(position, cube):
    side, kind = winner_of(position)
    assert side == 0
    return kind * cube


def test_bg23_single_game():
    position = _finished({6: 10, 5: 2})  # three off
    assert position.opp[0] == 3
    assert winner_of(position) == (0, SINGLE)
    assert points(position, 2) == 2


def test_bg24_gammon():
    position = _finished({18: 1, 12: 4, 7: 4, 1: 6})
    assert winner_of(position) == (0, GAMMON)
    assert points(position, 1) == 2


def test_bg25_backgammon_in_the_winners_home_board():
    position = _finished({22: 1, 6: 14})
    assert position.opp[22] == 1
    assert winner_of(position) == (0, BACKGAMMON)
    assert points(position, 4) == 12


def test_bg26_backgammon_from_the_bar():
    position = _finished({BAR: 1, 6: 14})
    assert winner_of(position) == (0, BACKGAMMON)
    assert points(position, 1) == 3
    # the same finished game seen by the loser, who is now on roll
    assert winner_of(position.swapped()) == (1, BACKGAMMON)


def test_game_result_boundaries():
    winner = bytearray(26)
    winner[0] = 15
    loser = bytearray(26)
    loser[19] = 15
    assert game_result(winner, loser) == BACKGAMMON  # the winner's 6-point
    loser[19] = 0
    loser[18] = 15
    assert game_result(winner, loser) == GAMMON  # the winner's 7-point is outside
    loser[18] = 14
    loser[0] = 1
    loser[25] = 0
    assert game_result(winner, loser) == SINGLE
    assert winner_of(Position.start()) is None
