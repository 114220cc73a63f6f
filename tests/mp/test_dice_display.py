"""Dice display and panel: faces, used dice, cube, turn (CPython and MicroPython)."""

from pipcore import geometry as g
from pipdrivers.dice_display import DiceDisplay, DisplayError
from pipdrivers.leds import BLINK, PULSE, Pixels


class Strip:
    def __init__(self):
        self.last = b""

    def write(self, buf):
        self.last = bytes(buf)


def lit(px, base, count):
    return [i - base for i in range(base, base + count) if px[i] != (0, 0, 0)]


def make():
    strip = Strip()
    px = Pixels(g.LEDS, strip.write)
    return px, DiceDisplay(px), strip


def test_faces_light_the_right_pips():
    px, d, _ = make()
    expected = {
        1: [g.PIP_C],
        2: [g.PIP_TL, g.PIP_BR],
        3: [g.PIP_TL, g.PIP_C, g.PIP_BR],
        4: [g.PIP_TL, g.PIP_TR, g.PIP_BL, g.PIP_BR],
        5: [g.PIP_TL, g.PIP_TR, g.PIP_C, g.PIP_BL, g.PIP_BR],
        6: [g.PIP_TL, g.PIP_TR, g.PIP_ML, g.PIP_MR, g.PIP_BL, g.PIP_BR],
    }
    for face, pips in expected.items():
        d.dice(face, 7 - face, 0)
        assert lit(px, g.LED_DIE_A, 7) == pips
        assert len(lit(px, g.LED_DIE_B, 7)) == 7 - face
    d.blank()
    assert lit(px, g.LED_DIE_A, 14) == []


def test_used_die_dims_and_moves_left():
    px, d, _ = make()
    d.dice(5, 5, 1, used1=True, moves_left=3)
    a = px[g.LED_DIE_A + g.PIP_C]
    b = px[g.LED_DIE_B + g.PIP_C]
    assert a[2] < b[2] and b[2] == 255  # black's dice are blue
    assert lit(px, g.LED_MOVES, 4) == [0, 1, 2]


def test_cube_value_and_owner():
    px, d, _ = make()
    d.cube(1, -1)
    assert lit(px, g.LED_CUBE_VALUE, 6) == [] and lit(px, g.LED_CUBE_OWNER, 3) == [1]
    d.cube(8, 1)
    assert lit(px, g.LED_CUBE_VALUE, 6) == [2] and lit(px, g.LED_CUBE_OWNER, 3) == [2]
    d.offer(16, 0)
    assert px.effect(g.LED_CUBE_VALUE + 3) == PULSE
    assert px.effect(g.LED_CUBE_OWNER + 2) == PULSE
    for bad in ((3, 0), (128, 0), (2, 2)):
        try:
            d.cube(*bad)
        except DisplayError:
            pass
        else:
            assert False, bad


def test_turn_and_keyed_dice():
    px, d, _ = make()
    d.turn(0)
    assert px[g.LED_TURN_WHITE] != (0, 0, 0) and px[g.LED_TURN_BLACK] == (0, 0, 0)
    d.turn(1)
    assert px[g.LED_TURN_WHITE] == (0, 0, 0) and px[g.LED_TURN_BLACK] != (0, 0, 0)
    d.keyed(4, 0, 1)  # black keys in: die A 4 so far, die B not yet
    assert px.effect(g.LED_DIE_A + g.PIP_TL) == BLINK and px[g.LED_DIE_A + g.PIP_TL][2] == 255  # black's blue
    assert lit(px, g.LED_DIE_A, 7) == [g.PIP_TL, g.PIP_TR, g.PIP_BL, g.PIP_BR] and lit(px, g.LED_DIE_B, 7) == []


def test_resignation_and_commitment():
    px, d, _ = make()
    d.resign(0, 2, 4)  # white offers a gammon at cube 2: 4 points
    assert lit(px, g.LED_DIE_A, 7) == [g.PIP_TL, g.PIP_BR] and len(lit(px, g.LED_DIE_B, 7)) == 4
    assert px.effect(g.LED_DIE_A + g.PIP_TL) == PULSE and px.effect(g.LED_TURN_BLACK) == PULSE
    assert px[g.LED_TURN_WHITE] == (0, 0, 0)  # black answers: his light pulses
    d.resign(1, 1, 9)
    assert len(lit(px, g.LED_DIE_B, 7)) == 6  # 6 for 6 and more
    try:
        d.resign(0, 4, 4)
    except DisplayError:
        pass
    else:
        assert False
    from pipcore.fairmatch import pattern
    from pipdrivers.dice_display import PATTERN_COLOURS
    commitment = "1b6e2f4" + "0" * 57
    d.commitment(commitment)
    colours = pattern(commitment)
    for k in range(14):
        base = g.LED_DIE_A if k < 7 else g.LED_DIE_B - 7
        c = PATTERN_COLOURS[colours[k]]
        assert px[base + k] == ((c >> 16) & 255, (c >> 8) & 255, c & 255), k


def test_tumble_changes_faces():
    px, d, _ = make()
    seen = set()
    for t in range(0, 3000, 70):
        d.tumble(t, 0)
        seen.add(tuple(lit(px, g.LED_DIE_A, 7)))
    assert len(seen) == 6


def test_fault_pattern_is_red_blinking_dice_and_a_code():
    px, d, _ = make()
    d.dice(3, 4, 0)
    d.error(2)
    for base in (g.LED_DIE_A, g.LED_DIE_B):
        for pip in range(g.DIE_PIPS):
            r, gr, b = px[base + pip]
            assert r > 0 and gr == 0 and b == 0
            assert px.effect(base + pip) == BLINK
    assert lit(px, g.LED_MOVES, 4) == [0, 1]
    for code in (0, 5):
        try:
            d.error(code)
        except DisplayError:
            pass
        else:
            raise AssertionError("fault code %d accepted" % code)
