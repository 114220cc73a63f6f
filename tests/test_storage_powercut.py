"""Storage: a power cut after any unit of work of a save loses nothing complete."""

import pytest
from pipboard.twins import MemFlash, PowerCut
from pipdrivers.storage import AtomicStore, StorageError, decode, encode


def states(n):
    return [("state %d " % i).encode() * (i % 5 + 1) for i in range(n)]


def units_of_save(flash, path, old, new):
    """How many units a save of ``new`` over ``old`` takes on a fresh flash."""
    probe = MemFlash(rename_replaces=flash.rename_replaces)
    store = AtomicStore(probe, path)
    if old is not None:
        store.save(old)
    probe.power_on()
    store.save(new)
    return probe.units


@pytest.mark.parametrize("rename_replaces", [True, False])
def test_cut_after_every_unit_loads_previous_or_new(rename_replaces):
    old, new = b"previous position 4HPwATDgc/ABMA", b"new position after 13/7 8/7 " * 3
    total = units_of_save(MemFlash(rename_replaces), "/state", old, new)
    assert total > len(new)  # every byte of the file is a cut point
    outcomes = set()
    for cut in range(total + 1):
        flash = MemFlash(rename_replaces)
        store = AtomicStore(flash, "/state")
        store.save(old)
        flash.cut_after(cut)
        try:
            store.save(new)
        except PowerCut:
            pass
        flash.power_on()
        loaded = AtomicStore(flash, "/state").load()
        assert loaded in (old, new), (cut, loaded)
        outcomes.add(loaded)
        # And the next save after the restart works and wins.
        again = AtomicStore(flash, "/state")
        again.load()
        again.save(b"after restart")
        assert AtomicStore(flash, "/state").load() == b"after restart"
    assert outcomes == {old, new}


def test_two_cuts_in_a_row_never_go_back():
    """A cut, a restart, a second save cut at every point: never older than the first restart showed."""
    seq = states(3)
    base = units_of_save(MemFlash(), "/s", seq[0], seq[1])
    for first in range(base + 1):
        flash = MemFlash()
        store = AtomicStore(flash, "/s")
        store.save(seq[0])
        flash.cut_after(first)
        try:
            store.save(seq[1])
        except PowerCut:
            pass
        flash.power_on()
        store = AtomicStore(flash, "/s")
        seen = store.load()
        for second in range(0, 2 * base + 4, 3):
            trial = MemFlash()
            trial.files = {k: bytearray(v) for k, v in flash.files.items()}
            st = AtomicStore(trial, "/s")
            st.load()
            trial.cut_after(second)
            try:
                st.save(seq[2])
            except PowerCut:
                pass
            trial.power_on()
            assert AtomicStore(trial, "/s").load() in (seen, seq[2]), (first, second)


def test_empty_flash_loads_none_and_first_save_cut_loads_none_or_new():
    total = units_of_save(MemFlash(), "/r", None, b"record")
    for cut in range(total + 1):
        flash = MemFlash()
        flash.cut_after(cut)
        try:
            AtomicStore(flash, "/r").save(b"record")
        except PowerCut:
            pass
        flash.power_on()
        assert AtomicStore(flash, "/r").load() in (None, b"record")


def test_corruption_is_detected():
    data = encode(7, b"hello")
    assert decode(data) == (7, b"hello")
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x10
        assert decode(bytes(bad)) is None, i
    assert decode(data[:-1]) is None


def test_bad_payloads_raise():
    store = AtomicStore(MemFlash(), "/x")
    with pytest.raises(StorageError, match="bytes, not str"):
        store.save("text")
