"""The control panel: dice display, moves-left markers, cube, player to move.

Draws into a ``leds.Pixels`` at the panel indices of ``pipcore.geometry``
(two dice of seven pips, four move markers, cube values 2..64, cube owner,
a "to move" light per player).  Nothing is written until the caller's
``pixels.show(now)``.  Allocation-free: colours are ints ``0xRRGGBB``.
"""

from pipcore import geometry as g
from pipcore.compat import const

from pipdrivers.leds import BLINK, PULSE, STEADY

WHITE_DICE = const(0xFFC070)  # warm white for white's dice
BLACK_DICE = const(0x3060FF)  # blue for black's dice
USED_DIM = const(4)  # a used die shows at 1/4
CUBE_COLOUR = const(0xFFFFFF)
TURN_COLOUR = const(0x40FF40)
LOW_SPACE_COLOUR = const(0xFF9000)  # amber: the flash is nearly full (export the matches)
FAULT_COLOUR = const(0xFF0000)  # no die is ever red: the fault pattern cannot be taken for a roll
TUMBLE_MS = const(70)
# the four colours of a fair match's commitment pattern (pipcore.fairmatch.pattern): never red, never violet
PATTERN_COLOURS = (WHITE_DICE, BLACK_DICE, TURN_COLOUR, LOW_SPACE_COLOUR)
_VERY_BAD = const(3)  # pipcore.coaching.RATINGS


def _coach_colour():
    """The coach's violet as 0xRRGGBB, from the one table of mark colours (``pipcore.render``)."""
    from pipcore.names import M_COACH_TO
    from pipcore.render import role_colour

    r, gr, b = role_colour(M_COACH_TO)
    return (r << 16) | (gr << 8) | b


class DisplayError(ValueError):
    """A die face, cube value or player outside the board's range."""


