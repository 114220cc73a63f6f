"""The one seam between CPython and MicroPython.

Probes for features instead of testing the platform name, so the same
firmware modules import on the Pico, under the WebAssembly MicroPython and
under CPython (simulator, host tools, tests).
"""

import gc

try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(value):
        """Stand-in for ``micropython.const``: the value itself."""
        return value


# MicroPython's own heap (the board's RAM) can be measured; CPython's gc (and Blinka's ``micropython``
# stand-in on a PC) cannot
_HEAP_IS_RAM = hasattr(gc, "mem_alloc")

try:
    from micropython import native  # noqa: F401
except ImportError:  # CPython, or a port without the native emitter

    def native(func):
        """Stand-in for ``@micropython.native``: the plain-Python path."""
        return func


def ticks_diff(new, old):
    """Difference of two millisecond tick values (tick counters wrap on the Pico)."""
    try:
        from time import ticks_diff as _diff
    except ImportError:
        return new - old
    return _diff(new, old)


def unload(package, names):
    """Let modules loaded for a while (the menu, the self-test) leave the heap: forgotten by
    ``sys.modules`` and their package, their code is collected. On MicroPython only, where the heap is
    the board's RAM; CPython keeps them (tests hold their classes)."""
    if not _HEAP_IS_RAM:
        return
    import sys

    pkg = sys.modules.get(package)
    for name in names:
        if sys.modules.pop(package + "." + name, None) is not None and pkg is not None:
            try:
                delattr(pkg, name)
            except AttributeError:
                pass
