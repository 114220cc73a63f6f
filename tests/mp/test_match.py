"""Match play (CU-10, CU-11), scoring (BG-23..26 through the referee) and the gnubg Match ID.

Plain test functions: they run under pytest and under the real MicroPython.
The Match IDs below were written by GNU Backgammon 1.07 itself.
"""

from pipcore.cube import CENTRE, CubeError
from pipcore.match import MATCH_ENDED, Match, Referee
from pipcore.matchid import GAME_DROPPED, GAME_PLAYING, GAME_RESIGNED, MatchIdError, MatchState
from pipcore.options import make_options
from pipcore.position import Position
from pipcore.rules import BACKGAMMON, GAMMON, SINGLE

A = 0
B = 1


def raises(exc_type, func, *args):
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


def test_cu10_crawford_game_and_post_crawford():
    m = Match(5, crawford=True)
    m.score = [3, 2]
    m.add_result(A, 1)  # leader wins a single: 4-2
    assert m.score == [4, 2] and m.crawford_game
    ref = Referee(make_options({"matchLength": 5}))
    ref.match = m
    ref.new_game()
    assert ref.cube.crawford_game
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    assert raises(CubeError, ref.double) == "no doubling in the Crawford game"
    assert ref.match_state().crawford
    m.add_result(B, 2)  # trailer wins the Crawford game with a gammon: 4-4
    assert m.score == [4, 4] and not m.crawford_game and m.post_crawford()
    ref.phase = 4  # the test skipped to the end of the game
    ref.new_game()
    assert not ref.cube.crawford_game
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    ref.double()  # doubling allowed again


def test_crawford_only_once_and_only_by_a_score_change():
    m = Match(5)
    m.add_result(A, 4)
    assert m.crawford_game
    m.add_result(B, 1)
    assert not m.crawford_game
    m.add_result(B, 3)  # B reaches 4 too: no second Crawford game
    assert m.score == [4, 4] and not m.crawford_game
    off = Match(5, crawford=False)
    off.add_result(A, 4)
    assert not off.crawford_game


def test_cu11_gammon_ends_the_match():
    ref = Referee(make_options({"matchLength": 7}))
    ref.match.score = [5, 3]
    ref.new_game()
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    ref.double(B)
    ref.take(A)
    assert ref.cube.value == 2
    ref.roll((1, 2))
    ref.play([(24, 23), (24, 22)])
    # A, the leader, is one roll from a gammon: his last checker is on his 1-point
    ref.position = Position.from_dicts({1: 1, "off": 14}, {24: 15})
    ref.roll((2, 1))
    result = ref.play([(1, 0)])
    assert result.winner == A and result.kind == GAMMON and result.points == 4
    assert ref.match.score == [9, 3] and ref.match.winner() == A
    assert ref.phase == MATCH_ENDED
    assert "match over" in raises(ValueError, ref.new_game)


def test_scoring_single_gammon_backgammon():
    for opp, kind, value, points in (({"off": 3, 12: 12}, SINGLE, 2, 2),
                                     ({5: 15}, GAMMON, 1, 2),
                                     ({22: 1, 5: 14}, BACKGAMMON, 4, 12),
                                     ({"bar": 1, 5: 14}, BACKGAMMON, 1, 3)):
        ref = Referee(make_options({}))
        ref.new_game()
        ref.opening_roll(6, 1)
        ref.play([(13, 7), (8, 7)])
        # the winner A is to bear off his last checker; opp is the loser in his own numbering
        pos = Position.from_dicts({1: 1, "off": 14})
        for key in opp:
            slot = {"off": 0, "bar": 25}.get(key, key)
            pos.opp[slot] = opp[key]
        pos.opp[0] = 15 - pos.on_board(pos.opp)
        ref.turn = A
        ref.position = pos
        ref.cube.start_turn(A)
        ref.cube.value = value
        ref.phase = 1
        ref.roll((6, 5))
        result = ref.play([(1, 0)])
        assert (result.kind, result.points) == (kind, points), (opp, result)


