"""Long nardy: every LN scenario of RULES.md 6.4 (CPython and MicroPython)."""

from pipcore import nardy
from pipcore.notation import parse_play
from pipcore.position import Position, PositionError


def P(me, opp):
    """RULES.md notation: both dicts in the mover's numbering."""
    return Position.from_dicts(me, opp, opp_numbering="nardy")


def after(pos, text):
    """The position after the play ``text`` (gnubg notation, no hits)."""
    out = pos.copy()
    for s, t, _ in parse_play(text):
        out.me[s] -= 1
        out.me[t] += 1
    return out


def results(turn):
    return set(bytes(r.me) for r in turn.results())


def expect(pos, dice, plays, first_turn=False, block_check="per-move"):
    turn = nardy.Turn(pos, dice, first_turn=first_turn, block_check=block_check)
    want = set(bytes(after(pos, text).me) for text in plays)
    got = results(turn)
    assert got == want, "%s %s: got %s" % (pos.describe("nardy"), dice, [r.describe("nardy") for r in turn.results()])
    assert len(turn.plays) == len(got)
    return turn


def test_ln01_start_position():
    pos = nardy.start_position()
    assert pos.describe("nardy") == "M{24:15} O{12:15}"
    assert pos.swapped() == pos  # the same for both players
    pos.validate("nardy")
    assert Position.from_id(pos.position_id()) == pos


def test_ln02_opening_roll():
    assert nardy.opening(5, 2) == (0, None)  # the 5 starts with two fresh dice
    assert nardy.opening(2, 5) == (1, None)
    assert nardy.opening(4, 4) == (None, None)  # tie: roll again
    assert nardy.opening(2, 5, "opening-dice") == (1, (5, 2))


def test_ln03_one_checker_off_the_head():
    expect(P({24: 14, 19: 1}, {12: 14, 4: 1}), (5, 3), ["19/11", "24/21 19/14", "24/19 19/16"])


def test_ln04_first_player_6_6():
    turn = expect(nardy.start_position(), (6, 6), ["24/18(2)"], first_turn=True)
    assert turn.dice_used == 2


def test_ln05_first_player_4_4():
    expect(nardy.start_position(), (4, 4), ["24/16(2)"], first_turn=True)


def test_ln06_first_player_3_3():
    expect(nardy.start_position(), (3, 3), ["24/15 24/21", "24/18(2)"], first_turn=True)


def test_ln07_first_player_5_5_one_checker():
    expect(nardy.start_position(), (5, 5), ["24/4"], first_turn=True)


def test_head_rule_without_first_turn():
    # 6-6 from the start when it is not a first turn: one checker, 24/18, then blocked
    turn = expect(nardy.start_position(), (6, 6), ["24/18"])
    assert turn.dice_used == 1


def test_ln08_second_player_5_5_after_6_2():
    expect(P({24: 15}, {12: 14, 4: 1}), (5, 5), ["24/9 24/19", "24/14(2)"], first_turn=True)


def test_ln09_second_player_5_5_after_2_1_and_6_5():
    expect(P({24: 15}, {12: 14, 9: 1}), (5, 5), ["24/14(2)"], first_turn=True)
    expect(P({24: 15}, {12: 14, 1: 1}), (5, 5), ["24/4"], first_turn=True)


def test_ln10_second_player_2_2_after_5_5():
    expect(P({24: 15}, {12: 14, 16: 1}), (2, 2), ["24/18 24/22", "24/20(2)"], first_turn=True)


def test_ln11_no_exception_for_a_non_double():
    turn = expect(P({24: 15}, {12: 14, 16: 1}), (5, 3), ["24/19"], first_turn=True)
    assert turn.dice_used == 1


def test_ln12_second_player_4_4_after_5_5():
    expect(P({24: 15}, {12: 14, 16: 1}), (4, 4), ["24/20(2)"], first_turn=True)


