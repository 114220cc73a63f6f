"""The board's Back Alley scorekeeper mode, played through the protocol on the simulated board.

The simulator runs in test mode (``pipboard sim --test``) and a host drives it over its TCP port as it
would a real board: ``new_game`` with the variant ``backalley``, then every key of a whole game (25
counted deals and the redeals of ``bamode_play.plan_game``) as button presses injected (``inject``
``press``), reading only the snapshot's ``backalley``. The power is cut in the middle of a deal (the
page's "power cut": the board restarts from its flash) and the game goes on from its save. The scores
are checked against a recount written here from RULES.md 5.9 (not the firmware's code), and so are
``pipboard export``'s sheets (text and JSON) and ``pipboard monitor``'s view. Refusals over the
protocol (the other side's buttons, a forbidden call) change nothing.
"""

import json
import random

import pytest

from bamode_play import BOARD, PASS, Keyer, deal_texts, hand_size, plan_game
from pipboard import export, monitor
from pipboard.link import Link
from pipboard.websim import server
from pipcore import geometry as g

SEATS = "NESW"


def recount(plan, first_dealer):
    """The running scores of ``plan`` by RULES.md 5.9, the redeals by 5.6 and 5.3, written from the rules."""
    totals = [0, 0]
    dealer = first_dealer
    number = 1
    sheet = []
    for _trump, calls, tricks in plan:
        if tricks is not None:
            h = hand_size(number)
            took = [0, 0]
            numbers = [0, 0]
            multiplier = [0, 0]
            boards = 0
            for i in range(4):
                team = (dealer + 1 + i) % 4 % 2  # N and S are team 0, E and W team 1
                took[team] += tricks[i]
                if calls[i] == BOARD:
                    boards += 1  # the k-th board of the deal is k-fold
                    multiplier[team] = max(multiplier[team], boards)
                elif calls[i] != PASS:
                    numbers[team] += calls[i]
            for team in (0, 1):
                if multiplier[team]:
                    score = 10 * h * multiplier[team] * (1 if took[team] == h else -1)
                elif took[team] >= numbers[team]:
                    score = 5 * numbers[team] + took[team] - numbers[team]
                else:
                    score = -5 * numbers[team]
                totals[team] += score
            sheet.append(list(totals))
            number += 1
        dealer = (dealer + 1) % 4  # a redeal passes the deal too
    return totals, sheet


@pytest.fixture
def sim():
    servers = server.start(seed=3, test_mode=True, http_port=0, protocol_port=0)
    link = Link.open("sim:" + servers.protocol_address)
    try:
        yield servers, link
    finally:
        link.close()
        servers.close()


def keyer(link):
    return Keyer(lambda button, long=False: link.inject("press", button, 2 if long else 1),
                 lambda: link.snapshot()["backalley"])


