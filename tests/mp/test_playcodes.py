"""The play store: a double's plays written into one array kept by the app (CPython and MicroPython)."""

import gc

from pipcore.playcodes import CodeStore, play_store
from pipcore.position import Position
from pipcore.rules import Turn

# doubles with many plays, a bar entry, a bear-off, a forced partial double, the start
DOUBLES = (
    ("IAKI6H+klFJKKQ", (1, 1)),  # 2,226 plays
    ("O9TEBQgXVuKABQ", (6, 6)),
    ("wD+vAQCXFQEAAA", (1, 1)),
    ("BwL4fQAAHIAAAA", (3, 3)),
    ("4HPwATDgc/ABMA", (2, 2)),
    ("AASB6n9QpYpKKQ", (2, 2)),
)


def test_a_store_is_empty_with_room():
    store = play_store(64)
    assert len(store) == 0
    for i in range(64):
        store.append(i)
    assert list(store) == list(range(64))


def test_the_shorter_plays_found_first_are_cut_off_in_place():
    found = CodeStore(play_store(16))
    for code in (1, 2, 3, 10, 11, 12, 13):
        found.codes.append(code)
    found.start = 3  # 1, 2, 3 were shorter than the plays found after them
    plays = found.plays()
    assert plays is found.codes and list(plays) == [10, 11, 12, 13]
    again = CodeStore(plays)  # the next roll empties it again
    assert len(again.codes) == 0 and again.plays() is plays


def test_turns_in_a_store_have_the_plays_of_turns_without():
    store = play_store(2304)
    for pid, dice in DOUBLES:
        pos = Position.from_id(pid)
        alone = list(Turn(pos, dice).plays)
        turn = Turn(pos, dice, store)
        assert list(turn.plays) == alone, pid
        assert len(alone) == 1 or turn.plays is store, pid


def test_a_store_stops_the_plays_from_growing_the_heap():
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: nothing to measure
    pos = Position.from_id("IAKI6H+klFJKKQ")
    store = play_store(2304)
    Turn(pos, (1, 1), store)  # anything loaded on first use is loaded now
    gc.collect()
    before = gc.mem_alloc()
    turn = Turn(pos, (1, 1), store)
    with_store = gc.mem_alloc() - before
    assert len(turn.plays) == 2226
    gc.collect()
    before = gc.mem_alloc()
    Turn(pos, (1, 1))
    without = gc.mem_alloc() - before
    # the 2,226 codes take 8.9 KB; in the store none of it is allocated (frames and the Turn remain)
    assert without - with_store > 8000, (with_store, without)
