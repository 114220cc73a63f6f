"""`make bench`: Turn.steps / Turn.is_complete timings, WASM MicroPython and Pico estimate.

Runs tests/pico/bench_steps.py (the same script a maker runs on the Pico) under
WASM MicroPython and under CPython, multiplies the WASM figures by 20 (DEVELOPERS.md)
and checks the controller's budget: each call part-way through a turn at most
20 ms on the Pico estimate (the controller asks whenever a checker is lifted).
The first call of a turn also sets up per-turn data; the controller makes it
while the dice roll, so it is reported against the generation budget (150 ms).
Prints PASS/FAIL per budget; exits 1 on any FAIL.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "pico", "bench_steps.py")
PICO_FACTOR = 20
STEP_BUDGET_US = 20000
FIRST_BUDGET_US = 150000


def run(cmd, env=None):
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        raise SystemExit("FAIL bench_steps: %s failed" % cmd[0])
    last = proc.stdout.strip().splitlines()[-1]
    return dict((k, float(v)) for k, v in re.findall(r"(\w+)=([\d.]+)", last)), proc.stdout


def main():
    wasm, text = run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), SCRIPT])
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware"))
    cpython, _ = run([sys.executable, SCRIPT], env=env)
    cases = [line for line in text.splitlines() if line.startswith("case ")]
    slowest = sorted(cases, key=lambda line: -float(re.search(r"worst_step_us=([\d.]+)", line).group(1)))[:3]
    print("Turn.steps + Turn.is_complete over %d rolls (positions part-way through legal plays)" % len(cases))
    print("%-28s %10s %10s %14s" % ("figure", "CPython us", "WASM us", "Pico est. us"))
    for key in ("median_step_us", "worst_step_us", "worst_first_us"):
        print("%-28s %10.0f %10.0f %14.0f" % (key, cpython[key], wasm[key], wasm[key] * PICO_FACTOR))
    print("heap per steps() call on MicroPython: at most %d bytes" % wasm["max_heap_bytes"])
    print("slowest cases (WASM):")
    for line in slowest:
        print("  " + line)
    failed = 0
    for key, budget in (("worst_step_us", STEP_BUDGET_US), ("worst_first_us", FIRST_BUDGET_US)):
        est = wasm[key] * PICO_FACTOR
        ok = est <= budget
        failed += not ok
        print("%s %s: %.0f us on the Pico estimate (budget %d us)" % ("PASS" if ok else "FAIL", key, est, budget))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
