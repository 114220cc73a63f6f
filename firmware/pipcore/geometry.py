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
numbering (slot 25 = bar, 0 = off): use ``board_point(player, own, nardy)``
and ``own_point(player, board, nardy)`` to convert.

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

# -- pins of the Raspberry Pi Pico (GPIO numbers) ------------------------
PIN_SCAN_SCK = const(18)  # SPI0 SCK  -> all 74HC165 CLK
PIN_SCAN_MISO = const(16)  # SPI0 RX  <- Q7 of register 0
PIN_SCAN_LOAD = const(17)  # plain output -> all 74HC165 SH/LD (low = load)
SCAN_SPI_ID = const(0)
SCAN_SPI_BAUD = const(1_000_000)
PIN_LED_DATA = const(22)  # -> 74AHCT125 (3.3 V to 5 V) -> DIN of pixel 0
PIN_ENTROPY_ADC = const(26)  # ADC0, left floating: noise for the dice seed

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
# Button n is on GPIO BUTTON_GPIO_BASE + n (GP2..GP11), so one read of the
# SIO input register gives all ten at once.
BUTTON_GPIO_BASE = const(2)
BUTTON_PINS = b"\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"
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

# -- physical layout (millimetres, origin top-left, for drawings and sim) ---
PITCH = const(32)  # slot pitch along a point = point width (30 mm checkers)
BORDER = const(12)
HALF_W = const(192)  # six points
BAR_W = const(44)
COLUMN_W = const(100)  # right-hand column: trays (left part) and the panel (right part)
GAP_H = const(48)  # between the top and bottom points
BOARD_W = const(564)  # BORDER + HALF_W + BAR_W + HALF_W + BORDER + COLUMN_W + BORDER
BOARD_H = const(456)  # BORDER + 2 * SLOTS * PITCH + GAP_H + BORDER


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


def own_point(player, point, nardy=False):
    """A player's own number (1..24) of board point ``point``."""
    # The conversions are their own inverses.
    return board_point(player, point, nardy)


def point_loc(point):
    """Location of board point 1..24."""
    if not 1 <= point <= 24:
        raise GeometryError("board point must be 1..24, not %r" % (point,))
    return point - 1


def bar_loc(player):
    return LOC_BAR_BLACK if player else LOC_BAR_WHITE


def off_loc(player):
    return LOC_OFF_BLACK if player else LOC_OFF_WHITE


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


def slot_mask(bits, loc):
    """The 6 switch states of ``loc`` (bit n = slot n) from a scan buffer."""
    b = loc * 6
    i = b >> 3
    word = bits[i]
    if i + 1 < SCAN_BYTES:
        word |= bits[i + 1] << 8
    return (word >> (b & 7)) & 63


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


NOBODY = const(255)


def position_counts(me, opp, mover, out, owner=None, nardy=False):
    """Where a position's checkers stand on the board, per location.

    ``me``/``opp`` are the 26-slot arrays of ``pipcore.position.Position``
    (own numbering, 25 = bar, 0 = off) of the player on roll (``mover``, 0 =
    white, 1 = black) and of the other player.  Fills ``out[loc]`` (28
    bytes) with true checker counts (compare with ``location_counts()`` after
    capping at ``SLOTS``) and, if given, ``owner[loc]`` with the colour there
    (``NOBODY`` if empty).  Allocates nothing.
    """
    for loc in range(LOCATIONS):
        out[loc] = 0
        if owner is not None:
            owner[loc] = NOBODY
    _place(me, mover, out, owner, nardy)
    _place(opp, 1 - mover, out, owner, nardy)


def _place(side, player, out, owner, nardy):
    for own in range(1, 25):
        n = side[own]
        if n:
            loc = board_point(player, own, nardy) - 1
            out[loc] += n
            if owner is not None:
                owner[loc] = player
    bar = bar_loc(player)
    off = off_loc(player)
    out[bar] = side[25]
    out[off] = side[0]
    if owner is not None:
        if side[25]:
            owner[bar] = player
        if side[0]:
            owner[off] = player


# -- LEDs ---------------------------------------------------------------------
def led_index(loc, slot):
    """Chain index of the pixel under ``slot`` of location ``loc``."""
    if not 0 <= loc < LOCATIONS or not 0 <= slot < SLOTS:
        raise GeometryError("no LED at location %r slot %r" % (loc, slot))
    k = LED_CHAIN_POS[loc]
    return LED_LOC_BASE + k * 6 + (5 - slot if k & 1 == 0 else slot)


def led_at(index):
    """``(loc, slot)`` of a location pixel; ``(None, panel_index)`` on the panel."""
    if not 0 <= index < LEDS:
        raise GeometryError("LED index must be 0..196, not %r" % (index,))
    if index < LED_LOC_BASE:
        return None, index
    k, r = divmod(index - LED_LOC_BASE, 6)
    return LED_LOC_ORDER[k], (5 - r if k & 1 == 0 else r)


