"""Back Alley without the cards: seats, the schedule, calls, contracts, the opening lead, scores (RULES.md 5).

The part of the rules a scorekeeper needs (``pipcore.bascore``: the board
keeping the score of a game played with a real pack) without loading the
card engine; ``pipcore.backalley`` imports and re-exports all of it, so the
engine and the scorekeeper apply one set of rules.

* Seats are N, E, S, W = 0..3 clockwise; teams NS = 0 and EW = 1 (a seat's
  team is ``seat % 2``).
* Calls: ``PASS`` (0), a number ``1..h-1``, ``BOARD`` (-1).
* Suits: clubs, diamonds, hearts, spades = 0..3; ``NO_TRUMP`` (-1) for a
  deal whose upcard is a joker.
"""

from pipcore.compat import const

# -- seats and teams --------------------------------------------------------
N = const(0)
E = const(1)
S = const(2)
W = const(3)
SEAT_NAMES = "NESW"
NS = const(0)
EW = const(1)
TIE = const(-1)  # the winner when the final scores are equal
TEAM_NAMES = ("NS", "EW")

# -- suits ------------------------------------------------------------------------
CLUBS = const(0)
DIAMONDS = const(1)
HEARTS = const(2)
SPADES = const(3)
NO_TRUMP = const(-1)  # the trump of a deal whose upcard is a joker
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

# -- deals and calls ----------------------------------------------------------
DEALS = const(25)
MAX_HAND = const(13)
PASS = const(0)
BOARD = const(-1)
BOARD_NAMES = ("board", "double board", "triple board", "quadruple board")


class BackAlleyError(ValueError):
    """Base of every Back Alley refusal; ``str()`` says what is wrong."""


class CallError(BackAlleyError):
    """A call the bidding rules do not allow (5.6)."""


class TurnError(BackAlleyError):
    """An action by a seat that is not the one to act."""


class PhaseError(BackAlleyError):
    """An action the game is not waiting for (a card during the bidding...)."""


def _shown(value):
    """``repr`` of a refused input, cut short so a long one cannot flood a message."""
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "..."


# -- the schedule (5.3) ---------------------------------------------------------------
def hand_size(number):
    """Cards per player in counted deal ``number`` (1..25): 13, 12, ..., 1, ..., 12, 13."""
    if type(number) is not int or number < 1 or number > DEALS:
        raise BackAlleyError("deal %r does not exist: a game has deals 1..%d" % (number, DEALS))
    return 14 - number if number <= 13 else number - 12


# -- calls (5.6) ------------------------------------------------------------------------
def call_text(call):
    """``"Pass"``, ``"Board"`` or the number."""
    if call == PASS:
        return "Pass"
    if call == BOARD:
        return "Board"
    return str(call)


def parse_call(text):
    """A call from text: ``"pass"``/``"p"``, ``"board"``/``"b"``, or a number."""
    if type(text) is not str:
        raise CallError("%s is not a call (say Pass, Board or a number)" % _shown(text))
    t = text.strip().lower()
    if t in ("pass", "p"):
        return PASS
    if t in ("board", "b"):
        return BOARD
    if 0 < len(t) <= 4 and not [ch for ch in t if ch < "0" or ch > "9"]:  # ASCII digits only
        value = int(t)
        if value > 0:
            return value
    raise CallError("%s is not a call (say Pass, Board or a number)" % _shown(text))


def _as_call(call):
    if type(call) is str:
        return parse_call(call)
    if type(call) is not int:
        raise CallError("%s is not a call (say Pass, Board or a number)" % _shown(call))
    return call


def legal_calls(h):
    """Every call allowed with ``h`` cards: Pass, 1..h-1, Board (5.6, [I-33])."""
    return [PASS] + list(range(1, h)) + [BOARD]


def check_call(call, h):
    """Raise CallError unless ``call`` is allowed with ``h`` cards."""
    if call == PASS or call == BOARD:
        return
    if type(call) is not int or call < 0:
        raise CallError("%s is not a call (say Pass, Board or a number)" % _shown(call))
    if h == 1:
        raise CallError("%d is not a legal call with 1 card (only Pass or Board)" % call)
    if call >= h:
        raise CallError("%d is not a legal call with %d cards (at most %d)" % (call, h, h - 1))


class Contract:
    """A team's contract for one deal: ``board`` multiplier (0 for none) or ``tricks`` to take."""

    def __init__(self, tricks=0, board=0):
        self.tricks = tricks
        self.board = board

    def __eq__(self, other):
        return isinstance(other, Contract) and self.tricks == other.tricks and self.board == other.board

    def __repr__(self):
        return "Contract(tricks=%d, board=%d)" % (self.tricks, self.board)

    def text(self):
        """``"board x2"`` or the number of tricks."""
        return "board x%d" % self.board if self.board else str(self.tricks)

    def score(self, taken, h):
        """Points for taking ``taken`` of ``h`` tricks (5.9)."""
        if self.board:
            return 10 * h * self.board if taken == h else -10 * h * self.board
        if taken >= self.tricks:
            return 5 * self.tricks + taken - self.tricks
        return -5 * self.tricks


def contracts(calls, first_bidder):
    """``[NS contract, EW contract]`` from the four calls in bidding order ([I-30])."""
    result = [Contract(), Contract()]
    boards = 0
    for i in range(len(calls)):
        team = result[(first_bidder + i) % 2]
        call = calls[i]
        if call == BOARD:
            boards += 1
            team.board = boards  # the k-th board is k-fold; a later one is always larger
        elif call != PASS:
            team.tricks += call
    for team in result:
        if team.board:
            team.tricks = 0  # the partner's number no longer matters
    return result


def opening_leader(calls, first_bidder):
    """Seat leading to the first trick (5.7); None when every call was Pass."""
    best = None
    best_call = PASS
    for i in range(len(calls)):
        call = calls[i]
        if call == BOARD:
            best, best_call = i, BOARD  # the last Board call wins
        elif call != PASS and best_call != BOARD and call > best_call:
            best, best_call = i, call  # strictly higher: the first of equal numbers keeps the lead
    return None if best is None else (first_bidder + best) % 4


def _seat(seat):
    if type(seat) is str and len(seat) == 1 and seat.upper() in SEAT_NAMES:
        return SEAT_NAMES.index(seat.upper())
    if type(seat) is not int or seat < 0 or seat > 3:
        raise TurnError("%s is not a seat (N, E, S, W or 0..3)" % _shown(seat))
    return seat


def seat_name(seat):
    """``"N"``, ``"E"``, ``"S"`` or ``"W"``."""
    return SEAT_NAMES[seat]


def game_winner(scores):
    """NS or EW for the higher of the final ``[NS, EW]`` scores; TIE when equal ([I-32])."""
    if scores[NS] == scores[EW]:
        return TIE
    return NS if scores[NS] > scores[EW] else EW
