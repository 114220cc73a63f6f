"""The browser simulator driven by clicks in Debian's chromium (Playwright, never a downloaded browser).

Opens the page, sets the board up, plays white's opening 6-5 by clicks and a
drag, makes a hit with black (blot lifted first), puts a checker on a wrong
point and sees the error LED flash, fixes it and presses DONE. The dice are
chosen over the protocol (the simulator runs in test mode), so the scenario
is exact. Screenshots go to tests/artifacts/ (set PIPBOARD_DOCS_SHOT=1 to
refresh docs/simulator.png as well).
"""

import contextlib
import os
import shutil

import pytest

pytest.importorskip("pipboard.simboard", reason="the simulated board (controller issue) is not on this branch yet")
playwright_api = pytest.importorskip("playwright.sync_api")

from pipboard.link import Link  # noqa: E402
from pipboard.websim import server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTIFACTS = os.path.join(ROOT, "tests", "artifacts")
ERROR_RGB = "120,0,0"  # pipcore.render: the flashing red of a wrong placement


@contextlib.contextmanager
def sim_page(seed, height=760):
    """A simulator in test mode, the browser page on it (ready), and a protocol link to the same board."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing at %s (make setup installs it)" % CHROMIUM)
    sim = server.start(seed=seed, test_mode=True, http_port=0, protocol_port=0)
    link = Link.open("sim:" + sim.protocol_address)
    os.makedirs(ARTIFACTS, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": height})
            page.goto(sim.url)
            page.wait_for_selector("body[data-ready='1']", timeout=15000)
            yield page, sim, link
        finally:
            browser.close()
            link.close()
            sim.close()


@pytest.fixture
def page_and_sim():
    with sim_page(2) as opened:
        yield opened


def loc(page, n):
    return page.locator("g.loc[data-loc='%d']" % n)


def wait_phase(page, phase):
    page.wait_for_selector("#board[data-phase='%s']" % phase, timeout=10000)


def move_by_clicks(page, src, dst):
    loc(page, src).click()
    page.wait_for_function("document.getElementById('hand').textContent.startsWith('In hand')", timeout=15000)
    loc(page, dst).click()
    page.wait_for_function("document.getElementById('hand').textContent === 'Hand empty'", timeout=15000)


def shot(page, name):
    path = os.path.join(ARTIFACTS, name)
    page.screenshot(path=path)
    return path


def test_play_by_clicks_hit_error_led_and_done(page_and_sim):
    page, sim, link = page_and_sim
    shot(page, "sim_0_setup.png")
    page.click("#btn-setup")  # the hands put the checkers where the LEDs ask
    wait_phase(page, "opening")

    # white wins the opening with 6-5 and runs: 24/18 by clicks, 13/8 by a drag
    link.set_dice([6, 5])
    page.click("#btn-ROLL")
    wait_phase(page, "moving")
    assert page.locator("circle.led").count() > 0, "no LED marks the movable checkers"
    shot(page, "sim_1_opening_roll.png")
    move_by_clicks(page, 23, 17)
    loc(page, 12).drag_to(loc(page, 7))
    page.wait_for_function("document.getElementById('hand').textContent === 'Hand empty'", timeout=15000)
    page.click("#btn-DONE")
    wait_phase(page, "turn-start")
    assert link.snapshot()["mover"] == 1

    # black rolls 6-1 and hits the blot on 18: blot to the bar first, then 13/7* 8/7
    link.set_dice([6, 1])
    page.click("#btn-ROLL")
    wait_phase(page, "moving")
    move_by_clicks(page, 17, 24)  # white's blot to white's bar
    move_by_clicks(page, 11, 17)  # black 13/7*
    move_by_clicks(page, 16, 17)  # black 8/7
    shot(page, "sim_2_hit.png")

    # a checker put on a wrong point: its LEDs flash red
    move_by_clicks(page, 0, 3)
    page.wait_for_selector("circle.led[data-rgb='%s']" % ERROR_RGB, timeout=15000, state="attached")
    error_path = shot(page, "sim_3_error_led.png")
    assert link.snapshot()["phase"] == "moving"
    move_by_clicks(page, 3, 0)  # back where it came from
    page.wait_for_function("!document.querySelector(\"circle.led[data-rgb='%s']\")" % ERROR_RGB, timeout=15000)

    page.click("#btn-DONE")
    wait_phase(page, "turn-start")
    snap = link.snapshot()
    assert snap["mover"] == 0 and snap["phase"] == "turn-start"
    from pipcore.record import read_record
    plays = [e for e in read_record(link.record()).entries if e[0] == "play"]  # the binary match record
    assert plays[0] == ("play", 0, [(24, 18), (13, 8)]), plays
    assert plays[1][:2] == ("play", 1) and sorted(plays[1][2]) == [(8, 7), (13, 7)], plays
    assert page.locator("circle.checker.c0").count() + page.locator("rect.checker.c0").count() == 15
    shot(page, "sim_4_done.png")
    if os.environ.get("PIPBOARD_DOCS_SHOT"):
        shutil.copy(error_path, os.path.join(ROOT, "docs", "simulator.png"))
