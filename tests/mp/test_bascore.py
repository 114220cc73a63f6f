"""The Back Alley scorekeeper (pipcore.bascore): whole games keyed, refusals, undo, power cuts.

Plain test functions: they run under pytest and under the real MicroPython
(unix and WebAssembly ports). Scores are checked against a recount written
here from RULES.md 5.9, not against the engine's ``Contract.score``.
"""

import json

from pipcore.backalley import (
    BOARD,
    DEALS,
    EW,
    NO_TRUMP,
    NS,
    PASS,
    SPADES,
    TIE,
    BackAlleyError,
    CallError,
    E,
    N,
    PhaseError,
    S,
    W,
)
from pipcore.bascore import (
    CALLING,
    OVER,
    TRICKS,
    TRUMP,
    ScoreError,
    ScoreKeeper,
    call_short,
    parse_trump,
)


def raises(exc_type, func, *args):
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def recount(calls, first_bidder, taken, h):
    """RULES.md 5.6 and 5.9 written out: the deal's points [NS, EW] (calls in bidding order)."""
    board = [0, 0]
    number = [0, 0]
    boards = 0
    for i in range(4):
        team = (first_bidder + i) % 2
        if calls[i] == BOARD:
            boards += 1
            board[team] = boards
        elif calls[i] > 0:
            number[team] += calls[i]
    points = []
    for team in (0, 1):
        t = taken[team] + taken[team + 2]
        if board[team]:
            points.append(10 * h * board[team] * (1 if t == h else -1))
        elif t >= number[team]:
            points.append(5 * number[team] + t - number[team])
        else:
            points.append(-5 * number[team])
    return points


def state_of(k):
    return (k.number, k.dealer, k.hand_size, k.phase, k.trump, list(k.calls), list(k.keyed_tricks),
            list(k.scores), len(k.rows), k.redeals, k.keys_text())


def random_keys(k, rng):
    """One key for the keeper's phase, always a legal one; returns what was keyed."""
    h = k.hand_size
    if k.phase == TRUMP:
        t = rng.randrange(5)
        k.key_trump(NO_TRUMP if t == 4 else t)
        return ("trump", t)
    if k.phase == CALLING:
        r = rng.randrange(10)
        if r < 4:
            call = PASS
        elif r == 4:
            call = BOARD
        else:
            call = PASS if h == 1 else 1 + rng.randrange(min(h - 1, 4))
        k.key_call(call)
        return ("call", call)
    left = h - sum(k.keyed_tricks)
    n = left if len(k.keyed_tricks) == 3 else rng.randrange(left + 1)
    k.key_tricks(n)
    return ("tricks", n)


def play_whole_game(seed, cut_every=0):
    """A whole game of legal keys; with ``cut_every``, a power cut (snapshot, JSON, restore) that often."""
    rng = Lcg(seed)
    k = ScoreKeeper(seed % 4, ["Ann", "Bob", "Cy", "Di"])
    expected = [0, 0]
    dealers = []
    n = 0
    while not k.is_over():
        before_number, dealer, h = k.number, k.dealer, k.hand_size
        first_bidder = k.first_bidder
        random_keys(k, rng)
        n += 1
        if k.number != before_number:  # a deal was just scored: recount it
            row = k.rows[-1]
            assert row.hand_size == h and row.dealer == dealer and not row.redeal
            points = recount(row.calls, first_bidder, row.taken, h)
            assert row.points == points, (row.points, points)
            expected[0] += points[0]
            expected[1] += points[1]
            assert k.scores == expected and row.totals == expected
            dealers.append(dealer)
        if cut_every and n % cut_every == 0:
            before = state_of(k)
            k = ScoreKeeper.restore(json.loads(json.dumps(k.snapshot())))
            assert state_of(k) == before
    return k, dealers


