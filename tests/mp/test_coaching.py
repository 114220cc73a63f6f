"""The coach's word on the board (pipcore.coaching, the controller's coach event): CPython and MicroPython."""

from pipcore.board import BAR0, TRAY0, slot_loc
from pipcore.coaching import marks_of, panel_pips
from pipcore.controller import MOVING, TURN_START, ControllerError
from pipcore.names import M_COACH_FROM, M_COACH_TO, M_SOURCE
from pipcore.notation import parse_play
from test_controller import started


def lit(ctl, role):
    """Locations marked ``role`` (MicroPython's bytearray has no ``in`` for an int)."""
    return [i for i in range(len(ctl.marks)) if ctl.marks[i] == role]


def test_marks_are_the_net_from_and_to_points_of_the_better_play():
    marks = marks_of(0, parse_play("24/18/13"))  # a chain: the 18 point is passed through, not lit
    assert sorted(marks) == sorted([(slot_loc(0, 24), M_COACH_FROM), (slot_loc(0, 13), M_COACH_TO)])
    marks = marks_of(1, parse_play("bar/22 6/off"))
    assert sorted(marks) == sorted([(BAR0 + 1, M_COACH_FROM), (slot_loc(1, 22), M_COACH_TO),
                                    (slot_loc(1, 6), M_COACH_FROM), (TRAY0 + 1, M_COACH_TO)])
    assert marks_of(0, parse_play("8/5(2)")) == [(slot_loc(0, 5), M_COACH_TO), (slot_loc(0, 8), M_COACH_FROM)]
    assert marks_of(0, []) == []


def test_the_panel_scale_is_tenths_of_a_point_rounded_up():
    assert [panel_pips(x) for x in (0, 1, 100, 101, 474, 600, 2000)] == [0, 1, 1, 2, 5, 6, 6]


def test_the_coach_lights_between_rolls_until_the_next_action():
    t = started((6, 5))
    t.move(8, 2)
    t.move(8, 3)
    t.press("DONE")
    ctl = t.ctl
    assert ctl.phase == TURN_START and ctl.mover == 1
    prompt = ctl.message
    frame = ctl.frame
    ctl.step(("coach", 0, parse_play("24/13"), 3, 5, "very bad"), t.now)
    assert ctl.marks[slot_loc(0, 24)] == M_COACH_FROM and ctl.marks[slot_loc(0, 13)] == M_COACH_TO
    assert ctl.mark_player[slot_loc(0, 24)] == 0
    assert ctl.coach_panel == (3, 5) and ctl.frame > frame
    assert ctl.message == prompt + " | coach: very bad"
    ctl.step(("coach", 0, [], 0, 0, "fine"), t.now)  # a later word replaces the earlier one
    assert not lit(ctl, M_COACH_FROM) and ctl.coach_panel is None and ctl.message == prompt + " | coach: fine"
    ctl.step(("coach", 0, parse_play("24/13"), 2, 2), t.now)
    t.press("ROLL")
    t.dice(3, 1)  # the next roll: its own guidance, the coach's marks and panel gone
    assert ctl.phase == MOVING and ctl.coach is None and ctl.coach_panel is None
    assert not lit(ctl, M_COACH_FROM) and not lit(ctl, M_COACH_TO) and lit(ctl, M_SOURCE)


def test_the_coach_stays_dark_while_a_roll_is_played_and_refuses_bad_values():
    t = started((3, 1))
    t.ctl.step(("coach", 0, parse_play("8/5 6/5"), 1, 1), t.now)
    assert t.ctl.coach is None and not lit(t.ctl, M_COACH_TO)
    for bad in ((2, [], 1, 1), (0, [], 4, 1), (0, [], 1, 7)):
        try:
            t.ctl.step(("coach",) + bad, t.now)
        except ControllerError:
            continue
        raise AssertionError("accepted %r" % (bad,))


def test_the_panel_shows_the_rating_and_the_loss_in_the_coach_violet():
    from pipcore import geometry as g
    from pipcore.render import role_colour
    from pipdrivers.dice_display import DisplayError
    from test_dice_display import make

    px, d, _ = make()
    violet = role_colour(M_COACH_TO)
    d.coach(3, 5)
    die_a = [px[g.LED_DIE_A + p] for p in range(g.DIE_PIPS)]
    die_b = [px[g.LED_DIE_B + p] for p in range(g.DIE_PIPS)]
    assert [p for p in range(7) if die_a[p] != (0, 0, 0)] == [p for p in range(7) if g.DIE_FACE_MASKS[3] >> p & 1]
    assert [p for p in range(7) if die_b[p] != (0, 0, 0)] == [p for p in range(7) if g.DIE_FACE_MASKS[5] >> p & 1]
    assert all(c == violet for c in die_a + die_b if c != (0, 0, 0))
    d.coach(0, 0)
    assert all(px[g.LED_DIE_A + p] == (0, 0, 0) and px[g.LED_DIE_B + p] == (0, 0, 0) for p in range(g.DIE_PIPS))
    for bad in ((4, 1), (1, 7), (-1, 0)):
        try:
            d.coach(bad[0], bad[1])
        except DisplayError:
            continue
        raise AssertionError("shown %r" % (bad,))