def test_ln13_single_checker_blocks_no_hitting():
    pos = P({20: 1, 6: 14}, {17: 1, 12: 14})
    turn = expect(pos, (3, 1), ["20/19/16", "20/19 6/3", "6/3 6/5", "6/2"])
    assert all(r.opp == pos.opp for r in turn.results())  # nothing is ever hit


LN14 = ({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 14: 1}, (5, 1))


def test_ln14_forbidden_block_not_offered():
    pos = P(LN14[0], {12: 14, 1: 1})
    turn = nardy.Turn(pos, LN14[1])
    got = results(turn)
    assert len(got) == 31
    blocked = after(pos, "24/19 14/13")
    assert bytes(blocked.me) not in got
    # per-move: 24/19 then 19/18 passes through the block and is refused ...
    halfway = after(pos, "24/19")
    assert (19, 18, 1) not in turn.steps(halfway)
    # ... 24/19 stays on the way only with a 1 that breaks the block (played
    # first, it is legal; the board accepts the checkers in either order)
    assert sorted(turn.steps(halfway)) == [(20, 19, 1), (21, 20, 1), (22, 21, 1), (23, 22, 1)]
    # ... although its final position is reachable through 23/18 24/23
    assert bytes(after(pos, "23/18 24/23").me) in got
    assert bytes(after(pos, "24/19 19/18").me) == bytes(after(pos, "23/18 24/23").me)
    assert turn.steps(blocked) is None and not turn.is_complete(blocked)


def test_ln14_end_of_turn_allows_the_transient_block():
    pos = P(LN14[0], {12: 14, 1: 1})
    turn = nardy.Turn(pos, LN14[1], block_check="end-of-turn")
    got = results(turn)
    assert bytes(after(pos, "24/19 14/13").me) not in got
    assert len(got) == 31
    assert (24, 19, 5) in turn.steps(pos)
    halfway = turn.steps(after(pos, "24/19"))
    assert (19, 18, 1) in halfway and (23, 22, 1) in halfway  # each breaks the block
    assert (14, 13, 1) not in halfway  # would leave it standing


def test_ln15_block_with_an_opponent_checker_ahead():
    pos = P(LN14[0], {12: 14, 17: 1})
    turn = nardy.Turn(pos, LN14[1])
    assert bytes(after(pos, "24/19 14/13").me) in results(turn)


def test_ln16_bear_off_blocked_inside_moves():
    expect(P({6: 1, 3: 1}, {1: 1, 13: 14}), (5, 2), ["6/4/off"])
    expect(P({6: 1, 3: 1}, {13: 15}), (5, 2), ["6/4/off", "6/1 3/1"])


def test_ln17_bear_off_only_with_all_home():
    expect(P({7: 1, 6: 14}, {15: 15}), (6, 1), ["7/6 6/off", "7/1 6/5"])
    expect(P({7: 1, 6: 14}, {1: 1, 15: 14}), (6, 1), ["7/6 6/off"])


def test_ln18_end_of_game_and_scoring():
    pos = P({1: 1}, {12: 15})
    turn = nardy.Turn(pos, (6, 5))
    (result,) = turn.results()
    assert result.me[0] == 15
    assert nardy.winner_of(result) == (0, nardy.MARS)
    assert nardy.winner_of(P({1: 1}, {12: 14})) is None
    assert nardy.winner_of(after(P({1: 1}, {12: 14}), "1/off")) == (0, nardy.OIN)
    assert nardy.RESULT_NAMES[nardy.MARS] == "mars"


def test_steps_follow_a_first_turn_3_3():
    turn = nardy.Turn(nardy.start_position(), (3, 3), first_turn=True)
    start = turn.position
    assert turn.steps(start) == [(24, 21, 3)]
    one = after(start, "24/21")
    assert sorted(turn.steps(one)) == [(21, 18, 3), (24, 21, 3)]
    two = after(start, "24/21(2)")
    assert sorted(turn.steps(two)) == [(21, 18, 3)]
    assert not turn.is_complete(two)
    done = after(start, "24/18(2)")
    assert turn.steps(done) == [] and turn.is_complete(done)
    assert turn.steps(after(start, "24/15")) == [(24, 21, 3)]
    assert turn.steps(after(start, "24/12")) is None  # not on the way


