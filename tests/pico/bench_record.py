"""Match record timings: appending on the flash, recovering after a cut, exporting a long session.

Runs unchanged on a real Pico with the firmware deployed at the filesystem root:

    mpremote run tests/pico/bench_record.py

and under the unix MicroPython for ``make bench`` (tests/bench/bench_record.py), where
``pipbench`` turns host times into Pico estimates (tests/bench/README.md).

* A 7-point match of random legal plays and cube actions is played by the referee, its
  record written through ``pipdrivers.recstore.MatchStore`` on a littlefs filesystem
  (``vfs.VfsLfs2`` on a RAM block device that counts what littlefs programs and erases, with
  the rp2 port's geometry: 4 KB blocks, 256-byte pages): bytes per action, flash programmed
  and blocks erased per action, time per append (the Pico estimate adds the flash's typical
  page-program and sector-erase times, which a RAM device does not have).
* Recovery: an append cut after every byte (the torn frame and end mark), then what a start
  without its save does: ``recover`` from the last game end; worst time, and every cut must
  give back the whole entries before it.
* Export: a 200-game money session's record (games of the match above, repeated) paged out by
  the protocol handler's ``record`` command, as ``pipboard export`` reads it.

Output: ``record ...`` and ``export ...`` lines of name=value figures as each part ends, a line per budget
ending in PASS or FAIL, then ``RESULT: PASS`` or ``RESULT: FAIL (...)``.
"""

import gc

import pipbench as pb
from pipcore.cube import DROP, TAKE
from pipcore.match import ANSWER, CUBE_OR_ROLL, MATCH_ENDED, OPENING, PLAY, Referee
from pipcore.options import make_options
from pipcore.recwriter import RecordWriter
from pipdrivers.recstore import MatchStore

try:
    import vfs
except ImportError:  # older MicroPython: the VFS classes were in os
    import os as vfs

PAGE_PROGRAM_US = 400  # typical W25Q16 page program (datasheet; max 3 ms)
SECTOR_ERASE_US = 45000  # typical 4 KB sector erase (max 400 ms)


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


