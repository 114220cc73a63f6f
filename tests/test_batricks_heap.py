"""Back Alley referee mode (pipcore.batricks) in a fixed heap under the unix MicroPython.

The firmware is loaded as the .mpy files ``pipboard deploy`` builds, as on
the Pico. A whole game of 25 counted deals is dealt and played with random
legal cards by the card engine here on CPython and written to a file;
``tests/mp/batricks_game.py`` keys every card into the referee (the keeper
fed at the end of each deal) with a power cut every 5 cards, loading only
the board's modules (``bacalls``, ``bascore``, ``bacards``, ``batricks``;
not the engine). Figures measured on this port (64-bit objects, about
1.5-2 x the Pico's): code 36.4 KB (bascore 21.7, bacards 3.7, batricks
11.6), the game's data at most 7.9 KB, the largest save 531 bytes, the
slowest card (its count of the cards out) 0.3 ms; the whole game runs in a
72 KB heap. It is run in the budget's 240 KB heap, and in 96 KB; the
budgets below leave a margin over those figures and fail if exceeded.
"""

import os
import random

import pytest

from unix_mp import MP_DIR, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

CODE_BUDGET = 40 * 1024
GAME_BUDGET = 12 * 1024
SAVE_BUDGET = 800


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build

    out = tmp_path_factory.mktemp("firmware_mpy")
    build(build_dir=str(out), arch="x64")
    return str(out)


def game_file(path, seed):
    """A whole game played by the engine with random legal cards, as ``batricks_game.py`` reads it."""
    from test_backalley_referee import needs_word

    from pipcore.backalley import BIDDING, BOARD, NO_TRUMP, PASS, PLAYING, Game

    rng = random.Random(seed)
    game = Game(first_dealer=0, rng=rng)
    lines = []
    while not game.is_over():
        deal = game.deal()
        calls = ""
        while game.phase == BIDDING:
            h = deal.hand_size
            call = rng.choice([PASS, BOARD] if h == 1 else [PASS, 1, 2, BOARD] if h > 2 else [PASS, 1])
            calls += "f" if call == BOARD else "%x" % call
            game.bid(game.to_act, call)
        cards = ""
        while deal.phase == PLAYING:
            legal = deal.legal_cards()
            card = legal[rng.randrange(len(legal))]
            cards += "%02x" % (card | (64 if needs_word(deal, card) else 0))
            game.play(game.to_act, card)
        lines.append("%d %s %s" % (4 if deal.trump == NO_TRUMP else deal.trump, calls, cards))
    path.write_text("\n".join(lines) + "\n")
    return game


@pytest.mark.parametrize("heap", ["240k", "96k"])
def test_a_whole_refereed_game_with_power_cuts_fits_the_heap(mpy_tree, tmp_path, heap):
    game = game_file(tmp_path / "game.txt", 5)
    proc = run_unix_micropython(os.path.join(MP_DIR, "batricks_game.py"), str(tmp_path / "game.txt"), heap=heap,
                                firmware=mpy_tree, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    figures = dict(word.split("=") for word in output.split("batricks ")[1].split())
    print("unix MicroPython, %s heap: %s" % (heap, figures))
    assert figures["scores"] == "%d,%d" % tuple(game.scores)  # the keeper fed by the referee scores as the engine
    assert int(figures["cards"]) > 600 and int(figures["cuts"]) == int(figures["cards"]) // 5
    assert int(figures["code"]) < CODE_BUDGET, figures
    assert int(figures["game"]) < GAME_BUDGET, figures
    assert int(figures["save"]) < SAVE_BUDGET, figures


def test_the_referee_does_not_load_the_card_engine(mpy_tree, tmp_path):
    script = tmp_path / "modules.py"
    script.write_text("import sys\nimport pipcore.batricks\nprint(sorted(m for m in sys.modules if 'pipcore' in m))\n")
    proc = run_unix_micropython(str(script), heap="256k", firmware=mpy_tree)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "pipcore.batricks" in output and "pipcore.bacards" in output, output
    assert "pipcore.backalley" not in output, output
