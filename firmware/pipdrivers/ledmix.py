"""The LED frame's mix in native code: ``@micropython.viper``, one pass over the strip's bytes.

``pipdrivers.leds.Pixels.show`` mixes its three layers (steady, blink,
pulse: disjoint per pixel) into the frame. The same work in bytecode or
through ``framebuf`` palette blits costs most of a limited frame's 2 ms on
the Pico; here it is a few instructions a byte. ``pipboard deploy``
compiles this module for the board's CPU (``mpy-cross -march=armv6m``); where
the native emitter is missing (CPython, the WebAssembly MicroPython, a
CircuitPython build without it, a ``.mpy`` for another CPU) the import fails
and ``Pixels`` keeps its plain-Python and ``framebuf`` paths, which give the
same bytes (tests/mp/test_leds.py compares them).
"""

import micropython


@micropython.viper
def mix(out, layers, scales) -> int:
    """``out[j] = (steady[j] * s0 + blink[j] * s1 + pulse[j] * s2) >> 8`` for every byte of ``out``.

    ``layers``: the three layer bytearrays (as long as ``out``); ``scales``:
    an ``array('i')`` of the three scales 0..256. Allocates nothing.
    """
    n = int(len(out))
    o = ptr8(out)  # noqa: F821  (viper built-ins)
    a = ptr8(layers[0])  # noqa: F821
    b = ptr8(layers[1])  # noqa: F821
    c = ptr8(layers[2])  # noqa: F821
    s = ptr32(scales)  # noqa: F821
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    j = 0
    while j < n:
        o[j] = (a[j] * s0 + b[j] * s1 + c[j] * s2) >> 8
        j += 1
    return n
