"""``pipboard check``: the whole firmware measured on a Pico (on USB, or the emulated one), one table out.

1. **The board**: ``--port PORT`` (a Pico on USB), or ``--rp2emu FOLDER`` (the emulated Pico: copied and
   set up once, started on a temporary flash image, stopped at the end); neither: ``$PIPBOARD_RP2EMU``,
   else the Pico found on USB.
2. **Deploy** in test mode (``pipboard deploy --test``; ``--no-deploy`` trusts what is on the board), and
   read the free heap with the game running (the test-mode ``ping``).
3. **Hand the port to the REPL** (``pipboard repl``) and run every ``tests/pico/*.py`` with ``mpremote
   run``, each line echoed as it comes; each script's verdict is its last line (``RESULT: PASS``).
   Where the game cannot say its free heap, it is measured at the REPL instead (``pico.measure_heap``).
4. **Put the game back** (Ctrl-D, then the game's hello) and play whole games through the protocol
   (``pipboard.tableplayer``): random legal plays made by hand with ``inject``, illegal ones, every cube
   action, resignations, power cuts in the middle of turns.
5. **One table**: the free heap at start and the lowest seen, each script's PASS/FAIL, the games, plays,
   faults, internal errors, desyncs, wrong accepts and refusals. The exit status is 1 if anything failed.

``--quick`` (CI): a short set: the quick scripts (``QUICK_SCRIPTS``, each told to run only its fast
cases: ``PIPBOARD_QUICK`` is set at the REPL before it runs) and 2 games with one power cut.
"""

import glob
import os
import sys
import time

from pipboard import pico

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS_DIR = os.path.join(ROOT, "tests", "pico")
# under a minute each on the emulated Pico (bench_steps' quick cases; all of them: 11 minutes)
QUICK_SCRIPTS = ("bench_drivers.py", "serial_bytes.py", "bench_steps.py")
FULL_GAMES, FULL_RESETS = 20, 2
QUICK_GAMES, QUICK_RESETS = 2, 2
# issue 23's RAM lines, on the Pico: with the game built and idle, and at the worst moment seen
HEAP_IDLE_BUDGET = 90 * 1024
HEAP_LOWEST_BUDGET = 50 * 1024
# what the games must not have: (figure of tableplayer.play_games, its label)
GAME_FAILURES = (("faults", "faults"), ("internal", "internal errors"), ("desyncs", "desyncs"),
                 ("wrong_accepts", "wrong accepts"), ("wrong_refusals", "wrong refusals"))


def add_arguments(p):
    where = p.add_mutually_exclusive_group()
    where.add_argument("--port", help="serial port of a Pico (default: $PIPBOARD_RP2EMU's emulated Pico, else "
                       "the Pico found by USB ID)")
    where.add_argument("--rp2emu", metavar="FOLDER", help="start the emulated Pico of this folder "
                       "(../shared/tools/rp2emu; copied and set up once in the user's cache)")
    p.add_argument("--quick", action="store_true", help="a short set for CI: a few scripts' fast cases, %d games"
                   % QUICK_GAMES)
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="whole games to play (default %d, --quick %d; 0: none)" % (FULL_GAMES, QUICK_GAMES))
    p.add_argument("--resets", type=int, default=None, metavar="N",
                   help="power cuts in the middle of turns, about (default %d, --quick %d)" % (FULL_RESETS, QUICK_RESETS))
    p.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    p.add_argument("--scripts", nargs="*", metavar="NAME",
                   help="only these tests/pico scripts (names or paths; none given: no script)")
    p.add_argument("--no-deploy", action="store_true", help="the firmware on the board is already the one to check "
                   "(deployed with --test)")
    p.add_argument("--timeout", type=float, default=pico.SCRIPT_TIMEOUT, metavar="S",
                   help="longest wall time for one script (default %d s)" % pico.SCRIPT_TIMEOUT)
    p.add_argument("--flash", metavar="FILE", help="the emulated Pico's flash image (kept; default a temporary one)")
    p.add_argument("--quiet", action="store_true", help="only the table (and the problems found)")


