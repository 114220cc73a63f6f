"""Long-nardy move generation timings and heap, per position and roll.

Runs unchanged on a real Pico (firmware deployed at the filesystem root):

    mpremote run tests/pico/bench_nardy.py

and under the WebAssembly MicroPython for `make bench` (tests/bench/bench_nardy.py
runs it and multiplies by 20 for the Pico estimate). Each sample is one
``nardy.Turn(position, roll)``: every legal play generated, O1/O2 applied.

Families: the opening from the head (first player, and the second player after
the openings that trigger the head-rule exceptions), doubles in spread
positions taken from random games (the costliest of 800), and typical
positions (every roll). Prints one line per family
``family samples median_us worst_us worst_case heap_bytes`` and a line
``steps_us`` (one mid-turn ``steps()`` call in the costliest double).
"""

import gc
import time

from pipcore import nardy
from pipcore.position import Position, decode_position_id

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
DOUBLES = [(d, d) for d in range(1, 7)]
# long-nardy Position IDs (gnubg container, own numbering per side; see docs/positions.md)
HEAVY = ['PyAQ3wDP4hkgAQ', '3yUw0AD/9EEAAA', 'wYDjAD+KFIwRPg', 'LoahGDiHERlGOA', 'AAMI/D8AiQj4Pw',
         'fgMAjDy3iCGSMA', '/41AgAG/NTAYAA', '3wYYIjB/gQDTCA', 'jwKxAziHahsAOA', 'twqBqgFvIAD/AA',
         '/68BAAD/PQggAA', 'AWYA5D9EAC7gPw']
TYPICAL = ['BwAAEAAAAAAAAA', 'vwMAAPx9AAAAAA', '/w0AAPD/CgAAAA', 'BRDQ4D8RBHDgPw', '/34AAIDvvQIAAA',
           'zhZgMDjPBAIoPg', 'CCAA/T8AQAL9Pw', 'f7MBoAD/JiQABg', 'IYAfID+hBOCEPw', '80IALDmnFgAOOQ',
           'zwoALji2C0FQOA', '31WiAQDfDQAAAA']


def second_player(opponent_me):
    """The second player on roll after the first player's opening."""
    pos = nardy.start_position()
    for p in range(26):
        pos.opp[p] = 0
    for p in opponent_me:
        pos.opp[p] += opponent_me[p]
    pos.opp[0] = 15 - sum(opponent_me.values())
    return pos


def timed(pos, dice, first):
    """Microseconds per Turn (best of 2 runs of >= 20 ms) and heap bytes allocated."""
    best = None
    for _ in range(2):
        gc.collect()
        n = 0
        t0 = time.ticks_ms()
        while True:
            nardy.Turn(pos, dice, first_turn=first)
            n += 1
            elapsed = time.ticks_diff(time.ticks_ms(), t0)
            if elapsed >= 20:
                break
        us = elapsed * 1000 // n
        best = us if best is None or us < best else best
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    nardy.Turn(pos, dice, first_turn=first)
    heap = gc.mem_alloc() - before
    gc.enable()
    return best, heap


def family(name, samples):
    times = []
    worst = (0, "")
    heap = 0
    for label, pos, dice, first in samples:
        us, h = timed(pos, dice, first)
        times.append(us)
        if us > worst[0]:
            worst = (us, "%s %d-%d" % (label, dice[0], dice[1]))
        heap = max(heap, h)
    times.sort()
    print("%s %d %d %d %s %d" % (name, len(times), times[len(times) // 2], worst[0],
                                  worst[1].replace(" ", "_"), heap))
    return times


def main():
    start = nardy.start_position()
    opening = [("start", start, dice, True) for dice in ROLLS]
    # (opponent's own numbering) after 2-1: a checker on the mover's 9; 6-2: on 4; 5-5: on 16; 3-3 split: 9 and 3
    for label, opp in (("after_2-1", {24: 14, 21: 1}), ("after_6-2", {24: 14, 16: 1}),
                       ("after_5-5", {24: 14, 4: 1}), ("after_3-3", {24: 13, 21: 1, 15: 1})):
        pos = second_player(opp)
        opening += [(label, pos, dice, True) for dice in ROLLS]
    doubles = []
    for pid in HEAVY:
        pos = decode_position_id(pid)
        doubles += [(pid, pos, dice, False) for dice in DOUBLES]
    typical = []
    for pid in TYPICAL:
        pos = decode_position_id(pid)
        typical += [(pid, pos, dice, False) for dice in ROLLS]
    every = []
    every += family("opening", opening)
    every += family("doubles", doubles)
    every += family("typical", typical)
    every.sort()
    print("all %d %d %d - 0" % (len(every), every[len(every) // 2], every[-1]))
    # one steps() call part-way through the costliest double
    worst_pos = decode_position_id(HEAVY[-1])
    worst = None
    for dice in DOUBLES:
        turn = nardy.Turn(worst_pos, dice)
        if worst is None or len(turn.plays) > len(worst.plays):
            worst = turn
    mid = Position(worst.position.me, worst.position.opp)
    s, t, _ = worst.moves(worst.plays[0])[0]
    mid.me[s] -= 1
    mid.me[t] += 1
    worst.steps(mid)
    n = 0
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < 50:
        worst.steps(mid)
        n += 1
    print("steps_us %d" % (time.ticks_diff(time.ticks_ms(), t0) * 1000 // n))


main()
