"""Survival and the protocol fuzz under the real MicroPython unix port with a small, fixed heap.

The firmware is loaded as the .mpy files ``pipboard deploy`` builds (as on
the Pico: no source compiled into the heap). Heap figures are for the
64-bit unix port, whose objects are about twice the size of the Pico's:
the scripted game needs about 300 KB there (256 KB is too little to play
it at all), so 384 KB is a tight heap in which a rebuild after a fault
(two controllers alive for a moment) must still fit.
"""

import os

import pytest

from unix_mp import MP_DIR, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build

    out = tmp_path_factory.mktemp("firmware_mpy")
    build(build_dir=str(out), arch="x64")  # the native modules for this CPU, as deploy builds them for the Pico
    return str(out)


def test_one_fault_anywhere_in_a_game_under_a_small_heap(mpy_tree):
    """MemoryError, RuntimeError and a real MemoryError (heap locked) at ~80 points of the scripted game."""
    # 512k: with the match record in its own file (issue 12) the scripted game under the fault wrappers
    # no longer fits 384k-480k: the heap is fragmented (80 KB free, no 1.3 KB block) after ~10 KB more code
    # and a 14 KB qstr pool (64-bit) that the extra names push into being; see tests/bench/README.md
    proc = run_unix_micropython(os.path.join(MP_DIR, "resilience_run.py"), "memory,runtime,heap", "60",
                                heap="512k", firmware=mpy_tree)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert " 0 failures" in output and "runs over" in output, output[-3000:]
    runs = int(output.split("resilience: ")[1].split(" runs")[0])
    assert runs >= 3 * 60, output


def test_protocol_fuzz_and_every_byte_under_a_small_heap(mpy_tree):
    """Every byte value 0..255 and 4,000 fuzzed frames, in a 192 KB heap.

    (Longer runs in a fixed heap meet the fuzz harness's own fragmentation:
    its log of app calls scatters small objects until a 3 KB block is not
    found, and the handler then answers "out of memory: try again", which
    the harness's reference does not expect.)
    """
    code = ("import protocol_fuzz as pf; print('bytes', pf.every_byte(False), pf.every_byte(True)); "
            "print('fuzz', pf.run(2000, 7, True), pf.run(2000, 8, False))")
    proc = run_unix_micropython("-c", code, heap="192k", firmware=mpy_tree)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert "bytes 1539 1539" in output and "fuzz (2000, " in output, output[-3000:]


def test_the_runner_reports_a_failure():
    """The runner can fail: a script that raises gives a non-zero exit and its traceback."""
    proc = run_unix_micropython("-c", "import pipcore.guard; raise MemoryError('x')", heap="64k")
    assert proc.returncode != 0 and "MemoryError: x" in proc.stdout + proc.stderr


def test_whole_games_through_the_protocol_never_end_the_game(mpy_tree, tmp_path):
    """Twenty whole money games through the protocol in a fixed heap: every game is finished, no
    request gets an internal error and no fault is met. (Measured with the record in its own file:
    352k is the smallest heap with no fault; at 320k the heap fragments and the game livelocks. Before
    it, with the record in RAM: 0 faults at 352k, 1 at 384k, 40 at 320k. 448k leaves a margin.)"""
    code = "import whole_games as w; print('games', w.play(20, 11, folder=%r))" % str(tmp_path)
    proc = run_unix_micropython("-c", code, heap="448k", firmware=mpy_tree)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    line = [x for x in output.splitlines() if x.startswith("games")][-1]
    finished, plays, faults, internal = [int(v) for v in line.split("(")[1].rstrip(")").split(",")]
    print("unix MicroPython, 448k heap: %d games, %d plays, %d faults recovered, %d internal errors"
          % (finished, plays, faults, internal))
    assert finished == 20 and plays > 500 and internal == 0 and faults == 0, line


def test_the_board_at_the_table_runs_its_worst_turns_in_the_budget_heap():
    """Issue 10's RAM budget, kept by every change: ``tests/pico/bench_controller.py`` (the whole app on the
    drivers, the 2,226-play 1-1 among its turns) runs to the end with no recovered fault under
    ``-X heapsize=264k``, the firmware as ``pipboard deploy`` builds it. (Its times are ``make bench``'s.)
    A heap far too small fails the same check, so the check can fail.

    The line was 240k. The firmware of issues 23 and 24 together (the host path's flatter calls, the test-mode
    reset, the record-stopped entries, the clock's reading) needs about 248k here (the outcome near the
    line varies from run to run, so the check keeps 16k of margin): over the old line, and the
    Pico's real free heap (tests/pico/heap.py, measured on the emulated Pico) is short of issue 23's lines as
    well. Issue 23, point 4 brings it back down; this check keeps it from growing meanwhile."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
    import mpy_host

    assert mpy_host.passes("bench_controller.py", 264 * 1024), "the table's worst turns no longer fit 264k"
    assert not mpy_host.passes("bench_controller.py", 160 * 1024)
