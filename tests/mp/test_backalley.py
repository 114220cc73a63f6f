"""Back Alley: RULES.md 6.5 scenarios BA-01..BA-21, card texts, refusals that change nothing.

Plain test functions: they run under pytest and under the real MicroPython.
Seats N, E, S, W; teams NS, EW; trump spades unless a test says otherwise.
"""

from pipcore.backalley import (
    BIDDING,
    BJ,
    BOARD,
    BOARD_NAMES,
    CLUBS,
    DEALING,
    DEALS,
    DECK_SIZE,
    EW,
    FINISHED,
    GAME_OVER,
    HEARTS,
    LJ,
    NO_TRUMP,
    NS,
    PASS,
    PASSED_OUT,
    PLAYING,
    SPADES,
    TIE,
    BackAlleyError,
    CallError,
    CardError,
    Contract,
    Deal,
    DeckError,
    E,
    Game,
    N,
    PhaseError,
    PlayError,
    RecordError,
    S,
    TurnError,
    W,
    card_symbol,
    card_text,
    cards_text,
    contracts,
    deal_cards,
    game_winner,
    hand_size,
    legal_calls,
    legal_follows,
    legal_leads,
    new_deck,
    opening_leader,
    parse_call,
    parse_card,
    parse_cards,
    ranking,
    shuffled_deck,
    sorted_hand,
    trick_winner,
)


def raises(exc_type, func, *args):
    """Call func(*args); return the exception's text, failing if it does not raise exc_type."""
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


def cards(text):
    return parse_cards(text)


def snapshot(deal):
    """Everything a refused action must leave unchanged."""
    return (repr(deal), [list(h) for h in deal.hands], list(deal.calls), list(deal.trick), len(deal.tricks),
            list(deal.taken), deal.to_act, deal.phase, deal.trump_broken, deal.leader)


