"""`make bench`: legal-play generation (``pipcore.rules.Turn``) against the budgets of issue 2.

The corpus is rebuilt from fixed seeds on every run (nothing stored): positions
met in seeded self-play, the enrichers of the differential test (bar entries,
closed boards, bear-offs, primes, forced dice, partial doubles, spread-out
positions), the embedded cases of tests/pico/bench_rules.py (which hold the
slowest positions we could build by hill-climbing the number of distinct plays
of small doubles) and the slowest of a seeded search over spread positions.

Figures:

* CPython: positions per second over the corpus (best of 3 passes), worst and
  median single case;
* unix MicroPython: tests/pico/bench_rules.py, the very script a maker runs on
  the Pico, with the firmware compiled to .mpy (tests/bench/mpy_host.py), run
  twice: with the corpus as a file and as it is (its embedded cases); the
  script turns its times into Pico estimates with the measured ratio of
  generation (tests/bench/README.md) and prints the PASS/FAIL lines;
* anchors on the same corpus: gnubg's C move generator (PyPI ``gnubg-nn``,
  ``gnubg_nn.moves``: generation only, no evaluation; for scale also PyPI
  ``gnubg``'s ``find_best_moves``, which evaluates every play at 0 ply) and
  the pure-Python ``gym-backgammon`` (``Backgammon.get_valid_plays``).
  OpenSpiel is not measured: its backgammon is C++ and its Python API cannot
  set up an arbitrary position.

CPython times are CPU time (``time.process_time``); the unix MicroPython's
are the best of several short batches (the least disturbed by other jobs).
Where valgrind is installed the Pico's worst and median are judged by
instruction count (tests/bench/instructions.py: this shared host's clock moves
+-40%): every case generated once more under callgrind, without the native
modules (their plain twins run: the upper bound), times the generation's ns
per instruction; the wall-clock estimates are printed beside them.

Budgets (PASS/FAIL each; exit 1 on any FAIL): Pico worst <= 150 ms, median
<= 10 ms, heap <= 24 KB per generation, CPython >= the fastest pure-Python peer.
"""

import ast
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests"), os.path.dirname(os.path.abspath(__file__))]

import instructions  # noqa: E402
import rules_positions as gen  # noqa: E402
from pipcore.position import Position  # noqa: E402
from pipcore.rules import Turn  # noqa: E402
from mpy_host import fields as mpy_fields, run_pico_script  # noqa: E402

PICO_SCRIPT = os.path.join(ROOT, "tests", "pico", "bench_rules.py")
SEED = 2026
WALK = 800
PER_ENRICHER = 40
PER_TARGETED = 20
SEARCHED = 400  # spread positions searched for slow small doubles
KEEP_SLOWEST = 30

CLOCK = time.process_time  # CPU seconds: the host is shared, wall time would count the other jobs


