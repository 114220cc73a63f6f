"""The board's Back Alley referee mode, played through the protocol on the simulated board.

The simulator runs in test mode (``pipboard sim --test``) and a host drives it over its TCP port as it
would a real board: ``new_game`` with the variant ``backalley`` and the option ``referee``, then a whole
game dealt and played by the card engine (``pipcore.backalley.Game``: random legal calls and cards, the
way a table plays them), every call and every card keyed as button presses injected (``inject``
``press``) on the side of the seat to act, reading only the snapshot's ``backalley``. The power is cut
in the middle of a trick (the page's "power cut": the board restarts from its flash) and the game goes
on from its save. The board counts the tricks itself; its scores are checked after every deal against
the engine's and against a recount written from RULES.md 5.9 (``test_bamode_protocol.recount``), and so
are ``pipboard export``'s sheet and ``pipboard monitor``'s view. Refusals over the protocol (a revoke
against a shown void, the other side's buttons) change nothing.
"""

import json
import random

import pytest

from baref_play import CardKeyer, needs_word
from bamode_play import call_text
from pipboard import export, monitor
from pipboard.link import Link
from pipboard.websim import server
from pipcore import geometry as g
from pipcore.backalley import BOARD, NO_TRUMP, PLAYING, Game, card_text
from test_bamode_protocol import recount

SEATS = "NESW"


@pytest.fixture
def sim():
    servers = server.start(seed=5, test_mode=True, http_port=0, protocol_port=0)
    link = Link.open("sim:" + servers.protocol_address)
    try:
        yield servers, link
    finally:
        link.close()
        servers.close()


def keyer(link):
    return CardKeyer(lambda button, long=False: link.inject("press", button, 2 if long else 1),
                     lambda: link.snapshot()["backalley"])


def st_redeals(link):
    return link.snapshot()["backalley"]["redeals"]


def test_a_whole_refereed_game_over_the_protocol_with_a_power_cut_in_a_trick(sim, tmp_path):
    servers, link = sim
    snap = link.new_game("backalley", {"names": ["Ann", "Bob", "Cy", "Di"], "dealer": "S", "referee": True})
    assert snap["backalley"]["options"]["referee"] is True and snap["backalley"]["referee"] is None
    rng = random.Random(15)
    game = Game(first_dealer=2, rng=rng)
    k = keyer(link)
    plan = []  # (trump, calls, tricks in bidding order) for the recount
    cut = None
    cards = 0
    while not game.is_over():
        deal = game.deal()
        number = len(game.results) + 1
        k.key("J" if deal.trump == NO_TRUMP else "CDHS"[deal.trump])
        calls = []
        boards = 0
        for _ in range(4):
            legal = game.legal_calls()
            call = legal[rng.randrange(len(legal))] if number != 6 or game.redeals else legal[0]  # a redeal
            game.bid(game.to_act, call)
            k.key(call_text(call, boards))
            boards += call == BOARD
            calls.append(call)
        if game.phase != PLAYING:  # four passes: a redeal
            plan.append((deal.trump, calls, None))
            continue
        assert link.snapshot()["backalley"]["referee"]["playing"]
        while game.current is deal:
            legal = game.legal_cards()
            card = legal[rng.randrange(len(legal))]
            word = needs_word(deal, card)
            game.play(game.to_act, card)
            k.card(card_text(card), word)
            cards += 1
            if number == 3 and len(deal.trick) == 2 and sum(deal.taken) == 4 and cut is None:
                before = link.snapshot()["backalley"]
                servers.sim.act({"do": "power"})  # the power goes with two cards of trick 5 keyed
                after = link.snapshot()["backalley"]
                assert after == before, (after, before)
                assert after["referee"]["cards"] == [card_text(c) for c in deal.trick]
                cut = after["referee"]["state"]["cards"]
        st = link.snapshot()["backalley"]
        tricks = [deal.taken[(deal.dealer + 1 + i) % 4] for i in range(4)]
        plan.append((deal.trump, calls, tricks))
        want, _ = recount(plan, 2)
        assert [st["scores"]["NS"], st["scores"]["EW"]] == want == game.scores, (number, st["scores"], want)
        assert st["referee"]["taken"] == dict(zip(SEATS, deal.taken)) and not st["referee"]["playing"]
    assert cut and servers.sim.board.power_cuts == 1
    assert game.redeals == st_redeals(link) >= 1
    assert cards == 4 * sum(r.hand_size for r in game.results)  # every card of the 25 deals keyed
    snap = link.snapshot()
    st = snap["backalley"]
    assert st["phase"] == "game over" and st["redeals"] == game.redeals
    winner = {0: "NS", 1: "EW", -1: "tie"}[game.winner()]
    assert st["winner"] == winner
    # pipboard export: the sheet of the refereed game, the tricks as the board counted them
    json_path = tmp_path / "sheet.json"
    export.export(link, str(json_path), out=open(tmp_path / "log.txt", "w"))
    data = json.loads(json_path.read_text())
    counted = [d for d in data["deals"] if d["counted"]]
    assert len(counted) == 25 and data["winner"] == winner and data["state"]["referee"] is True
    assert [[d["NS"]["total"], d["EW"]["total"]] for d in counted] == recount(plan, 2)[1]
    # pipboard monitor: the last deal refereed and its tricks
    view = monitor.describe(snap)
    assert "tricks taken: " + ", ".join("%s %d" % (SEATS[i], deal.taken[i]) for i in range(4)) in view, view
    assert "the last deal refereed" in view


def test_a_deal_over_the_protocol_refusals_change_nothing_and_the_monitor_follows(sim):
    _servers, link = sim
    link.new_game("backalley", {"dealer": "N", "referee": True})
    k = keyer(link)
    for text in ("S", "3", "P", "P", "2"):  # spades; E 3, S pass, W pass, N 2: E leads
        k.key(text)
    for text in ("5H", "2C", "7H", "9H", "3H", "4H"):  # S shows a void in hearts in trick 1
        k.card(text)
    view = monitor.describe(link.snapshot())
    assert "trick 1: E 5H, S 2C, W 7H, N 9H: North wins" in view, view
    assert "trick 2 of 13: N 3H, E 4H; S keys" in view, view
    while link.snapshot()["backalley"]["referee"]["entry"] != "8H":
        link.inject("press", g.BTN_WHITE_TAKE, 1)
    before = link.snapshot()["backalley"]
    link.inject("press", g.BTN_WHITE_ROLL, 1)  # a revoke against S's shown void
    st = link.snapshot()["backalley"]
    assert st["referee"] == before["referee"] and st["state"] == before["state"], st
    assert "South cannot hold ♥8: South showed no hearts in trick 1" == st["refused"]
    assert "refused: South cannot hold" in monitor.describe(link.snapshot())
    for button in (g.BTN_BLACK_ROLL, g.BTN_BLACK_TAKE):  # the other side's buttons: S plays with white's
        link.inject("press", button, 1)
        st = link.snapshot()["backalley"]
        assert st["referee"] == before["referee"] and "South's turn" in st["refused"], st
    # every card is told to a host: a backalley event with the cards keyed
    while link.next_event(0.2) is not None:
        pass
    k.card("3C")
    events = []
    while True:
        event = link.next_event(0.5)
        if event is None:
            break
        events.append(event)
    ba = [e for e in events if e["event"] == "backalley"]
    assert ba and ba[-1]["cards"] == 7 and ba[-1]["phase"] == "tricks", events
