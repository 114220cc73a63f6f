"""The board's Back Alley scorekeeper mode in the Pico's heap (unix MicroPython, firmware as .mpy).

The harness (``tests/mp/bamode_board.py``, ``bamode_turn.py``, ``bamode_game.py``, ``bamode_play.py``)
runs the whole app as tests/pico/bench_controller.py does (the App on its drivers, stand-ins for the
switch chain, the LEDs, the buttons and a flash outside the heap), compiled to .mpy like the firmware
(the harness's code and names are in the heap it measures, as the bench's helpers are):

* ``bamode_turn``: the backgammon board in its hardest turn (a 1-1 with 2,226 plays), the menu opened
  and left before, rolled, played checker by checker and committed;
* ``bamode_game``, three runs on one flash (the power cut twice: between deals and in the middle of
  one, each time a fresh heap that powers up from the flash): the menu chooses Back Alley, 25 counted
  deals and five redeals are keyed with the buttons, the menu goes back to backgammon.

Measured on this port (64-bit objects, about 1.5-2 x the Pico's): the mode's code (``bamode``,
``bascore``, ``bacalls``, ``glyphs``) about 28 KB, less what it sends away while it runs (a roll's
modules and the store of its plays, about 20 KB); and its names (about 160) take the pool of interned
names past its step (1,260 names on this port: the next pool is 1,280 entries, 14,080 bytes in one
block; 9 KB on the Pico), which the backgammon board with its menu stays under. So a key of the mode
needs at most the backgammon board's hardest turn plus that pool.

In exactly ``-X heapsize=240k`` (the bench's budget) the backgammon board with its menu runs; the
whole Back Alley game does not yet (it needs 252k: see tests/bench/README.md, "Back Alley in the
budget heap"), and that test says so as an expected failure that fails the run once the game fits.
"""

import os
import subprocess
import sys

import pytest

from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

HARNESS = ("bamode_board", "bamode_turn", "bamode_game", "bamode_play")  # compiled as the firmware is
BUDGET = "240k"  # the bench's budget (tests/bench/bench_controller.py)
REACHED = "256k"  # the whole game runs in 252k on this firmware (4 KB steps): kept, with one step to spare
ROOMY = "1m"
MODE = ["pipcore.bamode", "pipcore.bascore", "pipcore.bacalls", "pipcore.glyphs"]
QSTR_STEP = 1280 * (8 + 2 + 1)  # the interned names' next pool on this port: 1,280 x (pointer, hash, length)


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build, compile_module

    out = str(tmp_path_factory.mktemp("firmware_mpy"))
    build(build_dir=out, arch="x64")
    for name in HARNESS:
        compile_module(os.path.join(MP_DIR, name + ".py"), os.path.join(out, name + ".mpy"), name + ".py")
    return out


@pytest.fixture(autouse=True)
def flash_folder(tmp_path, monkeypatch):
    """The harness's flash: real files (outside the heap, as the board's), in a temporary folder."""
    monkeypatch.setenv("PIPBOARD_BAMODE_FLASH", str(tmp_path / "flash"))


