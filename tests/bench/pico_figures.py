"""`make bench PORT=...` / `PIPBOARD_RP2EMU=...`: the same budgets measured on a Pico, beside the estimates.

``make bench`` estimates every Pico figure on this host (the unix MicroPython, instruction counts). When a
Pico is named, this runs each ``tests/pico/*.py`` on it (``pipboard.pico``: deploy in test mode, hand the
port to the REPL, ``mpremote run``, read the lines by the scripts' convention) and prints one table: each
budget, the host's estimate (read from the benches' saved output, ``--estimates DIR``), the Pico's own
figure and its verdict. ``--port P``: a Pico on USB (or an emulated one already running); ``--rp2emu DIR``:
the emulated Pico of that folder (``../shared/tools/rp2emu``; it may be read-only: a copy is set up in the
user's cache), started on a temporary flash image and stopped at the end. Exits 1 when a script fails on
the Pico or ends without its RESULT line.

    python tests/bench/pico_figures.py --rp2emu ../shared/tools/rp2emu [--estimates DIR] [--scripts a.py b.py]
"""

import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(ROOT, "host_tools")]

from pipboard import pico  # noqa: E402

SCRIPTS = os.path.join(ROOT, "tests", "pico")
_FIGURE = re.compile(r":\s*(-?[\d.]+\s*(?:ms|s|B|KB|bytes)?)")


def budget_name(line):
    """A budget line's name, without what it names in brackets (the worst case differs between hosts)."""
    return line.split(":")[0].split(" (")[0].strip()


def budget_figure(line):
    """The figure a budget line states first (``12.3 ms``), or the line's middle when it states none."""
    found = _FIGURE.search(line)
    return found.group(1) if found else line.split(":", 1)[-1][:-5].strip()[:30]


def estimates(folder):
    """{budget name: the host's figure} from the benches' saved output (``*.txt`` in ``folder``)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder or "", "*.txt"))) if folder else ():
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.endswith((" PASS", " FAIL")) and ":" in line and not line.startswith("RESULT:"):
                    out.setdefault(budget_name(line), "%s %s" % (budget_figure(line), line[-4:]))
    return out


def run(port, scripts, estimated, out=sys.stdout):
    """Run each script on the board at ``port`` (at the REPL); print the table; return the failed scripts."""
    rows = []
    failed = []
    for path in scripts:
        name = os.path.basename(path)
        out.write("== %s on the Pico\n" % name)
        out.flush()
        result = pico.run_script(port, path, echo=lambda line: (out.write("   " + line + "\n"), out.flush()))
        out.write("   (%s in %.0f s of wall time)\n" % (result.reason(), result.seconds))
        if not result.passed:
            failed.append(name)
        for line, ok in result.budgets:
            rows.append((name, budget_name(line), estimated.get(budget_name(line), "-"), budget_figure(line),
                         "PASS" if ok else "FAIL"))
        rows.append((name, "RESULT", "-", result.verdict[:40], "PASS" if result.passed else "FAIL"))
    out.write("\nBudgets on the Pico (%s) beside make bench's estimates:\n" % port)
    out.write("%-22s %-46s %-22s %-14s %s\n" % ("script", "budget", "estimate", "Pico", "verdict"))
    for row in rows:
        out.write("%-22s %-46s %-22s %-14s %s\n" % row)
    return failed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="a Pico's serial port (the firmware is deployed there in test mode)")
    where.add_argument("--rp2emu", help="the emulated Pico's folder (started here on a temporary flash)")
    p.add_argument("--estimates", help="a folder of the benches' outputs (*.txt)")
    p.add_argument("--scripts", nargs="*", help="tests/pico scripts to run (default: every one)")
    p.add_argument("--no-deploy", action="store_true", help="the board holds this firmware already, at the REPL")
    args = p.parse_args(argv)
    scripts = [os.path.join(SCRIPTS, os.path.basename(s)) for s in args.scripts] if args.scripts else sorted(
        glob.glob(os.path.join(SCRIPTS, "*.py")))
    estimated = estimates(args.estimates)
    emulator = None
    try:
        port = args.port
        if args.rp2emu:
            emulator = pico.EmulatedPico(pico.prepare_rp2emu(args.rp2emu)).start()
            port = emulator.port
        if not args.no_deploy:
            pico.deploy_test_mode(port)
            pico.hand_to_repl(port)
        failed = run(port, scripts, estimated)
    except pico.PicoError as exc:
        print("the Pico could not be measured: %s" % exc)
        return 1
    finally:
        if emulator is not None:
            emulator.cleanup()
    if failed:
        print("failed on the Pico: %s" % " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
