"""Back Alley bots: a call and a card for any seat, from what that seat can see (RULES.md section 5).

A bot sees its own hand, the turned-up card, the calls and every card played
so far; never another hand or the stock. It

* **calls** the tricks it expects: each card's chance to win, from how many
  higher cards of its suit it cannot see and how many of them are likely
  to be in play at this hand size (``3h`` of the ``53 - h`` unseen cards are
  in the other hands), long trumps and short side suits counted for
  ruffing; the estimate is shaded down (a missed contract costs ``5B``, an
  extra trick gains 1). It calls Board only when every card is a sure
  winner (a run of top trumps, or top cards once its trumps have drawn all
  the others) or, with at most three cards, when it expects 85% of the tricks; it
  passes after its partner's Board;
* **counts trumps and cards**: a card is a master when no higher card of
  its suit is unseen; a plain master is safe while no seat still to play
  has shown a void in that suit with trumps unseen;
* **follows the contract**: it wins tricks cheaply (the lowest card that
  wins, last to play; the lowest safe master earlier; second hand low unless
  the team must win every remaining trick or the opponents' Board is still
  alive), leaves a trick its partner is sure to win, and leads its masters
  (trumps first while the opponents may hold trumps and it has the top
  ones) before leading low from its longest side suit;
* **does not throw winners away**: when it cannot or need not win, it plays
  its least useful card (a low plain card before a master, a master before a
  trump).

``choose_call(deal, seat)`` and ``choose_card(deal, seat)`` take the engine's
``Deal`` (``pipcore.backalley``) and return a legal call or card.
"""

from pipcore.backalley import (
    BOARD,
    BJ,
    DECK_SIZE,
    LJ,
    NO_TRUMP,
    PASS,
    card_power,
    is_trump,
    played_suit,
    rank_of,
    ranking,
)

_RANKINGS = {}


def _ranking(suit, trump):
    """Cards of ``suit`` high to low (jokers on top of the trump suit), cached."""
    key = suit * 8 + trump + 1
    cards = _RANKINGS.get(key)
    if cards is None:
        cards = _RANKINGS[key] = ranking(suit, trump)
    return cards


class SeatView:
    """What one seat knows of a deal: its hand, the cards gone, the voids shown."""

    def __init__(self, deal, seat):
        self.deal = deal
        self.seat = seat
        self.trump = trump = deal.trump
        self.hand = deal.hands[seat]
        gone = bytearray(DECK_SIZE)
        gone[deal.upcard] = 1
        if trump == NO_TRUMP:  # no joker is in play in a no-trump deal (5.4)
            gone[LJ] = gone[BJ] = 1
        void = [0, 0, 0, 0]  # per seat, a bit per suit it has shown it does not hold
        for leader, cards, _winner in deal.tricks:
            self._see(cards, leader, gone, void)
        if deal.trick:
            self._see(deal.trick, deal.trick_leader, gone, void)
        mine = bytearray(DECK_SIZE)
        for c in self.hand:
            mine[c] = 1
        self.gone = gone
        self.mine = mine
        self.void = void

    def _see(self, cards, leader, gone, void):
        trump = self.trump
        led = played_suit(cards[0], trump)
        for i in range(len(cards)):
            c = cards[i]
            gone[c] = 1
            if i and played_suit(c, trump) != led:
                void[(leader + i) % 4] |= 1 << led

    def unseen_above(self, card):
        """Cards of ``card``'s suit that beat it and that this seat has not seen."""
        n = 0
        gone, mine = self.gone, self.mine
        for c in _ranking(played_suit(card, self.trump), self.trump):
            if c == card:
                return n
            if not gone[c] and not mine[c]:
                n += 1
        return n

    def unseen_trumps(self):
        if self.trump == NO_TRUMP:
            return 0
        gone, mine = self.gone, self.mine
        return sum(1 for c in _ranking(self.trump, self.trump) if not gone[c] and not mine[c])

    def is_master(self, card):
        return self.unseen_above(card) == 0

    def safe(self, card, after, led=None):
        """True if no seat of ``after`` can beat ``card`` as far as this seat can tell.

        A plain master is beaten by a ruff from a seat that has shown a void in
        its suit; a ruff (``card`` a trump on a plain ``led`` suit) only by a
        higher trump from a seat that has shown a void in ``led`` as well.
        """
        trump = self.trump
        void = self.void
        if is_trump(card, trump):
            if not self.unseen_above(card):
                return True
            if led is None or led == trump:
                return False
            for s in after:
                if void[s] >> led & 1 and not void[s] >> trump & 1:
                    return False
            return True
        if self.unseen_above(card):
            return False
        if trump == NO_TRUMP or not self.unseen_trumps():
            return True
        suit = card // 13
        for s in after:
            if void[s] >> suit & 1 and not void[s] >> trump & 1:
                return False
        return True

    def worth(self, card):
        """How much a card is worth keeping: low plain cards are thrown first, trumps last."""
        trump = self.trump
        return ((2 if is_trump(card, trump) else 1 if self.is_master(card) else 0) * 16 + rank_of(card))

    def discard(self, cards):
        return min(cards, key=self.worth)


