"""``pipboard remote``: two simulated boards (not in test mode) play a match through a real Mosquitto.

Each board has its scripted person: random legal plays for its own side,
the other side's plays executed as the LEDs show them, doubles answered. The
dice come from white's host (the authority) with black's salt; at the end
both hosts check every die against the commitment. A board that rolls other
dice than the authority's stops the match on both sides. Every message is
signed with the match key: a third party on the broker, forging or replaying
messages, neither stops nor steers the match.
"""

import random
import threading
import time

import pytest

from mosquitto_broker import Mosquitto

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt (make setup installs it)")

from pipboard.link import Link  # noqa: E402
from pipboard.remote import RemoteMatch, action_text, own_lines, rolls_in  # noqa: E402
from pipboard.simboard import VirtualPlayer  # noqa: E402
from pipboard.websim import server  # noqa: E402
from pipcore.board import BAR0, slot_loc  # noqa: E402


def execute_shown_play(board):
    """A local hand does what the LEDs show for the outside play, then presses DONE."""
    from pipcore.rules import apply_move

    ctl = board.ctl
    mover = ctl.mover
    code = ctl.turn.result_for(ctl.forced)
    assert code is not None, "the shown play is not a legal play of this roll"
    trial = ctl.pos.copy()
    for s, t, _d in ctl.turn.moves(code):
        if t > 0 and trial.opp[25 - t] == 1:
            board.move(slot_loc(mover, t), BAR0 + (1 - mover), 1 - mover)
        board.move(slot_loc(mover, s), slot_loc(mover, t), mover)
        apply_move(trial, s, t)
    board.press("DONE")


def person(sim, side, done, rng, log):
    from pipcore.controller import CUBE_OFFERED, MOVING, OPENING, PICK, SETUP, TURN_START

    board = sim.sim.board
    hands = VirtualPlayer(board, rng, wrong_rate=0.0, chatter_rate=0.0, knock_rate=0.0, cut_rate=0.0)
    doubled = False
    dice = sim.sim.bridge.dice
    while not done.is_set():
        with sim.sim.lock:
            ctl = board.ctl
            ph = ctl.phase
            ready = bool(dice.forced)  # the host has given the board the authority's next roll
            if ph == SETUP:
                board.follow_guidance()
            elif ph in (OPENING, TURN_START) and not ready and (ph == OPENING or ctl.mover == side):
                pass  # the host says when the dice are there; a person waits for it
            elif ph == OPENING:
                board.press("ROLL")
            elif ph == TURN_START and ctl.mover == side:
                if side == 0 and not doubled and ctl.can_double() and rng.random() < 0.2:
                    doubled = True
                    board.press("DOUBLE")
                    log.append("double")
                else:
                    board.press("ROLL")
            elif ph in (MOVING, PICK) and ctl.mover == side:
                hands.play_turn()
            elif ph == MOVING and ctl.mover != side and ctl.forced is not None:
                execute_shown_play(board)
                log.append("executed %d" % side)
            elif ph == CUBE_OFFERED and ctl.offerer != side and ctl.offer_stage == 1:
                board.press("TAKE")
        time.sleep(0.005)


@pytest.fixture
def two_boards():
    broker = Mosquitto()
    sims = [server.start(seed=11 + i, http_port=0, protocol_port=0, options={"matchLength": 1}) for i in range(2)]
    links = [Link.open("sim:" + s.protocol_address) for s in sims]
    try:
        yield broker, sims, links
    finally:
        for link in links:
            link.close()
        for s in sims:
            s.close()
        broker.close()


KEY = "5e" * 16  # the match key both players were given