class RamBlocks:
    """A block device in RAM counting bytes programmed and blocks erased (littlefs's calls)."""

    def __init__(self, blocks, size=4096):
        self.size = size
        self.data = bytearray(blocks * size)
        self.programmed = 0
        self.erased = 0

    def readblocks(self, n, buf, off=0):
        a = n * self.size + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # the whole block: erase and program
            off = 0
            self.erased += 1
        a = n * self.size + off
        self.data[a:a + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            self.erased += 1
            return 0
        return 0


class MountedFS:
    """The calls MatchStore makes, on a littlefs mounted at ``root``."""

    def __init__(self, root):
        self.root = root
        import os
        self.os = os

    def open(self, path, mode):
        return open(self.root + path, mode)

    def rename(self, old, new):
        self.os.rename(self.root + old, self.root + new)

    def remove(self, path):
        self.os.remove(self.root + path)

    def listdir(self):
        return self.os.listdir(self.root)

    def free(self):
        st = self.os.statvfs(self.root)
        return st[0] * st[3]


class RamFile:
    def __init__(self, fs, path, mode):
        self.fs, self.path, self.pos = fs, path, 0
        if "w" in mode:
            fs.files[path] = bytearray()

    def write(self, data):
        buf = self.fs.files[self.path]
        buf[self.pos:self.pos + len(data)] = data
        self.pos += len(data)

    def read(self, n=-1):
        buf = self.fs.files[self.path]
        out = bytes(buf[self.pos:] if n < 0 else buf[self.pos:self.pos + n])
        self.pos += len(out)
        return out

    def seek(self, offset, whence=0):
        self.pos = offset + (len(self.fs.files[self.path]) if whence == 2 else 0)

    def tell(self):
        return self.pos

    def flush(self):
        pass

    def close(self):
        pass


class RamFS:
    """Files in RAM: on a host, what an append costs on the Python side (the flash's own time is added from
    littlefs's counts; a host's file calls would time its disk)."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        if "w" not in mode and path not in self.files:
            raise OSError(2)
        return RamFile(self, path, mode)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def listdir(self):
        return [p[1:] for p in self.files]


def mount_counting(blocks=96):
    """littlefs on a counting RAM device at /rlfs (a host only: 384 KB of RAM blocks do not fit a Pico)."""
    bdev = RamBlocks(blocks)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/rlfs")
    return bdev


def timing_fs():
    """Where appends are timed: the Pico's own flash (folder /rbench), or files in RAM on a host."""
    if pb.HOST != "pico":
        return RamFS()
    import os
    try:
        os.mkdir("/rbench")
    except OSError:
        pass
    for name in os.listdir("/rbench"):
        os.remove("/rbench/" + name)
    return MountedFS("/rbench")


def cleanup(fs):
    if pb.HOST != "pico":
        return
    import os
    for name in os.listdir("/rbench"):
        os.remove("/rbench/" + name)
    os.rmdir("/rbench")


class Timed:
    """The store's append, timed."""

    def __init__(self, store, mid):
        self.store = store
        self.mid = mid
        self.length = 0
        self.us = 0
        self.appends = 0
        self.frames = []

    def write(self, frame):
        t0 = pb.now_us()
        self.store.append(self.mid, self.length, frame)
        self.us += pb.since_us(t0)
        self.appends += 1
        self.length += len(frame)
        self.frames.append(frame)


def play_match(rng, sink):
    ref = Referee(make_options({"matchLength": 7}), ("White", "Black"), RecordWriter(sink))
    actions = 0
    while ref.phase != MATCH_ENDED:
        ref.new_game()
        while not ref.game_over():
            actions += 1
            if ref.phase == OPENING:
                ref.opening_roll(rng.randrange(6) + 1, rng.randrange(6) + 1)
            elif ref.phase == CUBE_OR_ROLL:
                if ref.cube.may_offer(ref.turn) and rng.randrange(12) == 0:
                    ref.double()
                else:
                    ref.roll((rng.randrange(6) + 1, rng.randrange(6) + 1))
            elif ref.phase == ANSWER:
                ref.cube_action(TAKE if rng.randrange(3) else DROP)
            elif ref.phase == PLAY:
                turn = ref.legal_turn()
                ref.play_code(turn, turn.plays[rng.randrange(len(turn.plays))])
    return ref, actions


def bench_appends(fs):
    programmed = erased = -1
    if pb.HOST != "pico":
        bdev = mount_counting()
        store = MatchStore(MountedFS("/rlfs"))
        sink = Timed(store, store.begin("backgammon", ("White", "Black"), 7))
        p0, e0 = bdev.programmed, bdev.erased
        play_match(Lcg(7), sink)
        programmed = bdev.programmed - p0
        erased = bdev.erased - e0
        store.close_file()
        vfs.umount("/rlfs")
        bdev = None
        gc.collect()
    store = MatchStore(fs)
    mid = store.begin("backgammon", ("White", "Black"), 7)
    sink = Timed(store, mid)
    ref, actions = play_match(Lcg(7), sink)
    n = sink.appends
    append_us = sink.us / n  # (on the Pico: real appends on its flash)
    if pb.HOST != "pico":  # the best of short runs: a shared host disturbs single timings
        frames = sink.frames
        offsets = []
        at = 0
        for f in frames:
            offsets.append(at)
            at += len(f)
        append_us = pb.per_call_us(lambda k: store.append(mid, offsets[k], frames[k]), len(frames), 7)
    print("record games=%d actions=%d appends=%d bytes=%d programmed=%d erased=%d append_us=%.1f"
          % (ref.game_number, actions, n, sink.length, programmed, erased, append_us))
    per_action = sink.length / actions
    pb.verdict(per_action <= 12, "record size: %.1f bytes per action (budget 12)" % per_action)
    flash_us = 0
    if programmed >= 0:
        flash_us = (programmed / 256 * PAGE_PROGRAM_US + erased * SECTOR_ERASE_US) / n
        # littlefs copies the file's last block when a synced file grows again: about one block per append
        pb.verdict(programmed / n <= 4096, "flash programmed per append: %d B, %.3f blocks erased (littlefs, "
                   "256-byte pages; budget one 4 KB block)" % (programmed // n, erased / n))
    pico_ms = (pb.pico_us(append_us, "generation") + flash_us) / 1000
    how = "measured" if pb.HOST == "pico" else "est. %s %d us x %.0f + flash %.1f ms typical" % (
        pb.HOST, append_us, pb.pico_us(1, "generation"), flash_us / 1000)
    pb.verdict(pico_ms <= 60, "time per append: %.1f ms on the Pico (%s; budget 60 ms)" % (pico_ms, how))
    return store, mid, sink


def bench_recovery(store, mid, sink):
    """Cut an append after every byte; recover from the last game end as a start without its save does."""
    frames = sink.frames
    ends = [i for i in range(len(frames)) if frames[i][1] == 69]  # "E": the game ends
    start = 0
    for i in range(ends[-2] + 1):
        start += len(frames[i])
    good = sink.length
    from pipcore.recwriter import frame
    extra = frame(b"M\x00\x18\x12\x0d\x09")  # a play's frame
    worst = 0
    wrong = 0
    fs = store.fs
    path = "/m%05d.rec" % mid
    store.close_file()
    for cut in range(len(extra) + 1):
        f = fs.open(path, "r+b")
        f.seek(good)
        f.write(extra[:cut])  # the append cut after ``cut`` bytes
        f.close()
        again = MatchStore(fs)
        got = again.recover(mid, start)
        us = pb.best_us(lambda a: again.recover(mid, start), None, 2000, 3)  # noqa: B023  (called at once)
        if us > worst:
            worst = us
        whole = good + len(extra) if cut == len(extra) else good
        if got != whole:
            wrong += 1
    print("record recover_cuts=%d recover_us=%d scanned=%d wrong=%d" % (len(extra) + 1, worst, good - start, wrong))
    pb.verdict(wrong == 0, "a cut at every byte of an append: the whole entries before it come back (%d wrong)"
               % wrong)
    pb.check_ms("recovery after a cut (scan of the last game)", worst, "generation", 500)


class Pages:
    """The protocol seam for ``record``: pages of a stored match."""

    def __init__(self, store, mid, total):
        self.store = store
        self.mid = mid
        self.total = total

    def record_page(self, match, offset, n):
        return self.total, self.store.read(self.mid, offset, min(n, self.total - offset))


def bench_export(store, sink):
    """The export figure. The Pico's heap holds the whole app's record code here, so the session is built
    without copies (each game one join of its frames), the match's frames are let go of once copied, and the
    page requests are made one at a time (a list of them and of the replies ran out of heap on the Pico)."""
    import os

    frames = sink.frames
    k = 0
    while frames[k][1] != 71:  # up to the first "G": the header
        k += 1
    head = b"".join(frames[:k])
    games = []
    first = k
    for i in range(k, len(frames)):
        if frames[i][1] == 69:  # "E": a game's last frame
            games.append(b"".join(frames[first:i + 1]))
            first = i + 1
    sink.frames = frames = None  # (the recovery is done with them)
    gc.collect()
    root = None
    if pb.HOST != "pico":  # a finished match is read from its file (a host's files: its RAM holds no record)
        root = "/tmp/pipboard_rbench"
        try:
            os.mkdir(root)
        except OSError:
            pass
        store = MatchStore(MountedFS(root))
    mid = store.begin("backgammon", ("White", "Black"), 0)
    store.append(mid, 0, head)
    length = len(head)
    for i in range(200):
        game = games[i % len(games)]
        store.append(mid, length, game)
        length += len(game)
    store.close_file()
    games = head = None
    gc.collect()
    from pipcore.protocol import ProtocolHandler

    wire = [0]

    def sent(reply):
        wire[0] += len(reply)

    def request(k):
        return b'{"cmd": "record", "match": 1, "offset": %d}\n' % (k * 384)

    handler = ProtocolHandler(Pages(store, mid, length), sent)
    pages = (length + 383) // 384
    handler.feed(request(0))
    # best of short runs (40 pages, about 2 ms on a host: they fit between other jobs' time slices)
    page_us = pb.per_call_us(lambda k: handler.feed(request(k * 10 % pages)), 40, 15 if pb.HOST != "pico" else 3)
    us = page_us * pages
    wire[0] = 0
    for k in range(pages):
        handler.feed(request(k))
    if root:
        for name in os.listdir(root):
            os.remove(root + "/" + name)
        os.rmdir(root)
    print("export games=200 bytes=%d pages=%d board_us=%d wire_bytes=%d" % (length, pages, us, wire[0]))
    usb_ms = wire[0] / 800  # USB CDC full speed, about 800 KB/s in practice
    ms = pb.pico_us(us, "json") / 1000 + usb_ms
    pb.verdict(ms <= 30000, "export of a 200-game money session (%d bytes, %d pages): %.1f s on the Pico "
               "(est. %s %d us x %.0f + USB %.1f s; budget 30 s)"
               % (length, pages, ms / 1000, pb.HOST, us, pb.pico_us(1, "json"), usb_ms / 1000))


def main():
    if not hasattr(vfs, "VfsLfs2"):
        print("record: this MicroPython has no littlefs (vfs.VfsLfs2): nothing measured")
        pb.finish()
        return
    fs = timing_fs()
    store, mid, sink = bench_appends(fs)
    bench_recovery(store, mid, sink)
    bench_export(store, sink)
    store.close_file()
    cleanup(fs)
    pb.finish()


main()
