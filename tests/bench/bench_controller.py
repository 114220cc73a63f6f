"""`make bench`: the whole app (tests/pico/bench_controller.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy exactly as ``pipboard deploy`` compiles it (tests/bench/mpy_host.py):

* times: the script turns them into Pico estimates with the measured ratios
  (tests/bench/README.md) and prints PASS/FAIL: settled switch change -> LED
  frame 20 ms (limited frame included), roll -> marks 200 ms, DONE -> saved
  200 ms;
* heap (issue 10): the script, its worst turns included (the 2,226-play 1-1),
  must run to the end with ``-X heapsize=240k`` (the unix port is 64-bit:
  objects take about 1.5 x the Pico's bytes, so 240 KB here is about 160 KB
  of the Pico's 241 KB free heap: a third left free at the worst moment).
  The smallest heap that passes is bisected to 4 KB and printed.

Also reported: the CPython speed of the whole simulated board (games/s).
"""

import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools")]

from mpy_host import passes, run_pico_script, smallest_heap  # noqa: E402

SCRIPT = "bench_controller.py"
HEAP_BUDGET = 240 * 1024


def sim_games_per_second(n=20):
    from pipboard.simboard import SimBoard, VirtualPlayer

    board = SimBoard(seed=7)
    player = VirtualPlayer(board, random.Random(7))
    t0 = time.process_time()
    for _ in range(n):
        player.play_game()
    return n / (time.process_time() - t0), player.stats


def main():
    ok = passes(SCRIPT, HEAP_BUDGET)
    low = smallest_heap(SCRIPT, step=4096, high=4 * 1024 * 1024)
    # times in a heap like the board's (a collection sweeps the whole heap: a huge one would slow it)
    rc, _ = run_pico_script(SCRIPT, heapsize=max(HEAP_BUDGET, (low or 0) * 5 // 4))
    print("%s %s runs to the end with -X heapsize=%dk (the smallest heap that passes: %s)"
          % ("PASS" if ok else "FAIL", SCRIPT, HEAP_BUDGET // 1024, "%dk" % (low // 1024) if low else "none"))
    try:
        rate, stats = sim_games_per_second()
        print("simulated board (CPython, the app on the driver twins): %.1f games/s (%d turns, %d power cuts)"
              % (rate, stats["turns"], stats["resumed"]))
    except Exception as exc:  # the simulator is being rewritten; its speed is a figure, not a budget
        print("simulated board: not measured (%s: %s)" % (type(exc).__name__, exc))
    return 1 if rc or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
