"""Shared helpers of the tests/pico scripts: clock, timing, heap, Pico estimates, verdicts.

Deployed with the firmware so that each script, compiled on the Pico by
``mpremote run``, stays small. The game never imports it.

On the Pico the figures are the Pico's own. On a host MicroPython each time
is multiplied by the measured ratio (Pico time / host time) of its kind of
work, from RATIOS: tests/bench/README.md tells how each ratio was measured.
"""

import gc
import sys
import time

# Pico (RP2040 125 MHz, MicroPython 1.28 rp2) time / host time, per host
# runtime and kind of work: an on-target figure over the same script on the
# host. "search" has no on-target figure: it borrows generation's ratio (the
# same bytecode-bound work). "json" (unix): the record export's pages on the
# emulated Pico (bench_record.py, 7.28 s / 25.5 ms); its WASM figure is still the largest measured
# one. "heap" turns host bytes into the Pico's (32-bit words, 16-byte blocks;
# the unix port is 64-bit). How each was measured: tests/bench/README.md.
RATIOS = {
    "unix": {"generation": 138.0, "search": 138.0, "json": 286.0, "led_frame": 184.0, "limited_frame": 180.0,
             "scan": 190.0, "buttons": 167.0, "heap": 0.5},
    "wasm": {"generation": 27.8, "search": 27.8, "json": 63.7, "led_frame": 54.5, "limited_frame": 63.7,
             "scan": 40.9, "buttons": 42.3, "heap": 1.0},
}

try:  # node (WebAssembly port): this process's CPU time, immune to other jobs
    import js

    _cpu = js.process.cpuUsage

    def now_us():
        u = _cpu()
        return int(u.user + u.system)

    HOST = "wasm"
except (ImportError, AttributeError):
    if hasattr(time, "ticks_us"):  # the Pico, and the unix port (wall time: best-of-N keeps the least disturbed)
        now_us = time.ticks_us
        HOST = "pico" if sys.platform == "rp2" else "unix"
    else:  # CPython (tests/bench compares with it)

        def now_us():
            return int(time.process_time() * 1000000)

        HOST = "cpython"

if HOST in ("pico", "unix"):

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)

else:

    def since_us(t0):
        return now_us() - t0


failures = 0
failed = []  # the names of the failed budgets


def best_us(func, arg=None, batch_us=2000, repeats=0):
    """Microseconds per ``func(arg)``: best of ``repeats`` batches of at least ``batch_us`` each
    (3 on the Pico; 7 on a shared host, whose other jobs disturb some batches)."""
    best = -1
    if not repeats:
        repeats = 3 if HOST == "pico" else 7
    for _ in range(repeats):
        gc.collect()
        count = 0
        t0 = now_us()
        elapsed = 0
        while elapsed < batch_us:
            func(arg)
            count += 1
            elapsed = since_us(t0)
        us = elapsed / count
        if best < 0 or us < best:
            best = us
    return best


def per_call_us(func, n=200, repeats=0):
    """Microseconds per call of ``func(k)`` for k = 0..n-1: best of ``repeats`` runs after a warm-up run.

    Runs are kept short (about a millisecond on a host) so that some run
    fits between two of the other jobs' time slices on a shared machine."""
    for k in range(n):
        func(k)
    best = -1
    for _ in range(repeats or (5 if HOST == "pico" else 25)):
        gc.collect()
        t0 = now_us()
        for k in range(n):
            func(k)
        us = since_us(t0) / n
        if best < 0 or us < best:
            best = us
    return best


def heap_of(func, arg=None):
    """Bytes ``func(arg)`` allocates (collector off: garbage included); 0 without ``gc.mem_alloc``."""
    if not hasattr(gc, "mem_alloc"):
        return 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    func(arg)
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def pico_us(us, kind):
    """A host time turned into the Pico's (the Pico's own figure on the Pico)."""
    if HOST == "pico":
        return us
    return us * RATIOS.get(HOST, RATIOS["wasm"])[kind]


def verdict(ok, text):
    """One budgeted figure: ``text`` then `` PASS`` or `` FAIL`` on one line (tools read the last word);
    FAILs are counted in ``failures`` and named on the RESULT line."""
    global failures
    if not ok:
        failures += 1
        failed.append(text.split(":")[0])
    print("%s %s" % (text, "PASS" if ok else "FAIL"))
    return ok


def check_ms(name, us, kind, budget_ms):
    """A time budget on the Pico: ``us`` measured here, turned into Pico ms by its kind's ratio."""
    ms = pico_us(us, kind) / 1000
    how = "measured" if HOST == "pico" else "est. %s %.0f us x %.1f" % (HOST, us, pico_us(1, kind))
    return verdict(ms <= budget_ms, "%s: %.2f ms on the Pico (%s; budget %g ms)" % (name, ms, how, budget_ms))


def check_bytes(name, used, budget):
    """A heap budget on the Pico: ``used`` bytes here, turned into the Pico's by the "heap" ratio."""
    pico = used if HOST == "pico" else int(used * RATIOS.get(HOST, RATIOS["wasm"])["heap"])
    how = "measured" if HOST == "pico" else "est. %s %d B x %.1f" % (HOST, used, RATIOS.get(HOST, RATIOS["wasm"])["heap"])
    return verdict(pico <= budget, "%s: %d B on the Pico (%s; budget %d B)" % (name, pico, how, budget))


def finish():
    """The last lines: the host and failure count, then ``RESULT: PASS`` or ``RESULT: FAIL (what failed)``
    (a script that ends without it counts as failed); exits 1 when a budget failed."""
    print("host=%s failures=%d" % (HOST, failures))
    if failures:
        print("RESULT: FAIL (%s)" % ", ".join(failed))
        sys.exit(1)
    print("RESULT: PASS")
