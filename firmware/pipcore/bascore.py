"""Back Alley scorekeeper: the score of a game played with a real pack (RULES.md section 5).

The players shuffle, deal, call and play with their own cards; the board is
told, one key at a time, what it cannot see, and keeps the rest: the deal
number and hand size (5.3), the dealer, the calls and who may make them
(5.6), the team contracts and the opening leader (5.7), the score (5.9), the
redeals and the end of the game (5.10). The rules themselves come from
``pipcore.bacalls`` (the part of ``pipcore.backalley`` without the cards);
this module only sequences them.

The keys of one deal, in order:

1. ``key_trump(t)``: the turned-up card's suit (``CLUBS`` .. ``SPADES``) or
   ``NO_TRUMP`` for a joker (text also: ``"S"``, ``"spades"``, ``"joker"``);
2. ``key_call(call)`` for each seat in turn from the dealer's left
   (``to_act``): ``PASS``, a number ``1..h-1`` or ``BOARD``; anything else is
   refused with ``CallError`` (5.6). Four passes: a redeal with the same hand
   size by the next dealer, not counted;
3. ``key_tricks(n)`` for each seat in the same order: the tricks it took;
   the fourth must bring the total to ``h`` (the number of tricks of the deal).

Then the deal is scored and the next begins. In referee mode (``referee=True``,
an option per game) the board is told the cards of each trick instead and
``pipcore.batricks`` keys the tricks. ``undo()`` takes back the last
key, also across the end of a deal. Every refusal raises a ``BackAlleyError``
saying what is wrong and changes nothing.

The whole state is the keys (one hex digit each), the first dealer and the
seat names: ``snapshot()`` is a small dict for the board's state save (a whole
game is under 500 bytes of JSON) and ``ScoreKeeper.restore(snap)`` replays it
through the same checks, so a damaged save is refused, never half-loaded.
"""

from pipcore.bacalls import (
    BOARD,
    DEALS,
    EW,
    NO_TRUMP,
    NS,
    PASS,
    SEAT_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    BackAlleyError,
    PhaseError,
    _seat,
    call_text,
    check_call,
    contracts,
    game_winner,
    hand_size,
    opening_leader,
    parse_call,
)
from pipcore.compat import const

# phases: what the keeper waits for
TRUMP = const(0)
CALLING = const(1)
TRICKS = const(2)
OVER = const(3)
PHASE_NAMES = ("trump", "calling", "tricks", "game over")

SNAPSHOT_VERSION = const(1)
DEFAULT_NAMES = ("North", "East", "South", "West")
MAX_NAME = const(16)
_NT_KEY = const(4)  # the key of a joker upcard
_BOARD_KEY = const(15)  # the key of a Board call
_HEX = "0123456789abcdef"


class ScoreError(BackAlleyError):
    """A key the score sheet cannot take (tricks that do not add up, a damaged save...)."""


def parse_trump(value):
    """A trump from a key: 0..3, ``NO_TRUMP``, or text (``"S"``, ``"spades"``, ``"♠"``, ``"joker"``, ``"NT"``)."""
    if type(value) is int:
        if value == NO_TRUMP or 0 <= value <= 3:
            return value
    elif type(value) is str:
        t = value.strip().lower()
        if t in ("j", "joker", "nt", "no trump", "notrump", "none", "bj", "lj"):
            return NO_TRUMP
        for suit in range(4):
            if t in (SUIT_LETTERS[suit].lower(), SUIT_NAMES[suit], SUIT_NAMES[suit][:-1], SUIT_SYMBOLS[suit]):
                return suit
    raise ScoreError("%r is not a trump: key a suit (C, D, H, S) or J for a joker (no trump)" % (value,))


def trump_name(trump):
    """``"spades"`` ... or ``"no trump"``; ``"-"`` before it is keyed."""
    if trump is None:
        return "-"
    return "no trump" if trump == NO_TRUMP else SUIT_NAMES[trump]


def _names(names):
    if names is None:
        return list(DEFAULT_NAMES)
    if type(names) not in (list, tuple) or len(names) != 4:
        raise ScoreError("give four seat names, N, E, S, W")
    result = []
    for name in names:
        if type(name) is not str or not name.strip() or len(name.strip()) > MAX_NAME:
            raise ScoreError("a seat name is 1..%d characters, not %r" % (MAX_NAME, name))
        result.append(name.strip())
    return result


