"""Atomic saves on the flash filesystem: a power cut never leaves a torn save.

A save is written whole to ``PATH.tmp`` (flushed and closed), then renamed
over ``PATH`` (littlefs renames atomically).  Each file carries a header, a
sequence number and a SHA-256 checksum::

    b"PBS1" | seq (4 bytes, big-endian) | length (4) | payload | sha256[:8]

``load()`` reads both files, drops any that is short, torn or corrupt, and
returns the payload with the highest sequence number.  So after a cut at
any byte of ``save()`` it returns the previous complete save or the new one.
A complete ``.tmp`` left by a cut between write and rename is promoted by
``load()`` (or, if nothing was loaded, by ``save()`` before it writes), so a
second cut cannot fall back behind it. Once a store has loaded or written
``PATH`` itself it knows what is there and a save reads nothing back.

The filesystem is injected: an object with ``open(path, mode)``,
``rename(old, new)`` and ``remove(path)`` (``pipdrivers.flashfs.FlashFS``
on the Pico, ``pipboard.twins.MemFlash`` on the host, which can cut the
power after any number of written bytes).
"""

import hashlib

from pipcore.compat import const

MAGIC = b"PBS1"
_HEADER = const(12)
_SUM = const(8)
MAX_PAYLOAD = const(256 * 1024)
_PIECE = const(128)  # bytes read at a time when an old save is checked (small: any hole of a used heap takes it)


class StorageError(ValueError):
    """A payload that cannot be saved (wrong type, too large)."""


def _checksum(data):
    return hashlib.sha256(data).digest()[:_SUM]


def _head(seq, n):
    return MAGIC + bytes(((seq >> 24) & 255, (seq >> 16) & 255, (seq >> 8) & 255, seq & 255,
                          (n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255))


def encode(seq, payload):
    """The bytes of one save file."""
    body = _head(seq, len(payload)) + bytes(payload)
    return body + _checksum(body)


def decode(data):
    """``(seq, payload)`` of a complete save file, or None if torn or corrupt."""
    if data is None or len(data) < _HEADER + _SUM or data[:4] != MAGIC:
        return None
    seq = (data[4] << 24) | (data[5] << 16) | (data[6] << 8) | data[7]
    n = (data[8] << 24) | (data[9] << 16) | (data[10] << 8) | data[11]
    if len(data) != _HEADER + n + _SUM:
        return None
    body = data[: _HEADER + n]
    if _checksum(body) != data[_HEADER + n :]:
        return None
    return seq, bytes(data[_HEADER : _HEADER + n])


class AtomicStore:
    """One named save (the game state, or the game record)."""

    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.tmp = path + ".tmp"
        self.seq = 0  # sequence number of the newest complete save seen
        self._known = False  # PATH holds save ``seq``, complete, and no newer .tmp is left: no need to look

    def _read(self, path):
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        except OSError:
            return None
        finally:
            f.close()

    def _versions(self):
        main = decode(self._read(self.path))
        tmp = decode(self._read(self.tmp))
        return main, tmp

    def load(self):
        """The newest complete payload (bytes), or None if there is none."""
        main, tmp = self._versions()
        best = main
        self._known = False
        if tmp is not None and (best is None or tmp[0] > best[0]):
            best = tmp
            try:
                self._replace()  # a cut fell between write and rename: finish it now
                self._known = True
            except OSError:
                pass
        elif best is not None:
            self._known = True
        if best is None:
            return None
        self.seq = best[0]
        return best[1]

    def save(self, payload):
        """Write ``payload`` (bytes) so that a power cut at any point loses nothing complete.

        Nothing payload-sized is allocated: the old saves are checked in
        pieces, and header, payload and checksum are written one after the
        other (a save on the Pico must not need several copies of the state).
        """
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            raise StorageError("a save is bytes, not %s" % type(payload).__name__)
        n = len(payload)
        if n > MAX_PAYLOAD:
            raise StorageError("a save is at most %d bytes, not %d" % (MAX_PAYLOAD, n))
        if self._known:  # this store wrote or loaded PATH itself: nothing on the flash to check
            newest = self.seq
        else:
            newest = self._seq_of(self.path) or 0
            tmp = self._seq_of(self.tmp)
            if tmp is not None and tmp > newest:
                self._replace()  # a cut fell between write and rename: finish it first
                newest = tmp
            else:
                self._remove(self.tmp)
        seq = max(newest, self.seq) + 1
        self._known = False  # until the new save is in place
        head = _head(seq, n)
        h = hashlib.sha256(head)
        h.update(payload)
        f = self.fs.open(self.tmp, "wb")
        try:
            f.write(head)
            f.write(payload)
            f.write(h.digest()[:_SUM])
            f.flush()
        finally:
            f.close()
        self._replace()
        self.seq = seq
        self._known = True
        return seq

    def _seq_of(self, path):
        """The sequence number of the complete save at ``path`` (checked in pieces), or None."""
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            head = f.read(_HEADER)
            if head is None or len(head) != _HEADER or head[:4] != MAGIC:
                return None
            left = (head[8] << 24) | (head[9] << 16) | (head[10] << 8) | head[11]
            h = hashlib.sha256(head)
            while left > 0:
                chunk = f.read(_PIECE if left > _PIECE else left)
                if not chunk:
                    return None
                h.update(chunk)
                left -= len(chunk)
            if f.read(_SUM + 1) != h.digest()[:_SUM]:  # (a longer file is not a save either)
                return None
            return (head[4] << 24) | (head[5] << 16) | (head[6] << 8) | head[7]
        except OSError:
            return None
        finally:
            f.close()

    def _replace(self):
        try:
            self.fs.rename(self.tmp, self.path)
        except OSError:  # a filesystem whose rename does not replace
            self._remove(self.path)
            self.fs.rename(self.tmp, self.path)

    def _remove(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass
