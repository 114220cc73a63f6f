"""``pipboard selftest``: the board's guided switch test, followed from a PC (docs/board-menu.md).

Starts the self-test on the board (protocol ``self_test``), prints each instruction the board gives
as it changes (take every checker off, then the slot to cover), and at the end the verdict: every
switch that is stuck closed, stuck open or misplaced by point and slot, and the two chains. Ctrl-C (or
``--timeout``) stops the test and prints what it found so far. Exit status 0 when nothing is faulty.
"""

import sys
import time

from pipboard.link import CommandError, Link, LinkError


def verdict(state):
    """The result as lines of text."""
    lines = []
    if state.get("switch_chain") is False:
        lines.append("the switch chain is broken: its sentinel byte does not come back (hardware/pinmap.md)")
    if state.get("led_chain") is False:
        lines.append("the LED chain is broken: nothing comes back from its last pixel (hardware/pinmap.md)")
    for p in state.get("problems") or ():
        lines.append("%s: %s (location %s, scan bit %s)" % (p["switch"], p["fault"], p["location"], p["bit"]))
    if not lines:
        lines.append("every switch %s works" % ("of the board" if state.get("complete") else "walked so far"))
    return lines


def run(target, out=sys.stdout, timeout=None, interval=0.3):
    try:
        link = Link.open(target)
    except (LinkError, OSError) as exc:
        out.write("pipboard selftest: %s\n" % exc)
        return 2
    try:
        try:
            state = link.self_test("start")
        except CommandError as exc:
            out.write("pipboard selftest: the board refused: %s\n" % exc.message)
            return 2
        start = time.monotonic()
        said = None
        try:
            while state["step"] != "done":
                message = link.snapshot()["message"]
                if message != said:
                    out.write("%s\n" % message)
                    out.flush()
                    said = message
                if timeout is not None and time.monotonic() - start > timeout:
                    out.write("(stopped after %s s)\n" % timeout)
                    state = link.self_test("stop")
                    break
                time.sleep(interval)
                state = link.self_test("status") or state
        except KeyboardInterrupt:
            state = link.self_test("stop")
        out.write("self-test %s:\n" % ("complete" if state.get("complete") else "stopped"))
        for line in verdict(state):
            out.write("  %s\n" % line)
        faulty = state.get("problems") or state.get("switch_chain") is False or state.get("led_chain") is False
        return 1 if faulty else 0
    except LinkError as exc:
        out.write("pipboard selftest: %s\n" % exc)
        return 2
    finally:
        link.close()
