"""The board's Back Alley scorekeeper mode in the Pico's heap (unix MicroPython, firmware as .mpy).

``tests/mp/bamode_game.py`` runs the whole app as tests/pico/bench_controller.py does (the App on its
drivers, stand-ins for the switch chain, the LEDs, the buttons and a flash outside the heap):

* ``backgammon``: the backgammon board in its hardest turn (a 1-1 with 2,226 plays), rolled, played
  checker by checker and committed, its heap measured as the bench measures an event's (the live heap
  before it plus what it allocates with the collector off);
* the Back Alley game: the menu chooses it, 25 counted deals and five redeals are keyed with the
  buttons, the power is cut twice (between deals, and in the middle of one), the menu goes back to
  backgammon; every key measured the same way.

Measured on this port (64-bit objects, about 1.5-2 x the Pico's): the mode's code (``bamode``,
``bascore``, ``bacalls``, ``glyphs``) about 31 KB, less what it sends away while it runs (a roll's
modules and the store of its plays, about 21 KB); a key's heap stays below the backgammon board's
hardest turn. So the mode needs no heap a backgammon game does not: where the bench's budget holds
(240 KB), Back Alley runs. The game is also run in exactly ``-X heapsize=240k``; while the backgammon
board itself does not fit that heap on this firmware (the bench's own budget, being cut), that run
says so and is skipped.
"""

import os
import subprocess
import sys

import pytest

from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

SCRIPT = os.path.join(MP_DIR, "bamode_game.py")
BUDGET = "240k"  # the bench's budget (tests/bench/bench_controller.py)
ROOMY = "1m"
MODE = ["pipcore.bamode", "pipcore.bascore", "pipcore.bacalls", "pipcore.glyphs"]


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build

    out = tmp_path_factory.mktemp("firmware_mpy")
    build(build_dir=str(out), arch="x64")
    return str(out)


@pytest.fixture(autouse=True)
def flash_folder(tmp_path, monkeypatch):
    """The script's flash: real files (outside the heap, as the board's), in a temporary folder."""
    monkeypatch.setenv("PIPBOARD_BAMODE_FLASH", str(tmp_path / "flash"))


def run(mpy_tree, heap, *args):
    proc = run_unix_micropython(SCRIPT, *args, heap=heap, firmware=mpy_tree, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def figures(output, tag):
    line = [x for x in output.splitlines() if x.startswith(tag + " ")][0]
    return dict((k, int(v)) for k, v in (w.split("=") for w in line.split()[1:]))


def test_a_whole_game_with_power_cuts_needs_no_more_heap_than_a_backgammon_turn(mpy_tree):
    rc, out = run(mpy_tree, ROOMY, "backgammon")
    assert rc == 0, out
    backgammon = figures(out, "backgammon")
    rc, out = run(mpy_tree, ROOMY)
    assert rc == 0, out
    ba = figures(out, "bamode")
    assert ba["deals"] == 25 and ba["redeals"] >= 1 and ba["cuts"] == 2, ba
    assert ba["heap"] <= backgammon["turn"], (ba, backgammon)
    assert ba["save"] < 2048, ba  # the backgammon game's save and the keys, one hex digit each
    # the mode's modules while it runs, and none of them once the board plays backgammon again
    assert ba["during"] == len(MODE) and "%r" % MODE in out, out
    assert ba["after"] == 0, out


def test_the_whole_game_runs_in_the_boards_heap(mpy_tree):
    rc, out = run(mpy_tree, BUDGET, "backgammon")
    if rc != 0:  # (this stage never loads the mode: the backgammon board alone ran out of heap)
        pytest.skip("the backgammon board itself does not fit -X heapsize=%s on this firmware yet "
                    "(tests/bench/bench_controller.py's budget): %s" % (BUDGET, out.strip()[-120:]))
    assert rc == 0, out
    rc, out = run(mpy_tree, BUDGET)
    assert rc == 0, out
    assert figures(out, "bamode")["deals"] == 25


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
