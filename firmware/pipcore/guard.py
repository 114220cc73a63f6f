"""Surviving faults on the board: the pure helpers of the guarded loop.

The board must never stop playing. ``pipcore.app.App`` and ``main.py``
catch what a pass of the loop raises and use these helpers:

* ``relieve(ctl)`` frees what can be rebuilt: the controller's per-turn
  tables (``drop_caches()``, where the controller has it) and then the heap
  (``gc.collect()``). Called after every fault, before the retry.
* ``describe(kind, exc)`` names a fault in one short line for the snapshot's
  ``error`` field. It runs while memory is short, so it falls back to a
  constant string when formatting itself fails.
* ``call(fn, arg, app)`` runs one pass of the loop (``HostLink.poll``):
  a fault is relieved and the pass retried once; a second fault is reported
  through ``app.fault(kind, exc)`` and the loop goes on. ``retry`` is its
  second half, for a loop that makes the first try itself (``main.serve``).

No I/O and no clock: ``gc`` is the only module used (present on both
Pythons).

A heap in one piece: importing this module (the app's code is loaded right
after it, by ``main.py`` and by ``pipcore.app``) has MicroPython collect every
16 KB allocated until ``App.__init__`` ends it; the loader's garbage is then
reused at once instead of leaving holes between the code, and the free heap
stays in blocks large enough for what loads later (the menu, Back Alley,
the interned names' next pool: tests/bench/README.md).
"""

import gc

if hasattr(gc, "threshold"):  # (not on CPython)
    gc.threshold(16384)

MEMORY = "memory"  # a MemoryError survived a collect and a retry
INTERNAL = "internal"  # any other exception (a bug) survived a retry
SAVE = "save"  # the state could not be saved (flash full or failing); the game goes on
HARDWARE = "hardware"  # the switch chain or the LED chain is broken (power-up checks, self-test)

KINDS = (MEMORY, INTERNAL, SAVE, HARDWARE)  # the panel's fault code is the index + 1


def kind_of(exc):
    """``MEMORY`` for a MemoryError, else ``INTERNAL``."""
    return MEMORY if isinstance(exc, MemoryError) else INTERNAL


def relieve(ctl):
    """Drop the controller's recomputable caches, then collect the heap. Never raises."""
    drop = getattr(ctl, "drop_caches", None)  # the reworked controller has it; older ones do not
    if drop is not None:
        try:
            drop()
        except Exception:  # a failing cache drop must not turn a recovery into a crash
            pass
    gc.collect()


def describe(kind, exc):
    """``"memory: MemoryError: ..."``, at most 120 characters; ``kind`` alone if formatting fails. A
    text instead of an exception is said as it is (``"hardware: the LED chain is broken ..."``)."""
    try:
        text = "%s: %s" % (kind, exc) if type(exc) is str else "%s: %s: %s" % (kind, type(exc).__name__, exc)
        return text[:120]
    except Exception:  # MemoryError while formatting: the constant says enough
        return kind


def call(fn, arg, app):
    """Run ``fn(arg)``; on a fault relieve and retry once; a second fault goes to ``app.fault``.

    Returns True when a try succeeded. Never raises an Exception (a
    KeyboardInterrupt or SystemExit still ends the loop).
    """
    try:
        fn(arg)
        return True
    except Exception:
        pass
    return retry(fn, arg, app)


def retry(fn, arg, app):
    """``call`` after its first try failed: relieve, try again, report a second fault. The main loops
    make the first try themselves (``main.serve``): the pass then runs a frame higher on the Pico's
    8 KB C stack."""
    relieve(getattr(app, "ctl", None))
    try:
        fn(arg)
        return True
    except Exception as exc:
        relieve(getattr(app, "ctl", None))
        try:
            app.fault(kind_of(exc), exc)
        except Exception:
            pass
    return False
