"""Board geometry: numbering, sensor bits, LED chain (CPython and MicroPython)."""

from pipcore import geometry as g


def test_sizes_agree():
    assert g.SENSORS == g.LOCATIONS * g.SLOTS
    assert g.SHIFT_REGISTERS * 8 >= g.SENSORS > (g.SHIFT_REGISTERS - 1) * 8
    assert g.SCAN_BYTES == g.SHIFT_REGISTERS
    assert g.LEDS == g.PANEL_LEDS + g.LOCATIONS * g.SLOTS
    assert g.LED_LOC_BASE == g.PANEL_LEDS
    assert g.BOARD_W == 3 * g.BORDER + 2 * g.HALF_W + g.BAR_W + g.COLUMN_W
    assert g.BOARD_H == 2 * g.BORDER + 2 * g.SLOTS * g.PITCH + g.GAP_H
    assert g.HALF_W == 6 * g.PITCH
    assert len(g.BUTTON_PINS) == g.BUTTONS == len(g.BUTTON_NAMES)
    assert len(g.CAPACITY) == g.LOCATIONS and max(g.CAPACITY) == min(g.CAPACITY) == g.SLOTS


def test_board_point_conversions_are_inverse():
    for player in (g.WHITE, g.BLACK):
        for nardy in (False, True):
            seen = set()
            for own in range(1, 25):
                p = g.board_point(player, own, nardy)
                assert 1 <= p <= 24
                assert g.own_point(player, p, nardy) == own
                seen.add(p)
            assert len(seen) == 24
    assert g.board_point(g.BLACK, 1) == 24
    assert g.board_point(g.BLACK, 24, True) == 12
    assert g.board_point(g.WHITE, 7) == 7


def test_bad_points_raise():
    for bad in (0, 25, -1):
        try:
            g.board_point(g.WHITE, bad)
        except g.GeometryError as exc:
            assert "1..24" in str(exc)
        else:
            assert False, "no error for %r" % bad


def test_sensor_bits_are_a_bijection():
    seen = set()
    for loc in range(g.LOCATIONS):
        for slot in range(g.SLOTS):
            b = g.sensor_bit(loc, slot)
            assert g.sensor_at(b) == (loc, slot)
            seen.add(b)
    assert seen == set(range(g.SENSORS))
    assert g.sensor_name(g.sensor_bit(12, 1)) == "point 13 slot 2"
    assert g.sensor_name(g.sensor_bit(g.LOC_OFF_BLACK, 5)) == "black tray slot 6"


def test_led_chain_is_a_bijection():
    seen = set()
    for loc in range(g.LOCATIONS):
        assert g.LED_LOC_ORDER[g.LED_CHAIN_POS[loc]] == loc
        for slot in range(g.SLOTS):
            i = g.led_index(loc, slot)
            assert g.led_at(i) == (loc, slot)
            seen.add(i)
    assert seen == set(range(g.LED_LOC_BASE, g.LEDS))
    names = set(g.led_name(i) for i in range(g.LEDS))
    assert len(names) == g.LEDS


def test_serpentine_neighbours_are_close():
    # Consecutive pixels of the slot strips are never more than a pitch plus
    # the bar or the centre gap apart (short jumpers, no long runs); inside
    # the panel column and from it to the first strip, at most 160 mm.
    limit = g.PITCH + max(g.BAR_W, g.GAP_H)
    for i in range(g.LEDS - 1):
        x0, y0 = g.led_xy(i)
        x1, y1 = g.led_xy(i + 1)
        bound = limit if i >= g.LED_LOC_BASE else 160
        assert abs(x1 - x0) + abs(y1 - y0) <= bound, (i, g.led_name(i), g.led_name(i + 1))


def test_location_counts():
    bits = bytearray(g.SCAN_BYTES)
    out = bytearray(g.LOCATIONS)
    for loc in range(g.LOCATIONS):
        g.set_count(bits, loc, loc % 7)
    assert g.location_counts(bits, out) == 0
    for loc in range(g.LOCATIONS):
        assert out[loc] == loc % 7
        assert g.slot_mask(bits, loc) == (1 << (loc % 7)) - 1
    # A checker left in slot 3 of point 5 with slots 0..1 filled: count 2, irregular.
    g.set_count(bits, 4, 2)
    b = g.sensor_bit(4, 3)
    bits[b >> 3] |= 1 << (b & 7)
    assert g.location_counts(bits, out) == 1
    assert out[4] == 2 | g.IRREGULAR


def test_run_table():
    for m in range(64):
        n = 0
        while n < 6 and m & (1 << n):
            n += 1
        assert g._RUN[m] == n


def test_slots_are_inside_the_board():
    for loc in range(g.LOCATIONS):
        for slot in range(g.SLOTS):
            x, y = g.slot_xy(loc, slot)
            assert g.BORDER <= x - g.PITCH // 2 and x + g.PITCH // 2 <= g.BOARD_W - g.BORDER
            assert g.BORDER <= y - g.PITCH // 2 and y + g.PITCH // 2 <= g.BOARD_H - g.BORDER
    positions = set(g.slot_xy(loc, s) for loc in range(g.LOCATIONS) for s in range(g.SLOTS))
    assert len(positions) == g.SENSORS
    panel = set(g.panel_xy(i) for i in range(g.PANEL_LEDS))
    assert len(panel) == g.PANEL_LEDS
    # Panel pixels are clear of every slot (a checker is 30 mm across).
    for px, py in panel:
        assert g.BORDER < px < g.BOARD_W - g.BORDER and g.BORDER < py < g.BOARD_H - g.BORDER
        for sx, sy in positions:
            assert abs(px - sx) >= g.PITCH // 2 + 2 or abs(py - sy) >= g.PITCH // 2 + 2, (px, py, sx, sy)


def test_position_counts_of_the_start_position():
    from pipcore.position import Position

    pos = Position.start()
    out = bytearray(g.LOCATIONS)
    owner = bytearray(g.LOCATIONS)
    g.position_counts(pos.me, pos.opp, g.WHITE, out, owner)
    # White (on roll): 24:2 13:5 8:3 6:5; black's 24, 13, 8, 6 are board 1, 12, 17, 19.
    assert out[23] == 2 and owner[23] == g.WHITE
    assert out[0] == 2 and owner[0] == g.BLACK
    assert out[11] == 5 and owner[11] == g.BLACK and out[12] == 5 and owner[12] == g.WHITE
    assert out[16] == 3 and owner[16] == g.BLACK and out[18] == 5 and owner[18] == g.BLACK
    assert sum(out) == 30 and owner[1] == g.NOBODY
    # Black on roll: the same position mirrored.
    g.position_counts(pos.me, pos.opp, g.BLACK, out, owner)
    assert out[0] == 2 and owner[0] == g.BLACK and out[23] == 2 and owner[23] == g.WHITE
    # Bar and off go to each colour's own zone; sensed counts cap at 6.
    pos = Position.from_dicts({"bar": 1, 6: 7}, {"off": 15})
    g.position_counts(pos.me, pos.opp, g.BLACK, out, owner)
    assert out[g.LOC_BAR_BLACK] == 1 and out[g.LOC_OFF_WHITE] == 15 and owner[g.LOC_OFF_WHITE] == g.WHITE
    assert out[18] == 7  # black's 6 is board 19; a sensor row shows min(7, 6)
    g.position_counts(pos.me, pos.opp, g.WHITE, out, None, nardy=True)
    assert out[5] == 7
