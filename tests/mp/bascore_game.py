"""A whole Back Alley scorekeeper game in a small heap, with a power cut after every deal.

Run by tests/test_bascore_heap.py under the unix MicroPython with a fixed heap
(``-X heapsize``) and the firmware as .mpy files, as on the Pico. Prints the
heap the import takes and the most a game holds; exits 1 on any failure.
"""

import gc
import json
import sys

gc.collect()
base = gc.mem_alloc()
from pipcore.bascore import TRICKS, TRUMP, ScoreKeeper  # noqa: E402

gc.collect()
code = gc.mem_alloc() - base


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def play(seed):
    rng = Lcg(seed)
    keeper = ScoreKeeper(seed % 4)
    most = 0
    cuts = 0
    while not keeper.is_over():
        if keeper.phase == TRUMP:
            keeper.key_trump(rng.randrange(4))
        elif keeper.phase == TRICKS:
            left = keeper.hand_size - sum(keeper.keyed_tricks)
            keeper.key_tricks(left if len(keeper.keyed_tricks) == 3 else rng.randrange(left + 1))
            if keeper.phase != TRICKS:  # a deal ended: the board saves, and the power goes
                saved = json.dumps(keeper.snapshot())
                keeper = None
                gc.collect()
                keeper = ScoreKeeper.restore(json.loads(saved))
                cuts += 1
        else:
            h = keeper.hand_size
            if h == 1:
                keeper.key_call(-1 if rng.randrange(2) else 0)  # Board or Pass
            else:
                keeper.key_call(0 if rng.randrange(3) == 0 else 1 + rng.randrange(min(h - 1, 3)))
        gc.collect()
        most = max(most, gc.mem_alloc() - base - code)
    return keeper, most, cuts


try:
    keeper, most, cuts = play(5)
    assert keeper.is_over() and len([r for r in keeper.rows if not r.redeal]) == 25 and cuts >= 25
    print("bascore code=%d game=%d save=%d cuts=%d" % (code, most, len(json.dumps(keeper.snapshot())), cuts))
except MemoryError as exc:
    print("MemoryError", exc)
    sys.exit(1)
