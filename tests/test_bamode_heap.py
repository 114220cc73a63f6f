"""The board's Back Alley scorekeeper mode in the Pico's heap (unix MicroPython, firmware as .mpy).

The harness (``tests/mp/bamode_board.py``, ``bamode_turn.py``, ``bamode_game.py``, ``bamode_play.py``;
built and run by ``tests/ba_heap.py``) runs the whole app as tests/pico/bench_controller.py does (the App on
its drivers, stand-ins for the switch chain, the LEDs, the buttons and a flash outside the heap), compiled to
.mpy like the firmware (the harness's code and names are in the heap it measures, as the bench's helpers are):

* ``bamode_turn``: the backgammon board in its hardest turn (a 1-1 with 2,226 plays), the menu opened
  and left before, rolled, played checker by checker and committed;
* ``bamode_game``, three runs on one flash (the power cut twice: between deals and in the middle of
  one, each time a fresh heap that powers up from the flash): the menu chooses Back Alley, 25 counted
  deals and five redeals are keyed with the buttons (the menu opened over the game and left in deal
  16), the menu goes back to backgammon.

While the board keeps a Back Alley score the backgammon game waits without its code
(``pipcore.bawait``): the controller's modules (about 100 KB on this port) leave the heap when the mode
starts and a power-up into the mode never loads them. So a key of the mode needs far less heap than the
backgammon board's hardest turn, and the whole game runs in the bench's budget, ``-X heapsize=240k``
(tests/bench/README.md, "Back Alley in the budget heap"): its tightest moment is the switch from the
backgammon board, where the mode's names take the pool of interned names past its step (1,260 names on
this port: the next pool is 1,280 entries, 14,080 bytes in one block) before the backgammon code leaves
(the menu keeps that room while it is open: ``pipcore.settings.MenuSession``).
"""

import os
import subprocess
import sys

import pytest

from ba_heap import BUDGET, ROOMY, build_tree, figures, parts, run
from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

SMALL = "160k"  # far below what the switch from the backgammon board needs: the control that must fail
MODE = ["pipcore.bacalls", "pipcore.bamode", "pipcore.bascore", "pipcore.bawait", "pipcore.glyphs"]  # (sorted)
BACKGAMMON = ("pipcore.controller", "pipcore.tracker", "pipcore.rules", "pipcore.match")  # (some of them)


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    return build_tree(str(tmp_path_factory.mktemp("firmware_mpy")))


@pytest.fixture(autouse=True)
def flash_folder(tmp_path, monkeypatch):
    """The harness's flash: real files (outside the heap, as the board's), in a temporary folder."""
    monkeypatch.setenv("PIPBOARD_BAMODE_FLASH", str(tmp_path / "flash"))


def test_a_whole_game_with_power_cuts_needs_less_heap_than_a_backgammon_turn(mpy_tree):
    rc, out = run(mpy_tree, ROOMY, "bamode_turn", "measure")
    assert rc == 0, out
    backgammon = figures(out, "backgammon")
    rc, out, ba = parts(mpy_tree, ROOMY, "bamode_game", "measure")
    assert rc == 0, out
    assert ba["deals"] == 25 and ba["redeals"] >= 1 and ba["cuts"] == 2, ba
    assert ba["heap"] < backgammon["turn"] - 32 * 1024, (ba, backgammon)  # the controller's code is out
    assert ba["save"] < 2048, ba  # the backgammon game's save and the keys, one hex digit each
    # the mode's modules while it runs, and none of them once the board plays backgammon again
    assert ba["during"] == len(MODE) and "%r" % MODE in out, out
    assert ba["after"] == 0, out


def test_the_backgammon_board_with_its_menu_runs_in_the_boards_heap(mpy_tree):
    rc, out = run(mpy_tree, BUDGET, "bamode_turn")
    assert rc == 0, out
    rc, out = run(mpy_tree, "200k", "bamode_turn")  # (a heap far too small fails the same check)
    assert rc != 0 and "FAIL" in out, out


def test_the_whole_game_runs_in_the_boards_heap(mpy_tree):
    rc, out, ba = parts(mpy_tree, BUDGET, "bamode_game")
    assert rc == 0, out
    assert ba["deals"] == 25 and ba["cuts"] == 2 and ba["after"] == 0, ba
    rc, out, ba = parts(mpy_tree, SMALL, "bamode_game")  # (a heap far too small fails the same run)
    assert rc != 0 and "FAIL" in out and ba is None, out


POWER_UP = """
import sys
import bamode_board
rig = bamode_board.Rig(bamode_board.Flash(False))
print("mode", rig.app.mode is not None, sorted(m for m in sys.modules if m.startswith("pipcore.")))
"""


def test_a_power_up_into_back_alley_loads_no_backgammon_code(mpy_tree, tmp_path):
    """The backgammon game waits without its code: a power-up into a saved Back Alley game loads none of the
    backgammon controller's modules (a power-up into backgammon does)."""
    script = tmp_path / "power_up.py"
    script.write_text(POWER_UP)
    rc, out = run(mpy_tree, ROOMY, "bamode_game", "0")  # (up to the first cut: the flash keeps the game)
    assert rc == 0, out
    proc = run_unix_micropython(str(script), heap=ROOMY, firmware=mpy_tree)
    out = proc.stdout + proc.stderr
    assert "mode True" in out and "'pipcore.bamode'" in out, out
    assert not [m for m in BACKGAMMON if repr(m) in out], out
    bamode_board_flash = os.environ["PIPBOARD_BAMODE_FLASH"]
    for name in os.listdir(bamode_board_flash):
        os.remove(os.path.join(bamode_board_flash, name))
    proc = run_unix_micropython(str(script), heap=ROOMY, firmware=mpy_tree)  # (the control: a fresh board)
    out = proc.stdout + proc.stderr
    assert "mode False" in out and all(repr(m) in out for m in BACKGAMMON), out


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
