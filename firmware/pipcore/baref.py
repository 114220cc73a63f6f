"""Back Alley referee mode on the board: each card of a trick keyed on the buttons of the seat that plays it.

Part of the scorekeeper mode (``pipcore.bamode``), loaded only in a game whose
``referee`` option is on (the menu's item "referee", or ``new_game``'s option)
and unloaded with the mode. The keeper (``pipcore.bascore``) still takes the
trump and the calls; from the fourth call to the deal's last card the board
referees the play (``pipcore.batricks``): each card is keyed as it is played
and checked, after the fourth card of a trick its winner is shown, and the
deal's last card keys the four trick counts into the keeper by itself.

Keys: the seat to act, with its side's buttons (the other side's are refused).

    double          the next suit (clubs, diamonds, hearts, spades; a suit with no card out is skipped)
    take / drop     the next higher / lower card of the suit (held: 5 cards); the trump suit goes on to LJ, BJ
    roll/done       play the card shown (a trump led before trumps are broken: twice, on the leader's word)
    undo            take back the last card (the deal's last too: its score goes with it)
    menu            the next view: the trick, the deal, the contracts, the scores

LEDs (the "trick" view): the quadrant of the seat to act shows the card being
entered in two glyphs, its suit letter and its rank (``T`` for 10; ``LJ`` and
``BJ`` for the jokers), pulsing white, blinking red when refused; the cards
already played to the trick stay on their seats' quadrants in the team's
colour; the trick's leader has the green marker. After the fourth card every
quadrant shows its card of that trick and the winner's pulses green, with the
green marker (he leads next), until a key of the winner opens the entry. What
a host reads (the words, the snapshot's ``referee``) is made by
``pipcore.bahost``.
"""

from pipcore import batricks
from pipcore import geometry as g
from pipcore.bacards import LJ, card_text
from pipcore.bamode import (
    _BLINK,
    _GREEN,
    _LONG,
    _PULSE,
    _RED,
    _STEADY,
    _TEAM,
    _TEAM_DIM,
    _WHITE,
    QUADRANTS,
    VIEWS,
    _set,
    _text,
)
from pipcore.bascore import TRICKS

RANKS = "23456789TJQKA"  # a rank's glyph (pipcore.glyphs)
VIEWS_REF = ("trick",) + VIEWS
_KEYS = (batricks.SUIT, batricks.UP, batricks.DOWN)  # double, take, drop


