"""The one seam between CPython and MicroPython.

Probes for features instead of testing the platform name, so the same
firmware modules import on the Pico, under the WebAssembly MicroPython and
under CPython (simulator, host tools, tests).
"""

try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(value):
        """Stand-in for ``micropython.const``: the value itself."""
        return value


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
