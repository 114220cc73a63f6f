"""Timing of Turn.steps / Turn.is_complete, the board controller's question
"which single moves are still legal now?" asked each time a checker is lifted.

Runs unchanged on a real Pico (firmware deployed at the filesystem root):

    mpremote run tests/pico/bench_steps.py

and under the WebAssembly MicroPython for `make bench` (tests/bench/bench_steps.py
runs it and multiplies by 20 for the Pico estimate). For each case (Position ID
and dice; the first 13 are the slowest found in a search over 17,000 rolls, the
rest come from seeded random games) it times the first call at the start of the
turn (which sets up the per-turn data) and then every position part-way through
a spread of legal plays, in the order generated and reversed. Prints one line
per case and a final line
``worst_first_us=A worst_step_us=B median_step_us=C max_heap_bytes=D``.
"""

import gc
import time

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython, for the ratio printed by tests/bench/bench_steps.py

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(new, old):
        return new - old

from pipcore.position import Position
from pipcore.rules import Turn, apply_move

REPEAT = 25
CASES = [
    ('gAcPwDtQlaioKg', 1, 1),
    ('9wAeADxKpRKVCg', 1, 1),
    ('HgAA5z0kqipKJQ', 2, 2),
    ('Pz8EAESX1RgQEQ', 6, 5),
    ('dToPoABndXARAA', 6, 5),
    ('vxsAAMDqkzIQAA', 2, 1),
    ('4nkhECM8DkSYJg', 2, 2),
    ('BwAAcD8HAAAAAA', 1, 1),
    ('69kJCgCfhYQQQw', 4, 4),
    ('DwAAYE+oBLEAAA', 4, 4),
    ('+wAAAP86IwAAAA', 3, 3),
    ('DwAA4F04KJAAAA', 4, 4),
    ('1xchCQT9dwIAAA', 1, 1),
    ('9WEfAARdmAB4Bw', 6, 3),
    ('PwAAgHcgGuQAAA', 2, 1),
    ('jHdCiBIZLzBgEw', 4, 5),
    ('/zwYCAB9AAT1Eg', 5, 4),
    ('/0UABByjTuIQBg', 1, 5),
    ('pe2QBgH9BAHARw', 6, 6),
    ('D/cAFSD6PkAgEg', 1, 1),
    ('++EAEQp/DxABYA', 2, 4),
    ('/QAACvz3QAAIAA', 6, 2),
    ('Tm7gwQCKz+ABMA', 6, 3),
    ('voAoVEO3wUCSBQ', 5, 3),
    ('/84AICDYAwCbRw', 1, 1),
    ('9xNQEEQOXxCOAQ', 6, 1),
    ('Gi/wATBkH/ABQQ', 5, 1),
    ('/gAQehgPuEPYAA', 4, 3),
    ('f2kSQQD+BYIlCA', 6, 1),
    ('fwBLogIPAAAAAA', 2, 5),
    ('/wYAAHhDsEEOAA', 4, 3),
    ('7xuAkAK3LyABQg', 6, 2),
    ('7+UGCAAfAAAAAA', 3, 5),
    ('DwAAoHUmxIABAA', 6, 2),
    ('fwAIog/7EQgKQw', 4, 3),
    ('bgrxBAN1nIMRIA', 4, 4),
    ('dwAAgAAAAAAAAA', 3, 3),
    ('vPoMACQmEwmCXQ', 4, 1),
    ('Y/sCAUFXLMoAFg', 1, 6),
    ('czwBYAu/w4MAEA', 5, 3),
    ('tAcA4njfaQYAKA', 2, 4),
    ('v2UBAOD92AEAAA', 3, 6),
    ('X1AS0Az7PwEAAA', 6, 2),
    ('fgIQrBkP2GHoAA', 5, 1),
    ('yNfgASHEZ+QDIA', 5, 1),
    ('WM/gARjHMPgEKA', 2, 2),
    ('gzMpEikMIk6yRg', 1, 1),
    ('3w8AAHBWGBw0AA', 4, 1),
    ('Da8jADKGn9AjAA', 6, 5),
    ('v7sBAAibXhEBAw', 3, 1),
    ('/z0AIECbT0NQAA', 6, 1),
    ('bwuAZQJfAAAAAA', 2, 5),
    ('7/gRAAG/AAAAAA', 1, 4),
    ('viB4gEkzzWBhAQ', 6, 6),
    ('/QFJ4AgfAeE0Aw', 2, 1),
    ('fyMIISh4HoaAQw', 3, 1),
    ('nauBGQCGn+ACRA', 5, 4),
    ('Z0E4CFzCs0PiAA', 6, 6),
    ('6F4DgQoNB3YENA', 5, 1),
    ('noEOhSLeAYKtQA', 6, 1),
    ('35MIAgb3fjAAAA', 4, 5),
    ('fwAAAG+/AAoAAA', 5, 6),
    ('/oAA4RP/MMGAQA', 1, 4),
    ('UmvDASJkb+ABRA', 6, 4),
    ('f38IAADVOQDkCg', 1, 2),
    ('ZN8DCCGGNRjgIw', 6, 5),
    ('MABPvgr/LwAhAA', 5, 5),
    ('yM/gAxCwz8EBCQ', 6, 3),
    ('/ztBAAB7HGAhYA', 5, 2),
    ('pe1AhQL9BAHAYw', 5, 3),
    ('uyGMWAgfAAAAAA', 2, 6),
    ('27HAAAf/PQAEQA', 2, 2),
    ('jpboACXiPgCgRw', 6, 5),
    ('DBBn4g2DgZ2JIg', 1, 3),
    ('XzEBkjDe+wkAAA', 5, 6),
    ('nmWEQiJeAI3AWQ', 2, 5),
    ('0NsFEDi+McIAUQ', 2, 5),
    ('n0hgyDD++0AAAA', 2, 2),
    ('jN8kAFi28wIhIA', 5, 6),
    ('89sBCgBTAM8CTg', 6, 4),
    ('/z0ABEDbscAABw', 1, 5),
    ('z4kgUDj270EAAA', 5, 3),
    ('/h8GAQAVHELDJg', 5, 4),
    ('AQAA3EChiTgAAA', 5, 6),
    ('/gKNgQK9BaTRAA', 3, 5),
    ('JTwYwRnzcRJBQA', 4, 1),
    ('BwAA8F5ugAAAAA', 4, 4),
    ('/zsAQATbcSQhBA', 4, 2),
    ('30UEgTDeCwAAAA', 4, 6),
    ('xNtQAkZ7ahkYAA', 6, 5),
    ('vwcAokLfBxBMBA', 5, 3),
    ('wmeWASKKt8IDIA', 3, 5),
    ('/QDEg0T/OyAgAA', 5, 3),
    ('Z8TBQQP7bwAAAA', 3, 2),
    ('GgDB/Qn/CxIAUA', 4, 4),
    ('iyIB0hv/w0AgCA', 3, 1),
    ('6wvIIAymHmQ4Ag', 5, 3),
    ('ag8FqAzfCUhIMA', 4, 6),
    ('Thg4rgh+QCkhJg', 3, 6),
    ('lTQEtQN/LkgwAA', 4, 1),
]