class DealRow:
    """One line of the score sheet: a counted deal, or a redeal (``taken`` None: all four passed).

    Made on demand from the keeper's compact rows (``ScoreKeeper.rows``).
    """

    def __init__(self, packed):
        self.number, self.dealer, self.hand_size, trump = packed[0], packed[1], packed[2], packed[3]
        self.trump = NO_TRUMP if trump == _NT_KEY else trump
        self.calls = list(packed[4:8])  # in bidding order, from the dealer's left
        self.taken = None  # tricks per seat N, E, S, W
        self.contracts = None  # [NS, EW] Contract
        self.leader = None
        self.points = None  # this deal's [NS, EW]
        self.totals = None  # the running [NS, EW] after it
        if len(packed) > 8:
            self.taken = list(packed[8:12])
            self.points = [packed[12], packed[13]]
            self.totals = [packed[14], packed[15]]
            self.leader = packed[16]
            self.contracts = contracts(self.calls, (self.dealer + 1) % 4)

    @property
    def redeal(self):
        return self.taken is None

    def call_of(self, seat):
        return self.calls[(seat - self.dealer - 1) % 4]

    def __repr__(self):
        if self.redeal:
            return "<DealRow %d redeal dealer=%s>" % (self.number, SEAT_NAMES[self.dealer])
        return "<DealRow %d dealer=%s NS %+d EW %+d>" % (self.number, SEAT_NAMES[self.dealer], self.points[NS],
                                                         self.points[EW])


