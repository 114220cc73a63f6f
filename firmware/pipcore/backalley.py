"""Back Alley, the four-player trick-taking card game (RULES.md section 5).

A pure rules engine: no I/O, no clock. Randomness comes only from a
caller-supplied ``rng`` (anything with ``randrange(n)``: ``random.Random``
on CPython, the ``random`` module on MicroPython) or from a shuffled deck
the caller passes to ``Game.deal``.

* Cards are small ints: ``suit * 13 + rank`` (suits clubs, diamonds, hearts,
  spades = 0..3; ranks 2..A = 0..12), Little Joker 52, Big Joker 53. Their
  text forms round-trip: ``card_text`` gives ``"AS"``, ``"10H"``, ``"LJ"``,
  ``"BJ"``; ``card_symbol`` gives RULES.md's ``"♠A"``; ``parse_card`` reads
  both (and ``"A♠"``, ``"TH"``, any case).
* Seats are N, E, S, W = 0..3 clockwise; teams NS = 0 and EW = 1 (a seat's
  team is ``seat % 2``).
* ``Deal`` referees one deal: bidding, then ``h`` tricks. ``Game`` runs the
  25 counted deals with the dealer rotation, redeals and scores.
* The schedule, calls, contracts, opening lead and scores live in
  ``pipcore.bacalls`` (the part a scorekeeper needs without the cards), the
  cards, trumps and trick winners in ``pipcore.bacards`` (the part a referee
  needs without the hands); both are re-exported here.

Every refused action raises a subclass of ``BackAlleyError`` (a
``ValueError``) whose message says what is wrong, and changes nothing.
"""

from pipcore.bacalls import (  # noqa: F401  (the calls and scores, re-exported: one API for the engine)
    BOARD,
    BOARD_NAMES,
    CLUBS,
    DEALS,
    DIAMONDS,
    EW,
    HEARTS,
    MAX_HAND,
    NO_TRUMP,
    NS,
    PASS,
    SEAT_NAMES,
    SPADES,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TEAM_NAMES,
    TIE,
    BackAlleyError,
    CallError,
    Contract,
    E,
    N,
    PhaseError,
    S,
    TurnError,
    W,
    _as_call,
    _seat,
    _shown,
    call_text,
    check_call,
    contracts,
    game_winner,
    hand_size,
    legal_calls,
    opening_leader,
    parse_call,
    seat_name,
)
from pipcore.bacards import (  # noqa: F401  (the cards, re-exported likewise)
    BJ,
    DECK_SIZE,
    LJ,
    RANK_TEXTS,
    CardError,
    _as_card,
    _check_card,
    card_power,
    card_symbol,
    card_text,
    is_trump,
    parse_card,
    played_suit,
    rank_of,
    suit_of,
    trick_winner,
    trump_of,
)
from pipcore.compat import const

# phases
DEALING = const(0)  # Game: waiting for the next deal
BIDDING = const(1)
PLAYING = const(2)
FINISHED = const(3)  # Deal: every trick played
PASSED_OUT = const(4)  # Deal: all four passed, to be redealt
GAME_OVER = const(5)  # Game: 25 counted deals played
RECORD_HEADER = "backalley 1"
_OP_DEAL = const(0xD0)
_OP_BID = const(0xB0)
_OP_PLAY = const(0xC0)
PHASE_NAMES = ("dealing", "bidding", "playing", "finished", "passed out", "game over")


class DeckError(BackAlleyError):
    """A deck or a set of hands that cannot come from one 54-card pack."""


class PlayError(BackAlleyError):
    """A card the player does not hold or may not play (5.8)."""


class RecordError(BackAlleyError):
    """A game record that cannot be read or replayed; the message names the line."""


# -- cards ------------------------------------------------------------------
def parse_cards(text):
    """A list of cards from text separated by spaces or commas: ``"AS LJ 10H"``."""
    return [parse_card(word) for word in text.replace(",", " ").split()]


def cards_text(cards):
    """Text of several cards, ``card_text`` forms separated by spaces (``parse_cards`` reads it back)."""
    return " ".join(card_text(c) for c in cards)