def test_match_id_examples_from_gnubg():
    s = MatchState.decode("cAlnAAAAAAAE")  # 3-point match, first game, player 1 rolled 6-1
    assert (s.cube_value, s.cube_owner, s.on_roll, s.dice, s.length, s.score) == (1, CENTRE, 1, (6, 1), 3, (0, 0))
    assert s.game_state == GAME_PLAYING and not s.jacoby
    s = MatchState.decode("QYkqASAAIAAA")  # the example in gnubg's manual
    assert (s.cube_value, s.cube_owner, s.on_roll, s.dice, s.length, s.score) == (2, 0, 1, (5, 2), 9, (2, 4))
    s = MatchState.decode("UwSgABAAQAAE")  # a dropped double at 8, 5-point match
    assert s.game_state == GAME_DROPPED and s.cube_value == 8 and s.score == (1, 8)
    s = MatchState.decode("EiMAAAAAIAAA")  # money game, gammon resigned
    assert s.game_state == GAME_RESIGNED and s.resigned == 1 and s.jacoby and s.length == 0
    for text in ("cAlnAAAAAAAE", "QYkqASAAIAAA", "UwSgABAAQAAE", "EiMAAAAAIAAA", "QgkSAEADcAMA"):
        assert MatchState.decode(text).encode() == text


def test_match_id_round_trip_many_states():
    for value in (1, 2, 64, 32768):
        for owner in (0, 1, CENTRE):
            if owner == CENTRE and value > 1:
                continue
            for on_roll in (0, 1):
                s = MatchState(cube_value=value, cube_owner=owner, on_roll=on_roll, dice=(6, 3), length=11,
                               score=(10, 7), crawford=value == 1 and owner == CENTRE)
                s.validate()
                assert MatchState.decode(s.encode()) == s


def test_impossible_match_ids_are_rejected():
    bad = MatchState(length=5, score=(5, 6), game_state=2)
    assert "both players" in raises(MatchIdError, MatchState.decode, bad.encode())
    assert "12 characters" in raises(MatchIdError, MatchState.decode, "cAlnAAAA")
    assert "not allowed" in raises(MatchIdError, MatchState.decode, "cAln*AAAAAAE")
    assert "stray bits" in raises(MatchIdError, MatchState.decode, "cAlnAAAAAAA/")
    money_crawford = MatchState(crawford=True)
    assert "money play" in raises(MatchIdError, money_crawford.validate)
    one_die = MatchState(dice=(3, 0))
    assert "one die" in raises(MatchIdError, one_die.validate)
    seven = MatchState(dice=(7, 1))
    assert "outside" in raises(MatchIdError, seven.validate)
    assert "powers of two" in raises(MatchIdError, MatchState(cube_value=3).encode)
    assert "Crawford" in raises(MatchIdError, MatchState(length=5, score=(2, 2), crawford=True).validate)
    doubled_rolled = MatchState(doubled=True, turn=1, dice=(3, 1))
    assert "pending" in raises(MatchIdError, doubled_rolled.validate)
    owner2 = "cAlnAAAAAAAE"  # set the owner bits to 2 (impossible)
    key = MatchState.decode(owner2)
    key.cube_owner = 1
    text = key.encode()
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    # key bits 4-5 (the owner) are bits 2-3 of the first character: 0b01 -> 0b10
    broken = b64[b64.index(text[0]) ^ 0b1100] + text[1:]
    assert "owner" in raises(MatchIdError, MatchState.decode, broken)


def test_referee_match_id_follows_the_game():
    ref = Referee(make_options({"matchLength": 3}))
    assert MatchState.decode(ref.match_id()).game_state == 0
    ref.new_game()
    ref.opening_roll(1, 6)
    assert ref.match_id() == "cAlnAAAAAAAE"  # the same ID gnubg showed for this moment
    ref.play([(13, 7), (8, 7)])
    s = MatchState.decode(ref.match_id())
    assert s.on_roll == A and s.dice == (0, 0)
    ref.double()
    s = MatchState.decode(ref.match_id())
    assert s.doubled and s.turn == B and s.on_roll == A
    ref.take()
    s = MatchState.decode(ref.match_id())
    assert s.cube_value == 2 and s.cube_owner == B and not s.doubled


def test_money_session_never_ends():
    m = Match(0)
    m.add_result(A, 64)
    assert m.winner() is None and not m.is_over() and not m.crawford_game
