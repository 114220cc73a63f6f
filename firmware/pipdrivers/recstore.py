"""The match records on the flash: one append-only file per match, and a directory of past matches.

Every match (a money session is one match, however long) has its record
file ``/mNNNNN.rec`` (``pipcore.record`` frames, appended one action at a
time) and a small directory entry ``/mNNNNN.inf`` (JSON through the atomic
store: players, date, match length, games, score, bytes, exported bytes,
open/closed). The board never holds a record in RAM: ``append`` writes one
frame where the match's committed length says, ``read`` returns one page.

Power cuts. Each append writes one frame at the match's length and flushes:
at the end of the file, a plain append for littlefs (no block is copied; a
frame written over older bytes would copy the whole 4 KB block). Who owns
the length:

* the live match: the state save (``pipcore.keeper``) holds the committed
  length, and **the save wins**: at resume the record is rewound to it, the
  bytes after it (frames of actions the resumed game will play again, a
  torn frame) overwritten with zeros, so the file always reads
  ``whole frames | zeros``;
* a match whose state save is gone (a fresh start): ``recover`` walks the
  frames from the last length the directory holds (updated at every game
  end) and stops at a zero, at the end of the file, or at a last frame
  whose CRC fails (a torn append): the torn entry is dropped. Only the last
  frame needs its CRC checked: every frame before it was written whole
  before the next one began.

Space. ``free()`` asks the filesystem; ``make_room()`` deletes the oldest
closed matches already exported whole until ``LOW_SPACE`` bytes are free,
never one not exported (the host deletes those on request:
``remove``). Appends stop ``RESERVE`` bytes before the flash is full, so
the state save always has room.

The filesystem is injected (``open``, ``rename``, ``remove``, ``listdir``,
``free``): ``pipdrivers.flashfs.FlashFS`` on the Pico,
``pipboard.twins.MemFlash`` / ``FolderFlash`` on the host.
"""

import json

from pipcore.compat import const
from pipdrivers.storage import AtomicStore

PREFIX = "m"
LOW_SPACE = const(128 * 1024)  # below this the board warns (and deletes exported matches first)
RESERVE = const(32 * 1024)  # appends stop here: the state save always finds room
_SCAN = const(256)  # bytes read at a time by recover()
_ENOSPC = const(28)


def _name(mid, ext):
    s = str(mid)
    return "/" + PREFIX + "0" * (5 - len(s)) + s + ext


