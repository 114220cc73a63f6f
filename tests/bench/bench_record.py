"""`make bench`: game record timings under the WebAssembly MicroPython, with Pico estimates.

Runs tests/pico/bench_record.py (the same script a maker runs on the Pico) under WASM
MicroPython and multiplies by the measured WASM ratio of generation (tests/bench/README.md). Budgets, on the Pico estimate:
reading a whole 7-point match back after a power cut (frames, CRCs and the full
rules replay) within 10 s of switching on, and on average at most 60 bytes of
flash per turn of play. Prints PASS/FAIL; exits 1 on FAIL.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from pipbench import RATIOS  # noqa: E402  (the measured table, tests/bench/README.md)

PICO_FACTOR = RATIOS["wasm"]["generation"]  # WASM MicroPython -> Pico, generation-like work
RECOVERY_BUDGET_US = 10000000
BYTES_PER_ACTION_BUDGET = 60


def main():
    script = os.path.join(ROOT, "tests", "pico", "bench_record.py")
    proc = subprocess.run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), script], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL bench_record: the MicroPython script failed")
        return 1
    f = {}
    for word in proc.stdout.split():
        if "=" in word:
            name, value = word.split("=", 1)
            f[name] = int(value)
    recovery = (f["read_us"] + f["replay_us"]) * PICO_FACTOR
    per_action = f["bytes"] / f["actions"]
    print("a 7-point match: %d games, %d actions, %d bytes of record (%.1f per action); "
          "WASM write %d us, read %d us, replay %d us"
          % (f["games"], f["actions"], f["bytes"], per_action, f["write_us"], f["read_us"], f["replay_us"]))
    ok1 = recovery <= RECOVERY_BUDGET_US
    ok2 = per_action <= BYTES_PER_ACTION_BUDGET
    print("%s record recovery after a power cut: %.2f s on the Pico estimate (budget %.0f s)"
          % ("PASS" if ok1 else "FAIL", recovery / 1e6, RECOVERY_BUDGET_US / 1e6))
    print("%s record size: %.1f bytes per action (budget %d)"
          % ("PASS" if ok2 else "FAIL", per_action, BYTES_PER_ACTION_BUDGET))
    return 0 if ok1 and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
