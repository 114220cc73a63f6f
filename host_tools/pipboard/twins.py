"""Twins of the board's hardware, for the simulator and the tests.

Each twin offers exactly what the composition root hands the firmware
driver on the Pico (see ``firmware/pipdrivers/board_pins.py``), so the same
driver code runs against them:

==================  =====================================  =========================
driver              on the Pico                            twin
==================  =====================================  =========================
scan.Scanner        ``read_chain(buf)`` (SPI + SH/LD pin)  ``VirtualSwitches.readinto``
leds.Pixels         ``write(buf)`` (bitstream on GP22)     ``VirtualStrip.write``
buttons.Buttons     ``read()`` (ten GPIOs)                 ``VirtualButtons.read``
storage.AtomicStore ``FlashFS()`` (littlefs)               ``MemFlash()``, ``FolderFlash(dir)``
recstore.MatchStore (the same filesystem)                   (the same twins)
dice.Dice           ``entropy(n)`` (ROSC + ADC noise)      ``VirtualEntropy(seed)``
==================  =====================================  =========================

Nothing here is deployed to the board.
"""

import random

from pipcore import geometry


class VirtualSwitches:
    """The 168 reed switches and the 74HC165 chain that reads them.

    ``place(loc, count)`` stands checkers on a location; ``stick(bit, level)``
    makes a switch stuck (closed or open) whatever the magnets do;
    ``chatter(bit, reads)`` makes it bounce randomly for the next reads;
    ``broken = True`` cuts the chain (the sentinel byte reads 0x00).
    """

    def __init__(self, seed=0):
        self.closed = bytearray(geometry.SCAN_BYTES)  # what the magnets do
        self.stuck = {}  # bit -> forced level
        self._chatter = {}  # bit -> reads left
        self.rng = random.Random(seed)
        self.broken = False
        self.reads = 0

    # -- the physical board ---------------------------------------------------
    def set(self, bit, closed):
        if not 0 <= bit < geometry.SENSORS:
            raise geometry.GeometryError("scan bit must be 0..167, not %r" % (bit,))
        if closed:
            self.closed[bit >> 3] |= 1 << (bit & 7)
        else:
            self.closed[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF

    def place(self, loc, count):
        """``count`` checkers on ``loc``, pushed to its edge (6 or more fill it)."""
        geometry.set_count(self.closed, loc, count)

    def stick(self, bit, level):
        """Switch ``bit`` reads closed (``level`` true) or open whatever the magnets do."""
        if not 0 <= bit < geometry.SENSORS:
            raise geometry.GeometryError("scan bit must be 0..167, not %r" % (bit,))
        self.stuck[bit] = 1 if level else 0

    def unstick(self, bit):
        self.stuck.pop(bit, None)

    def chatter(self, bit, reads):
        """Bounce ``bit`` at random for the next ``reads`` reads of the chain."""
        self._chatter[bit] = reads

    # -- what the shift registers deliver ----------------------------------------
    def level(self, bit):
        if bit in self.stuck:
            return self.stuck[bit]
        if self._chatter.get(bit):
            return self.rng.getrandbits(1)
        return (self.closed[bit >> 3] >> (bit & 7)) & 1

    def readinto(self, buf):
        """Fill ``buf`` (21 bytes + sentinel) as the chain would."""
        self.reads += 1
        n = geometry.SCAN_BYTES
        buf[:n] = self.closed
        for bit in list(self._chatter):
            left = self._chatter[bit] - 1
            if left < 0:
                del self._chatter[bit]
                continue
            self._chatter[bit] = left
            if self.rng.getrandbits(1):
                buf[bit >> 3] ^= 1 << (bit & 7)
        for bit, level in self.stuck.items():
            if level:
                buf[bit >> 3] |= 1 << (bit & 7)
            else:
                buf[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF
        if len(buf) > n:
            buf[n] = 0x00 if self.broken else 0xFF


class VirtualStrip:
    """The NeoPixel chain: records every frame written (GRB bytes).

    Data written past the last pixel comes out of its data out, which the board's return line sees
    (``returned``, the ``led_return`` of ``pipdrivers.board.Board``); ``cut = k`` breaks the chain
    before pixel ``k``: from there on the pixels stay dark and nothing comes back.
    """

    def __init__(self, n=geometry.LEDS, history=1000, byteorder="GRB"):
        self.n = n
        self.frames = []
        self.history = history
        self._order = tuple(byteorder.index(c) for c in "RGB")
        self.cut = None
        self._returned = 0

    def write(self, buf):
        if len(buf) < 3 * self.n:
            raise ValueError("frame of %d bytes for %d pixels" % (len(buf), self.n))
        frame = bytearray(buf[: 3 * self.n])
        if self.cut is not None:
            frame[3 * self.cut :] = bytes(3 * self.n - 3 * self.cut)
        elif len(buf) > 3 * self.n:
            self._returned += 1  # the bits past the last pixel leave through its data out
        self.frames.append(bytes(frame))
        if len(self.frames) > self.history:
            del self.frames[0]

    def returned(self):
        """Pulses seen on the return line since the last call (and forgotten)."""
        n = self._returned
        self._returned = 0
        return n

    @property
    def last(self):
        return self.frames[-1] if self.frames else bytes(3 * self.n)

    def pixel(self, index, frame=None):
        """``(r, g, b)`` of a pixel in the last (or given) frame."""
        frame = self.last if frame is None else frame
        o = 3 * index
        ro, go, bo = self._order
        return frame[o + ro], frame[o + go], frame[o + bo]

    def lit(self, frame=None):
        """Indices of pixels that are not dark."""
        frame = self.last if frame is None else frame
        return [i for i in range(self.n) if any(frame[3 * i : 3 * i + 3])]

    def current_ma(self, frame=None, base_ma=geometry.POWER_BASE_MA, idle_ua=geometry.LED_IDLE_UA,
                   channel_ma=geometry.LED_CHANNEL_MA):
        """Estimated board current (mA, float) while showing a frame."""
        frame = self.last if frame is None else frame
        return base_ma + self.n * idle_ua / 1000 + sum(frame) * channel_ma / 255


class VirtualButtons:
    """The ten buttons: ``press``/``release`` by number; optional bounce."""

    def __init__(self, seed=0):
        self.state = 0
        self._bounce = {}
        self.rng = random.Random(seed)

    def press(self, button, bounce=0):
        self.state |= 1 << button
        if bounce:
            self._bounce[button] = bounce

    def release(self, button, bounce=0):
        self.state &= ~(1 << button)
        if bounce:
            self._bounce[button] = bounce

    def read(self):
        level = self.state
        for button in list(self._bounce):
            self._bounce[button] -= 1
            if self._bounce[button] <= 0:
                del self._bounce[button]
            if self.rng.getrandbits(1):
                level ^= 1 << button
        return level


class PowerCut(BaseException):
    """Raised by MemFlash when the simulated power fails.

    A BaseException, like KeyboardInterrupt: nothing on the board survives a
    power cut, so the firmware's fault guard (``pipcore.guard``, which catches
    every ``Exception``) must not catch it either.
    """


class _MemFile:
    def __init__(self, flash, path, mode):
        self.flash = flash
        self.path = path
        self.mode = mode
        self.pos = len(flash.files[path]) if "a" in mode else 0
        self.closed = False

    def write(self, data):
        flash = self.flash
        flash._check()
        buf = flash.files[self.path]
        data = bytes(data)
        flash._room(buf, self.pos, len(data))
        for byte in data:
            flash._spend()  # the power may fail before this byte lands
            if self.pos < len(buf):
                buf[self.pos] = byte
            else:
                buf.append(byte)
            self.pos += 1
        return len(data)

    def read(self, n=-1):
        self.flash._check()
        data = self.flash.files[self.path]
        if n is None or n < 0:
            chunk = bytes(data[self.pos :])
        else:
            chunk = bytes(data[self.pos : self.pos + n])
        self.pos += len(chunk)
        return chunk

    def seek(self, offset, whence=0):
        self.flash._check()
        if whence == 1:
            offset += self.pos
        elif whence == 2:
            offset += len(self.flash.files[self.path])
        if offset < 0:
            raise OSError(22, "invalid seek")
        buf = self.flash.files[self.path]
        if offset > len(buf):  # like a file: the gap reads as zeros
            buf.extend(bytes(offset - len(buf)))
        self.pos = offset
        return offset

    def tell(self):
        return self.pos

    def flush(self):
        self.flash._check()

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class MemFlash:
    """An in-memory filesystem whose power can be cut.

    ``cut_after(units)``: the power fails once ``units`` more units of work
    are done, where one unit is one written byte, one rename or one remove;
    the operation that would exceed it raises ``PowerCut`` and so does every
    later call until ``power_on()``.  Bytes written before the cut stay
    (littlefs may in fact lose unflushed bytes of a file being written, which
    only makes a torn temporary file shorter).
    """

    def __init__(self, rename_replaces=True, capacity=None):
        self.files = {}
        self.capacity = capacity  # bytes the flash holds (None: unlimited); a write past it: OSError 28
        self.rename_replaces = rename_replaces  # False: like FAT, rename onto a file fails
        self._budget = None
        self.dead = False
        self.units = 0  # work done since the last power_on

    def cut_after(self, units):
        self._budget = self.units + units

    def power_on(self):
        self.dead = False
        self._budget = None
        self.units = 0

    def _check(self):
        if self.dead:
            raise PowerCut("the power is off")

    def _spend(self):
        self._check()
        if self._budget is not None and self.units >= self._budget:
            self.dead = True
            raise PowerCut("power cut after %d units" % self.units)
        self.units += 1

    def _room(self, buf, pos, n):
        """Raise OSError 28 (no space) when writing ``n`` bytes at ``pos`` of ``buf`` would overfill it."""
        if self.capacity is not None:
            grow = max(0, pos + n - len(buf))
            if grow and self.used() + grow > self.capacity:
                raise OSError(28, "no space left on the flash")

    def used(self):
        return sum(len(b) for b in self.files.values())

    # -- the injected filesystem API ------------------------------------------------
    def open(self, path, mode="rb"):
        self._check()
        if "w" in mode or ("a" in mode and path not in self.files):
            self.files[path] = bytearray()
        elif path not in self.files:
            raise OSError(2, "no such file: %s" % path)
        return _MemFile(self, path, mode)

    def listdir(self):
        self._check()
        return [p.lstrip("/") for p in self.files]

    def free(self):
        """Bytes free (a large figure when the twin has no capacity)."""
        self._check()
        if self.capacity is None:
            return 1 << 30
        return max(0, self.capacity - self.used())

    def rename(self, old, new):
        self._check()
        if old not in self.files:
            raise OSError(2, "no such file: %s" % old)
        if new in self.files and not self.rename_replaces:
            raise OSError(17, "file exists: %s" % new)
        self._spend()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        self._check()
        if path not in self.files:
            raise OSError(2, "no such file: %s" % path)
        self._spend()
        del self.files[path]


PICO_FLASH_BYTES = 1408 * 1024  # the littlefs partition of a Pico (MicroPython rp2, RPI_PICO)


class FolderFlash:
    """The board's filesystem as the files of a folder (``pipboard sim --flash DIR``): the simulated
    board's saves and match records outlive the simulator, as the Pico's do a power cycle.

    The same API as ``MemFlash`` and ``pipdrivers.flashfs.FlashFS``; ``capacity`` is the flash size
    reported by ``free()`` (a Pico's by default), and a write past it fails as on a full flash.
    """

    dead = False  # (the power of a folder is never cut)

    def __init__(self, folder, capacity=PICO_FLASH_BYTES):
        import os

        self.folder = os.path.abspath(folder)
        self.capacity = capacity
        os.makedirs(self.folder, exist_ok=True)

    def power_on(self):
        pass

    def _path(self, path):
        import os

        name = path.lstrip("/")
        if not name or "/" in name or name in (".", ".."):
            raise OSError(2, "no such file: %s" % path)
        return os.path.join(self.folder, name)

    def used(self):
        import os

        total = 0
        for name in os.listdir(self.folder):
            total += os.path.getsize(os.path.join(self.folder, name))
        return total

    def open(self, path, mode="rb"):
        if "w" in mode or "a" in mode or "+" in mode:
            return _FolderFile(self, open(self._path(path), mode))
        return open(self._path(path), mode)

    def rename(self, old, new):
        import os

        os.replace(self._path(old), self._path(new))

    def remove(self, path):
        import os

        os.remove(self._path(path))

    def listdir(self):
        import os

        return sorted(os.listdir(self.folder))

    def free(self):
        return max(0, self.capacity - self.used())


class _FolderFile:
    """A file of ``FolderFlash`` opened for writing: a write past the capacity fails (OSError 28)."""

    def __init__(self, flash, f):
        self.flash = flash
        self.f = f

    def write(self, data):
        pos = self.f.tell()
        self.f.seek(0, 2)
        end = self.f.tell()
        self.f.seek(pos)
        grow = pos + len(data) - end
        if grow > 0 and self.flash.used() + grow > self.flash.capacity:
            raise OSError(28, "no space left on the flash")
        return self.f.write(data)

    def close(self):
        """Flushed to the disk before it is closed: the firmware's atomic store renames a file after
        closing it, and the rename must not outlive a crash of the host that the bytes did not."""
        import os

        if not self.f.closed:
            try:
                self.f.flush()
                os.fsync(self.f.fileno())
            finally:
                self.f.close()

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class VirtualEntropy:
    """Stand-in for the Pico's ring-oscillator and ADC noise: seeded bytes."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def __call__(self, n):
        return bytes(self.rng.getrandbits(8) for _ in range(n))


class VirtualBoard:
    """A whole board of twins, with the drivers built by the firmware's own ``Board``.

    ``switches``, ``strip``, ``pad`` (buttons), ``flash`` and ``entropy`` are
    the twins; ``board`` holds the firmware drivers wired to them.
    """

    def __init__(self, seed=0, **config):
        from pipdrivers.board import Board

        self.switches = VirtualSwitches(seed)
        self.strip = VirtualStrip(geometry.LEDS)
        self.pad = VirtualButtons(seed)
        self.flash = MemFlash()
        self.entropy = VirtualEntropy(seed)
        config.setdefault("led_return", self.strip.returned)
        self.board = Board(self.switches.readinto, self.strip.write, self.pad.read, self.flash, self.entropy, **config)