class DiceDisplay:
    def __init__(self, pixels):
        self.px = pixels
        self.coach_colour = _coach_colour()

    def _set(self, index, colour, effect=STEADY, dim=1):
        # (``Pixels.put``, the colour packed: this frame stays off the heap, which a game has fragmented)
        if dim != 1:
            colour = (((colour >> 16) & 255) // dim) << 16 | (((colour >> 8) & 255) // dim) << 8 | (colour & 255) // dim
        self.px.put(index, effect << 24 | colour)

    def _face(self, base, face, colour, effect=STEADY, dim=1):
        # (arguments reused as locals: 11 slots keep this frame off the heap)
        if not 0 <= face <= 6:
            raise DisplayError("a die shows 1..6 (0 = blank), not %r" % (face,))
        if dim != 1:
            colour = (((colour >> 16) & 255) // dim) << 16 | (((colour >> 8) & 255) // dim) << 8 | (colour & 255) // dim
        colour |= (effect & 3) << 24  # (``Pixels.put``'s code, made once for the seven pips)
        # the pips lit, from pip 0 (effect | 4: the face is shown already, its dark pips are left alone)
        face = g.DIE_FACE_MASKS[face] | (0x10000 if effect & 4 else 0)
        effect = self.px.put
        dim = base + g.DIE_PIPS
        while base < dim:
            if face & 1:
                effect(base, colour)
            elif face < 0x100:
                effect(base, 0)
            face >>= 1
            base += 1

    def dice(self, d1, d2, player, used1=False, used2=False, moves_left=-1, only=7):
        """Show a roll in ``player``'s colour; used dice dim; ``moves_left`` markers (0..4). ``only``: what
        to draw, where the rest is shown already (1 die A, 2 die B, 4 the move markers; 8: these dice are
        shown already, only their brightness changes)."""
        colour = BLACK_DICE if player else WHITE_DICE
        if only & 1:
            self._face(g.LED_DIE_A, d1, colour, STEADY | (only & 8) >> 1, USED_DIM if used1 else 1)
        if only & 2:
            self._face(g.LED_DIE_B, d2, colour, STEADY | (only & 8) >> 1, USED_DIM if used2 else 1)
        if only & 4:
            self.moves(moves_left, colour)

    def moves(self, left, colour=WHITE_DICE, effect=STEADY):
        """Light ``left`` (0..4) move markers; -1 leaves them dark."""
        if not -1 <= left <= 4:
            raise DisplayError("moves left must be 0..4, not %r" % (left,))
        for k in range(4):
            if k < left:
                self._set(g.LED_MOVES + k, colour, effect)
            else:
                self.px.put(g.LED_MOVES + k, 0)

    def error(self, code):
        """The fault pattern (docs/controller.md): all seven pips of both dice blink red and
        ``code`` (1 memory, 2 internal error, 3 save failed) move markers glow red."""
        if not 1 <= code <= 4:
            raise DisplayError("a fault code is 1..4, not %r" % (code,))
        for base in (g.LED_DIE_A, g.LED_DIE_B):
            for pip in range(g.DIE_PIPS):
                self._set(base + pip, FAULT_COLOUR, BLINK)
        self.moves(code, FAULT_COLOUR)

    def blank(self):
        self._face(g.LED_DIE_A, 0, 0)
        self._face(g.LED_DIE_B, 0, 0)
        self.moves(-1)

    def tumble(self, now, player):
        """Rolling animation: both dice change face every ``TUMBLE_MS``."""
        k = now // TUMBLE_MS
        h = (k * 1103515245 + 12345) & 0x7FFFFFFF
        colour = BLACK_DICE if player else WHITE_DICE
        self._face(g.LED_DIE_A, (h >> 8) % 6 + 1, colour)
        self._face(g.LED_DIE_B, (h >> 16) % 6 + 1, colour)
        self.moves(-1)

    def keyed(self, a, b, player):
        """Physical dice being keyed in (``pipcore.keyed``): both dice blink until confirmed, in the keying
        player's colour (``player`` -1, the opening roll: die A white's, die B black's); 0 is blank."""
        self._face(g.LED_DIE_A, a, BLACK_DICE if player == 1 else WHITE_DICE, BLINK)
        self._face(g.LED_DIE_B, b, WHITE_DICE if player == 0 else BLACK_DICE, BLINK)
        self.moves(-1)

    def resign(self, player, level, points):
        """``player`` offers to resign (``pipcore.resign``): die A pulses the level (1 single, 2 gammon,
        3 backgammon), die B the points at stake (6 for 6 and more), in his colour; the answering side's
        "to move" light pulses."""
        if not 1 <= level <= 3:
            raise DisplayError("a resignation is of level 1..3, not %r" % (level,))
        colour = BLACK_DICE if player else WHITE_DICE
        self._face(g.LED_DIE_A, level, colour, PULSE)
        self._face(g.LED_DIE_B, points if points < 6 else 6, colour)
        self.moves(-1)
        self._set(g.LED_TURN_WHITE, TURN_COLOUR if player == 1 else 0, PULSE)
        self._set(g.LED_TURN_BLACK, TURN_COLOUR if player == 0 else 0, PULSE)

    def commitment(self, commitment):
        """A provably fair match's commitment before its first roll (``pipcore.fairmatch.pattern``): each of
        the 14 pips of both dice lit in one of four colours, two bits of the commitment's first 7 hex
        digits each; ``pipboard monitor`` prints the same pattern."""
        from pipcore.fairmatch import pattern

        k = 0
        for c in pattern(commitment):
            self._set((g.LED_DIE_A if k < g.DIE_PIPS else g.LED_DIE_B - g.DIE_PIPS) + k, PATTERN_COLOURS[c])
            k += 1
        self.moves(-1)

    def coach(self, level, pips):
        """The coach's word (``pipboard coach``), in the coach's violet: die A shows the rating
        (1 doubtful, 2 bad, 3 very bad: blinking), die B the equity lost, one pip per tenth of a point
        (rounded up, 6 for 0.6 and more); both blank for a play gnubg finds best."""
        if not 0 <= level <= 3 or not 0 <= pips <= 6:
            raise DisplayError("the coach shows a rating 0..3 and 0..6 pips, not %r %r" % (level, pips))
        colour = self.coach_colour
        self._face(g.LED_DIE_A, level, colour, BLINK if level == _VERY_BAD else STEADY)
        self._face(g.LED_DIE_B, pips, colour)
        self.moves(-1)

    def cube(self, value, owner):
        """Cube ``value`` (1, 2, 4 .. 64) owned by 0 (white), 1 (black) or -1 (centred)."""
        if value < 1 or value > 64 or value & (value - 1):
            raise DisplayError("the cube shows 1, 2, 4 .. 64, not %r" % (value,))
        if owner not in (-1, 0, 1):
            raise DisplayError("cube owner is -1 (centred), 0 or 1, not %r" % (owner,))
        for k in range(6):
            if value == 2 << k:
                self._set(g.LED_CUBE_VALUE + k, CUBE_COLOUR)
            else:
                self.px.put(g.LED_CUBE_VALUE + k, 0)
        # Owner pixels: white owns, centred, black owns.
        for k in range(3):
            lit = (owner == 0 and k == 0) or (owner == -1 and k == 1) or (owner == 1 and k == 2)
            if lit:
                self._set(g.LED_CUBE_OWNER + k, BLACK_DICE if k == 2 else WHITE_DICE)
            else:
                self.px.put(g.LED_CUBE_OWNER + k, 0)

    def offer(self, value, doubler):
        """A double is offered: the new value pulses on the taker's side."""
        self.cube(value, -1)
        for k in range(6):
            if value == 2 << k:
                self._set(g.LED_CUBE_VALUE + k, CUBE_COLOUR, PULSE)
        self.px.put(g.LED_CUBE_OWNER + 1, 0)
        self._set(g.LED_CUBE_OWNER + (2 if doubler == 0 else 0), TURN_COLOUR, PULSE)

    def turn(self, player, low_space=False):
        """Light the "to move" pixel of ``player`` (0 or 1); -1 lights neither. ``low_space``: the flash
        is nearly full, and the lit pixel (both when neither is to move) pulses amber instead."""
        if player not in (-1, 0, 1):
            raise DisplayError("player is 0, 1 or -1, not %r" % (player,))
        if low_space:
            self._set(g.LED_TURN_WHITE, LOW_SPACE_COLOUR if player != 1 else 0, PULSE)
            self._set(g.LED_TURN_BLACK, LOW_SPACE_COLOUR if player != 0 else 0, PULSE)
            return
        self._set(g.LED_TURN_WHITE, TURN_COLOUR if player == 0 else 0)
        self._set(g.LED_TURN_BLACK, TURN_COLOUR if player == 1 else 0)
