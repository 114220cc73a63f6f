"""The match store (pipdrivers.recstore) on a minimal in-memory filesystem (CPython and MicroPython).

The power-cut sweeps over every byte of an append are in tests/test_record_powercut.py (CPython,
with the MemFlash twin).
"""

from pipcore.recwriter import frame
from pipdrivers import recstore
from pipdrivers.recstore import MatchStore


class File:
    def __init__(self, fs, path, mode):
        self.fs, self.path = fs, path
        self.pos = 0
        if "w" in mode:
            fs.files[path] = bytearray()

    def write(self, data):
        buf = self.fs.files[self.path]
        if self.fs.capacity is not None and self.pos + len(data) > len(buf) and \
                self.fs.used() + self.pos + len(data) - len(buf) > self.fs.capacity:
            raise OSError(28)
        buf[self.pos:self.pos + len(data)] = data
        self.pos += len(data)
        self.fs.writes += len(data)

    def read(self, n=-1):
        data = self.fs.files[self.path]
        chunk = bytes(data[self.pos:] if n < 0 else data[self.pos:self.pos + n])
        self.pos += len(chunk)
        return chunk

    def seek(self, offset, whence=0):
        self.pos = offset + (len(self.fs.files[self.path]) if whence == 2 else 0)

    def tell(self):
        return self.pos

    def flush(self):
        self.fs.flushes += 1

    def close(self):
        pass


class FS:
    def __init__(self, capacity=None):
        self.files = {}
        self.capacity = capacity
        self.writes = 0
        self.flushes = 0

    def open(self, path, mode):
        if "w" not in mode and path not in self.files:
            raise OSError(2)
        return File(self, path, mode)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def listdir(self):
        return [p[1:] for p in self.files]

    def used(self):
        return sum([len(b) for b in self.files.values()])

    def free(self):
        return (self.capacity if self.capacity is not None else 1 << 24) - self.used()


ENTRIES = (b"G", b"I\x03\x01", b"M\x00\x08\x05\x06\x05", b"R\x01\x06\x04", b"M\x01\x18\x12\x0d\x09",
           b"E\x00\x01\x00\x01")


def test_append_read_and_one_flush_per_action():
    fs = FS()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    assert mid == 1 and store.ids() == [1]
    length = 0
    flushes = fs.flushes
    for body in ENTRIES:
        f = frame(body)
        store.append(mid, length, f)
        length += len(f)
    assert fs.flushes - flushes == len(ENTRIES)  # one write and one flush per action
    data = store.read(mid, 0, length)
    assert data == b"".join([frame(b) for b in ENTRIES])
    assert len(fs.files["/m00001.rec"]) == length  # appended at the end, nothing more
    assert store.read(mid, 3, 4) == data[3:7]  # a page
    assert store.recover(mid, 0) == length


def test_rewind_drops_what_the_save_did_not_commit():
    fs = FS()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    a, b, c = frame(ENTRIES[0]), frame(ENTRIES[1]), frame(ENTRIES[2])
    store.append(mid, 0, a)
    store.append(mid, len(a), b)
    store.append(mid, len(a) + len(b), c)
    store.close_file()  # a power cut: the handle is gone
    again = MatchStore(fs)
    again.rewind(mid, len(a))  # the save had committed only the first frame
    assert fs.files["/m00001.rec"][len(a):] == bytearray(len(b) + len(c))  # what followed became zeros
    assert again.recover(mid, 0) == len(a)
    d = frame(ENTRIES[3])
    again.append(mid, len(a), d)
    assert again.read(mid, 0, len(a) + len(d)) == a + d
    assert again.recover(mid, 0) == len(a) + len(d)  # the zeros after it end the walk


def test_a_torn_frame_in_the_zeros_of_a_rewind_is_dropped():
    fs = FS()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    a, b = frame(ENTRIES[0]), frame(ENTRIES[2])
    store.append(mid, 0, a)
    store.append(mid, len(a), b)
    store.rewind(mid, len(a))
    d = frame(ENTRIES[4])  # longer than b: it fits only partly in the zeros
    fs.files["/m00001.rec"][len(a):len(a) + 4] = d[:4]  # cut after 4 bytes of its append
    assert MatchStore(fs).recover(mid, 0) == len(a)


def test_recover_drops_a_torn_last_frame_at_every_length():
    whole = frame(ENTRIES[2])
    for cut in range(len(whole) + 1):
        fs = FS()
        store = MatchStore(fs)
        mid = store.begin("backgammon", ("white", "black"), 0)
        first = frame(ENTRIES[0])
        store.append(mid, 0, first)
        fs.files["/m00001.rec"][len(first):] = whole[:cut]  # the append cut after ``cut`` bytes
        got = MatchStore(fs).recover(mid, 0)
        assert got == (len(first) + len(whole) if cut == len(whole) else len(first)), (cut, got)


