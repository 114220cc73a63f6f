"""Hypothesis properties of the Back Alley engine (CPython).

Whole random games played with random legal actions: they end after exactly
25 counted deals; every deal keeps the 54 cards; every trick has one card per
seat; the legal sets are never empty; the engine's legal cards, trick winners
and scores agree with a plain reference written from RULES.md 5.5-5.9;
random illegal actions are refused without changing anything; and the
game record replays to the same state.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipcore import backalley as ba
from pipcore.backalley import (
    BIDDING,
    BJ,
    BOARD,
    DEALING,
    DEALS,
    DECK_SIZE,
    EW,
    GAME_OVER,
    LJ,
    NO_TRUMP,
    NS,
    PASS,
    PLAYING,
    BackAlleyError,
    CallError,
    CardError,
    Game,
    PhaseError,
    PlayError,
    TurnError,
)

GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=300, deadline=None)


# -- a plain reference, phrased as RULES.md phrases the rules -----------------------------
def ref_is_trump(card, trump):
    return trump != NO_TRUMP and (card in (LJ, BJ) or card // 13 == trump)


def ref_suit(card, trump):
    return trump if card in (LJ, BJ) else card // 13


def ref_order(trump):
    """Every card of the trump suit, lowest first (5.5)."""
    return [trump * 13 + r for r in range(13)] + [LJ, BJ]


def ref_legal(hand, trick, trump, broken, called_board):
    if not trick:
        if trump == NO_TRUMP or broken or called_board or all(ref_is_trump(c, trump) for c in hand):
            return set(hand)
        return {c for c in hand if not ref_is_trump(c, trump)}
    led = trick[0]
    trumps = [c for c in hand if ref_is_trump(c, trump)]
    if led in (BJ, LJ) and trumps:
        order = ref_order(trump)
        ranked = sorted(trumps, key=order.index)
        return {ranked[-1]} if led == BJ else {ranked[0]}
    follow = {c for c in hand if ref_suit(c, trump) == ref_suit(led, trump)}
    return follow or set(hand)


def ref_winner(trick, leader, trump):
    trumps = [c for c in trick if ref_is_trump(c, trump)]
    if trumps:
        best = max(trumps, key=ref_order(trump).index)
    else:
        led = trick[0] // 13
        best = max((c for c in trick if c // 13 == led), key=lambda c: c % 13)
    return (leader + trick.index(best)) % 4


def ref_score(calls_by_seat, taken, h):
    """[NS, EW] points of one deal (5.6, 5.9); a seat's call is ("board", k) or ("number", n)."""
    scores = []
    for team in (NS, EW):
        seats = (team, team + 2)
        tricks = taken[seats[0]] + taken[seats[1]]
        boards = [calls_by_seat[s] for s in seats if calls_by_seat[s][0] == "board"]
        if boards:
            m = max(k for _, k in boards)
            scores.append(10 * h * m if tricks == h else -10 * h * m)
        else:
            bid = sum(value for _, value in (calls_by_seat[s] for s in seats))
            scores.append(5 * bid + tricks - bid if tricks >= bid else -5 * bid)
    return scores


# -- state snapshots ----------------------------------------------------------------------
def state(obj):
    """A comparable copy of an engine object's whole state (the rng excluded)."""
    if isinstance(obj, (list, tuple)):
        return [state(x) for x in obj]
    if isinstance(obj, random.Random):
        return "rng"
    if hasattr(obj, "__dict__"):
        return (type(obj).__name__, {k: state(v) for k, v in vars(obj).items()})
    return obj


def all_cards(deal):
    cards = [c for hand in deal.hands for c in hand] + list(deal.trick) + [deal.upcard] + list(deal.stock)
    cards += [c for _, trick, _ in deal.tricks for c in trick]
    if deal.discarded is not None:
        cards.append(deal.discarded)
    return cards


def refused(game, func, exc_type, *args):
    """``func(*args)`` raises ``exc_type`` with a message and leaves ``game`` unchanged."""
    before = state(game)
    try:
        func(*args)
    except exc_type as exc:
        assert isinstance(exc, ValueError) and str(exc)
    else:
        raise AssertionError("%s%r was accepted" % (func.__name__, args))
    assert state(game) == before


