"""NeoPixel frame with brightness, power limiter and blink/pulse, allocation-free.

API shape of adafruit-circuitpython-neopixel: ``pixels[i] = (r, g, b)`` (or
``0xRRGGBB``), ``pixels[i]``, ``len(pixels)``, ``fill(color)``,
``brightness`` (0.0 .. 1.0), ``show()``.  ``auto_write`` is always off: the
caller draws a frame and then calls ``show(now)``.  Extras for the board:

* ``set(i, r, g, b, effect)``: the allocation-free setter (no tuple);
  ``effect`` is ``STEADY``, ``BLINK`` or ``PULSE``.
* ``show(now)``: ``now`` in ms drives the blink and pulse phases.
* The power limiter: every shown frame is scaled so that the estimated
  current (``base_ma`` + ``idle_ua`` per pixel + ``channel_ma`` per colour
  channel at full scale) stays within ``budget_ma``.

How it stays fast without loops in Python: each effect has its own layer
(a ``bytearray`` in wire order, GRB).  A pixel lives in exactly one layer.
``show()`` composes the output buffer with ``framebuf`` blits through
256-byte palettes (``out = palette[f][layer]``) at C speed, and the running
per-layer sums of channel values (updated in O(1) by every set) give the
current estimate without touching the frame.  Without ``framebuf``
(CircuitPython, or ``use_framebuf=False``) a plain-Python loop does the same
work; both paths give identical bytes (tests compare them).

Scales are integers in 1/256.  The blits need a palette per scale, so the
final scale of each layer is rounded *down* to one of 33 levels (0, then
1..8 in unit steps, then geometric steps of about 20% up to 256). The layers
are mixed by native code where the board has it (``pipcore.native``), else
by ``framebuf`` palette blits (about 8 kB of palettes, built on first use or by
``warm()``), else in plain Python: the same bytes every way.  Every output byte is
``v * V // 256`` with ``V`` at most the exact scale, so the running-sum
estimate is an upper bound of the frame's real current and the limiter can
never exceed the budget; it may use up to one step (20%) less than allowed.
"""

from array import array

from pipcore import geometry
from pipcore.compat import const

try:
    import framebuf as _framebuf
except ImportError:  # CircuitPython, CPython without the module
    _framebuf = None
try:
    from pipcore.native import mix as _mix  # native code (viper), built for the board's CPU
    from pipcore.native import put
except Exception:  # CPython, no native emitter, a .mpy for another CPU: the paths below give the same bytes
    _mix = put = None

STEADY = const(0)
BLINK = const(1)
PULSE = const(2)
_LAYERS = const(3)
LEVELS = const(32)  # palettes 1..32; level 0 is dark
FULL = const(256)
PULSE_FLOOR = const(24)  # a pulsing pixel never goes below 24/256


def _levels():
    values = array("H", [0] * (LEVELS + 1))
    prev = 0
    for k in range(1, LEVELS + 1):
        v = int(FULL ** ((k - 1) / (LEVELS - 1)) + 0.5)
        prev = max(prev + 1, v)
        values[k] = prev
    values[LEVELS] = FULL
    level_of = bytearray(FULL + 1)  # scale -> largest level whose value <= scale
    k = 0
    for scale in range(FULL + 1):
        while k < LEVELS and values[k + 1] <= scale:
            k += 1
        level_of[scale] = k
    return values, level_of


LEVEL_VALUE, LEVEL_OF = _levels()


class LedError(ValueError):
    """A bad pixel index, colour or LED configuration."""


