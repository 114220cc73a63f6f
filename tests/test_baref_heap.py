"""Back Alley's referee mode in the Pico's heap (unix MicroPython, firmware as .mpy), and the modules it loads.

``tests/mp/baref_game.py`` runs the whole app as tests/pico/bench_controller.py does (the App on its
drivers, stand-ins for the switch chain, the LEDs, the buttons and a flash outside the heap): the menu
chooses Back Alley with referee mode on, a whole game dealt and played by the card engine here (random
legal calls and cards, a redeal) is keyed with the buttons, every card on the side of the seat to act, the
power cut in the middle of a trick and between deals; no fault may occur, the scores must be the
engine's, what the game keeps may grow by its keys only, and once the menu goes back to backgammon none of
the mode's modules may stay. It prints the most heap a press took, measured as the bench measures an
event's (the live heap before it plus what it allocates with the collector off): about 274 KB on this
port, some 20 KB above the backgammon board's hardest turn in the same kind of harness
(tests/test_bamode_heap.py), the code of referee mode (``baref``, ``batricks``, ``bacards``: 18 KB) for
the most part. The run's heap is roomy: when this was written, the app on this harness at ``-X heapsize=240k`` could
not open its menu (the budget's own run, tests/test_unix_micropython.py, never does).

And the modules, under CPython and the unix MicroPython: a backgammon game loads none of Back Alley's, a
Back Alley game without referee mode none of referee mode's (``pipcore.baref``, ``batricks``,
``bacards``), a refereed game loads them.
"""

import os
import random
import subprocess
import sys

import pytest

from baref_play import needs_word
from pipcore.backalley import NO_TRUMP, Game
from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

pytestmark = pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")

SCRIPT = os.path.join(MP_DIR, "baref_game.py")
HEAP = "1m"
REFEREE = ["pipcore.bacards", "pipcore.baref", "pipcore.batricks"]


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    from pipboard.deploy import build

    out = tmp_path_factory.mktemp("firmware_mpy")
    build(build_dir=str(out), arch="x64")
    return str(out)


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


def figures(output):
    line = [x for x in output.splitlines() if x.startswith("baref ")][0]
    return dict((k, int(v)) for k, v in (w.split("=") for w in line.split()[1:]))


def test_a_whole_refereed_game_with_power_cuts_on_the_boards_app_in_micropython(mpy_tree, tmp_path, monkeypatch):
    monkeypatch.setenv("PIPBOARD_BAREF_FLASH", str(tmp_path / "flash"))
    game = game_file(tmp_path / "game.txt", 4)
    assert game.redeals == 1
    proc = run_unix_micropython(SCRIPT, str(tmp_path / "game.txt"), heap=HEAP, firmware=mpy_tree, timeout=900)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    got = figures(out)
    assert got["deals"] == 25 and got["cuts"] == 2 and got["faults"] == 0, got
    assert [got["ns"], got["ew"]] == game.scores, (got, game.scores)
    assert got["save"] < 2048, got  # the backgammon game's save, the keys and the deal's cards
    assert got["last"] - got["first"] < 6 * 1024, got  # deal 1 to 25: the keys, a save buffer grown once
    during = out.split("modules during the game ")[1].split(", after it ")[0]
    assert all(m in during for m in REFEREE), out  # (loaded while the game was refereed)
    assert out.rstrip().endswith("after it []"), out  # and gone with the mode
    print("a refereed game: the most heap a press took %d bytes, the largest save %d bytes" % (got["heap"],
                                                                                            got["save"]))


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
