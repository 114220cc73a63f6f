"""Run the CircuitPython build on the host: the twins of tests/cp_twins under Adafruit's real libraries.

``circuitpython()`` puts tests/cp_twins first on ``sys.path`` (ahead of
Blinka's ``board``, ``digitalio``, ``keypad``, ``microcontroller`` of the
same names), imports Adafruit's ``neopixel`` and ``adafruit_pixelbuf`` from
PyPI on top of the twins, yields the wiring (``cpsim.WIRING``) and takes
everything off again, so no other test sees a twin.

``cp_build(board)`` is a ``SimBoard`` build hook: a power-up of the
CircuitPython composition root (``pipdrivers.cp_board_pins.build``) wired to
the simulator's switches, buttons and clock.
"""

import contextlib
import os
import sys

TWINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cp_twins")
# the CircuitPython modules the twins stand for, Adafruit's libraries on them, and what imports them
_NAMES = ("board", "digitalio", "neopixel_write", "keypad", "usb_cdc", "supervisor", "microcontroller",
          "watchdog", "storage", "cpsim", "neopixel", "adafruit_pixelbuf", "pipdrivers.cp_board_pins",
          "pipdrivers.cp_keys", "pipdrivers.cp_serial")


def _forget():
    saved = {}
    for name in list(sys.modules):
        if name in _NAMES or name.split(".")[0] in ("microcontroller",):
            saved[name] = sys.modules.pop(name)
            parent, _, child = name.rpartition(".")
            if parent in sys.modules and getattr(sys.modules[parent], child, None) is saved[name]:
                delattr(sys.modules[parent], child)  # else "from pipdrivers import cp_board_pins" finds it
    return saved


@contextlib.contextmanager
def circuitpython():
    saved = _forget()
    sys.path.insert(0, TWINS)
    try:
        import cpsim
        import neopixel  # noqa: F401  (Adafruit's, on the twins)

        assert os.path.dirname(os.path.abspath(sys.modules["board"].__file__)) == TWINS, "Blinka's board won"
        yield cpsim.WIRING
    finally:
        sys.path.remove(TWINS)
        _forget()
        sys.modules.update(saved)  # (the firmware's cp_ modules stay unbound from their package)


def cp_build(board):
    """``SimBoard(build=cp_build)``: power up the CircuitPython composition root on ``board.twins``."""
    import cpsim
    from pipdrivers import cp_board_pins

    tw = board.twins
    cpsim.power_on(chain=tw.switches, pad=tw.pad, clock=lambda: board.now, drive_readonly=False)
    return cp_board_pins.build(fs=tw.flash, entropy=tw.entropy)
