"""Command-line sweep of ``resilience`` (for the unix MicroPython runner and by hand).

    micropython -X heapsize=160k tests/mp/resilience_run.py memory,runtime,heap 60

Prints ``resilience: R runs over C calls, F failures`` and the failures;
exits 1 if any.
"""

import sys

import resilience


def main(argv):
    kinds = tuple(argv[1].split(",")) if len(argv) > 1 else ("memory", "runtime")
    points = int(argv[2]) if len(argv) > 2 else 40
    failures, runs, total = resilience.sweep(kinds, points)
    for line in failures[:20]:
        print("FAIL " + line[:400])
    print("resilience: %d runs over %d calls, %d failures" % (runs, total, len(failures)))
    return 1 if failures or not runs else 0


sys.exit(main(sys.argv))
