"""Storage round trips on a minimal in-memory filesystem (CPython and MicroPython).

The power-cut sweep over every byte is in tests/test_storage_powercut.py
(CPython, with the MemFlash twin).
"""

from pipdrivers.storage import AtomicStore, decode, encode


class File:
    def __init__(self, fs, path, write):
        self.fs, self.path = fs, path
        self.pos = 0
        if write:
            fs.files[path] = bytearray()

    def write(self, data):
        self.fs.files[self.path] += data

    def read(self, n=-1):
        data = self.fs.files[self.path]
        chunk = bytes(data[self.pos:] if n < 0 else data[self.pos:self.pos + n])
        self.pos += len(chunk)
        return chunk

    def flush(self):
        pass

    def close(self):
        pass


class FS:
    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        if "w" not in mode and path not in self.files:
            raise OSError(2)
        return File(self, path, "w" in mode)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]


def test_round_trip_and_sequence():
    fs = FS()
    store = AtomicStore(fs, "/state.pb")
    assert store.load() is None
    assert store.save(b"one") == 1
    assert store.save(bytearray(b"two")) == 2
    assert AtomicStore(fs, "/state.pb").load() == b"two"
    assert sorted(fs.files) == ["/state.pb"]


def test_complete_tmp_left_by_a_cut_wins_and_is_promoted():
    fs = FS()
    store = AtomicStore(fs, "/s")
    store.save(b"old")
    fs.files["/s.tmp"] = bytearray(encode(2, b"new"))
    assert AtomicStore(fs, "/s").load() == b"new"
    store = AtomicStore(fs, "/s")
    store.save(b"newer")
    assert store.seq == 3
    assert AtomicStore(fs, "/s").load() == b"newer"


def test_torn_tmp_is_ignored():
    fs = FS()
    store = AtomicStore(fs, "/s")
    store.save(b"kept")
    fs.files["/s.tmp"] = bytearray(encode(9, b"torn save")[:-3])
    assert AtomicStore(fs, "/s").load() == b"kept"
    assert decode(b"PBS1") is None
