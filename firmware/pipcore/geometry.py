"""Board geometry: the one source of every sensor, LED and pin of the board.

Firmware drivers, the composition root, the host simulator and the generated
drawings in ``hardware/`` all read this module; ``tests/test_hwdocs.py``
regenerates the drawings and fails if they disagree.  Pure data: constants,
a few ``bytes`` tables and small functions, nothing built at import.

Board numbering
---------------
*Board points* 1..24 are fixed on the wood and are **white's own numbering**
(white = player 0, sitting at the bottom edge of the drawings)::

      13 14 15 16 17 18 | W-bar | 19 20 21 22 23 24 | black tray (off)
      (top half, black's home is 19..24 seen from white = black's 1..6)
      12 11 10  9  8  7 | B-bar |  6  5  4  3  2  1 | white tray (off)

White moves 24 -> 1 and bears off from 1..6 into the white tray (bottom
right).  Black's own point ``p`` is board point ``25 - p`` in backgammon and
``p - 12 if p > 12 else p + 12`` in long nardy (both sides move the same
way round there).  ``pipcore.position.Position`` keeps each side in its own
numbering (slot 25 = bar, 0 = off): ``board_point(player, own, nardy)``
converts, and is its own inverse. The Pico's pins are ``pipcore.pinmap``'s
(read by the composition root once, at power-up). The board's size in millimetres is
``pipcore.dimensions``' and drawing coordinates ``pipboard.drawing``'s (host
side: the board never needs them).

Locations and slots
-------------------
Every sensed place is a *location* with ``SLOTS`` (6) slots, slot 0 at the
outer edge of the board (where the checkers of a point start) and slot 5
nearest the centre line:

    loc 0..23   board points 1..24 (loc = point - 1)
    loc 24      white's bar zone (top half of the bar, where white re-enters)
    loc 25      black's bar zone (bottom half of the bar)
    loc 26      white's tray: white's borne-off checkers (bottom right)
    loc 27      black's tray (top right)

Why six slots: the starting position has stacks of five, most middle-game
points hold two to four, and stacks of six or more occur but are rare and
short-lived; a sixth slot lets the board count every opening stack plus one
checker, and 6 x 28 = 168 switches fill exactly 21 74HC165 shift registers.
Checkers are pushed to the edge, so a point's count is the length of the run
of closed switches from slot 0; a run of six means "six or more" (the players
put extra checkers on top, which a reed switch cannot count) and the
controller resolves it from the game it is following or asks.  A closed
switch beyond a gap marks an irregular point (a checker not pushed home).

Reed switches cannot tell colours.  On a point the colour follows from the
game state (a point holds one colour, except for the instant of a hit, which
the controller follows as lift-then-place).  The bar and the trays are split
per colour, so there the location itself names the colour.

Scan bits
---------
Switch ``(loc, slot)`` is bit ``loc * 6 + slot`` of the chain: shift register
``bit >> 3`` (register 0 feeds the Pico), parallel input ``D(bit & 7)``.
Reading the chain MSB-first by SPI puts register ``k`` in byte ``k`` of the
scan buffer with ``Dn`` at bit ``n``; the buffer is the board's bitmap
(a 168-bit integer would be a heap object in MicroPython, so the hot path
keeps it as a ``bytearray`` with the same bit numbering).

LEDs
----
One NeoPixel chain.  The first ``PANEL_LEDS`` pixels are the control panel in
the right-hand column (turn indicators, dice display, cube); then the 28
locations, six pixels each (one under every slot), in the order of
``LED_LOC_ORDER`` and serpentine (even chain positions run centre -> edge,
odd ones edge -> centre) so each strip joins the next with a short wire:
the panel ends beside the centre end of the white tray, point 12 ends at the
centre line opposite the start of point 13, and the black tray ends beside
the panel.
"""

from pipcore.compat import const

# -- players and locations ---------------------------------------------
WHITE = const(0)
BLACK = const(1)