def test_a_corrupt_byte_stops_recovery_there():
    fs = FS()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    a, b = frame(ENTRIES[0]), frame(ENTRIES[2])
    store.append(mid, 0, a)
    store.append(mid, len(a), b)
    fs.files["/m00001.rec"][len(a) + 3] ^= 0x40
    assert store.recover(mid, 0) == len(a)


def test_directory_entries_and_closing():
    fs = FS()
    store = MatchStore(fs)
    store.now_s = 1764590000
    mid = store.begin("backgammon", ("white", "black"), 5)
    info = store.info(mid)
    assert info["length"] == 5 and info["date"] == 1764590000 and info["open"] and info["exported"] == 0
    store.game_over(mid, 40, 1, (0, 2))
    assert store.info(mid)["games"] == 1 and store.info(mid)["score"] == [0, 2] and store.info(mid)["bytes"] == 40
    store.close(mid, 55, 1, (0, 2))
    assert not store.info(mid)["open"] and store.info(mid)["bytes"] == 55
    assert store.begin("backgammon", ("white", "black"), 0) == 2
    assert store.ids() == [1, 2]
    store.remove(1)
    assert store.ids() == [2] and "/m00001.rec" not in fs.files


def test_a_match_left_open_by_a_lost_save_is_closed_with_its_whole_entries():
    fs = FS()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    length = 0
    for body in ENTRIES[:4]:
        store.append(mid, length, frame(body))
        length += len(frame(body))
    fs.files["/m00001.rec"][length:] = frame(ENTRIES[4])[:3]  # a torn append, then the save was lost
    again = MatchStore(fs)
    assert again.begin("backgammon", ("white", "black"), 0) == 2
    info = again.info(1)
    assert not info["open"] and info["bytes"] == length


def test_only_the_first_new_match_of_a_power_up_reads_the_directory():
    fs = FS()
    store = MatchStore(fs)
    for k in range(6):
        store.close(store.begin("backgammon", ("white", "black"), 0), 0, 0, (0, 0))
    reads = []
    opened = fs.open

    def counting_open(path, mode):
        if "r" in mode and path.endswith(".inf"):
            reads.append(path)
        return opened(path, mode)

    fs.open = counting_open
    again = MatchStore(fs)  # a power-up: the first new match looks at every entry
    mid = again.begin("backgammon", ("white", "black"), 0)
    assert len(reads) >= 6, reads
    del reads[:]
    again.close(mid, 0, 0, (0, 0))
    del reads[:]
    assert again.begin("backgammon", ("white", "black"), 0) == 8
    assert [p for p in reads if p != "/m00008.inf"] == [], reads  # no other match's entry: a new game stays quick


def test_the_oldest_exported_match_goes_first_never_one_not_exported():
    fs = FS(capacity=recstore.LOW_SPACE + 4000)
    store = MatchStore(fs)
    ids = []
    for k in range(3):
        mid = store.begin("backgammon", ("white", "black"), 0)
        store.append(mid, 0, frame(b"G") * 50)
        store.close(mid, 150, 1, (1, 0))
        ids.append(mid)
    store.mark_exported(ids[1], 150)  # the second only
    store.mark_exported(ids[2], 100)  # the third only in part: not deletable
    fs.files["/filler"] = bytearray(fs.free() - recstore.LOW_SPACE + 1000)  # the flash fills up
    assert store.low()
    assert not store.make_room()  # not enough even after deleting what may go
    assert store.ids() == [ids[0], ids[2]]  # only the one exported whole went
    store.mark_exported(ids[0], 150)
    del fs.files["/filler"]
    fs.files["/filler"] = bytearray(fs.free() - recstore.LOW_SPACE + 10)
    store.live = ids[2]
    store.mark_exported(ids[2], 150)
    assert store.make_room()
    assert store.ids() == [ids[2]]  # the oldest went; the match being played stays however exported


def test_appends_stop_before_the_reserve_of_the_state_save():
    fs = FS(capacity=recstore.RESERVE + 1000)
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("white", "black"), 0)
    length = 0
    refused = False
    for _ in range(100):
        f = frame(ENTRIES[2])
        try:
            store.append(mid, length, f)
        except OSError:
            refused = True
            break
        length += len(f)
    assert refused and length > 500 and fs.free() >= recstore.RESERVE - 1  # (the end mark)
    assert store.recover(mid, 0) == length  # every frame before the refusal is whole


def test_a_record_stopped_by_a_full_flash_is_in_its_directory_entry():
    from pipcore.keeper import RecordKeeper

    fs = FS(capacity=recstore.RESERVE + 1000)
    keeper = RecordKeeper("backgammon", MatchStore(fs))
    assert keeper.writer(("white", "black"), 0) is not None
    for _ in range(100):
        if keeper.stopped:
            break
        keeper.write(frame(ENTRIES[2]))
    why = "the flash is full: the match record stops here"
    assert keeper.stopped and keeper.failed == "the match record stopped (%s)" % why
    info = keeper.store.info(keeper.mid)
    assert info["stopped"] == why and info["stopped_game"] == 1