def script_paths(names=None, quick=False, folder=SCRIPTS_DIR):
    """The scripts to run: ``names`` (a name in ``folder`` or a path), else all (``quick``: QUICK_SCRIPTS)."""
    if names is not None:
        return [n if os.path.sep in n or os.path.exists(n) else os.path.join(folder, n) for n in names]
    found = sorted(glob.glob(os.path.join(folder, "*.py")))
    if quick:
        found = [f for f in found if os.path.basename(f) in QUICK_SCRIPTS]
    return found


class Table:
    """Rows of (what, figure, verdict); verdict "PASS", "FAIL..." or "" (a figure without a budget)."""

    def __init__(self):
        self.rows = []

    def add(self, what, figure, verdict=""):
        self.rows.append((what, str(figure), verdict))

    def failed(self):
        return [row for row in self.rows if row[2].startswith("FAIL")]

    def render(self):
        width = [max([len(r[i]) for r in self.rows] + [len(h)]) for i, h in enumerate(("what", "figure", ""))]
        width[1] = min(width[1], 60)
        lines = ["%-*s  %-*s  %s" % (width[0], "what", width[1], "figure", "verdict"),
                 "%s  %s  %s" % ("-" * width[0], "-" * width[1], "-" * 7)]
        for what, figure, verdict in self.rows:
            lines.append(("%-*s  %-*s  %s" % (width[0], what, width[1], figure, verdict)).rstrip())
        failed = self.failed()
        lines.append("RESULT: " + ("PASS" if not failed else "FAIL (%s)" % ", ".join(r[0] for r in failed)))
        return "\n".join(lines)


def _kb(n):
    return "%s B (%.1f KB)" % ("{:,}".format(n), n / 1024.0)


def _budget(ok):
    return "PASS" if ok else "FAIL"


def _ping_heap(port):
    """The free heap the running game reports (test-mode ``ping``: ``mem_free``), or None."""
    from pipboard.link import Link, LinkError

    try:
        with Link.open(port, timeout=10.0) as link:
            return link.request("ping", timeout=10.0).get("mem_free")
    except LinkError:
        return None


def play(port, games, seed, resets, log):
    """Whole games through the protocol (``pipboard.tableplayer``); its figures, or {"error": why}."""
    try:
        from pipboard.tableplayer import play_games
    except ImportError as exc:
        return {"error": "pipboard.tableplayer is missing (%s)" % exc}
    from pipboard.link import Link, LinkError

    try:
        with Link.open(port, timeout=10.0) as link:
            return play_games(link, games, seed, log=log, resets=resets)
    except LinkError as exc:
        return {"error": "the board went away: %s" % exc}


