"""``pipboard room`` against a real Mosquitto on a loopback port: 16 simulated boards play to the end
while the broker is killed and restarted and a board is unplugged; every subscriber ends with every
event exactly once and every match is recorded (.mat and .sgf). The broker has the room's accounts
(``pipboard room --setup-broker``): a client without the room's password publishes nothing."""

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


BOARDS = ["t%02d" % i for i in range(16)] + ["top"]


@pytest.fixture
def auth_broker(tmp_path):
    """Mosquitto with the password file and ACL file the room wrote for room 'club' (boards t00..t15, top)."""
    from pipboard.roomauth import load_accounts, write_broker_files

    folder = str(tmp_path / "broker")
    write_broker_files(folder, "club", BOARDS)
    b = Mosquitto(accounts=folder)
    b.accounts = load_accounts(os.path.join(folder, "accounts.json"))
    try:
        yield b
    finally:
        b.close()


def account(broker, name):
    """``username``/``password`` keyword arguments of an account of the room (none on an open broker)."""
    accounts = getattr(broker, "accounts", None)
    return {} if accounts is None else {"username": name, "password": accounts["accounts"][name]}


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
    room = Room(broker.url, "club", boards, str(tmp_path / "rec"), event="Club night",
                accounts=getattr(broker, "accounts", None))
    early = RoomWatcher(broker.url, "club", name="early", **account(broker, "room"))
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
                late = RoomWatcher(broker.url, "club", name="late", **account(broker, "room"))  # arriving mid-match
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


def test_sixteen_boards_through_a_broker_restart_and_an_unplugged_board(auth_broker, tmp_path):
    broker = auth_broker  # with the room's accounts: every bridge logs in as its board
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
    # the retained snapshot was published again after the restart: a newcomer (a spectator) sees every board
    fresh = RoomWatcher(broker.url, "club", name="fresh", **account(broker, "spectator"))
    assert fresh.start(5)
    try:
        wait_for(lambda: len(fresh.boards) == 16 and all(b.snapshot for b in fresh.boards.values()), 10, "snapshots")
        snap = fresh.boards["t05"].snapshot
        assert snap["phase"] == "match-over" and snap["players"] == {"white": "White 5", "black": "Black 5"}
        assert snap["event"] == "Club night" and snap["position_id"] and snap["matches"] == 1
    finally:
        fresh.stop()


@pytest.mark.soak
def test_room_soak_matches_to_five_with_many_broker_restarts(auth_broker, tmp_path):
    run_room(auth_broker, tmp_path, 16, 5, 0.02, 6, 600)


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


def test_a_client_without_the_rooms_password_cannot_publish_to_a_boards_topics(auth_broker, tmp_path):
    """The room's accounts on Mosquitto: no account or a wrong password is refused; a spectator, and another
    board's bridge, publish nothing on a board's topics; only the director's pairing is taken."""
    broker = auth_broker
    table = SimTable(seed=7, match_length=1, pace_s=0, player=False)
    room = Room(broker.url, "club", [{"name": "top", "target": table.target, "white": "Ann", "black": "Bo"}], None,
                accounts=broker.accounts)
    watcher = RoomWatcher(broker.url, "club", **account(broker, "spectator"))
    nobody = BrokerLink(broker.url, "nobody")
    wrong = BrokerLink(broker.url, "wrong", username="room", password="not-the-password")
    spectator = BrokerLink(broker.url, "spectator", **account(broker, "spectator"))
    neighbour = BrokerLink(broker.url, "neighbour", **account(broker, "board-t01"))
    director = BrokerLink(broker.url, "director", **account(broker, "director"))
    seen = []  # every message on the room's topics, as a spectator receives it
    spy = BrokerLink(broker.url, "spy", on_message=lambda t, o, r: seen.append((t, o)),
                     on_connect=lambda link: link.subscribe(room_topic("club", "#")), **account(broker, "spectator"))
    clients = [spy, nobody, wrong, spectator, neighbour, director]
    try:
        assert room.start(5) and watcher.start(5)
        table.start()
        wait_for(lambda: (watcher.boards.get("top") and watcher.boards["top"].snapshot or {}).get("online"), 10,
                 "the board online")
        for c in clients:
            c.start()
        assert not nobody.wait_connected(2) and "refused a client without an account" in nobody.refused
        assert not wrong.wait_connected(1) and "refused the account 'room'" in wrong.refused
        assert spectator.wait_connected(5) and neighbour.wait_connected(5) and director.wait_connected(5)
        seq = watcher.boards["top"].next_seq
        for intruder in (spectator, neighbour):
            intruder.publish(board_topic("club", "top", "snapshot"), {"v": 1, "board": "top", "players": {
                "white": "Mallory", "black": "Bo"}, "seq": 10 ** 6, "online": False}, retain=True)
            intruder.publish(board_topic("club", "top", "events"), {"v": 1, "board": "top", "epoch": "x",
                                                                    "seq": seq, "event": "match"})
            intruder.publish(board_topic("club", "top", "match"), {"v": 1, "event": "match"}, retain=True)
            intruder.publish(board_topic("club", "top", "pairing"), {"white": "Mallory"}, retain=True)
            intruder.publish(room_topic("club", "status"), {"v": 1, "online": False}, retain=True)
        time.sleep(1.0)
        # the director's pairing comes through (the check below can fail): the forged ones did not
        director.publish(board_topic("club", "top", "pairing"), {"white": "Cy", "round": 4}, retain=True)
        wait_for(lambda: watcher.boards["top"].snapshot["players"] == {"white": "Cy", "black": "Bo"}, 10,
                 "the director's pairing")
        b = watcher.boards["top"]
        assert all(e["event"] != "match" for e in b.events) and not b.matches
        assert b.events == room.bridges["top"].log[:len(b.events)]
        assert b.snapshot["online"] and b.snapshot["round"] == 4
        assert len(seen) > 3 and not [m for m in seen if "Mallory" in repr(m) or m[1].get("epoch") == "x" or
                                      m[1].get("online") is False or m[1].get("seq") == 10 ** 6]
        # a newcomer gets the room's retained topics, not an intruder's
        got = {}
        late = BrokerLink(broker.url, "late", on_message=lambda t, o, r: got.__setitem__(t, o),
                          on_connect=lambda link: link.subscribe(room_topic("club", "#")),
                          **account(broker, "spectator"))
        late.start(5)
        try:
            wait_for(lambda: board_topic("club", "top", "snapshot") in got and room_topic("club", "status") in got,
                     10, "the retained topics")
            time.sleep(0.3)
        finally:
            late.stop()
        assert got[board_topic("club", "top", "snapshot")]["players"]["white"] == "Cy"
        assert got[room_topic("club", "status")]["online"] is True
        assert board_topic("club", "top", "match") not in got
        assert got[board_topic("club", "top", "pairing")] == {"white": "Cy", "round": 4}
    finally:
        for c in clients:
            c.stop(0.5)
        watcher.stop()
        room.stop()
        table.stop()


