"""Caucasian / jail move generation timings and heap, per position and roll.

Runs unchanged on a real Pico (firmware deployed at the filesystem root):

    mpremote run tests/pico/bench_caucasian.py

and under the WebAssembly MicroPython for `make bench` (tests/bench/bench_caucasian.py
multiplies by 20 for the Pico estimate). Each sample is one ``caucasian.Turn``
(the generator ``variants.make_turn`` picks when an opponent blot can be hit in
scope). Positions: the ten costliest of a few hundred random hit situations and
ten ordinary ones, each with its own roll and options. Prints
``samples median_us worst_us worst_case heap_bytes``.
"""

import gc
import time

from pipcore import caucasian
from pipcore.position import decode_position_id

# (Position ID, dice, caucasian, scope, jail)
CASES = [
    ("AAAEtEmTAAAAAA", (1, 1), True, "board", False),
    ("AAAQiLn1DAAAAA", (1, 1), True, "home", False),
    ("ABAgaFRdOQAAAA", (1, 1), True, "home", False),
    ("AUQAUAABAAAAAA", (1, 3), True, "board", False),
    ("AgEAYkttVQAAAA", (2, 2), True, "home", True),
    ("AxAEAXAAAAAAAA", (5, 2), True, "board", False),
    ("BAAA7Lo0CgAAAA", (1, 1), True, "board", False),
    ("BTEAQFJvGwEAAA", (3, 3), True, "board", True),
    ("CUUAEB0rWwEAAA", (4, 4), True, "board", False),
    ("QAQAaJlWGwAAAA", (1, 1), True, "board", False),
    ("QBUQwLMalgAAAA", (1, 1), True, "board", False),
    ("QIIAsKcOAAAAAA", (3, 3), True, "board", False),
    ("QiiwIPLeBgAAAA", (3, 5), False, "home", True),
    ("REQAjCR7tQEAAA", (4, 1), True, "board", True),
    ("YkQhACAwAAAAAA", (4, 4), True, "board", True),
    ("gcCggHUbKQAQAA", (3, 2), True, "board", True),
    ("igQkgFZ3AAAAAA", (3, 6), True, "board", False),
    ("iiAABF0BAAAAAA", (3, 3), True, "board", True),
    ("kBRAgIQqAwAAAA", (1, 5), True, "board", True),
    ("onAMAFa1UQAAAA", (1, 1), True, "board", True),
]


def timed(pos, dice, opts):
    best = None
    for _ in range(2):
        gc.collect()
        n = 0
        t0 = time.ticks_ms()
        while True:
            caucasian.Turn(pos, dice, **opts)
            n += 1
            elapsed = time.ticks_diff(time.ticks_ms(), t0)
            if elapsed >= 20:
                break
        us = elapsed * 1000 // n
        best = us if best is None or us < best else best
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    caucasian.Turn(pos, dice, **opts)
    heap = gc.mem_alloc() - before
    gc.enable()
    return best, heap


def main():
    times = []
    worst = (0, "")
    heap = 0
    for pid, dice, cauc, scope, jail in CASES:
        opts = {"caucasian": cauc, "scope": scope, "jail": jail}
        us, h = timed(decode_position_id(pid), dice, opts)
        times.append(us)
        if us > worst[0]:
            worst = (us, "%s_%d-%d" % (pid, dice[0], dice[1]))
        heap = max(heap, h)
    times.sort()
    print("%d %d %d %s %d" % (len(times), times[len(times) // 2], worst[0], worst[1], heap))


main()
