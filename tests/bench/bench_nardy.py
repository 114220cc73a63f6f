"""`make bench`: long-nardy move generation (tests/pico/bench_nardy.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy (tests/bench/mpy_host.py) and turns its times into Pico estimates with the
measured ratio of generation (tests/bench/README.md). Budgets, on the Pico:
worst case <= 150 ms, median <= 10 ms per roll, a ``steps`` call part-way <= 20 ms,
<= 24 KB of heap allocated while generating. Prints the three slowest cases and
the script's PASS/FAIL lines; exits 1 on any FAIL.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mpy_host import run_pico_script  # noqa: E402


def main():
    rc, out = run_pico_script("bench_nardy.py", echo=False)
    lines = out.splitlines()
    cases = [line for line in lines if line.startswith("case ")]
    slowest = sorted(cases, key=lambda line: -int(re.search(r" us=(\d+)", line).group(1)))[:3]
    print("long nardy: one Turn (every legal play of a roll) over %d rolls; slowest (unix MicroPython us):"
          % len(cases))
    for line in slowest:
        print("  " + line)
    print("\n".join(line for line in lines if not line.startswith("case ")))
    if not lines or not lines[-1].startswith("RESULT: "):
        print("RESULT: FAIL (tests/pico/bench_nardy.py ended without its RESULT line)")
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