# -- calls ------------------------------------------------------------------
def _in_play_share(h):
    """Chance that a card this seat cannot see is in another hand (not in the stock)."""
    return min(1.0, 3.0 * h / (53 - h))


def expected_tricks(hand, trump, upcard, h):
    """The tricks ``hand`` should take, with the chance of each card (see the module docstring)."""
    share = _in_play_share(h)
    mine = bytearray(DECK_SIZE)
    for c in hand:
        mine[c] = 1
    gone = bytearray(DECK_SIZE)
    gone[upcard] = 1
    if trump == NO_TRUMP:
        gone[LJ] = gone[BJ] = 1
    total = 0.0
    by_suit = {}
    for c in hand:
        by_suit.setdefault(played_suit(c, trump), []).append(c)
    trumps = len(by_suit.get(trump, ())) if trump != NO_TRUMP else 0
    trump_winners = 0.0
    for suit, cards in by_suit.items():
        cards.sort(key=rank_of, reverse=True)
        length = len(cards)
        for j in range(length):
            c = cards[j]
            above = 0
            for x in _ranking(suit, trump):
                if x == c:
                    break
                if not mine[x] and not gone[x]:
                    above += 1
            win = (1 - share) ** above
            if above and length > above + j:  # the higher cards fall first: a guarded card promotes
                win += (1 - win) * (0.5 if above == 1 else 0.25 if above == 2 else 0.0)
            if suit == trump and trump != NO_TRUMP:
                trump_winners += win
            elif trump != NO_TRUMP:
                win *= (0.95, 0.75, 0.4, 0.2)[min(j, 3)] * (0.6 + 0.4 * (1 - share))  # ruffed sooner in long deals
            total += win
    if trump != NO_TRUMP and h >= 3:
        spare = trumps - trump_winners
        for suit in range(4):
            if suit != trump and spare > 0.5:
                short = max(0, 2 - len(by_suit.get(suit, ())))
                ruffs = min(spare, short)
                total += 0.6 * ruffs
                spare -= ruffs
    return total


def sure_tricks(hand, trump, upcard):
    """True if every card of ``hand`` wins when its owner leads them all (a safe Board)."""
    mine = bytearray(DECK_SIZE)
    for c in hand:
        mine[c] = 1
    gone = bytearray(DECK_SIZE)
    gone[upcard] = 1
    if trump == NO_TRUMP:
        gone[LJ] = gone[BJ] = 1

    def top_run(suit):
        n = 0
        for c in _ranking(suit, trump):
            if mine[c]:
                n += 1
            elif not gone[c]:
                break
        return n

    held = [0, 0, 0, 0]
    for c in hand:
        held[played_suit(c, trump)] += 1
    if trump != NO_TRUMP:
        run = top_run(trump)
        if run < held[trump]:
            return False
        others = sum(1 for c in _ranking(trump, trump) if not mine[c] and not gone[c])
        if run == len(hand):
            return True
        if others > run:  # the opponents may keep a trump after ours are led
            return False
    for suit in range(4):
        if suit != trump and held[suit] and top_run(suit) < held[suit]:
            return False
    return True


