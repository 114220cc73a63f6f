"""Controller marks -> location pixels (``pipdrivers.leds.Pixels.put`` API).

Every location has one pixel under each of its six slots
(``geometry.led_index``). A mark lights the one slot it is about: the top
checker for a source or a checker to take away, the slot where the next
checker lands for a target or a checker to add. Errors and checkers to take
away blink; candidates pulse. A player's checkers take that player's tint
for additions so players see whose checker is meant (switches cannot tell
colours). Only pixels that change are written; nothing is allocated per
frame.
"""

from array import array

from pipcore import geometry as g
from pipcore.board import NLOC
from pipcore.compat import const

try:  # the frame's loop in native code where the port has it (``native.draw``; else ``pipcore.plain.draw``)
    from pipcore import native
except Exception:
    native = None

STEADY = 0  # pipdrivers.leds effects
BLINK = 1
PULSE = 2

# role -> effect << 24 | r << 16 | g << 8 | b (``Pixels.put``); the roles whose rule is the next free
# slot (else the top checker) are in _NEXT. One int per role keeps the frame's calls small: a call
# with 12 or more locals and stack slots has its frame allocated on the heap (slow in a full heap).
_STYLE = array("I", (
    0x000000,  # none
    0x002800,  # source: dim green on the top checker
    0x00005A,  # lifted: blue where it was
    0x006E00,  # target: green where it lands
    0x1780000,  # error: blinking red
    0x1783200,  # fix-from: blinking orange
    0x006E00,  # fix-to: green
    0x1780050,  # missing: blinking magenta
    0x006E00,  # add: green (tinted per colour below)
    0x8C0000,  # remove: red
    0x23C3C00,  # candidate from: amber
    0x2787800,  # candidate to: yellow
    0x003246,  # host play from: cyan
    0x006E8C,  # host play to: bright cyan
    0x1783200,  # required: blinking orange
    0x25A5A5A,  # win: pulsing white
    0x3C0078,  # coach from: violet (the better play; the panel's coach dice too)
    0x8200FF,  # coach to: bright violet
    0x6E5A28,  # (18) white's checkers: add and missing tinted
    0x1E3C8C,  # (19) black's
    0b101010100111001100,  # (20) bit ``role``: the slot where the next checker lands (else the top checker)
    0b1100110010110000,  # (21) bit ``role``: it blinks or pulses
    g.LED_LOC_BASE,  # (22) the first location pixel (``pipcore.native.draw`` reads the table)
))
_NEXT = const(0b101010100111001100)
_ANIMATED = const(0b1100110010110000)


class Renderer:
    """Draws controller marks onto the location pixels of ``pixels`` (``Pixels.put``)."""

    def __init__(self, pixels, counts):
        self.pixels = pixels
        self.counts = counts  # sensed counts per location (slot choice)
        self.lit = bytearray(NLOC)  # 1 + slot lit per location, 0 = dark
        self.shown = array("H", bytes(2 * NLOC))  # (role << 8 | player) << 3 | count & 7 lit there (while ``lit``)
        self.animated = False

    def draw(self, marks, players):
        """Light what changed: a location whose mark, colour and count are the ones lit is left alone.
        (``Pixels`` mixed natively: the same loop in native code, ``pipcore.native.draw``.)"""
        if native is not None and getattr(self.pixels, "_mix", None) is native.mix:
            self.animated = bool(native.draw(self.pixels, marks, players, self.counts, self.lit, self.shown,
                                             g.LED_CHAIN_POS, _STYLE))
            return
        from pipcore.plain import draw  # (no native code: the same loop in bytecode)

        draw(self, marks, players)


def role_colour(role):
    code = _STYLE[role]
    return (code >> 16 & 255, code >> 8 & 255, code & 255)
