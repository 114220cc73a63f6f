"""`make bench`: keypad.ShiftRegisterKeys (the CircuitPython build) against our Scanner (the MicroPython build).

What a host can measure, and how (docs/circuitpython.md has the figures):

* **Settle latency**, in virtual time on CPython: a switch changes at a random
  instant; the MicroPython build's ``Scanner`` (4 samples, polled every 5 ms
  by the loop) against the CircuitPython build (the twin of
  ``keypad.ShiftRegisterKeys`` at 5 ms x 4 scans, in the background at a
  random phase, drained by the loop every 5 ms into ``Scanner(samples=1)``),
  with the loop free, and with the loop busy for 150 ms (a turn's tables on
  the Pico) right after the change.
* **Python-side RAM and time** under the unix MicroPython: the bytes each
  build's Python objects take (``gc.mem_alloc`` deltas; unix objects are
  about twice a Pico's, tests/bench/README.md) and the time of one quiet
  poll, turned into a Pico estimate by the scan ratio of ``pipbench``.
* **keypad's own RAM and scan time** are C on the board: estimated from its
  source (one ``int8`` debounce counter per key; the event queue keeps
  2 + 4 bytes per event; three ``DigitalInOut`` objects and the scanner
  struct), not measured.

Budgets (PASS/FAIL): with the loop free the CircuitPython build settles
within one scan period of the MicroPython build (same 4 scans at 5 ms, but
the background scan is not in step with the loop); with the loop busy it
settles earlier (keypad keeps scanning).
"""

import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "host_tools"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests")]

SCAN_MS = 5
BUSY_MS = 150
TRIALS = 200
UNIX_RATIO_SCAN = 190  # pipbench: Pico time / unix MicroPython time, scan
UNIX_RATIO_HEAP = 0.5  # Pico bytes / unix MicroPython bytes

MP_SCRIPT = r"""
import gc, time
from pipdrivers.scan import Scanner
from pipdrivers.cp_keys import KeypadChain

class Event:
    def __init__(self):
        self.key_number = 0
        self.pressed = False

class Queue:
    overflowed = False
    def get_into(self, ev):
        return False

class Keys:
    def __init__(self):
        self.events = Queue()

def spi_copy(buf):  # the MicroPython build's readinto is C (spi.readinto): its 176 us on the wire are apart
    pass

def alloc(make):
    gc.collect()
    before = gc.mem_alloc()
    obj = make()
    gc.collect()
    return obj, gc.mem_alloc() - before

mp_scanner, mp_bytes = alloc(lambda: Scanner(spi_copy, samples=4))
cp_chain, chain_bytes = alloc(lambda: KeypadChain(Keys(), Event()))
cp_scanner, cp_scanner_bytes = alloc(lambda: Scanner(cp_chain.readinto, samples=1))

def best(fn, n=2000):
    top = None
    for _ in range(5):
        t = time.ticks_us()
        for _ in range(n):
            fn(0)
        dt = time.ticks_diff(time.ticks_us(), t) / n
        top = dt if top is None or dt < top else top
    return top

mp_scanner.scan(0)
cp_scanner.scan(0)
def nothing(now):
    pass
base = best(nothing)
print("mp_scanner_bytes", mp_bytes)
print("cp_chain_bytes", chain_bytes)
print("cp_scanner_bytes", cp_scanner_bytes)
print("mp_quiet_scan_us", best(mp_scanner.scan) - base)
print("cp_quiet_poll_us", best(cp_scanner.scan) - base)
"""


def latency(build, busy, rng):
    """ms from a switch change to the Scanner's event, for one random phase of change, loop and keypad."""
    import cpsim
    import keypad
    from pipboard.twins import VirtualSwitches
    from pipdrivers.cp_keys import KeypadChain
    from pipdrivers.scan import Scanner

    switches = VirtualSwitches()
    now = [0]
    if build == "mp":
        scanner = Scanner(switches.readinto, samples=4)
    else:
        cpsim.power_on(chain=switches, clock=lambda: now[0])
        import board

        keys = keypad.ShiftRegisterKeys(clock=board.GP18, data=board.GP16, latch=board.GP17, key_count=176,
                                        value_when_pressed=True, interval=SCAN_MS / 1000, max_events=192,
                                        debounce_threshold=4)
        now[0] = rng.randrange(SCAN_MS)  # the background scan's phase against the loop
        len(keys.events)  # its first scan
        scanner = Scanner(KeypadChain(keys, keypad.Event()).readinto, samples=1)
    loop = 100 + rng.randrange(SCAN_MS)  # the loop's phase
    for t in range(loop - 60, loop, SCAN_MS):  # settle the empty board
        now[0] = t
        scanner.scan(t)
    while scanner.pop() >= 0:
        pass
    change = loop + rng.random() * SCAN_MS  # between two loop passes
    if build == "cp":
        now[0] = int(change)
        len(keys.events)  # the background scans before the change read the old state
    switches.set(77, True)
    t = loop
    first = True
    while True:
        t += SCAN_MS
        if first and busy:
            t += BUSY_MS  # the loop was busy: no pass (and no scan on MicroPython) until the step ends
        first = False
        now[0] = t
        scanner.scan(t)
        if scanner.pop() >= 0:
            return t - change


