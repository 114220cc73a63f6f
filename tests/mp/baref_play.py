"""Back Alley's referee mode keyed with the board's buttons, for tests (pipcore.baref): cards and their presses.

Runs under CPython and the real MicroPython (no pytest here). ``CardKeyer``
keys a card through any ``press(button, long)`` (the protocol's ``inject
press``, the simulated board's page, the Pico's own buttons) reading only
what the board shows (``state()``: the snapshot's ``backalley``): DOUBLE
until the entry shows the card's suit, TAKE until it shows the card, then
ROLL/DONE, always on the side of the seat to act. ``table_deal`` draws a
real deal with the card engine (``pipcore.backalley``, never loaded by the
board) so that the cards keyed are the cards a table would play.
"""

from bamode_play import DOUBLE, DROP, ROLL, TAKE, Keyer

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "LJ", "BJ")  # the trump suit's order
TRUMPS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3, "no trump": -1}


def suit_of(text, trump):
    """The suit a card counts in (a joker: the trump suit), from its text (``"10H"``, ``"BJ"``)."""
    return trump if text in ("LJ", "BJ") else SUITS.index(text[-1])


def rank(text):
    return RANKS.index(text if text in ("LJ", "BJ") else text[:-1])


class CardKeyer(Keyer):
    """A ``bamode_play.Keyer`` that also plays cards."""

    def card(self, text, confirm=False):
        """The seat to act plays ``text`` (``confirm``: keyed twice, a trump lead on the leader's word): DOUBLE
        to its suit, TAKE or DROP towards its rank, ROLL/DONE."""
        st = self.state()
        ref = st["referee"]
        seat = ref["to_act"]
        if ref["showing_last"]:  # the finished trick is shown: the winner's key opens the entry
            self._press(self.button(seat, TAKE))
            ref = self.state()["referee"]
        trump = TRUMPS[st["trump"]]
        for _ in range(5):
            if suit_of(ref["entry"], trump) == suit_of(text, trump):
                break
            self._press(self.button(seat, DOUBLE))
            ref = self.state()["referee"]
        for _ in range(16):
            if ref["entry"] == text:
                break
            up = rank(text) > rank(ref["entry"])
            self._press(self.button(seat, TAKE if up else DROP))
            ref = self.state()["referee"]
        if ref["entry"] != text:
            raise AssertionError("the board would not show %r (it shows %r)" % (text, ref["entry"]))
        self._press(self.button(seat, ROLL))
        if confirm:
            self._press(self.button(seat, ROLL))


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def needs_word(d, card):
    """Must the leader's word (the card keyed twice) go with ``card``? A trump led before trumps are broken
    by a leader who did not call Board: the engine lets him only when he holds nothing but trumps."""
    from pipcore.backalley import BOARD, NO_TRUMP, is_trump

    return (not d.trick and d.trump != NO_TRUMP and not d.trump_broken and is_trump(card, d.trump)
            and d.call_of(d.to_act) != BOARD)


def table_deal(seed, dealer, h):
    """A deal as a table deals it (``pipcore.backalley.Deal``), from a seeded shuffle."""
    from pipcore.backalley import deal_cards, shuffled_deck

    return deal_cards(shuffled_deck(Lcg(seed)), dealer, h)


def next_card(d, rng):
    """A legal card for the seat to act in the engine's deal ``d``, played there: ``(text, needs the word)``."""
    from pipcore.backalley import card_text

    legal = d.legal_cards()
    card = legal[rng.randrange(len(legal))]
    word = needs_word(d, card)
    d.play(d.to_act, card)
    return card_text(card), word
