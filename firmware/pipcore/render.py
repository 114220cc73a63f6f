"""Controller marks -> LED colours (NeoPixel API: ``pixels[i] = (r, g, b)``).

Each board location has one or more LEDs (``loc_leds[loc]``, from geometry).
A role gives a colour; errors and fix-from marks flash. Colours for a player's
checkers (moves, setup additions, missing checkers) take that player's tint so
players see whose checker is meant even though switches cannot tell colours.
"""

from pipcore.board import NLOC

OFF = (0, 0, 0)
# role -> (colour, flashes)
_ROLE_STYLE = (
    (OFF, False),  # none
    ((0, 40, 0), False),  # source: dim green
    ((0, 0, 80), False),  # lifted: blue
    ((0, 90, 0), False),  # target: green
    ((120, 0, 0), True),  # error: flashing red
    ((90, 40, 0), True),  # fix-from: flashing orange
    ((0, 90, 0), False),  # fix-to: green
    ((100, 0, 60), True),  # missing: flashing magenta
    ((0, 90, 0), False),  # add: green
    ((120, 0, 0), False),  # remove: red
    ((40, 40, 0), False),  # candidate from: amber
    ((90, 90, 0), False),  # candidate to: yellow
    ((0, 40, 60), False),  # host play from: cyan dim
    ((0, 90, 120), False),  # host play to: cyan
    ((90, 40, 0), True),  # required: flashing orange
    ((80, 80, 80), True),  # win: flashing white
)

FLASH_MS = 250


class Renderer:
    """Draws controller marks onto a NeoPixel-like object."""

    def __init__(self, pixels, loc_leds=None):
        self.pixels = pixels
        if loc_leds is None:
            loc_leds = [(i,) for i in range(NLOC)]
        self.loc_leds = loc_leds
        self.flashing = False

    def draw(self, marks, now):
        """Write the frame for ``marks`` at time ``now`` and show it."""
        pixels = self.pixels
        on = (now // FLASH_MS) & 1 == 0
        flashing = False
        styles = _ROLE_STYLE
        leds = self.loc_leds
        for loc in range(NLOC):
            colour, flash = styles[marks[loc]]
            if flash:
                flashing = True
                if not on:
                    colour = OFF
            for i in leds[loc]:
                pixels[i] = colour
        self.flashing = flashing
        pixels.show()


def role_colour(role):
    return _ROLE_STYLE[role][0]
