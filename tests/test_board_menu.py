"""The board's menu, settings and self-test beyond the unit tests of tests/mp/test_menu.py.

* RAM: the menu, settings and self-test modules are not loaded by a game, under CPython and the real
  MicroPython (unix port), until the menu opens;
* the simulated board: the menu by its buttons, a match chosen mid-game waiting for the next one, the
  settings across power cuts, a cut LED chain reported at power-up and by the self-test, the self-test
  over the protocol port (``pipboard sim --test``) finding switches stuck in the twin.
"""

import json
import os
import subprocess
import sys

import pytest

from pipboard.simboard import SimBoard
from pipcore import geometry as g
from pipcore.bridge import AppBridge
from unix_mp import MP_DIR, ROOT, run_unix_micropython, unix_micropython

LAZY = ("pipcore.menu", "pipcore.settings", "pipcore.selftest")
SCRIPT = """
import sys
from resilience import run
from pipcore import geometry as g
committed, bench, fired = run()
assert committed is not None and committed["ref"]["move"] >= 2, committed
print("after the game", [m for m in %r if m in sys.modules])
bench.pressed = 1 << g.BTN_MENU
bench.advance(900)
bench.pressed = 0
bench.advance(40)
print("menu open", bench.app.overlay is not None, [m for m in %r if m in sys.modules])
bench.press(g.BTN_MENU)
bench.press(g.BTN_WHITE_TAKE)
bench.press(g.BTN_WHITE_ROLL)
print("menu closed", bench.app.overlay is None, bench.app.pending,
      [m for m in %r if m in sys.modules])
""" % (LAZY, LAZY, LAZY)


def _check(output, unloaded):
    assert "after the game []" in output, output
    assert "menu open True ['pipcore.menu', 'pipcore.settings']" in output, output
    # MicroPython: the menu's code leaves the heap once it closes (pipcore.compat.unload); CPython keeps it
    kept = "[]" if unloaded else "['pipcore.menu', 'pipcore.settings']"
    assert "menu closed True True %s" % kept in output, output  # (mid-game: the match waits)


def test_a_game_loads_no_menu_module_cpython():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((os.path.join(ROOT, "firmware"), MP_DIR)))
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300)
    _check(proc.stdout + proc.stderr, False)


@pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")
def test_a_game_loads_no_menu_module_micropython(tmp_path):
    script = tmp_path / "lazy.py"
    script.write_text(SCRIPT)
    proc = run_unix_micropython(str(script), heap="1m")
    _check(proc.stdout + proc.stderr, True)


def hold(board, button):
    board.key(button, long=True)


def test_menu_by_the_buttons_and_a_match_waiting_through_a_power_cut():
    board = SimBoard(seed=4)
    bridge = AppBridge(board.app)
    board.follow_guidance()
    board.press("ROLL")
    assert board.ctl.phase_name() in ("moving", "turn-start")
    hold(board, g.BTN_MENU)
    board.key(g.BTN_MENU)  # match length
    board.key(g.BTN_WHITE_TAKE, long=True)  # +10
    board.key(g.BTN_BLACK_DROP)
    for _ in range(30):
        if bridge.snapshot()["menu"]["item"] == "tournament":
            break
        board.key(g.BTN_MENU)
    board.key(g.BTN_BLACK_TAKE)
    assert board.ctl.tournament  # at once, in the middle of the game
    board.key(g.BTN_WHITE_ROLL)  # OK
    snap = bridge.snapshot()
    assert snap["menu"] == {"open": False, "pending": True} and snap["options"]["matchLength"] == 0
    board.power_cut()
    board.power_on()
    bridge = AppBridge(board.app)
    assert board.app.pending and board.ctl.tournament
    hold(board, g.BTN_UNDO)  # a new match now: the one waiting
    snap = bridge.snapshot()
    assert snap["options"]["matchLength"] == 9 and snap["options"]["crawford"] and not snap["menu"]["pending"]
    assert board.ctl.tournament and snap["phase"] in ("setup", "opening") and snap["game"] == 1


