"""The board's menu and self-test in the browser simulator, clicked in Debian's chromium (Playwright).

The menu is opened with the board's own menu button (held), walked with menu / undo and changed with
TAKE / DROP as on the wooden board (docs/board-menu.md); the LEDs shown on the page are the board's.
The self-test runs on a twin with switches made faulty over the protocol (test mode), the simulated
hands doing what its LEDs ask. Screenshots go to tests/artifacts/.
"""

import os

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from pipcore import geometry as g  # noqa: E402
from pipcore import menu  # noqa: E402

from test_websim_browser import ARTIFACTS, sim_page  # noqa: E402


@pytest.fixture
def page_and_sim():
    with sim_page(5, height=800) as opened:
        yield opened


def wait_attr(page, name, value):
    page.wait_for_selector("#board[data-%s='%s']" % (name, value), timeout=10000)


def led(page, loc, slot):
    """The page's light of the pixel under ``slot`` of ``loc`` (present only while lit)."""
    return page.locator("circle.led[data-pixel='%d']" % g.led_index(loc, slot))


def to_item(page, key):
    for _ in range(len(menu.ITEMS)):
        if page.locator("#board").get_attribute("data-menu") == key:
            return
        before = page.locator("#board").get_attribute("data-menu")
        page.click("#key-menu")
        page.wait_for_function("document.getElementById('board').dataset.menu !== %r" % before, timeout=5000)
    raise AssertionError("menu item %s not reached" % key)


def test_menu_sets_match_length_and_cube_cap_then_the_match_starts(page_and_sim):
    page, sim, link = page_and_sim
    page.click("#btn-setup")
    wait_attr(page, "phase", "opening")
    page.click("#key-hold-menu")
    wait_attr(page, "menu", "variant")
    assert led(page, menu.ITEMS[0][1], 0).count() == 1  # the item shown pulses on its place
    assert page.locator("circle.led").count() > 15  # every item of the game has its light
    to_item(page, "matchLength")
    for n in (1, 2, 3):
        page.click("#btn-TAKE")
        page.wait_for_function("document.getElementById('menu').textContent.endsWith('= %d')" % n, timeout=5000)
    rows = menu.glyph_rows(3)  # the 3 is drawn in the units' place, points 22..24
    for row in range(5):
        for col in range(3):
            lit = led(page, menu.DIGIT_LOCS[3 + col], 1 + row).count()
            assert lit == (rows[row][col] == "#"), (row, col)
    page.screenshot(path=os.path.join(ARTIFACTS, "sim_menu_match_length.png"), full_page=True)
    to_item(page, "cubeCap")
    page.click("#btn-TAKE")
    page.click("#btn-TAKE")
    page.wait_for_function("document.getElementById('menu').textContent.endsWith('= 4')", timeout=5000)
    assert link.snapshot()["menu"] == {"open": True, "item": "cubeCap", "title": "cube cap (0 none)", "value": 4,
                                       "text": "4", "pending": False}
    page.click("#btn-ROLL")  # OK: leave; between games the new match starts at once
    wait_attr(page, "menu", "")
    snap = link.snapshot()
    assert snap["options"]["matchLength"] == 3 and snap["options"]["cubeCap"] == 4 and snap["options"]["crawford"]
    assert snap["match_length"] == 3 and snap["phase"] == "opening" and snap["menu"]["open"] is False
    page.wait_for_function("document.getElementById('phase').textContent.includes('opening')", timeout=5000)


