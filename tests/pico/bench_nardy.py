"""Long-nardy move generation timings and heap, per position and roll: one line per case, PASS/FAIL per budget.

Runs unchanged on a real Pico (firmware deployed at the filesystem root):

    mpremote run tests/pico/bench_nardy.py

and under the unix MicroPython for `make bench` (tests/bench/bench_nardy.py), where
``pipbench`` turns host times into Pico estimates (tests/bench/README.md). Each sample
is one ``nardy.Turn(position, roll)``: every legal play generated, O1/O2 applied; its
time is the best of a few short batches (3 on the Pico, whose timer is steady).

Families: the opening from the head (first player, and the second player after
the openings that trigger the head-rule exceptions), doubles in spread
positions taken from random games (the costliest of 800), and typical
positions (every roll). Prints ``case FAMILY LABEL D1-D2 plays=N us=T heap=B`` per
sample as it goes, a line per family, one ``steps()`` call part-way through the
costliest double, then the budgets on the Pico: worst 150 ms, median 10 ms, 24 KB
of heap per generation, and ``RESULT: PASS`` or ``RESULT: FAIL (...)``.
"""

from pipbench import best_us, check_bytes, check_ms, finish, heap_of
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


def gen(args):
    return nardy.Turn(args[0], args[1], first_turn=args[2])


def family(name, samples):
    times = []
    worst = (0, "")
    heap = 0
    for label, pos, dice, first in samples:
        args = (pos, dice, first)
        us = best_us(gen, args)
        h = heap_of(gen, args)
        print("case %s %s %d-%d plays=%d us=%d heap=%d" % (name, label, dice[0], dice[1], len(gen(args).plays),
                                                            us, h))
        times.append(us)
        if us > worst[0]:
            worst = (us, "%s %d-%d" % (label, dice[0], dice[1]))
        heap = max(heap, h)
    times.sort()
    print("family %s samples=%d median_us=%d worst_us=%d worst=%s heap=%d" % (
        name, len(times), times[len(times) // 2], worst[0], worst[1].replace(" ", "_"), heap))
    return times, worst, heap


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
    worst = (0, "")
    heap = 0
    for name, samples in (("opening", opening), ("doubles", doubles), ("typical", typical)):
        times, w, h = family(name, samples)
        every += times
        worst = max(worst, w)
        heap = max(heap, h)
    every.sort()
    print("all samples=%d median_us=%d worst_us=%d" % (len(every), every[len(every) // 2], every[-1]))
    # one steps() call part-way through the costliest double
    worst_pos = decode_position_id(HEAVY[-1])
    most = None
    for dice in DOUBLES:
        turn = nardy.Turn(worst_pos, dice)
        if most is None or len(turn.plays) > len(most.plays):
            most = turn
    mid = Position(most.position.me, most.position.opp)
    s, t, _ = most.moves(most.plays[0])[0]
    mid.me[s] -= 1
    mid.me[t] += 1
    most.steps(mid)
    steps = best_us(most.steps, mid)
    print("steps_us %d" % steps)
    check_ms("long nardy worst (%s)" % worst[1], every[-1], "generation", 150)
    check_ms("long nardy median", every[len(every) // 2], "generation", 10)
    check_ms("long nardy steps part-way", steps, "generation", 20)
    check_bytes("long nardy heap per generation", heap, 24 * 1024)
    finish()


main()
