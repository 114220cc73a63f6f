"""Instructions per event of tests/pico/bench_controller.py, counted by callgrind (load-independent).

Wall times on a shared machine move with the other jobs; instruction counts
do not. This runs the Pico script under the unix MicroPython (firmware built
as ``pipboard deploy`` builds it) inside ``valgrind --tool=callgrind``, with
collection switched on only inside the events of the kinds asked for. Each
kind's events are called through a C builtin the firmware never uses
(``sorted``, ``filter``, ``map``), so one run counts up to three kinds apart
(their inclusive costs). Usage::

    python tests/bench/callgrind_controller.py [--reps N] [--heap K] [--keep DIR] [--part P] KIND...

KIND: lift, wrong, place (the settled changes of the frame budget), cold (a
lift before the quiet polls prepared anything), roll, done. Prints the
instructions per event of each kind and, with ``--keep``, leaves the
callgrind file there for ``callgrind_annotate --inclusive=yes``.

``--turn n4cggSL+AUeAEg:1-1``: that turn of the bench's only.
``--part pipcore.tracker:Tracker.follow:2`` (up to two): the share of a
function (a module's function or a class's method, with its number of
arguments, ``self`` included: the call then allocates nothing) in those
events. The kinds are then counted together (through ``filter``) and each
part is called through ``any`` or ``all``, whose inclusive cost is the part's.

The script is the bench's own text with a few lines patched (the rep count
and the wrapped calls); it fails loudly if the bench changed under it.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mpy_host  # noqa: E402

VIA = ("sorted", "filter", "map")  # the builtins, in the order the kinds are given
SYMBOL = {"sorted": "mp_builtin_sorted", "filter": "filter_iternext", "map": "map_iternext",
          "any": "mp_builtin_any", "all": "mp_builtin_all"}
PART_VIA = ("any", "all")  # the parts' builtins (events: filter; with --each, map)
KINDS = ("lift", "wrong", "place", "cold", "roll", "done")

_HEAD = '''
COUNTS = {}
ORDER = []
VIA = %r
ARITY = %r


def WRAP(kind, func, arg):
    via = VIA.get(kind)
    if via is None:
        return func(arg)
    COUNTS[kind] = COUNTS.get(kind, 0) + 1
    ORDER.append(kind)
    return _via(via, func, arg)


def _via(via, func, arg):
    out = []
    call = lambda _: 0 if out else out.append(func(arg)) or 0  # noqa: E731  (once, however often sorted asks)
    if via == "sorted":
        sorted((0, 1), key=call)
    elif via == "filter":
        for _ in filter(call, (0,)):
            pass
    else:
        next(map(call, (0,)))  # (one call of map's C function: one dump with --each)
    return out[0]


class _Part:
    """A function called through ``any`` or ``all`` (C functions the game never calls): their inclusive
    cost is the function's. Its arguments are kept in slots, so the call allocates nothing (an
    allocation in a game's fragmented heap costs more than many a small function)."""

    def __init__(self, func, stop):
        self.func = func
        self.stop = stop
        self.a = self.b = self.c = self.d = self.out = None

    def __iter__(self):
        return self

    def __next__(self):
        self.out = self.call()
        return self.stop

    def call(self):
        n = self.n
        if n == 1:
            return self.func(self.a)
        if n == 2:
            return self.func(self.a, self.b)
        if n == 3:
            return self.func(self.a, self.b, self.c)
        return self.func(self.a, self.b, self.c, self.d)


def _part(via, module, name):
    owner = __import__(module, None, None, ["x"])
    attr = name
    if "." in name:
        cls, attr = name.split(".")
        owner = getattr(owner, cls)
    part = _Part(getattr(owner, attr), via == "any")
    run = any if via == "any" else all

    def w1(a):
        part.n = 1
        part.a = a
        run(part)
        return part.out

    def w2(a, b):
        part.n = 2
        part.a = a
        part.b = b
        run(part)
        return part.out

    def w3(a, b, c):
        part.n = 3
        part.a = a
        part.b = b
        part.c = c
        run(part)
        return part.out

    def w4(a, b, c, d):
        part.n = 4
        part.a = a
        part.b = b
        part.c = c
        part.d = d
        run(part)
        return part.out

    def wn(*args):  # (more arguments: a tuple, allocated)
        part.n = 1
        part.a = args
        part.func, func = (lambda t: func(*t)), part.func
        try:
            run(part)
        finally:
            part.func = func
        return part.out

    setattr(owner, attr, {1: w1, 2: w2, 3: w3, 4: w4}.get(ARITY.get(module + ":" + name), wn))


