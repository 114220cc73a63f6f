"""`make bench`: the whole app (tests/pico/bench_controller.py) under the unix MicroPython.

The script a maker runs on the Pico runs here with the firmware compiled to
.mpy exactly as ``pipboard deploy`` compiles it (tests/bench/mpy_host.py):

* times: the script turns them into Pico estimates with the measured ratios
  (tests/bench/README.md) and prints PASS/FAIL: settled switch change -> LED
  frame 20 ms (limited frame included), roll -> marks 200 ms, DONE -> saved
  200 ms;
* heap: the script, its worst turns included (the 2,226-play 1-1), must run
  to the end with ``-X heapsize=256k``. The unix port is 64-bit: this
  script's objects take 1.35 x the Pico's bytes (code 83,680 B here against
  63,744 B on the emulated Pico, its data 116,800 B against 85,584 B, at
  8a89165), so 256k here is about 190 KB of the Pico's 246 KB heap: the 50 KB
  left free at the worst moment that the on-target line asks for
  (tests/pico/heap.py measures that line on the Pico itself). The budget was
  240k when 1.5 x and a third left free were assumed. The smallest heap that
  passes is bisected to 4 KB and printed.

Where valgrind is installed the three time budgets are judged by instruction
counts (tests/bench/instructions.py: this shared host's clock moves +-40%,
and the frame's budget sits inside that band): every event of the bench's
turns is counted once under callgrind (``callgrind_controller.py --each``),
with the native modules taken out so that their plain twins run (x86-64
instructions are not the Pico's: the bytecode's count is the upper bound),
and the most instructions of each kind times the Pico's ns per instruction is
the estimate of record, at each event's ns per instruction measured on the
emulated Pico (instructions.NS_PER_INSTRUCTION: the Pico runs natively what
the count follows in plain twins), the scan added to a settled change. The
wall-clock estimates are printed beside them.

Also reported: the CPython speed of the whole simulated board (games/s).
"""

import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools")]

import instructions  # noqa: E402
from mpy_host import passes, run_pico_script, smallest_heap  # noqa: E402

SCRIPT = "bench_controller.py"
HEAP_BUDGET = 256 * 1024
SCAN_MS = 0.283  # the busy scan measured on the Pico (README, "Ratios"), added to every frame
# budget line -> (event kinds, ns per instruction, what is added, budget ms)
BY_INSTRUCTIONS = {
    "settled change -> LED frame, worst": (("lift", "wrong", "place"), "settled_change", SCAN_MS, 20),
    "roll -> movable checkers marked, worst": (("roll",), "roll_event", 0, 200),
    "DONE -> play committed and saved, worst": (("done",), "done_event", 0, 200),
}


def sim_games_per_second(n=20):
    from pipboard.simboard import SimBoard, VirtualPlayer

    board = SimBoard(seed=7)
    player = VirtualPlayer(board, random.Random(7))
    t0 = time.process_time()
    for _ in range(n):
        player.play_game()
    return n / (time.process_time() - t0), player.stats


def event_instructions():
    """{kind: the most instructions one event of that kind took}, plain twins in place of native code."""
    kinds = sorted(set(k for spec in BY_INSTRUCTIONS.values() for k in spec[0]))
    proc = subprocess.run([sys.executable, os.path.join(HERE, "callgrind_controller.py"), "--plain", "--reps", "1",
                           "--each"] + kinds, capture_output=True, text=True)
    most = {}
    for line in proc.stdout.splitlines():
        if line.startswith("EVENT "):
            _, kind, m, _ = line.split()
            most[kind] = max(most.get(kind, 0), int(float(m) * 1e6))
    if proc.returncode or set(most) != set(kinds):
        raise SystemExit("callgrind_controller.py failed:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    return most


def judge(out, rc):
    """Echo the Pico script's lines; with valgrind, the time budgets judged by instructions."""
    if not instructions.have_valgrind():
        sys.stdout.write(out)
        return rc
    most = event_instructions()
    judged = {}
    for name, (kinds, kind, plus, budget) in BY_INSTRUCTIONS.items():
        n, which = max((most[k], k) for k in kinds)
        judged[name] = (instructions.pico_ms(n, kind) + plus, "%.3f M unix instructions (%s, plain twins) x %.1f ns (%s)%s"
                        % (n / 1e6, which, instructions.NS_PER_INSTRUCTION[kind], kind,
                           " + %.2f ms scan" % plus if plus else ""), budget)
    failures, lines = instructions.rejudge(out.splitlines(), judged)
    print("\n".join(lines))
    return 1 if failures else 0


def main():
    ok = passes(SCRIPT, HEAP_BUDGET)
    low = smallest_heap(SCRIPT, step=4096, high=4 * 1024 * 1024)
    # times in a heap like the board's (a collection sweeps the whole heap: a huge one would slow it)
    rc, out = run_pico_script(SCRIPT, heapsize=max(HEAP_BUDGET, (low or 0) * 5 // 4), echo=False)
    rc = judge(out, rc)
    print("%s runs to the end with -X heapsize=%dk (the smallest heap that passes: %s) %s"
          % (SCRIPT, HEAP_BUDGET // 1024, "%dk" % (low // 1024) if low else "none", "PASS" if ok else "FAIL"))
    try:
        rate, stats = sim_games_per_second()
        print("simulated board (CPython, the app on the driver twins): %.1f games/s (%d turns, %d power cuts)"
              % (rate, stats["turns"], stats["resumed"]))
    except Exception as exc:  # the simulator is being rewritten; its speed is a figure, not a budget
        print("simulated board: not measured (%s: %s)" % (type(exc).__name__, exc))
    return 1 if rc or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
