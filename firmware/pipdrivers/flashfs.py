"""The filesystem functions ``AtomicStore`` and ``MatchStore`` need, on the board's own flash.

One class for both builds: the Pico's littlefs (``board_pins``) and the
CIRCUITPY drive (``cp_board_pins``; FAT, where rename does not replace: the
stores allow for that).
"""

import os


class FlashFS:
    """``open``, ``rename``, ``remove``, ``listdir`` and ``free`` on the root of the board's filesystem."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def listdir(self):
        return os.listdir("/")

    def free(self):
        st = os.statvfs("/")
        return st[0] * st[3]  # block size x free blocks