POINTS = const(24)
SLOTS = const(6)
LOCATIONS = const(28)
LOC_BAR_WHITE = const(24)
LOC_BAR_BLACK = const(25)
LOC_OFF_WHITE = const(26)
LOC_OFF_BLACK = const(27)

SENSORS = const(168)  # LOCATIONS * SLOTS
# Checkers the switches of each location can count (a sensed count is
# min(actual, CAPACITY[loc])): six everywhere on this board.
CAPACITY = b"\x06" * 28
SHIFT_REGISTERS = const(21)  # 74HC165, 8 inputs each
SCAN_BYTES = const(21)

# Buttons: to GND, internal pull-ups; pressed reads 0.
BTN_WHITE_ROLL = const(0)  # roll the dice / done (confirm the move)
BTN_WHITE_DOUBLE = const(1)  # double; facing a double: beaver (redouble)
BTN_WHITE_TAKE = const(2)
BTN_WHITE_DROP = const(3)
BTN_BLACK_ROLL = const(4)
BTN_BLACK_DOUBLE = const(5)
BTN_BLACK_TAKE = const(6)
BTN_BLACK_DROP = const(7)
BTN_UNDO = const(8)  # short: undo the last checker move; long: undo the turn
BTN_MENU = const(9)  # short: next menu item; long: enter / leave the menu
BUTTONS = const(10)
BUTTON_NAMES = (
    "white roll/done",
    "white double",
    "white take",
    "white drop",
    "black roll/done",
    "black double",
    "black take",
    "black drop",
    "undo",
    "menu",
)

# -- LEDs ---------------------------------------------------------------
LED_TURN_BLACK = const(0)
LED_DIE_A = const(1)  # 7 pips: DIE_A + pip (see PIP_*)
LED_DIE_B = const(8)
LED_MOVES = const(15)  # 4 "moves left" markers
LED_CUBE_VALUE = const(19)  # 6 pixels labelled 2, 4, 8, 16, 32, 64
LED_CUBE_OWNER = const(25)  # 3 pixels: white owns, centred, black owns
LED_TURN_WHITE = const(28)
PANEL_LEDS = const(29)
LED_LOC_BASE = const(29)
LEDS = const(197)  # PANEL_LEDS + LOCATIONS * SLOTS

PIP_TL = const(0)
PIP_TR = const(1)
PIP_ML = const(2)
PIP_C = const(3)
PIP_MR = const(4)
PIP_BL = const(5)
PIP_BR = const(6)
DIE_PIPS = const(7)
# Pips lit for faces 0 (blank) .. 6, one bit per pip (bit n = pip n).
DIE_FACE_MASKS = b"\x00\x08\x41\x49\x63\x6b\x77"

# Chain position -> location (white tray, 1..6, black bar, 7..12, 13..18,
# white bar, 19..24, black tray) and its inverse.
LED_LOC_ORDER = bytes(
    (26, 0, 1, 2, 3, 4, 5, 25, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 18, 19, 20, 21, 22, 23, 27)
)
LED_CHAIN_POS = bytes(
    (1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 20, 7, 0, 27)
)

# -- power model (see hardware/power.md) ---------------------------------
POWER_BUDGET_MA = const(500)  # USB 2.0 port
POWER_BASE_MA = const(45)  # Pico ~25 mA + 74HC165 chain and pull-ups ~5 mA + 74AHCT125 + margin
LED_IDLE_UA = const(1000)  # quiescent draw of one dark pixel (WS2812B/SK6812: 0.6..1 mA)
LED_CHANNEL_MA = const(20)  # one colour channel at 255

class GeometryError(ValueError):
    """A location, slot, point or LED index outside the board."""


# -- numbering ------------------------------------------------------------
def board_point(player, own, nardy=False):
    """Board point (1..24) of a player's own point ``own`` (1..24)."""
    if not 1 <= own <= 24:
        raise GeometryError("own point must be 1..24, not %r" % (own,))
    if player == WHITE:
        return own
    if nardy:
        return own - 12 if own > 12 else own + 12
    return 25 - own


