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

The unix MicroPython runs tests/pico/bench_caucasian.py (the script a maker
runs on the Pico) on that corpus with the firmware compiled to .mpy
(tests/bench/mpy_host.py); the script turns its times into Pico estimates with
the measured ratios of ``pipbench`` (tests/bench/README.md) and prints one
PASS/FAIL line per budget: Pico worst <= 150 ms, median <= 10 ms over the
self-play turns, heap <= 24 KB per generation; ``Turn.steps`` first call of a
turn <= 150 ms, each later call <= 20 ms.

The worst case is judged by instruction count where valgrind is installed
(tests/bench/instructions.py): every case is generated once more under
callgrind, in bytecode (without ``pipcore.caunative``: its plain loops run, an
upper bound), its first ``steps`` call too, and the later calls of the cases
slowest at them or with the most plays; their
instructions times the generation's ns per instruction are the estimate of
record. The wall-clock estimate is printed beside it: on a shared host it moves
by +-40% with the neighbours' load, and this budget sits inside that band.
"""

import ast
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests"), os.path.dirname(os.path.abspath(__file__))]

import instructions  # noqa: E402
import rules_positions as gen  # noqa: E402
from pipcore import caucasian  # noqa: E402
from pipcore.position import Position  # noqa: E402
from pipcore.variants import make_turn  # noqa: E402
from mpy_host import run_pico_script  # noqa: E402

PICO_SCRIPT = os.path.join(ROOT, "tests", "pico", "bench_caucasian.py")
SEED = 2027
WALK = 300  # self-play positions per option set
SEARCHED = 300  # spread positions with home blots tried for the worst case
KEEP_SLOWEST = 15
COUNTED = 12  # steps part-way, counted for this many slowest at it by the clock and as many with the most plays
WORST_LINE = "caucasian worst"
BUDGET_MS = 150
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


def main():
    rng = random.Random(SEED)
    play = in_play(rng)
    worst_cases = searched(rng)
    print("corpus: %d turns met in self-play (5 option sets) + %d searched worst-case candidates "
          "+ the script's embedded cases" % (len(play), len(worst_cases)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "caucasian_corpus.txt")
        with open(path, "w") as f:
            for rows, flag in ((play, " play"), (embedded_cases() + worst_cases, "")):
                for pid, dice, cauc, scope, jail in rows:
                    f.write("%s %d %d %d %s %d%s\n" % (pid, dice[0], dice[1], cauc, scope, jail, flag))
        rc, out = run_pico_script("bench_caucasian.py", [path], echo=False)
    cases = [line for line in out.splitlines() if line.startswith("case ")]
    slowest = sorted(cases, key=lambda line: -int(line.split("us=")[1].split()[0]))[:3]
    print("slowest generations (unix MicroPython, us):")
    for line in slowest:
        print("  " + line)
    rest = [line for line in out.splitlines() if not line.startswith("case ")]
    if not instructions.have_valgrind() or not cases:  # the wall clock's verdicts
        print("\n".join(rest))
        return rc
    failures, lines = instructions.rejudge(rest, by_instructions(cases, len(play)))
    print("\n".join(lines))
    return 1 if failures else 0


def _field(line, name):
    return int(line.split(name + "=")[1].split()[0])


def _case(line):
    """(Position ID, d1, d2, caucasian, scope, jail) of a ``case ...`` line of the Pico script."""
    p = line.split()
    return p[2], int(p[3][0]), int(p[3][2]), p[4][0] == "1", p[4][1:-1], p[4][-1] == "1"


def by_instructions(cases, n_play):
    """{budget line's name: (Pico ms, how, budget ms)} for the time budgets, from instruction counts
    (module docstring): generation of every case (the median: over the corpus's first ``n_play``, the
    self-play turns) and of its first ``steps`` call; ``steps`` part-way of the cases slowest at it by the
    clock and of those with the most plays."""
    work = {}  # case -> bits: 1 generation, 2 steps' first call, 4 steps part-way

    def take(lines, bit):
        for line in lines:
            work[_case(line)] = work.get(_case(line), 0) | bit

    def top(field):
        return sorted(cases, key=lambda line: -_field(line, field))[:COUNTED]

    take(cases, 1 | 2)  # every case's generation and first steps call (the clock's ranking moves with the load)
    take(top("steps_us") + top("plays"), 4)
    body = """
import gc
from pipcore import caucasian
from pipcore.position import decode_position_id
from pipcore.rules import apply_move
for k, (pid, d1, d2, c, sc, j, what) in enumerate(%r):
    pos = decode_position_id(pid)
    a = (pos, (d1, d2), c, sc, j)
    caucasian.Turn(*a)
    gc.collect()
    if what & 1:
        counted(lambda a: caucasian.Turn(*a), a)
        print("G", k)
    if what & 2:
        counted(caucasian.Turn(*a).steps, pos)
        print("F", k)
    if what & 4:
        turn = caucasian.Turn(*a)
        for s, t, _ in turn.steps(pos) or ():
            p1 = pos.copy()
            apply_move(p1, s, t)
            turn.steps(p1)
            counted(turn.steps, p1)
            print("P", k)
            nxt = turn.steps(p1)
            if nxt:
                apply_move(p1, nxt[-1][0], nxt[-1][1])
                turn.steps(p1)
                counted(turn.steps, p1)
                print("P", k)
"""
    order = list(work)
    # plain: without pipcore.caunative (native instructions are this CPU's, not the Pico's)
    counts, out = instructions.count(body % ([case + (work[case],) for case in order],), plain=True)
    tags = [(line[0], order[int(line[2:])]) for line in out.splitlines() if line[:2] in ("G ", "F ", "P ")]
    if len(tags) != len(counts):
        raise SystemExit("callgrind: %d counts for %d calls" % (len(counts), len(tags)))
    ns = instructions.NS_PER_INSTRUCTION["generation"]

    def how(n, case):
        return "%.2f M unix instructions x %.1f ns, %s %d-%d, bytecode" % (n / 1e6, ns, case[0], case[1], case[2])

    found = {}
    for tag, name, budget in (("G", WORST_LINE, 150), ("F", "caucasian steps, first call", 150),
                              ("P", "caucasian steps, part-way", 20)):
        n, case = max((n, case) for n, (t, case) in zip(counts, tags) if t == tag)
        found[name] = (n * ns / 1e6, how(n, case), budget)
    generation = dict((case, n) for n, (t, case) in zip(counts, tags) if t == "G")
    play = sorted(generation[_case(line)] for line in cases[:n_play])
    if play:
        n = play[len(play) // 2]
        found["caucasian median of %d self-play turns" % len(play)] = (
            n * ns / 1e6, "%.2f M unix instructions x %.1f ns, bytecode" % (n / 1e6, ns), 10)
    return found


if __name__ == "__main__":
    sys.exit(main())
