"""Back Alley's referee mode in the Pico's heap (unix MicroPython, firmware as .mpy), and the modules it loads.

``tests/mp/baref_game.py`` runs the whole app as tests/pico/bench_controller.py does, on the board of
``tests/mp/bamode_board.py`` shared with the scorekeeper's heap test (the App on its drivers, stand-ins for
the switch chain, the LEDs, the buttons and a flash outside the heap), compiled to .mpy like the firmware
(``tests/ba_heap.py``), in three runs on one flash: the menu chooses Back Alley with referee mode on, a whole
game dealt and played by the card engine here (random legal calls and cards, a redeal) is keyed with the
buttons, every card on the side of the seat to act, the power cut in the middle of a trick and between
deals (each time a fresh heap that powers up from the flash); no fault may occur, the scores must be the
engine's, what the game keeps may grow by its keys only, and once the menu goes back to backgammon none of
the mode's modules may stay. The backgammon game waits without its code meanwhile (``pipcore.bawait``), so
the whole refereed game runs in the bench's budget, ``-X heapsize=240k``, and its heaviest press takes far
less than the backgammon board's hardest turn.

And the modules, under CPython and the unix MicroPython: a backgammon game loads none of Back Alley's, a
Back Alley game without referee mode none of referee mode's (``pipcore.baref``, ``batricks``,
``bacards``), a refereed game loads them.
"""

import os
import random
import subprocess
import sys

import pytest

from ba_heap import BUDGET, ROOMY, build_tree, figures, parts, run
from baref_play import needs_word
from pipcore.backalley import NO_TRUMP, Game
from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

SMALL = "160k"  # far below what the switch from the backgammon board needs: the control that must fail
REFEREE = ["pipcore.bacards", "pipcore.baref", "pipcore.batricks"]


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    return build_tree(str(tmp_path_factory.mktemp("firmware_mpy")))


@pytest.fixture(autouse=True)
def flash_folder(tmp_path, monkeypatch):
    """The harness's flash: real files (outside the heap, as the board's), in a temporary folder."""
    monkeypatch.setenv("PIPBOARD_BAMODE_FLASH", str(tmp_path / "flash"))


def game_file(path, seed):
    """A whole game by the engine, random legal calls (deal 5 passed out once) and cards, as baref_game.py
    reads it; returns the engine's game."""
    rng = random.Random(seed)
    game = Game(first_dealer=0, rng=rng)
    lines = []
    while not game.is_over():
        deal = game.deal()
        calls = ""
        for _ in range(4):
            legal = game.legal_calls()
            call = legal[0] if len(game.results) == 4 and not game.redeals else legal[rng.randrange(len(legal))]
            game.bid(game.to_act, call)
            calls += "f" if call < 0 else "%x" % call
        cards = ""
        while game.current is deal:
            legal = game.legal_cards()
            card = legal[rng.randrange(len(legal))]
            word = needs_word(deal, card)
            game.play(game.to_act, card)
            cards += "%02x" % (card | (64 if word else 0))
        lines.append("%d %s %s" % (4 if deal.trump == NO_TRUMP else deal.trump, calls, cards))
    path.write_text("\n".join(lines) + "\n")
    return game


@pytest.fixture(scope="module")
def engine_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("baref_game") / "game.txt"
    game = game_file(path, 4)
    assert game.redeals == 1
    return str(path), game


def test_a_whole_refereed_game_with_power_cuts_on_the_boards_app_in_micropython(mpy_tree, engine_game):
    path, game = engine_game
    rc, out = run(mpy_tree, ROOMY, "bamode_turn", "measure")
    assert rc == 0, out
    backgammon = figures(out, "backgammon")
    rc, out, got = parts(mpy_tree, ROOMY, "baref_game", path, "measure")
    assert rc == 0, out
    assert got["deals"] == 25 and got["cuts"] == 2, got
    assert [got["ns"], got["ew"]] == game.scores, (got, game.scores)
    assert got["save"] < 2048, got  # the backgammon game's save, the keys and the deal's cards
    assert 0 < got["first"] and got["last"] - got["first"] < 2 * 1024, got  # deal 13 to 25: the keys
    assert got["heap"] < backgammon["turn"] - 32 * 1024, (got, backgammon)  # the controller's code is out
    during = out.split("modules during the game ")[1].split(", after it ")[0]
    assert all(m in during for m in REFEREE), out  # (loaded while the game was refereed)
    assert out.rstrip().endswith("after it []"), out  # and gone with the mode
    print("a refereed game: the most heap a press took %d bytes (a backgammon turn: %d), the largest save %d "
          "bytes" % (got["heap"], backgammon["turn"], got["save"]))


def test_the_whole_refereed_game_runs_in_the_boards_heap(mpy_tree, engine_game):
    path, game = engine_game
    rc, out, got = parts(mpy_tree, BUDGET, "baref_game", path)
    assert rc == 0, out
    assert got["deals"] == 25 and got["cuts"] == 2 and [got["ns"], got["ew"]] == game.scores, got
    rc, out, got = parts(mpy_tree, SMALL, "baref_game", path)  # (a heap far too small fails the same run)
    assert rc != 0 and "FAIL" in out and got is None, out


MODULES = """
import json, sys
from resilience import Bench, run
committed, bench, fired = run()
assert committed is not None and committed["ref"]["move"] >= 2, committed


def ba():
    return sorted(m for m in sys.modules if m.startswith("pipcore.ba") or m == "pipcore.glyphs")


def ask(msg):
    bench.out[:] = []
    bench.handler.feed((json.dumps(msg) + "\\n").encode())
    return json.loads(bench.out[-1])


print("backgammon", ba())
assert ask({"id": 1, "cmd": "new_game", "variant": "backalley", "options": {"dealer": "N"}})["ok"]
print("plain", [m for m in ba() if m in ("pipcore.baref", "pipcore.batricks", "pipcore.bacards")])
assert ask({"id": 2, "cmd": "new_game", "variant": "backgammon"})["ok"]
assert ask({"id": 3, "cmd": "new_game", "variant": "backalley", "options": {"dealer": "N", "referee": True}})["ok"]
print("refereed", [m for m in ba() if m in ("pipcore.baref", "pipcore.batricks", "pipcore.bacards")])
assert ask({"id": 4, "cmd": "new_game", "variant": "backgammon"})["ok"]
print("after", ba())
"""


def check_modules(output, after):
    assert "backgammon []" in output, output
    assert "plain []" in output, output
    assert "refereed %r" % REFEREE in output, output
    assert ("after []" in output) == after, output


def test_the_modules_of_referee_mode_load_only_in_a_refereed_game_cpython():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((os.path.join(ROOT, "firmware"), MP_DIR)))
    proc = subprocess.run([sys.executable, "-c", MODULES], capture_output=True, text=True, env=env, timeout=300)
    check_modules(proc.stdout + proc.stderr, False)  # (CPython keeps what it imported: the tests hold classes)


def test_the_modules_of_referee_mode_load_only_in_a_refereed_game_and_leave_with_it_micropython(tmp_path):
    script = tmp_path / "modules.py"
    script.write_text(MODULES)
    proc = run_unix_micropython(str(script), heap="1m")
    check_modules(proc.stdout + proc.stderr, True)