class Pixels:
    """A chain of ``n`` RGB pixels written by ``write(buf)``."""

    def __init__(
        self,
        n,
        write,
        brightness=1.0,
        budget_ma=geometry.POWER_BUDGET_MA,
        base_ma=geometry.POWER_BASE_MA,
        idle_ua=geometry.LED_IDLE_UA,
        channel_ma=geometry.LED_CHANNEL_MA,
        byteorder="GRB",
        blink_ms=600,
        pulse_ms=1200,
        use_framebuf=True,
        use_native=True,
    ):
        if n < 1:
            raise LedError("a chain needs at least one pixel, not %r" % (n,))
        if sorted(byteorder) != ["B", "G", "R"]:
            raise LedError("byteorder must be a permutation of RGB, not %r" % (byteorder,))
        static_ua = base_ma * 1000 + n * idle_ua
        if budget_ma * 1000 <= static_ua:
            raise LedError(
                "power budget %d mA is below the static draw %d.%03d mA of the board and %d dark pixels"
                % (budget_ma, static_ua // 1000, static_ua % 1000, n)
            )
        self.n = n
        self.bpp = 3
        self.byteorder = byteorder
        self.auto_write = False
        self._write = write
        self._ro = byteorder.index("R")
        self._go = byteorder.index("G")
        self._bo = byteorder.index("B")
        self.budget_ma = budget_ma
        self.base_ma = base_ma
        self.idle_ua = idle_ua
        self.channel_ma = channel_ma
        # Channel units (0..255 each) that the budget leaves for light.
        self._avail = (budget_ma * 1000 - static_ua) * 255 // (channel_ma * 1000)
        self.blink_ms = blink_ms
        self.pulse_ms = pulse_ms
        # (each layer and ``out`` a block of its own, so from a multiple of 4 bytes: the native mix reads
        # them a word at a time)
        self._layers = [bytearray(3 * n) for _ in range(_LAYERS)]
        self._load = array("i", [0] * _LAYERS)  # sum of channel values per layer
        self._effect = bytearray(n)  # layer of each pixel
        self._factor = array("i", [0] * _LAYERS)
        self.out = bytearray(3 * n)  # the last frame written, wire order
        self.limited = False  # the last frame was scaled down by the limiter
        self.est_units = 0  # upper bound of the channel sum of the last frame
        self._fb = None
        self._mix = _mix if use_native else None
        self._scales = array("i", [0] * _LAYERS)  # the three layers' scales for the native mix
        if self._mix is None:  # (no native code: ``framebuf``'s blits, else a loop; loaded only then)
            from pipcore.plain import _compose_framebuf, _compose_plain

            self._compose_framebuf = _compose_framebuf
            self._compose_plain = _compose_plain
        if use_framebuf and _framebuf is not None:
            gs8 = _framebuf.GS8
            self._fb = [_framebuf.FrameBuffer(layer, 3, n, gs8) for layer in self._layers]
            self._fb_out = _framebuf.FrameBuffer(self.out, 3, n, gs8)
            self._fb_effect = _framebuf.FrameBuffer(self._effect, n, 1, gs8)
            if self._mix is None:  # palettes for the blits: 8 kB the native mix does without
                self._pal = [bytearray(256) for _ in range(LEVELS + 1)]
                self._fb_pal = [_framebuf.FrameBuffer(p, 256, 1, gs8) for p in self._pal]
                self._pal_ready = bytearray(LEVELS + 1)
        self._scale = FULL
        self._brightness = 1.0
        self.brightness = brightness

    # -- adafruit API ---------------------------------------------------------
    def __len__(self):
        return self.n

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        value = min(max(float(value), 0.0), 1.0)
        self._brightness = value
        self._scale = int(value * FULL + 0.5)

    def __setitem__(self, index, color):
        if isinstance(index, slice):  # pixels[a:b] = [colour, ...] as in adafruit's API
            start, stop, step = index.indices(self.n)
            indices = range(start, stop, step)
            if len(color) != len(indices):
                raise LedError("%d colours for %d pixels" % (len(color), len(indices)))
            for i, c in zip(indices, color):
                self[i] = c
            return
        if isinstance(color, int):
            self.set(index, (color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF, STEADY)
        else:
            if len(color) != 3:
                raise LedError("a colour is (r, g, b) or 0xRRGGBB, not %r" % (color,))
            self.set(index, color[0], color[1], color[2], STEADY)

    def __getitem__(self, index):
        i = self._index(index)
        layer = self._layers[self._effect[i]]
        o = 3 * i
        return (layer[o + self._ro], layer[o + self._go], layer[o + self._bo])

    def fill(self, color):
        """Every pixel steady in ``color`` (``(r, g, b)`` or ``0xRRGGBB``)."""
        if isinstance(color, int):
            r, g, b = (color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF
        else:
            r, g, b = color
        self.fill_rgb(r, g, b)

    def fill_rgb(self, r, g, b):
        """Allocation-free ``fill``."""
        if (r | g | b) >> 8:
            raise LedError("colour channels must be 0..255, not (%r, %r, %r)" % (r, g, b))
        n = self.n
        layers = self._layers
        fb = self._fb
        load = self._load
        if fb is not None:
            # A layer whose channel sum is 0 is all zeros already; a grey is one
            # fill. Measured (unix MicroPython, tests/pico/bench_drivers.py's
            # limited frame): fill_rgb 3.2 -> 1.1 us, the whole frame 11.3 -> 9.7 us.
            if load[BLINK]:
                fb[BLINK].fill(0)
            if load[PULSE]:
                fb[PULSE].fill(0)
            steady = fb[STEADY]
            if r == g == b:
                steady.fill(r)
            else:
                steady.fill_rect(self._ro, 0, 1, n, r)
                steady.fill_rect(self._go, 0, 1, n, g)
                steady.fill_rect(self._bo, 0, 1, n, b)
            self._fb_effect.fill(0)
        else:
            blink = layers[BLINK]
            pulse = layers[PULSE]
            steady = layers[STEADY]
            effect = self._effect
            ro, go, bo = self._ro, self._go, self._bo
            for i in range(n):
                o = 3 * i
                blink[o] = blink[o + 1] = blink[o + 2] = 0
                pulse[o] = pulse[o + 1] = pulse[o + 2] = 0
                steady[o + ro] = r
                steady[o + go] = g
                steady[o + bo] = b
                effect[i] = 0
        load[STEADY] = n * (r + g + b)
        load[BLINK] = 0
        load[PULSE] = 0

    def show(self, now=0):
        """Compose the frame for time ``now`` (ms), limit its power, write it.

        (Each layer's scale here, the limiter in ``_need``: a frame of 12 or more locals and stack
        slots is allocated on the heap, slow in a game's fragmented heap.)"""
        f = self._factor
        bright = self._scale
        f[STEADY] = bright
        f[BLINK] = bright if (now % self.blink_ms) * 2 < self.blink_ms else 0
        period = self.pulse_ms
        now %= period
        now = (now if now * 2 < period else period - now) * 2 * FULL // period  # 0..256
        f[PULSE] = bright * (PULSE_FLOOR + now * (FULL - PULSE_FLOOR) // FULL) // FULL
        self._need()
        if self._mix is not None:
            self._mix(self.out, self._layers, self._scales)
        elif self._fb is not None:  # (no native code: ``pipcore.plain``'s, set by ``__init__``)
            self._compose_framebuf(self, f)
        else:
            self._compose_plain(self, f)
        self._write(self.out)

    def _need(self):
        """The power limiter: scales rounded down to levels (``_factor``) and their values (``_scales``)."""
        f = self._factor
        load = self._load
        need = (load[0] * f[0] + load[1] * f[1] + load[2] * f[2] + 255) >> 8
        self.limited = need > self._avail
        if self.limited:
            # Floors keep every scale at or below its exact share of the budget.
            f[0] = f[0] * self._avail // need
            f[1] = f[1] * self._avail // need
            f[2] = f[2] * self._avail // need
        f[0] = LEVEL_OF[f[0]]
        f[1] = LEVEL_OF[f[1]]
        f[2] = LEVEL_OF[f[2]]
        scales = self._scales
        scales[0] = LEVEL_VALUE[f[0]]
        scales[1] = LEVEL_VALUE[f[1]]
        scales[2] = LEVEL_VALUE[f[2]]
        self.est_units = (load[0] * scales[0] + load[1] * scales[1] + load[2] * scales[2]) >> 8

    def deinit(self):
        self.fill_rgb(0, 0, 0)
        self.show()

    # -- board extras -----------------------------------------------------------
    def set(self, index, r, g, b, effect=STEADY):
        """Pixel ``index`` to ``(r, g, b)`` with ``effect``; allocates nothing (``put``, the colour packed)."""
        if index < 0:
            index += self.n
        if (r | g | b) >> 8 and 0 <= index < self.n and 0 <= effect < _LAYERS:
            raise LedError("colour channels must be 0..255, not (%r, %r, %r)" % (r, g, b))
        r = effect << 24 | r << 16 | g << 8 | b
        self.put(index, r)

    def put(self, index, code):
        """``set`` with the effect and colour packed in one int, ``effect << 24 | r << 16 | g << 8 | b``
        (the renderer's). Kept to 11 locals and stack slots: a bigger frame is allocated on the heap at
        every call, which in a game's fragmented heap costs more than the rest of the call. Where the
        port runs native code, ``pipcore.native.put`` takes its place (this one stays as ``_put``: the
        errors); the renderer's native loop writes as this does."""
        if not 0 <= index < self.n:
            raise LedError("pixel index must be 0..%d, not %r" % (self.n - 1, index))
        if not 0 <= code < 0x3000000:
            raise LedError("effect must be STEADY, BLINK or PULSE, not %r" % (code >> 24,))
        o = 3 * index
        cur = self._effect[index]
        self._effect[index] = code >> 24
        layer = self._layers[cur]
        index = layer[o] + layer[o + 1] + layer[o + 2]  # (from here: channel sums)
        self._load[cur] -= index
        if cur != code >> 24:
            layer[o] = layer[o + 1] = layer[o + 2] = 0
            cur = code >> 24
            layer = self._layers[cur]
        layer[o + self._ro] = code >> 16 & 255
        layer[o + self._go] = code >> 8 & 255
        layer[o + self._bo] = code & 255
        index = (code >> 16 & 255) + (code >> 8 & 255) + (code & 255)
        self._load[cur] += index

    _put = put  # the plain put, kept when the native one takes its place: it raises the errors

    def blink(self, index, r, g, b):
        self.set(index, r, g, b, BLINK)

    def pulse(self, index, r, g, b):
        self.set(index, r, g, b, PULSE)

    def effect(self, index):
        return self._effect[self._index(index)]

    def estimate_ma(self):
        """Upper bound of the current drawn by the last frame, in whole mA (rounded up)."""
        ua = self.base_ma * 1000 + self.n * self.idle_ua + (self.est_units * self.channel_ma * 1000 + 254) // 255
        return (ua + 999) // 1000

    # -- internals -----------------------------------------------------------------
    def _index(self, index):
        if index < 0:
            index += self.n
        if not 0 <= index < self.n:
            raise LedError("pixel index must be 0..%d, not %r" % (self.n - 1, index))
        return index


if put is not None:  # a pixel written in native code: about a third of this one's time
    Pixels.put = put


def warm(pixels):
    """Build every palette now (once, about 8 kB) so that no frame pays for it later (the native
    mix needs none)."""
    if pixels._fb is not None and pixels._mix is None:
        from pipcore.plain import _palette

        for level in range(1, LEVELS):
            _palette(pixels, level, LEVEL_VALUE[level])
