"""Back Alley bots (pipboard.babots): 1,000 whole games bot against bot, and what "sensible" means.

Every game is played through the engine (``pipcore.backalley.Game`` refuses
any illegal call or card), each bot choice is checked against the engine's
legal set, the game record is replayed by the engine, and then the whole
game is refereed again by an independent recount written here from RULES.md
5.3-5.10 (dealing, legal cards, trick winners, contracts, scores, dealer
rotation, redeals, the winner), not by the engine's code.
"""

import random

import pytest

from pipboard.babots import SeatView, choose_call, choose_card, expected_tricks, sure_tricks
from pipboard.basheet import keeper_from_game
from pipcore.backalley import BIDDING, BOARD, DEALING, PASS, TIE, Deal, Game, card_text, parse_cards

GAMES = 1000
CHUNKS = 10

# -- the independent recount (RULES.md 5.3-5.10) -------------------------------------
LITTLE, BIG = 52, 53


def trump_card(card, trump):
    return trump is not None and (card >= LITTLE or card // 13 == trump)


def strength(card, trump, led_suit):
    """Higher wins: trumps (BJ > LJ > A ... 2) over the led suit over the rest (5.5, 5.8)."""
    if trump_card(card, trump):
        return 100 + (card % 13 if card < LITTLE else 13 + card - LITTLE)
    if card // 13 == led_suit:
        return card % 13
    return -1


def suit_played(card, trump):
    return trump if card >= LITTLE else card // 13


def allowed(hand, trick, trump, broken, called_board):
    """The cards of ``hand`` a player may play (5.8), written out."""
    if not trick:
        if trump is None or broken or called_board:
            return set(hand)
        plain = {c for c in hand if not trump_card(c, trump)}
        return plain or set(hand)
    led = trick[0]
    trumps = [c for c in hand if trump_card(c, trump)]
    if trump is not None and led in (BIG, LITTLE) and trumps:
        order = sorted(trumps, key=lambda c: strength(c, trump, trump))
        return {order[-1]} if led == BIG else {order[0]}
    suit = suit_played(led, trump)
    same = {c for c in hand if suit_played(c, trump) == suit}
    return same or set(hand)


def deal_points(calls, first, team_taken, h):
    boards = [0, 0]
    numbers = [0, 0]
    k = 0
    for i, call in enumerate(calls):
        team = (first + i) % 2
        if call == BOARD:
            k += 1
            boards[team] = k
        else:
            numbers[team] += call
    points = []
    for team in (0, 1):
        t = team_taken[team]
        if boards[team]:
            points.append(10 * h * boards[team] if t == h else -10 * h * boards[team])
        elif t >= numbers[team]:
            points.append(5 * numbers[team] + t - numbers[team])
        else:
            points.append(-5 * numbers[team])
    return points


def recount(game):
    """Referee ``game.actions()`` again from scratch; returns (per-deal points, totals, redeals, dealers)."""
    actions = game.actions()
    dealer = game.first_dealer
    number = 1
    totals = [0, 0]
    per_deal = []
    redeals = 0
    dealers = []
    i = 0
    while i < len(actions):
        kind, deck = actions[i][0], actions[i][1]
        assert kind == "deal"
        i += 1
        assert sorted(deck) == list(range(54))
        h = 14 - number if number <= 13 else number - 12
        hands = [[] for _ in range(4)]
        for j in range(4 * h):
            hands[(dealer + 1 + j) % 4].append(deck[j])
        up = deck[4 * h]
        stock = deck[4 * h + 1:]
        trump = None if up >= LITTLE else up // 13
        if trump is None:
            other = BIG + LITTLE - up
            for hand in hands:
                if other in hand:
                    hand[hand.index(other)] = stock[0]
        calls = []
        for n in range(4):
            kind, seat, call = actions[i]
            i += 1
            assert kind == "bid" and seat == (dealer + 1 + n) % 4
            assert call == BOARD or call == PASS or (h > 1 and 1 <= call < h), (h, call)
            calls.append(call)
        dealers.append(dealer)
        if all(c == PASS for c in calls):
            redeals += 1
            dealer = (dealer + 1) % 4
            continue
        first = (dealer + 1) % 4
        board_at = [n for n in range(4) if calls[n] == BOARD]
        if board_at:
            leader = (first + board_at[-1]) % 4
        else:
            top = max(calls)
            leader = (first + calls.index(top)) % 4
        taken = [0, 0, 0, 0]
        broken = False
        for _trick in range(h):
            trick = []
            for n in range(4):
                kind, seat, card = actions[i]
                i += 1
                assert kind == "play" and seat == (leader + n) % 4
                hand = hands[seat]
                called_board = calls[(seat - first) % 4] == BOARD
                assert card in allowed(hand, trick, trump, broken, called_board), (hand, trick, card)
                hand.remove(card)
                trick.append(card)
                broken = broken or trump_card(card, trump)
            led_suit = suit_played(trick[0], trump)
            best = max(range(4), key=lambda n: strength(trick[n], trump, led_suit))
            leader = (leader + best) % 4
            taken[leader] += 1
        assert not any(hands)
        points = deal_points(calls, first, [taken[0] + taken[2], taken[1] + taken[3]], h)
        totals = [totals[0] + points[0], totals[1] + points[1]]
        per_deal.append((number, h, points, taken))
        number += 1
        dealer = (dealer + 1) % 4
    return per_deal, totals, redeals, dealers


# -- the games ----------------------------------------------------------------------
def bot_game(seed):
    game = Game(rng=random.Random(seed))
    while not game.is_over():
        if game.phase == DEALING:
            game.deal()
        elif game.phase == BIDDING:
            deal, seat = game.current, game.to_act
            call = choose_call(deal, seat)
            assert call in deal.legal_calls(), (call, deal.legal_calls())
            game.bid(seat, call)
        else:
            deal, seat = game.current, game.to_act
            card = choose_card(deal, seat)
            assert card in deal.legal_cards(), (card, deal.legal_cards())
            game.play(seat, card)
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_bot_games_agree_with_the_engine_and_an_independent_recount(chunk):
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        game = bot_game(seed)
        per_deal, totals, redeals, dealers = recount(game)
        assert len(per_deal) == 25 and [d[0] for d in per_deal] == list(range(1, 26))
        assert [d[1] for d in per_deal] == [r.hand_size for r in game.results]
        assert [d[2] for d in per_deal] == [r.scores for r in game.results], seed
        assert [[d[3][0] + d[3][2], d[3][1] + d[3][3]] for d in per_deal] == [r.tricks for r in game.results]
        assert totals == game.scores and redeals == game.redeals, seed
        assert dealers == [(game.first_dealer + n) % 4 for n in range(len(dealers))]
        assert game.winner() == (TIE if totals[0] == totals[1] else 0 if totals[0] > totals[1] else 1)
        if seed % 50 == 0:  # the record replays, and the score sheet keeps the same score
            replay = Game.from_record(game.record())
            assert replay.scores == game.scores
            keeper = keeper_from_game(game)
            assert keeper.scores == totals and keeper.is_over()


# -- sensible play ------------------------------------------------------------------------
def setup(dealer, hands, upcard, calls, plays=""):
    """A deal with ``hands`` (text per seat N, E, S, W), ``calls`` from the dealer's left, then ``plays``."""
    deal = Deal(dealer, [parse_cards(h) for h in hands], parse_cards(upcard)[0])
    for call in calls:
        deal.bid(deal.to_act, call)
    for card in parse_cards(plays):
        deal.play(deal.to_act, card)
    return deal


def chosen(deal):
    return card_text(choose_card(deal, deal.to_act))


def test_a_bot_leaves_a_trick_its_partner_is_sure_to_win():
    # trump spades; N leads the AH, E follows; S keeps its KH (now the top heart) and plays the 4
    deal = setup(3, ["AH 2C", "3H 3C", "KH 4H", "5H 6C"], "2S", ["1", "pass", "pass", "pass"], "AH 3H")
    assert deal.to_act == 2 and chosen(deal) == "4H"


def test_last_to_play_wins_with_the_cheapest_card_that_wins():
    # N leads 2H, E QH, S 5H; W holds KH and AH and plays last: the king is enough
    deal = setup(3, ["2H 3C", "QH 4C", "5H 6C", "KH AH"], "2S", ["1", "pass", "pass", "pass"], "2H QH 5H")
    assert deal.to_act == 3 and chosen(deal) == "KH"


def test_a_bot_ruffs_low_and_throws_its_least_useful_card():
    # trump clubs; E leads KH and S has no heart: it ruffs with its 9C, not the AD
    deal = setup(0, ["2H 3H 4H", "KH 5D 6D", "9C AD 2D", "QH 7D 8D"], "2C", ["1", "pass", "pass", "pass"], "KH")
    assert deal.to_act == 2 and chosen(deal) == "9C"
    # E leads AH: S, without hearts or trumps, cannot win: it throws the 2D and keeps the AD and KD
    deal = setup(0, ["2H 3H 4H", "AH 5D 6D", "KD AD 2D", "QH 7D 8D"], "2C", ["1", "pass", "pass", "pass"], "AH")
    assert chosen(deal) == "2D"


def test_second_hand_plays_low_unless_the_opponents_board_is_alive():
    hands = ["8D 9D 8C", "3D JD 9C", "QD 2D 4C", "5D 6D 7C"]
    # E called 1 and leads 3D; S holds the QD (the AD and KD unseen): second hand low, the 2D
    deal = setup(0, hands, "2S", ["1", "pass", "pass", "pass"], "3D")
    assert deal.to_act == 2 and chosen(deal) == "2D"
    # E called Board: one trick sets it, so S tries the queen at once
    deal = setup(0, hands, "2S", ["board", "pass", "pass", "pass"], "3D")
    assert deal.to_act == 2 and chosen(deal) == "QD"


def test_a_bot_counts_the_trumps_it_has_seen():
    # trump spades (2S turned up); N called Board and leads BJ: E must give its LJ, S its AS
    deal = setup(3, ["BJ 3C", "LJ QS", "AS 5C", "7C 6C"], "2S", ["board", "pass", "pass", "pass"], "BJ LJ AS 6C")
    view = SeatView(deal, 1)
    # 15 trumps (13 spades, 2 jokers) less the upcard, the three played and E's own QS
    assert view.unseen_trumps() == 10
    assert view.unseen_above(parse_cards("QS")[0]) == 1 and not view.is_master(parse_cards("QS")[0])
    # and a Board caller with the top trumps draws trumps first
    deal = setup(2, ["2C 3C 4C 5C", "6C 7C 8C 9C", "2H 3H 4H 5H", "BJ LJ AS AD"], "2S",
                 ["board", "pass", "pass", "pass"])
    assert deal.to_act == 3 and chosen(deal) == "BJ"


def test_calls_follow_the_hand():
    strong = parse_cards("BJ LJ AS KS QS AH KH AD KD AC 5C 4C 3C")
    weak = parse_cards("2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 7C 8C 9C")
    spade_up = parse_cards("2S")[0]
    assert expected_tricks(strong, 3, spade_up, 13) > expected_tricks(weak, 3, spade_up, 13) + 5
    assert sure_tricks(parse_cards("BJ LJ AS"), 3, spade_up)
    assert not sure_tricks(parse_cards("BJ LJ KS"), 3, spade_up)
    assert sure_tricks(parse_cards("AH KH AD"), -1, parse_cards("BJ")[0])  # no trump: top cards are sure
    rest = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 3S 4S 5S 6S 7S 8S 9S"
    pool = [c for c in parse_cards(rest + " 10S JS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
            if c not in strong and c not in weak]
    hands = [strong, weak, pool[:13], pool[13:26]]
    deal = Deal(3, hands, spade_up)
    assert choose_call(deal, 0) >= 5
    deal.bid(0, choose_call(deal, 0))
    assert choose_call(deal, 1) == PASS  # nothing in it
    one = Deal(0, [parse_cards("BJ"), parse_cards("2H"), parse_cards("3H"), parse_cards("4H")], spade_up)
    assert choose_call(one, 1) == PASS  # a 2 of hearts with one card: Pass (no number exists)
    one.bid(1, PASS)
    one.bid(2, PASS)
    one.bid(3, PASS)
    assert choose_call(one, 0) == BOARD  # the Big Joker always wins its trick
    partner = Deal(3, hands, spade_up)
    partner.bid(0, BOARD)
    partner.bid(1, PASS)
    assert choose_call(partner, 2) == PASS  # after the partner's Board a number counts for nothing


def random_game(seed, bot_team):
    """Bots on ``bot_team`` (0 NS, 1 EW), random legal calls and cards on the other team."""
    rng = random.Random(seed)
    game = Game(rng=random.Random(seed))
    while not game.is_over():
        if game.phase == DEALING:
            game.deal()
            continue
        deal, seat = game.current, game.to_act
        bot = seat % 2 == bot_team
        if game.phase == BIDDING:
            game.bid(seat, choose_call(deal, seat) if bot else rng.choice([PASS] + deal.legal_calls()))
        else:
            game.play(seat, choose_card(deal, seat) if bot else rng.choice(deal.legal_cards()))
    return game


def test_bots_beat_random_players_and_make_most_contracts():
    wins = 0
    for seed in range(20):
        game = random_game(seed, seed % 2)
        wins += game.scores[seed % 2] > game.scores[1 - seed % 2]
    assert wins >= 19, wins
    made = total = 0
    for seed in range(5):
        game = bot_game(1000 + seed)
        for result in game.results:
            for team in (0, 1):
                c = result.contracts[team]
                if c.tricks and not c.board:
                    total += 1
                    made += result.tricks[team] >= c.tricks
    assert made >= 0.75 * total, (made, total)