def test_a_whole_game_over_the_protocol_with_a_power_cut(sim, tmp_path):
    servers, link = sim
    snap = link.new_game("backalley", {"names": ["Ann", "Bob", "Cy", "Di"]})
    assert snap["variant"] == "backalley" and snap["backalley"]["phase"] == "dealer"
    k = keyer(link)
    k.key("E")  # East deals first (chosen at the table)
    plan = plan_game(random.Random(8), redeal_at=(4, 20))
    assert len([d for d in plan if d[2] is None]) >= 2
    counted = 0
    cut_at = None
    for n, (trump, calls, tricks) in enumerate(plan):
        texts = deal_texts(trump, calls, tricks)
        for i in range(len(texts)):
            if counted == 13 and i == 3 and cut_at is None:  # deal 14, after two calls: the power goes
                before = link.snapshot()["backalley"]
                servers.sim.act({"do": "power"})
                after = link.snapshot()["backalley"]
                assert after == before, (after, before)
                cut_at = before["state"]["keys"]
            k.key(texts[i])
        if tricks is not None:
            counted += 1
            st = link.snapshot()["backalley"]
            want, _ = recount(plan[:n + 1], 1)
            assert [st["scores"]["NS"], st["scores"]["EW"]] == want, (counted, st["scores"], want)
    assert cut_at and servers.sim.board.power_cuts == 1
    snap = link.snapshot()
    st = snap["backalley"]
    totals, sheet = recount(plan, 1)
    assert st["phase"] == "game over" and st["deal"] == 25
    assert [st["scores"]["NS"], st["scores"]["EW"]] == totals
    winner = "tie" if totals[0] == totals[1] else ("NS" if totals[0] > totals[1] else "EW")
    assert st["winner"] == winner and "Game over" in snap["message"]
    assert st["redeals"] == len([d for d in plan if d[2] is None])

    # pipboard export: the sheet as players write it, and as JSON (pipboard.basheet, the one sheet writer)
    text_path = tmp_path / "sheet.txt"
    json_path = tmp_path / "sheet.json"
    export.export(link, str(text_path), out=open(tmp_path / "log.txt", "w"))
    export.export(link, str(json_path), out=open(tmp_path / "log.txt", "w"))
    text = text_path.read_text()
    assert "Final: NS %d, EW %d" % tuple(totals) in text and "Ann" in text and "Bob" in text
    data = json.loads(json_path.read_text())
    counted_rows = [d for d in data["deals"] if d["counted"]]
    assert [[d["NS"]["total"], d["EW"]["total"]] for d in counted_rows] == sheet
    assert data["finished"] and data["winner"] == winner and data["redeals"] == st["redeals"]
    # pipboard monitor: what it prints for this board
    view = monitor.describe(snap)
    assert "Back Alley scorekeeper" in view and "score: NS %d, EW %d" % tuple(totals) in view
    assert "Final: NS %d" % totals[0] in view  # the whole sheet once the game is over


def test_events_tell_a_host_each_key(sim):
    _servers, link = sim
    link.new_game("backalley", {"dealer": "S"})
    while link.next_event(0.2) is not None:
        pass
    keyer(link).key("H")
    events = []
    while True:
        event = link.next_event(0.5)
        if event is None:
            break
        events.append(event)
    ba = [e for e in events if e["event"] == "backalley"]
    assert ba and ba[-1]["phase"] == "calling" and ba[-1]["keys"] == 1 and ba[-1]["deal"] == 1, events


def test_refusals_over_the_protocol_change_nothing(sim):
    _servers, link = sim
    link.new_game("backalley", {"dealer": "N"})  # E calls first: the black side's buttons
    keyer(link).key("S")
    before = link.snapshot()["backalley"]
    link.inject("press", g.BTN_WHITE_TAKE, 1)  # the white side's: out of turn
    link.inject("press", g.BTN_WHITE_ROLL, 1)
    st = link.snapshot()["backalley"]
    assert st["state"] == before["state"] and st["entry"] == before["entry"] and "East's turn" in st["refused"]
    for _ in range(13):
        link.inject("press", g.BTN_BLACK_TAKE, 1)
    link.inject("press", g.BTN_BLACK_ROLL, 1)  # 13 with 13 cards: RULES.md 5.6 forbids it
    st = link.snapshot()["backalley"]
    assert st["state"] == before["state"] and st["calls"] == {} and "at most 12" in st["refused"]
    # the backgammon game waits while the score is kept
    with pytest.raises(Exception) as refused:
        link.roll()
    assert "Back Alley" in str(refused.value)
    # bad options for a new game are refused, with the reason
    with pytest.raises(Exception) as refused:
        link.new_game("backalley", {"dealer": "X"})
    assert "dealer" in str(refused.value)
    with pytest.raises(Exception) as refused:
        link.new_game("backalley", {"referee": "yes"})
    assert "referee is true" in str(refused.value)
    assert link.snapshot()["backalley"]["state"] == before["state"]
