"""`make bench`: driver timings under the WebAssembly MicroPython, with Pico estimates.

Runs tests/pico/bench_drivers.py (the same script a maker runs on the Pico) under
WASM MicroPython, multiplies by 20 (DEVELOPERS.md: a Pico is about 20 times slower)
and checks the budgets of issue 5: scan + debounce per cycle and LED frame build per
frame at most 2 ms each on the Pico estimate, so the board can scan at 200 Hz and
still animate.  Prints PASS/FAIL per budget; exits 1 on any FAIL.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PICO_FACTOR = 20
BUDGET_US = 2000
BUDGETED = ("scan_quiet", "scan_busy", "led_frame", "led_frame_limited")


def main():
    script = os.path.join(ROOT, "tests", "pico", "bench_drivers.py")
    proc = subprocess.run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), script], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL bench_drivers: the MicroPython script failed")
        return 1
    figures = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            figures[parts[0]] = float(parts[1])
    failed = 0
    print("%-20s %12s %14s" % ("driver path", "WASM us", "Pico est. us"))
    for name, us in figures.items():
        print("%-20s %12.1f %14.0f" % (name, us, us * PICO_FACTOR))
    for name in BUDGETED:
        est = figures[name] * PICO_FACTOR
        ok = est <= BUDGET_US
        failed += not ok
        print("%s %s: %.0f us on the Pico estimate (budget %d us)" % ("PASS" if ok else "FAIL", name, est, BUDGET_US))
    print("scan_busy: two checkers moving with bouncing switches; led_frame: two pixels changed, 8 animated, "
          "composed, limited, written; led_frame_limited: every pixel white, limiter scaling.")
    print("Wire time on the board comes on top: SPI 22 bytes at 1 MHz = 176 us; 197 pixels at 800 kHz = 5.9 ms "
          "(frames at 50 Hz, scans at 200 Hz).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
