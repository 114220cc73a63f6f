"""The match record file: a power cut after any unit of work of an append (or of the save after it).

With the MemFlash twin (one unit per byte written, rename or remove), an append of the match store
is cut at every byte: recovery gives back exactly the whole entries. On the simulated board a whole
commit (the play's entry appended, then the state saved) is cut at every byte: the board resumes at
the save, its record holds exactly the entries that save committed (none lost, none twice), reads
without a torn entry, and the game goes on to the same record as without the cut.
"""

import json
import random

from pipboard.simboard import SimBoard, VirtualPlayer
from pipboard.twins import MemFlash, PowerCut
from pipcore.names import MOVING, OPENING, SETUP, TURN_START
from pipcore.record import read_record
from pipcore.recwriter import frame
from pipdrivers.recstore import MatchStore

BODIES = (b"G", b"I\x03\x01", b"M\x00\x08\x05\x06\x05", b"R\x01\x06\x04", b"M\x01\x18\x12\x0d\x09")


class _Frames:
    def __init__(self):
        self.frames = []

    def write(self, f):
        self.frames.append(bytes(f))


def test_a_cut_at_every_byte_of_an_append_recovers_the_whole_entries():
    from pipcore.options import make_options
    from pipcore.recwriter import RecordWriter

    head = _Frames()
    RecordWriter(head).header(("white", "black"), make_options({"matchLength": 0}))
    frames = head.frames + [frame(b) for b in BODIES]
    new = frame(b"M\x00\x0d\x07\x08\x07")
    before = sum(len(f) for f in frames)
    for rewound in (False, True):
        for cut in range(len(new) + 1):
            flash = MemFlash()
            store = MatchStore(flash)
            mid = store.begin("backgammon", ("white", "black"), 0)
            at = 0
            for f in frames + ([frame(b"C\x00\x01"), frame(b"C\x01\x02")] if rewound else []):
                store.append(mid, at, f)
                at += len(f)
            if rewound:  # a resume rewound the record: the new entry goes over zeros
                store.close_file()
                store = MatchStore(flash)
                store.rewind(mid, before)
            flash.cut_after(cut)
            try:
                store.append(mid, before, new)
            except PowerCut:
                pass
            flash.power_on()
            got = MatchStore(flash).recover(mid, 0)
            assert got == (before + len(new) if cut >= len(new) else before), (rewound, cut, got)
            data = bytes(flash.files["/m00001.rec"][:got])
            assert not read_record(data).torn


def at_turn(seed):
    """A board where the player on roll is about to press ROLL (a turn or two played)."""
    board = SimBoard(seed=seed)
    player = VirtualPlayer(board, random.Random(seed), cut_rate=0.0, wrong_rate=0.0, chatter_rate=0.0,
                           knock_rate=0.0, fast_rate=0.0)
    for _ in range(60):
        ph = board.ctl.phase
        if ph == SETUP:
            board.follow_guidance()
            board.tidy_tall_stacks()
        elif ph == OPENING:
            board.press("ROLL")
        elif ph == TURN_START:
            if board.ctl.accepted >= 1:
                return board
            board.press("ROLL")
        elif ph == MOVING:
            player.play_turn()
    raise AssertionError("no turn reached")


def test_a_cut_at_every_byte_of_a_commit_resumes_with_exactly_the_committed_record():
    """The commit of a roll: its entry appended, then the state saved; cut at every byte of both."""
    probe = at_turn(7)
    committed = bytes(probe.app.ctl.record_bytes())
    units0 = probe.flash.units
    probe.press("ROLL")
    total = probe.flash.units - units0
    rolled = bytes(probe.app.ctl.record_bytes())
    assert total > 20 and len(rolled) == len(committed) + 7  # the roll's entry (R player d1 d2), then the save
    outcomes = set()
    # every byte of the entry and the first of the save, then a sample of the save, and its end
    cuts = sorted(set(list(range(24)) + list(range(24, total - 8, 97)) + list(range(total - 8, total + 1))))
    for cut in cuts:
        b = at_turn(7)  # the same board again (seeded)
        b.flash.cut_after(cut)
        try:
            b.press("ROLL")
        except PowerCut:
            pass
        b.power_cut()
        b.power_on()
        saved = json.loads(b.saved_at_boot)
        assert json.loads(b.resumed_state) == saved  # the state a resume reads, whole
        rec = bytes(b.app.ctl.record_bytes())
        assert len(rec) == saved["rec"][1], cut  # exactly what the save committed
        assert not read_record(rec).torn
        if b.ctl.phase == TURN_START:  # the save from before the roll: it is rolled again, recorded once
            outcomes.add("before")
            assert rec == committed, cut
            b.press("ROLL")
        else:
            outcomes.add("after")
            assert rec == rolled, cut
        again = bytes(b.app.ctl.record_bytes())
        assert again.startswith(committed) and len(again) == len(committed) + 7, cut  # none lost, none twice
        entries = read_record(again).entries
        assert entries[-1][0] == "roll" and entries[:-1] == read_record(committed).entries
    assert outcomes == {"before", "after"}
