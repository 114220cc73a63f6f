"""The board drawing's coordinates and pixel names (``pipboard.drawing``, from ``pipcore.geometry``)."""

from pipboard import drawing
from pipcore import dimensions as dims
from pipcore import geometry as g


def test_led_chain_is_a_bijection():
    seen = set()
    for loc in range(g.LOCATIONS):
        assert g.LED_LOC_ORDER[g.LED_CHAIN_POS[loc]] == loc
        for slot in range(g.SLOTS):
            i = g.led_index(loc, slot)
            assert drawing.led_at(i) == (loc, slot)
            seen.add(i)
    assert seen == set(range(g.LED_LOC_BASE, g.LEDS))
    names = set(drawing.led_name(i) for i in range(g.LEDS))
    assert len(names) == g.LEDS


def test_serpentine_neighbours_are_close():
    # Consecutive pixels of the slot strips are never more than a pitch plus
    # the bar or the centre gap apart (short jumpers, no long runs); inside
    # the panel column and from it to the first strip, at most 160 mm.
    limit = dims.PITCH + max(dims.BAR_W, dims.GAP_H)
    for i in range(g.LEDS - 1):
        x0, y0 = drawing.led_xy(i)
        x1, y1 = drawing.led_xy(i + 1)
        bound = limit if i >= g.LED_LOC_BASE else 160
        assert abs(x1 - x0) + abs(y1 - y0) <= bound, (i, drawing.led_name(i), drawing.led_name(i + 1))


def test_slots_are_inside_the_board():
    for loc in range(g.LOCATIONS):
        for slot in range(g.SLOTS):
            x, y = drawing.slot_xy(loc, slot)
            assert dims.BORDER <= x - dims.PITCH // 2 and x + dims.PITCH // 2 <= dims.BOARD_W - dims.BORDER
            assert dims.BORDER <= y - dims.PITCH // 2 and y + dims.PITCH // 2 <= dims.BOARD_H - dims.BORDER
    positions = set(drawing.slot_xy(loc, s) for loc in range(g.LOCATIONS) for s in range(g.SLOTS))
    assert len(positions) == g.SENSORS
    panel = set(drawing.panel_xy(i) for i in range(g.PANEL_LEDS))
    assert len(panel) == g.PANEL_LEDS
    # Panel pixels are clear of every slot (a checker is 30 mm across).
    for px, py in panel:
        assert dims.BORDER < px < dims.BOARD_W - dims.BORDER and dims.BORDER < py < dims.BOARD_H - dims.BORDER
        for sx, sy in positions:
            assert abs(px - sx) >= dims.PITCH // 2 + 2 or abs(py - sy) >= dims.PITCH // 2 + 2, (px, py, sx, sy)