def embedded_cases():
    """The CASES tuple of the Pico script, read without running it."""
    tree = ast.parse(open(PICO_SCRIPT).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CASES":
            return [(i, (a, b)) for i, a, b in ast.literal_eval(node.value)]
    raise SystemExit("no CASES in %s" % PICO_SCRIPT)


def build_corpus():
    """[(Position ID, dice, kind)], the same on every run."""
    rng = random.Random(SEED)
    cases = []
    seen = set()

    def add(pos_id, dice, kind):
        key = (pos_id, min(dice), max(dice))
        if key not in seen:
            seen.add(key)
            cases.append((pos_id, dice, kind))

    def pick(pos, dice):
        turn = Turn(pos, dice)
        return turn.result(rng.choice(turn.plays))

    for pos, dice in gen.random_walk(rng, WALK, pick):
        add(pos.position_id(), dice, "self-play")
    for enrich in gen.ENRICHERS:
        for i in range(PER_ENRICHER):
            pos = enrich(rng)
            dice = (rng.randint(1, 3),) * 2 if enrich is gen.spread and i % 2 else gen.roll(rng)
            add(pos.position_id(), dice, enrich.__name__)
    for target in gen.TARGETED:
        for _ in range(PER_TARGETED):
            pos, dice = target(rng)
            add(pos.position_id(), dice, target.__name__)
    for pos_id, dice in embedded_cases():
        add(pos_id, dice, "embedded")
    found = []
    for _ in range(SEARCHED):
        pos = gen.spread(rng)
        for d in (1, 2, 3, 4):
            found.append((len(Turn(pos, (d, d)).plays), pos.position_id(), (d, d)))
    found.sort(reverse=True)
    for _, pos_id, dice in found[:KEEP_SLOWEST]:
        add(pos_id, dice, "searched")
    return cases


def cpython_figures(cases):
    positions = [(Position.from_id(i), d) for i, d, _ in cases]
    best_pass = None
    for _ in range(3):
        t0 = CLOCK()
        for pos, dice in positions:
            Turn(pos, dice)
        elapsed = CLOCK() - t0
        best_pass = elapsed if best_pass is None else min(best_pass, elapsed)
    per_case = []
    for pos, dice in positions:
        best = None
        for _ in range(3):
            t0 = CLOCK()
            Turn(pos, dice)
            elapsed = CLOCK() - t0
            best = elapsed if best is None else min(best, elapsed)
        per_case.append(best)
    return len(positions) / best_pass, per_case


def pico_figures(corpus_file=None):
    """tests/pico/bench_rules.py under the unix MicroPython (firmware as .mpy); (rc, rows, summary lines)."""
    rc, out = run_pico_script("bench_rules.py", [corpus_file] if corpus_file else [], echo=False)
    rows = []
    summary = []
    for line in out.splitlines():
        if line.startswith("case "):
            f = mpy_fields(line)
            parts = line.split()
            rows.append((parts[2], parts[3], f["plays"], f["us"], f["heap"]))
        else:
            summary.append(line)
    if not rows:
        raise SystemExit("the Pico script failed under the unix MicroPython:\n" + out[-2000:])
    if instructions.have_valgrind():
        rc, summary = by_instructions(rows, summary)
    return rc, rows, summary


COUNT_BODY = """
import gc
from pipcore.playcodes import play_store
from pipcore.position import Position
from pipcore.rules import Turn
STORE = play_store(2304)
for k, (pid, a, b) in enumerate(%r):
    args = (Position.from_id(pid), (a, b))
    Turn(args[0], args[1], STORE)
    gc.collect()
    counted(lambda x: Turn(x[0], x[1], STORE), args)
    print("G", k)
"""


def by_instructions(rows, summary):
    """The worst and median verdicts of ``summary`` judged by instruction counts (module docstring);
    (exit code, summary lines)."""
    cases = sorted(set((pid, int(dice[0]), int(dice[2])) for pid, dice, _, _, _ in rows))
    counts, out = instructions.count(COUNT_BODY % (cases,), plain=True)
    if len(counts) != out.count("G "):
        raise SystemExit("callgrind: %d counts for %d generations" % (len(counts), out.count("G ")))
    of = dict(zip(cases, counts))
    per_row = sorted((of[(pid, int(dice[0]), int(dice[2]))], pid, dice) for pid, dice, _, _, _ in rows)
    ns = instructions.NS_PER_INSTRUCTION["generation"]
    judged = {}
    for name, (n, pid, dice), budget in (("rules worst", per_row[-1], 150),
                                         ("rules median", per_row[len(per_row) // 2], 10)):
        judged[name] = (n * ns / 1e6, "%.2f M unix instructions x %.1f ns, %s %s, plain twins" % (n / 1e6, ns, pid, dice),
                        budget)
    failures, out_lines = instructions.rejudge(summary, judged)
    return (1 if failures else 0), out_lines


def gnubg_c_rate(cases):
    try:
        import gnubg_nn
    except ImportError:
        return None, "gnubg-nn not installed (pip install -e '.[bench]')"
    boards = []
    for pos_id, dice, _ in cases:
        pos = Position.from_id(pos_id)
        boards.append(([list(pos.opp[1:26]), list(pos.me[1:26])], dice))
    best = None
    for _ in range(3):
        t0 = CLOCK()
        for board, (a, b) in boards:
            gnubg_nn.moves(board, a, b)
        elapsed = CLOCK() - t0
        best = elapsed if best is None else min(best, elapsed)
    return len(boards) / best, "gnubg_nn.moves (C GenerateMoves, keys of the resulting positions)"


def gnubg_eval_rate(cases):
    """gnubg's FindnSaveBestMoves (PyPI gnubg): generation plus a 0-ply evaluation of every play."""
    try:
        import gnubg
    except ImportError:
        return None
    cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)
    zero_ply = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    boards = []
    for pos_id, dice, _ in cases:
        pos = Position.from_id(pos_id)
        boards.append(((tuple(pos.opp[1:26]), tuple(pos.me[1:26])), dice))
    t0 = CLOCK()
    for board, dice in boards:
        gnubg.find_best_moves(board, cube, zero_ply, dice)
    return len(boards) / (CLOCK() - t0)


def gym_rate(cases):
    # its package __init__ pulls in gym and a pyglet renderer; the rules module stands alone
    import importlib.util

    spec = importlib.util.find_spec("gym_backgammon")
    if spec is None:
        return None, 0, "gym-backgammon not installed (pip install -e '.[bench]')"
    path = os.path.join(os.path.dirname(spec.origin), "envs", "backgammon.py")
    module_spec = importlib.util.spec_from_file_location("gym_backgammon_rules", path)
    rules = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(rules)
    BLACK, WHITE, Backgammon = rules.BLACK, rules.WHITE, rules.Backgammon
    games = []
    for pos_id, dice, _ in cases:
        pos = Position.from_id(pos_id)
        game = Backgammon()
        board = [(0, None)] * 24
        for p in range(1, 25):
            if pos.me[p]:
                board[p - 1] = (pos.me[p], WHITE)  # WHITE moves from index 23 down to 0
            if pos.opp[p]:
                board[24 - p] = (pos.opp[p], BLACK)  # the opponent's point p is the mover's 25 - p
        game.board = board
        game.bar = [pos.me[25], pos.opp[25]]
        game.off = [pos.me[0], pos.opp[0]]
        game.players_positions = game.get_players_positions()
        games.append((game, dice))
    failures = 0
    best = None
    for _ in range(3):
        failures = 0
        t0 = CLOCK()
        for game, dice in games:
            try:
                game.get_valid_plays(WHITE, dice)
            except Exception:  # its own bugs on unusual positions; counted, not timed apart
                failures += 1
        elapsed = CLOCK() - t0
        best = elapsed if best is None else min(best, elapsed)
    return len(games) / best, failures, "gym_backgammon Backgammon.get_valid_plays (pure Python)"


def verdict(ok, text):
    print("%s %s" % (text, "PASS" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    t_start = time.time()
    cases = build_corpus()
    kinds = {}
    for _, _, kind in cases:
        kinds[kind] = kinds.get(kind, 0) + 1
    print("corpus: %d positions+rolls (%s)" % (len(cases), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))

    cpy_rate, cpy_cases = cpython_figures(cases)
    worst_index = max(range(len(cases)), key=lambda i: cpy_cases[i])
    print("CPython %s: %.0f positions/s; worst %.2f ms (%s %d-%d), median %.3f ms" % (
        sys.version.split()[0], cpy_rate, cpy_cases[worst_index] * 1e3, cases[worst_index][0],
        cases[worst_index][1][0], cases[worst_index][1][1], statistics.median(cpy_cases) * 1e3))

    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rules_corpus.txt")
        with open(path, "w") as f:
            for pos_id, (a, b), _ in cases:
                f.write("%s %d %d\n" % (pos_id, a, b))
        rc, rows, summary = pico_figures(path)
    failed += rc != 0
    worst_row = max(rows, key=lambda r: r[3])
    print("unix MicroPython (.mpy), the whole corpus: worst %d us (%s %s, %d plays)" % (
        worst_row[3], worst_row[0], worst_row[1], worst_row[2]))
    for line in summary:
        print("  " + line)
    rc, rows, summary = pico_figures()
    failed += rc != 0
    print("tests/pico/bench_rules.py as a maker runs it (its %d embedded cases):" % len(rows))
    for line in summary:
        print("  " + line)

    c_rate, c_note = gnubg_c_rate(cases)
    gym, gym_failures, gym_note = gym_rate(cases)
    gnubg_eval = gnubg_eval_rate(cases)
    print("anchors on the same corpus:")
    if c_rate:
        print("  gnubg C generator: %.0f positions/s (%s); ours on CPython = %.3f x" % (c_rate, c_note,
                                                                                      cpy_rate / c_rate))
    else:
        print("  gnubg C generator: not measured: %s" % c_note)
    if gnubg_eval:
        print("  gnubg find_best_moves (PyPI gnubg; generation + 0-ply evaluation of every play): %.0f positions/s"
              % gnubg_eval)
    if gym:
        print("  gym-backgammon: %.0f positions/s (%s; %d raised); ours on CPython = %.2f x" % (
            gym, gym_note, gym_failures, cpy_rate / gym))
    else:
        print("  gym-backgammon: not measured: %s" % gym_note)
    print("  OpenSpiel backgammon: not measured (C++, and its Python API cannot set up an arbitrary position)")

    if gym:
        failed += verdict(cpy_rate >= gym, "CPython %.0f positions/s >= gym-backgammon %.0f" % (cpy_rate, gym))
    else:
        failed += verdict(False, "CPython against the pure-Python peer: peer not installed")
    print("(bench took %.0f s)" % (time.time() - t_start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
