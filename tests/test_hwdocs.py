"""hardware/ agrees with the geometry, the firmware drivers and the simulator's twins."""

import io
import os
import re

from pipboard import hwdocs
from pipboard.twins import VirtualBoard, VirtualStrip, VirtualSwitches
from pipcore import dimensions as dims
from pipcore import geometry as g
from pipcore import pinmap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")


def test_committed_hardware_docs_are_regenerated_exactly():
    out = io.StringIO()
    assert hwdocs.run(HARDWARE, check=True, stream=out) == 0, out.getvalue()


def test_check_reports_a_stale_file(tmp_path):
    hwdocs.run(str(tmp_path), stream=io.StringIO())
    (tmp_path / "bom.md").write_text("edited by hand\n")
    out = io.StringIO()
    assert hwdocs.run(str(tmp_path), check=True, stream=out) == 1
    assert "bom.md" in out.getvalue()


def test_board_svg_names_every_sensor_and_pixel_once():
    svg = hwdocs.board_svg()
    bits = [int(b) for b in re.findall(r">b(\d+)<", svg)]
    leds = [int(n) for n in re.findall(r">L(\d+)<", svg)]
    assert sorted(bits) == list(range(g.SENSORS))
    assert sorted(leds) == list(range(g.LED_LOC_BASE, g.LEDS))
    panel = [int(n) for n in re.findall(r'fill="#b00">(\d+)<', svg)]
    assert sorted(panel) == list(range(g.PANEL_LEDS))


def test_tables_match_geometry():
    maps = hwdocs.index_maps_md()
    for loc, slot in ((0, 0), (12, 3), (g.LOC_BAR_BLACK, 5), (g.LOC_OFF_WHITE, 2)):
        b = g.sensor_bit(loc, slot)
        row = "| %d | %s | %d | %d | U%d | D%d | %d |" % (
            loc, g.loc_name(loc), slot + 1, b, b // 8 + 1, b % 8, g.led_index(loc, slot))
        assert row in maps
    bom = hwdocs.bom_md()
    assert "| S | %d |" % g.SENSORS in bom and "| D | %d |" % g.LEDS in bom
    assert "| U1-U%d | %d |" % (g.SHIFT_REGISTERS, g.SHIFT_REGISTERS) in bom
    pins = hwdocs.pinmap_md()
    for n in (pinmap.PIN_SCAN_SCK, pinmap.PIN_SCAN_MISO, pinmap.PIN_SCAN_LOAD, pinmap.PIN_LED_DATA) + tuple(pinmap.BUTTON_PINS):
        assert "| GP%d |" % n in pins


def test_simulator_twins_have_the_board_sizes():
    vb = VirtualBoard()
    assert vb.strip.n == g.LEDS == len(vb.board.pixels)
    assert len(vb.switches.closed) == g.SCAN_BYTES == vb.board.scanner.nbytes
    assert vb.board.buttons.n == g.BUTTONS
    # A checker placed on the twin is counted where the geometry says.
    sw = VirtualSwitches()
    sw.place(g.point_loc(24), 2)
    sw.place(g.LOC_OFF_BLACK, 6)
    buf = bytearray(g.SCAN_BYTES + 1)
    sw.readinto(buf)
    counts = bytearray(g.LOCATIONS)
    g.location_counts(buf, counts)
    assert counts[23] == 2 and counts[g.LOC_OFF_BLACK] == 6 and sum(counts) == 8
    strip = VirtualStrip()
    assert strip.n == g.LEDS


def test_power_page_shows_the_limiter_budget():
    text = hwdocs.power_md()
    assert "**%d mA**" % g.POWER_BUDGET_MA in text
    static = g.POWER_BASE_MA + g.LEDS * g.LED_IDLE_UA // 1000
    assert "**%d mA** |" % (g.POWER_BUDGET_MA - static) in text


def test_menu_overlay_names_every_item_where_the_firmware_lights_it():
    """The overlay is drawn from the firmware's own item table: each name at the place its light is."""
    from pipboard import drawing
    from pipcore import menu

    svg = hwdocs.menu_overlay_svg()
    assert 'width="%dmm"' % dims.BOARD_W in svg  # printed at 100 %: the board's own size
    for key, loc, kind, values, title, labels in menu.ITEMS:
        x, y, _dy = drawing.loc_origin(loc)
        assert '<circle cx="%d" cy="%d" r="3.4"' % (x, y) in svg, key  # the item's light, ringed
        for line in hwdocs._wrap(title, 13):
            assert ">%s</text>" % hwdocs._esc(line) in svg, (key, line)
        if kind == menu.CHOICE:
            assert len(labels) == len(values) and len(values) <= g.SLOTS - 1
            for k, label in enumerate(labels):
                sx, sy = drawing.slot_xy(loc, 1 + k)
                first = hwdocs._wrap(label, 10)[0]
                assert '<text x="%d" y="%.1f" font-size="3" text-anchor="middle">%s</text>' % (
                    sx, sy + 7, hwdocs._esc(first)) in svg, (key, label)


def test_backalley_overlay_names_every_place_where_the_firmware_lights_it():
    """The Back Alley overlay is drawn from pipcore.bamode's tables: each seat's name on its quadrant, the
    markers under their pixels, the trump's suits beside the slots that show them."""
    from pipboard import baoverlay, drawing
    from pipcore import bamode

    svg = hwdocs.backalley_overlay_svg()
    assert 'width="%dmm"' % dims.BOARD_W in svg
    for seat in range(4):
        quad = bamode.QUADRANTS[seat]
        assert len(quad) == 6 and all(0 <= loc < g.POINTS for loc in quad)
        top = seat < 2
        x0, y0, x1, y1 = baoverlay.quadrant_box(seat)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        assert ">%s</text>" % baoverlay.SEAT_TITLES[seat] in svg
        assert '<text x="%d" y="%d" font-size="14"' % (cx, cy + (-6 if top else 6)) in svg, seat
        for loc in quad:  # the box holds the glyph pixels of the quadrant's six points, slots 2..6
            for slot in range(1, g.SLOTS):
                x, y = drawing.slot_xy(loc, slot)
                assert x0 < x < x1 and y0 < y < y1, (seat, loc, slot)
        for k in range(3):
            x, y = drawing.slot_xy(quad[k], 0)
            assert '<text x="%d" y="%d" font-size="3" text-anchor="middle" fill="#000"%s>%s</text>' % (
                x, y + (8 if top else -6), ' transform="rotate(180 %d %d)"' % (x, y + 8) if top else "",
                bamode.MARKS[k]) in svg, (seat, k)
    for k, label in enumerate(baoverlay.TRUMP_LABELS):
        x, y = drawing.slot_xy(bamode.TRUMP_LOC, 1 + k)
        assert '<text x="%d" y="%d" font-size="3" text-anchor="middle" fill="#000">%s</text>' % (x, y + 7, label) in svg
    assert bamode.TRUMP_LETTERS == "".join(label[0].upper() for label in baoverlay.TRUMP_LABELS)
    # the quadrants are the seats' own: N and E on the top half, S and W on the bottom, no point twice
    assert sorted(loc for quad in bamode.QUADRANTS for loc in quad) == list(range(g.POINTS))
    assert all(quad[0] >= 12 for quad in bamode.QUADRANTS[:2]) and all(quad[0] < 12 for quad in bamode.QUADRANTS[2:])