def test_forfeited_turn():
    # every landing blocked: the turn is lost and the position stays
    pos = P({24: 15}, {23: 3, 22: 3, 21: 3, 20: 3, 19: 3})
    turn = nardy.Turn(pos, (3, 1))
    assert turn.dice_used == 0
    assert turn.results() == [pos]
    assert turn.is_complete(pos) and turn.steps(pos) == []


def test_moves_and_result_for():
    pos = P({24: 14, 19: 1}, {12: 14, 4: 1})
    turn = nardy.Turn(pos, (5, 3))
    for code in turn.plays:
        res = turn.result(code)
        assert turn.result_for(res) == code
        cur = pos.copy()
        for s, t, d in turn.moves(code):
            assert s - d == t or (t == 0 and s - d <= 0)
            cur.me[s] -= 1
            cur.me[t] += 1
        assert cur == res


def test_apply_move_never_hits():
    # a lone opponent checker on its own 6 (the mover's 18): backgammon geometry
    # would call it the mover's 19 and hit it
    pos = P({20: 1, 6: 14}, {18: 1, 12: 14})
    assert pos.opp[6] == 1
    nardy.apply_move(pos, 20, 19)
    assert pos.opp[6] == 1 and pos.opp[25] == 0
    assert pos.me[19] == 1 and pos.me[20] == 0
    nardy.apply_move(pos, 6, 0)
    assert pos.me[0] == 1


def test_both_colours_on_one_point_rejected():
    bad = Position()
    bad.me[5] = 15
    bad.opp[17] = 15  # the opponent's 17 is the mover's 5
    try:
        nardy.Turn(bad, (3, 1))
    except PositionError:
        pass
    else:
        raise AssertionError("accepted both colours on one point")
    # the same arrays are a valid backgammon position (opponent 17 = mover 8)
    bad.validate("backgammon")


def test_bad_block_check_option():
    try:
        nardy.Turn(nardy.start_position(), (3, 1), block_check="never")
    except ValueError as exc:
        assert "lnBlockCheck" in str(exc)
    else:
        raise AssertionError("accepted a bad lnBlockCheck")


def _refused(turn, text, words):
    try:
        turn.check(parse_play(text))
    except nardy.IllegalPlayError as exc:
        assert words in str(exc), (text, str(exc))
        return
    raise AssertionError("%s accepted" % text)


def test_check_plays_with_reasons():
    turn = nardy.Turn(P({20: 1, 6: 14}, {17: 1, 12: 14}), (3, 1))
    code, result = turn.check(parse_play("20/16"))
    assert result == after(turn.position, "20/19/16")
    _refused(turn, "20/17", "held by your opponent")
    _refused(turn, "6/5", "both dice")
    ln03 = nardy.Turn(P({24: 14, 19: 1}, {12: 14, 4: 1}), (5, 3))
    _refused(ln03, "24/19 24/21", "only one checker may leave the head")
    assert ln03.check(parse_play("24/21 19/14"))[1] == after(ln03.position, "24/21 19/14")
    ln17 = nardy.Turn(P({7: 1, 6: 14}, {15: 15}), (6, 1))
    _refused(ln17, "6/off 7/6", "outside your home")
    ln14 = nardy.Turn(P(LN14[0], {12: 14, 1: 1}), LN14[1])
    _refused(ln14, "24/19 14/13", "six points in a row")
    ln11 = nardy.Turn(P({24: 15}, {12: 14, 16: 1}), (5, 3), first_turn=True)
    _refused(ln11, "24/21", "higher die")
    first = nardy.Turn(nardy.start_position(), (3, 3), first_turn=True)
    assert first.check(parse_play("24/15 24/21"))[1] == after(first.position, "24/15 24/21")
    _refused(first, "24/21(3)", "at most two checkers")