%s
'''

# (text in the bench, its replacement): every one must be found
_PATCHES = (
    ("REPS = 20", "REPS = %(reps)d"),
    ('dt = self.event(("board", self.counts))', 'dt = WRAP(timed, self.event, ("board", self.counts))'),
    ("keep(times, 3, rig.change(src, -1, True))", 'keep(times, 3, rig.change(src, -1, "cold"))'),
    ("keep(times, 0, rig.change(src, -1, True))", 'keep(times, 0, rig.change(src, -1, "lift"))'),
    ("keep(times, 1, rig.change(wrong, 1, True))", 'keep(times, 1, rig.change(wrong, 1, "wrong"))'),
    ("keep(times, 2, rig.change(dst, 0 if hit else 1, True))", 'keep(times, 2, rig.change(dst, 0 if hit else 1, "place"))'),
    ('dt = self.event(("button", "ROLL"))', 'dt = WRAP("roll" if rest else None, self.event, ("button", "ROLL"))'),
    ('dt = rig.event(("button", "DONE"))',
     'dt = WRAP("done" if stats is not None else None, rig.event, ("button", "DONE"))'),
    ("\nmain()\n", "\ntry:\n    main()\nfinally:\n    print('CALLS', COUNTS); print('ORDER', ' '.join(ORDER))\n"),
)


def patched(kinds, reps, parts=(), turn=None, each=False):
    with open(os.path.join(mpy_host.PICO_DIR, "bench_controller.py")) as f:
        text = f.read()
    for old, new in _PATCHES:
        if old not in text:
            raise SystemExit("tests/pico/bench_controller.py changed: %r not found" % old)
        text = text.replace(old, new % {"reps": reps} if "%(" in new else new)
    via = dict((k, "filter") for k in kinds) if parts else dict(zip(kinds, VIA))
    if each:  # one builtin called once per event: one dump each
        via = dict((k, "map") for k in kinds)
    wraps = ""
    arity = {}
    for p, v in zip(parts, PART_VIA):
        module, name = p.split(":")[:2]
        if p.count(":") == 2:  # module:function:N (N arguments, self included): no tuple made per call
            arity[module + ":" + name] = int(p.split(":")[2])
        wraps += "_part(%r, %r, %r)\n" % (v, module, name)
    at = text.index("\nREPS = ")
    if turn:  # one turn of the bench's: "POSITIONID:D1-D2"
        pid, dice = turn.split(":")
        d1, d2 = dice.split("-")
        end = text.index("\n)\n", text.index("\nTURNS = (")) + 3
        text = text[:end] + "TURNS = tuple(t for t in TURNS if t[0] == %r and t[2] == (%s, %s))\n" % (
            pid, d1, d2) + text[end:]
    return text[:at] + _HEAD % (via, arity, wraps) + text[at:], via


def annotate(path):
    return subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                          capture_output=True, text=True).stdout


def cost(ann, via):
    """The inclusive instructions of ``via``'s C function in a callgrind_annotate text."""
    m = re.search(r"^\s*([\d,]+) \([^)]*\)\s+\S*:%s\b" % SYMBOL[via], ann, re.M)
    return int(m.group(1).replace(",", "")) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kinds", nargs="+", choices=KINDS)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--heap", default="300k")
    ap.add_argument("--keep", help="folder for the callgrind output file")
    ap.add_argument("--each", action="store_true", help="the instructions of every event, in order")
    ap.add_argument("--turn", help="one of the bench's turns only: POSITIONID:D1-D2")
    ap.add_argument("--part", action="append", default=[], help="module:function or module:Class.method")
    ap.add_argument("--plain", action="store_true", help="without the native modules (their plain twins run)")
    args = ap.parse_args()
    if len(args.kinds) > len(VIA) and not (args.part or args.each) or len(args.part) > 2:
        raise SystemExit("at most %d kinds (or two parts) per run" % len(VIA))
    text, via = patched(args.kinds, args.reps, args.part, args.turn, args.each)
    tmp = tempfile.mkdtemp(prefix="cg-bench-")
    try:
        script = os.path.join(tmp, "bench_cg.py")
        with open(script, "w") as f:
            f.write(text)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
        out = os.path.join(os.path.abspath(args.keep or tmp), "callgrind.out.bench")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=" + out]
        cmd += ["--toggle-collect=" + SYMBOL[v] for v in sorted(set(via.values()))]
        if args.each:
            cmd += ["--dump-after=" + SYMBOL[v] for v in sorted(set(via.values()))]
        cmd += [mpy_host.unix_micropython(), "-X", "heapsize=" + args.heap, script]
        env = dict(os.environ, MICROPYPATH=mpy_host.plain_tree() if args.plain else mpy_host.mpy_tree())
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        sys.stdout.write(proc.stdout)
        calls = re.search(r"CALLS (\{.*\})", proc.stdout)
        if not calls:
            sys.stdout.write(proc.stderr[-3000:])
            raise SystemExit("the bench did not finish")
        calls = eval(calls.group(1))  # the script's own dict of counts
        if args.each:  # one dump per event (the file callgrind ends with holds nothing): in the order of the events
            order = re.search(r"ORDER (.*)", proc.stdout).group(1).split()
            dumps = sorted((f for f in os.listdir(os.path.dirname(out)) if f.startswith("callgrind.out.bench.")),
                           key=lambda f: int(f.rsplit(".", 1)[1].split("-")[0]))
            for kind, name in zip(order, dumps):
                path = os.path.join(os.path.dirname(out), name)
                with open(path) as f:
                    total = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
                line = "EVENT %-6s %.3f M" % (kind, int(total.group(1)) / 1e6 if total else -1)
                if args.part:
                    ann = annotate(path)
                    for p, v in zip(args.part, PART_VIA):
                        line += "  %s %.3f" % (p.split(":")[1], cost(ann, v) / 1e6)
                print(line)
            return
        ann = annotate(out)

        n = 0
        for kind, v in via.items():
            n += calls.get(kind, 0)
            if not args.part:
                total = cost(ann, v)
                print("CG %-6s %6d events %12d instructions  %.3f M per event" % (kind, n, total, total / max(n, 1) / 1e6))
                n = 0
        if args.part:
            total = cost(ann, "filter")
            print("CG %-18s %6d events %12d instructions  %.3f M per event" % ("+".join(via), n, total, total / n / 1e6))
            for p, v in zip(args.part, PART_VIA):
                part = cost(ann, v)
                print("CG   %-40s %.3f M per event (%.0f %%)" % (p, part / n / 1e6, 100.0 * part / total))
    finally:
        if args.keep is None:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
