"""`make bench`: match record figures (tests/pico/bench_record.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to .mpy
(tests/bench/mpy_host.py): bytes per action, flash programmed and erased per append (real
littlefs on a counting RAM block device, the rp2 geometry), time per append (the Python side
scaled by the generation ratio, plus the flash's typical program and erase times), recovery after
a power cut at every byte of an append, and the export of a 200-game money session through the
protocol (scaled by the JSON ratio, plus USB time). Pico estimates use pipbench.RATIOS
(tests/bench/README.md). Prints PASS/FAIL per budget; exits 1 on any FAIL.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mpy_host import run_pico_script  # noqa: E402


def main():
    rc, _ = run_pico_script("bench_record.py")
    return rc


if __name__ == "__main__":
    sys.exit(main())