def glyphs(card):
    """A card as its quadrant shows it in two glyphs: ``"H8"``, ``"ST"`` (the ten), ``"LJ"``, ``"BJ"``."""
    if card >= LJ:
        return card_text(card)
    return "CDHS"[card // 13] + RANKS[card % 13]


def played(t):
    """The cards keyed so far in the deal of ``t`` (a ``batricks.Tricks``)."""
    return 4 * sum(t.taken) + len(t.trick)


def _trim(keeper):
    """The keeper's score-sheet rows kept from the last counted deal on (``batricks`` reads that one, for undo
    and after a power cut; the board's sheet is made by a host from the keys): RAM."""
    if keeper is None:
        return
    rows = keeper._rows
    i = len(rows) - 1
    while i > 0 and len(rows[i]) <= 8:  # (a redeal's row: the deal's head only)
        i -= 1
    if i > 0:
        del rows[:i]


class Referee:
    """Referee mode inside a ``BaSession`` (``session.ref``): the deal's ``batricks.Tricks`` and its keys."""

    def __init__(self, session, saved=None):
        self.session = session
        self.tricks = None
        self.opened = False  # the winner's key opened the entry after a finished trick was shown
        k = session.keeper
        if k is not None:
            try:
                self.tricks = batricks.resume(k, saved)
            except ValueError as exc:  # a damaged part of the save: the cards are refused, the score stays
                self.tricks = batricks.current(k)
                why = "the saved cards were refused (%s): %s" % (exc, "key this deal's cards again from its first "
                                                                 "trick" if self.tricks else "undo stops here")
                session.app.load_error = why
                session.refuse(-1, why)
        self.committed = self.tricks.snapshot() if self.tricks is not None else None
        _trim(k)

    # -- where the deal is -------------------------------------------------------------------
    def playing(self):
        """True while a deal is refereed: its calls are in and its last card is not played yet."""
        k = self.session.keeper
        t = self.tricks
        return t is not None and k is not None and k.phase == TRICKS and t.to_act is not None

    def showing(self):
        """True while a finished trick is shown: its winner leads next and has not opened the entry yet."""
        t = self.tricks
        return self.playing() and not t.trick and sum(t.taken) > 0 and not self.opened

    def follow(self):
        """After every key that went in (``BaSession.commit``): the referee to go on with, and its save."""
        k = self.session.keeper
        t = self.tricks = batricks.current(k, self.tricks)
        self.committed = t.snapshot() if t is not None else None
        _trim(k)

    def restore(self):
        """The referee as last committed, for the keeper restored after a fault (``BaSession._recover``)."""
        k = self.session.keeper
        self.tricks = batricks.resume(k, self.committed) if k is not None else None
        self.opened = False

    # -- the buttons ------------------------------------------------------------------------------
    def press(self, button, kind):
        """Undo and menu (short) in referee mode, before the scorekeeper's own; True if taken here."""
        s = self.session
        if kind == _LONG or s.keeper is None:
            return False
        if button == g.BTN_MENU:
            if self.tricks is None:
                return False
            s.view = VIEWS_REF[(VIEWS_REF.index(s.shown_view()) + 1) % len(VIEWS_REF)]
            s.changes += 1
            return True
        if button != g.BTN_UNDO:
            return False
        k = s.keeper
        t = self.tricks
        before = (len(k._keys), t, played(t) if t is not None else -1)
        t, said = batricks.undo(k, t)
        if (len(k._keys), t, played(t) if t is not None else -1) == before:
            if said == "nothing to take back":
                return False  # (the scorekeeper's undo: back to choosing the first dealer, or refused)
            s.refuse(-1, said)
            return True
        self.tricks = t
        self.opened = True  # the card taken back shows in the entry, not the trick before it
        s.refused = None
        s.asked = False
        s.view = None
        s.commit()
        s.note = said
        return True

    def key(self, role, kind):
        """A key of the seat to act during the play (its side checked by the session): ``role`` 0 roll/done,
        1 double, 2 take, 3 drop."""
        s = self.session
        t = self.tricks
        if self.showing():  # the finished trick was shown: the winner's first key opens the entry
            self.opened = True
            s.changes += 1
            return
        if role == 0:
            seat = t.to_act
            n = played(t)
            said = t.press(batricks.PLAY)
            if played(t) == n:
                s.refuse(seat, said)
                return
            self.opened = False
            s.commit()  # saved; the deal's last card has keyed the tricks into the keeper
            s.note = said
            return
        if role == 1 and kind == _LONG:
            return
        for _ in range(5 if kind == _LONG else 1):
            t.press(_KEYS[role - 1])
        s.changes += 1

    # -- the LEDs ---------------------------------------------------------------------------------------
    def entry_glyphs(self):
        t = self.tricks
        return glyphs(t.entry) if t is not None and t.to_act is not None else ""

    def draw(self, px):
        """The trick view: each seat's card of the trick being played, or of the finished trick shown (between
        deals: the deal's last), the winner's pulsing green; the entry on the quadrant of the seat to act."""
        s = self.session
        t = self.tricks
        if t is None:
            return
        playing = self.playing()
        entry = -1
        winner = -1
        if playing and not self.showing():
            leader = t.trick_leader
            cards = t.trick
            entry = t.to_act
        elif sum(t.taken):
            leader, cards, winner = t.finished(sum(t.taken) - 1)
        else:
            return
        refused = s.refused
        for seat in range(4):
            quad = QUADRANTS[seat]
            team = seat & 1
            for m in range(3, 6):
                _set(px, g.led_index(quad[m], 0), _TEAM_DIM[team], _STEADY)
            if playing and seat == s.keeper.dealer:
                _set(px, g.led_index(quad[0], 0), _WHITE, _STEADY)
            if seat == (leader if winner < 0 else winner):  # who leads: this trick, or the next (its winner)
                _set(px, g.led_index(quad[1], 0), _GREEN, _STEADY)
            if seat == entry:
                bad = refused is not None and refused[0] in (seat, -1)
                colour = _RED if bad else _WHITE
                effect = _BLINK if bad else _PULSE
                _set(px, g.led_index(quad[2], 0), colour, effect)
                _text(px, quad, 2, glyphs(t.entry), colour, effect)
                continue
            if refused is not None and refused[0] == -1:
                _set(px, g.led_index(quad[2], 0), _RED, _BLINK)
            i = (seat - leader) % 4
            if i < len(cards):
                if seat == winner:
                    _text(px, quad, 2, glyphs(cards[i]), _GREEN, _PULSE)
                else:
                    _text(px, quad, 2, glyphs(cards[i]), _TEAM[team], _STEADY)
