"""Back Alley keyed with the board's buttons, for tests (pipcore.bamode): a game plan and its presses.

Runs under CPython and the real MicroPython (no pytest here). ``plan_game``
draws a whole game the way a table might play it: 25 counted deals plus
redeals, each a trump, four calls and the tricks each seat took (in bidding
order). ``Keyer`` keys a plan through any ``press(button, long)`` (the
protocol's ``inject press``, the simulated hands, the Pico's own buttons)
reading only what the board shows (``state()``: the snapshot's
``backalley``): the value shown is stepped with TAKE (DOUBLE for a Board or
a joker) until it reads as wanted, then confirmed with ROLL/DONE, always on
the side of the seat that keys. The rules used here (the hand sizes) are
written again from RULES.md, not taken from the firmware.
"""

from pipcore import geometry as g

SEATS = "NESW"
PASS = 0
BOARD = -1
ROLL, DOUBLE, TAKE, DROP = 0, 1, 2, 3  # a side's buttons, in geometry.BUTTON_NAMES order


def hand_size(number):
    """RULES.md 5.3: 13, 12, ..., 1, 2, ..., 13."""
    return 14 - number if number <= 13 else number - 12


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def plan_game(rng, redeal_at=(6,)):
    """A whole game: ``[(trump, calls, tricks), ...]`` in the order played; calls and tricks in bidding order
    (PASS 0, a number, BOARD -1); ``tricks`` None for a redeal (four passes). The deals numbered in
    ``redeal_at`` are passed out once before they are played."""
    return list(deals(rng, redeal_at))


def deals(rng, redeal_at=(6,)):
    """``plan_game``'s deals one at a time (a harness in the board's heap keeps no plan: 6 KB there)."""
    number = 1
    forced = list(redeal_at)
    while number <= 25:
        h = hand_size(number)
        trump = rng.randrange(5)
        if number in forced:
            forced.remove(number)
            yield trump, [PASS, PASS, PASS, PASS], None
            continue
        calls = []
        for _ in range(4):
            r = rng.randrange(12)
            if r == 0:
                calls.append(BOARD)
            elif r < 4 or h == 1:
                calls.append(PASS)
            else:
                calls.append(1 + rng.randrange(min(h - 1, 4)))
        if calls == [PASS, PASS, PASS, PASS]:
            yield trump, calls, None  # a redeal the table made by itself
            continue
        cuts = sorted([rng.randrange(h + 1) for _ in range(3)])
        tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], h - cuts[2]]
        yield trump, calls, tricks
        number += 1


def call_text(call, boards_before):
    """How the board shows a call (the k-th Board of a deal is ``Bk``)."""
    if call == PASS:
        return "P"
    if call == BOARD:
        return "B" if boards_before == 0 else "B%d" % (boards_before + 1)
    return str(call)


class Keyer:
    """Keys values on the board's buttons as a person does: step the value shown, then OK."""

    def __init__(self, press, state):
        self.press = press  # press(button, long=False)
        self.state = state  # () -> the snapshot's "backalley"
        self.presses = 0

    def button(self, seat, role):
        """A button of the side that keys for ``seat`` (N, E: black's at the top; S, W: white's)."""
        base = g.BTN_BLACK_ROLL if seat in ("N", "E") else g.BTN_WHITE_ROLL
        return base + role

    def _press(self, button, long=False):
        self.presses += 1
        self.press(button, long)

    def key(self, text):
        """Make the board show ``text`` for the seat that keys now, then confirm it."""
        st = self.state()
        seat = st.get("to_act") or "S"
        if text[0] == "B" or text == "J":
            self._press(self.button(seat, DOUBLE))
            st = self.state()
        for _ in range(20):
            if st["entry"] == text:
                break
            self._press(self.button(seat, TAKE))
            st = self.state()
        if st["entry"] != text:
            raise AssertionError("the board would not show %r (it shows %r)" % (text, st["entry"]))
        self._press(self.button(seat, ROLL))

    def deal(self, trump, calls, tricks):
        for text in deal_texts(trump, calls, tricks):
            self.key(text)


def deal_texts(trump, calls, tricks):
    """What the board shows for each key of a deal, in order: the trump, the calls, the tricks."""
    texts = ["CDHSJ"[trump]]
    boards = 0
    for call in calls:
        texts.append(call_text(call, boards))
        if call == BOARD:
            boards += 1
    for n in tricks or ():
        texts.append(str(n))
    return texts
