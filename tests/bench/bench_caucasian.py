"""`make bench`: the Caucasian / jail generator under the WebAssembly MicroPython.

Runs tests/pico/bench_caucasian.py under WASM MicroPython and prints the Pico
estimate (x 20) beside backgammon's budgets (worst <= 150 ms, median <= 10 ms,
heap <= 24 KB). Informational: no budget was set for these options (they only
apply when an opponent blot can be hit in scope), so the script reports OVER
instead of failing `make bench`; the figures say where the generator stands.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PICO_FACTOR = 20


def main():
    script = os.path.join(ROOT, "tests", "pico", "bench_caucasian.py")
    proc = subprocess.run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), script], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL bench_caucasian: the MicroPython script failed")
        return 1
    n, median, worst, case, heap = proc.stdout.split()
    median_ms = int(median) * PICO_FACTOR / 1000.0
    worst_ms = int(worst) * PICO_FACTOR / 1000.0
    print("Caucasian/jail: one Turn in a position where a hit in scope is possible (%s samples)" % n)
    print("median %s us WASM = %.1f ms Pico estimate (%s)"
          % (median, median_ms, "ok" if median_ms <= 10 else "OVER 10 ms"))
    print("worst  %s us WASM = %.1f ms Pico estimate, %s (%s)" % (worst, worst_ms, case.replace("_", " "),
                                                                 "ok" if worst_ms <= 150 else "OVER 150 ms"))
    print("heap allocated while generating (gc off): %.1f KB (%s)" % (int(heap) / 1024.0,
                                                                      "ok" if int(heap) <= 24 * 1024 else "OVER 24 KB"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