def new_deck():
    """The 54 cards in order: clubs 2..A, diamonds, hearts, spades, LJ, BJ."""
    return list(range(DECK_SIZE))


def shuffled_deck(rng):
    """A deck shuffled by ``rng.randrange`` (Fisher-Yates)."""
    deck = new_deck()
    for i in range(DECK_SIZE - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# -- trump and ranking (5.5) ------------------------------------------------------
def ranking(suit, trump):
    """Cards of ``suit`` (counting jokers as trumps), highest first, as in the table of 5.5."""
    cards = [suit * 13 + r for r in range(12, -1, -1)]
    if suit == trump:
        cards = [BJ, LJ] + cards
    return cards


def sorted_hand(hand, trump):
    """``hand`` as a player would hold it: plain suits, then trumps (jokers on top), each high to low."""
    def key(card):
        suit = 4 if is_trump(card, trump) else card // 13
        return suit * 16 - rank_of(card)
    return sorted(hand, key=key)


# -- legal cards (5.8) --------------------------------------------------------------
def legal_leads(hand, trump, trump_broken=False, board_caller=False):
    """Cards of ``hand`` that may be led; never empty for a non-empty hand."""
    if trump == NO_TRUMP or trump_broken or board_caller:
        return list(hand)
    plain = [c for c in hand if not is_trump(c, trump)]
    return plain if plain else list(hand)


def legal_follows(hand, led, trump):
    """Cards of ``hand`` that may follow the card ``led``; never empty for a non-empty hand."""
    if led >= LJ and trump != NO_TRUMP:
        trumps = [c for c in hand if is_trump(c, trump)]
        if not trumps:
            return list(hand)
        # BJ led: the highest trump; LJ led: the lowest (the BJ if it is the only one)
        pick = trumps[0]
        for c in trumps:
            if (rank_of(c) > rank_of(pick)) if led == BJ else (rank_of(c) < rank_of(pick)):
                pick = c
        return [pick]
    suit = played_suit(led, trump)
    same = [c for c in hand if played_suit(c, trump) == suit]
    return same if same else list(hand)


# -- one deal ---------------------------------------------------------------------------
def _check_pack(cards, what):
    seen = bytearray(DECK_SIZE)
    for c in cards:
        if type(c) is not int or c < 0 or c >= DECK_SIZE:
            raise DeckError("%s: %s is not a card" % (what, _shown(c)))
        if seen[c]:
            raise DeckError("%s: %s appears twice" % (what, card_text(c)))
        seen[c] = 1
    return seen


def _deck_list(deck):
    try:
        return [parse_card(c) if type(c) is str else c for c in deck]
    except TypeError:
        raise DeckError("a deck is a sequence of 54 cards, not %s" % _shown(deck)) from None


def deal_cards(deck, dealer, h, number=1):
    """Deal ``h`` cards each from a shuffled 54-card ``deck`` (ints or texts, top first; 5.4) and return the ``Deal``.

    Cards go one at a time clockwise from the dealer's left; ``deck[4h]`` is the
    upcard and the rest is the stock. If the upcard is a joker, the player holding
    the other joker discards it and takes the next stock card ([I-27]).
    """
    deck = _deck_list(deck)
    if len(deck) != DECK_SIZE:
        raise DeckError("a deck has %d cards, not %d" % (DECK_SIZE, len(deck)))
    _check_pack(deck, "the deck")
    if type(h) is not int or h < 1 or h > MAX_HAND:
        raise DeckError("a hand has 1..%d cards, not %r" % (MAX_HAND, h))
    dealer = _seat(dealer)
    hands = [[], [], [], []]
    for j in range(4 * h):
        hands[(dealer + 1 + j) % 4].append(deck[j])
    upcard = deck[4 * h]
    stock = deck[4 * h + 1:]
    discarded = None
    if upcard >= LJ:
        other = BJ + LJ - upcard
        for hand in hands:
            if other in hand:
                hand[hand.index(other)] = stock.pop(0)
                discarded = other
    return Deal(dealer, hands, upcard, number, stock, discarded)


class Deal:
    """The bidding and play of one deal.

    ``hands[seat]`` are the cards each seat still holds; ``calls`` the calls in
    bidding order (the dealer's left first); ``trick`` the cards of the trick in
    progress in play order from ``trick_leader``; ``tricks`` the finished tricks
    as ``(leader, cards, winner)``; ``taken[seat]`` tricks won per seat.
    ``Deal(dealer, hands, upcard)`` sets up any position (the stock is then
    every other card); ``deal_cards`` deals from a deck.
    """

    def __init__(self, dealer, hands, upcard, number=1, stock=None, discarded=None):
        dealer = _seat(dealer)
        if len(hands) != 4:
            raise DeckError("a deal has 4 hands, not %d" % len(hands))
        h = len(hands[0])
        if h < 1 or h > MAX_HAND:
            raise DeckError("a hand has 1..%d cards, not %d" % (MAX_HAND, h))
        for seat in range(4):
            if len(hands[seat]) != h:
                raise DeckError("%s holds %d cards, %s holds %d" % (SEAT_NAMES[0], h, SEAT_NAMES[seat],
                                                                   len(hands[seat])))
        hands = [[_as_card(c) for c in hand] for hand in hands]
        upcard = _as_card(upcard)
        if discarded is not None and (upcard < LJ or _as_card(discarded) != BJ + LJ - upcard):
            raise DeckError("only the other joker is discarded, and only when a joker is turned up")
        out = [upcard] + ([] if discarded is None else [_as_card(discarded)])
        seen = _check_pack(hands[0] + hands[1] + hands[2] + hands[3] + out, "the hands and upcard")
        if stock is None:
            stock = [c for c in range(DECK_SIZE) if not seen[c]]
        else:
            stock = [_as_card(c) for c in stock]
            _check_pack(hands[0] + hands[1] + hands[2] + hands[3] + out + stock, "the cards")
            if 4 * h + len(out) + len(stock) != DECK_SIZE:
                raise DeckError("the hands, upcard and stock hold %d cards, not %d"
                                % (4 * h + len(out) + len(stock), DECK_SIZE))
        self.trump = trump_of(upcard)
        if self.trump == NO_TRUMP:
            for seat in range(4):
                for c in hands[seat]:
                    if c >= LJ:
                        raise DeckError("no-trump deal: %s may not hold %s (it is discarded)"
                                        % (SEAT_NAMES[seat], card_text(c)))
        self.dealer = dealer
        self.number = number
        self.hand_size = h
        self.hands = [sorted(hand) for hand in hands]
        self.upcard = upcard
        self.discarded = None if discarded is None else _as_card(discarded)
        self.stock = stock
        self.first_bidder = (dealer + 1) % 4
        self.calls = []
        self.contracts = None
        self.leader = None
        self.phase = BIDDING
        self.to_act = self.first_bidder
        self.trick = []
        self.trick_leader = None
        self.tricks = []
        self.taken = [0, 0, 0, 0]
        self.trump_broken = False

    def __repr__(self):
        return "<Deal %d dealer=%s h=%d trump=%s %s>" % (self.number, SEAT_NAMES[self.dealer], self.hand_size,
                                                         self.trump_name(), PHASE_NAMES[self.phase])

    def trump_name(self):
        """``"spades"`` ... or ``"no trump"``."""
        return "no trump" if self.trump == NO_TRUMP else SUIT_NAMES[self.trump]

    # -- bidding ------------------------------------------------------------
    def legal_calls(self):
        """Calls the seat to act may make ([] outside the bidding)."""
        return legal_calls(self.hand_size) if self.phase == BIDDING else []

    def board_calls(self):
        """``[(seat, k), ...]`` for every Board call: the k-th is a k-fold board."""
        result = []
        for i in range(len(self.calls)):
            if self.calls[i] == BOARD:
                result.append(((self.first_bidder + i) % 4, len(result) + 1))
        return result

    def call_of(self, seat):
        """The call ``seat`` made, or None if he has not called yet."""
        i = (seat - self.first_bidder) % 4
        return self.calls[i] if i < len(self.calls) else None

    def bid(self, seat, call):
        """``seat`` makes ``call`` (PASS, BOARD, a number, or their text)."""
        seat = _seat(seat)
        call = _as_call(call)
        if self.phase != BIDDING:
            raise PhaseError("the bidding is over: %s" % self._waiting())
        if seat != self.to_act:
            raise TurnError("it is %s's turn to call, not %s's" % (SEAT_NAMES[self.to_act], SEAT_NAMES[seat]))
        check_call(call, self.hand_size)
        self.calls.append(call)
        if len(self.calls) < 4:
            self.to_act = (seat + 1) % 4
            return
        leader = opening_leader(self.calls, self.first_bidder)
        if leader is None:
            self.phase = PASSED_OUT
            self.to_act = None
            return
        self.contracts = contracts(self.calls, self.first_bidder)
        self.leader = leader
        self.trick_leader = leader
        self.to_act = leader
        self.phase = PLAYING

    # -- play -----------------------------------------------------------------
    def legal_cards(self):
        """Cards the seat to act may play ([] outside the play)."""
        if self.phase != PLAYING:
            return []
        hand = self.hands[self.to_act]
        if not self.trick:
            return legal_leads(hand, self.trump, self.trump_broken, self.call_of(self.to_act) == BOARD)
        return legal_follows(hand, self.trick[0], self.trump)

    def play(self, seat, card):
        """``seat`` plays ``card`` (an int or its text) to the trick in progress."""
        seat = _seat(seat)
        card = _as_card(card)
        if self.phase != PLAYING:
            raise PhaseError("no card can be played now: %s" % self._waiting())
        if seat != self.to_act:
            raise TurnError("it is %s's turn to play, not %s's" % (SEAT_NAMES[self.to_act], SEAT_NAMES[seat]))
        hand = self.hands[seat]
        if card not in hand:
            raise PlayError("%s does not hold %s" % (SEAT_NAMES[seat], card_symbol(card)))
        legal = self.legal_cards()
        if card not in legal:
            raise PlayError(self._refusal(seat, card, legal))
        hand.remove(card)
        self.trick.append(card)
        if is_trump(card, self.trump):
            self.trump_broken = True
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = trick_winner(self.trick, self.trick_leader, self.trump)
        self.tricks.append((self.trick_leader, self.trick, winner))
        self.taken[winner] += 1
        self.trick = []
        if len(self.tricks) == self.hand_size:
            self.phase = FINISHED
            self.to_act = None
            self.trick_leader = None
        else:
            self.trick_leader = winner
            self.to_act = winner

    def _refusal(self, seat, card, legal):
        name = SEAT_NAMES[seat]
        if not self.trick:
            return "trumps are not broken: %s cannot be led" % card_symbol(card)
        led = self.trick[0]
        if led == BJ:
            return "%s must play his highest trump, %s" % (name, card_symbol(legal[0]))
        if led == LJ:
            return "%s must play his lowest trump, %s" % (name, card_symbol(legal[0]))
        suit = played_suit(led, self.trump)
        if suit == self.trump:
            return "%s must follow %s, the trump suit (jokers count as trumps)" % (name, SUIT_NAMES[suit])
        return "%s must follow %s" % (name, SUIT_NAMES[suit])

    def _waiting(self):
        if self.phase == BIDDING:
            return "%s is to call" % SEAT_NAMES[self.to_act]
        if self.phase == PLAYING:
            return "%s is to play" % SEAT_NAMES[self.to_act]
        if self.phase == PASSED_OUT:
            return "all four passed; the cards are dealt again"
        return "the deal is finished"

    # -- results -----------------------------------------------------------------
    def team_tricks(self):
        """Tricks taken ``[NS, EW]``."""
        t = self.taken
        return [t[N] + t[S], t[E] + t[W]]

    def scores(self):
        """Points of the deal ``[NS, EW]`` (5.9); only once every trick is played."""
        if self.phase != FINISHED:
            raise PhaseError("the deal is not finished: %s" % self._waiting())
        taken = self.team_tricks()
        return [self.contracts[team].score(taken[team], self.hand_size) for team in (NS, EW)]


class DealResult:
    """What one counted deal was and scored (kept in ``Game.results``)."""

    def __init__(self, deal):
        self.number = deal.number
        self.dealer = deal.dealer
        self.hand_size = deal.hand_size
        self.trump = deal.trump
        self.calls = list(deal.calls)
        self.contracts = deal.contracts
        self.tricks = deal.team_tricks()
        self.scores = deal.scores()

    def __repr__(self):
        return "<DealResult %d h=%d NS %s took %d: %+d, EW %s took %d: %+d>" % (
            self.number, self.hand_size, self.contracts[NS].text(), self.tricks[NS], self.scores[NS],
            self.contracts[EW].text(), self.tricks[EW], self.scores[EW])


# -- the game ---------------------------------------------------------------------------
class Game:
    """A game of 25 counted deals (5.3-5.10).

    Actions: ``deal(deck=None)``, ``bid(seat, call)``, ``play(seat, card)``. The
    first dealer is ``first_dealer`` or, if None, drawn with ``rng``; ``deal()``
    without a deck shuffles one with ``rng``. ``phase`` says what the game waits
    for; ``current`` is the deal in progress; ``results`` the counted deals;
    ``scores`` the cumulative ``[NS, EW]``.
    """

    def __init__(self, first_dealer=None, rng=None):
        if first_dealer is None:
            if rng is None:
                raise BackAlleyError("choose the first dealer: give first_dealer or an rng to draw him")
            first_dealer = rng.randrange(4)
        self.rng = rng
        self.first_dealer = _seat(first_dealer)
        self.dealer = self.first_dealer
        self.number = 1  # the counted deal being (or next to be) played
        self.scores = [0, 0]
        self.results = []
        self.redeals = 0
        self.current = None
        self.last_deal = None
        # every accepted action, compactly: deal = _OP_DEAL + 54 card bytes,
        # bid = _OP_BID|seat + call byte (BOARD as 255), play = _OP_PLAY|seat + card
        self._log = bytearray()

    def __repr__(self):
        return "<Game deal %d/%d dealer=%s NS %d EW %d %s>" % (
            min(self.number, DEALS), DEALS, SEAT_NAMES[self.dealer], self.scores[NS], self.scores[EW],
            PHASE_NAMES[self.phase])

    @property
    def phase(self):
        if self.current is not None:
            return self.current.phase
        return GAME_OVER if self.number > DEALS else DEALING

    @property
    def hand_size(self):
        """Cards per player in the current (or next) deal."""
        return hand_size(min(self.number, DEALS))

    @property
    def to_act(self):
        """Seat to call or play, or None when the game waits for a deal or is over."""
        return None if self.current is None else self.current.to_act

    def deal(self, deck=None):
        """Deal the next deal from ``deck`` (54 cards, top first) or from a deck shuffled with ``rng``."""
        if self.current is not None:
            raise PhaseError("the cards are already dealt: %s" % self.current._waiting())
        if self.number > DEALS:
            raise PhaseError("the game is over after %d deals" % DEALS)
        if deck is None:
            if self.rng is None:
                raise DeckError("give a shuffled deck (this game has no rng to shuffle one)")
            deck = shuffled_deck(self.rng)
        deck = _deck_list(deck)
        self.current = deal_cards(deck, self.dealer, hand_size(self.number), self.number)
        self._log.append(_OP_DEAL)
        self._log.extend(bytes(deck))
        return self.current

    def _deal_in(self, phase, doing):
        if self.current is None:
            if self.number > DEALS:
                raise PhaseError("the game is over: no more %s" % doing)
            raise PhaseError("the cards are not dealt yet: deal before %s" % doing)
        if self.current.phase != phase:
            raise PhaseError("not %s now: %s" % (doing, self.current._waiting()))
        return self.current

    def legal_calls(self):
        return [] if self.current is None else self.current.legal_calls()

    def legal_cards(self):
        return [] if self.current is None else self.current.legal_cards()

    def bid(self, seat, call):
        """``seat`` calls; after four passes the next dealer deals again with the same hand size ([I-26])."""
        deal = self._deal_in(BIDDING, "calling")
        seat = _seat(seat)
        call = _as_call(call)
        deal.bid(seat, call)
        self._log.append(_OP_BID | seat)
        self._log.append(call & 0xFF)
        if deal.phase == PASSED_OUT:
            self.redeals += 1
            self.last_deal = deal
            self.current = None
            self.dealer = (self.dealer + 1) % 4

    def play(self, seat, card):
        """``seat`` plays ``card``; after the last trick the deal is scored and the deal passes on."""
        deal = self._deal_in(PLAYING, "playing cards")
        seat = _seat(seat)
        card = _as_card(card)
        deal.play(seat, card)
        self._log.append(_OP_PLAY | seat)
        self._log.append(card)
        if deal.phase == FINISHED:
            result = DealResult(deal)
            self.results.append(result)
            self.scores[NS] += result.scores[NS]
            self.scores[EW] += result.scores[EW]
            self.last_deal = deal
            self.current = None
            self.number += 1
            self.dealer = (self.dealer + 1) % 4

    # -- the record ---------------------------------------------------------------
    def actions(self):
        """Every accepted action in order: ``("deal", deck)``, ``("bid", seat, call)``, ``("play", seat, card)``."""
        log = self._log
        result = []
        i = 0
        while i < len(log):
            op = log[i]
            if op == _OP_DEAL:
                result.append(("deal", list(log[i + 1:i + 1 + DECK_SIZE])))
                i += 1 + DECK_SIZE
            elif op & 0xF0 == _OP_BID:
                call = log[i + 1]
                result.append(("bid", op & 3, BOARD if call == 0xFF else call))
                i += 2
            else:
                result.append(("play", op & 3, log[i + 1]))
                i += 2
        return result

    def record_log(self):
        """The compact action log (bytes) behind ``record()``."""
        return bytes(self._log)

    def record(self):
        """The game so far as text, one action a line; ``Game.from_record`` replays it."""
        lines = [RECORD_HEADER, "first-dealer %s" % SEAT_NAMES[self.first_dealer]]
        for action in self.actions():
            if action[0] == "deal":
                lines.append("deal " + cards_text(action[1]))
            elif action[0] == "bid":
                lines.append("bid %s %s" % (SEAT_NAMES[action[1]], call_text(action[2])))
            else:
                lines.append("play %s %s" % (SEAT_NAMES[action[1]], card_text(action[2])))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_record(cls, text, rng=None):
        """Replay a ``record()`` text (blank lines and ``#`` comments allowed); ``rng`` deals later deals."""
        game = None
        number = 0
        for line in text.split("\n"):
            number += 1
            words = line.split("#")[0].split()
            if not words:
                continue
            try:
                if game is None:
                    if " ".join(words) != RECORD_HEADER:
                        raise RecordError("a Back Alley record starts with %r" % RECORD_HEADER)
                    game = False
                elif game is False:
                    if len(words) != 2 or words[0] != "first-dealer":
                        raise RecordError("the second line names the first dealer: first-dealer N, E, S or W")
                    game = cls(first_dealer=words[1], rng=rng)
                elif words[0] == "deal" and len(words) == 1 + DECK_SIZE:
                    game.deal([parse_card(w) for w in words[1:]])
                elif words[0] == "bid" and len(words) == 3:
                    game.bid(words[1], words[2])
                elif words[0] == "play" and len(words) == 3:
                    game.play(words[1], words[2])
                else:
                    raise RecordError("expected 'deal' and 54 cards, 'bid SEAT CALL' or 'play SEAT CARD'")
            except BackAlleyError as exc:
                raise RecordError("line %d: %s" % (number, exc)) from None
        if not game:
            raise RecordError("the record ends before its first-dealer line")
        return game

    def is_over(self):
        return self.number > DEALS

    def winner(self):
        """NS, EW or TIE once the 25th counted deal is scored (5.10)."""
        if not self.is_over():
            raise PhaseError("the game is not over: deal %d of %d" % (self.number, DEALS))
        return game_winner(self.scores)
