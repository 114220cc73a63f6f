"""The tournament clock in the browser simulator, in Debian's chromium (Playwright).

A match to 1 with a one-minute clock (simple delay, 12 s): the board is set up
and white plays his opening 6-5 by clicks; the page shows both clocks, the
mover's running, and the panel's move markers light the clock's teal. After
white's DONE black's clock runs and, before black rolls, the panel's free
dice read his minutes. The board's time is then pushed ahead with the
test-mode ``advance`` command (docs/protocol.md), as if black sat thinking:
under a minute the page warns and die A counts the tens of seconds; past the
reserve black's flag falls and white wins the match, on the page, in the
snapshot and in the record.
"""

import os

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from test_websim_browser import ARTIFACTS, loc, move_by_clicks, sim_page, wait_phase  # noqa: E402

CLOCK_RGB = "0,184,160"  # pipcore.gameclock.CLOCK_COLOUR


@pytest.fixture
def browser_sim():
    """The browser page on a simulator in test mode, and a protocol link to the same board."""
    with sim_page(2) as (page, _sim, link):
        yield page, link


def shot(page, name):
    """The whole page (board, panel and the clock beside it) into tests/artifacts/."""
    page.screenshot(path=os.path.join(ARTIFACTS, name), full_page=True)


def clock_text(page, name):
    return page.locator("#clock-%s" % name).text_content()


def teal(page, index):
    """1 if panel pixel ``index`` shows the clock's teal, else 0."""
    return page.locator("circle.led[data-pixel='%d'][data-rgb='%s']" % (index, CLOCK_RGB)).count()


def wait_teal(page, count):
    page.wait_for_function("document.querySelectorAll(\"circle.led[data-rgb='%s']\").length === %d"
                           % (CLOCK_RGB, count), timeout=5000)


def face(die_base, value):
    """The pixels of die face ``value`` (geometry.DIE_FACE_MASKS)."""
    from pipcore import geometry as g

    return [die_base + pip for pip in range(g.DIE_PIPS) if g.DIE_FACE_MASKS[value] >> pip & 1]


def test_a_clock_runs_out_in_the_browser(browser_sim):
    from pipcore import geometry as g

    page, link = browser_sim
    link.new_game("backgammon", {"matchLength": 1, "clock": "simple", "clockMinutes": 1, "clockDelay": 12})
    page.wait_for_function("document.getElementById('clock-white') !== null", timeout=5000)
    assert clock_text(page, "white") == "white 1:00" and clock_text(page, "black") == "black 1:00"
    page.click("#btn-setup")
    wait_phase(page, "opening")

    # white wins the opening roll with 6-5: his clock runs while he plays it
    link.set_dice([6, 5])
    page.click("#btn-ROLL")
    wait_phase(page, "moving")
    page.wait_for_selector("#clock-white.running", timeout=5000)
    assert "running" not in page.locator("#clock-black").get_attribute("class")
    wait_teal(page, 4)  # the dice show the roll; the four move markers are the clock's bar (a full reserve)
    assert all(teal(page, g.LED_MOVES + k) for k in range(4))
    shot(page, "clock_1_white_moves.png")
    move_by_clicks(page, 23, 17)
    loc(page, 12).drag_to(loc(page, 7))
    page.wait_for_function("document.getElementById('hand').textContent === 'Hand empty'", timeout=5000)
    page.click("#btn-DONE")
    wait_phase(page, "turn-start")

    # black's clock runs from white's DONE; before his roll the dice are free: they read his minutes (1-blank)
    page.wait_for_selector("#clock-black.running", timeout=5000)
    wait_teal(page, 4 + len(face(g.LED_DIE_A, 1)))
    assert all(teal(page, i) for i in face(g.LED_DIE_A, 1)) and not any(teal(page, g.LED_DIE_B + p) for p in range(7))
    white_left = link.snapshot()["clock"]["remaining"][0]
    assert white_left == 60000  # white played within his delay

    # black thinks 50 s: 12 s of delay, then 38 s of his reserve (and the few real seconds of this test)
    link.advance(50000)
    page.wait_for_selector("#clock-black.warn", timeout=5000)
    snap = link.snapshot()
    left = snap["clock"]["remaining"][1]
    assert 10000 <= left <= 22000 and snap["clock"]["running"] == 1 and snap["phase"] == "turn-start"
    # under a minute: die A counts the tens of seconds left (blinking), the markers the quarters of the reserve
    tens, quarters = -(-left // 10000), -(-left // 15000)
    wait_teal(page, len(face(g.LED_DIE_A, tens)) + quarters)
    assert all(teal(page, i) for i in face(g.LED_DIE_A, tens))
    assert [teal(page, g.LED_MOVES + k) for k in range(4)] == [1 if k < quarters else 0 for k in range(4)]
    shot(page, "clock_2_last_minute.png")

    # ... and 30 s more: black's flag falls, white wins the match on time
    link.advance(30000)
    wait_phase(page, "match-over")
    page.wait_for_selector("#clock-black.flag", timeout=5000)
    assert clock_text(page, "black") == "black 0:00 lost on time"
    assert clock_text(page, "white") == "white 1:00"
    status = page.locator("#status").text_content()
    assert status.startswith("black lost on time") and "white wins the match 1-0" in status, status
    assert "black loses on time" in page.locator("#record").text_content()
    wait_teal(page, 0)  # nothing runs: the clock leaves the panel
    snap = link.snapshot()
    assert snap["score"] == [1, 0] and snap["result"] == [0, 1, "time"] and snap["clock"]["flag"] == 1
    shot(page, "clock_3_flag_fell.png")

    from pipcore.record import read_record

    entries = read_record(link.record()).entries
    assert entries[-2:] == [("timeout", 1), ("end", 0, 4, 1)]
