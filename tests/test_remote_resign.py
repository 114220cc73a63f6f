"""``pipboard remote``: resignations cross between two boards (issue 14: "Cube decisions and resignations cross too").

White's person offers to resign on white's board (a long DROP); black's
host offers it on black's board, where black's person declines it (DROP):
both boards play on. White offers again and raises it to a gammon; black
accepts (TAKE) on his board: both boards end the match with the same
resignation and score, and both hosts check the dice.
"""

import random
import threading
import time

import pytest

from mosquitto_broker import Mosquitto

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt (make setup installs it)")

from pipboard.export import board_record  # noqa: E402
from pipboard.link import Link  # noqa: E402
from pipboard.remote import RemoteMatch, action_text  # noqa: E402
from pipboard.simboard import VirtualPlayer  # noqa: E402
from pipboard.websim import server  # noqa: E402
from pipcore.record import read_record  # noqa: E402
from test_remote import execute_shown_play  # noqa: E402


def offer_of(ctl):
    d = ctl.pending.display if ctl.pending is not None else ()
    return d if d and d[0] == "resign" else None


def person(sim, side, done, rng, log):
    """White resigns at his third turn (declined), then at his fourth with a gammon (accepted)."""
    from pipcore.controller import MOVING, OPENING, PICK, SETUP, TURN_START

    board = sim.sim.board
    hands = VirtualPlayer(board, rng, wrong_rate=0.0, chatter_rate=0.0, knock_rate=0.0, cut_rate=0.0)
    dice = sim.sim.bridge.dice
    turns = 0
    while not done.is_set():
        with sim.sim.lock:
            ctl = board.ctl
            ph = ctl.phase
            offer = offer_of(ctl)
            ready = bool(dice.forced)
            if offer is not None:
                if offer[1] != side and "answer %d" % offer[2] not in log:
                    log.append("answer %d" % offer[2])
                    board.press("DROP" if offer[2] == 1 else "TAKE", side)  # a single: no; a gammon: yes
            elif ph == SETUP:
                board.follow_guidance()
            elif ph in (OPENING, TURN_START) and not ready and (ph == OPENING or ctl.mover == side):
                pass
            elif ph == OPENING:
                board.press("ROLL")
            elif ph == TURN_START and ctl.mover == side:
                turns += 1
                if side == 0 and turns == 3:
                    board.press("RESIGN", 0)
                    log.append("white offers a single")
                elif side == 0 and turns == 4:
                    board.press("RESIGN", 0)
                    board.press("DROP", 0)  # raised: a gammon
                    log.append("white offers a gammon")
                else:
                    board.press("ROLL")
            elif ph in (MOVING, PICK) and ctl.mover == side:
                hands.play_turn()
            elif ph == MOVING and ctl.mover != side and ctl.forced is not None:
                execute_shown_play(board)
        time.sleep(0.005)


def test_a_resignation_declined_then_accepted_across_two_boards():
    broker = Mosquitto()
    sims = [server.start(seed=31 + i, http_port=0, protocol_port=0, options={"matchLength": 1}) for i in range(2)]
    links = [Link.open("sim:" + s.protocol_address) for s in sims]
    done = threading.Event()
    log = []
    try:
        people = [threading.Thread(target=person, args=(sims[i], i, done, random.Random(i + 7), log), daemon=True)
                  for i in range(2)]
        sides = [RemoteMatch(links[i], broker.url, "resign-1", ("white", "black")[i], out=None,
                             seed=b"r" * 32 if i == 0 else None, key="7a" * 16) for i in range(2)]
        codes = [None, None]
        deadline = time.monotonic() + 240

        def run(i):
            codes[i] = sides[i].run(stop=lambda: time.monotonic() > deadline)

        runners = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(2)]
        for t in people + runners:
            t.start()
        for t in runners:
            t.join(250)
        done.set()
        for t in people:
            t.join(5)
        white, black = sides
        assert codes == [0, 0], (white.stopped, black.stopped, log)
        assert log.index("white offers a single") < log.index("answer 1") < log.index("white offers a gammon") \
            < log.index("answer 2"), log
        assert black.answered == {1: "decline", 2: "accept"} and white.answers == {1: "decline", 2: "accept"}
        snaps = [link.snapshot() for link in links]
        assert snaps[0]["phase"] == snaps[1]["phase"] == "match-over"
        assert snaps[0]["result"] == snaps[1]["result"] == [1, 2, "gammon"] and snaps[0]["score"] == [0, 2]
        entries = [read_record(board_record(link.record(), snap)).entries for link, snap in zip(links, snaps)]
        assert [action_text(e) for e in entries[0]] == [action_text(e) for e in entries[1]]
        assert [e for e in entries[0] if e[0] == "resign"] == [("resign", 0, 2)]  # the declined one left no trace
        assert white.verified.startswith("every die checked") and black.verified == white.verified
    finally:
        done.set()
        for link in links:
            link.close()
        for s in sims:
            s.close()
        broker.close()


def test_a_board_with_keyed_in_or_fair_dice_cannot_play_a_remote_match():
    from pipboard.remote import RemoteError

    sim = server.start(seed=2, http_port=0, protocol_port=0, options={"dice": "physical"})
    try:
        with Link.open("sim:" + sim.protocol_address) as link:
            match = RemoteMatch(link, "mqtt://127.0.0.1:1", "m", "black", out=None, key="7a" * 16)
            with pytest.raises(RemoteError, match="physical dice: a remote match takes its dice from white's host"):
                match.run(stop=lambda: True)
    finally:
        sim.close()