def per_call_us(func, arg):
    """Best of two runs of REPEAT calls (the host is shared: the minimum is the cost)."""
    best = None
    for _ in range(2):
        t0 = ticks_us()
        for _ in range(REPEAT):
            func(arg)
        us = ticks_diff(ticks_us(), t0) / REPEAT
        best = us if best is None else min(best, us)
    return best


def path_positions(turn):
    """Positions part-way through (and at the end of) a spread of legal plays."""
    out = []
    plays = turn.plays
    stride = max(1, len(plays) // 6)
    for code in plays[::stride]:
        moves = turn.moves(code)
        for order in (moves, list(reversed(moves))):
            pos = turn.position.copy()
            for s, t, _ in order:
                if not pos.me[s]:
                    break
                apply_move(pos, s, t)
                out.append(pos.copy())
    return out


def heap_of(func, arg):
    if not hasattr(gc, "mem_alloc"):
        return 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    func(arg)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def main():
    worst_first = 0
    worst_step = 0
    max_heap = 0
    all_steps = []
    for n, (pid, a, b) in enumerate(CASES):
        turn = Turn(Position.from_id(pid), (a, b))
        start = turn.position

        def fresh_first(pos, turn=turn):
            turn._steps_index = None  # drop the per-turn data: time the set-up too
            turn.steps(pos)
            turn.is_complete(pos)

        first = per_call_us(fresh_first, start)
        turn.steps(start)
        turn.is_complete(start)
        worst = 0
        for pos in path_positions(turn):
            us = per_call_us(turn.steps, pos) + per_call_us(turn.is_complete, pos)
            all_steps.append(us)
            worst = max(worst, us)
            max_heap = max(max_heap, heap_of(turn.steps, pos))
        worst_first = max(worst_first, first)
        worst_step = max(worst_step, worst)
        print("case %d %s %d-%d plays=%d first_us=%d worst_step_us=%d" % (n, pid, a, b, len(turn.plays), first, worst))
    all_steps.sort()
    median = all_steps[len(all_steps) // 2]
    print("worst_first_us=%d worst_step_us=%d median_step_us=%d max_heap_bytes=%d"
          % (worst_first, worst_step, median, max_heap))


main()
