"""Twin of CircuitPython's ``supervisor``: ``ticks_ms`` from the simulator's clock (wraps at 2**29)."""

from cpsim import WIRING

_MASK = (1 << 29) - 1


def ticks_ms():
    return WIRING.now() & _MASK
