"""The doubling cube: RULES.md 6.2 scenarios CU-01..CU-09 and CU-12, and the refusals of 2.2.

Plain test functions: they run under pytest and under the real MicroPython.
"""

from pipcore.cube import BEAVER, CENTRE, DROP, OFFER, RACCOON, TAKE, Cube, CubeError
from pipcore.match import ANSWER, CUBE_OR_ROLL, GAME_ENDED, PLAY, Referee
from pipcore.options import ConfigError, make_options
from pipcore.position import Position
from pipcore.rules import BACKGAMMON, GAMMON, SINGLE

A = 0
B = 1


def raises(exc_type, func, *args):
    """Call func(*args); return the exception's text, failing if it does not raise exc_type."""
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


def cube(**given):
    c = Cube(make_options(given))
    c.start_turn(A)
    return c


def test_cu01_offer_only_before_rolling():
    c = cube()
    c.note_roll()
    assert "before rolling" in raises(CubeError, c.offer, A)
    assert c.value == 1 and c.owner == CENTRE
    c = cube()
    c.offer(A)
    assert c.responder() == B


def test_cu01_referee_refuses_offer_after_roll():
    ref = Referee(make_options({}))
    ref.new_game()
    ref.opening_roll(3, 5)  # B starts and plays 5-3 at once: no offer first (BG-02)
    assert ref.phase == PLAY and ref.turn == B
    assert "before rolling" in raises(CubeError, ref.double)
    ref.play([(8, 3), (6, 3)])
    assert ref.turn == A and ref.phase == CUBE_OR_ROLL
    ref.roll((6, 1))
    assert raises(CubeError, ref.double) == "you must offer before rolling"
    assert ref.cube.value == 1 and ref.phase == PLAY


def test_cu02_take_gives_ownership():
    c = cube()
    c.offer(A)
    c.take(B)
    assert c.value == 2 and c.owner == B
    c.note_roll()
    c.start_turn(B)
    c.note_roll()
    c.start_turn(A)
    assert raises(CubeError, c.offer, A) == "only the cube owner may redouble"
    c.note_roll()
    c.start_turn(B)
    c.offer(B)
    c.take(A)
    assert c.value == 4 and c.owner == A


def test_cu03_drop_scores_value_before_offer():
    c = cube()
    c.offer(A)
    c.take(B)
    c.start_turn(B)
    c.offer(B)
    winner, points = c.drop(A)
    assert (winner, points) == (B, 2)


def test_cu03_drop_ignores_gammon_in_referee():
    ref = Referee(make_options({}))
    ref.new_game()
    ref.opening_roll(3, 5)  # B starts
    ref.play([(8, 3), (6, 3)])
    ref.double()  # A offers before his roll
    ref.take()
    assert ref.cube.owner == B
    ref.roll((2, 1))
    ref.play([(13, 11), (6, 5)])
    # B is about to gammon A; B redoubles and A drops
    assert ref.turn == B
    ref.position = Position.from_dicts({6: 5, 5: 5, 4: 5}, {12: 15})
    ref.double()
    result = ref.drop()
    assert result.winner == B and result.points == 2 and result.dropped
    assert ref.phase == GAME_ENDED and ref.match.score == [0, 2]


def test_cu04_values_beyond_64_unless_capped():
    c = cube()
    c.value = 64
    c.owner = A
    c.offer(A)
    c.take(B)
    assert c.value == 128
    c = cube(cubeCap=64)
    c.value = 64
    c.owner = A
    assert raises(CubeError, c.offer, A) == "the cube is capped at 64"
    assert c.value == 64 and c.state == 0


def test_offer_refusals_say_why():
    c = cube()
    assert "own turn" in raises(CubeError, c.offer, B)
    c.offer(A)
    assert "already waiting" in raises(CubeError, c.offer, A)
    c.take(B)
    # A, whose double was taken, may not offer again in the same turn (D5)
    c.owner = CENTRE
    assert "already offered" in raises(CubeError, c.offer, A)
    c = Cube(make_options({"matchLength": 5}), crawford_game=True)
    c.start_turn(A)
    assert raises(CubeError, c.offer, A) == "no doubling in the Crawford game"
    c = Cube(make_options({"cubeEnabled": False}))
    c.start_turn(A)
    assert "not in use" in raises(CubeError, c.offer, A)


def test_answer_by_wrong_player_or_without_offer():
    c = cube()
    assert "no double" in raises(CubeError, c.take, B)
    c.offer(A)
    assert "must answer" in raises(CubeError, c.take, A)
    assert "beavers are not allowed" in raises(CubeError, c.beaver, B)


