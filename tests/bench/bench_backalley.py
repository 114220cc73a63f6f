"""`make bench`: Back Alley engine timings under the WebAssembly MicroPython, with Pico estimates.

Runs tests/pico/bench_backalley.py (the same script a maker runs on the Pico) under
WASM MicroPython and multiplies by 20 (DEVELOPERS.md: a Pico is about 20 times
slower). Budget: one action (the legality query that lights the choices plus the
call or card itself) at most 10 ms on the Pico estimate, well inside a player's
reaction. Prints PASS/FAIL; exits 1 on FAIL.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PICO_FACTOR = 20
BUDGET_US = 10000


def main():
    script = os.path.join(ROOT, "tests", "pico", "bench_backalley.py")
    proc = subprocess.run(["node", os.path.join(ROOT, "tests", "mp_run.mjs"), script], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL bench_backalley: the MicroPython script failed")
        return 1
    fields = {}
    for word in proc.stdout.split():
        if "=" in word:
            name, value = word.split("=", 1)
            fields[name] = int(value)
    per_action = fields["us_per_action"]
    print("a whole game: %d actions in %d us WASM (Pico est. %.1f s); heap churn %d bytes; record log %d bytes"
          % (fields["actions"], fields["us"], fields["us"] * PICO_FACTOR / 1e6, fields["heap"], fields["log"]))
    est = per_action * PICO_FACTOR
    ok = est <= BUDGET_US
    print("%s backalley action: %d us on the Pico estimate (WASM %d us; budget %d us)"
          % ("PASS" if ok else "FAIL", est, per_action, BUDGET_US))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
