"""Legal-play generation (``pipcore.rules.Turn``): one line per case, PASS/FAIL per budget.

    mpremote run tests/pico/bench_rules.py [CORPUS]

CORPUS: lines ``ID d1 d2`` (tests/bench/bench_rules.py writes its full corpus).
A case's time is the best of three batches of generations; ``heap`` what one
generation allocates, the Turn included; its plays go into a store allocated
once (``playcodes.play_store``), as the board's app does. On a host MicroPython
``pipbench`` turns the figures into Pico estimates. Budgets on the Pico:
worst 150 ms, median 10 ms, 24 KB per generation.
"""

import sys

from pipbench import best_us, check_bytes, check_ms, finish, heap_of
from pipcore.playcodes import play_store
from pipcore.position import Position
from pipcore.rules import Turn

STORE = play_store(2304)  # as pipcore.app keeps one: a double's plays are written here

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
            if len(p) == 3:
                yield p[0], int(p[1]), int(p[2])


def gen(args):
    return Turn(args[0], args[1], STORE)


def main(source):
    for pid, a, b in cases_in(source):  # warm-up: the WebAssembly engine optimises hot code after a while
        Turn(Position.from_id(pid), (a, b), STORE)
    times = []
    worst_heap = 0
    i = -1
    for pid, a, b in cases_in(source):
        i += 1
        args = (Position.from_id(pid), (a, b))
        us = best_us(gen, args)
        heap = heap_of(gen, args)
        times.append(us)
        worst_heap = max(worst_heap, heap)
        print("case %d %s %d-%d plays=%d us=%d heap=%d" % (i, pid, a, b, len(gen(args).plays), us, heap))
    times.sort()
    print("cases=%d worst_us=%d median_us=%d" % (len(times), times[-1], times[len(times) // 2]))
    check_ms("rules worst", times[-1], "generation", 150)
    check_ms("rules median", times[len(times) // 2], "generation", 10)
    check_bytes("rules heap per generation", worst_heap, 24 * 1024)
    finish()


main(sys.argv[1] if len(sys.argv) > 1 else CASES)