class ScoreKeeper:
    """A Back Alley game kept from the keys of a real game (see the module docstring)."""

    keep_rows = True  # the score sheet's rows (``rows``); the board's own keeper keeps none (its RAM)

    def __init__(self, first_dealer, names=None, referee=False):
        self.first_dealer = _seat(first_dealer)
        self.names = _names(names)
        self.referee = referee is True  # the tricks refereed card by card (pipcore.batricks), not keyed
        self._keys = bytearray()
        self._start()

    def _start(self):
        self.number = 1  # the counted deal being keyed (DEALS + 1 once over)
        self.dealer = self.first_dealer
        self.scores = [0, 0]
        # one tuple of ints per counted deal and per redeal, in order (DealRow reads them): number, dealer,
        # h, trump key, the four calls; then for a counted deal the tricks per seat, points, totals, leader
        self._rows = []
        self.redeals = 0
        self.phase = TRUMP
        self._new_deal()

    def _new_deal(self):
        self.hand_size = hand_size(min(self.number, DEALS))
        self.trump = None
        self.calls = []  # in bidding order from the dealer's left
        self.keyed_tricks = []  # in the same order
        self.contracts = None  # [NS, EW] once the four calls are in
        self.leader = None

    def __repr__(self):
        return "<ScoreKeeper deal %d/%d dealer=%s NS %d EW %d %s>" % (
            min(self.number, DEALS), DEALS, SEAT_NAMES[self.dealer], self.scores[NS], self.scores[EW],
            PHASE_NAMES[self.phase])

    # -- who acts ------------------------------------------------------------
    @property
    def first_bidder(self):
        return (self.dealer + 1) % 4

    @property
    def to_act(self):
        """The seat whose call or tricks are keyed next; None for the trump and after the game."""
        if self.phase == CALLING:
            return (self.dealer + 1 + len(self.calls)) % 4
        if self.phase == TRICKS:
            return (self.dealer + 1 + len(self.keyed_tricks)) % 4
        return None

    def legal_calls(self):
        """The calls the seat to act may make (5.6); [] outside the calling."""
        if self.phase != CALLING:
            return []
        return [PASS] + list(range(1, self.hand_size)) + [BOARD]

    def call_of(self, seat):
        """The call ``seat`` made in this deal, or None before it."""
        i = (seat - self.dealer - 1) % 4
        return self.calls[i] if i < len(self.calls) else None

    def tricks_of(self, seat):
        """The tricks keyed for ``seat`` in this deal, or None before they are."""
        i = (seat - self.dealer - 1) % 4
        return self.keyed_tricks[i] if i < len(self.keyed_tricks) else None

    def is_over(self):
        return self.phase == OVER

    def winner(self):
        """NS, EW or TIE after the 25th counted deal (5.10)."""
        if self.phase != OVER:
            raise PhaseError("the game is not over: deal %d of %d" % (self.number, DEALS))
        return game_winner(self.scores)

    def prompt(self):
        """What the keeper waits for, in one line."""
        if self.phase == OVER:
            w = self.winner()
            if w < 0:
                return "Game over: a tie at %d" % self.scores[NS]
            return "Game over: %s win %d to %d" % (("NS", "EW")[w], self.scores[w], self.scores[1 - w])
        head = "Deal %d of %d, %d card%s, dealer %s: " % (self.number, DEALS, self.hand_size,
                                                        "" if self.hand_size == 1 else "s", self.names[self.dealer])
        if self.phase == TRUMP:
            return head + "key the trump (the turned-up card's suit, or joker)"
        name = self.names[self.to_act]
        if self.phase == CALLING:
            if self.hand_size == 1:
                return head + "%s calls (Pass or Board)" % name
            return head + "%s calls (Pass, 1-%d or Board)" % (name, self.hand_size - 1)
        return head + "tricks taken by %s (0-%d)" % (name, self.hand_size - sum(self.keyed_tricks))

    # -- keys ------------------------------------------------------------------
    def key_trump(self, trump):
        """The turned-up card: a suit, or ``NO_TRUMP`` for a joker (5.4)."""
        trump = parse_trump(trump)
        self._expect(TRUMP, "the trump")
        self._key(_NT_KEY if trump == NO_TRUMP else trump)

    def key_call(self, call):
        """The call of the seat to act: ``PASS``, a number or ``BOARD`` (or their text)."""
        if type(call) is str:
            call = parse_call(call)
        self._expect(CALLING, "a call")
        check_call(call, self.hand_size)  # refused with the bidding's own message (5.6)
        self._key(_BOARD_KEY if call == BOARD else call)

    def key_tricks(self, n):
        """The tricks the seat to act took this deal."""
        if type(n) is str and n.strip().isdigit():
            n = int(n.strip())
        if type(n) is not int or n < 0:
            raise ScoreError("%r is not a number of tricks" % (n,))
        self._expect(TRICKS, "the tricks")
        if n > self.hand_size:
            raise ScoreError("%s cannot have taken %d tricks: a deal of %d cards has %d tricks"
                             % (self.names[self.to_act], n, self.hand_size, self.hand_size))
        self._key(n)

    def _expect(self, phase, what):
        if self.phase != phase:
            raise PhaseError("not %s now: %s" % (what, self.prompt()))

    def _key(self, value):
        """Apply one key (already checked for its phase); refused keys change nothing."""
        phase = self.phase
        if phase == TRUMP:
            if value > _NT_KEY:
                raise ScoreError("key %d is not a trump" % value)
            self.trump = NO_TRUMP if value == _NT_KEY else value
            self.phase = CALLING
        elif phase == CALLING:
            call = BOARD if value == _BOARD_KEY else value
            check_call(call, self.hand_size)
            self.calls.append(call)
            if len(self.calls) == 4:
                self._calls_done()
        elif phase == TRICKS:
            h = self.hand_size
            total = value
            for n in self.keyed_tricks:
                total += n
            if value > h or total > h:
                raise ScoreError("that makes %d tricks, but a deal of %d cards has only %d" % (total, h, h))
            if len(self.keyed_tricks) == 3 and total != h:
                raise ScoreError("the four seats took %d tricks, but a deal of %d cards has %d: count again "
                                 "(undo corrects an earlier seat)" % (total, h, h))
            self.keyed_tricks.append(value)
            if len(self.keyed_tricks) == 4:
                self._score()
        else:
            raise PhaseError("the game is over after %d deals" % DEALS)
        self._keys.append(value)

    def _calls_done(self):
        leader = opening_leader(self.calls, self.first_bidder)
        if leader is None:  # four passes: the next dealer deals again, same hand size ([I-26])
            if self.keep_rows:
                self._rows.append(self._head())
            self.redeals += 1
            self.dealer = (self.dealer + 1) % 4
            self.phase = TRUMP
            self._new_deal()
            return
        self.contracts = contracts(self.calls, self.first_bidder)
        self.leader = leader
        self.phase = TRICKS

    def _score(self):
        h = self.hand_size
        taken = [0, 0, 0, 0]
        for i in range(4):
            taken[(self.first_bidder + i) % 4] = self.keyed_tricks[i]
        team = (taken[0] + taken[2], taken[1] + taken[3])
        points = [self.contracts[NS].score(team[NS], h), self.contracts[EW].score(team[EW], h)]
        self.scores[NS] += points[NS]
        self.scores[EW] += points[EW]
        if self.keep_rows:
            self._rows.append(self._head() + tuple(taken) + (points[NS], points[EW], self.scores[NS],
                                                             self.scores[EW], self.leader))
        self.number += 1
        self.dealer = (self.dealer + 1) % 4
        self.phase = OVER if self.number > DEALS else TRUMP
        self._new_deal()

    def _head(self):
        c = self.calls
        return (self.number, self.dealer, self.hand_size, _NT_KEY if self.trump == NO_TRUMP else self.trump,
                c[0], c[1], c[2], c[3])

    @property
    def rows(self):
        """The score sheet so far: a ``DealRow`` per counted deal and per redeal, in order."""
        return [DealRow(packed) for packed in self._rows]

    def last_row(self):
        """The ``DealRow`` of the last deal scored or redealt, or None."""
        return DealRow(self._rows[-1]) if self._rows else None

    def undo(self):
        """Take back the last key (a call, tricks, a trump, even the end of a deal); False if none."""
        if not self._keys:
            return False
        keys = self._keys[:-1]
        self._replay(keys)
        return True

    def _replay(self, keys):
        self._keys = bytearray()
        self._start()
        for value in keys:
            self._key(value)

    # -- the state save -------------------------------------------------------------
    def keys_text(self):
        """Every key so far, one hex digit each (trump 0-3 or 4 joker; call 0 pass, 1-12, f board; tricks)."""
        return "".join(_HEX[v] for v in self._keys)

    def snapshot(self):
        """The whole game as a small JSON-ready dict (``restore`` reads it back)."""
        snap = {"backalley": SNAPSHOT_VERSION, "first": SEAT_NAMES[self.first_dealer], "names": list(self.names),
                "keys": self.keys_text()}
        if self.referee:
            snap["referee"] = True
        return snap

    @classmethod
    def restore(cls, snap):
        """The game of a ``snapshot()``, every key replayed through the checks; ScoreError if it is damaged."""
        if type(snap) is not dict or snap.get("backalley") != SNAPSHOT_VERSION:
            raise ScoreError("not a Back Alley scorekeeper save (version %d)" % SNAPSHOT_VERSION)
        keys = snap.get("keys")
        if type(keys) is not str:
            raise ScoreError("the save has no keys")
        referee = snap.get("referee", False)
        if type(referee) is not bool:
            raise ScoreError("the save is damaged: referee is %r, not true or false" % (referee,))
        try:
            keeper = cls(snap.get("first"), snap.get("names"), referee)
        except BackAlleyError as exc:
            raise ScoreError("the save is damaged: %s" % exc) from None
        for i in range(len(keys)):
            value = _HEX.find(keys[i])
            if value < 0:
                raise ScoreError("the save is damaged: key %d is %r, not a hex digit" % (i + 1, keys[i]))
            try:
                keeper._key(value)
            except BackAlleyError as exc:
                raise ScoreError("the save is damaged at key %d: %s" % (i + 1, exc)) from None
        return keeper


def call_short(call, k=1):
    """A call as a score sheet writes it: ``P``, ``3``, ``B`` (``B2`` for the second board of a deal...)."""
    if call == PASS:
        return "P"
    if call == BOARD:
        return "B" if k == 1 else "B%d" % k
    return call_text(call)


def board_folds(calls):
    """For each call of ``calls`` (bidding order), the k of a k-fold board, else 0."""
    result = []
    k = 0
    for call in calls:
        if call == BOARD:
            k += 1
            result.append(k)
        else:
            result.append(0)
    return result

