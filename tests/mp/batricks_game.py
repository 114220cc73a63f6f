"""A whole Back Alley game in referee mode in a fixed heap, with power cuts, as the board would run it.

Run by tests/test_batricks_heap.py under the unix MicroPython with a fixed
heap (``-X heapsize``) and the firmware as .mpy files, as on the Pico. The
game comes from a file written by the test with the card engine on CPython
(so only the board's modules are loaded here), one line a deal::

    TRUMP CALLS CARDS

``TRUMP`` 0-3 or 4 (a joker: no trump), ``CALLS`` one hex digit each in
bidding order (f Board), ``CARDS`` two hex digits a card in play order, 40
added to a trump led on the leader's word (empty for a redeal). Every card
goes through ``Tricks.play``; the keeper is fed at the end of each deal; the
power goes every 5 cards (both saves as JSON, everything dropped, both
restored). Prints the heap the import takes, the most a game holds, the
largest save and the slowest card; exits 1 on any failure.
"""

import gc
import json
import sys
import time

gc.collect()
base = gc.mem_alloc()
from pipcore import batricks  # noqa: E402
from pipcore.bascore import ScoreKeeper  # noqa: E402

gc.collect()
code = gc.mem_alloc() - base


def run(path):
    keeper = ScoreKeeper(0, None, True)
    tricks = None
    most = 0
    cuts = 0
    save = 0
    slowest = 0
    cards_keyed = 0
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            trump = int(words[0])
            keeper.key_trump(-1 if trump == 4 else trump)
            for ch in words[1]:
                v = int(ch, 16)
                keeper.key_call(-1 if v == 15 else v)
            tricks = batricks.current(keeper, tricks)
            cards = words[2] if len(words) > 2 else ""
            for i in range(0, len(cards), 2):
                v = int(cards[i:i + 2], 16)
                t0 = time.ticks_us()
                tricks.play(v & 63, bool(v & 64))
                slowest = max(slowest, time.ticks_diff(time.ticks_us(), t0))
                cards_keyed += 1
                if cards_keyed % 5 == 0:  # the board saves, and the power goes
                    saved = json.dumps({"keeper": keeper.snapshot(), "tricks": tricks.snapshot()})
                    save = max(save, len(saved))
                    keeper = tricks = None
                    gc.collect()
                    data = json.loads(saved)
                    keeper = ScoreKeeper.restore(data["keeper"])
                    tricks = batricks.resume(keeper, data["tricks"])
                    data = saved = None
                    cuts += 1
                gc.collect()
                most = max(most, gc.mem_alloc() - base - code)
            tricks = batricks.current(keeper, tricks)
    return keeper, most, cuts, save, slowest, cards_keyed


try:
    keeper, most, cuts, save, slowest, n = run(sys.argv[1])
    assert keeper.is_over(), keeper.prompt()
    print("batricks code=%d game=%d save=%d cuts=%d cards=%d slowest_us=%d scores=%d,%d" % (
        code, most, save, cuts, n, slowest, keeper.scores[0], keeper.scores[1]))
except MemoryError as exc:
    print("MemoryError", exc)
    sys.exit(1)
