"""The live room page in Debian's chromium (Playwright, never a downloaded browser): every board of a room
on one page, updated live from the broker, and a spectator's page per board. Set PIPBOARD_DOCS_SHOT=1 to
refresh docs/room.png."""

import os
import shutil
import time

import pytest

from mosquitto_broker import Mosquitto

pytest.importorskip("paho.mqtt.client", reason="paho-mqtt (make setup installs it)")
playwright_api = pytest.importorskip("playwright.sync_api")

from pipboard.room import Room  # noqa: E402
from pipboard.roompage import RoomPage  # noqa: E402
from pipboard.simtable import SimTable  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTIFACTS = os.path.join(ROOT, "tests", "artifacts")


def test_room_page_shows_every_board_live_and_a_spectator_page():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing at %s (make setup installs it)" % CHROMIUM)
    broker = Mosquitto()
    tables = [SimTable(seed=40 + i, match_length=3, pace_s=0.15) for i in range(4)]
    names = [("Ann", "Bob"), ("Cleo", "Dan"), ("Eve", "Finn"), ("Gus", "Hal")]
    room = Room(broker.url, "club", [{"name": "table%d" % (i + 1), "target": t.target, "white": names[i][0],
                                      "black": names[i][1], "round": 2} for i, t in enumerate(tables)],
                None, event="Club night")
    page_server = None
    os.makedirs(ARTIFACTS, exist_ok=True)
    try:
        assert room.start(5)
        page_server = RoomPage(broker.url, "club", port=0)
        for t in tables:
            t.start()
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(page_server.url)
                page.wait_for_selector("body[data-ready='1']", timeout=15000)
                page.wait_for_function("document.querySelectorAll('.card').length === 4", timeout=15000)
                card = page.locator(".card[data-board='table2']")
                assert "Cleo" in card.locator(".white").text_content()
                assert "Club night, round 2" == card.locator(".where").text_content()
                # live: the page follows the board's events without a reload
                seq0 = int(card.get_attribute("data-seq"))
                page.wait_for_function("+document.querySelector(\".card[data-board='table2']\").dataset.seq > %d"
                                       % (seq0 + 5), timeout=20000)
                page.wait_for_function("document.querySelector(\".card[data-board='table1'] .last-play\")"
                                       ".textContent.startsWith('last play: ')", timeout=20000)
                assert page.locator(".card[data-board='table1'] circle.checker").count() == 30 or \
                    page.locator(".card[data-board='table1'] .checker").count() == 30
                lit = page.locator(".card[data-board='table1'] circle.panel-led[data-on='1']").count()
                assert lit > 0  # the dice and cube on the panel
                page.screenshot(path=os.path.join(ARTIFACTS, "room.png"))
                if os.environ.get("PIPBOARD_DOCS_SHOT"):
                    shutil.copy(os.path.join(ARTIFACTS, "room.png"), os.path.join(ROOT, "docs", "room.png"))
                # the spectator's page of one board
                card.click()
                page.wait_for_url("**/board/table2", timeout=5000)
                page.wait_for_selector("body[data-ready='1']", timeout=15000)
                page.wait_for_function("document.querySelectorAll('.card').length === 1", timeout=10000)
                one = page.locator(".card[data-board='table2']")
                page.wait_for_function("document.querySelector('.record').textContent.length > 0", timeout=20000)
                assert "Position ID" in one.locator(".ids").text_content()
                page.screenshot(path=os.path.join(ARTIFACTS, "room_board.png"))
            finally:
                browser.close()
    finally:
        if page_server is not None:
            page_server.close()
        room.stop()
        for t in tables:
            t.stop()
        broker.close()


def test_unknown_page_is_a_404():
    import urllib.error
    import urllib.request

    broker = Mosquitto()
    page = RoomPage(broker.url, "club", port=0)
    try:
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(page.url + "../../etc/passwd")
        assert err.value.code == 404
        state = urllib.request.urlopen(page.url + "state").read()
        assert b'"room": "club"' in state
        time.sleep(0.1)
    finally:
        page.close()
        broker.close()