def test_self_test_finds_the_switches_made_faulty_in_the_twin(page_and_sim):
    page, sim, link = page_and_sim
    stuck_closed = g.sensor_bit(19, 5)  # point 20 slot 6
    stuck_open = g.sensor_bit(3, 2)  # point 4 slot 3
    link.inject("switch", stuck_closed, 1)
    link.inject("switch", stuck_open, 2)
    page.click("#btn-setup")
    wait_attr(page, "phase", "opening")
    page.click("#key-hold-menu")
    wait_attr(page, "menu", "variant")
    page.click("#key-undo")  # back round the start: the self-test
    wait_attr(page, "menu", "selfTest")
    page.click("#btn-ROLL")  # OK starts it
    wait_attr(page, "selftest", "clear")
    assert "take every checker off" in page.locator("#status").text_content()
    page.click("#btn-setup")  # the hands do what the LEDs ask: clear the board, cover every slot in turn
    wait_attr(page, "selftest", "done")
    text = page.locator("#selftest").text_content()
    assert "point 20 slot 6 stuck closed" in text and "point 4 slot 3 stuck open" in text, text
    assert led(page, 19, 5).get_attribute("data-rgb") == "140,0,0"  # blinking red under the stuck switch
    assert led(page, 3, 2).get_attribute("data-rgb") == "120,0,90"  # magenta: never closed
    page.screenshot(path=os.path.join(ARTIFACTS, "sim_self_test.png"), full_page=True)
    result = link.snapshot()["self_test"]
    faults = [(p["location"], p["slot"], p["fault"]) for p in result["problems"]]
    assert faults == [(3, 3, "stuck open"), (19, 6, "stuck closed")] and result["complete"] and result["led_chain"]
    page.click("#btn-DONE")  # back to the game: the LEDs ask for the checkers again
    wait_attr(page, "selftest", "done")
    page.wait_for_function("document.getElementById('board').dataset.menu === ''", timeout=5000)
    assert link.snapshot()["phase"] == "opening"
    link.inject("switch", stuck_closed, 0)
    link.inject("switch", stuck_open, 0)
    page.click("#btn-setup")
    page.wait_for_function("!document.getElementById('status').textContent.includes('differs')", timeout=5000)


def hold(page, selector, ms=800):
    """Hold a page button down, as a person holds a board button (a click presses it)."""
    page.hover(selector)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def test_the_page_lays_the_menu_overlay_over_the_board_and_says_why_items_are_skipped(page_and_sim):
    page, sim, link = page_and_sim
    page.click("#btn-setup")
    wait_attr(page, "phase", "opening")
    overlay = page.locator("#menu-overlay")
    assert overlay.get_attribute("display") == "none"  # no sheet while the game is played
    labels = page.locator("g.panel-labels").text_content()
    for word in ("die A", "die B", "moves left", "cube", "64", "white owns", "black's turn"):
        assert word in labels, word  # the panel is labelled
    assert page.text_content("#btn-white-RESIGN").startswith("resign")  # named as what it does
    page.click("#key-hold-menu")
    wait_attr(page, "menu", "variant")
    assert overlay.get_attribute("display") == "inline"
    sheet = overlay.text_content()
    for key, _loc, _kind, _values, title, _labels in menu.ITEMS:  # the printed overlay's words, item by item
        assert title.split()[0] in sheet, title
    to_item(page, "matchLength")
    hold(page, "#btn-TAKE")  # held: ten steps, as on the board (a 25-point match is two holds and five presses)
    page.wait_for_function("document.getElementById('menu').textContent.endsWith('= 10')", timeout=5000)
    page.click("#btn-TAKE")
    page.wait_for_function("document.getElementById('menu').textContent.endsWith('= 11')", timeout=5000)
    skipped = page.text_content("#menu-skipped")
    assert "beavers: only with money play" in skipped and "Jacoby: only with money play" in skipped, skipped
    assert "raccoons: only with money play (match length 0) and beavers on" in skipped, skipped
    page.screenshot(path=os.path.join(ARTIFACTS, "sim_menu_overlay.png"), full_page=True)
    page.click("#btn-DOUBLE")  # leave, forgetting the changes
    wait_attr(page, "menu", "")
    assert overlay.get_attribute("display") == "none" and page.text_content("#menu-skipped") == ""
    assert link.snapshot()["options"]["matchLength"] == 0
