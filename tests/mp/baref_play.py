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


def board_state(rig):
    """``bamode_board.Rig.state()`` and referee mode's fields ``CardKeyer`` reads (``trump``; ``referee``'s
    ``to_act``, ``showing_last``, ``entry``), from the mode itself, as a person reads its LEDs (the host's
    snapshot module stays out of the heap)."""
    from pipcore.bacards import card_text
    from pipcore.bascore import trump_name

    st = rig.state()
    mode = rig.app.mode
    t = mode.ref.tricks if mode.ref is not None else None
    if t is not None:
        done = t.to_act is None
        st["trump"] = trump_name(mode.keeper.trump)
        st["referee"] = {"to_act": None if done else "NESW"[t.to_act], "showing_last": mode.ref.showing(),
                         "entry": None if done else card_text(t.entry)}
    return st


def code_text(card):
    """``"AS"``, ``"10H"``, ``"BJ"`` of a card code (written here: the board's own module would be loaded before
    its time)."""
    if card >= 52:
        return "BJ" if card == 53 else "LJ"
    return RANKS[card % 13] + SUITS[card // 13]


def game_actions(path):
    """The keys and cards of a game file (tests/test_baref_heap.py writes it: one line a deal, ``TRUMP CALLS
    CARDS``, the trump 0-3 or 4 for a joker, the calls one hex digit each in bidding order (f Board), the cards
    two hex digits each in play order, 40 added to a trump led on the leader's word; no cards: a redeal),
    North dealing first, in the order keyed: (deals counted before it, its number in the deal (the trump 0, the
    calls 1-4, the cards from 5), the action: a key's text or ``(card text, the leader's word)``)."""
    from bamode_play import call_text

    yield 0, -1, "N"
    counted = 0
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            yield counted, 0, "CDHSJ"[int(words[0])]
            boards = 0
            for i in range(4):
                call = int(words[1][i], 16)
                call = -1 if call == 15 else call
                yield counted, 1 + i, call_text(call, boards)
                boards += call == -1
            cards = words[2] if len(words) > 2 else ""
            for i in range(0, len(cards), 2):
                v = int(cards[i:i + 2], 16)
                yield counted, 5 + i // 2, (code_text(v & 63), bool(v & 64))
            if cards:
                counted += 1


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
