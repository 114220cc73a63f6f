"""The Back Alley scorekeeper's printable overlay (``hardware/backalley-overlay.svg``, ``pipboard hwdocs``).

Drawn from the firmware's own tables (``pipcore.bamode``: the seats' quadrants, the markers of their
outer row, the trump's slots, the halves that show the scores), so the drawing and the board cannot
disagree (tests/test_hwdocs.py checks it). Each quadrant carries its seat's name, facing the edge its
glyphs face (the top half's upside down for the reader at the bottom); docs/backalley.md is the legend
in words.
"""

from pipboard import drawing
from pipboard.hwdocs import _esc, overlay_frame
from pipcore import bamode
from pipcore import dimensions as dims
from pipcore import geometry as g

SEAT_TITLES = ("NORTH", "EAST", "SOUTH", "WEST")
TEAMS = ("team NS", "team EW", "team NS", "team EW")
TRUMP_LABELS = ("clubs", "diamonds", "hearts", "spades", "joker")
TEAM_COLOURS = ("#a05a00", "#1f5fbf")  # the LEDs' amber and blue


def quadrant_box(seat):
    """``(x0, y0, x1, y1)`` (mm) around the glyph area of ``seat``: slots 2..6 of its six points."""
    quad = bamode.QUADRANTS[seat]
    xs = [drawing.slot_xy(loc, 1)[0] for loc in quad]
    ys = [drawing.slot_xy(quad[0], s)[1] for s in (1, g.SLOTS - 1)]
    return min(xs) - 14, min(ys) - 14, max(xs) + 14, max(ys) + 14


def _text(x, y, size, text, colour="#000", turned=False, bold=False):
    """A line of text centred at ``(x, y)``; ``turned``: upside down, for the reader at the top edge."""
    attrs = ' font-weight="bold"' if bold else ""
    if turned:
        attrs += ' transform="rotate(180 %d %d)"' % (x, y)
    return '<text x="%d" y="%d" font-size="%s" text-anchor="middle" fill="%s"%s>%s</text>' % (
        x, y, size, colour, attrs, _esc(text))


def overlay_svg():
    w, h = dims.BOARD_W, dims.BOARD_H
    out = overlay_frame("Pipboard Back Alley overlay", 56)
    for seat in range(4):
        quad = bamode.QUADRANTS[seat]
        top = seat < 2  # N and E: the top half, read from the top edge
        colour = TEAM_COLOURS[seat & 1]
        x0, y0, x1, y1 = quadrant_box(seat)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s" stroke-width="0.6" '
                   'stroke-dasharray="4,2"/>' % (x0, y0, x1 - x0, y1 - y0, colour))
        cx = (x0 + x1) // 2
        cy = (y0 + y1) // 2
        out.append(_text(cx, cy + (-6 if top else 6), 14, SEAT_TITLES[seat], colour, top, True))
        out.append(_text(cx, cy + (8 if top else -8), 5, "%s: call, tricks, contract or card" % TEAMS[seat], colour,
                         top))
        for k in range(3):  # the outer row's markers, each under its pixel (the team colour fills the rest)
            x, y = drawing.slot_xy(quad[k], 0)
            out.append(_text(x, y + (8 if top else -6), 3, bamode.MARKS[k], "#000", top))
        tx, ty = drawing.slot_xy(quad[4], 0)
        out.append(_text(tx, ty + (8 if top else -6), 3, bamode.MARKS[4], colour, top))
    for k in range(len(TRUMP_LABELS)):  # the trump: one slot of the top bar
        x, y = drawing.slot_xy(bamode.TRUMP_LOC, 1 + k)
        out.append(_text(x, y + 7, 3, TRUMP_LABELS[k]))
    x, y = drawing.slot_xy(bamode.TRUMP_LOC, 0)
    out.append(_text(x, y + 9, 3.4, "trump", "#000", False, True))
    for i in range(g.PANEL_LEDS):
        px, py = drawing.panel_xy(i)
        out.append('<circle cx="%d" cy="%d" r="2" fill="none" stroke="#999" stroke-width="0.3"/>' % (px, py))
    col_x = w - dims.BORDER - dims.COLUMN_W + drawing.PANEL_DX
    _ax, ay = drawing.panel_xy(g.LED_DIE_A + g.PIP_TL)
    out.append(_text(col_x, ay - 6, 3, "cards: die A tens"))
    _mx, my = drawing.panel_xy(g.LED_MOVES)
    out.append(_text(col_x, my - 5, 3, "die B units (+ markers)"))
    for led in (g.LED_TURN_WHITE, g.LED_TURN_BLACK):
        _tx, ty = drawing.panel_xy(led)
        out.append(_text(col_x, ty + 8, 3, "green: this side keys"))
    legend = [
        "N and E key with the black buttons (top edge), S and W with the white ones (bottom edge).  TAKE / DROP: "
        "the value up / down (held: 5).",
        "DOUBLE: Board (a call), the rest (tricks), joker (the trump), at random (the first dealer).  ROLL/DONE: "
        "OK.  UNDO: take back the last key.",
        "MENU: the next view (the deal, the contracts, the scores: NS on the top half, EW on the bottom).  Hold "
        "MENU: the menu.  Hold UNDO twice: a new game.",
        "Pulsing white: the value being keyed.  Blinking red: refused (the message says why).  docs/backalley.md",
        "Referee mode (menu: referee on): the seat to play keys its card: DOUBLE the next suit, TAKE / DROP the card "
        "up / down, ROLL/DONE plays it (T = 10, LJ / BJ the jokers); after four cards the winner's card pulses green.",
    ]
    for k, line in enumerate(legend):
        out.append('<text x="6" y="%d" font-size="5">%s</text>' % (h + 9 + 9 * k, _esc(line)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
