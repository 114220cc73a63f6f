"""Caucasian restriction and jail clause: every CA scenario of RULES.md 6.3,
and the variant factory (CPython and MicroPython)."""

from pipcore import caucasian, rules
from pipcore.notation import parse_play
from pipcore.options import ConfigError
from pipcore.position import Position
from pipcore.variants import make_turn


def P(me, opp):
    return Position.from_dicts(me, opp)


def after(pos, text):
    out = pos.copy()
    for s, t, _ in parse_play(text):
        rules.apply_move(out, s, t)
    return out


def keys(turn):
    return set(r.key() for r in turn.results())


def want(pos, plays):
    return set(after(pos, text).key() for text in plays)


CA01 = P({13: 12, 8: 1, 3: 2}, {5: 1})
CA01_OTHERS = ["8/5* 3/1", "8/5* 13/11", "13/10 3/1", "13/10 8/6", "13/10/8", "13/10 13/11", "8/6/3"]


def test_ca01_hit_and_hide_removed():
    standard = rules.Turn(CA01, (3, 2))
    assert keys(standard) == want(CA01, CA01_OTHERS + ["8/5*/3"])
    turn = caucasian.Turn(CA01, (3, 2))
    assert keys(turn) == want(CA01, CA01_OTHERS)
    assert len(turn.plays) == 7


def test_ca02_hit_and_cover_legal():
    pos = P({13: 13, 8: 1, 7: 1}, {5: 1})
    got = keys(caucasian.Turn(pos, (3, 2)))
    assert want(pos, ["8/5* 7/5", "7/5*/2"]) <= got
    assert got == keys(rules.Turn(pos, (3, 2)))  # nothing of the standard removed here


def test_ca03_hit_and_move_on_to_an_empty_point():
    pos = P({13: 14, 8: 1}, {5: 1})
    assert after(pos, "8/5*/3").key() in keys(caucasian.Turn(pos, (3, 2)))


def test_ca04_hit_and_bear_off():
    pos = P({6: 2, 4: 13}, {3: 1})
    turn = caucasian.Turn(pos, (3, 3))
    assert keys(turn) == keys(rules.Turn(pos, (3, 3)))
    assert len(turn.plays) == 6
    assert after(pos, "6/3* 3/off 6/3 3/off").key() in keys(turn)


def test_ca05_only_moves_without_hiding():
    pos = P({8: 1, 3: 14}, {5: 1, 1: 2})
    assert keys(rules.Turn(pos, (3, 2))) == want(pos, ["8/5*/3", "8/6/3", "8/6 3/off"])
    assert keys(caucasian.Turn(pos, (3, 2))) == want(pos, ["8/6/3", "8/6 3/off"])


def test_ca06_scope():
    pos = P({13: 1, 10: 2, 6: 12}, {11: 1})
    home = caucasian.Turn(pos, (2, 1), scope="home")
    board = caucasian.Turn(pos, (2, 1), scope="board")
    hide = after(pos, "13/11*/10").key()
    assert hide in keys(home) and len(home.plays) == 12
    assert hide not in keys(board) and len(board.plays) == 11


def test_ca07_jail_bear_off():
    pos = P({6: 2, 4: 13}, {3: 1})
    turn = caucasian.Turn(pos, (3, 3), caucasian=False, jail=True)
    assert keys(turn) == want(pos, ["4/1(4)", "6/3* 4/1(3)", "6/3* 6/3 4/1(2)"])


def test_c4_identity_marked_and_plain_checker_on_one_point():
    # 6/3* with the first 3, then 6/3 covers: point 3 holds the marked hitter
    # and a plain checker; a 3 from 3 onto own checkers is legal (the plain one)
    pos = P({6: 2, 1: 13}, {3: 1})
    turn = caucasian.Turn(pos, (3, 3))
    assert after(pos, "6/3*(1) 6/3 3/off 3/off").key() in keys(turn)
    mid = after(pos, "6/3* 6/3")
    assert (3, 0, 3) in turn.steps(mid)
    # with one checker only, the marked hitter may not join its own checkers
    pos = P({6: 1, 5: 2, 2: 12}, {5: 0, 4: 1})
    turn = caucasian.Turn(pos, (2, 2))
    assert after(pos, "6/4*/2").key() not in keys(turn)
    assert (4, 2, 2) not in turn.steps(after(pos, "6/4*"))


def test_steps_and_is_complete_ca01():
    turn = caucasian.Turn(CA01, (3, 2))
    hit = after(CA01, "8/5*")
    nxt = turn.steps(hit)
    assert (5, 3, 2) not in nxt  # the hitter may not hide on 3
    assert (3, 1, 2) in nxt and (13, 11, 2) in nxt
    assert not turn.is_complete(hit)
    assert turn.is_complete(after(CA01, "8/5* 3/1"))
    assert not turn.is_complete(after(CA01, "8/5*/3"))
    assert (8, 5, 3) in turn.steps(CA01)


def test_make_turn_factory():
    pos = CA01
    plain = make_turn(pos, (3, 2))
    assert isinstance(plain, rules.Turn)
    restricted = make_turn(pos, (3, 2), options={"caucasian": True})
    assert isinstance(restricted, caucasian.Turn) and len(restricted.plays) == 7
    # no opponent blot in the home board: nothing to restrict, the plain rules
    quiet = P({13: 12, 8: 1, 3: 2}, {5: 2})
    assert isinstance(make_turn(quiet, (3, 2), options={"caucasian": True}), rules.Turn)
    from pipcore import nardy

    ln = make_turn(nardy.start_position(), (3, 3), variant="nardy", first_turn=True)
    assert isinstance(ln, nardy.Turn) and len(ln.plays) == 2
    for bad in ({"caucasian": "yes"}, {"noSuchOption": 1}):
        try:
            make_turn(pos, (3, 2), options=bad)
        except ConfigError:
            continue
        raise AssertionError("accepted %r" % (bad,))
    try:
        make_turn(nardy.start_position(), (3, 1), variant="nardy", options={"caucasian": True})
    except ConfigError:
        pass
    else:
        raise AssertionError("Caucasian option accepted in long nardy")


def test_last_checker_off_with_one_die_loses_to_a_two_die_play():
    # O1 counts dice: 6/3*/off (both dice) beats 6/off (one die), as gnubg
    # rules; the hit matters, since it can turn a gammon into a backgammon.
    pos = P({6: 1, "off": 14}, {3: 1})
    two_dice = want(pos, ["6/3*/off"])
    assert keys(rules.Turn(pos, (6, 3))) == two_dice
    assert keys(caucasian.Turn(pos, (6, 3), caucasian=True)) == two_dice
    assert keys(make_turn(pos, (6, 3), options={"caucasian": True})) == two_dice
    # with the jail clause the hitter may not bear off (J1): one die, the 6
    assert keys(caucasian.Turn(pos, (6, 3), jail=True)) == want(pos, ["6/off"])


def test_the_split_modules_share_their_mark_constants():
    """pipcore.causteps repeats two private constants of pipcore.caucasian (MicroPython inlines only a
    module's own): they must agree. (CPython only: MicroPython keeps no private constant by name.)"""
    from pipcore import caucasian, causteps

    for name in ("_HIGH_FIRST", "_JAILED"):
        if hasattr(caucasian, name):
            assert getattr(causteps, name) == getattr(caucasian, name), name