def run(mpy_tree, heap, module, *args):
    proc = run_unix_micropython("-m " + module, *args, heap=heap, firmware=mpy_tree, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def figures(output, tag):
    line = [x for x in output.splitlines() if x.startswith(tag + " ")][0]
    return dict((k, int(v)) for k, v in (w.split("=") for w in line.split()[1:] if "=" in w))


def game(mpy_tree, heap, *args):
    """The Back Alley game's three runs: (exit code, output, the game's figures or None)."""
    outs = []
    for part in range(3):
        rc, out = run(mpy_tree, heap, "bamode_game", str(part), *args)
        outs.append(out)
        if rc:
            return rc, "\n".join(outs), None
    parts = [figures(out, "part") for out in outs]
    ba = figures(outs[-1], "bamode")
    ba.update(heap=max(p["heap"] for p in parts), save=max(p["save"] for p in parts), idle=parts[0]["idle"],
              cuts=sum(p["resumed"] for p in parts))
    return 0, "\n".join(outs), ba


def test_a_whole_game_with_power_cuts_needs_a_backgammon_turns_heap_and_the_pool_of_its_names(mpy_tree):
    rc, out = run(mpy_tree, ROOMY, "bamode_turn", "measure")
    assert rc == 0, out
    backgammon = figures(out, "backgammon")
    rc, out, ba = game(mpy_tree, ROOMY, "measure")
    assert rc == 0, out
    assert ba["deals"] == 25 and ba["redeals"] >= 1 and ba["cuts"] == 2, ba
    assert ba["heap"] <= backgammon["turn"] + QSTR_STEP, (ba, backgammon)
    assert ba["save"] < 2048, ba  # the backgammon game's save and the keys, one hex digit each
    # the mode's modules while it runs, and none of them once the board plays backgammon again
    assert ba["during"] == len(MODE) and "%r" % MODE in out, out
    assert ba["after"] == 0, out


def test_the_backgammon_board_with_its_menu_runs_in_the_boards_heap(mpy_tree):
    rc, out = run(mpy_tree, BUDGET, "bamode_turn")
    assert rc == 0, out
    rc, out = run(mpy_tree, "200k", "bamode_turn")  # (a heap far too small fails the same check)
    assert rc != 0 and "FAIL" in out, out


def test_the_whole_game_runs_in_the_heap_it_reached(mpy_tree):
    """Back Alley's own ratchet while it does not fit the budget: a change that makes it need more fails."""
    rc, out, ba = game(mpy_tree, REACHED)
    assert rc == 0, out
    assert ba["deals"] == 25 and ba["cuts"] == 2 and ba["after"] == 0, ba


@pytest.mark.xfail(strict=True, reason="Back Alley needs 252k on this firmware (its code and the pool of its "
                   "names: tests/bench/README.md, 'Back Alley in the budget heap'); remove this mark once it fits")
def test_the_whole_game_runs_in_the_boards_heap(mpy_tree):
    rc, out, ba = game(mpy_tree, BUDGET)
    assert rc == 0, out
    assert ba["deals"] == 25 and ba["cuts"] == 2 and ba["after"] == 0, ba


MODULES = """
import sys
from resilience import run
committed, bench, fired = run()
assert committed is not None and committed["ref"]["move"] >= 2, committed
print("loaded", sorted(m for m in sys.modules if m.startswith("pipcore.ba") or m == "pipcore.glyphs"))
bench.out[:] = []
bench.handler.feed(b'{"id": 1, "cmd": "new_game", "variant": "backalley", "options": {"dealer": "X"}}\\n')
assert b'"ok": false' in bench.out[-1] and bench.app.mode is None, bench.out
print("refused", sorted(m for m in sys.modules if m.startswith("pipcore.ba") or m == "pipcore.glyphs"))
"""


def test_a_backgammon_game_never_imports_the_mode_cpython():
    """A backgammon game loads none of the mode's modules; a host's Back Alley game refused for its options
    loads only the small module that checks them."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((os.path.join(ROOT, "firmware"), MP_DIR)))
    proc = subprocess.run([sys.executable, "-c", MODULES], capture_output=True, text=True, env=env, timeout=300)
    assert "loaded []" in proc.stdout, proc.stdout + proc.stderr
    assert "refused ['pipcore.bahost']" in proc.stdout, proc.stdout + proc.stderr  # (the mode itself stays out)


def test_a_backgammon_game_never_imports_the_mode_micropython(tmp_path):
    script = tmp_path / "modules.py"
    script.write_text(MODULES)
    proc = run_unix_micropython(str(script), heap="1m")
    assert "loaded []" in proc.stdout, proc.stdout + proc.stderr
    assert "refused ['pipcore.bahost']" in proc.stdout, proc.stdout + proc.stderr  # (the mode itself stays out)
