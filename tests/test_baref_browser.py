"""Back Alley's referee mode in the browser simulator, clicked in Debian's chromium (Playwright).

The simulated board's page: the menu (its buttons, clicked) chooses Back Alley and turns its item
"referee" on; the first dealer, the trump and the calls are keyed through the protocol (``inject``
``press``: the same buttons, faster); then the cards of two tricks are clicked on the side buttons of the
seat to play (white's for S and W, black's for N and E) as a person presses them. The page's LEDs show
each card on its seat's quadrant (suit letter and rank), its text the trick and the last trick's winner;
a revoke against a shown void is refused with the reason and changes nothing; the page's "power cut"
in the middle of a trick brings the board back to the same cards. Screenshots go to tests/artifacts/.
"""

import os

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from baref_play import CardKeyer  # noqa: E402
from pipcore import geometry as g  # noqa: E402
from test_bamode_browser import SIDE_BUTTONS, click, glyph_pixels, lit_pixels  # noqa: E402
from test_websim_browser import ARTIFACTS, sim_page  # noqa: E402


@pytest.fixture
def page_and_sim():
    with sim_page(7, height=900) as opened:
        yield opened


def clicker(page, link):
    return CardKeyer(lambda button, long=False: click(page, SIDE_BUTTONS[button]),
                     lambda: link.snapshot()["backalley"])


def injector(link):
    return CardKeyer(lambda button, long=False: link.inject("press", button, 2 if long else 1),
                     lambda: link.snapshot()["backalley"])


def page_text(page, text):
    page.wait_for_function("document.getElementById('backalley').textContent.includes(%r)" % text, timeout=10000)


def steady_glyphs(page, seat, text):
    """``text`` is drawn on ``seat``'s quadrant of the page (the pixels the page lights there)."""
    page.wait_for_timeout(300)  # (the page polls the board every 150 ms)
    assert lit_pixels(page, seat) == glyph_pixels(seat, text), (seat, text)


def test_a_refereed_trick_clicked_in_the_browser_with_a_refusal_and_a_power_cut(page_and_sim):
    page, sim, link = page_and_sim
    page.click("#key-hold-menu")
    page.wait_for_selector("#board[data-menu='variant']", timeout=10000)
    click(page, "#btn-TAKE")
    click(page, "#btn-TAKE")  # the game: Back Alley
    click(page, "#key-menu")
    page.wait_for_selector("#board[data-menu='referee']", timeout=10000)
    click(page, "#btn-TAKE")  # referee: on
    click(page, "#btn-ROLL")
    page.wait_for_selector("#board[data-backalley='dealer']", timeout=10000)
    assert link.snapshot()["backalley"]["options"]["referee"] is True
    fast = injector(link)
    for text in ("N", "S", "3", "P", "P", "2"):  # N deals, spades; E 3, S pass, W pass, N 2: E leads
        fast.key(text)
    page.wait_for_selector("#board[data-backalley='tricks'][data-cards='0']", timeout=10000)
    page_text(page, "trick 1 of 13: E leads; E keys")
    k = clicker(page, link)
    for text, seat in (("5H", 1), ("2C", 2), ("7H", 3)):
        k.card(text)
        steady_glyphs(page, seat, "H5" if text == "5H" else "C2" if text == "2C" else "H7")
    page.locator("#board").screenshot(path=os.path.join(ARTIFACTS, "sim_referee_trick.png"))
    k.card("9H")  # N wins the trick: the four cards stay, the winner's pulses green
    page_text(page, "trick 1: E 5H, S 2C, W 7H, N 9H: N wins")
    steady_glyphs(page, 3, "H7")
    page.locator("#board").screenshot(path=os.path.join(ARTIFACTS, "sim_referee_winner.png"))
    k.card("3H")  # N's first key opens the entry, then N leads
    k.card("4H")
    page.wait_for_selector("#board[data-cards='6']", timeout=10000)
    # the power goes in the middle of trick 2
    before = link.snapshot()["backalley"]
    click(page, "#btn-power")
    assert sim.sim.board.power_cuts == 1 and link.snapshot()["backalley"] == before
    page_text(page, "trick 2 of 13: N 3H, E 4H; S keys")
    # a revoke against S's void shown in trick 1: refused, nothing changes
    while link.snapshot()["backalley"]["referee"]["entry"] != "8H":
        click(page, SIDE_BUTTONS[g.BTN_WHITE_TAKE])
    stepped = link.snapshot()["backalley"]
    click(page, SIDE_BUTTONS[g.BTN_WHITE_ROLL])
    page_text(page, "refused: South cannot hold ♥8: South showed no hearts in trick 1")
    st = link.snapshot()["backalley"]
    assert st["referee"] == stepped["referee"] and st["state"] == stepped["state"]
    page.locator("#board").screenshot(path=os.path.join(ARTIFACTS, "sim_referee_refused.png"))
    k.card("6C")
    page.wait_for_selector("#board[data-cards='7']", timeout=10000)
    steady_glyphs(page, 2, "C6")
