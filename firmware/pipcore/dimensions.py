"""The board's physical layout in millimetres: the drawings', the simulators' and the printed overlays'.

One source with ``pipcore.geometry`` (which numbers the sensors, LEDs and
pins): that module is what the board runs on, this one what a drawing needs
besides, so the board never loads it. Origin top-left, as in the drawings
of ``hardware/`` (``pipboard hwdocs``).
"""

from pipcore.compat import const

PITCH = const(32)  # slot pitch along a point = point width (30 mm checkers)
BORDER = const(12)
HALF_W = const(192)  # six points
BAR_W = const(44)
COLUMN_W = const(100)  # right-hand column: trays (left part) and the panel (right part)
GAP_H = const(48)  # between the top and bottom points
BOARD_W = const(564)  # BORDER + HALF_W + BAR_W + HALF_W + BORDER + COLUMN_W + BORDER
BOARD_H = const(456)  # BORDER + 2 * SLOTS * PITCH + GAP_H + BORDER
