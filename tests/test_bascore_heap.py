"""The Back Alley scorekeeper (pipcore.bascore) in a small fixed heap under the unix MicroPython.

The firmware is loaded as the .mpy files ``pipboard deploy`` builds, as on
the Pico. ``tests/mp/bascore_game.py`` keys a whole game of 25 counted deals
(with redeals) and cuts the power after every deal (the save as JSON, the
keeper dropped, restored from the save). Figures measured on this port
(64-bit objects, about 1.5-2 x the Pico's): code 20.7 KB (``bacalls`` and
``bascore``; the card engine ``backalley`` is not loaded), the game's data at
most 6.8 KB, the save 312 bytes; the whole run fits a 64 KB heap. The
budgets below leave a margin over those figures and fail if they are
exceeded.
"""

import os

import pytest

from unix_mp import MP_DIR, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

HEAP = "64k"
CODE_BUDGET = 24 * 1024
GAME_BUDGET = 10 * 1024
SAVE_BUDGET = 600


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build

    out = tmp_path_factory.mktemp("firmware_mpy")
    build(build_dir=str(out), arch="x64")
    return str(out)


def test_a_whole_scorekeeper_game_with_power_cuts_fits_a_small_heap(mpy_tree):
    proc = run_unix_micropython(os.path.join(MP_DIR, "bascore_game.py"), heap=HEAP, firmware=mpy_tree, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    figures = dict(word.split("=") for word in output.split("bascore ")[1].split())
    assert int(figures["cuts"]) == 25
    assert int(figures["code"]) < CODE_BUDGET, figures
    assert int(figures["game"]) < GAME_BUDGET, figures
    assert int(figures["save"]) < SAVE_BUDGET, figures


def test_the_scorekeeper_does_not_load_the_card_engine(mpy_tree, tmp_path):
    script = tmp_path / "modules.py"
    script.write_text("import sys\nimport pipcore.bascore\nprint(sorted(m for m in sys.modules if 'pipcore' in m))\n")
    proc = run_unix_micropython(str(script), heap="256k", firmware=mpy_tree)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "pipcore.bascore" in output and "pipcore.backalley" not in output, output