def test_a_whole_game_has_25_counted_deals_13_down_to_1_and_back_to_13():
    k, dealers = play_whole_game(7)
    counted = [r for r in k.rows if not r.redeal]
    assert len(counted) == DEALS
    assert [r.hand_size for r in counted] == [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                              2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert [r.number for r in counted] == list(range(1, DEALS + 1))
    assert k.phase == OVER and k.to_act is None
    assert k.redeals == len(k.rows) - DEALS and k.redeals > 0  # seed 7 has passed-out deals
    # the deal passes clockwise after every deal, counted or not (5.3)
    seats = [r.dealer for r in k.rows]
    assert seats[0] == 7 % 4
    for i in range(1, len(seats)):
        assert seats[i] == (seats[i - 1] + 1) % 4
    w = k.winner()
    assert w == (TIE if k.scores[0] == k.scores[1] else (NS if k.scores[0] > k.scores[1] else EW))


def test_a_redeal_keeps_the_hand_size_moves_the_dealer_and_is_not_counted():
    k = ScoreKeeper(W)
    k.key_trump("H")
    for _ in range(4):
        k.key_call("pass")
    assert k.phase == TRUMP and k.number == 1 and k.hand_size == 13 and k.dealer == N
    assert k.redeals == 1 and k.rows[0].redeal and k.rows[0].dealer == W and k.scores == [0, 0]
    assert k.to_act is None and k.trump is None and k.calls == []


def test_calls_are_keyed_in_turn_from_the_dealers_left_and_refused_where_5_6_forbids():
    k = ScoreKeeper(S)  # W calls first
    k.key_trump(SPADES)
    assert k.phase == CALLING and k.to_act == W
    assert k.legal_calls() == [PASS] + list(range(1, 13)) + [BOARD]
    before = state_of(k)
    assert "13 is not a legal call with 13 cards (at most 12)" in raises(CallError, k.key_call, 13)
    assert "not a call" in raises(CallError, k.key_call, "seven")
    raises(CallError, k.key_call, -5)
    raises(PhaseError, k.key_trump, "H")
    raises(PhaseError, k.key_tricks, 3)
    assert state_of(k) == before
    k.key_call(12)
    assert k.to_act == N and k.call_of(W) == 12 and k.call_of(N) is None


def test_one_card_deal_allows_only_pass_or_board():
    k = ScoreKeeper(N)
    for _ in range(12):  # deals 1..12, all passed by three and 1 by the fourth, tricks 0,0,0,h
        k.key_trump("C")
        for call in ("p", "p", "p", "1"):
            k.key_call(call)
        for n in (0, 0, 0, k.hand_size):
            k.key_tricks(n)
    assert k.number == 13 and k.hand_size == 1
    k.key_trump("D")
    assert k.legal_calls() == [PASS, BOARD]
    assert "only Pass or Board" in raises(CallError, k.key_call, 1)
    assert "(Pass or Board)" in k.prompt()


def test_contracts_and_leader_follow_5_7_and_are_shown_before_the_tricks():
    k = ScoreKeeper(N)  # E calls first
    k.key_trump("joker")
    assert k.trump == NO_TRUMP
    for call in (3, BOARD, 5, BOARD):  # E 3, S board, W 5, N board: the last board leads
        k.key_call(call)
    assert k.phase == TRICKS and k.leader == N
    assert k.contracts[NS].board == 2 and k.contracts[NS].tricks == 0
    assert k.contracts[EW].board == 0 and k.contracts[EW].tricks == 8
    k = ScoreKeeper(N)
    k.key_trump("S")
    for call in (4, PASS, 4, 2):  # equal highest numbers: the first of them leads
        k.key_call(call)
    assert k.leader == E and k.contracts[EW].tricks == 8 and k.contracts[NS].tricks == 2


def test_tricks_must_add_up_to_the_cards_dealt():
    k = ScoreKeeper(N)
    k.key_trump("H")
    for call in (2, 3, PASS, 1):
        k.key_call(call)
    assert k.to_act == E
    raises(ScoreError, k.key_tricks, 14)
    raises(ScoreError, k.key_tricks, -1)
    raises(ScoreError, k.key_tricks, "many")
    k.key_tricks(5)
    raises(ScoreError, k.key_tricks, 9)  # 5 + 9 > 13
    k.key_tricks("4")
    k.key_tricks(2)
    before = state_of(k)
    assert "took 12 tricks" in raises(ScoreError, k.key_tricks, 1)
    assert state_of(k) == before
    k.key_tricks(2)
    row = k.rows[-1]
    # keyed E 5, S 4, W 2, N 2; NS called 3 + 1 and took 6 (22), EW called 2 and took 7 (15)
    assert row.taken == [2, 5, 4, 2] and row.points == [22, 15]
    assert row.points == recount([2, 3, PASS, 1], E, [2, 5, 4, 2], 13)
    assert k.number == 2 and k.dealer == E and k.hand_size == 12 and k.phase == TRUMP


def test_undo_takes_back_keys_even_across_the_end_of_a_deal():
    k = ScoreKeeper(N)
    k.key_trump("S")
    for call in (2, 2, 2, 2):
        k.key_call(call)
    for n in (3, 3, 3, 4):
        k.key_tricks(n)
    after = state_of(k)
    assert k.number == 2 and k.scores != [0, 0]
    assert k.undo()
    assert k.number == 1 and k.phase == TRICKS and k.scores == [0, 0] and k.keyed_tricks == [3, 3, 3]
    k.key_tricks(4)
    assert state_of(k) == after
    while k.undo():
        pass
    assert state_of(k) == state_of(ScoreKeeper(N))
    assert not k.undo()


def test_a_power_cut_anywhere_loses_nothing():
    for every in (1, 7):
        k, _ = play_whole_game(3, cut_every=every)
        straight, _ = play_whole_game(3)
        assert state_of(k) == state_of(straight)
        assert k.names == ["Ann", "Bob", "Cy", "Di"]
    snap = k.snapshot()
    assert len(json.dumps(snap)) < 600  # a whole game's save


def test_a_damaged_save_is_refused_with_a_reason():
    k = ScoreKeeper(E)
    k.key_trump("D")
    k.key_call(3)
    good = k.snapshot()
    assert ScoreKeeper.restore(good).keys_text() == good["keys"]
    for bad, why in ((None, "not a Back Alley"), ({"backalley": 9}, "not a Back Alley"),
                     ({"backalley": 1, "first": "N"}, "no keys"),
                     ({"backalley": 1, "first": "Q", "keys": ""}, "damaged"),
                     ({"backalley": 1, "first": "N", "names": ["a"], "keys": ""}, "damaged"),
                     ({"backalley": 1, "first": "N", "keys": "3x"}, "not a hex digit"),
                     ({"backalley": 1, "first": "N", "keys": "3d"}, "key 2"),  # a call of 13 with 13 cards
                     ({"backalley": 1, "first": "N", "keys": "5"}, "key 1"),  # no such trump
                     ({"backalley": 1, "first": "N", "keys": "300006"}, "key 6")):  # four passes, then 6 as a trump
        msg = raises(ScoreError, ScoreKeeper.restore, bad)
        assert why in msg, (bad, msg)


def test_the_game_ends_after_25_counted_deals_and_refuses_more_keys():
    k, _ = play_whole_game(11)
    assert k.is_over() and "Game over" in k.prompt()
    raises(PhaseError, k.key_trump, "S")
    raises(PhaseError, k.key_call, PASS)
    raises(PhaseError, k.key_tricks, 0)
    k2 = ScoreKeeper(N)
    raises(PhaseError, k2.winner)


def test_trump_keys_and_short_calls():
    assert parse_trump("s") == SPADES and parse_trump("♠") == SPADES and parse_trump("Spades") == SPADES
    assert parse_trump("J") == NO_TRUMP and parse_trump(NO_TRUMP) == NO_TRUMP and parse_trump(0) == 0
    for bad in ("X", 5, None, "", -2):
        raises(ScoreError, parse_trump, bad)
    assert [call_short(c) for c in (PASS, 3, BOARD)] == ["P", "3", "B"] and call_short(BOARD, 2) == "B2"
    raises(BackAlleyError, ScoreKeeper, 7)
    raises(ScoreError, ScoreKeeper, N, ["a", "b", "c"])
    raises(ScoreError, ScoreKeeper, N, ["a", "b", "c", "x" * 40])