def position(dealer, hands, upcard=None, calls=None):
    """A deal with the given hands (dict seat -> card text); other seats get low plain cards.

    The upcard is the lowest spade nobody holds unless given. Every hand is
    filled up to the longest one with unused non-trump cards (trumps only once
    those run out), so padding does not change which trumps a seat holds.
    ``calls`` (in bidding order from the dealer's left) are made at once.
    """
    given = {}
    used = []
    for seat in hands:
        given[seat] = cards(hands[seat])
        used += given[seat]
    if upcard is None:
        up = next(c for c in range(39, 52) if c not in used)
    else:
        up = parse_card(upcard)
    used.append(up)
    h = max(len(c) for c in given.values())
    trump = SPADES if up >= LJ else up // 13
    pool = [c for c in range(52) if c // 13 != trump and c not in used]
    pool += [c for c in range(DECK_SIZE) if c not in pool and c not in used and (up < LJ or c < LJ)]
    full = []
    for seat in range(4):
        hand = list(given.get(seat, []))
        while len(hand) < h:
            hand.append(pool.pop(0))
        full.append(hand)
    deal = Deal(dealer, full, up)
    for call in calls or []:
        deal.bid(deal.to_act, call)
    return deal


def play_cards(deal, text):
    """Play the cards of ``text`` in turn order, each by the seat to act."""
    for card in cards(text):
        deal.play(deal.to_act, card)


class Lcg:
    """A tiny deterministic rng with ``randrange`` (the same on CPython and MicroPython)."""

    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def play_out_deal(game, rng=None):
    """Deal and finish one counted deal: the first bidder calls 1 (or Board), the others pass."""
    game.deal(None if game.rng else shuffled_deck(rng or Lcg(game.number)))
    first = True
    while game.phase == BIDDING:
        game.bid(game.to_act, (1 if game.hand_size > 1 else BOARD) if first else PASS)
        first = False
    while game.phase == PLAYING:
        game.play(game.to_act, game.legal_cards()[0])


# -- card texts ---------------------------------------------------------------------
def test_card_texts_round_trip():
    assert card_text(parse_card("AS")) == "AS"
    assert card_text(parse_card("10H")) == "10H"
    assert parse_card("BJ") == BJ and parse_card("LJ") == LJ
    assert card_text(BJ) == "BJ" and card_text(LJ) == "LJ"
    for card in range(DECK_SIZE):
        assert parse_card(card_text(card)) == card
        assert parse_card(card_symbol(card)) == card
        assert parse_card(card_text(card).lower()) == card
    assert card_symbol(parse_card("AS")) == "♠A"
    assert card_symbol(parse_card("10h")) == "♥10"
    assert parse_card("TH") == parse_card("10H") == parse_card("♥10") == parse_card("10♥")
    assert parse_cards("AS, LJ 10H") == [parse_card("AS"), LJ, parse_card("10H")]
    assert cards_text(parse_cards("as lj 10h")) == "AS LJ 10H"
    assert len({card_text(c) for c in range(DECK_SIZE)}) == DECK_SIZE


def test_bad_card_texts_refused():
    for text in ("", "1S", "11H", "AX", "A", "S", "JJ", "10", "♠", "♠1", "BJJ"):
        assert "not a card" in raises(CardError, parse_card, text)
    assert "not a card" in raises(CardError, card_text, 54)
    assert "not a card" in raises(CardError, card_text, -1)
    assert issubclass(CardError, ValueError) and issubclass(CardError, BackAlleyError)


# -- BA-01 .. BA-05: schedule, dealer, trump, jokers, calls ---------------------------------
def test_ba01_deal_schedule():
    assert hand_size(1) == 13 and hand_size(13) == 1 and hand_size(14) == 2 and hand_size(25) == 13
    sizes = [hand_size(i) for i in range(1, DEALS + 1)]
    assert sizes == list(range(13, 0, -1)) + list(range(2, 14))
    assert DEALS == 25 and sizes.count(1) == 1
    assert "deal 26 does not exist" in raises(BackAlleyError, hand_size, 26)
    assert "deal 0 does not exist" in raises(BackAlleyError, hand_size, 0)


def test_ba01_a_game_has_25_counted_deals():
    game = Game(rng=Lcg(7))
    rng = Lcg(99)
    while game.phase != GAME_OVER:
        game.deal()
        while game.phase == BIDDING:
            calls = game.legal_calls()
            # pass often, so all-pass redeals happen too
            game.bid(game.to_act, PASS if rng.randrange(3) else calls[rng.randrange(len(calls))])
        while game.phase == PLAYING:
            legal = game.legal_cards()
            game.play(game.to_act, legal[rng.randrange(len(legal))])
    assert len(game.results) == DEALS
    assert [r.number for r in game.results] == list(range(1, DEALS + 1))
    assert [r.hand_size for r in game.results] == [hand_size(i) for i in range(1, DEALS + 1)]
    assert game.redeals > 0
    assert game.scores == [sum(r.scores[NS] for r in game.results), sum(r.scores[EW] for r in game.results)]
    assert game.winner() == game_winner(game.scores)
    assert "game is over" in raises(PhaseError, game.deal)
    assert "game is over" in raises(PhaseError, game.bid, N, PASS)
    # the dealer passed on after every deal, counted or not
    assert game.dealer == (game.first_dealer + DEALS + game.redeals) % 4


def test_ba02_dealer_rotation():
    game = Game(first_dealer=S)
    assert game.dealer == S and game.hand_size == 13
    play_out_deal(game)
    assert game.number == 2 and game.dealer == W
    play_out_deal(game)
    assert game.number == 3 and game.dealer == N
    assert [r.dealer for r in game.results] == [S, W]


def test_first_dealer_drawn_by_rng():
    dealers = {Game(rng=Lcg(seed)).dealer for seed in range(40)}
    assert dealers == {N, E, S, W}
    assert "first dealer" in raises(BackAlleyError, Game)


def test_ba03_upcard_sets_trump_and_order():
    deck = new_deck()
    nine = parse_card("9H")
    deck.remove(nine)
    deck.insert(20, nine)  # h = 5: 20 cards dealt, then the upcard
    deal = deal_cards(deck, S, 5)
    assert deal.upcard == nine and deal.trump == HEARTS and deal.trump_name() == "hearts"
    assert ranking(HEARTS, HEARTS) == [BJ, LJ] + cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")
    assert ranking(CLUBS, HEARTS) == cards("AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C")
    # the order decides tricks: each card beats every later one of the trump ranking
    order = ranking(HEARTS, HEARTS)
    for i in range(len(order) - 1):
        assert trick_winner([order[i + 1], order[i], parse_card("AC"), parse_card("AS")], E, HEARTS) == S
    assert sum(len(h) for h in deal.hands) == 20 and len(deal.stock) == 54 - 21


def _deck_with(placed):
    """A deck with the cards of ``placed`` (index -> card) at those positions, the rest in order."""
    rest = [c for c in new_deck() if c not in placed.values()]
    deck = []
    for i in range(DECK_SIZE):
        deck.append(placed[i] if i in placed else rest.pop(0))
    return deck


def test_ba04_joker_upcard_no_trump_other_joker_discarded():
    last = parse_card("7D")
    # dealer N: E receives the 1st, 5th, 9th ... card; 52 dealt, then the upcard, then one stock card
    deal = deal_cards(_deck_with({0: BJ, 52: LJ, 53: last}), N, 13)
    assert deal.trump == NO_TRUMP and deal.trump_name() == "no trump"
    assert deal.discarded == BJ and BJ not in deal.hands[E] and last in deal.hands[E]
    assert len(deal.hands[E]) == 13 and deal.stock == []
    assert all(c < LJ for hand in deal.hands for c in hand)  # no joker in play
    # BJ is the last stock card instead: nobody discards
    deal = deal_cards(_deck_with({52: LJ, 53: BJ}), N, 13)
    assert deal.trump == NO_TRUMP and deal.discarded is None and deal.stock == [BJ]
    assert all(c < LJ for hand in deal.hands for c in hand)
    # BJ turned up, LJ held by W, a shorter deal: W takes the next stock card
    deal = deal_cards(_deck_with({0: LJ, 8: BJ, 9: parse_card("2C")}), S, 2)
    assert deal.discarded == LJ and parse_card("2C") in deal.hands[W] and LJ not in deal.hands[W]
    assert len(deal.stock) == 54 - 8 - 2 and deal.upcard == BJ


def test_jokers_in_a_trump_deal_stay_trumps():
    deal = deal_cards(_deck_with({0: BJ, 1: LJ, 52: parse_card("3C")}), N, 13)
    assert deal.trump == CLUBS and deal.discarded is None
    assert BJ in deal.hands[E] and LJ in deal.hands[S]


def test_ba05_legal_calls():
    assert legal_calls(13) == [PASS] + list(range(1, 13)) + [BOARD]
    assert legal_calls(4) == [PASS, 1, 2, 3, BOARD]
    assert legal_calls(1) == [PASS, BOARD]
    deal = position(S, {W: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"})
    before = snapshot(deal)
    assert raises(CallError, deal.bid, W, 13) == "13 is not a legal call with 13 cards (at most 12)"
    assert raises(CallError, deal.bid, W, "13") == "13 is not a legal call with 13 cards (at most 12)"
    assert snapshot(deal) == before
    deal = position(S, {W: "2C"})
    assert raises(CallError, deal.bid, W, 1) == "1 is not a legal call with 1 card (only Pass or Board)"
    deal = position(S, {W: "2C 3C 4C 5C"})
    assert "at most 3" in raises(CallError, deal.bid, W, 4)
    for bad in (-2, "-1", "0", "two", "", None, 2.5, "¹", "9" * 5000):
        assert "not a call" in raises(CallError, deal.bid, W, bad)
    assert deal.calls == [] and deal.to_act == W
    assert parse_call("Pass") == PASS and parse_call(" b ") == BOARD and parse_call("12") == 12
    deal.bid(W, "3")
    deal.bid(N, "pass")
    assert deal.calls == [3, PASS]


def test_calls_out_of_turn_or_phase_refused():
    deal = position(S, {W: "2C 3C 4C"})
    assert raises(TurnError, deal.bid, N, PASS) == "it is W's turn to call, not N's"
    assert "not a seat" in raises(TurnError, deal.bid, 4, PASS)
    assert "no card can be played now: W is to call" in raises(PhaseError, deal.play, W, "2C")
    for call in (1, PASS, PASS, PASS):
        deal.bid(deal.to_act, call)
    assert deal.phase == PLAYING
    assert "the bidding is over" in raises(PhaseError, deal.bid, W, PASS)


# -- BA-06 .. BA-08: contracts, opening leader, all pass ------------------------------------
def test_ba06_double_board_team_contracts():
    deal = position(S, {N: "2C 3C 4C 5C 6C"}, calls=(3, BOARD, BOARD, 2))
    assert deal.board_calls() == [(N, 1), (E, 2)]
    assert BOARD_NAMES[2 - 1] == "double board"
    assert deal.contracts[NS] == Contract(board=1)  # S's 2 ignored
    assert deal.contracts[EW] == Contract(board=2)  # W's 3 ignored
    assert deal.contracts[EW].text() == "board x2" and deal.contracts[NS].text() == "board x1"
    assert deal.leader == E and deal.to_act == E and deal.phase == PLAYING
    assert contracts([3, BOARD, BOARD, 2], W) == [Contract(board=1), Contract(board=2)]
    assert opening_leader([3, BOARD, BOARD, 2], W) == E


def test_ba07_highest_number_first_caller_leads():
    deal = position(S, {N: "2C 3C 4C 5C 6C"}, calls=(4, 2, 4, PASS))
    assert deal.leader == W and deal.to_act == W
    assert deal.contracts[NS] == Contract(tricks=2) and deal.contracts[EW] == Contract(tricks=8)
    assert deal.contracts[EW].text() == "8"
    assert opening_leader([PASS, 2, PASS, PASS], E) == S  # dealer N: E, S, W, N call in turn
    assert opening_leader([PASS, PASS, PASS, PASS], N) is None


def test_ba08_all_pass_redeal_same_size_next_dealer():
    game = Game(first_dealer=N)
    for _ in range(6):
        play_out_deal(game)
    assert game.number == 7 and game.dealer == S and game.hand_size == 7
    game.deal(shuffled_deck(Lcg(3)))
    for _ in range(4):
        game.bid(game.to_act, PASS)
    assert game.phase == DEALING and game.current is None
    assert game.last_deal.phase == PASSED_OUT
    assert game.number == 7 and game.dealer == W and game.hand_size == 7 and game.redeals == 1
    assert len(game.results) == 6
    deal = game.deal(shuffled_deck(Lcg(4)))
    assert deal.dealer == W and deal.hand_size == 7 and deal.number == 7
    assert all(len(h) == 7 for h in deal.hands) and game.to_act == N


# -- BA-09 .. BA-17: legal cards and trick winners -----------------------------------------
def test_ba09_trump_not_broken_no_trump_lead():
    deal = position(S, {W: "AS LJ KH 2D 3C"}, calls=(4, PASS, PASS, PASS))
    assert deal.to_act == W
    assert sorted(deal.legal_cards()) == sorted(cards("KH 2D 3C"))
    before = snapshot(deal)
    assert raises(PlayError, deal.play, W, "AS") == "trumps are not broken: ♠A cannot be led"
    assert raises(PlayError, deal.play, W, LJ) == "trumps are not broken: LJ cannot be led"
    assert snapshot(deal) == before
    # the hand exactly as the scenario gives it, with a call of 3 at h = 4
    deal = position(S, {W: "AS LJ KH 2D"}, calls=(3, PASS, PASS, PASS))
    assert sorted(deal.legal_cards()) == sorted(cards("KH 2D"))
    deal.play(W, "KH")
    assert deal.trick == cards("KH") and deal.to_act == N


def test_ba10_only_trumps_may_be_led():
    deal = position(S, {W: "5S LJ"}, calls=(1, PASS, PASS, PASS))
    assert sorted(deal.legal_cards()) == sorted(cards("5S LJ"))
    deal.play(W, LJ)
    assert deal.trump_broken
    assert legal_leads(cards("5S LJ"), SPADES) == cards("5S LJ")


def test_ba11_trump_played_by_void_follower_breaks_trumps():
    deal = position(S, {W: "5D 2C 3C", N: "3S 7S 2H", E: "6D 4S 3H", S: "7D 5S 5H"}, calls=(1, PASS, PASS, PASS))
    assert not deal.trump_broken
    play_cards(deal, "5D 3S")  # N is void in diamonds and trumps
    play_cards(deal, "6D 7D")
    assert deal.tricks[0] == (W, cards("5D 3S 6D 7D"), N) and deal.to_act == N
    assert deal.trump_broken
    assert parse_card("7S") in deal.legal_cards()
    for seat in (E, S, W):  # for everyone
        hand = deal.hands[seat]
        assert legal_leads(hand, SPADES, deal.trump_broken) == hand
    deal.play(N, "7S")
    assert deal.legal_cards() == cards("4S")  # E follows trumps


def test_ba12_big_joker_led_by_board_caller():
    deal = position(S, {E: "BJ AC AD", N: "LJ AS 4H", S: "2S 9S 2C", W: "AH KH KD"},
                    calls=(BOARD, PASS, BOARD, PASS))
    assert deal.board_calls() == [(W, 1), (E, 2)] and deal.to_act == E
    assert BJ in deal.legal_cards()  # E called Board: trumps may be led before they are broken
    deal.play(E, BJ)
    assert raises(TurnError, deal.play, N, LJ) == "it is S's turn to play, not N's"
    assert deal.legal_cards() == cards("9S")
    assert raises(PlayError, deal.play, S, "2S") == "S must play his highest trump, ♠9"
    deal.play(S, "9S")
    assert sorted(deal.legal_cards()) == sorted(cards("AH KH KD"))
    deal.play(W, "KD")
    assert deal.legal_cards() == [LJ]
    assert raises(PlayError, deal.play, N, "AS") == "N must play his highest trump, LJ"
    deal.play(N, LJ)
    assert deal.tricks[0][2] == E and deal.taken[E] == 1 and deal.to_act == E


def test_ba12_without_board_the_joker_cannot_be_led():
    deal = position(S, {E: "BJ AC AD"}, calls=(PASS, PASS, 2, PASS))
    assert BJ not in deal.legal_cards()


def test_ba13_follow_suit_before_trumping():
    deal = position(S, {W: "3H 2C 3C", N: "2H AS LJ"}, calls=(1, PASS, PASS, PASS))
    deal.play(W, "3H")
    assert deal.legal_cards() == cards("2H")
    before = snapshot(deal)
    assert raises(PlayError, deal.play, N, "AS") == "N must follow hearts"
    assert raises(PlayError, deal.play, N, LJ) == "N must follow hearts"
    assert raises(PlayError, deal.play, N, "KH") == "N does not hold ♥K"
    assert snapshot(deal) == before
    deal.play(N, "2H")


def test_ba14_little_joker_follows_trump_lead():
    deal = position(S, {W: "AC 2D 3D 4D", N: "3S 4S 2H 3H", E: "2C LJ 5H 6H", S: "3C 4C 5C 6C"},
                    calls=(2, PASS, PASS, PASS))
    play_cards(deal, "AC 3S 2C 3C")  # N void in clubs trumps: broken
    assert deal.trump_broken and deal.to_act == N
    deal.play(N, "4S")
    assert deal.legal_cards() == [LJ]
    assert raises(PlayError, deal.play, E, "5H") == "E must follow spades, the trump suit (jokers count as trumps)"
    deal.play(E, LJ)
    play_cards(deal, "4C 2D")
    assert deal.tricks[1][2] == E


def test_ba15_little_joker_led_big_joker_only_trump():
    deal = position(S, {W: "LJ 5S", N: "BJ 4H"}, calls=(1, PASS, PASS, PASS))
    assert LJ in deal.legal_cards()  # W holds only trumps
    deal.play(W, LJ)
    assert deal.legal_cards() == [BJ]
    assert raises(PlayError, deal.play, N, "4H") == "N must play his lowest trump, BJ"
    deal.play(N, BJ)
    deal.play(E, deal.legal_cards()[0])
    deal.play(S, deal.legal_cards()[0])
    assert deal.tricks[0][2] == N
    # the lowest trump is a plain trump when there is one
    assert legal_follows(cards("BJ 2S AS 4H"), LJ, SPADES) == cards("2S")
    assert legal_follows(cards("2S AS 4H"), BJ, SPADES) == cards("AS")
    assert legal_follows(cards("LJ 2S AS 4H"), BJ, SPADES) == [LJ]
    assert legal_follows(cards("4H 5D"), BJ, SPADES) == cards("4H 5D")


def test_ba16_trick_winners():
    assert trick_winner(cards("KH AH 2S 3H"), N, SPADES) == S  # the trump wins
    assert trick_winner(cards("KH AD QH AC"), N, NO_TRUMP) == N  # no trump: highest heart
    assert trick_winner(cards("KH AH 2S 3S"), E, SPADES) == N  # highest trump of two
    assert trick_winner(cards("2S BJ AS LJ"), W, SPADES) == N
    assert trick_winner(cards("2H AS 3H 4H"), W, HEARTS) == S  # the ace of a side suit never wins
    deal = position(S, {W: "KH 2C", N: "AD 3D", E: "QH 3C", S: "AC 4D"}, upcard="LJ", calls=(1, PASS, PASS, PASS))
    play_cards(deal, "KH AD QH AC")
    assert deal.tricks[0][2] == W


def test_ba17_no_trump_any_lead():
    deal = position(S, {W: "AS KS 2H"}, upcard="BJ", calls=(1, PASS, PASS, PASS))
    assert deal.trump == NO_TRUMP
    assert sorted(deal.legal_cards()) == sorted(cards("AS KS 2H"))
    deal.play(W, "AS")
    assert not deal.trump_broken  # there are no trumps


# -- BA-18 .. BA-21: scoring and the end -------------------------------------------------
def test_ba18_numeric_contracts():
    ns, ew = contracts([3, PASS, 2, PASS], N)  # dealer W: N 3, E Pass, S 2, W Pass
    assert ns == Contract(tricks=5) and ew == Contract(tricks=0)
    assert ns.score(7, 11) == 27 and ew.score(4, 11) == 4
    assert ns.score(4, 11) == -25 and ew.score(7, 11) == 7
    assert ns.score(5, 11) == 25 and ew.score(0, 11) == 0


def test_ba19_boards():
    ns, ew = Contract(board=1), Contract(board=2)
    assert ns.score(6, 6) == 60 and ew.score(0, 6) == -120
    assert ns.score(3, 6) == -60 and ew.score(3, 6) == -120
    assert ew.score(6, 6) == 120


def test_ba20_two_boards_one_team_played_out():
    deal = position(W, {N: "BJ LJ AS KS QS", S: "2C 3C 4C 5C 6C", E: "2H 3H 4H 5H 6H", W: "2D 3D 4D 5D 6D"},
                    calls=(BOARD, PASS, BOARD, 2))
    assert deal.contracts[NS] == Contract(board=2) and deal.contracts[EW] == Contract(tricks=2)
    assert deal.to_act == S  # the last Board call leads
    while deal.phase == PLAYING:
        deal.play(deal.to_act, deal.legal_cards()[0])
    assert deal.phase == FINISHED and deal.team_tricks() == [5, 0]
    assert deal.scores() == [100, -10]
    assert "the deal is finished" in raises(PhaseError, deal.play, N, "AS")


def test_ba21_winner_and_tie():
    assert game_winner([312, 298]) == NS
    assert game_winner([298, 312]) == EW
    assert game_winner([300, 300]) == TIE
    assert "not over" in raises(PhaseError, Game(first_dealer=N).winner)


# -- refusals ------------------------------------------------------------------------------
def test_game_phase_refusals_change_nothing():
    game = Game(first_dealer=E)
    assert "not dealt yet" in raises(PhaseError, game.bid, S, PASS)
    assert "not dealt yet" in raises(PhaseError, game.play, S, "AS")
    assert "54" in raises(DeckError, game.deal, new_deck()[:53])
    deck = new_deck()
    deck[5] = 6
    assert "appears twice" in raises(DeckError, game.deal, deck)
    assert "no rng" in raises(DeckError, game.deal)
    assert "sequence of 54 cards" in raises(DeckError, game.deal, 7)
    assert "not a card" in raises(CardError, game.deal, ["AS"] * 53 + ["XX"])
    assert "AS appears twice" in raises(DeckError, game.deal, ["AS"] * 54)
    assert game.current is None and game.phase == DEALING and game.number == 1
    deal = game.deal([card_text(c) for c in shuffled_deck(Lcg(1))])  # texts are accepted too
    assert deal.hands == Game(first_dealer=E).deal(shuffled_deck(Lcg(1))).hands
    assert "already dealt" in raises(PhaseError, game.deal, new_deck())
    assert "not playing cards now: S is to call" in raises(PhaseError, game.play, S, "AS")
    assert raises(TurnError, game.bid, N, PASS) == "it is S's turn to call, not N's"


def test_positions_validated():
    two = [cards("2C 3C"), cards("4C 5C"), cards("6C 7C"), cards("8C")]
    assert "holds" in raises(DeckError, Deal, N, two, "2S")
    dup = [cards("2C 3C"), cards("4C 5C"), cards("6C 7C"), cards("8C 2C")]
    assert "2C appears twice" in raises(DeckError, Deal, N, dup, "2S")
    joker = [cards("2C 3C"), cards("4C 5C"), cards("6C 7C"), cards("8C BJ")]
    assert "no-trump deal: W may not hold BJ" in raises(DeckError, Deal, N, joker, "LJ")
    assert "appears twice" in raises(DeckError, Deal, N, two[:3] + [cards("8C 2S")], "2S")
    assert "other joker" in raises(DeckError, Deal, N, two[:3] + [cards("8C 9C")], "2S", 1, None, BJ)
    assert "other joker" in raises(DeckError, Deal, N, two[:3] + [cards("8C 9C")], "LJ", 1, None, "2D")
    deal = Deal(N, two[:3] + [cards("8C 9C")], "LJ", 1, None, BJ)
    assert deal.discarded == BJ and BJ not in deal.stock and len(deal.stock) == 54 - 8 - 2


def test_seats_and_calls_as_text():
    deal = position(S, {W: "2C 3C 4C 5C"})
    deal.bid("w", "3")
    deal.bid("N", "Board")
    deal.bid(E, "p")
    deal.bid("S", "pass")
    assert deal.calls == [3, BOARD, PASS, PASS] and deal.to_act == N
    assert "not a seat" in raises(TurnError, deal.play, "X", "2C")
    assert sorted(deal.legal_cards()) == sorted(deal.hands[N])
    deal.play("N", card_text(deal.hands[N][0]))
    assert len(deal.trick) == 1


# -- the record ---------------------------------------------------------------------------
def _same_game(a, b):
    assert a.record() == b.record() and repr(a) == repr(b)
    assert a.scores == b.scores and a.redeals == b.redeals and a.phase == b.phase and a.to_act == b.to_act
    if a.current is not None:
        assert snapshot(a.current) == snapshot(b.current) and a.current.stock == b.current.stock
    assert [repr(r) for r in a.results] == [repr(r) for r in b.results]


def test_record_replays_to_the_same_game():
    game = Game(first_dealer=W)
    play_out_deal(game)
    game.deal(shuffled_deck(Lcg(5)))
    for _ in range(4):
        game.bid(game.to_act, PASS)  # a redeal is recorded too
    game.deal(shuffled_deck(Lcg(6)))
    game.bid(game.to_act, BOARD)
    for _ in range(3):
        game.bid(game.to_act, "pass")
    for _ in range(5):
        game.play(game.to_act, game.legal_cards()[-1])
    text = game.record()
    lines = text.splitlines()
    assert lines[0] == "backalley 1" and lines[1] == "first-dealer W" and lines[2].startswith("deal ")
    assert "bid N Board" in lines or "bid E Board" in lines or "bid S Board" in lines or "bid W Board" in lines
    copy = Game.from_record(text)
    _same_game(game, copy)
    actions = game.actions()
    assert actions[0][0] == "deal" and len(actions[0][1]) == DECK_SIZE
    assert [a[0] for a in actions].count("deal") == 3
    assert len(game.record_log()) == 3 * (1 + DECK_SIZE) + 2 * (len(actions) - 3)
    # both go on identically
    card = game.legal_cards()[0]
    game.play(game.to_act, card)
    copy.play(copy.to_act, card)
    _same_game(game, copy)
    # comments and blank lines are allowed
    _same_game(game, Game.from_record("# saved game\n\n" + game.record().replace("\n", "  # ok\n", 3)))


def test_bad_records_name_the_line():
    game = Game(first_dealer=N)
    game.deal(new_deck())
    game.bid(E, 2)
    text = game.record()
    assert "starts with" in raises(RecordError, Game.from_record, "chess 1\n")
    assert "line 2: 'X' is not a seat" in raises(RecordError, Game.from_record, "backalley 1\nfirst-dealer X\n")
    assert "line 2: the second line names" in raises(RecordError, Game.from_record, "backalley 1\nbid N 3\n")
    assert "before its first-dealer" in raises(RecordError, Game.from_record, "backalley 1\n")
    assert raises(RecordError, Game.from_record, text + "bid E 3\n") == "line 5: it is S's turn to call, not E's"
    assert "line 5: 13 is not a legal call" in raises(RecordError, Game.from_record, text + "bid S 13\n")
    assert "line 5: expected" in raises(RecordError, Game.from_record, text + "bid S\n")
    assert "line 3: expected" in raises(RecordError, Game.from_record, text.replace(" BJ", ""))
    assert "line 3: the deck: 2C appears twice" in raises(RecordError, Game.from_record, text.replace("3C", "2C"))
    assert "line 5: not playing cards now" in raises(RecordError, Game.from_record, text + "play S 2C\n")
    assert issubclass(RecordError, ValueError)


def test_sorted_hand_groups_suits_with_trumps_last():
    hand = cards("2S BJ 10H AC 4H LJ KS 3C")
    assert cards_text(sorted_hand(hand, SPADES)) == "AC 3C 10H 4H BJ LJ KS 2S"
    assert cards_text(sorted_hand(hand, HEARTS)) == "AC 3C KS 2S BJ LJ 10H 4H"
    assert cards_text(sorted_hand(cards("2S 10H AC 4H"), NO_TRUMP)) == "AC 10H 4H 2S"
