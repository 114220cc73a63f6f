"""`make bench`: the Caucasian / jail generator (``pipcore.caucasian.Turn``) against backgammon's budgets.

The corpus is rebuilt from fixed seeds on every run (nothing stored):

* **in play** (the median): positions met in seeded self-play under each
  option set of RULES.md section 3, kept when ``variants.make_turn`` hands the
  roll to the Caucasian generator (a hit in scope reachable before the last
  die): the turns a player of these options really meets;
* **searched** (the worst case): the ones with the most plays in a seeded search
  over spread positions with opponent blots in the mover's home board and
  small doubles (the costliest shape: many checkers, many hits, marks),
  plus the embedded cases of tests/pico/bench_caucasian.py.

WASM MicroPython runs tests/pico/bench_caucasian.py (the script a maker runs
on the Pico) on that corpus; Pico estimate = WASM x 20 (DEVELOPERS.md).
Budgets (PASS/FAIL each; exit 1 on any FAIL), the same as the standard
generator's (issue 2): Pico worst <= 150 ms, median <= 10 ms, heap <= 24 KB
per generation; and those of tests/bench/bench_steps.py for ``Turn.steps``
(the board's question as checkers move): first call of a turn <= 150 ms,
each later call <= 20 ms.
"""

import ast
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests")]

import rules_positions as gen  # noqa: E402
from pipcore import caucasian  # noqa: E402
from pipcore.position import Position  # noqa: E402
from pipcore.variants import make_turn  # noqa: E402

PICO_SCRIPT = os.path.join(ROOT, "tests", "pico", "bench_caucasian.py")
SEED = 2027
WALK = 300  # self-play positions per option set
SEARCHED = 300  # spread positions with home blots tried for the worst case
KEEP_SLOWEST = 15
PICO_FACTOR = 20
BUDGET_WORST_MS = 150.0
BUDGET_MEDIAN_MS = 10.0
BUDGET_HEAP = 24 * 1024
BUDGET_STEPS_FIRST_MS = 150.0  # tests/bench/bench_steps.py: set up while the dice roll
BUDGET_STEPS_MS = 20.0  # each call part-way through a turn (a checker lifted)
OPTION_SETS = [  # (caucasian, scope, jail)
    (True, "home", False),
    (True, "board", False),
    (False, "home", True),
    (True, "home", True),
    (True, "board", True),
]


