"""The plain-Python twins of ``pipcore.native``, loaded only where the port runs no native code.

CPython, the WebAssembly MicroPython, CircuitPython and a ``.mpy`` built for
another CPU cannot load ``pipcore.native``; the modules that use it then import
the same work in bytecode from here (``pipcore.board.find``,
``pipcore.steps.count``, ``pipcore.render.Renderer.draw``, and the LED
driver's mix, ``pipdrivers.leds.Pixels.show``: through ``framebuf``'s palette
blits where the port has it, else a loop). The board, which
runs the native code, never loads this module: its bytecode and names stay out
of the heap. The tests compare both (tests/mp/test_geometry.py,
test_rules_steps.py, test_render.py, test_native.py).
"""

from pipcore import geometry as g
from pipcore.position import BAR

index = bytearray(g.LOCATIONS + 1)  # (``pipcore.board.index``)


def find(a, b):
    """Write into ``index`` the locations where the counts ``a`` and ``b`` differ, in order, then 255; return
    how many."""
    m = 0
    for i in range(len(a)):
        if a[i] != b[i]:
            index[m] = i
            m += 1
    index[m] = 255
    return m


def count(counts, base, me, closed, srcs, d):
    """``_Doubles.decode``'s first pass: the moves of ``d`` made from each point (into ``counts``; their
    sources into ``srcs``, highest first, the first four), read from the mover's arrays at the start
    (``base``) and now (``me``): ``total | bear << 8 | lowest point borne off from with a higher die << 9``,
    or -1 when no moves of this double give these counts (a count outside 0..4, a closed landing).
    (``pipcore.native.count`` in native code: every step asks.)"""
    total = 0
    over = 0
    bear = 0
    for p in range(BAR, 0, -1):
        n = (counts[p + d] if p + d <= BAR else 0) - me[p] + base[p]
        if n < 0 or n > 4:
            return -1
        counts[p] = n
        if n:
            if closed[p]:
                return -1
            if p <= d:
                bear = 1
                if p < d:
                    over = p
            while n:
                if total < 4:
                    srcs[total] = p
                total += 1
                n -= 1
    return total | bear << 8 | over << 9


def draw(self, marks, players):
    """``pipcore.render.Renderer.draw`` for ``self`` (a Renderer) on any pixels with ``put``."""
    from pipcore.render import _STYLE

    nxt = _STYLE[20]  # (bit ``role``: the slot where the next checker lands, else the top checker)
    write = self.pixels.put
    counts = self.counts
    lit = self.lit
    shown = self.shown
    chain = g.LED_CHAIN_POS
    animated = False
    for loc in range(g.LOCATIONS):
        role = marks[loc]
        if not role:
            if lit[loc]:
                k = chain[loc]  # (geometry.led_index, inline)
                write(g.LED_LOC_BASE + k * 6 + (lit[loc] - 1 if k & 1 else 6 - lit[loc]), 0)
                lit[loc] = 0
            continue
        if (_STYLE[21] >> role) & 1:
            animated = True
        key = (role << 8 | players[loc]) << 3 | counts[loc] & 7
        if lit[loc] and shown[loc] == key:
            continue  # (lit as it is)
        code = _STYLE[role]
        slot = counts[loc] & 7
        if not (nxt >> role) & 1:
            slot -= 1
        if slot < 0:
            slot = 0
        elif slot >= g.SLOTS:
            slot = g.SLOTS - 1
        if (role == 7 or role == 8) and players[loc] < 2:
            code = code & 0x3000000 | _STYLE[18 + players[loc]]
        k = chain[loc]
        if lit[loc] and lit[loc] - 1 != slot:
            write(g.LED_LOC_BASE + k * 6 + (lit[loc] - 1 if k & 1 else 6 - lit[loc]), 0)
        write(g.LED_LOC_BASE + k * 6 + (slot if k & 1 else 5 - slot), code)
        lit[loc] = slot + 1
        shown[loc] = key
    self.animated = animated


def _palette(self, level, scale):
    """The palette of brightness ``level`` (``scale``/256) for ``framebuf``'s blits of ``self`` (a ``Pixels``),
    built once."""
    if not self._pal_ready[level]:
        pal = self._pal[level]
        for v in range(256):
            pal[v] = (v * scale) >> 8
        self._pal_ready[level] = 1
    return self._fb_pal[level]


def _compose_framebuf(self, f):
    """``Pixels.show``'s mix through ``framebuf``'s palette blits (the port has ``framebuf``, not native
    code): ``f`` the levels of the steady, blink and pulse layers (0..32), ``self._scales`` their values."""
    fb = self._fb
    out = self._fb_out
    ready = self._pal_ready
    scales = self._scales
    level = f[0]
    if level >= 32:
        out.blit(fb[0], 0, 0)
    elif level <= 0:
        out.fill(0)
    else:
        out.blit(fb[0], 0, 0, -1, self._fb_pal[level] if ready[level] else _palette(self, level, scales[0]))
    # Layers are disjoint per pixel and zero elsewhere: overlay their non-zero bytes.
    load = self._load
    for k in (1, 2):  # blink, pulse
        if load[k]:
            level = f[k]
            if level >= 32:
                out.blit(fb[k], 0, 0, 0)
            elif level > 0:
                out.blit(fb[k], 0, 0, 0, self._fb_pal[level] if ready[level] else _palette(self, level, scales[k]))


def _compose_plain(self, f):
    """``Pixels.show``'s mix in a loop (``pipcore.native.mix``'s twin): ``self._scales`` the layers' scales."""
    steady, blink, pulse = self._layers
    out = self.out
    f0, f1, f2 = self._scales
    for j in range(3 * self.n):
        out[j] = (steady[j] * f0 + blink[j] * f1 + pulse[j] * f2) >> 8
