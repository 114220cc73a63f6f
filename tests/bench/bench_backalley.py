"""`make bench`: the Back Alley engine (tests/pico/bench_backalley.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy (tests/bench/mpy_host.py) and turns its times into Pico estimates with
the measured ratios (tests/bench/README.md). Budgets: one action (legality
query plus the call or card) <= 10 ms and <= 16 KB of heap on the Pico; and
the whole script finishes in a heap the size of the Pico's free heap at the
REPL (241,040 B; the unix port is 64-bit, so it gets 1.5 x that).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mpy_host import passes, run_pico_script, smallest_heap  # noqa: E402

HEAP = 360 * 1024  # 1.5 x the Pico's 241 KB free heap (64-bit objects are larger)


def main():
    rc, _ = run_pico_script("bench_backalley.py")
    low = smallest_heap("bench_backalley.py", step=4096)
    ok = passes("bench_backalley.py", HEAP)
    print("bench_backalley.py runs to the end with -X heapsize=%dk (smallest that passes: %s) %s"
          % (HEAP // 1024, "%dk" % (low // 1024) if low else "none up to 1 MB", "PASS" if ok else "FAIL"))
    return 1 if rc or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