def latencies():
    from circuitpython import circuitpython

    rng = random.Random(13)
    out = {}
    with circuitpython():
        for busy in (False, True):
            for build in ("mp", "cp"):
                values = sorted(latency(build, busy, rng) for _ in range(TRIALS))
                out[(build, busy)] = (values[0], sum(values) / len(values), values[-1])
    return out


def python_side():
    from unix_mp import run_unix_micropython, unix_micropython

    if unix_micropython() is None:
        return None
    script = os.path.join(ROOT, "build", "bench_keypad_mp.py")  # (the keypad is a Python stand-in here: C on the board)
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as f:
        f.write(MP_SCRIPT)
    proc = run_unix_micropython(script, heap="256k", timeout=300)
    if proc.returncode != 0:
        raise SystemExit("unix MicroPython failed:\n" + proc.stdout + proc.stderr)
    return {k: float(v) for k, v in (line.split() for line in proc.stdout.splitlines() if line.strip())}


def keypad_bytes(keys=176, events=192, threshold_bytes=1):
    """keypad.ShiftRegisterKeys' RAM from its C source (32-bit RP2040), an estimate."""
    scanner = 4 + 4 + 4 + 8 + 4 + 4 + 4 + 1 + 1 + 4 * 4 + 4 + 1 + 1 + 2  # common fields + its own, ~60 B
    pins = 3 * 16 + 8 + 4  # three DigitalInOut objects, the data-pin tuple, one key count
    queue = 16 + events * (2 + 4)  # EventQueue object and its ring of (key|pressed, ticks)
    return scanner + pins + queue + keys * threshold_bytes, keys * threshold_bytes, events * 6


def main():
    lat = latencies()
    fails = 0
    print("settle latency, ms from the change to the Scanner event (min / mean / max of %d):" % TRIALS)
    for busy in (False, True):
        label = "loop busy %d ms after the change" % BUSY_MS if busy else "loop free"
        for build, name in (("mp", "MicroPython Scanner, 5 ms x 4"), ("cp", "CircuitPython keypad, 5 ms x 4")):
            lo, mean, hi = lat[(build, busy)]
            print("  %-34s %-32s %5.1f / %5.1f / %5.1f" % (label, name, lo, mean, hi))
        if busy:  # keypad scans on while the loop is busy: settled by the time the loop looks
            ok = lat[("cp", busy)][2] < lat[("mp", busy)][2]
            rule = "earlier than the Scanner"
        else:  # the same 4 scans at 5 ms; its scans are not in step with the loop: up to one period more
            ok = lat[("cp", busy)][2] <= lat[("mp", busy)][2] + SCAN_MS
            rule = "within one scan period of the Scanner"
        fails += not ok
        print("%s keypad settles %s (%s)" % ("PASS" if ok else "FAIL", rule, label))
    side = python_side()
    total, counters, queue = keypad_bytes()
    print("keypad.ShiftRegisterKeys RAM (estimate from its C source): %d B = %d counters + %d event queue (192) "
          "+ objects; with max_events=64: %d B" % (total, counters, queue, keypad_bytes(events=64)[0]))
    if side is None:
        print("unix MicroPython not installed: Python-side RAM and time not measured")
        return 1 if fails else 0
    mp_b = side["mp_scanner_bytes"]
    cp_b = side["cp_chain_bytes"] + side["cp_scanner_bytes"]
    print("Python-side RAM, unix MicroPython (Pico about x%.1f): MicroPython build Scanner %d B; CircuitPython build "
          "Scanner(samples=1) %d B + KeypadChain %d B = %d B"
          % (UNIX_RATIO_HEAP, mp_b, side["cp_scanner_bytes"], side["cp_chain_bytes"], cp_b))
    print("quiet poll, Python side: MicroPython build %.2f us (Pico ~%d us, plus the 176 us SPI transfer); "
          "CircuitPython build %.2f us with a Python stand-in for keypad's C queue (Pico ~%d us at most; the keypad's "
          "C scan of 176 bits runs apart, in the background)"
          % (side["mp_quiet_scan_us"], side["mp_quiet_scan_us"] * UNIX_RATIO_SCAN, side["cp_quiet_poll_us"],
             side["cp_quiet_poll_us"] * UNIX_RATIO_SCAN))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
