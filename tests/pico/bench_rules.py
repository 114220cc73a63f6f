"""Legal-play generation timings: one line per case, then ``worst_us=N median_us=M``.

Runs unchanged on a real Pico with the firmware deployed at the filesystem root:

    mpremote run tests/pico/bench_rules.py

and under the WebAssembly MicroPython for ``make bench`` (tests/bench/bench_rules.py
runs it, once as it is and once with a corpus file as its argument, and
multiplies WASM times by 20 for the Pico estimate).

Each case is a Position ID (the player on roll moves) and a roll. Its time is
the best of REPEATS batches, each generating the plays (``pipcore.rules.Turn``)
again and again for at least BATCH_US after a collection, divided by the
count (on the Pico a slow case is a batch of one), after one untimed pass
over all cases. The clock is ``time.ticks_us`` on the Pico; under node (the
WebAssembly port, whose ticks only move in whole milliseconds and count wall
time on a shared host) it is the node process's CPU time, probed through
the ``js`` module; ``heap`` is what one generation
allocates (``gc.mem_alloc()`` delta with the collector disabled), the Turn
and its list of plays included. Budgets (issue 2, on the Pico): worst case
150 ms, median 10 ms, 24 KB heap per generation.

Output, one line per case, then two summary lines::

    case 24 IAKI6H+klFJKKQ 1-1 plays=2226 us=... heap=...
    clock=ticks_us cases=35 total_us=... worst_heap=...
    worst_us=N median_us=M
"""

import gc
import sys
import time

from pipcore.position import Position
from pipcore.rules import Turn

REPEATS = 3
BATCH_US = 2000

try:  # node: CPU microseconds of this process (immune to other jobs on the host)
    import js

    _cpu_usage = js.process.cpuUsage

    def now_us():
        u = _cpu_usage()
        return int(u.user + u.system)

    def since_us(t0):
        return now_us() - t0

    CLOCK = "node-cpu"
except (ImportError, AttributeError):  # the Pico (and any port without js)
    now_us = time.ticks_us

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)

    CLOCK = "ticks_us"

# Position ID, dice: seeded self-play, bar entries, bear-offs, closed boards,
# primes, forced dice, and the slowest spread-out positions we could build
# (hill-climbed for the most distinct plays of small doubles).
CASES = (
    ("wTn4gAWFc/ABCQ", 1, 3),  # walk 10 plays
    ("O9TEBQgXVuKABQ", 6, 6),  # walk 82 plays
    ("RxRKmDi+nwEARA", 2, 3),  # walk 4 plays
    ("n4cggSL+AUeAEg", 5, 4),  # walk 26 plays
    ("HwAAwP2ZGAAAAA", 3, 4),  # walk 5 plays
    ("/qY4IADXhwAAPg", 2, 6),  # walk 3 plays
    ("+gMxwiDGcwKgOA", 1, 5),  # walk 32 plays
    ("93dAAAjvMMigBA", 6, 4),  # walk 32 plays
    ("7wrIRAF3AIzyAg", 4, 1),  # walk 20 plays
    ("pukBwQoLawDEXA", 1, 3),  # walk 9 plays
    ("LK/BATBSz8IBMA", 4, 2),  # walk 29 plays
    ("4ZlAUTH8IYghSQ", 5, 2),  # walk 5 plays
    ("nzcAEQX+gEEgZg", 6, 2),  # walk 1 plays
    ("/2sBAID7IWWAAA", 2, 6),  # walk 19 plays
    ("27YBGICRHQ4HIA", 6, 3),  # bar_entry 1 plays
    ("m20BBIA4XJgADw", 6, 1),  # bar_entry 1 plays
    ("wD+vAQCXFQEAAA", 1, 1),  # bear_off 40 plays
    ("ofDzAICrngAAAA", 3, 4),  # bear_off 11 plays
    ("27YBcAC0wQ0UcA", 3, 1),  # closed_board 1 plays
    ("UcuKIWDbthkCAA", 1, 5),  # closed_board 20 plays
    ("CLD7DwDOZQYNIA", 3, 6),  # primed 27 plays
    ("280RCARAwMPPYA", 5, 1),  # primed 1 plays
    ("EB8AvwOAAwABAA", 3, 2),  # forced_die 1 plays
    ("BwL4fQAAHIAAAA", 3, 3),  # partial_double 1 plays
    ("IAKI6H+klFJKKQ", 1, 1),  # worst 2226 plays
    ("QgQR4H+UUkpKJQ", 1, 1),  # worst 2225 plays
    ("AASB6n9QpYpKKQ", 2, 2),  # worst 2137 plays
    ("/v8AAACISqWqJA", 3, 3),  # worst 1954 plays
    ("+McfAABQlapKEQ", 3, 3),  # worst 1693 plays
    ("IAKI6H+klFJKKQ", 4, 4),  # worst 1481 plays
    ("AACA/z+klFKqJA", 1, 1),  # worst 2126 plays
    ("/v8AAACEKlWpIg", 2, 2),  # worst 1969 plays
    ("AACA/z9QlapUIg", 2, 1),  # worst 205 plays
    ("/v8AAACISqWqJA", 6, 5),  # worst 177 plays
    ("4HPwATDgc/ABMA", 3, 1),  # start 16 plays
)


def load(path):
    """Cases from a file of ``ID d1 d2`` lines (the bench's full corpus)."""
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3:
                out.append((parts[0], int(parts[1]), int(parts[2])))
    return out


def measure(position, dice):
    """(best time in us, heap bytes, plays) of generating the plays of one roll."""
    best = -1
    for _ in range(REPEATS):
        gc.collect()
        count = 0
        t0 = now_us()
        elapsed = 0
        while elapsed < BATCH_US:
            Turn(position, dice)
            count += 1
            elapsed = since_us(t0)
        us = elapsed // count
        if best < 0 or us < best:
            best = us
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    turn = Turn(position, dice)
    heap = gc.mem_alloc() - before
    gc.enable()
    return best, heap, len(turn.plays)


def main(cases):
    for position_id, a, b in cases:  # warm-up: the WebAssembly engine optimises hot code after a while
        Turn(Position.from_id(position_id), (a, b))
    times = []
    worst_heap = 0
    total = 0
    for i in range(len(cases)):
        position_id, a, b = cases[i]
        us, heap, plays = measure(Position.from_id(position_id), (a, b))
        times.append(us)
        total += us
        if heap > worst_heap:
            worst_heap = heap
        print("case %d %s %d-%d plays=%d us=%d heap=%d" % (i, position_id, a, b, plays, us, heap))
    times.sort()
    print("clock=%s cases=%d total_us=%d worst_heap=%d" % (CLOCK, len(times), total, worst_heap))
    print("worst_us=%d median_us=%d" % (times[-1], times[len(times) // 2]))


main(load(sys.argv[1]) if len(sys.argv) > 1 else CASES)
