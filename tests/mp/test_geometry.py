"""Board geometry: numbering, sensor bits, LED chain (CPython and MicroPython)."""

from pipcore import dimensions as dims
from pipcore import geometry as g
from pipcore import pinmap


def test_sizes_agree():
    assert g.SENSORS == g.LOCATIONS * g.SLOTS
    assert g.SHIFT_REGISTERS * 8 >= g.SENSORS > (g.SHIFT_REGISTERS - 1) * 8
    assert g.SCAN_BYTES == g.SHIFT_REGISTERS
    assert g.LEDS == g.PANEL_LEDS + g.LOCATIONS * g.SLOTS
    assert g.LED_LOC_BASE == g.PANEL_LEDS
    assert dims.BOARD_W == 3 * dims.BORDER + 2 * dims.HALF_W + dims.BAR_W + dims.COLUMN_W
    assert dims.BOARD_H == 2 * dims.BORDER + 2 * g.SLOTS * dims.PITCH + dims.GAP_H
    assert dims.HALF_W == 6 * dims.PITCH
    assert len(pinmap.BUTTON_PINS) == g.BUTTONS == len(g.BUTTON_NAMES)
    assert len(g.CAPACITY) == g.LOCATIONS and max(g.CAPACITY) == min(g.CAPACITY) == g.SLOTS


def test_board_point_conversions_are_inverse():
    for player in (g.WHITE, g.BLACK):
        for nardy in (False, True):
            seen = set()
            for own in range(1, 25):
                p = g.board_point(player, own, nardy)
                assert 1 <= p <= 24
                assert g.board_point(player, p, nardy) == own  # its own inverse
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
            seen.add(g.led_index(loc, slot))
    assert seen == set(range(g.LED_LOC_BASE, g.LEDS))


def test_location_counts():
    bits = bytearray(g.SCAN_BYTES)
    out = bytearray(g.LOCATIONS)
    for loc in range(g.LOCATIONS):
        g.set_count(bits, loc, loc % 7)
    assert g.location_counts(bits, out) == 0
    for loc in range(g.LOCATIONS):
        assert out[loc] == loc % 7
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


def test_fill_counts_of_the_start_position():
    from pipcore.board import fill_counts, owner_at
    from pipcore.position import Position

    pos = Position.start()
    out = bytearray(g.LOCATIONS)
    fill_counts(pos, g.WHITE, out)
    # White (on roll): 24:2 13:5 8:3 6:5; black's 24, 13, 8, 6 are board 1, 12, 17, 19.
    assert out[23] == 2 and owner_at(pos, g.WHITE, 23) == g.WHITE
    assert out[0] == 2 and owner_at(pos, g.WHITE, 0) == g.BLACK
    assert out[11] == 5 and owner_at(pos, g.WHITE, 11) == g.BLACK and out[12] == 5
    assert out[16] == 3 and out[18] == 5 and owner_at(pos, g.WHITE, 18) == g.BLACK
    assert sum(out) == 30 and owner_at(pos, g.WHITE, 1) == -1
    # Black on roll: the same position mirrored.
    fill_counts(pos, g.BLACK, out)
    assert out[0] == 2 and owner_at(pos, g.BLACK, 0) == g.BLACK and out[23] == 2
    # Bar and off go to each colour's own zone; clipped to the switches when asked.
    pos = Position.from_dicts({"bar": 1, 6: 7}, {"off": 15})
    fill_counts(pos, g.BLACK, out)
    assert out[g.LOC_BAR_BLACK] == 1 and out[g.LOC_OFF_WHITE] == 15
    assert out[18] == 7  # black's 6 is board 19
    fill_counts(pos, g.BLACK, out, g.CAPACITY)
    assert out[18] == 6 and out[g.LOC_OFF_WHITE] == 6
    fill_counts(pos, g.WHITE, out, None, nardy=True)
    assert out[5] == 7


def test_differ_lists_the_locations_where_two_counts_differ():
    """``pipcore.board.find`` (native code where the port has it, else a loop): every location where
    two count arrays find, in order, then 255; the count returned."""
    import sys

    from pipcore import board

    arch = getattr(sys.implementation, "_mpy", 0) >> 10
    if sys.implementation.name == "micropython" and arch:  # the native pass is the one used
        from pipcore import native

        assert board.find is native.find and board.index is native.index
    seed = 5
    for trial in range(300):
        a = bytearray(board.NLOC)
        b = bytearray(board.NLOC)
        for i in range(board.NLOC):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            a[i] = seed >> 16 & 7
            b[i] = a[i] if seed >> 8 & 3 else (a[i] + 1 + (seed >> 20 & 3)) & 7
        want = [i for i in range(board.NLOC) if a[i] != b[i]]
        n = board.find(bytes(a), b)
        assert n == len(want), trial
        assert list(board.index[:n]) == want and board.index[n] == 255, trial
    assert board.find(bytes(board.NLOC), bytes(board.NLOC)) == 0 and board.index[0] == 255
