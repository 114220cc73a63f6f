"""`make bench`: driver timings (tests/pico/bench_drivers.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy (tests/bench/mpy_host.py); it turns each time into a Pico estimate with
the measured ratio of its kind of work (scan, LED frame, limited frame,
buttons: tests/bench/README.md) and prints PASS/FAIL against 2 ms per scan and
per frame. Exits 1 on any FAIL.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mpy_host import run_pico_script  # noqa: E402


def main():
    rc, _ = run_pico_script("bench_drivers.py")
    return rc


if __name__ == "__main__":
    sys.exit(main())