def try_illegal(game, rnd):
    """Attempt one random illegal action; it must be refused and change nothing."""
    deal = game.current
    seat = game.to_act
    other = (seat + rnd.randrange(1, 4)) % 4
    if game.phase == BIDDING:
        h = deal.hand_size
        choice = rnd.randrange(5)
        if choice == 0:
            refused(game, game.bid, TurnError, other, PASS)
        elif choice == 1:
            refused(game, game.bid, CallError, seat, rnd.randrange(h, h + 20))
        elif choice == 2:
            refused(game, game.play, PhaseError, seat, deal.hands[seat][0])
        elif choice == 3:
            refused(game, game.deal, PhaseError, ba.new_deck())
        else:
            refused(game, game.bid, CallError, seat, rnd.choice(["", "pass!", "-1", "2.0", "boards"]))
    else:
        hand = deal.hands[seat]
        illegal = sorted(set(hand) - set(game.legal_cards()))
        missing = [c for c in range(DECK_SIZE) if c not in hand]
        choice = rnd.randrange(5)
        if choice == 0 and illegal:
            refused(game, game.play, PlayError, seat, rnd.choice(illegal))
        elif choice == 1:
            refused(game, game.play, PlayError, seat, rnd.choice(missing))
        elif choice == 2:
            refused(game, game.play, TurnError, other, rnd.randrange(DECK_SIZE))
        elif choice == 3:
            refused(game, game.bid, PhaseError, seat, PASS)
        else:
            refused(game, game.play, CardError, seat, rnd.choice(["", "1S", "ZZ", "54", "AS AS"]))


# -- whole games ----------------------------------------------------------------------------
def check_record(game):
    """The record replays to exactly the same state."""
    copy = Game.from_record(game.record(), rng=game.rng)
    assert state(copy) == state(game)


def play_game(seed, pass_weight, illegal_rate):
    rnd = random.Random(seed)
    game = Game(rng=random.Random(seed ^ 0x5EED))
    record_at = rnd.randrange(800)  # replay the record once, at some action of the game
    actions = 0
    assert game.phase == DEALING
    dealers = []
    while game.phase != GAME_OVER:
        number, dealer = game.number, game.dealer
        if rnd.random() < illegal_rate:
            refused(game, game.bid, PhaseError, 0, PASS)
        deal = game.deal()
        h = ba.hand_size(number)
        dealers.append(dealer)
        assert deal.dealer == dealer and deal.hand_size == h and deal.number == number
        assert all(len(hand) == h for hand in deal.hands)
        assert sorted(all_cards(deal)) == list(range(DECK_SIZE))
        assert len(deal.stock) + (deal.discarded is not None) == DECK_SIZE - 4 * h - 1
        if deal.trump == NO_TRUMP:
            assert all(c < LJ for hand in deal.hands for c in hand)
        calls_by_seat = {}
        boards = 0
        while game.phase == BIDDING:
            legal = game.legal_calls()
            assert legal and legal[0] == PASS and legal[-1] == BOARD and len(legal) == h + 1
            if rnd.random() < illegal_rate:
                try_illegal(game, rnd)
            seat = game.to_act
            call = PASS if rnd.random() < pass_weight else rnd.choice(legal)
            game.bid(seat, call)
            if call == BOARD:
                boards += 1
                calls_by_seat[seat] = ("board", boards)
            else:
                calls_by_seat[seat] = ("number", call)
        if game.phase == DEALING and game.number == number:  # all passed: a redeal
            assert all(calls_by_seat[s] == ("number", PASS) for s in range(4))
            assert game.dealer == (dealer + 1) % 4 and game.hand_size == h
            continue
        taken = [0, 0, 0, 0]
        seats_in_trick = []
        while game.phase == PLAYING:
            seat = game.to_act
            hand = list(deal.hands[seat])
            legal = game.legal_cards()
            assert legal, "no legal card for %s" % ba.SEAT_NAMES[seat]
            assert set(legal) <= set(hand)
            called_board = calls_by_seat[seat][0] == "board"
            assert set(legal) == ref_legal(hand, deal.trick, deal.trump, deal.trump_broken, called_board)
            if rnd.random() < illegal_rate:
                try_illegal(game, rnd)
            trick = list(deal.trick)
            leader = deal.trick_leader if trick else seat
            card = rnd.choice(legal)
            game.play(seat, card)
            actions += 1
            if actions == record_at:
                check_record(game)
            seats_in_trick.append(seat)
            if len(trick) == 3:
                winner = ref_winner(trick + [card], leader, deal.trump)
                assert deal.tricks[-1] == (leader, trick + [card], winner)
                assert sorted(seats_in_trick) == [0, 1, 2, 3]  # one card per seat
                assert seats_in_trick == [(leader + i) % 4 for i in range(4)]
                seats_in_trick = []
                taken[winner] += 1
            cards = all_cards(deal)
            assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE  # 54 cards, none twice
        assert len(deal.tricks) == h and all(not hand for hand in deal.hands)
        assert deal.taken == taken
        result = game.results[-1]
        assert result.number == number and result.scores == ref_score(calls_by_seat, taken, h)
    assert len(game.results) == DEALS and game.number == DEALS + 1
    assert [r.number for r in game.results] == list(range(1, DEALS + 1))
    assert [r.hand_size for r in game.results] == [ba.hand_size(i) for i in range(1, DEALS + 1)]
    assert len(dealers) == DEALS + game.redeals
    assert dealers == [(game.first_dealer + i) % 4 for i in range(len(dealers))]
    assert game.scores == [sum(r.scores[t] for r in game.results) for t in (NS, EW)]
    assert game.winner() == (ba.TIE if game.scores[NS] == game.scores[EW] else
                             NS if game.scores[NS] > game.scores[EW] else EW)
    refused(game, game.deal, PhaseError)
    check_record(game)
    return game