def check(port, scripts, games, resets, seed=1, deploy=True, timeout=pico.SCRIPT_TIMEOUT, quick=False,
          out=sys.stdout, echo=True, board="a Pico"):
    """Steps 2-5 of the module doc on the board at ``port``; returns the Table."""
    table = Table()
    started = time.monotonic()

    def say(text):
        if echo:
            out.write(text + "\n")
            out.flush()

    table.add("board", board)
    heap_low = []  # (bytes, where seen)
    try:
        if deploy:
            t0 = time.monotonic()
            hello = pico.deploy_test_mode(port, out=out if echo else open(os.devnull, "w"))
            table.add("deploy --test", "%.0f s" % (time.monotonic() - t0), "PASS")
        else:
            hello = pico.wait_for_game(port)
            if not hello.get("test_mode"):
                raise pico.PicoError("the board on %s is not in test mode: pipboard deploy --test first" % port)
        table.add("firmware", "%s, protocol %s" % (hello.get("firmware"), hello.get("protocol")))
        at_start = _ping_heap(port)
        pico.hand_to_repl(port, out=out if echo else open(os.devnull, "w"))
        if at_start is None:  # a game that cannot say it: measured at the REPL, built as main.py builds it
            say("== the free heap with the game built (at the REPL)")
            heap = pico.measure_heap(port, polls=100 if quick else 300)
            if "error" in heap:
                table.add("free heap at start", heap["error"], "FAIL")
            else:
                at_start = heap["free_built"]
                heap_low.append((heap["lowest"], "%s quiet polls at the REPL" % (100 if quick else 300)))
        if at_start is not None:
            table.add("free heap at start (game built, idle)", _kb(at_start) + ", budget 90 KB",
                      _budget(at_start >= HEAP_IDLE_BUDGET))
            heap_low.append((at_start, "at start"))
        results = []
        for path in scripts:
            say("== %s" % os.path.relpath(path))
            result = pico.run_script(port, path, timeout=timeout, echo=(lambda line: say("  " + line)) if echo else None,
                                     quick=quick)
            results.append(result)
            say("   %s (%.0f s)" % (result.reason(), result.seconds))
            table.add(os.path.join("tests/pico", result.name), "%d budget lines, %.0f s" % (len(result.budgets),
                      result.seconds), result.reason())
        if games:
            say("== the game back, then %d whole games through the protocol" % games)
            pico.start_game(port)
            figures = play(port, games, seed, resets, log=say if echo else (lambda text: None))
            if "error" in figures:
                table.add("games", figures["error"], "FAIL")
            else:
                _game_rows(table, figures, heap_low)
        if heap_low:
            low, where = min(heap_low)
            table.add("free heap, lowest (%s)" % where, _kb(low) + ", budget 50 KB", _budget(low >= HEAP_LOWEST_BUDGET))
    except pico.PicoError as exc:
        table.add("stopped", str(exc), "FAIL")
    table.add("run time", "%.1f min" % ((time.monotonic() - started) / 60.0))
    return table


def _game_rows(table, figures, heap_low):
    table.add("games", "%d (%.0f s)" % (figures.get("games", 0), figures.get("seconds", 0)))
    table.add("plays", "%d (%d illegal tried)" % (figures.get("plays", 0), figures.get("illegal_tried", 0)))
    table.add("cube, resignations", "%d doubles, %d takes, %d drops, %d beavers, %d raccoons; %d resignations"
              % tuple(figures.get(k, 0) for k in ("doubles", "takes", "drops", "beavers", "raccoons", "resigns")))
    table.add("power cuts survived", figures.get("resets", 0))
    for key, label in GAME_FAILURES:
        table.add(label, figures.get(key, 0), _budget(not figures.get(key, 0)))
    if figures.get("heap_min") is not None:
        heap_low.append((figures["heap_min"], "after a turn of the games"))
    for line in figures.get("problems", [])[:10]:
        table.add("  problem", line[:100])


def run(args, out=sys.stdout):
    games = args.games if args.games is not None else (QUICK_GAMES if args.quick else FULL_GAMES)
    resets = args.resets if args.resets is not None else (QUICK_RESETS if args.quick else FULL_RESETS)
    scripts = script_paths(args.scripts, args.quick)
    missing = [s for s in scripts if not os.path.isfile(s)]
    if missing:
        sys.stderr.write("pipboard check: no such script: %s\n" % ", ".join(missing))
        return 2
    rp2emu = args.rp2emu or (None if args.port else pico.default_rp2emu())
    emulator = None
    try:
        if rp2emu:
            folder = pico.prepare_rp2emu(rp2emu, out=out)
            emulator = pico.EmulatedPico(folder, flash=args.flash).start()
            port, board = emulator.port, "the emulated Pico (%s)" % rp2emu
            out.write("emulated Pico started: %s\n" % port)
        else:
            from pipboard.deploy import DeployError, find_port

            try:
                port = find_port(args.port)
            except DeployError as exc:
                raise pico.PicoError(str(exc))
            board = "a Pico on %s" % port
        table = check(port, scripts, games, resets, seed=args.seed, deploy=not args.no_deploy, timeout=args.timeout,
                      quick=args.quick, out=out, echo=not args.quiet, board=board)
    except pico.PicoError as exc:
        sys.stderr.write("pipboard check: %s\n" % exc)
        return 1
    finally:
        if emulator is not None:
            emulator.cleanup()
    out.write("\n" + table.render() + "\n")
    return 1 if table.failed() else 0
