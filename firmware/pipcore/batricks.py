"""Back Alley referee for the tricks of a deal played with a real pack (RULES.md 5.8).

Referee mode, optional per game (``ScoreKeeper(referee=True)``): the players
play their own cards and the board is told each card as it is played, one
at a time, in turn from the leader. It checks the card, shows the trick's
winner after the fourth, makes him the leader, and at the end of the deal
keys the tricks each seat took into the scorekeeper itself, so nobody keys
trick counts.

What it knows: the hand size, the trump suit (or no trump), the first
leader and who called Board, all from the scorekeeper, and the cards as
they are played. It never sees the hands, the turned-up card's rank or the
stock. So it checks what can be checked without them, and exactly that:

* a card is accepted if and only if there is a deal of the 54 cards (four
  hands of ``h``, a turned-up card of the trump suit, or a joker with the
  other joker out of play in a no-trump deal, and the stock) in which
  every card keyed so far, this one included, is a legal play by 5.8;
* so it refuses a card already played; a joker in a no-trump deal; a card
  of a suit the seat has shown void in (it did not follow that suit
  earlier: a revoke then, or a wrong key now), trumps and jokers counting
  as one suit; after the BJ was led and the seat followed with a trump, a
  higher trump (it had to play its highest), after the LJ a lower one;
  and whatever counting the cards rules out: the last card of the trump
  suit still out (it is the turned-up card), a seat's card when the cards
  still out cannot fill every hand with what each seat has shown, a card
  off the led suit when counting shows the seat still holds one;
* a trump led before trumps are broken by a leader who did not call Board
  is legal only if he holds nothing but trumps (5.8 (c)), which the board
  cannot see: it is refused once with the reason, and keyed again at once
  it is taken as the leader's word; from then on he is held to it (a plain
  card from him later is refused).

What it cannot check: a revoke that nothing later contradicts (a seat that
did not follow suit, or did not play its highest trump to the BJ, while
holding one, and never shows it), which seat really holds which card, and
who physically played (it asks for the seat whose turn it is). A revoke
shown later is refused on the later card, naming the trick where the void
was shown; the players settle it, and ``undo`` takes cards back.

Card entry on the buttons, four keys (``press``): ``SUIT`` the next suit,
``UP`` / ``DOWN`` the next higher / lower rank, ``PLAY`` the card shown.
The ranks of a suit are stepped from 2 to A, the trump suit going on to
LJ and BJ (the jokers belong to it), skipping cards already played. Each
entry opens on the suit led (to lead: the suit led to the last trick) at
the middle of its cards still out, so a card is two to eight presses.
``play(card)`` takes a card directly (an int or text: ``"AS"``, ``"10H"``,
``"BJ"``).

Every refusal raises ``RefereeError`` (a ``BackAlleyError``) with one line
saying why, and changes nothing. ``snapshot()`` is a small JSON-ready dict
(two hex digits a card); ``Tricks.restore`` replays it through the same
checks, so a damaged save is refused. Loaded only in referee mode.
"""

from pipcore.bacalls import BOARD, NO_TRUMP, SEAT_NAMES, SUIT_NAMES, BackAlleyError, PhaseError, _seat
from pipcore.bacards import BJ, LJ, _as_card, card_symbol, is_trump, played_suit, rank_of, trick_winner
from pipcore.bascore import OVER, TRICKS, TRUMP
from pipcore.compat import const

SNAPSHOT_VERSION = const(1)
# the four keys of the card entry
SUIT = const(0)
UP = const(1)
DOWN = const(2)
PLAY = const(3)
_ONLY = const(64)  # on a card in the log: led as a trump before trumps were broken, the leader holding only trumps
_HEX = "0123456789abcdef"
# _seen: [seat*4 + suit] the trick where the seat showed void in the suit (0: not shown); [16 + seat] the trick
# where it followed the BJ with a trump, [20 + seat] that trump's rank (none higher); [24 + seat], [28 + seat]
# the same after the LJ (none lower)