def choose_call(deal, seat):
    """A sensible legal call for ``seat`` (the seat to act in the bidding)."""
    h = deal.hand_size
    hand = deal.hands[seat]
    partner_call = deal.call_of((seat + 2) % 4)
    if sure_tricks(hand, deal.trump, deal.upcard):
        return BOARD
    if partner_call == BOARD:
        return PASS
    estimate = expected_tricks(hand, deal.trump, deal.upcard, h)
    if h <= 3 and estimate >= 0.85 * h:  # a short deal nearly sure to be won: worth 10h
        return BOARD
    if h == 1:
        return PASS
    call = int(estimate * 0.85 + 0.2)
    return max(0, min(call, h - 1))


# -- cards ------------------------------------------------------------------
def _team_state(deal, seat):
    """(tricks our team must still win for its contract, whether the opponents' Board can still be made)."""
    team = seat % 2
    taken = deal.team_tricks()
    left = deal.hand_size - len(deal.tricks)
    ours = deal.contracts[team]
    if ours.board:
        need = left if taken[1 - team] == 0 else 0
    else:
        need = max(0, ours.tricks - taken[team])
    theirs = deal.contracts[1 - team]
    their_board = bool(theirs.board) and taken[team] == 0
    return need, their_board, left


def choose_card(deal, seat):
    """A sensible legal card for ``seat`` (the seat to act in the play)."""
    legal = deal.legal_cards()
    if len(legal) == 1:
        return legal[0]
    view = SeatView(deal, seat)
    if not deal.trick:
        return _lead(deal, seat, view, legal)
    return _follow(deal, seat, view, legal)


def _lead(deal, seat, view, legal):
    trump = view.trump
    need, their_board, left = _team_state(deal, seat)
    opponents = ((seat + 1) % 4, (seat + 3) % 4)
    trumps = [c for c in legal if is_trump(c, trump)]
    plain = [c for c in legal if not is_trump(c, trump)]
    unseen = view.unseen_trumps()
    master_trumps = [c for c in trumps if view.is_master(c)]
    # draw the opponents' trumps with our top ones while they may still hold some
    if master_trumps and unseen and (len(trumps) * 2 >= unseen or need >= left):
        return max(master_trumps, key=rank_of)
    safe = [c for c in plain if view.safe(c, opponents)]
    if safe:
        return max(safe, key=rank_of)
    if master_trumps and (need or not plain):
        return max(master_trumps, key=rank_of)
    if plain:
        counts = [0, 0, 0, 0]
        for c in plain:
            counts[c // 13] += 1
        suit = max(range(4), key=lambda s: counts[s])
        return min((c for c in plain if c // 13 == suit), key=rank_of)
    return min(legal, key=rank_of)


def _follow(deal, seat, view, legal):
    trump = view.trump
    trick = deal.trick
    leader = deal.trick_leader
    led = played_suit(trick[0], trump)
    best_i = 0
    best = card_power(trick[0], led, trump)
    for i in range(1, len(trick)):
        p = card_power(trick[i], led, trump)
        if p > best:
            best_i, best = i, p
    winner = (leader + best_i) % 4
    position = len(trick)  # 1: second to play, 2: third, 3: last
    after = [(seat + i) % 4 for i in range(1, 4 - position)]
    beats = [c for c in legal if card_power(c, led, trump) > best]
    if winner == (seat + 2) % 4:
        if position == 3 or view.safe(trick[best_i], after, led):
            return view.discard(legal)  # partner has it: do not waste a winner on it
        sure = [c for c in beats if view.safe(c, after, led)]
        return min(sure, key=view.worth) if sure else view.discard(legal)
    if not beats:
        return view.discard(legal)
    cheapest = min(beats, key=view.worth)
    if position == 3:
        return cheapest
    sure = [c for c in beats if view.safe(c, after, led)]
    if sure:
        return min(sure, key=view.worth)
    need, their_board, left = _team_state(deal, seat)
    if position == 1 and not their_board and need < left:
        return view.discard(legal)  # second hand low: partner plays after the opponents
    return max(beats, key=rank_of) if not is_trump(cheapest, trump) else cheapest
