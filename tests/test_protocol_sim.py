"""Protocol round trips against the simulator (or a real board with ``pytest --board PORT``).

Everything here goes through the protocol only (``inject`` stands for the
hands on the sensors), so the same tests run on hardware. The resync and
monitor tests need to cut the link, which only the simulator can do on cue.
"""

import io
import threading
import time

import pytest

pytest.importorskip("pipboard.simboard", reason="the simulated board (controller issue) is not on this branch yet")

from pipboard.link import CommandError, Link  # noqa: E402
from pipboard.monitor import Monitor  # noqa: E402

START_COUNTS = {23: 2, 12: 5, 7: 3, 5: 5, 0: 2, 11: 5, 16: 3, 18: 5}  # location -> checkers
BUTTONS = ("ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "BEAVER", "RACCOON", "NEXT", "NEW")


def press(link, name):
    link.inject("button", BUTTONS.index(name), 1)


def set_counts(link, counts):
    for loc in range(28):
        link.inject("sensor", loc, min(5, counts.get(loc, 0)) if loc < 24 else counts.get(loc, 0))


def events_until(link, name, timeout=5.0):
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = link.next_event(0.2)
        if event is None:
            continue
        seen.append(event)
        if event["event"] == name:
            return seen
    raise AssertionError("no %r event; saw %r" % (name, seen))


def test_hello_and_snapshot(board_link):
    hello = board_link.hello_reply
    assert hello["protocol"] == 1 and hello["test_mode"] is True
    assert hello["geometry"]["points"] == 24
    snap = board_link.snapshot()
    for key in ("position_id", "match_id", "dice", "cube", "phase", "options", "seq", "mover"):
        assert key in snap
    assert board_link.ping("x") == "x"


def test_new_game_options_round_trip(board_link):
    snap = board_link.new_game("backgammon", {"matchLength": 5})
    assert snap["options"]["matchLength"] == 5 and snap["options"]["crawford"] is True
    assert snap["phase"] == "setup"
    with pytest.raises(CommandError) as err:
        board_link.new_game("backgammon", {"beavers": True, "matchLength": 5})
    assert err.value.code == "rejected"
    assert board_link.snapshot()["options"]["matchLength"] == 5  # unchanged by the refused command


def test_set_position_round_trip(board_link):
    pid = "4HPwATDgc/ABMA"
    snap = board_link.set_position(pid)
    assert snap["position_id"] == pid
    with pytest.raises(CommandError) as err:
        board_link.set_position("not-an-id-1234")
    assert err.value.code == "rejected"
    assert board_link.snapshot()["position_id"] == pid


def test_show_play_outside_a_turn_is_refused(board_link):
    with pytest.raises(CommandError) as err:
        board_link.show_play("8/5 6/5")
    assert err.value.code == "rejected" and "roll" in err.value.message


def test_a_turn_over_the_protocol_and_the_record(board_link):
    board_link.new_game()
    set_counts(board_link, START_COUNTS)
    assert board_link.snapshot()["phase"] == "opening"
    board_link.set_dice([3, 1])
    press(board_link, "ROLL")
    events_until(board_link, "roll")
    snap = board_link.snapshot()
    assert snap["phase"] == "moving" and snap["dice"] == [3, 1] and snap["mover"] == 0
    board_link.show_play("8/5 6/5")
    counts = dict(START_COUNTS)
    for loc, n in ((7, 2), (4, 1), (5, 4), (4, 2)):  # lift from 8, put on 5, lift from 6, put on 5
        counts[loc] = n
        board_link.inject("sensor", loc, n)
    press(board_link, "DONE")
    seen = events_until(board_link, "record")
    assert "8/5 6/5" in seen[-1]["text"], seen
    assert [e["seq"] for e in seen] == sorted(e["seq"] for e in seen)
    snap = board_link.snapshot()
    assert snap["mover"] == 1 and snap["phase"] == "turn-start"
    record = board_link.record()
    from pipcore.record import read_record
    assert ("play", 0, [(8, 5), (6, 5)]) in read_record(record).entries  # the match record, binary


def test_events_are_numbered_without_gaps(board_link):
    board_link.new_game()
    set_counts(board_link, START_COUNTS)
    board_link.set_dice([6, 5])
    press(board_link, "ROLL")
    seqs = [e["seq"] for e in events_until(board_link, "roll")]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert board_link.snapshot()["seq"] >= seqs[-1]


def _sim_only(link):
    if link.sim is None:
        pytest.skip("cutting the link on cue needs the simulator")


def test_resync_after_reconnect(board_link):
    _sim_only(board_link)
    board_link.new_game("backgammon", {"matchLength": 3})
    before = board_link.snapshot()
    board_link.sim.sim.host.cut_clients(partial=b'{"event": "rec')
    with pytest.raises(Exception):
        for _ in range(3):
            board_link.ping()
    with Link.open("sim:" + board_link.sim.protocol_address) as again:
        snap = again.hello_reply["snapshot"]
        assert snap["position_id"] == before["position_id"]
        assert snap["options"] == before["options"]
        assert snap["seq"] >= before["seq"]


def test_monitor_reconnects_after_the_link_is_cut_mid_frame(board_link):
    _sim_only(board_link)
    sim = board_link.sim
    out = io.StringIO()
    monitor = Monitor("sim:" + sim.protocol_address, out, retry_s=0.1)
    stop = threading.Event()
    thread = threading.Thread(target=monitor.run, kwargs={"stop": stop.is_set}, daemon=True)
    thread.start()
    try:
        _wait(lambda: monitor.connects == 1)
        sim.sim.host.cut_clients(partial=b'{"event": "record", "seq": 99, "te')  # half a frame, then gone
        _wait(lambda: monitor.connects == 2)
        with Link.open("sim:" + sim.protocol_address) as again:  # the cut dropped every client
            again.new_game("backgammon", {"matchLength": 7})  # a change after the cut reaches the monitor
        _wait(lambda: "match to 7" in out.getvalue())
    finally:
        stop.set()
        thread.join(3)
    text = out.getvalue()
    assert "link lost" in text and text.count("connected to") == 2
    assert "Position ID: 4HPwATDgc/ABMA" in text


def _wait(cond, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")
