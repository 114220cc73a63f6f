"""The browser simulator at the table, in Debian's chromium (Playwright): a resignation and keyed-in dice.

Everything is done by clicks on the page's buttons, as on the wooden board:
a side's DROP held offers to resign and raises the offer, the other side's
TAKE accepts; physical dice are keyed in with DOUBLE and TAKE, confirmed
with ROLL, and corrected with UNDO before the first checker moves. The panel
LEDs drawn on the page are the board's own (the resignation's level and
points, the blinking keyed dice).
"""


import pytest

pytest.importorskip("pipboard.simboard", reason="the simulated board is not on this branch yet")
playwright_api = pytest.importorskip("playwright.sync_api")

from pipcore import geometry as g  # noqa: E402
from pipcore.record import read_record  # noqa: E402

from test_websim_browser import shot, sim_page, wait_phase  # noqa: E402


@pytest.fixture
def page_and_sim():
    with sim_page(7) as opened:
        yield opened


def click(page, button_id):
    page.click("#" + button_id)


def wait_table(page, text):
    page.wait_for_function("document.getElementById('table').textContent.includes(%r)" % text, timeout=10000)


def die_pips_lit(page, base):
    """Pips of the die whose first panel pixel is ``base`` lit on the page (the board's own pixels).

    Read in one evaluation: the page redraws its LEDs as frames arrive, and
    element handles read one by one could straddle two frames.
    """
    found = page.eval_on_selector_all("circle.led", "els => els.map(e => +e.dataset.pixel)")
    return sorted(p - base for p in found if base <= p < base + g.DIE_PIPS)


def wait_die(page, base, pips, timeout=10000):
    """Wait until the die at ``base`` shows exactly ``pips`` (a blinking die shows them in its lit half)."""
    want = sorted(pips)
    page.wait_for_function(
        "([base, n, want]) => { const lit = [...document.querySelectorAll('circle.led')]"
        ".map(e => +e.dataset.pixel).filter(p => p >= base && p < base + n).map(p => p - base)"
        ".sort((a, b) => a - b); return JSON.stringify(lit) === JSON.stringify(want); }",
        arg=[base, g.DIE_PIPS, want], timeout=timeout)
    return die_pips_lit(page, base)


def test_a_resignation_offered_raised_and_accepted_by_clicks(page_and_sim):
    page, sim, link = page_and_sim
    page.click("#btn-setup")
    wait_phase(page, "opening")
    link.set_dice([4, 2])
    click(page, "btn-ROLL")
    wait_phase(page, "moving")
    click(page, "btn-white-RESIGN")  # white holds his DROP: a single
    wait_table(page, "white offers to resign a single (1 point)")
    assert link.snapshot()["resign"] == {"player": 0, "level": 1, "points": 1}
    click(page, "btn-white-DROP")  # raised to a gammon
    wait_table(page, "white offers to resign a gammon (2 points)")
    two = sorted(p for p in range(g.DIE_PIPS) if g.DIE_FACE_MASKS[2] >> p & 1)
    assert two == [g.PIP_TL, g.PIP_BR]
    assert wait_die(page, g.LED_DIE_A, two) == two  # die A: the level, 2
    assert wait_die(page, g.LED_DIE_B, two) == two  # die B: the points, 2
    shot(page, "table_1_resignation.png")
    click(page, "btn-white-TAKE")  # his own TAKE is no answer
    assert link.snapshot()["resign"]["level"] == 2
    click(page, "btn-black-TAKE")  # black accepts
    wait_phase(page, "game-over")
    snap = link.snapshot()
    assert "resign" not in snap and snap["result"] == [1, 2, "gammon"] and snap["score"] == [0, 2]
    page.wait_for_function("document.getElementById('table').textContent === ''")
    record = read_record(link.record())
    assert [e for e in record.entries if e[0] in ("resign", "end")] == [("resign", 0, 2), ("end", 1, 2, 2)]
    shot(page, "table_2_resigned.png")


def test_physical_dice_keyed_in_and_corrected_by_clicks(page_and_sim):
    page, sim, link = page_and_sim
    link.new_game(options={"dice": "physical"})
    page.click("#btn-setup")
    wait_phase(page, "opening")
    click(page, "btn-ROLL")  # the entry opens: both dice blank, blinking once keyed
    wait_table(page, "dice keyed in: ?-?")
    for _ in range(5):
        click(page, "btn-white-DOUBLE")  # die A (white's die at the opening): 5
    for _ in range(2):
        click(page, "btn-black-TAKE")  # die B (black's): 2
    wait_table(page, "dice keyed in: 5-2")
    five = sorted(p for p in range(g.DIE_PIPS) if g.DIE_FACE_MASKS[5] >> p & 1)
    assert wait_die(page, g.LED_DIE_A, five) == five
    shot(page, "table_3_keyed.png")
    click(page, "btn-white-ROLL")  # confirmed: white plays 5-2
    wait_phase(page, "moving")
    assert link.snapshot()["dice"] == [5, 2]
    click(page, "btn-UNDO")  # it was 5-3 on the table: corrected before a checker moves
    wait_table(page, "correcting the dice keyed in: 5-2")
    click(page, "btn-black-TAKE")
    wait_table(page, "correcting the dice keyed in: 5-3")
    # the page's hint and the board's message name the same button
    assert "ROLL confirms, DROP keeps" in page.text_content("#table")
    assert "ROLL confirms 5-3, DROP keeps them" in link.snapshot()["message"]
    click(page, "btn-white-ROLL")
    page.wait_for_function("document.getElementById('phase').textContent.includes('dice 5-3')", timeout=10000)
    snap = link.snapshot()
    assert snap["phase"] == "moving" and snap["dice"] == [5, 3] and "keyed" not in snap
    entries = read_record(link.record()).entries
    assert entries[1:] == [("opening", 5, 2), ("unroll", 0), ("opening", 5, 3)], entries
    with pytest.raises(Exception) as exc:
        link.set_dice([1, 1])  # the dice of this match are keyed in, not set by a host
    assert "keyed in with the buttons" in str(exc.value)
    shot(page, "table_4_corrected.png")