class MatchStore:
    """The records and directory of one board's flash (see the module docstring)."""

    def __init__(self, fs):
        self.fs = fs
        self._file = None  # the one open record file: (id, handle, position)
        self._fid = 0
        self._pos = -1
        self._free = None  # bytes free at the last check, less what was appended since
        self.now_s = None  # seconds since 1970 (UTC) when a host gave the time, else None
        self.live = 0  # the match the board is playing (never deleted, never recovered)
        self._swept = False  # matches left open by a lost save closed (once a power-up: see begin)

    # -- the directory -------------------------------------------------------
    def ids(self):
        """The ids of the matches on the flash, oldest first."""
        out = []
        try:
            names = self.fs.listdir()
        except OSError:
            return out
        for name in names:
            name = name.lstrip("/")
            if name.startswith(PREFIX) and name.endswith(".inf") and len(name) == 10 and name[1:6].isdigit():
                out.append(int(name[1:6]))
        out.sort()
        return out

    def info(self, mid):
        """The directory entry of match ``mid`` (a dict), or None."""
        try:
            payload = AtomicStore(self.fs, _name(mid, ".inf")).load()
            return json.loads(payload) if payload else None
        except (OSError, ValueError):
            return None

    def set_info(self, mid, info):
        AtomicStore(self.fs, _name(mid, ".inf")).save(json.dumps(info).encode())

    def begin(self, variant, players, length):
        """A new match: its directory entry and an empty record file; returns its id.

        A match left open by a start that lost its state save is closed first, with the whole entries
        its record holds (``recover``). Only the first new match of a power-up looks: after it every
        match but the live one was closed by this board (reading every entry at each new match cost
        22 ms a match on the Pico, 1.6 s with the 75 matches a flash holds after a day of tests)."""
        if not self._swept:
            for old in self.ids():
                if old != self.live:
                    info = self.info(old)
                    if info is not None and info.get("open"):
                        self.close(old, self.recover(old, info.get("bytes", 0)), info.get("games", 0),
                                   info.get("score", (0, 0)))
            self._swept = True
        self.make_room()
        ids = self.ids()
        mid = ids[-1] + 1 if ids else 1
        if mid > 99999:
            raise OSError(_ENOSPC, "match numbers exhausted")
        self.close_file()
        f = self.fs.open(_name(mid, ".rec"), "wb")
        f.close()
        self.set_info(mid, {"id": mid, "variant": variant, "players": list(players), "length": length,
                            "date": self.now_s, "games": 0, "score": [0, 0], "bytes": 0, "exported": 0,
                            "open": True})
        return mid

    def close(self, mid, length, games, score):
        """The live match ends (a new one starts): its entry gets the committed length, closed."""
        info = self.info(mid)
        if info is None:
            return
        info["bytes"] = length
        info["games"] = games
        info["score"] = list(score)
        info["open"] = False
        self.set_info(mid, info)
        if self._file is not None and self._fid == mid:
            self.close_file()

    def game_over(self, mid, length, games, score):
        """A game ended: the entry keeps the length, so a lost state save loses at most one game."""
        info = self.info(mid)
        if info is None:
            return
        info["bytes"] = length
        info["games"] = games
        info["score"] = list(score)
        if info.get("date") is None and self.now_s is not None:
            info["date"] = self.now_s
        self.set_info(mid, info)
        self._free = None  # look at the filesystem again

    def stopped(self, mid, game, why):
        """The record of match ``mid`` stopped in game ``game`` (``why``: the flash is full): the entry says so."""
        info = self.info(mid)
        if info is None:
            return
        info["stopped"] = why
        info["stopped_game"] = game
        self.set_info(mid, info)

    def mark_exported(self, mid, length):
        info = self.info(mid)
        if info is None:
            raise ValueError("no match %d on the board" % mid)
        info["exported"] = length
        self.set_info(mid, info)

    def remove(self, mid):
        if self._file is not None and self._fid == mid:
            self.close_file()
        for ext in (".rec", ".inf", ".inf.tmp"):
            try:
                self.fs.remove(_name(mid, ext))
            except OSError:
                pass
        self._free = None

    def recover(self, mid, start=0):
        """Bytes of whole frames from ``start`` on (after a lost save): stops at a zero, the end of the
        file or a torn last frame (dropped)."""
        try:
            f = self.fs.open(_name(mid, ".rec"), "rb")
        except OSError:
            return start
        try:
            f.seek(start)
            good = start
            last = -1  # offset of the last frame that fits by its length
            buf = b""
            base = start  # file offset of buf[0]
            while True:
                i = good - base
                if i < len(buf):
                    n = buf[i]
                    if n == 0 or n == 0xFF:  # zeros after a rewind, or erased flash
                        break
                    if i + n + 3 <= len(buf):
                        last = good
                        good += n + 3
                        continue
                more = f.read(_SCAN)
                if not more:
                    break  # the end of the file (inside a frame: it is torn)
                buf = buf[i:] + more
                base = good
            if last < 0:
                return good
            f.seek(last)
            whole = f.read(good - last)
            from pipcore.recwriter import crc16

            crc = crc16(whole[:-2])
            if whole[-2] != crc >> 8 or whole[-1] != crc & 0xFF:
                return last  # the last frame is torn (zeros or old bytes where its end should be)
            return good
        finally:
            f.close()

    # -- space ---------------------------------------------------------------
    def free(self):
        """Bytes free on the flash (None where the filesystem cannot say)."""
        fn = getattr(self.fs, "free", None)
        if fn is None:
            return None
        try:
            return fn()
        except OSError:
            return None

    def low(self):
        free = self.free()
        return free is not None and free < LOW_SPACE

    def make_room(self):
        """Delete the oldest closed matches exported whole until LOW_SPACE is free; True when it is."""
        free = self.free()
        if free is None or free >= LOW_SPACE:
            return True
        for mid in self.ids():
            if mid == self.live:
                continue
            info = self.info(mid)
            if info is None or info.get("open") or info.get("exported", 0) < info.get("bytes", 0):
                continue
            self.remove(mid)
            free = self.free()
            if free is None or free >= LOW_SPACE:
                return True
        return False

    # -- the record file -------------------------------------------------------
    def close_file(self):
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
        self._file = None
        self._fid = 0
        self._pos = -1

    def _open(self, mid):
        if self._file is not None and self._fid == mid:
            return self._file
        self.close_file()
        path = _name(mid, ".rec")
        try:
            f = self.fs.open(path, "r+b")
        except OSError:
            f = self.fs.open(path, "wb")  # (a record file lost: the entries start again where the save says)
        self._file = f
        self._fid = mid
        self._pos = -1
        return f

    def append(self, mid, offset, data):
        """Write ``data`` (whole frames) at ``offset`` of match ``mid``'s record and flush (at the end of the
        file: a plain append). Raises OSError (the flash is full: RESERVE reached, or failing)."""
        if self._free is None:
            self._free = self.free()
        if self._free is not None and self._free - len(data) < RESERVE:
            raise OSError(_ENOSPC, "the flash is full: the match record stops here")
        try:
            f = self._open(mid)
            if self._pos != offset:
                f.seek(offset)
            f.write(data)
            f.flush()
        except OSError:
            self.close_file()  # the next append opens and seeks again
            raise
        self._pos = offset + len(data)
        if self._free is not None:
            self._free -= len(data)

    def rewind(self, mid, offset):
        """The live match resumes at ``offset`` (the state save's length): the bytes after it become zeros,
        so only whole frames are ever read before them (at most a few frames: those since the last save)."""
        f = self._open(mid)
        f.seek(0, 2)
        end = f.tell()
        if end > offset:
            f.seek(offset)
            left = end - offset
            while left > 0:
                k = left if left < 64 else 64
                f.write(bytes(k))
                left -= k
            f.flush()
        f.seek(offset)
        self._pos = offset

    def read(self, mid, offset, n):
        """At most ``n`` bytes of match ``mid``'s record from ``offset`` (a page for the host)."""
        if self._file is not None and self._fid == mid:
            f = self._file
            f.flush()
            f.seek(offset)
            data = f.read(n)
            f.seek(self._pos if self._pos >= 0 else offset)
            return data
        f = self.fs.open(_name(mid, ".rec"), "rb")
        try:
            f.seek(offset)
            return f.read(n)
        finally:
            f.close()
