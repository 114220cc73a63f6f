"""Same readings, marks, messages and LED frames as another firmware, change after change.

    python tests/bench/differential.py OTHER_TREE [SEEDS] [PLAYS]

OTHER_TREE: a firmware tree built as ``pipboard deploy`` builds it (``.mpy``), for instance main's::

    git worktree add /tmp/ref main && (cd /tmp/ref && python -c "import sys, shutil; \\
        sys.path[:0] = ['tests/bench', 'tests', 'host_tools', 'firmware']; import mpy_host; \\
        shutil.copytree(mpy_host.mpy_tree(), '/tmp/ref_tree')")

This worktree's firmware is built the same way; ``tests/mp/differential_play.py`` plays SEEDS (default
1..20) random games of PLAYS plays (default 60) on each, under the unix MicroPython (native code where the
port has it), and every line of output must be the same. Used to check that speed work changed nothing a
person sees (tests/bench/README.md).
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mpy_host  # noqa: E402


def play(tree, seed, plays):
    env = dict(os.environ, MICROPYPATH=tree + ":" + os.path.join(mpy_host.ROOT, "tests", "mp"))
    proc = subprocess.run([mpy_host.unix_micropython(), "-X", "heapsize=1m",
                           os.path.join(mpy_host.ROOT, "tests", "mp", "differential_play.py"), str(seed), str(plays)],
                          cwd=HERE, env=env, capture_output=True, text=True, timeout=1800)
    return proc.stdout + proc.stderr


def main():
    other = sys.argv[1]
    seeds = range(1, 1 + int(sys.argv[2])) if len(sys.argv) > 2 else range(1, 21)
    plays = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    mine = mpy_host.mpy_tree()
    lines = wrong = 0
    for seed in seeds:
        a = play(other, seed, plays)
        b = play(mine, seed, plays)
        if a != b:
            for k, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
                if x != y:
                    print("seed %d, line %d differs:\n  %s\n  %s" % (seed, k + 1, x, y))
                    break
            else:
                print("seed %d: the outputs differ in length" % seed)
            return 1
        lines += len(b.splitlines())
        wrong += b.count("wrong point")
        print("seed %d: the same (%d changes and presses)" % (seed, len(b.splitlines())))
    print("PASS %d seeds, %d lines, %d wrong placements shown: the same on both trees" % (len(seeds), lines, wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
