"""Run the ``test_*`` functions of modules under MicroPython (no pytest there).

Used by ``tests/test_micropython.py`` through ``tests/mp_run.mjs``:

    node tests/mp_run.mjs tests/mp/mp_unittest.py test_rules_core test_cube

Prints one line per failure and a closing line ``N passed, N failed``.
Exits 1 if anything failed.
"""
import sys


def run_module(name, results):
    module = __import__(name)
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        func = getattr(module, attr)
        if not callable(func):
            continue
        try:
            func()
            results[0] += 1
        except Exception as exc:  # report and go on: one line per failure
            results[1] += 1
            print("FAIL %s.%s: %s: %s" % (name, attr, type(exc).__name__, exc))
            sys.print_exception(exc) if hasattr(sys, "print_exception") else None


def main(names):
    results = [0, 0]
    for name in names:
        try:
            run_module(name, results)
        except Exception as exc:
            results[1] += 1
            print("FAIL import %s: %s: %s" % (name, type(exc).__name__, exc))
            sys.print_exception(exc) if hasattr(sys, "print_exception") else None
    print("micropython: %d passed, %d failed" % (results[0], results[1]))
    if results[1] or not results[0]:
        sys.exit(1)


main(sys.argv[1:])