def test_cu05_automatic_doubles_at_opening():
    ref = Referee(make_options({"autoDoubles": 1}))
    ref.new_game()
    assert ref.opening_roll(3, 3) is None
    assert ref.opening_roll(6, 6) is None
    assert ref.opening_roll(5, 2) == A
    assert ref.cube.value == 2 and ref.cube.owner == CENTRE
    assert ref.dice == (5, 2) and ref.phase == PLAY
    ref.play([(13, 8), (13, 11)])
    ref.double(B)  # either player may later offer 4
    assert ref.cube.offered_value == 4
    ref2 = Referee(make_options({}))
    ref2.new_game()
    ref2.opening_roll(3, 3)
    ref2.opening_roll(6, 6)
    ref2.opening_roll(5, 2)
    assert ref2.cube.value == 1


def test_auto_double_limit_unlimited_and_cap():
    c = Cube(make_options({"autoDoubles": -1, "cubeCap": 8}))
    assert c.auto_double() and c.auto_double() and c.auto_double()
    assert not c.auto_double()  # 16 would pass the cap
    assert c.value == 8 and c.owner == CENTRE and not c.player_doubled


def test_cu06_beaver_accept_and_refuse():
    c = cube(beavers=True)
    c.offer(A)
    c.beaver(B)
    assert c.responder() == A
    c.take(A)
    assert c.value == 4 and c.owner == B
    c = cube(beavers=True)
    c.offer(A)
    c.beaver(B)
    assert c.drop(A) == (B, 2)


def test_cu06_after_beaver_original_doubler_rolls():
    ref = Referee(make_options({"beavers": True}))
    ref.new_game()
    ref.opening_roll(2, 1)
    ref.play([(13, 11), (6, 5)])
    ref.double(B)
    ref.beaver(A)
    ref.take(B)
    assert ref.phase == CUBE_OR_ROLL and ref.turn == B
    assert ref.cube.value == 4 and ref.cube.owner == A
    ref.roll((3, 1))
    assert ref.phase == PLAY


def test_cu07_raccoon_accept_and_refuse():
    c = cube(beavers=True, raccoons=True)
    c.offer(A)
    c.beaver(B)
    assert RACCOON in c.answers()
    c.raccoon(A)
    assert c.responder() == B
    c.take(B)
    assert c.value == 8 and c.owner == B
    c = cube(beavers=True, raccoons=True)
    c.offer(A)
    c.beaver(B)
    c.raccoon(A)
    assert c.drop(B) == (A, 4)
    c = cube(beavers=True)
    c.offer(A)
    c.beaver(B)
    assert "raccoons are not allowed" in raises(CubeError, c.raccoon, A)


def test_cu08_jacoby():
    opts = make_options({"jacoby": True, "autoDoubles": 1})
    c = Cube(opts)
    assert c.points(GAMMON) == 1  # cube never offered, v=1
    c.auto_double()
    assert c.points(GAMMON) == 2  # v=2 by an automatic double: still a single
    c = Cube(opts)
    c.start_turn(A)
    c.offer(A)
    c.take(B)
    assert c.points(GAMMON) == 4
    assert c.points(BACKGAMMON) == 6
    assert Cube(make_options({})).points(GAMMON) == 2  # without Jacoby


def test_cu08_beaver_counts_as_a_double_for_jacoby():
    c = cube(jacoby=True, beavers=True)
    c.offer(A)
    c.beaver(B)
    c.take(A)
    assert c.points(GAMMON) == 8


def test_cu09_arithmetic_cube():
    c = cube(cubeProgression="arithmetic")
    c.offer(A)
    c.take(B)
    assert c.value == 2
    c.start_turn(B)
    c.offer(B)
    c.take(A)
    assert c.value == 3
    assert c.points(GAMMON) == 6
    c.start_turn(A)
    c.offer(A)
    assert c.offered_value == 4
    assert c.drop(B) == (A, 3)


def test_cu12_no_gammons_with_cube():
    c = cube(noGammonsWithCube=True)
    c.offer(A)
    c.take(B)
    assert c.points(GAMMON) == 2
    assert c.points(BACKGAMMON) == 2
    assert c.points(SINGLE) == 2


def test_forbidden_combinations_are_config_errors():
    assert "money play" in raises(ConfigError, make_options, {"autoDoubles": 1, "matchLength": 5})
    assert "arithmetic" in raises(ConfigError, make_options, {"autoDoubles": 1, "cubeProgression": "arithmetic"})
    assert "beavers" in raises(ConfigError, make_options, {"raccoons": True})
    assert "money play" in raises(ConfigError, make_options, {"jacoby": True, "matchLength": 3})


def test_act_dispatch_and_unknown_action():
    c = cube(beavers=True)
    c.act(OFFER, A)
    assert BEAVER in c.answers() and TAKE in c.answers() and DROP in c.answers()
    c.act(TAKE, B)
    assert c.value == 2
    assert "unknown" in raises(CubeError, c.act, 9, A)


def test_referee_answer_phase():
    ref = Referee(make_options({}))
    ref.new_game()
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    ref.double()
    assert ref.phase == ANSWER
    assert "not now" in raises(ValueError, ref.roll, (3, 2))
    assert "must answer" in raises(CubeError, ref.take, B)