class RefereeError(BackAlleyError):
    """A card the referee refuses, or a save it cannot read; ``str()`` says why in one line."""


def _fits(seen, seat, card, trump):
    """Could ``seat`` still hold ``card`` by what it has shown (``seen``)?"""
    if card >= LJ:
        if trump == NO_TRUMP:
            return False
        suit = trump
    else:
        suit = card // 13
    if seen[seat * 4 + suit]:
        return False
    if suit == trump:
        r = rank_of(card)
        if seen[16 + seat] and r > seen[20 + seat]:
            return False
        if seen[24 + seat] and r < seen[28 + seat]:
            return False
    return True


class Tricks:
    """The tricks of one deal, keyed card by card (see the module docstring).

    ``to_act`` the seat whose card is awaited (None once all ``hand_size``
    tricks are played); ``trick`` the cards of the trick in progress, in
    order from ``trick_leader``; ``taken`` tricks per seat; ``finished(i)``
    a finished trick; ``entry`` the card the entry shows.
    """

    def __init__(self, hand_size, trump, leader, boards=(), names=None):
        if type(hand_size) is not int or hand_size < 1 or hand_size > 13:
            raise RefereeError("a hand has 1..13 cards, not %r" % (hand_size,))
        if trump not in (NO_TRUMP, 0, 1, 2, 3):
            raise RefereeError("%r is not a trump (0..3 or NO_TRUMP)" % (trump,))
        self.hand_size = hand_size
        self.trump = trump
        self.leader = _seat(leader)
        self.boards = 0  # bit per seat that called Board (it may lead trumps at any time)
        for seat in boards:
            self.boards |= 1 << _seat(seat)
        self.names = list(names) if names else list(SEAT_NAMES)
        self.keeper = None  # the ScoreKeeper fed at the end of the deal (``start``)
        self._suit = 0
        self._replay(b"")

    def _replay(self, log):
        self._log = bytearray()  # every card in order, _ONLY on a lead taken on the leader's word
        self._won = bytearray()  # the winner of each finished trick
        self._played = bytearray(54)  # the trick each card was played in (0: still out)
        self._seen = bytearray(32)
        self.trick = []
        self.trick_leader = self.leader
        self.to_act = self.leader
        self.taken = [0, 0, 0, 0]
        self.trump_broken = False
        self._confirm = -1  # a trump lead refused once: keyed again at once, it is taken
        for v in log:
            self._apply(v & 63, v & _ONLY)
        self._preset()

    def __repr__(self):
        return "<Tricks h=%d trump=%d trick %d %s>" % (self.hand_size, self.trump, len(self._won) + 1,
                                                      self.prompt())

    # -- what is awaited ------------------------------------------------------
    def done(self):
        """True once every trick of the deal is played."""
        return self.to_act is None

    def finished(self, i):
        """Finished trick ``i`` (0-based) as ``(leader, cards, winner)``."""
        leader = self.leader if i == 0 else self._won[i - 1]
        return leader, [v & 63 for v in self._log[4 * i:4 * i + 4]], self._won[i]

    def team_tricks(self):
        """Tricks taken ``[NS, EW]``."""
        t = self.taken
        return [t[0] + t[2], t[1] + t[3]]

    def prompt(self):
        """What the referee waits for, in one line (for the panel and the monitor)."""
        names = self.names
        if self.to_act is None:
            t = self.taken
            return "All %d tricks played: %s %d, %s %d, %s %d, %s %d" % (
                self.hand_size, names[0], t[0], names[1], t[1], names[2], t[2], names[3], t[3])
        head = "Trick %d of %d: %s to " % (len(self._won) + 1, self.hand_size, names[self.to_act])
        if not self.trick:
            return head + "lead"
        return head + "play (%s led %s)" % (names[self.trick_leader], card_symbol(self.trick[0]))

    def entry_text(self):
        """The card the entry shows, ``"♥8"``; ``""`` when no card is awaited."""
        return "" if self.to_act is None else card_symbol(self.entry)

    # -- the card entry ----------------------------------------------------------
    def _ring(self, suit):
        """The cards of ``suit`` still out, low to high (the trump suit's jokers on top)."""
        cards = [c for c in range(suit * 13, suit * 13 + 13) if not self._played[c]]
        if suit == self.trump:
            cards += [c for c in (LJ, BJ) if not self._played[c]]
        return cards

    def _preset(self, suit=None):
        """Open the entry on ``suit`` (default: the suit led to this trick, else to the last) or the next one
        with cards out, at the middle of its cards out."""
        if self.to_act is None:
            self.entry = -1
            return
        if suit is None:
            suit = 0
            led = self.trick[0] if self.trick else (self._log[-4] & 63 if self._log else -1)
            if led >= 0:
                suit = played_suit(led, self.trump)
        for i in range(4):
            ring = self._ring((suit + i) % 4)
            if ring:
                self._suit = (suit + i) % 4
                self.entry = ring[len(ring) // 2]
                return

    def press(self, key):
        """A key of the card entry (``SUIT``, ``UP``, ``DOWN``, ``PLAY``); returns one line. Never raises."""
        if self.to_act is None:
            return self.prompt()
        if key == PLAY:
            try:
                return self.play(self.entry)
            except BackAlleyError as exc:
                return str(exc)
        if key == SUIT:
            self._preset(self._suit + 1)
        elif key == UP or key == DOWN:
            ring = self._ring(self._suit)
            i = ring.index(self.entry) + (1 if key == UP else -1)
            self.entry = ring[i % len(ring)]
        else:
            return "%r is not a key: SUIT, UP, DOWN or PLAY" % (key,)
        self._confirm = -1
        return "%s: %s?" % (self.names[self.to_act], card_symbol(self.entry))

    # -- the checks ----------------------------------------------------------------
    def _claims(self, seat, card):
        """True if leading ``card`` needs the leader's word that he holds only trumps (5.8 (c))."""
        return (not self.trick and self.trump != NO_TRUMP and not self.trump_broken and is_trump(card, self.trump)
                and not (self.boards >> seat) & 1)

    def _constrain(self, seen, seat, card, claim):
        """Write into ``seen`` what playing ``card`` shows of the seat's hand; the kind shown (0: nothing new)."""
        trump = self.trump
        t = len(self._won) + 1
        if claim:  # he holds only trumps: void in the plain suits
            for s in range(4):
                if s != trump and not seen[seat * 4 + s]:
                    seen[seat * 4 + s] = t
            return 1
        if not self.trick:
            return 0
        led = self.trick[0]
        suit = played_suit(led, trump)
        if played_suit(card, trump) != suit:
            if not seen[seat * 4 + suit]:
                seen[seat * 4 + suit] = t
                return 2
        elif led >= LJ:  # the BJ led: his highest trump; the LJ: his lowest
            r = rank_of(card)
            i = 16 if led == BJ else 24
            if not seen[i + seat] or (r < seen[i + 4 + seat] if led == BJ else r > seen[i + 4 + seat]):
                seen[i + seat] = t
                seen[i + 4 + seat] = r
                return 3
        return 0

    def _count(self, seen, seat, card):
        """Can the cards still out (without ``card``, played by ``seat``) fill every hand and the upcard?

        Hall's condition over the four hands and the turned-up card: every
        set of them needs no more cards than the cards still out that one of
        them may hold. Returns the first set (a bit mask; 16 the upcard) that
        cannot be filled, 0 if all can.
        """
        trump = self.trump
        bins = [0] * 32
        for c in range(54):
            if self._played[c] or c == card:
                continue
            m = 16 if trump != NO_TRUMP and c < LJ and c // 13 == trump else 0
            for x in range(4):
                if _fits(seen, x, c, trump):
                    m |= 1 << x
            bins[m] += 1
        left = self.hand_size - len(self._won)
        need = [left, left, left, left, 0 if trump == NO_TRUMP else 1]
        n = len(self.trick)
        for i in range(n + 1):  # the seats that have played to this trick, and this one
            need[(self.trick_leader + i) % 4] -= 1
        for x in range(1, 32):
            want = 0
            for i in range(5):
                if (x >> i) & 1:
                    want += need[i]
            have = 0
            for m in range(1, 32):
                if m & x:
                    have += bins[m]
            if have < want:
                return x
        return 0

    def _refusal(self, seat, card, only):
        """Why ``seat`` may not play ``card`` now (one line), or None."""
        name = self.names[seat]
        sym = card_symbol(card)
        trump = self.trump
        if self._played[card]:
            return "%s is already played (trick %d)" % (sym, self._played[card])
        if card >= LJ and trump == NO_TRUMP:
            return "%s is not in play: no joker is played in a no-trump deal" % sym
        seen = self._seen
        if not _fits(seen, seat, card, trump):
            suit = played_suit(card, trump)
            t = seen[seat * 4 + suit]
            if t:
                what = "trumps" if suit == trump else SUIT_NAMES[suit]
                return "%s cannot hold %s: %s showed no %s in trick %d" % (name, sym, name, what, t)
            hi = seen[16 + seat] and rank_of(card) > seen[20 + seat]
            i = 16 if hi else 24
            r = seen[i + 4 + seat]
            other = r + 39 if r >= 13 else trump * 13 + r
            return "%s cannot hold %s: %s played %s to the %s in trick %d, so held no %s trump" % (
                name, sym, name, card_symbol(other), "BJ" if hi else "LJ", seen[i + seat], "higher" if hi else "lower")
        claim = self._claims(seat, card)
        if claim and not only:
            return ("trumps are not broken: %s may lead %s only holding nothing but trumps (key it again "
                    "to say so)" % (name, sym))
        if only and not claim:
            return "%s needs no word that %s holds only trumps" % (sym, name)
        new = bytearray(seen)
        kind = self._constrain(new, seat, card, claim)
        x = self._count(new, seat, card)
        if not x:
            return None
        if kind and not self._count(seen, seat, card):
            if kind == 1:
                return "trumps are not broken and counting the cards, %s holds a plain card: %s cannot be led" % (
                    name, sym)
            if kind == 2:
                suit = played_suit(self.trick[0], trump)
                return "%s must follow %s: counting the cards, %s still holds one" % (
                    name, "trumps" if suit == trump else SUIT_NAMES[suit], name)
            return "%s must play the %s trump: counting the cards, %s holds one %s than %s" % (
                name, "highest" if self.trick[0] == BJ else "lowest", name,
                "higher" if self.trick[0] == BJ else "lower", sym)
        if x == 16:
            return "%s is the last %s out: it is the turned-up card" % (sym, SUIT_NAMES[trump][:-1])
        return "counting the cards, %s cannot hold %s: with what every seat has shown, it is elsewhere" % (
            name, sym)

    # -- playing -------------------------------------------------------------------
    def play(self, card, only_trumps=False):
        """The seat to act plays ``card`` (an int or its text); returns one line saying what happened.

        ``only_trumps``: the leader's word that he holds only trumps, for a
        trump led before trumps are broken (the same card keyed twice in a
        row says it too). RefereeError if refused; nothing changes then.
        """
        card = _as_card(card)
        seat = self.to_act
        if seat is None:
            raise PhaseError("no card now: %s" % self.prompt())
        only = only_trumps or card == self._confirm
        why = self._refusal(seat, card, only)
        if why:
            self._confirm = card if self._claims(seat, card) and not only else -1
            raise RefereeError(why)
        self._apply(card, _ONLY if self._claims(seat, card) else 0)
        self._preset()
        name = self.names[seat]
        if self.trick:
            return "%s plays %s" % (name, card_symbol(card))
        leader, cards, winner = self.finished(len(self._won) - 1)
        team = self.team_tricks()
        said = "%s plays %s. Trick %d to %s with %s (NS %d, EW %d)" % (
            name, card_symbol(card), len(self._won), self.names[winner], card_symbol(cards[(winner - leader) % 4]),
            team[0], team[1])
        if self.to_act is None:
            said += ". " + self.prompt()
            if self.keeper is not None and self.fits(self.keeper):
                feed(self, self.keeper)
        return said

    def _apply(self, card, only):
        """Play a checked card: what it shows, the trick, and after the fourth card its winner."""
        seat = self.to_act
        self._constrain(self._seen, seat, card, only)
        self._played[card] = len(self._won) + 1
        self._log.append(card | only)
        self.trick.append(card)
        if is_trump(card, self.trump):
            self.trump_broken = True
        self._confirm = -1
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = trick_winner(self.trick, self.trick_leader, self.trump)
        self._won.append(winner)
        self.taken[winner] += 1
        self.trick = []
        self.trick_leader = self.to_act = None if len(self._won) == self.hand_size else winner

    def undo(self):
        """Take back the last card keyed; the card, or -1 if there is none."""
        if not self._log:
            return -1
        card = self._log[-1] & 63
        self._replay(self._log[:-1])
        self._preset(played_suit(card, self.trump))
        self.entry = card
        return card

    # -- the scorekeeper ----------------------------------------------------------
    def fits(self, keeper):
        """True if ``keeper`` waits for the tricks of this very deal (none keyed yet)."""
        return (keeper.phase == TRICKS and not keeper.keyed_tricks and keeper.hand_size == self.hand_size
                and keeper.trump == self.trump and keeper.leader == self.leader and self.boards == _boards(keeper))

    # -- the state save ---------------------------------------------------------------
    def snapshot(self):
        """The deal's tricks as a small JSON-ready dict (``restore`` reads it back)."""
        boards = "".join(SEAT_NAMES[s] for s in range(4) if (self.boards >> s) & 1)
        cards = "".join(_HEX[v >> 4] + _HEX[v & 15] for v in self._log)
        return {"batricks": SNAPSHOT_VERSION, "h": self.hand_size, "trump": self.trump,
                "leader": SEAT_NAMES[self.leader], "boards": boards, "cards": cards}

    @classmethod
    def restore(cls, snap, names=None):
        """The tricks of a ``snapshot()``, every card checked again; RefereeError if the save is damaged."""
        if type(snap) is not dict or snap.get("batricks") != SNAPSHOT_VERSION:
            raise RefereeError("not a Back Alley referee save (version %d)" % SNAPSHOT_VERSION)
        cards = snap.get("cards")
        boards = snap.get("boards")
        if type(cards) is not str or len(cards) % 2 or type(boards) is not str:
            raise RefereeError("the referee save is damaged: no cards or Board callers")
        try:
            t = cls(snap.get("h"), snap.get("trump"), snap.get("leader"), boards, names)
        except BackAlleyError as exc:
            raise RefereeError("the referee save is damaged: %s" % exc) from None
        for i in range(0, len(cards), 2):
            hi = _HEX.find(cards[i])
            lo = _HEX.find(cards[i + 1])
            v = hi * 16 + lo
            if hi < 0 or lo < 0 or v & 128 or v & 63 > 53:
                raise RefereeError("the referee save is damaged: card %d is %r" % (i // 2 + 1, cards[i:i + 2]))
            try:
                if t.to_act is None:
                    raise PhaseError("more cards than the deal has")
                why = t._refusal(t.to_act, v & 63, v & _ONLY)
                if why:
                    raise RefereeError(why)
            except BackAlleyError as exc:
                raise RefereeError("the referee save is damaged at card %d: %s" % (i // 2 + 1, exc)) from None
            t._apply(v & 63, v & _ONLY)
        t._preset()
        return t


def _boards(keeper):
    b = 0
    for seat in range(4):
        if keeper.call_of(seat) == BOARD:
            b |= 1 << seat
    return b


# -- referee mode on a scorekeeper (the board's hook) -----------------------------------------------
def start(keeper):
    """The referee of the keeper's deal in play (its calls all keyed, no tricks yet), fed at its end."""
    if keeper.phase != TRICKS or keeper.keyed_tricks:
        raise PhaseError("no deal is being played: %s" % keeper.prompt())
    t = Tricks(keeper.hand_size, keeper.trump, keeper.leader, [s for s in range(4) if (_boards(keeper) >> s) & 1],
               keeper.names)
    t.keeper = keeper
    return t


def current(keeper, tricks=None):
    """The referee to go on with after any key of the keeper: ``tricks`` while it fits, a new one when a
    deal's play begins, the last deal's kept (for ``undo``) until then; None outside referee mode."""
    if not getattr(keeper, "referee", False):
        return None
    if keeper.phase == TRICKS and not keeper.keyed_tricks:
        if tricks is not None and tricks.keeper is keeper and tricks.fits(keeper):
            return tricks
        return start(keeper)
    return tricks


def feed(tricks, keeper):
    """Key the tricks each seat took into ``keeper``, in its order (the deal is then scored)."""
    if not tricks.done() or not tricks.fits(keeper):
        raise PhaseError("the keeper does not wait for these tricks: %s" % keeper.prompt())
    for _ in range(4):
        keeper.key_tricks(tricks.taken[keeper.to_act])


def _same(tricks, row):
    """True if ``row`` (a score-sheet row) is the deal ``tricks`` refereed to its end."""
    return (tricks.done() and row is not None and not row.redeal and row.taken == tricks.taken
            and row.hand_size == tricks.hand_size and row.trump == tricks.trump and row.leader == tricks.leader)


def undo(keeper, tricks):
    """The undo key in referee mode: the last card (even the deal's last, its score taken back with it),
    else the keeper's last key. Returns ``(tricks to go on with, one line)``."""
    row = keeper.last_row()
    ended = keeper.phase in (TRUMP, OVER) and row is not None and not row.redeal  # the last key ended a deal
    if tricks is not None and tricks.keeper is keeper:
        if tricks.fits(keeper) and tricks._log:
            card = tricks.undo()
            return tricks, "%s taken back: %s" % (card_symbol(card), tricks.prompt())
        if ended and _same(tricks, row):
            for _ in range(4):
                keeper.undo()
            card = tricks.undo()
            return tricks, "%s taken back, and the deal's score: %s" % (card_symbol(card), tricks.prompt())
    if ended and getattr(keeper, "referee", False):
        return tricks, "deal %d was refereed card by card and its cards are no longer kept: undo stops here" % (
            row.number)
    if not keeper.undo():
        return tricks, "nothing to take back"
    return current(keeper, tricks), "taken back: %s" % keeper.prompt()


def resume(keeper, snap):
    """The referee after a power cut: ``snap`` (a ``snapshot()`` or None) checked against the keeper.

    The save holds the deal in play, or the last one refereed (kept for
    ``undo``); RefereeError if it is damaged or neither.
    """
    if snap is None:
        return current(keeper)
    t = Tricks.restore(snap, keeper.names)
    t.keeper = keeper
    if t.fits(keeper):
        if t.done():
            feed(t, keeper)
        return t
    counted = [row for row in keeper.rows if not row.redeal]
    if not counted or not _same(t, counted[-1]):
        raise RefereeError("the referee save is not this game's: %s" % keeper.prompt())
    return current(keeper, t)
