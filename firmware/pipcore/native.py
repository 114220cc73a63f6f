"""The core's hottest loop in native code (``@micropython.viper``), where the port has the native emitter.

A settled change judges the sensed counts against several nodes of the turn
(``pipcore.tracker``, ``pipcore.reach``, ``pipcore.guide``), and each judgement
walked the 28 locations in bytecode to find the few where two count arrays
differ. ``differ`` finds them in one native pass. ``pipboard deploy``
compiles this module for the board's CPU (``mpy-cross -march``); where the
native emitter is missing (CPython, the WebAssembly MicroPython, a
CircuitPython build, a ``.mpy`` for another CPU) the import fails and
``pipcore.board.differ``, a plain loop, gives the same answer
(tests/mp/test_geometry.py compares them).
"""

import micropython

AT = bytearray(29)  # (``pipcore.board.AT``: the locations found, then 255)


@micropython.viper
def differ(a, b) -> int:
    """Write into ``AT`` the indices where ``a`` and ``b`` (28 bytes each) differ, in order, then 255;
    return how many. Allocates nothing."""
    p = ptr8(a)  # noqa: F821  (viper built-ins)
    q = ptr8(b)  # noqa: F821
    o = ptr8(AT)  # noqa: F821
    n = int(len(a))
    m = 0
    i = 0
    while i < n:
        if p[i] != q[i]:
            o[m] = i
            m += 1
        i += 1
    o[m] = 255
    return m
