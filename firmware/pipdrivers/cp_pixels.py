"""The finished LED frame through Adafruit's ``neopixel.NeoPixel`` (CircuitPython).

``pipdrivers.leds.Pixels`` composes every frame (effects, brightness, the
power limiter) in RGB order; ``StripWriter.write`` hands it to a NeoPixel
built with ``brightness=1.0``, ``auto_write=False`` and ``pixel_order=GRB``
(``pipdrivers.cp_board_pins.led_strip``), which puts the bytes on the wire
in GRB, as the MicroPython build's bitstream does.
"""

from pipcore.compat import const

_BLOCK = const(8)  # pixels compared at once


class StripWriter:
    """``write(buf)`` for the pixels: ``buf`` is the finished frame in RGB order, sent through ``strip``.

    Only the pixels that changed since the last frame are set (most frames
    change a few; blocks of ``_BLOCK`` pixels are compared at once through
    views made here, so a frame allocates nothing), then one ``show()``.
    """

    def __init__(self, strip):
        self.strip = strip
        self.n = len(strip)
        self.last = bytearray(3 * self.n)  # what the strip holds (a new NeoPixel is dark)
        self._last_views = self._views(self.last)
        self._buf = None
        self._buf_views = []

    def _views(self, buf):
        mv = memoryview(buf)
        step = 3 * _BLOCK
        return [mv[i:i + step] for i in range(0, 3 * self.n, step)]

    def write(self, buf):
        if buf is not self._buf:  # Pixels hands the same buffer every frame: views once
            self._buf = buf
            self._buf_views = self._views(buf)
        strip = self.strip
        last = self.last
        last_views = self._last_views
        buf_views = self._buf_views
        for block in range(len(buf_views)):
            if buf_views[block] == last_views[block]:
                continue
            first = block * _BLOCK
            end = min(self.n, first + _BLOCK)
            for i in range(first, end):
                o = 3 * i
                r = buf[o]
                g = buf[o + 1]
                b = buf[o + 2]
                if r != last[o] or g != last[o + 1] or b != last[o + 2]:
                    strip[i] = (r << 16) | (g << 8) | b  # an int colour: no tuple
                    last[o] = r
                    last[o + 1] = g
                    last[o + 2] = b
        strip.show()