def play(broker, sims, links, match, tamper=None, timeout=240):
    done = threading.Event()
    log = []
    people = [threading.Thread(target=person, args=(sims[i], i, done, random.Random(i + 3), log), daemon=True)
              for i in range(2)]
    sides = [RemoteMatch(links[i], broker.url, match, ("white", "black")[i], out=None, seed=b"s" * 32 if i == 0
                         else None, key=KEY) for i in range(2)]
    if tamper:
        tamper(sides)
    codes = [None, None]
    deadline = time.monotonic() + timeout

    def run(i):
        codes[i] = sides[i].run(stop=lambda: time.monotonic() > deadline)

    runners = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(2)]
    for t in people + runners:
        t.start()
    for t in runners:
        t.join(timeout + 5)
    done.set()
    for t in people:
        t.join(5)
    return sides, codes, log


def test_a_remote_match_between_two_boards_through_the_broker(two_boards):
    broker, sims, links = two_boards
    sides, codes, log = play(broker, sims, links, "friendly-1")
    white, black = sides
    assert codes == [0, 0], (white.stopped, black.stopped, white.verified, black.verified)
    assert white.verified.startswith("every die checked") and black.verified == white.verified
    entries = []
    for link in links:
        from pipboard.export import board_record
        from pipcore.record import read_record

        entries.append(read_record(board_record(link.record(), link.snapshot())).entries)
    # both boards recorded the same match, move for move, with the authority's dice
    assert [action_text(e) for e in entries[0]] == [action_text(e) for e in entries[1]]
    assert rolls_in(entries[0]) == white.rolls[:len(rolls_in(entries[0]))]
    assert len(own_lines(entries[0], 0)) >= 3 and len(own_lines(entries[0], 1)) >= 3
    assert "executed 0" in log and "executed 1" in log  # each board executed the other's plays
    snaps = [link.snapshot() for link in links]
    assert snaps[0]["phase"] == snaps[1]["phase"] == "match-over"
    assert snaps[0]["score"] == snaps[1]["score"] and snaps[0]["position_id"] == snaps[1]["position_id"]
    assert snaps[1]["remote"]["commitment"] == white.commitment  # the board shows whose dice it rolls
    assert black.salt and white.salt == black.salt


def test_a_board_that_rolls_other_dice_stops_the_match_on_both_sides(two_boards):
    broker, sims, links = two_boards

    def tamper(sides):
        black = sides[1]
        original = black.link.request

        def request(cmd, **args):
            if cmd == "remote_dice" and args["roll"] == 3:
                a, b = args["dice"]
                args["dice"] = [a % 6 + 1, b]  # a stray program gives the board another roll
            return original(cmd, **args)

        black.link.request = request

    sides, codes, log = play(broker, sims, links, "friendly-2", tamper, timeout=120)
    white, black = sides
    assert codes == [1, 1]
    assert "roll 3 on the black board" in black.stopped
    assert white.stopped == black.stopped  # the same clear message on both sides


