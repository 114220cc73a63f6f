"""`make bench`: driver timings (tests/pico/bench_drivers.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy (tests/bench/mpy_host.py); it turns each time into a Pico estimate with
the measured ratio of its kind of work (scan, LED frame, limited frame,
buttons: tests/bench/README.md) and prints PASS/FAIL against 2 ms per scan and
per frame. Where valgrind is installed the verdicts are by instruction count
(tests/bench/instructions.py: this shared host's clock moves +-40%): the same
script with each figure's 168 calls counted under callgrind, the native
modules taken out (their plain twins run: the upper bound), times the Pico's
ns per instruction of that kind; the wall-clock estimates are printed beside
them. Exits 1 on any FAIL.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import instructions  # noqa: E402
from mpy_host import PICO_DIR, run_pico_script  # noqa: E402

BUDGET_MS = 2
KINDS = {"scan_quiet": "scan", "scan_busy": "scan", "led_frame": "led_frame", "led_frame_limited": "limited_frame",
         "buttons_poll": "buttons"}
CALLS = 168  # the script's calls per figure
# the script's timing helper, and what replaces it for the count (its text must be found as it is)
TIMED = """def timed(label, func):
    us = per_call_us(func, 168)  # 168: the frame scripts below cycle over the 168 point LEDs
    print("%s %.3f" % (label, us))
    return us
"""
COUNTED = """def timed(label, func):
    for k in range(168):  # as per_call_us's warm-up run
        func(k)
    counted(lambda _: [func(k) for k in range(168)], 0)
    print("COUNTED", label)
    return 0
"""


def counts():
    """{figure: instructions per call} of the script's figures, plain twins in place of native code."""
    with open(os.path.join(PICO_DIR, "bench_drivers.py")) as f:
        text = f.read()
    if TIMED not in text:
        raise SystemExit("tests/pico/bench_drivers.py changed: its timed() is not the one patched here")
    found, out = instructions.count(text.replace(TIMED, COUNTED), plain=True)
    labels = [line.split()[1] for line in out.splitlines() if line.startswith("COUNTED ")]
    if len(labels) != len(found):
        raise SystemExit("callgrind: %d counts for %d figures" % (len(found), len(labels)))
    return dict((label, n / CALLS) for label, n in zip(labels, found))


def main():
    rc, out = run_pico_script("bench_drivers.py", echo=False)
    if not instructions.have_valgrind():
        sys.stdout.write(out)
        return rc
    per_call = counts()
    judged = {}
    for name, kind in KINDS.items():
        judged[name] = (instructions.pico_ms(per_call[name], kind), "%d unix instructions, plain twins, x %.1f ns"
                        % (per_call[name], instructions.NS_PER_INSTRUCTION[kind]), BUDGET_MS)
    failures, lines = instructions.rejudge(out.splitlines(), judged)
    print("\n".join(lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
