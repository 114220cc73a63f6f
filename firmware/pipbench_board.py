"""The board's stand-ins for the tests/pico scripts: the switch chain, the flash as real files, fixed dice.

Deployed with the firmware (compiled like it) so that the scripts that use
them, compiled on the Pico by ``mpremote run``, stay small
(``tests/pico/bench_controller.py``). The game never imports it.
"""

import os
import time

from pipcore import geometry as g

FOLDER = "pipbench.tmp"  # the saves, removed at the end


class Chain:
    """The 74HC165 chain: one bit per switch, sentinel byte 0xFF."""

    def __init__(self):
        self.bits = bytearray(g.SCAN_BYTES)

    def readinto(self, buf):
        buf[: g.SCAN_BYTES] = self.bits
        if len(buf) > g.SCAN_BYTES:
            buf[g.SCAN_BYTES] = 0xFF


class Timed:
    """A file of ``Flash`` whose calls are timed: the host's file system is not the Pico's flash."""

    def __init__(self, flash, f):
        self.flash = flash
        self.f = f

    def _call(self, name, *args):
        t0 = time.ticks_us()
        out = getattr(self.f, name)(*args)
        self.flash.io_us += time.ticks_diff(time.ticks_us(), t0)
        return out

    def read(self, *args):
        return self._call("read", *args)

    def write(self, data):
        return self._call("write", data)

    def seek(self, *args):
        return self._call("seek", *args)

    def tell(self):
        return self._call("tell")

    def flush(self):
        return self._call("flush")

    def close(self):
        return self._call("close")


class Flash:
    """The board's files as real files in ``FOLDER`` (the Pico's own flash under ``mpremote run``):
    saves live outside the heap, as on the board; an in-memory stand-in would charge the heap
    with the saves themselves. The time spent in the host's file calls (``io_us``) is taken out
    of the figures: on a host it is operating-system work with no Pico ratio (the flash's own
    program and erase times are tests/pico/bench_record.py's)."""

    def __init__(self):
        self.io_us = 0
        try:
            os.mkdir(FOLDER)
        except OSError:  # there already: a run that died left its saves, which this one must not resume
            for name in os.listdir(FOLDER):
                os.remove(FOLDER + "/" + name)

    def _timed(self, func, *args):
        t0 = time.ticks_us()
        out = func(*args)
        self.io_us += time.ticks_diff(time.ticks_us(), t0)
        return out

    def open(self, path, mode="rb"):
        return Timed(self, self._timed(open, FOLDER + path, mode))

    def rename(self, old, new):
        self._timed(os.rename, FOLDER + old, FOLDER + new)

    def remove(self, path):
        self._timed(os.remove, FOLDER + path)

    def listdir(self):
        return self._timed(os.listdir, FOLDER)

    def clean(self):
        for name in os.listdir(FOLDER):
            os.remove(FOLDER + "/" + name)
        os.rmdir(FOLDER)


class Figure:
    """Worst and mean of a series, kept as three numbers (a list of floats would grow the heap
    the script measures)."""

    def __init__(self):
        self.worst = 0.0
        self.total = 0.0
        self.n = 0

    def append(self, value):
        if value > self.worst:
            self.worst = value
        self.total += value
        self.n += 1


class Dice:
    def __init__(self):
        self.next = (3, 1)

    def roll(self):
        return self.next