def embedded_cases():
    """The CASES list of the Pico script, read without running it."""
    tree = ast.parse(open(PICO_SCRIPT).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CASES":
            return [(i, tuple(d), c, s, j) for i, d, c, s, j in ast.literal_eval(node.value)]
    raise SystemExit("no CASES in %s" % PICO_SCRIPT)


def _options(cauc, scope, jail):
    return {"caucasian": cauc, "caucasianScope": scope, "jailBearOff": jail}


def in_play(rng):
    """[(Position ID, dice, caucasian, scope, jail)] of self-play turns the Caucasian generator plays."""
    out = []
    for cauc, scope, jail in OPTION_SETS:
        opts = _options(cauc, scope, jail)
        used = []

        def pick(pos, dice):
            turn = make_turn(pos, dice, options=opts)
            if isinstance(turn, caucasian.Turn):
                used.append((pos.position_id(), dice, cauc, scope, jail))
            return turn.result(rng.choice(turn.plays))

        gen.random_walk(rng, WALK, pick)
        out += used
    return out


def blot_position(rng):
    """The mover spread one or two a point; two to four opponent blots in its home and outer board."""
    me = bytearray(26)
    opp = bytearray(26)
    for _ in range(15):
        p = rng.randint(1, 24) if rng.random() < 0.7 else rng.randint(1, 12)
        if me[p] < 3:
            me[p] += 1
    free = [t for t in range(1, 13) if not me[t]]
    for t in rng.sample(free, min(len(free), rng.randint(2, 4))):
        opp[25 - t] = 1
    while sum(opp[1:]) < 12:  # the rest far away, stacked
        q = rng.randint(1, 12)
        if not me[25 - q]:
            opp[q] += 2
    me[0] = 15 - sum(me[1:])
    opp[0] = max(0, 15 - sum(opp[1:]))
    pos = Position(me, opp)
    try:
        pos.validate()
    except ValueError:
        return None
    return pos


def searched(rng):
    """The most plays (the cost follows them; a count keeps the corpus the same on every run)
    in a seeded search over blot positions and small doubles."""
    found = []
    tried = 0
    while tried < SEARCHED:
        pos = blot_position(rng)
        if pos is None:
            continue
        tried += 1
        cauc, scope, jail = OPTION_SETS[tried % len(OPTION_SETS)]
        for d in (1, 2, 3):
            plays = len(caucasian.Turn(pos, (d, d), caucasian=cauc, scope=scope, jail=jail).plays)
            found.append((plays, pos.position_id(), (d, d), cauc, scope, jail))
    found.sort(reverse=True)
    return [case[1:] for case in found[:KEEP_SLOWEST]]


def run_pico(cases):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "caucasian_corpus.txt")
        with open(path, "w") as f:
            for pid, dice, cauc, scope, jail in cases:
                f.write("%s %d %d %d %s %d\n" % (pid, dice[0], dice[1], cauc, scope, jail))
        cmd = ["node", os.path.join(ROOT, "tests", "mp_run.mjs"), "--mount", tmp + ":/corpus", PICO_SCRIPT,
               "/corpus/caucasian_corpus.txt"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        print(proc.stdout[-2000:] + proc.stderr[-2000:])
        raise SystemExit("FAIL bench_caucasian: the MicroPython script failed")
    rows = []
    for line in proc.stdout.splitlines():
        if line.startswith("case "):
            fields = dict(f.split("=") for f in line.split() if "=" in f)
            parts = line.split()
            rows.append((int(fields["us"]), int(fields["heap"]), int(fields["plays"]), " ".join(parts[2:5]),
                         int(fields["steps_first_us"]), int(fields["steps_us"])))
    if len(rows) != len(cases):
        raise SystemExit("FAIL bench_caucasian: %d results for %d cases" % (len(rows), len(cases)))
    return rows


def verdict(ok, text):
    print("  %s %s" % ("PASS" if ok else "FAIL", text))
    return ok


def main():
    rng = random.Random(SEED)
    play = in_play(rng)
    worst_cases = embedded_cases() + searched(rng)
    print("corpus: %d turns met in self-play (5 option sets) + %d worst-case candidates (%d embedded, %d searched)"
          % (len(play), len(worst_cases), len(embedded_cases()), len(worst_cases) - len(embedded_cases())))
    rows = run_pico(play + worst_cases)
    played = rows[:len(play)]
    median_us = statistics.median(r[0] for r in played)
    worst = max(rows)
    heap = max(r[1] for r in rows)
    heap_case = max(rows, key=lambda r: r[1])
    print("WASM MicroPython (node CPU time), Pico estimate = x %d:" % PICO_FACTOR)
    ok = verdict(worst[0] * PICO_FACTOR / 1000.0 <= BUDGET_WORST_MS,
                 "worst  %6d us WASM = %6.1f ms Pico (budget %d ms): %s, %d plays"
                 % (worst[0], worst[0] * PICO_FACTOR / 1000.0, BUDGET_WORST_MS, worst[3], worst[2]))
    ok &= verdict(median_us * PICO_FACTOR / 1000.0 <= BUDGET_MEDIAN_MS,
                  "median %6d us WASM = %6.1f ms Pico (budget %d ms) over the %d self-play turns"
                  % (median_us, median_us * PICO_FACTOR / 1000.0, BUDGET_MEDIAN_MS, len(played)))
    worst_median = statistics.median(r[0] for r in rows[len(play):])
    print("         (median of the worst-case candidates alone: %d us WASM = %.1f ms Pico)"
          % (worst_median, worst_median * PICO_FACTOR / 1000.0))
    ok &= verdict(heap <= BUDGET_HEAP, "heap   %6.1f KB per generation (budget %d KB): %s"
                  % (heap / 1024.0, BUDGET_HEAP // 1024, heap_case[3]))
    first = max(rows, key=lambda r: r[4])
    later = max(rows, key=lambda r: r[5])
    ok &= verdict(first[4] * PICO_FACTOR / 1000.0 <= BUDGET_STEPS_FIRST_MS,
                  "steps, first call of a turn %6d us WASM = %6.1f ms Pico (budget %d ms): %s, %d plays"
                  % (first[4], first[4] * PICO_FACTOR / 1000.0, BUDGET_STEPS_FIRST_MS, first[3], first[2]))
    ok &= verdict(later[5] * PICO_FACTOR / 1000.0 <= BUDGET_STEPS_MS,
                  "steps, a call part-way    %6d us WASM = %6.1f ms Pico (budget %d ms): %s, %d plays"
                  % (later[5], later[5] * PICO_FACTOR / 1000.0, BUDGET_STEPS_MS, later[3], later[2]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
