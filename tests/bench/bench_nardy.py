"""`make bench`: long-nardy move generation under the WebAssembly MicroPython.

Runs tests/pico/bench_nardy.py (the same script a maker runs on the Pico) under
WASM MicroPython, multiplies times by the measured WASM ratio of generation
(tests/bench/README.md) and checks the budgets backgammon's generator has: worst case <= 150 ms,
median <= 10 ms per roll on the Pico estimate, and <= 24 KB of heap allocated while
generating. Prints PASS/FAIL per budget; exits 1 on any FAIL.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from pipbench import RATIOS  # noqa: E402  (the measured table, tests/bench/README.md)

PICO_FACTOR = RATIOS["wasm"]["generation"]  # WASM MicroPython -> Pico, generation-like work
WORST_MS = 150
MEDIAN_MS = 10
HEAP_BYTES = 24 * 1024


def main():
    script = os.path.join(ROOT, "tests", "pico", "bench_nardy.py")
    proc = subprocess.run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), script], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL bench_nardy: the MicroPython script failed")
        return 1
    rows = {}
    steps_us = None
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 6:
            rows[parts[0]] = (int(parts[1]), int(parts[2]), int(parts[3]), parts[4], int(parts[5]))
        elif len(parts) == 2 and parts[0] == "steps_us":
            steps_us = int(parts[1])
    print("long nardy: one Turn (every legal play of a roll)")
    print("%-10s %7s %11s %11s %13s %13s %8s  %s" % ("family", "samples", "median us", "worst us", "median Pico",
                                                    "worst Pico", "heap B", "worst case"))
    for name, (n, med, worst, case, heap) in rows.items():
        print("%-10s %7d %11d %11d %10.1f ms %10.1f ms %8s  %s" % (
            name, n, med, worst, med * PICO_FACTOR / 1000.0, worst * PICO_FACTOR / 1000.0,
            heap if heap else "", case.replace("_", " ")))
    if steps_us is not None:
        print("steps() part-way through the costliest double: %d us WASM, %.1f ms Pico estimate"
              % (steps_us, steps_us * PICO_FACTOR / 1000.0))
    _, med, worst, _, _ = rows["all"]
    heap = max(r[4] for r in rows.values())
    checks = [
        ("worst case", worst * PICO_FACTOR / 1000.0, WORST_MS, "ms"),
        ("median", med * PICO_FACTOR / 1000.0, MEDIAN_MS, "ms"),
        ("heap", heap / 1024.0, HEAP_BYTES / 1024, "KB"),
    ]
    failed = 0
    for name, value, budget, unit in checks:
        ok = value <= budget
        failed += not ok
        where = "allocated under MicroPython" if unit == "KB" else "on the Pico estimate"
        print("%s long nardy %s: %.1f %s %s (budget %d %s)"
              % ("PASS" if ok else "FAIL", name, value, unit, where, budget, unit))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
