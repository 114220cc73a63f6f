"""The renderer: marks to location pixels; the native frame loop (``pipcore.native.draw``) writes what the
plain one does."""

from pipcore import geometry as g
from pipcore.board import NLOC
from pipcore.render import _STYLE, Renderer
from pipdrivers.leds import Pixels


def _plain_pixels():
    """Pixels without native code: the renderer then runs its loop in bytecode (``pipcore.plain.draw``)."""
    return Pixels(g.LEDS, lambda buf: None, use_native=False)


def _state(px, r):
    return (bytes(px._effect), [bytes(x) for x in px._layers], list(px._load), bytes(r.lit), list(r.shown),
            r.animated)


def test_a_source_lights_the_top_checker_and_goes_dark_again():
    px = _plain_pixels()
    counts = bytearray(NLOC)
    r = Renderer(px, counts)
    marks = bytearray(NLOC)
    players = bytearray(NLOC)
    counts[3] = 2
    marks[3] = 1  # M_SOURCE: the top checker (slot 1), dim green
    players[3] = 0
    r.draw(marks, players)
    k = g.LED_CHAIN_POS[3]
    pixel = g.LED_LOC_BASE + k * 6 + (1 if k & 1 else 5 - 1)
    assert px[pixel] == (_STYLE[1] >> 16 & 255, _STYLE[1] >> 8 & 255, _STYLE[1] & 255)
    assert r.lit[3] == 2 and not r.animated
    marks[3] = 0
    r.draw(marks, players)
    assert px[pixel] == (0, 0, 0) and r.lit[3] == 0


def test_the_native_loop_draws_what_the_plain_one_does():
    import sys

    from pipcore import render

    arch = getattr(sys.implementation, "_mpy", 0) >> 10
    native = Pixels(g.LEDS, lambda buf: None)
    if sys.implementation.name == "micropython" and arch:
        assert render.native is not None and native._mix is render.native.mix  # the native loop is run
    plain = _plain_pixels()
    counts_a = bytearray(NLOC)
    counts_b = bytearray(NLOC)
    ra = Renderer(native, counts_a)
    rb = Renderer(plain, counts_b)
    seed = 3
    marks = bytearray(NLOC)
    players = bytearray(NLOC)
    for step in range(300):
        for _ in range(1 + step % 5):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            loc = seed % NLOC
            marks[loc] = 0 if seed >> 20 & 1 else (seed >> 8) % 18
            players[loc] = (seed >> 12) % 3
            counts_a[loc] = counts_b[loc] = seed >> 16 & 7
        ra.draw(marks, players)
        rb.draw(marks, players)
        assert _state(native, ra) == _state(plain, rb), step
