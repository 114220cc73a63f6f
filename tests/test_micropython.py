"""Run every tests/mp/test_*.py module under the real MicroPython (WebAssembly).

The same modules run under CPython through ordinary pytest collection; this
test proves nothing CPython-only slipped into firmware/.
"""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP_DIR = os.path.join(ROOT, "tests", "mp")
RUNNER = os.path.join(ROOT, "tests", "mp_run.mjs")


def mp_modules():
    return sorted(n[:-3] for n in os.listdir(MP_DIR) if n.startswith("test_") and n.endswith(".py"))


def run_micropython(script, *args, timeout=600):
    """Run a script under WASM MicroPython; returns CompletedProcess."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make setup installs it)")
    return subprocess.run([node, RUNNER, script, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("module", mp_modules())
def test_module_under_micropython(module):
    proc = run_micropython(os.path.join(MP_DIR, "mp_unittest.py"), module)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert " passed, 0 failed" in output, output