def led_name(index):
    """Text name of any pixel (for drawings and test reports)."""
    loc, slot = led_at(index)
    if loc is not None:
        return "%s slot %d" % (loc_name(loc), slot + 1)
    if slot == LED_TURN_WHITE:
        return "white to move"
    if slot == LED_TURN_BLACK:
        return "black to move"
    if slot < LED_DIE_B:
        return "die A pip %d" % (slot - LED_DIE_A)
    if slot < LED_MOVES:
        return "die B pip %d" % (slot - LED_DIE_B)
    if slot < LED_CUBE_VALUE:
        return "move marker %d" % (slot - LED_MOVES + 1)
    if slot < LED_CUBE_OWNER:
        return "cube %d" % (2 << (slot - LED_CUBE_VALUE))
    return ("cube owner white", "cube centred", "cube owner black")[slot - LED_CUBE_OWNER]


# -- physical positions (mm; for drawings and the simulator) --------------------
def loc_origin(loc):
    """``(x, y, dy)``: centre of slot 0 of ``loc`` and the step towards slot 5."""
    top_y = BORDER + PITCH // 2
    bottom_y = BOARD_H - BORDER - PITCH // 2
    right_x = BORDER + HALF_W + BAR_W  # left edge of the right half
    if loc < 24:
        p = loc + 1
        if p <= 6:
            return right_x + (6 - p) * PITCH + PITCH // 2, bottom_y, -PITCH
        if p <= 12:
            return BORDER + (12 - p) * PITCH + PITCH // 2, bottom_y, -PITCH
        if p <= 18:
            return BORDER + (p - 13) * PITCH + PITCH // 2, top_y, PITCH
        return right_x + (p - 19) * PITCH + PITCH // 2, top_y, PITCH
    bar_x = BORDER + HALF_W + BAR_W // 2
    col_x = BOARD_W - BORDER - COLUMN_W + TRAY_DX
    if loc == LOC_BAR_WHITE:
        return bar_x, top_y, PITCH
    if loc == LOC_BAR_BLACK:
        return bar_x, bottom_y, -PITCH
    if loc == LOC_OFF_WHITE:
        return col_x, bottom_y, -PITCH
    if loc == LOC_OFF_BLACK:
        return col_x, top_y, PITCH
    raise GeometryError("location must be 0..27, not %r" % (loc,))


def slot_xy(loc, slot):
    """Centre (mm) of a slot: where its checker, reed switch and pixel sit."""
    x, y, dy = loc_origin(loc)
    return x, y + slot * dy


# Centre of the tray strips and of the panel, from the column's left edge.
TRAY_DX = const(22)
PANEL_DX = const(70)
# Pip offsets (mm) inside a 28 mm die face.
_PIP_DX = (-9, 9, -9, 0, 9, -9, 9)
_PIP_DY = (-9, -9, 0, 0, 0, 9, 9)


def panel_xy(index):
    """Centre (mm) of panel pixel ``index`` (0..PANEL_LEDS-1)."""
    if not 0 <= index < PANEL_LEDS:
        raise GeometryError("panel pixel must be 0..28, not %r" % (index,))
    cx = BOARD_W - BORDER - COLUMN_W + PANEL_DX
    cy = BOARD_H // 2
    if index == LED_TURN_WHITE:
        return cx, cy + 150
    if index == LED_TURN_BLACK:
        return cx, cy - 150
    if index < LED_MOVES:  # die A above die B
        die, pip = divmod(index - LED_DIE_A, 7)
        return cx + _PIP_DX[pip], cy - 105 + 40 * die + _PIP_DY[pip]
    if index < LED_CUBE_VALUE:  # four move markers in a row
        return cx - 21 + 14 * (index - LED_MOVES), cy - 35
    if index < LED_CUBE_OWNER:  # 2 4 8 over 16 32 64
        k = index - LED_CUBE_VALUE
        return cx - 14 + 14 * (k % 3), cy - 8 + 14 * (k // 3)
    # owner: white (lowest, towards white), centred, black (highest)
    return cx, cy + 52 - 14 * (index - LED_CUBE_OWNER)


def led_xy(index):
    """Centre (mm) of any pixel."""
    loc, slot = led_at(index)
    if loc is None:
        return panel_xy(slot)
    return slot_xy(loc, slot)


def button_xy(button):
    """Where a button sits (mm): each player's four on the rail in front of them,
    between point numbers; undo and menu in the middle of the bar."""
    if not 0 <= button < BUTTONS:
        raise GeometryError("button must be 0..9, not %r" % (button,))
    if button < 4:  # white: bottom rail, right half
        return BORDER + HALF_W + BAR_W + PITCH * (button + 1), BOARD_H - 4
    if button < 8:  # black: top rail, left half (black's right hand)
        return BORDER + PITCH * (button - 3), 4
    return BORDER + HALF_W + BAR_W // 2, (BOARD_H // 2 - 10) + 20 * (button - 8)
