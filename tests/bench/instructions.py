"""Pico estimates from instruction counts: the unix MicroPython under callgrind.

A shared development machine's wall clock moves with its neighbours: the very
script and firmware whose generation took 744 us on the day the ratio table
was made (tests/bench/README.md) take 741-1,067 us on another day, so a
wall-clock estimate near its budget passes or fails by the hour. The number of
instructions the unix port executes for the same work does not move, and the
Pico's time per such instruction is nearly the same across kinds of work
(12-17 ns, measured against every on-target figure: README, "Ratios"). So
for the budgets where that matters, the estimate of record is::

    Pico ms = instructions (unix MicroPython, .mpy as deployed) x ns per instruction of its kind

Work is counted as ``callgrind_controller.py`` counts it: the script calls
each piece through ``next(map(...))`` (``map``'s C function, which the
firmware never calls) and callgrind collects only inside it, one dump per call.
Needs valgrind (``make bench`` installs it).
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile

import mpy_host

# Pico ns per instruction of the unix MicroPython 1.29 (x86-64, .mpy), per kind of work:
# the on-target figures of d5a70d0 over callgrind's counts of the same scripts and
# firmware (README, "Ratios"). Generation: the larger of worst (102.7 ms / 8.29 M)
# and median (4.9 ms / 0.41 M).
NS_PER_INSTRUCTION = {"generation": 12.4, "scan": 15.9, "led_frame": 14.4, "limited_frame": 17.2,
                      "buttons": 14.8,
                      # Whole events of tests/pico/bench_controller.py. The count follows the plain twins
                      # of the native code (the LED frame, the search's counting), which the Pico runs
                      # natively: the emulated Pico's worst event over the count's worst, at 8a89165
                      # (settled change (11.74 - 0.28 scan) ms / 1.429 M, roll 87.88 ms / 12.009 M, DONE
                      # 82.10 ms / 6.244 M), rounded up. With the plain kinds above the same events came
                      # out 1.3-2.0x the measurement (README, "Instructions").
                      "settled_change": 8.1, "roll_event": 7.4, "done_event": 13.2}

# What a counted script starts with: ``counted(func, arg)`` runs ``func(arg)`` once inside the
# collected C call and returns its result.
HEAD = '''
def counted(func, arg):
    return next(map(lambda _: func(arg), (0,)))
'''


def have_valgrind():
    return shutil.which("valgrind") is not None


def count(body, heapsize=None, plain=False):
    """(instructions of each ``counted(...)`` call of the MicroPython script ``HEAD + body`` in order,
    the script's output). ``plain``: without the native modules (their plain twins run). Raises
    ``RuntimeError`` with the script's output when it fails."""
    tmp = tempfile.mkdtemp(prefix="cg-count-")
    try:
        script = os.path.join(tmp, "counted.py")
        with open(script, "w") as f:
            f.write(HEAD + body)
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=map_iternext",
               "--dump-after=map_iternext", "--callgrind-out-file=" + out, mpy_host.unix_micropython()]
        if heapsize:
            cmd += ["-X", "heapsize=%d" % heapsize]
        env = dict(os.environ, MICROPYPATH=mpy_host.plain_tree() if plain else mpy_host.mpy_tree())
        proc = subprocess.run(cmd + [script], cwd=tmp, env=env, capture_output=True, text=True)
        if proc.returncode:
            raise RuntimeError("the counted script failed:\n" + proc.stdout[-2000:] + proc.stderr[-3000:])
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1].split("-")[0]))
        counts = []
        for path in dumps:
            with open(path) as f:
                found = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
            counts.append(int(found.group(1)) if found else 0)
        return counts, proc.stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def pico_ms(instructions, kind):
    return instructions * NS_PER_INSTRUCTION[kind] / 1e6


def verdict_of(line):
    """``(name, ok)`` of a budget line (``name: figure ... PASS`` or ``... FAIL``, the tests/pico scripts'
    convention), or None for any other line."""
    if line.endswith((" PASS", " FAIL")) and ":" in line and not line.startswith("RESULT:"):
        return line.split(":")[0], line.endswith(" PASS")
    return None


def rejudge(lines, judged):
    """The Pico script's output ``lines`` with its verdicts on the budgets in ``judged`` ({the line's name,
    as before its colon: (Pico ms, how it was estimated, budget ms)}) replaced by those, each wall-clock
    line kept beside marked "not the verdict", and its last lines (the failure count, the RESULT line)
    redone. Returns (failures, lines)."""
    out = []
    failed = []
    for line in lines:
        found = verdict_of(line)
        if found and found[0] in judged:
            name = found[0]
            ms, how, budget = judged[name]
            ok = ms <= budget
            out.append("(wall clock, not the verdict: %s)" % line[:-5])
            out.append("%s: %.2f ms on the Pico (est. %s; budget %g ms) %s" % (name, ms, how, budget,
                                                                               "PASS" if ok else "FAIL"))
        elif line.startswith(("host=", "RESULT:")):
            continue
        else:
            out.append(line)
            ok = not found or found[1]
            name = found[0] if found else ""
        if not ok:
            failed.append(name)
    out.append("host=unix failures=%d" % len(failed))
    out.append("RESULT: FAIL (%s)" % ", ".join(failed) if failed else "RESULT: PASS")
    return len(failed), out