def point_loc(point):
    """Location of board point 1..24."""
    if not 1 <= point <= 24:
        raise GeometryError("board point must be 1..24, not %r" % (point,))
    return point - 1


def loc_name(loc):
    """Short text name of a location: ``"point 13"``, ``"white bar"``..."""
    if 0 <= loc < 24:
        return "point %d" % (loc + 1)
    if loc == LOC_BAR_WHITE:
        return "white bar"
    if loc == LOC_BAR_BLACK:
        return "black bar"
    if loc == LOC_OFF_WHITE:
        return "white tray"
    if loc == LOC_OFF_BLACK:
        return "black tray"
    raise GeometryError("location must be 0..27, not %r" % (loc,))


# -- sensors ----------------------------------------------------------------
def sensor_bit(loc, slot):
    """Scan bit of the switch under ``slot`` of location ``loc``."""
    if not 0 <= loc < LOCATIONS or not 0 <= slot < SLOTS:
        raise GeometryError("no sensor at location %r slot %r" % (loc, slot))
    return loc * SLOTS + slot


def sensor_at(bit):
    """``(loc, slot)`` of scan bit ``bit``."""
    if not 0 <= bit < SENSORS:
        raise GeometryError("scan bit must be 0..167, not %r" % (bit,))
    return bit // SLOTS, bit % SLOTS


def sensor_name(bit):
    """``"point 13 slot 2"``: how self-test reports name a switch (slots from 1)."""
    loc, slot = sensor_at(bit)
    return "%s slot %d" % (loc_name(loc), slot + 1)


# Length of the run of set bits from bit 0, for every 6-bit mask.
_RUN = (
    b"\x00\x01\x00\x02\x00\x01\x00\x03\x00\x01\x00\x02\x00\x01\x00\x04"
    b"\x00\x01\x00\x02\x00\x01\x00\x03\x00\x01\x00\x02\x00\x01\x00\x05"
    b"\x00\x01\x00\x02\x00\x01\x00\x03\x00\x01\x00\x02\x00\x01\x00\x04"
    b"\x00\x01\x00\x02\x00\x01\x00\x03\x00\x01\x00\x02\x00\x01\x00\x06"
)
IRREGULAR = const(0x80)  # flag in location_counts(): a closed switch beyond a gap


def location_counts(bits, out):
    """Fill ``out[loc]`` (28 bytes) with the checkers counted at each location.

    ``bits`` is a scan buffer (21 bytes).  The count is the run of closed
    switches from slot 0; 6 means "six or more".  ``IRREGULAR`` is or-ed in
    when a switch beyond the run is closed.  Returns the number of irregular
    locations.  Allocates nothing.
    """
    run = _RUN
    irregular = 0
    for loc in range(LOCATIONS):
        b = loc * 6
        i = b >> 3
        word = bits[i]
        if i < 20:
            word |= bits[i + 1] << 8
        m = (word >> (b & 7)) & 63
        n = run[m]
        if m >> n > 1:  # something set beyond the first gap
            n |= IRREGULAR
            irregular += 1
        out[loc] = n
    return irregular


def set_count(bits, loc, count):
    """Set ``loc``'s switches as ``count`` checkers pushed to the edge (sim, tests)."""
    if count > SLOTS:
        count = SLOTS
    for slot in range(SLOTS):
        b = loc * 6 + slot
        if slot < count:
            bits[b >> 3] |= 1 << (b & 7)
        else:
            bits[b >> 3] &= ~(1 << (b & 7)) & 0xFF


# -- LEDs ---------------------------------------------------------------------
def led_index(loc, slot):
    """Chain index of the pixel under ``slot`` of location ``loc``."""
    if not 0 <= loc < LOCATIONS or not 0 <= slot < SLOTS:
        raise GeometryError("no LED at location %r slot %r" % (loc, slot))
    k = LED_CHAIN_POS[loc]
    return LED_LOC_BASE + k * 6 + (5 - slot if k & 1 == 0 else slot)