def test_a_room_on_a_tls_broker_with_accounts(tmp_path):
    """The internet set-up of docs/room.md: Mosquitto's TLS listener with the room's accounts; the room and a
    spectator connect with mqtts:// and the broker's certificate authority; without it nothing connects."""
    from pipboard.roomauth import load_accounts, write_broker_files

    folder = str(tmp_path / "broker")
    write_broker_files(folder, "club", ["top"])
    broker = Mosquitto(accounts=folder, tls=True)
    broker.accounts = load_accounts(os.path.join(folder, "accounts.json"))
    table = SimTable(seed=7, match_length=1, pace_s=0, player=False)
    room = Room(broker.tls_url, "club", [{"name": "top", "target": table.target, "white": "Ann"}], None,
                accounts=broker.accounts, ca=broker.ca)
    watcher = RoomWatcher(broker.tls_url, "club", ca=broker.ca, **account(broker, "spectator"))
    untrusting = BrokerLink(broker.tls_url, "untrusting", **account(broker, "spectator"))  # the system's CAs only
    try:
        assert room.start(10) and watcher.start(10)
        table.start()
        wait_for(lambda: (watcher.boards.get("top") and watcher.boards["top"].snapshot or {}).get("online"), 10,
                 "the board over TLS")
        assert watcher.boards["top"].snapshot["players"]["white"] == "Ann"
        untrusting.start()
        assert not untrusting.wait_connected(2)
    finally:
        untrusting.stop(0.5)
        watcher.stop()
        room.stop()
        table.stop()
        broker.close()
    with pytest.raises(BrokerError, match="TLS"):
        BrokerLink(broker.url, "x", ca=broker.ca)


def test_setup_broker_writes_what_mosquitto_reads(tmp_path):
    """``pipboard room --setup-broker``: the passwords hashed as mosquitto_passwd hashes them, one account per
    board, an ACL that lets each bridge write its own board's topics only; a second run keeps the passwords."""
    import base64
    import subprocess

    from pipboard.cli import main
    from pipboard.roomauth import load_accounts, password_hash

    folder = tmp_path / "b"
    assert main(["room", "--setup-broker", str(folder), "--board", "a=sim:127.0.0.1:1",
                 "--board", "b=/dev/ttyACM0"]) == 0
    accounts = load_accounts(str(folder / "accounts.json"))["accounts"]
    assert sorted(accounts) == ["board-a", "board-b", "director", "player", "room", "spectator"]
    assert oct(os.stat(folder / "accounts.json").st_mode & 0o777) == "0o600"
    subprocess.run(["mosquitto_passwd", "-b", str(folder / "passwd"), "extra", "pw"], check=True)
    lines = dict(line.split(":", 1) for line in (folder / "passwd").read_text().split())
    salt = base64.b64decode(lines["extra"].split("$")[3])
    assert password_hash("pw", salt) == lines["extra"]  # the hash is mosquitto_passwd's own
    acl = (folder / "acl").read_text()
    assert "user board-a\ntopic write pipboard/v1/room/club/board/a/snapshot\n" in acl
    assert "topic write pipboard/v1/room/club/board/b/" not in acl.split("user board-b")[0]
    assert "topic write pipboard/v1/room/club/board/+/pairing" in acl.split("user director")[1].split("user ")[0]
    assert main(["room", "--setup-broker", str(folder), "--board", "a=sim:127.0.0.1:1", "--board", "c=x"]) == 0
    again = load_accounts(str(folder / "accounts.json"))["accounts"]
    assert again["board-a"] == accounts["board-a"] and "board-c" in again and "board-b" not in again


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
                             "--record", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            # Ctrl-C as at a terminal: a run started as a background job has SIGINT ignored, and
                            # the room would inherit that (it then never printed "stopping the room.")
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
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
        try:  # (the stop joins each table's and bridge's threads, up to 5 s each: slow on a loaded machine)
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError("the room did not stop within 60 s of Ctrl-C:\n%s\n%s" % (out.decode(), err.decode()))
    assert proc.returncode == 0, err.decode()
    assert b"room page: http://127.0.0.1:%d/" % port in out and b"stopping the room" in out
