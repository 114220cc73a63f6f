"""The Back Alley scorekeeper mode in the browser simulator, clicked in Debian's chromium (Playwright).

A whole game of 25 counted deals and their redeals on the simulated board's page: the menu (its
buttons, clicked) chooses Back Alley, the first dealer and the first deals are clicked on the side
buttons of the seat that keys (white's for S and W, black's for N and E) as a person presses them, the
middle of the game is keyed through the protocol (``inject`` ``press``: the same buttons, faster), the
power is cut with the page's "power cut" button in the middle of a deal, and the last deals are
clicked again. The page's LEDs show each call in its seat's quadrant, the page's text the score; the
final scores are recounted by RULES.md 5.9 (``test_bamode_protocol.recount``). Screenshots go to
tests/artifacts/ (``PIPBOARD_DOCS_SHOT=1`` refreshes docs/backalley-board.png as well).
"""

import os
import random
import shutil

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from bamode_play import Keyer, deal_texts, plan_game  # noqa: E402
from pipcore import geometry as g  # noqa: E402
from pipcore.bamode import QUADRANTS  # noqa: E402
from pipcore.glyphs import rows  # noqa: E402
from test_bamode_protocol import recount  # noqa: E402
from test_websim_browser import ARTIFACTS, ROOT, sim_page  # noqa: E402

# a physical button -> the page's button that presses it
SIDE_BUTTONS = {}
for _side, _base in (("white", g.BTN_WHITE_ROLL), ("black", g.BTN_BLACK_ROLL)):
    for _k, _name in enumerate(("ROLL", "DOUBLE", "TAKE", "DROP")):
        SIDE_BUTTONS[_base + _k] = "#btn-%s-%s" % (_side, _name)
CLICKED = (0, 1, 2, 23, 24)  # the counted deals clicked (the others keyed over the protocol)


def click(page, selector):
    """Click a button of the page and wait for the board's answer (the page posts it)."""
    with page.expect_response(lambda r: r.url.endswith("/action") and r.request.method == "POST"):
        page.click(selector)


def clicker(page, link):
    return Keyer(lambda button, long=False: click(page, SIDE_BUTTONS[button]), lambda: link.snapshot()["backalley"])


def injector(link):
    return Keyer(lambda button, long=False: link.inject("press", button, 2 if long else 1),
                 lambda: link.snapshot()["backalley"])


def lit_pixels(page, seat):
    want = set()
    for loc in QUADRANTS[seat]:
        for slot in range(1, g.SLOTS):
            want.add(g.led_index(loc, slot))
    found = page.eval_on_selector_all("circle.led", "els => els.map(e => +e.dataset.pixel)")
    return sorted(set(found) & want)


def glyph_pixels(seat, text):
    """The pixels of ``text`` right-aligned in ``seat``'s quadrant (pipcore.bamode's drawing)."""
    out = []
    for i, ch in enumerate(reversed(text)):
        c0 = (1 - i) * 3
        for row in range(5):
            for col in range(3):
                if rows(ch)[row][col] == "#":
                    out.append(g.led_index(QUADRANTS[seat][c0 + col], 5 - row))
    return sorted(out)


@pytest.fixture
def page_and_sim():
    with sim_page(6, height=900) as opened:
        yield opened


def test_a_whole_game_in_the_browser_with_a_power_cut(page_and_sim):
    page, sim, link = page_and_sim
    # the menu, with the board's own buttons: hold menu, the game item to Back Alley, OK
    page.click("#key-hold-menu")
    page.wait_for_selector("#board[data-menu='variant']", timeout=10000)
    click(page, "#btn-TAKE")
    click(page, "#btn-TAKE")
    click(page, "#btn-ROLL")
    page.wait_for_selector("#board[data-backalley='dealer']", timeout=10000)
    page.wait_for_function("document.getElementById('backalley').textContent.includes('who deals first')")
    clicker(page, link).key("N")  # North deals first: the seat stepped with TAKE, confirmed with ROLL
    page.wait_for_selector("#board[data-backalley='trump']", timeout=10000)

    plan = plan_game(random.Random(21), redeal_at=(2, 17))
    counted = 0
    cut = False
    shots = 0
    for trump, calls, tricks in plan:
        texts = deal_texts(trump, calls, tricks)
        by_click = counted in CLICKED
        for i in range(len(texts)):
            if counted == 12 and i == 4 and not cut:  # deal 13, after three calls: the power goes
                before = link.snapshot()["backalley"]
                click(page, "#btn-power")
                assert sim.sim.board.power_cuts == 1
                assert link.snapshot()["backalley"] == before  # the board starts again where it was
                cut = True
            (clicker(page, link) if by_click else injector(link)).key(texts[i])
            if by_click and 1 <= i <= 3 and not shots:  # a call just keyed: its seat's quadrant shows it
                seat = "NESW".index(link.snapshot()["backalley"]["to_act"]) - 1
                if texts[i] not in ("P",):
                    page.wait_for_function("document.querySelectorAll('circle.led').length > 0")
                    page.wait_for_timeout(300)  # (the page polls the board every 150 ms)
                    assert lit_pixels(page, seat % 4) == glyph_pixels(seat % 4, texts[i]), texts[i]
                    path = os.path.join(ARTIFACTS, "sim_backalley_call.png")
                    page.locator("#board").screenshot(path=path)
                    shots += 1
                    if os.environ.get("PIPBOARD_DOCS_SHOT"):
                        shutil.copy(path, os.path.join(ROOT, "docs", "backalley-board.png"))
        if tricks is not None:
            counted += 1
    assert cut and shots == 1
    totals, _ = recount(plan, 0)
    page.wait_for_selector("#board[data-backalley='game over']", timeout=10000)
    page.wait_for_function("document.getElementById('backalley').textContent.includes('score NS %d, EW %d')"
                           % tuple(totals), timeout=10000)
    st = link.snapshot()["backalley"]
    assert [st["scores"]["NS"], st["scores"]["EW"]] == totals and st["deal"] == 25
    assert st["redeals"] == len([d for d in plan if d[2] is None]) >= 2
    page.locator("#board").screenshot(path=os.path.join(ARTIFACTS, "sim_backalley_over.png"))