def test_forged_and_replayed_messages_are_ignored_and_the_match_goes_on(two_boards):
    """A third party on the broker publishes junk and forged actions, a forged stop and forged dice, and replays
    black's own earlier actions: each host logs and ignores them, and the match is played to its end."""
    from pipboard.mqttlink import BrokerLink
    from pipboard.remote import sign

    broker, sims, links = two_boards
    top = "pipboard/v1/match/friendly-3/"
    heard = []  # what the intruder recorded of black's actions
    attacks = []
    stop = threading.Event()

    def record(topic, obj, retained):
        if topic == top + "actions/black" and obj.get("mac") == sign(KEY, "friendly-3", "actions/black", {
                k: obj[k] for k in obj if k != "mac"}):
            heard.append(obj)

    intruder = BrokerLink(broker.url, "intruder", on_message=record,
                          on_connect=lambda link: link.subscribe(top + "#"))

    def attack():
        wrong = "00" * 16
        n = 0
        while not stop.wait(0.15):
            n += 1
            intruder.publish(top + "actions/black", {"v": 1, "lines": ["junk"]}, retain=True)
            forged = {"v": 1, "lines": ["roll 66", "play 24/18(2) 13/7(2)"], "by": "black", "n": 2 ** 62 + n}
            intruder.publish(top + "actions/black", dict(forged, mac=sign(wrong, "friendly-3", "actions/black",
                                                                          forged)), retain=True)
            intruder.publish(top + "stop", {"v": 1, "by": "black", "reason": "forged", "n": 2 ** 62, "mac": "ab"},
                             retain=True)
            intruder.publish(top + "dice", {"v": 1, "rolls": [[6, 6]] * 40, "by": "white", "n": 2 ** 62}, retain=True)
            if len(heard) >= 3:
                intruder.publish(top + "actions/black", heard[0], retain=True)  # black's own, from long ago
                attacks.append("replay")

    def tamper(sides):
        intruder.start(5)
        threading.Thread(target=attack, daemon=True).start()

    try:
        sides, codes, log = play(broker, sims, links, "friendly-3", tamper)
    finally:
        stop.set()
        intruder.stop(1)
    white, black = sides
    assert codes == [0, 0], (white.stopped, black.stopped, white.rejected, black.rejected)
    assert white.verified.startswith("every die checked") and black.verified == white.verified
    assert "replay" in attacks and "executed 0" in log and "executed 1" in log
    for side in (white, black):  # each kind of message was seen and ignored
        kinds = {k for k in side.rejected}
        assert ("actions/black", "not signed with this match's key") in kinds, kinds
        assert ("stop", "not signed with this match's key") in kinds, kinds
        assert ("dice", "not signed with this match's key") in kinds, kinds
    assert ("actions/black", "replayed") in white.rejected, white.rejected


def test_signed_messages():
    from pipboard.remote import RemoteError, check_key, new_key, sign

    key = new_key()
    assert check_key(key) == key and len(key) == 32
    body = {"v": 1, "lines": ["roll 31"], "by": "black", "n": 5}
    mac = sign(key, "m1", "actions/black", body)
    assert mac != sign(key, "m2", "actions/black", body)  # another match
    assert mac != sign(key, "m1", "actions/white", body)  # another topic
    assert mac != sign(new_key(), "m1", "actions/black", body) and mac != sign(key, "m1", "actions/black",
                                                                               dict(body, n=6))
    for bad in (None, "", "xyz", "0" * 31, "g" * 32):
        with pytest.raises(RemoteError, match="match key"):
            check_key(bad)


def test_remote_dice_is_checked_by_the_board():
    from pipcore.protocol import ProtocolHandler

    class App:
        def __init__(self):
            self.got = None

        def remote_dice(self, dice, commitment, roll):
            self.got = (dice, commitment, roll)

    out = []
    app = App()
    h = ProtocolHandler(app, out.append)
    for bad in ('{"cmd":"remote_dice","dice":[7,1],"commitment":"%s","roll":1}' % ("a" * 64),
                '{"cmd":"remote_dice","dice":[1,1],"commitment":"short","roll":1}',
                '{"cmd":"remote_dice","dice":[1,1],"commitment":"%s","roll":0}' % ("a" * 64)):
        h.handle_line(bad.encode())
    assert all(b'"ok": false' in line for line in out) and app.got is None
    h.handle_line(('{"cmd":"remote_dice","dice":[6,2],"commitment":"%s","roll":4}' % ("a" * 64)).encode())
    assert app.got == ((6, 2), "a" * 64, 4)


def test_pipboard_remote_reports_a_missing_board_and_a_bad_match_name(capsys):
    from pipboard.cli import main
    from pipboard.remote import RemoteError

    assert main(["remote", "--sim", "127.0.0.1:1", "--broker", "mqtt://127.0.0.1:1", "--match", "m",
                 "--side", "white"]) == 1
    assert "cannot reach the simulator" in capsys.readouterr().err
    with pytest.raises(RemoteError, match="match ID"):
        RemoteMatch(None, "mqtt://127.0.0.1:1", "bad name!", "white")
    with pytest.raises(RemoteError, match="match key"):
        RemoteMatch(None, "mqtt://127.0.0.1:1", "m", "black")  # black has no key: white's host printed it
