"""Caucasian / jail move generation timings and heap: one line per case,
then ``worst_us=N median_us=M``.

Runs unchanged on a real Pico (firmware deployed at the filesystem root):

    mpremote run tests/pico/bench_caucasian.py

and under the WebAssembly MicroPython for `make bench`
(tests/bench/bench_caucasian.py runs it with a corpus file as its argument and
multiplies by 20 for the Pico estimate). Each case is one ``caucasian.Turn``
(the generator ``variants.make_turn`` picks when an opponent blot can be hit
in scope before the last die): a Position ID, a roll and the options. The
embedded cases are the ten costliest of a few hundred random hit situations
(for the old generator) and ten ordinary ones. A case's time is the best of
REPEATS batches, each generating again and again for at least BATCH_US after
a collection, divided by the count, after one untimed pass over all cases;
the clock is ``time.ticks_us`` on the Pico and the node process's CPU time
under node (as tests/pico/bench_rules.py). ``heap`` is what one generation
allocates (``gc.mem_alloc()`` delta with the collector disabled). Then
``Turn.steps`` (what the board asks as checkers move): its first call at the
start (per-turn set-up, made while the dice roll) and the slowest single call
after one or two moves. Budgets (the backgammon generator's and steps', on the
Pico): worst 150 ms, median 10 ms, 24 KB; steps 150 ms first, 20 ms later.

Output::

    case 0 AAAEtEmTAAAAAA 1-1 caucasian-board plays=155 us=... heap=... steps_first_us=... steps_us=...
    clock=ticks_us cases=20 worst_heap=...
    worst_us=N median_us=M
"""

import gc
import sys
import time

from pipcore import caucasian
from pipcore.position import decode_position_id
from pipcore.rules import apply_move

REPEATS = 2
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


def load(path):
    """Cases from a file of ``ID d1 d2 caucasian scope jail`` lines (0/1 for the flags)."""
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 6:
                out.append((parts[0], (int(parts[1]), int(parts[2])), parts[3] == "1", parts[4], parts[5] == "1"))
    return out


def _steps_us(turn, position):
    best = -1
    for _ in range(3):
        gc.collect()
        t0 = now_us()
        turn.steps(position)
        us = since_us(t0)
        if best < 0 or us < best:
            best = us
    return best


def measure(pos, dice, opts):
    """(best time in us, heap bytes, plays) of one generation."""
    best = -1
    for _ in range(REPEATS):
        gc.collect()
        count = 0
        t0 = now_us()
        elapsed = 0
        while elapsed < BATCH_US:
            caucasian.Turn(pos, dice, **opts)
            count += 1
            elapsed = since_us(t0)
        us = elapsed // count
        if best < 0 or us < best:
            best = us
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    turn = caucasian.Turn(pos, dice, **opts)
    heap = gc.mem_alloc() - before
    gc.enable()
    # the board's questions: steps at the start (first call: per-turn set-up),
    # then after each first move and one more; each the best of three tries
    # after a collection (one call is short: a collection or the engine's
    # tiering inside it would be timed with it)
    first = -1
    for _ in range(3):
        fresh = caucasian.Turn(pos, dice, **opts)
        gc.collect()
        t0 = now_us()
        fresh.steps(pos)
        us = since_us(t0)
        if first < 0 or us < first:
            first = us
    later = 0
    for s, t, _ in turn.steps(pos) or ():
        p1 = pos.copy()
        apply_move(p1, s, t)
        later = max(later, _steps_us(turn, p1))
        nxt = turn.steps(p1)
        if nxt:
            s, t, _ = nxt[-1]
            apply_move(p1, s, t)
            later = max(later, _steps_us(turn, p1))
    return best, heap, len(turn.plays), first, later


def main(cases):
    for pid, dice, cauc, scope, jail in cases:  # warm-up: the WebAssembly engine optimises hot code after a while
        caucasian.Turn(decode_position_id(pid), dice, caucasian=cauc, scope=scope, jail=jail)
    times = []
    worst_heap = 0
    for i in range(len(cases)):
        pid, dice, cauc, scope, jail = cases[i]
        opts = {"caucasian": cauc, "scope": scope, "jail": jail}
        us, heap, plays, first, later = measure(decode_position_id(pid), dice, opts)
        times.append(us)
        worst_heap = max(worst_heap, heap)
        print("case %d %s %d-%d %s%s%s plays=%d us=%d heap=%d steps_first_us=%d steps_us=%d"
              % (i, pid, dice[0], dice[1], "caucasian-" if cauc else "", scope if cauc else "", "+jail" if jail else "",
                 plays, us, heap, first, later))
    times.sort()
    print("clock=%s cases=%d worst_heap=%d" % (CLOCK, len(times), worst_heap))
    print("worst_us=%d median_us=%d" % (times[-1], times[len(times) // 2]))


main(load(sys.argv[1]) if len(sys.argv) > 1 else CASES)
