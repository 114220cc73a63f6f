"""Controller marks -> location pixels (``pipdrivers.leds.Pixels.set`` API).

Every location has one pixel under each of its six slots
(``geometry.led_index``). A mark lights the one slot it is about: the top
checker for a source or a checker to take away, the slot where the next
checker lands for a target or a checker to add. Errors and checkers to take
away blink; candidates pulse. A player's checkers take that player's tint
for additions so players see whose checker is meant (switches cannot tell
colours). Only pixels that change are written; nothing is allocated per
frame.
"""

from pipcore import geometry as g
from pipcore.board import NLOC

STEADY = 0  # pipdrivers.leds effects
BLINK = 1
PULSE = 2

# role -> (r, g, b, effect, slot rule) ; slot rule 0: top checker, 1: next free slot
_STYLE = (
    (0, 0, 0, STEADY, 0),  # none
    (0, 40, 0, STEADY, 0),  # source: dim green on the top checker
    (0, 0, 90, STEADY, 1),  # lifted: blue where it was
    (0, 110, 0, STEADY, 1),  # target: green where it lands
    (120, 0, 0, BLINK, 0),  # error: blinking red
    (120, 50, 0, BLINK, 0),  # fix-from: blinking orange
    (0, 110, 0, STEADY, 1),  # fix-to: green
    (120, 0, 80, BLINK, 1),  # missing: blinking magenta
    (0, 110, 0, STEADY, 1),  # add: green (tinted per colour below)
    (140, 0, 0, STEADY, 0),  # remove: red
    (60, 60, 0, PULSE, 0),  # candidate from: amber
    (120, 120, 0, PULSE, 1),  # candidate to: yellow
    (0, 50, 70, STEADY, 0),  # host play from: cyan
    (0, 110, 140, STEADY, 1),  # host play to: bright cyan
    (120, 50, 0, BLINK, 0),  # required: blinking orange
    (90, 90, 90, PULSE, 1),  # win: pulsing white
    (60, 0, 120, STEADY, 0),  # coach from: violet (the better play; the panel's coach dice too)
    (130, 0, 255, STEADY, 1),  # coach to: bright violet
)
_ADD_TINT = ((110, 90, 40), (30, 60, 140))  # white's / black's checkers (add, missing)


class Renderer:
    """Draws controller marks onto the location pixels of ``pixels``."""

    def __init__(self, pixels, counts):
        self.pixels = pixels
        self.counts = counts  # sensed counts per location (slot choice)
        self.lit = bytearray(NLOC)  # 1 + slot lit per location, 0 = dark
        self.animated = False

    def draw(self, marks, players):
        px = self.pixels
        counts = self.counts
        lit = self.lit
        animated = False
        for loc in range(NLOC):
            role = marks[loc]
            if not role:
                if lit[loc]:
                    px.set(g.led_index(loc, lit[loc] - 1), 0, 0, 0)
                    lit[loc] = 0
                continue
            r, gr, b, effect, rule = _STYLE[role]
            n = counts[loc] & 7
            slot = n if rule else n - 1
            if slot < 0:
                slot = 0
            elif slot >= g.SLOTS:
                slot = g.SLOTS - 1
            if role in (7, 8) and players[loc] < 2:
                r, gr, b = _ADD_TINT[players[loc]]
            if lit[loc] and lit[loc] - 1 != slot:
                px.set(g.led_index(loc, lit[loc] - 1), 0, 0, 0)
            px.set(g.led_index(loc, slot), r, gr, b, effect)
            lit[loc] = slot + 1
            if effect:
                animated = True
        self.animated = animated


def role_colour(role):
    s = _STYLE[role]
    return (s[0], s[1], s[2])
