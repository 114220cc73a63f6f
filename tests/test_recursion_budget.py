"""Recursion stays shallow on the board's paths: the worst turns of every variant run
under a small recursion budget (the Pico's C stack is far smaller than a PC's).

* CPython: ``sys.setrecursionlimit`` at the depth of the test frame + MARGIN
  (calibrated by recursing, so the budget is the same under any runner).
* The unix MicroPython (the firmware as .mpy, as deployed): a thread whose C
  stack is STACK bytes (about 27 Python frames on this 64-bit port).

Each budget is shown to bite: a recursion a little deeper than the budget
fails under it, so the test can fail.
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))

import recursion_worst  # noqa: E402

MARGIN = 16  # the deepest chain, bounded by the four moves of a double: Turn -> _generate_double ->
# _explore x4 -> _legal -> _exact -> _exact_from x5 (caucasian, 14 frames; since its search is one loop,
# _explore x1 and no _legal: 9) and two for the helpers
STACK = 24 * 1024


def _nest(n):
    return 0 if n == 0 else 1 + _nest(n - 1)


def _limit_for(frames):
    """The lowest recursion limit that leaves ``frames`` Python frames free above the caller
    (calibrated: runners such as pytest-xdist add C-level calls the frame count does not show)."""
    old = sys.getrecursionlimit()
    f = sys._getframe()
    limit = 1
    while f is not None:  # the frames below: the limit cannot be set under them
        limit += 1
        f = f.f_back
    while True:
        try:
            sys.setrecursionlimit(limit)  # refused below the current depth (it counts C calls too)
            _nest(frames)
            return limit
        except RecursionError:
            limit += 1
        finally:
            sys.setrecursionlimit(old)


def test_worst_turns_under_a_low_recursion_limit():
    recursion_worst.run_all()  # once at the normal limit: lazy imports (importlib is deep) happen here
    old = sys.getrecursionlimit()
    limit = _limit_for(MARGIN)
    try:
        sys.setrecursionlimit(limit)
        assert recursion_worst.run_all() > 20
        with pytest.raises(RecursionError):  # the budget bites
            _nest(MARGIN + 3)
    finally:
        sys.setrecursionlimit(old)


SCRIPT = r"""
import _thread, time, sys
sys.path.insert(0, %(tests)r)
import recursion_worst
out = []
def nest(n):
    return 0 if n == 0 else 1 + nest(n - 1)
def job(what):
    try:
        out.append((what, recursion_worst.run_all() if what == "worst" else nest(60)))
    except RuntimeError as e:
        out.append((what, "RuntimeError: %%s" %% e))
_thread.stack_size(%(stack)d)
for what in ("worst", "deep"):
    _thread.start_new_thread(job, (what,))
    while len(out) < (1 if what == "worst" else 2):
        time.sleep(0.01)
print(out)
"""


def test_worst_turns_in_a_small_micropython_stack(tmp_path):
    import mpy_host

    script = tmp_path / "recursion_mp.py"
    script.write_text(SCRIPT % {"tests": os.path.join(ROOT, "tests"), "stack": STACK})
    proc = mpy_host.run_unix(str(script), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = dict(eval(proc.stdout.strip().splitlines()[-1]))
    assert isinstance(result["worst"], int) and result["worst"] > 20, result
    assert "recursion" in str(result["deep"]), result  # 60 frames do not fit: the budget bites
