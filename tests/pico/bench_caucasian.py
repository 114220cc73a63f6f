"""Caucasian / jail generation and ``Turn.steps``: one line per case, PASS/FAIL per budget.

    mpremote run tests/pico/bench_caucasian.py [CORPUS]

On a Pico the figures are its own; on a host MicroPython ``pipbench`` turns
them into Pico estimates (tests/bench/README.md). Each case is one
``caucasian.Turn``: Position ID, roll, options (CORPUS: lines ``ID d1 d2
caucasian scope jail [play]``, flags 0/1; ``play`` marks a turn met in
self-play, over which the median is taken). Budgets on the Pico: worst 150 ms,
median 10 ms, 24 KB heap per generation; ``steps`` 150 ms for the first call
of a turn (set-up, made while the dice roll), 20 ms for a call part-way.
"""

import sys

from pipbench import best_us, check_bytes, check_ms, finish, heap_of, now_us, since_us
from pipcore.caucasian import Turn
from pipcore.position import decode_position_id
from pipcore.rules import apply_move

# (Position ID, dice, caucasian, scope, jail): the costliest of a few hundred
# random hit situations and ten ordinary ones
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


def cases_in(source):
    """The cases of ``source``: the embedded list, or a corpus file read a line at a time (a
    whole corpus held in RAM would fragment the heap as no board's is, and slow the generator)."""
    if not isinstance(source, str):
        for case in source:
            yield case
        return
    with open(source) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6:
                yield p[0], (int(p[1]), int(p[2])), p[3] == "1", p[4], p[5] == "1", len(p) > 6


def one_call_us(turn, pos):
    """Best of three single ``steps`` calls (one call is short: best of a few)."""
    best = -1
    for _ in range(3):
        t0 = now_us()
        turn.steps(pos)
        us = since_us(t0)
        if best < 0 or us < best:
            best = us
    return best


def first_us(args):
    pos, dice, c, sc, j = args
    fresh = Turn(pos, dice, c, sc, j)
    t0 = now_us()
    fresh.steps(pos)
    return since_us(t0)


def main(source):
    played = []
    worst = heap = first = later = 0
    for case in cases_in(source):  # warm-up: the WebAssembly engine optimises hot code after a while
        Turn(decode_position_id(case[0]), *case[1:5])
    i = -1
    for case in cases_in(source):
        i += 1
        pid, dice, c, sc, j = case[:5]
        pos = decode_position_id(pid)
        args = (pos, dice, c, sc, j)
        us = best_us(lambda a: Turn(*a), args)
        h = heap_of(lambda a: Turn(*a), args)
        turn = Turn(*args)
        f = min(first_us(args), first_us(args), first_us(args))
        lat = 0
        for s, t, _ in turn.steps(pos) or ():  # after each first move, and one more
            p1 = pos.copy()
            apply_move(p1, s, t)
            lat = max(lat, one_call_us(turn, p1))
            nxt = turn.steps(p1)
            if nxt:
                apply_move(p1, nxt[-1][0], nxt[-1][1])
                lat = max(lat, one_call_us(turn, p1))
        if len(case) > 5 and case[5]:
            played.append(us)
        worst, heap, first, later = max(worst, us), max(heap, h), max(first, f), max(later, lat)
        print("case %d %s %d-%d %d%s%d plays=%d us=%d heap=%d steps_first_us=%d steps_us=%d"
              % (i, pid, dice[0], dice[1], c, sc, j, len(turn.plays), us, h, f, lat))
    check_ms("caucasian worst", worst, "generation", 150)
    if played:
        played.sort()
        check_ms("caucasian median of %d self-play turns" % len(played), played[len(played) // 2], "generation", 10)
    check_bytes("caucasian heap per generation", heap, 24 * 1024)
    check_ms("caucasian steps, first call", first, "search", 150)
    check_ms("caucasian steps, part-way", later, "search", 20)
    finish()


main(sys.argv[1] if len(sys.argv) > 1 else CASES)
