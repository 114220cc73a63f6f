"""The simulator's Back Alley page in Debian's chromium (Playwright, never a downloaded browser).

A person plays South against three bots for a whole deal by clicks: the
calls on the call buttons, the cards from the hand (an illegal card is
refused with the engine's reason and changes nothing); the page's scores,
score sheet and record must be the engine's. Four bots play on their own;
four people at one screen see a hand only after its owner asks for it.
Screenshots go to tests/artifacts/ (PIPBOARD_DOCS_SHOT=1 refreshes
docs/backalley.png as well).
"""

import os
import shutil
import urllib.request

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from pipboard.websim import server  # noqa: E402
from pipcore.backalley import Game  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTIFACTS = os.path.join(ROOT, "tests", "artifacts")
ANY_TURN = """() => document.body.dataset.results === '1' || document.querySelector('#calls button')
                 || document.querySelector('#hand.playing button.legal')"""


@pytest.fixture
def page_and_sim():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing at %s (make setup installs it)" % CHROMIUM)
    sim = server.start(seed=2, http_port=0, protocol_port=0)
    os.makedirs(ARTIFACTS, exist_ok=True)
    errors = []
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(sim.url + "backalley?speed=0&seed=7")
            page.wait_for_selector("body[data-ready='1']", timeout=15000)
            yield page, sim
            assert not errors, errors
        finally:
            browser.close()
            sim.close()


def version(page):
    return page.evaluate("document.body.dataset.version")


def click_and_wait(page, selector):
    before = version(page)
    page.click(selector)
    page.wait_for_function("document.body.dataset.version !== %r" % before, timeout=10000)


def test_a_person_plays_a_whole_deal_against_three_bots(page_and_sim):
    page, sim = page_and_sim
    page.select_option("#mode", "one")
    page.select_option("#myseat", "S")
    page.click("#new")
    page.wait_for_function("document.body.dataset.phase === 'bidding'", timeout=10000)
    table = sim.sim.backalley.table
    assert table.people == [2]
    refused = False
    calls = cards = 0
    for _ in range(100):
        page.wait_for_function(ANY_TURN, timeout=15000)
        if page.evaluate("document.body.dataset.results") == "1":
            break
        if page.locator("#calls button").count():
            assert page.locator("#call-13").count() == 0  # no call of 13 with 13 cards is offered
            click_and_wait(page, "#call-2")
            calls += 1
            continue
        illegal = page.locator("#hand.playing button.card:not(.legal)")
        if not refused and illegal.count():
            record = table.game.record()
            illegal.first.click()
            page.wait_for_function("document.getElementById('error').textContent !== ''", timeout=5000)
            reason = page.text_content("#error")
            assert "must" in reason or "trumps are not broken" in reason, reason
            assert table.game.record() == record  # refused: nothing changed
            if not cards:
                page.screenshot(path=os.path.join(ARTIFACTS, "backalley_1_refused.png"))
            refused = True
        click_and_wait(page, "#hand.playing button.legal >> nth=0")
        cards += 1
    game = table.game
    assert calls == 1 and cards == 13 and len(game.results) == 1
    assert page.text_content("#scores") == "NS %d · EW %d" % tuple(game.scores)
    assert page.locator("#sheet table tr").count() == 2  # the header and deal 1
    last_deal = page.text_content("#lastdeal")
    assert "Deal 1 of 25 scored." in last_deal and "(total %d)" % game.scores[0] in last_deal
    path = os.path.join(ARTIFACTS, "backalley_2_deal_scored.png")
    page.screenshot(path=path)
    with urllib.request.urlopen(sim.url + "ba/sheet.txt") as r:
        sheet = r.read().decode()
    assert "   1    13" in sheet and "After 1 of 25 deals: NS %d, EW %d" % tuple(game.scores) in sheet
    with urllib.request.urlopen(sim.url + "ba/record.txt") as r:
        assert Game.from_record(r.read().decode()).scores == game.scores
    if os.environ.get("PIPBOARD_DOCS_SHOT"):
        shutil.copy(path, os.path.join(ROOT, "docs", "backalley.png"))


def test_four_bots_play_by_themselves(page_and_sim):
    page, sim = page_and_sim
    page.select_option("#mode", "bots")
    page.click("#new")
    page.wait_for_function("Number(document.body.dataset.results) >= 2", timeout=30000)
    assert not sim.sim.backalley.table.people
    assert page.locator("#hand button").count() == 0 and page.locator("#calls button").count() == 0


def test_four_people_share_the_screen_and_each_hand_stays_hidden_until_asked(page_and_sim):
    page, sim = page_and_sim
    page.select_option("#mode", "four")
    page.click("#new")
    page.wait_for_selector("#cover", state="visible", timeout=10000)
    table = sim.sim.backalley.table
    first = "NESW"[table.to_act]
    assert "Pass the screen to" in page.text_content("#cover-text")
    assert page.locator("#hand button").count() == 0  # nobody's cards show under the cover
    page.click("#reveal")
    page.wait_for_selector("#cover", state="hidden", timeout=5000)
    assert page.locator("#hand button.card").count() == 13
    assert page.get_attribute("#hand", "data-seat") == first
    click_and_wait(page, "#call-1")
    page.wait_for_selector("#cover", state="visible", timeout=5000)  # the next caller's turn: covered again
    assert "NESW"[table.to_act] != first and page.locator("#hand button").count() == 0