def test_a_cut_led_chain_is_reported_at_power_up_and_by_the_self_test():
    board = SimBoard(seed=6)
    board.twins.strip.cut = 120
    board.power_cut()
    board.power_on()
    bridge = AppBridge(board.app)
    snap = bridge.snapshot()
    assert snap["hardware"] == ["the LED chain is broken (no data comes back from its last pixel)"]
    assert snap["error"].startswith("hardware: the LED chain")
    board.follow_guidance()
    board.key(g.BTN_UNDO)  # seen: the panel shows the game again, the snapshot still says it
    snap = bridge.snapshot()
    assert snap["error"] is None and snap["hardware"]
    board.twins.strip.cut = None  # mended, and checked again by the self-test
    assert bridge.self_test("start")["led_chain"] is True
    assert bridge.snapshot()["hardware"] == []
    assert bridge.self_test("stop")["step"] == "done"


def test_self_test_over_the_protocol_port_finds_stuck_switches(board_link):
    link = board_link
    if link.hello_reply.get("hello") != "pipboard-sim":
        pytest.skip("switches can be made faulty only on the simulated board")
    stuck = g.sensor_bit(g.LOC_OFF_BLACK, 0)
    link.inject("switch", stuck, 1)
    state = link.self_test()
    assert state["step"] == "clear" and state["switch_chain"] is True
    assert link.snapshot()["message"].startswith("self-test: take every checker off")
    # (the test mode's sensor readings do not reach the self-test, which reads the switches themselves:
    # the walk is the browser test's; here the host stops it and gets the result so far)
    result = link.self_test("stop")
    assert result["step"] == "done" and not result["complete"]
    assert link.snapshot()["self_test"] == result
    with pytest.raises(Exception) as refused:
        link.inject("switch", 168, 1)
    assert "out of range" in str(refused.value)
    event = None
    for _ in range(20):
        event = link.next_event(0.2)
        if event is not None and event.get("event") == "self_test":
            break
    assert event is not None and event["event"] == "self_test" and event["step"] == "done", event
    link.inject("switch", stuck, 0)


def test_the_settings_file_is_small_and_atomic():
    board = SimBoard(seed=2)
    hold(board, g.BTN_MENU)
    for _ in range(30):
        if board.app.overlay.menu.key == "brightness":
            break
        board.key(g.BTN_MENU)
    board.key(g.BTN_WHITE_TAKE)
    board.key(g.BTN_WHITE_ROLL)
    from pipdrivers.storage import AtomicStore

    data = json.loads(AtomicStore(board.flash, "/pipboard_settings.bin").load())
    assert data == {"v": 1, "light": 0.55, "tournament": False, "next": None}
    assert len(board.flash.files["/pipboard_settings.bin"]) < 128
    board.power_cut()
    board.power_on()
    assert board.app.hw.pixels.brightness == 0.55


def test_pipboard_selftest_says_what_to_do_and_names_the_faulty_switch():
    import io
    import threading
    import time

    from pipboard import boardtest
    from pipboard.websim import server

    sim = server.start(seed=8, test_mode=True, http_port=0, protocol_port=0)
    try:
        board = sim.sim.board
        with sim.sim.lock:
            board.follow_guidance()
            board.stick(g.sensor_bit(19, 5), 1)
        out = io.StringIO()
        result = []
        cli = threading.Thread(target=lambda: result.append(boardtest.run("sim:" + sim.protocol_address, out=out,
                                                                         interval=0.05)))
        cli.start()
        for _ in range(200):  # the command started the test: the hands do what the LEDs ask
            if hasattr(board.app.overlay, "test"):
                break
            time.sleep(0.05)
        time.sleep(0.3)  # (the first instruction is printed)
        with sim.sim.lock:
            board.follow_guidance()
        cli.join(20)
        text = out.getvalue()
        assert result == [1], text
        assert "take every checker off" in text and "self-test complete:" in text, text
        assert "point 20 slot 6: stuck closed (location 19, scan bit 119)" in text, text
    finally:
        sim.close()


def test_the_legend_lists_every_item_at_its_place():
    from pipcore import menu

    with open(os.path.join(ROOT, "docs", "board-menu.md"), encoding="utf-8") as f:
        text = f.read()
    for key, loc, _kind, _values, title, _labels in menu.ITEMS:
        assert "| %s | %s | `%s` |" % (g.loc_name(loc), title, key) in text, key