@GAMES
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 0.8]), st.sampled_from([0.0, 0.05]))
def test_random_games_finish_after_25_counted_deals(seed, pass_weight, illegal_rate):
    play_game(seed, pass_weight, illegal_rate)


def test_heavy_passing_causes_redeals_that_do_not_count():
    game = play_game(12345, 0.85, 0.0)
    assert game.redeals > 0 and len(game.results) == DEALS


# -- dealing -------------------------------------------------------------------------------
@FAST
@given(st.permutations(range(DECK_SIZE)), st.integers(1, 13), st.integers(0, 3))
def test_dealing_conserves_the_pack_and_keeps_jokers_out_of_no_trump(deck, h, dealer):
    deal = ba.deal_cards(deck, dealer, h)
    cards = all_cards(deal)
    assert sorted(cards) == list(range(DECK_SIZE))
    assert deal.upcard == deck[4 * h]
    for j in range(4 * h):  # one at a time clockwise from the dealer's left
        seat = (dealer + 1 + j) % 4
        assert deck[j] in deal.hands[seat] or (deck[j] == deal.discarded and deck[4 * h + 1] in deal.hands[seat])
    if deal.upcard >= LJ:
        assert deal.trump == NO_TRUMP
        assert all(c < LJ for hand in deal.hands for c in hand)
        assert (deal.discarded is None) == ((BJ + LJ - deal.upcard) in deck[4 * h + 1:])
    else:
        assert deal.trump == deal.upcard // 13 and deal.discarded is None
        assert deal.stock == list(deck[4 * h + 1:])


# -- texts ---------------------------------------------------------------------------------------
@FAST
@given(st.integers(0, DECK_SIZE - 1))
def test_card_texts_round_trip(card):
    assert ba.parse_card(ba.card_text(card)) == card
    assert ba.parse_card(ba.card_symbol(card)) == card
    assert ba.parse_card(" %s " % ba.card_text(card).lower()) == card


@FAST
@given(st.one_of(st.text(max_size=6), st.text(alphabet="0123456789TJQKABLCDHS♠♥♦♣ ", max_size=5),
                 st.integers(), st.none(), st.floats()))
def test_any_card_text_parses_to_a_card_or_card_error(text):
    try:
        card = ba.parse_card(text)
    except CardError as exc:
        assert str(exc)
        return
    assert 0 <= card < DECK_SIZE
    assert ba.parse_card(ba.card_text(card)) == card


@FAST
@given(st.one_of(st.text(max_size=8), st.integers(-5, 20)), st.integers(1, 13))
def test_calls_are_accepted_exactly_when_legal(call, h):
    deal = ba.Deal(0, [list(range(s * h, s * h + h)) for s in range(4)], 52 if 4 * h < 52 else 53)
    before = state(deal)
    try:
        value = ba.parse_call(call) if isinstance(call, str) else call
    except CallError:
        value = None
    try:
        deal.bid(deal.to_act, call)
    except BackAlleyError as exc:
        assert isinstance(exc, CallError) and str(exc)
        assert value not in ba.legal_calls(h)
        assert state(deal) == before
        return
    assert value in ba.legal_calls(h) and deal.calls == [value]
