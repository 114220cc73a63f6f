"""3 x 5 glyphs drawn with the location LEDs: digits, a dash and the letters Back Alley shows (its cards too).

One glyph is three points wide and five slots tall (``pipcore.menu`` draws
numbers with them, ``pipcore.bamode`` calls, tricks, scores and suits).
Each is a 15-bit number, row by row from the top, bit 2 of a row its left
column: ``bits >> (14 - 3 * row - col) & 1``. Pure data, loaded with the
module that draws (never with a game).
"""

CHARS = "0123456789-PBCDHSJNEWTQKAL"  # T Q K A: the ranks 10, queen, king, ace; L: the little joker (LJ)
BITS = (0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF, 0x01C0,
        0x6BA4, 0x6BAE, 0x3923, 0x6B6E, 0x5BED, 0x388E, 0x126A, 0x6B6D, 0x79A7, 0x5BFD,
        0x7492, 0x2B73, 0x5D35, 0x2BED, 0x4927)


def bits(char):
    """The glyph of ``char`` (one of ``CHARS``); ValueError for another."""
    i = CHARS.find(char)
    if i < 0:
        raise ValueError("no glyph for %r" % (char,))
    return BITS[i]


def rows(char):
    """The rows of a glyph as text (``"#.#"``), for docs and tests."""
    b = bits(char)
    return ["".join("#" if b >> (14 - 3 * row - col) & 1 else "." for col in range(3)) for row in range(5)]
