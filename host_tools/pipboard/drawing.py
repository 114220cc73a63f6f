"""Where every slot, pixel and button sits on the board drawing (mm), for the simulator and the
hardware docs; and the names of the pixels.

The index maps are ``pipcore.geometry``'s and the sizes ``pipcore.dimensions``'
(the one source of the board's geometry); this module only turns them into coordinates and
names. The board itself never needs them, so they live on the host.
"""

from pipcore.dimensions import BAR_W, BOARD_H, BOARD_W, BORDER, COLUMN_W, HALF_W, PITCH
from pipcore.geometry import (BUTTONS, LED_CUBE_OWNER, LED_CUBE_VALUE, LED_DIE_A, LED_DIE_B, LED_LOC_BASE,
                              LED_LOC_ORDER, LED_MOVES, LED_TURN_BLACK, LED_TURN_WHITE, LEDS, LOC_BAR_BLACK,
                              LOC_BAR_WHITE, LOC_OFF_BLACK, LOC_OFF_WHITE, PANEL_LEDS, GeometryError, loc_name)


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
TRAY_DX = 22
PANEL_DX = 70
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
