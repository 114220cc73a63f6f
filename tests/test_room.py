"""``pipboard room`` against a real Mosquitto on a loopback port: 16 simulated boards play to the end
while the broker is killed and restarted and a board is unplugged; every subscriber ends with every
event exactly once and every match is recorded (.mat and .sgf)."""

import os
import time

import pytest

from mosquitto_broker import Mosquitto

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt (make setup installs it)")

from pipboard.matfile import import_mat  # noqa: E402
from pipboard.mqttlink import BrokerLink, parse_broker, BrokerError  # noqa: E402
from pipboard.room import Room, RoomError, board_topic, parse_boards, record_file_stem, room_topic  # noqa: E402
from pipboard.roompage import RoomWatcher, stacks_of  # noqa: E402
from pipboard.simtable import SimTable  # noqa: E402


@pytest.fixture
def broker():
    b = Mosquitto()
    try:
        yield b
    finally:
        b.close()


def wait_for(cond, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s" % what)


def run_room(broker, tmp_path, n, match_length, pace_s, restarts, timeout):
    # on every fourth table the players press DONE at once when the match ends: a new match starts at once
    tables = [SimTable(seed=100 + i, match_length=match_length, pace_s=pace_s, done_at_end=i % 4 == 2)
              for i in range(n)]
    boards = [{"name": "t%02d" % i, "target": t.target, "white": "White %d" % i, "black": "Black %d" % i}
              for i, t in enumerate(tables)]
    room = Room(broker.url, "club", boards, str(tmp_path / "rec"), event="Club night")
    early = RoomWatcher(broker.url, "club", name="early")
    late = None
    try:
        assert early.start(5)
        assert room.start(5)
        for t in tables:
            t.start()
        for k in range(restarts):
            time.sleep(1.0)
            broker.kill()  # mid-match: the bridges go on reading their boards, the broker is gone
            time.sleep(0.4)
            broker.start()
            if k == 0:
                tables[3].cut_link()  # the USB cable of one board pulled out for a moment
                late = RoomWatcher(broker.url, "club", name="late")  # a spectator arriving mid-match
                assert late.start(5)
        for t in tables:
            assert t.finished.wait(timeout), "a table did not finish its match"
            assert t.error is None, t.error
        watchers = [early] + ([late] if late else [])

        missing = []

        def complete():
            del missing[:]
            for w in watchers:
                for name, bridge in room.bridges.items():
                    b = w.boards.get(name)
                    if b is None or b.next_seq != bridge.seq + 1 or not b.matches:
                        missing.append((w.link.client._client_id, name, b and b.next_seq, bridge.seq,
                                        b and len(b.matches), b and sorted(b.early)[:3], b and b.gaps))
            return not missing

        try:
            wait_for(complete, 30, "every subscriber to have every event")
        except AssertionError:
            raise AssertionError("still missing (watcher, board, next, published, matches, early, gaps): %r"
                                 % missing)
        for w in watchers:
            for name, bridge in room.bridges.items():
                got = w.boards[name].events
                assert [e["seq"] for e in got] == list(range(1, bridge.seq + 1))
                assert got == bridge.log, "subscriber %s differs from what %s published" % (w.link.client, name)
                assert len(w.boards[name].matches) == 1
                kinds = [e["event"] for e in got]
                assert kinds.count("match") == 1 and "roll" in kinds and "record" in kinds
        return tables, room, early, late
    finally:
        room.stop()
        early.stop()
        if late:
            late.stop()
        for t in tables:
            t.stop()


def test_sixteen_boards_through_a_broker_restart_and_an_unplugged_board(broker, tmp_path):
    tables, room, early, late = run_room(broker, tmp_path, 16, 1, 0.05, 1, 60)
    files = sorted(os.listdir(tmp_path / "rec"))
    assert len([f for f in files if f.endswith(".mat")]) == 16
    assert len([f for f in files if f.endswith(".sgf")]) == 16
    assert "Club-night_r0_White-3-vs-Black-3.mat" in files
    text = (tmp_path / "rec" / "Club-night_r0_White-3-vs-Black-3.mat").read_text()
    _data, ref = import_mat(text)  # our importer replays every move: the recorded match is whole and legal
    assert list(ref.players) == ["White 3", "Black 3"] and ref.match.is_over()
    assert "(;FF[4]GM[6]" in (tmp_path / "rec" / "Club-night_r0_White-3-vs-Black-3.sgf").read_text()
    for i in (2, 6, 10, 14):  # DONE pressed at once: the board is in its next match, the ended one recorded
        assert tables[i].board.ctl.phase_name() != "match-over"
        _data, ref = import_mat((tmp_path / "rec" / ("Club-night_r0_White-%d-vs-Black-%d.mat" % (i, i))).read_text())
        assert ref.match.is_over() and room.bridges["t%02d" % i].matches == 1
    # the unplugged board came back with a resync carrying its snapshot
    resyncs = [e for e in room.bridges["t03"].log if e["event"] == "resync"]
    assert len(resyncs) >= 2 and all(e["snapshot"]["position_id"] for e in resyncs)
    # the retained snapshot was published again after the restart: a newcomer sees every board
    fresh = RoomWatcher(broker.url, "club", name="fresh")
    assert fresh.start(5)
    try:
        wait_for(lambda: len(fresh.boards) == 16 and all(b.snapshot for b in fresh.boards.values()), 10, "snapshots")
        snap = fresh.boards["t05"].snapshot
        assert snap["phase"] == "match-over" and snap["players"] == {"white": "White 5", "black": "Black 5"}
        assert snap["event"] == "Club night" and snap["position_id"] and snap["matches"] == 1
    finally:
        fresh.stop()


@pytest.mark.soak
def test_room_soak_matches_to_five_with_many_broker_restarts(broker, tmp_path):
    run_room(broker, tmp_path, 16, 5, 0.02, 6, 600)


def test_pairing_from_the_broker_and_bad_messages(broker, tmp_path):
    table = SimTable(seed=7, match_length=1, pace_s=0)
    room = Room(broker.url, "club", [{"name": "top", "target": table.target}], None)
    director = BrokerLink(broker.url, "director")
    watcher = RoomWatcher(broker.url, "club")
    try:
        assert room.start(5) and director.start(5) and watcher.start(5)
        # garbage on the room's topics never stops it
        director.client.publish(room_topic("club", "resync"), b"\xff not json", qos=1)
        director.publish(room_topic("club", "resync"), {"board": "nope", "from": 1})
        director.publish(room_topic("club", "resync"), {"board": "top", "from": "x"})
        director.publish(board_topic("club", "top", "pairing"), {"white": "Ann", "black": "Bo", "round": 2},
                         retain=True)
        wait_for(lambda: (watcher.boards.get("top") and watcher.boards["top"].snapshot or {}).get("players")
                 == {"white": "Ann", "black": "Bo"}, 10, "the pairing")
        assert watcher.boards["top"].snapshot["round"] == 2
        wait_for(lambda: watcher.boards["top"].snapshot.get("online"), 10, "the board online")
        view = watcher.view("top")
        assert sum(len(s) for s in view["stacks"]) == 30 and view["players"]["white"] == "Ann"
    finally:
        director.publish(board_topic("club", "top", "pairing"), None, retain=True)
        director.stop()
        watcher.stop()
        room.stop()
        table.stop()


def test_room_command_line_errors(tmp_path):
    class Args:
        config = None
        board = ["a=sim:127.0.0.1:1"]
        pair = ["b=X,Y"]
        round = None

    with pytest.raises(RoomError, match="--pair"):
        parse_boards(Args)
    Args.board, Args.pair = ["bad name=sim"], []
    with pytest.raises(RoomError, match="board name"):
        parse_boards(Args)
    Args.board = ["a=sim:127.0.0.1:1", "b=/dev/ttyACM0"]
    Args.pair = ["b=Ann,Bo,3"]
    boards = parse_boards(Args)
    assert boards[1] == {"name": "b", "target": "/dev/ttyACM0", "white": "Ann", "black": "Bo", "round": "3"}
    cfg = tmp_path / "room.json"
    cfg.write_text("{not json")
    Args.config = str(cfg)
    with pytest.raises(RoomError, match="cannot read"):
        parse_boards(Args)
    with pytest.raises(BrokerError):
        parse_broker("ws://x:1")
    assert parse_broker("mqtt://h:1884") == ("h", 1884) and parse_broker("h") == ("h", 1883)
    assert record_file_stem("Club/Cup", 3, "Ann Lee", "Bo") == "Club-Cup_r3_Ann-Lee-vs-Bo"
    assert sum(len(s) for s in stacks_of("4HPwATDgc/ABMA", 0)) == 30
    assert stacks_of("not an id", 0) == [[] for _ in range(28)]


def test_pipboard_room_cli_reports_a_bad_board(capsys):
    from pipboard.cli import main

    assert main(["room", "--board", "no-target"]) == 2
    assert "NAME=TARGET" in capsys.readouterr().err


def test_pipboard_room_demo_serves_the_page_and_stops_on_ctrl_c(broker, tmp_path):
    import json
    import signal
    import subprocess
    import sys
    import urllib.request

    from mosquitto_broker import free_port

    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from pipboard.cli import main; sys.exit(main())",
                             "room", "--broker", broker.url, "--room", "demo", "--demo", "2", "--http-port", str(port),
                             "--record", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        def two_boards():
            try:
                state = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/state" % port, timeout=2).read())
            except OSError:
                return False
            return len(state["boards"]) == 2 and all(v["online"] for v in state["boards"].values())

        wait_for(two_boards, 30, "the demo room's page with two boards")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert b"room page: http://127.0.0.1:%d/" % port in out and b"stopping the room" in out
