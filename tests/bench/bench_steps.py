"""`make bench`: Turn.steps / Turn.is_complete (tests/pico/bench_steps.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy (tests/bench/mpy_host.py) and turns its times into Pico estimates with the
measured ratios (tests/bench/README.md). Budgets, on the Pico: each call
part-way through a turn <= 20 ms (the controller asks whenever a checker is
lifted), the first call of a turn <= 150 ms (made while the dice roll), at
most 4 KB of heap per call. Prints the three slowest cases; exits 1 on FAIL.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mpy_host import run_pico_script  # noqa: E402


def main():
    rc, out = run_pico_script("bench_steps.py", echo=False)
    cases = [line for line in out.splitlines() if line.startswith("case ")]
    slowest = sorted(cases, key=lambda line: -int(re.search(r"worst_step_us=(\d+)", line).group(1)))[:3]
    print("Turn.steps + Turn.is_complete over %d rolls; slowest (unix MicroPython us):" % len(cases))
    for line in slowest:
        print("  " + line)
    print("\n".join(line for line in out.splitlines() if not line.startswith("case ")))
    return rc


if __name__ == "__main__":
    sys.exit(main())
