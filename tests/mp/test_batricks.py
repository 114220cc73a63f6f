"""Back Alley referee mode (pipcore.batricks): the tricks of a deal keyed card by card.

RULES.md 6.5 scenarios that concern the play (BA-09..BA-17) as the board sees
them, without the hands; refusals (a card played twice, a revoke against a
shown void, a trump led before trumps are broken, counting the cards), undo,
the card keys, saves (equal after a power cut, a damaged one refused) and
the scorekeeper fed at the end of the deal. Plain test functions: they run
under pytest and under the real MicroPython (unix and WebAssembly ports).
"""

import json

from pipcore.backalley import (
    BJ,
    BOARD,
    CLUBS,
    HEARTS,
    LJ,
    NO_TRUMP,
    PASS,
    SPADES,
    BackAlleyError,
    E,
    N,
    PhaseError,
    S,
    W,
    card_symbol,
    deal_cards,
    is_trump,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from pipcore.bascore import TRICKS, TRUMP, ScoreError, ScoreKeeper
from pipcore.batricks import DOWN, PLAY, SUIT, UP, RefereeError, Tricks, current, resume, start, undo


def refused(t, card, *words):
    """``card`` is refused with a message holding ``words``, and nothing changes."""
    before = t.snapshot()
    trick = list(t.trick)
    try:
        t.play(card)
    except RefereeError as exc:
        text = str(exc)
    else:
        raise AssertionError("%s was accepted: %s" % (card, t.prompt()))
    for w in words:
        assert w in text, (w, text)
    assert "\n" not in text
    assert t.snapshot() == before and t.trick == trick
    return text


def keyed(t, cards):
    """Key the cards of ``cards`` (text) in turn; every one must be accepted."""
    said = ""
    for c in parse_cards(cards):
        said = t.play(c)
    return said


def state(t):
    return (t.snapshot(), t.prompt(), list(t.trick), t.trick_leader, t.to_act, list(t.taken), t.trump_broken,
            t.entry)


# -- RULES.md 6.5, the play --------------------------------------------------------------------------
def test_ba09_no_trump_lead_before_trumps_are_broken():
    t = Tricks(4, SPADES, W)  # W called 4: no Board
    refused(t, "AS", "trumps are not broken", "W may lead")
    refused(t, "LJ", "trumps are not broken")
    assert "W plays" in t.play("KH")
    t.undo()
    assert "W plays" in t.play("2D")


def test_ba09_a_trump_keyed_twice_is_the_leaders_word_and_he_is_held_to_it():
    t = Tricks(4, SPADES, W)
    refused(t, "AS", "key it again")
    t.play("AS")  # again at once: W says he holds only trumps
    keyed(t, "2S 3S 4S")  # N, E, S follow
    assert t.to_act == W and t.trump_broken
    refused(t, "KH", "W cannot hold", "showed no hearts in trick 1")
    refused(t, "2D", "showed no diamonds")
    t.play("LJ")


def test_ba10_a_leader_with_only_trumps_may_lead_one():
    for card in ("5S", "LJ"):
        t = Tricks(2, SPADES, W)
        refused(t, card, "trumps are not broken")
        assert "W plays" in t.play(card)
        t = Tricks(2, SPADES, W)
        t.play(card, only_trumps=True)
        assert t.to_act == N


def test_ba11_a_trump_played_by_a_void_player_breaks_trumps():
    t = Tricks(3, SPADES, W)
    keyed(t, "KD 3S 2D 4D")  # N is void in diamonds and ruffs
    assert t.trump_broken and t.to_act == N and t.taken == [1, 0, 0, 0]
    t.play("QS")  # from trick 2 on a trump lead needs no word
    keyed(t, "5S 6S 7S")
    assert t.to_act == N
    t.play("2S")


def test_ba12_big_joker_led_by_a_board_caller():
    t = Tricks(3, SPADES, E, boards=[N, E])  # E's call is a double board
    t.play("BJ")  # a Board caller may lead trumps at any time
    keyed(t, "9S 5H LJ")  # S his highest trump, W no trump, N the LJ
    assert t.taken == [0, 1, 0, 0] and t.to_act == E
    keyed(t, "2C 3C")  # E leads, S follows
    refused(t, "4S", "W cannot hold", "showed no trumps in trick 1")
    t.play("4C")
    t.play("AS")  # N played the LJ to the BJ: the ace may still be his
    t.undo()
    t.play("KC")
    # S played the 9 to the BJ: it was his highest trump
    t = Tricks(3, SPADES, E, boards=[E])
    keyed(t, "BJ 9S 5H LJ AC 3C 4C 5C")
    assert t.to_act == E
    t.play("2D")
    refused(t, "QS", "S cannot hold", "played ♠9 to the BJ in trick 1", "no higher trump")
    t.play("2S")


def test_ba13_a_seat_that_did_not_follow_is_held_to_its_void():
    t = Tricks(3, SPADES, W)
    keyed(t, "5H")
    t.play("AS")  # N ruffs: the board cannot see that he holds the 2 of hearts
    keyed(t, "6H 7H")
    assert t.to_act == N
    keyed(t, "6C 4C 5C 3C")
    assert t.to_act == N
    refused(t, "2H", "N cannot hold ♥2", "showed no hearts in trick 1")


def test_ba14_jokers_count_as_the_trump_suit_when_following():
    t = Tricks(3, SPADES, N, boards=[N])
    keyed(t, "4S 2H")  # E does not follow the trump led: he has shown he holds no trump, jokers included
    keyed(t, "5S 6S")
    assert t.to_act == W
    keyed(t, "2C 3C")
    refused(t, "LJ", "E cannot hold LJ", "showed no trumps in trick 1")


def test_ba15_little_joker_led_big_joker_the_only_trump_wins():
    t = Tricks(2, SPADES, W, boards=[W])
    keyed(t, "LJ BJ 2S 3H")
    assert t.taken == [1, 0, 0, 0] and t.to_act == N
    assert t.finished(0) == (W, [LJ, BJ, parse_card("2S"), parse_card("3H")], N)
    refused(t, "3S", "N cannot hold ♠3", "played BJ to the LJ in trick 1", "no lower trump")
    t.play("4C")


def test_ba16_trick_winners():
    t = Tricks(1, SPADES, N)
    said = keyed(t, "KH AH 2S 3H")
    assert t.taken == [0, 0, 1, 0] and "Trick 1 to S with ♠2" in said and t.done()
    t = Tricks(1, NO_TRUMP, N)
    keyed(t, "KH AD QH AC")
    assert t.taken == [1, 0, 0, 0]
    assert t.team_tricks() == [1, 0]


def test_ba17_no_trump_deal_any_lead_but_no_joker():
    t = Tricks(2, NO_TRUMP, S)
    t.play("AS")  # no trump: no lead is restricted
    refused(t, "BJ", "no joker is played in a no-trump deal")
    refused(t, "LJ", "no joker")
    keyed(t, "2S 3S 4S")
    assert t.to_act == S


# -- refusals ------------------------------------------------------------------------------------------
def test_a_card_played_twice_is_refused():
    t = Tricks(3, HEARTS, N)
    keyed(t, "AC KC")
    refused(t, "AC", "♣A is already played (trick 1)")
    keyed(t, "QC JC 2C 3C 4C 5C")
    refused(t, "KC", "already played (trick 1)")
    refused(t, "3C", "already played (trick 2)")


def test_refusals_of_what_is_not_a_card_or_not_the_time():
    t = Tricks(1, HEARTS, N)
    for bad in ("ZZ", "11H", 54, -1, None):
        try:
            t.play(bad)
        except BackAlleyError:
            pass
        else:
            raise AssertionError("%r accepted" % (bad,))
    keyed(t, "2C 3C 4C 5C")
    try:
        t.play("6C")
    except PhaseError as exc:
        assert "All 1 tricks played" in str(exc)
    else:
        raise AssertionError("a fifth card was accepted")
    try:
        Tricks(2, HEARTS, N).play("AC", only_trumps=True)
    except RefereeError as exc:
        assert "needs no word" in str(exc)
    else:
        raise AssertionError("a word for a plain lead was accepted")
    for args in ((0, HEARTS, N), (14, HEARTS, N), (5, 4, N), (5, HEARTS, 7), (5, HEARTS, "X")):
        try:
            Tricks(*args)
        except BackAlleyError:
            pass
        else:
            raise AssertionError("Tricks%r" % (args,))


def test_counting_the_last_spade_out_is_the_turned_up_card():
    t = Tricks(13, SPADES, N, boards=[N])
    keyed(t, "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S")
    assert t.to_act == N
    refused(t, "2S", "♠2 is the last spade out", "turned-up card")
    t.play("BJ")  # the jokers are not the turned-up card of a spade deal


def test_counting_a_hand_full_of_hearts():
    # 13 cards each: the stock is the turned-up spade and one card more. N, E and S show no hearts, so
    # the hearts still out are West's or that one card: West holds at least all of them but one.
    t = Tricks(13, SPADES, W)
    keyed(t, "AH 2C 3C 4C KH 5C 6C 7C")
    keyed(t, "AC 8C 9C 10C")  # 11 hearts out, West 11 cards: one of them may be a club
    assert t.to_act == W
    refused(t, "2D", "counting the cards, W cannot hold ♦2")
    t.play("QH")


def test_counting_shows_a_seat_must_follow():
    # the cards of a real deal (trump hearts, East leads): South, who held a diamond, did not follow
    t = Tricks(13, HEARTS, E)
    keyed(t, "KC 7C 8C 3C 7S JS QS 2S 9C 4S 10C QC AS 8S 9S 3S 9D AC QD 8D AD 8H")
    assert t.to_act == S and card_symbol(t.trick[0]) == "♦A"
    refused(t, "LJ", "S must follow diamonds: counting the cards, S still holds one")


# -- undo ----------------------------------------------------------------------------------------------
def test_undo_takes_back_the_last_card_even_across_a_trick():
    t = Tricks(3, SPADES, E)
    states = [state(t)]
    for c in parse_cards("KD 3S 2D 4D 5S"):
        t.play(c)
        states.append(state(t))
    while len(states) > 1:
        states.pop()
        card = t.undo()
        assert card >= 0 and t.entry == card
        got = state(t)
        assert got[:-1] == states[-1][:-1], (got, states[-1])
    assert t.undo() == -1
    assert t.to_act == E and t.taken == [0, 0, 0, 0] and not t.trump_broken


def test_undo_forgets_what_the_card_showed():
    t = Tricks(3, SPADES, W)
    keyed(t, "5H AS 6H 7H")  # N shows no hearts and wins
    refused(t, "2H", "showed no hearts")
    for _ in range(3):
        t.undo()
    t.play("2H")  # N follows after all


def test_entry_keys_step_suits_and_ranks_skipping_played_cards():
    t = Tricks(2, SPADES, N)
    assert card_symbol(t.entry) == "♣8"  # the middle of the clubs
    assert t.press(UP) == "N: ♣9?" and t.press(DOWN) == "N: ♣8?"
    for _ in range(6):
        t.press(DOWN)
    assert card_symbol(t.entry) == "♣2"
    t.press(DOWN)
    assert card_symbol(t.entry) == "♣A"  # around
    t.press(SUIT)
    assert card_symbol(t.entry) == "♦8"
    t.press(SUIT)
    t.press(SUIT)  # spades, the trump suit: 2..A, LJ, BJ
    assert card_symbol(t.entry) == "♠9"
    for _ in range(7):
        t.press(UP)
    assert t.entry == BJ
    t.press(SUIT)
    assert card_symbol(t.entry) == "♣8"
    assert "is not a key" in t.press(9)
    t.press(UP)
    assert t.press(PLAY) == "N plays ♣9"
    assert card_symbol(t.entry) == "♣8" and t.to_act == E  # the led suit's middle, the 9 skipped
    t.press(UP)
    assert card_symbol(t.entry) == "♣10"
    t = Tricks(2, NO_TRUMP, N)
    for _ in range(3):
        t.press(SUIT)
    for _ in range(7):
        t.press(UP)
    assert card_symbol(t.entry) == "♠2"  # no jokers in a no-trump deal


def test_entry_play_twice_confirms_a_trump_lead_and_refusals_are_said():
    t = Tricks(2, CLUBS, S)
    assert card_symbol(t.entry) == "♣9"  # the middle of the trump suit, the jokers on top
    said = t.press(PLAY)
    assert "trumps are not broken" in said and t.to_act == S
    assert t.press(PLAY) == "S plays ♣9"
    assert t.press(PLAY) == "W plays ♣10"  # the entry opens on the suit led, the middle of the cards out
    assert t.press(PLAY) == "N plays ♣8"
    said = t.press(PLAY)
    assert said.startswith("E plays ♣J. Trick 1 to E with ♣J") and t.to_act == E
    assert t.press(PLAY) == "E plays ♣7"  # trumps are broken now: no word needed
    t = Tricks(2, CLUBS, S)
    t.press(PLAY)
    t.press(UP)  # another key: the word is not given
    assert "trumps are not broken" in t.press(PLAY)
    t = Tricks(1, CLUBS, S)
    keyed(t, "AH")
    assert card_symbol(t.entry) == "♥8"  # the suit led
    t.press(UP)
    t.press(UP)
    t.press(UP)
    t.press(UP)
    t.press(UP)
    assert card_symbol(t.entry) == "♥K"
    t.press(UP)
    assert card_symbol(t.entry) == "♥2"  # the ace is played: skipped
    keyed(t, "2H 3H 4H")
    assert t.done() and t.press(PLAY).startswith("All 1 tricks played")


# -- saves ---------------------------------------------------------------------------------------------
def test_snapshot_and_restore_give_the_same_tricks():
    t = Tricks(4, SPADES, W, boards=[S], names=["Ann", "Bob", "Cy", "Di"])
    for cards in ("", "2D", "2D 3D 4D 5D", "2D 3D 4D 5D KS AS", "2D 3D 4D 5D KS AS 2H 3H 4H 5H 6C 7C 8C 9C"):
        t = Tricks(4, SPADES, W, boards=[S], names=["Ann", "Bob", "Cy", "Di"])
        keyed(t, cards)
        snap = json.loads(json.dumps(t.snapshot()))
        again = Tricks.restore(snap, ["Ann", "Bob", "Cy", "Di"])
        assert state(again) == state(t)
        assert [again.finished(i) for i in range(len(t.taken) and sum(t.taken))] == \
            [t.finished(i) for i in range(sum(t.taken))]
    assert len(json.dumps(t.snapshot())) < 120


def test_a_leaders_word_survives_the_save():
    t = Tricks(3, SPADES, W)
    t.play("AS", only_trumps=True)
    again = Tricks.restore(json.loads(json.dumps(t.snapshot())))
    keyed(again, "2S 3S 4S")
    refused(again, "2H", "showed no hearts")


def test_a_damaged_save_is_refused():
    t = Tricks(3, SPADES, W)
    keyed(t, "5H AS 6H 7H")
    good = t.snapshot()
    assert Tricks.restore(good).snapshot() == good

    def damaged(**change):
        snap = dict(good)
        snap.update(change)
        return snap

    for snap in (None, [], "x", damaged(batricks=2), damaged(cards="0"), damaged(cards="zz"),
                 damaged(cards=good["cards"] + "36"),  # card 54
                 damaged(cards=good["cards"] + "a3"),  # a flag that does not exist
                 damaged(cards=good["cards"] + "1d"),  # the 5 of hearts played again
                 damaged(cards=good["cards"] + "1a"),  # N, who showed no hearts, leads the 2 of hearts
                 damaged(cards="40"),  # a word for a plain lead (the 2 of clubs flagged)
                 damaged(cards="33"),  # the ace of spades led unbroken without the word
                 damaged(cards=good["cards"] * 4),
                 damaged(h=0), damaged(h="3"), damaged(trump=7), damaged(leader="X"), damaged(boards=3),
                 damaged(cards=None)):
        try:
            Tricks.restore(snap)
        except RefereeError as exc:
            assert "save" in str(exc), exc
        else:
            raise AssertionError("a damaged save was restored: %r" % (snap,))


# -- the scorekeeper fed --------------------------------------------------------------------------------
class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def needs_word(d, card):
    """Is ``card`` a trump the engine lets the leader lead before trumps are broken only holding only trumps?"""
    return (not d.trick and d.trump != NO_TRUMP and not d.trump_broken and is_trump(card, d.trump)
            and d.call_of(d.to_act) != BOARD)


def keeper_and_deal(seed, calls=(3, PASS, BOARD, 2), referee=True):
    """A keeper in referee mode and the engine's deal of the same facts, its calls keyed in both."""
    k = ScoreKeeper(N, ["Ann", "Bob", "Cy", "Di"], referee=referee)
    d = deal_cards(shuffled_deck(Lcg(seed)), N, k.hand_size)
    k.key_trump(d.trump)
    for call in calls:
        d.bid(d.to_act, call)
        k.key_call(call)
    return k, d


def play_one(k, d, t, rng):
    """The engine plays a random legal card, keyed into the referee too; returns the card."""
    legal = d.legal_cards()
    card = legal[rng.randrange(len(legal))]
    word = needs_word(d, card)
    d.play(d.to_act, card)
    t.play(card, word)
    return card


def test_a_whole_deal_in_referee_mode_feeds_the_scorekeeper():
    k, d = keeper_and_deal(3)
    assert k.referee and k.phase == TRICKS and k.leader == W == d.leader
    assert current(keeper_and_deal(3, referee=False)[0]) is None
    t = current(k)
    assert t is not None and t.fits(k) and current(k, t) is t and t.names[W] == "Di"
    rng = Lcg(5)
    rows = len(k.rows)
    last = -1
    while not t.done():
        assert t.to_act == d.to_act and t.trick == d.trick and t.taken == d.taken
        last = play_one(k, d, t, rng)
    assert t.taken == d.taken and len(k.rows) == rows + 1 and k.phase == TRUMP and k.number == 2
    row = k.last_row()
    assert row.taken == d.taken and row.points == d.scores() and k.scores == d.scores()
    # undo takes back the last card and the deal's score with it
    t2, said = undo(k, t)
    assert t2 is t and "taken back, and the deal's score" in said
    assert k.phase == TRICKS and not k.keyed_tricks and k.scores == [0, 0] and not t.done() and t.fits(k)
    assert t.entry == last
    t.play(last)
    assert k.scores == d.scores() and k.number == 2


def test_referee_mode_survives_power_cuts_and_undo_stops_at_a_deal_it_no_longer_keeps():
    k, d = keeper_and_deal(11)
    t = current(k)
    rng = Lcg(2)
    i = 0
    while not t.done():
        play_one(k, d, t, rng)
        i += 1
        if i % 7 == 3 or t.done():  # the power goes: both saves, as JSON
            saved = json.dumps({"keeper": k.snapshot(), "tricks": t.snapshot()})
            before = (k.snapshot(), state(t))
            data = json.loads(saved)
            k = ScoreKeeper.restore(data["keeper"])
            t = resume(k, data["tricks"])
            assert (k.snapshot(), state(t)) == before
    assert k.snapshot()["referee"] is True and k.phase == TRUMP and k.scores == d.scores()
    # the next deal: trump and calls keyed; its play begins with a new referee
    k.key_trump(HEARTS)
    t = current(k, t)
    assert t.done()  # the last deal's, kept for undo
    assert resume(k, t.snapshot()).snapshot() == t.snapshot()
    for call in (1, 1, 1, 1):
        k.key_call(call)
    t = current(k, t)
    assert t.fits(k) and t.to_act == k.leader and not t.done()
    t.play("2C")
    for _ in range(6):  # the card, the four calls, the trump
        t, said = undo(k, t)
    assert k.phase == TRUMP and k.number == 2
    t, said = undo(k, t)
    assert "undo stops here" in said and k.number == 2 and k.phase == TRUMP
    try:
        resume(k, Tricks(5, HEARTS, N).snapshot())
    except RefereeError as exc:
        assert "not this game's" in str(exc)
    else:
        raise AssertionError("another deal's referee save was taken")


def test_a_damaged_referee_flag_is_refused():
    snap = keeper_and_deal(3)[0].snapshot()
    snap["referee"] = "yes"
    try:
        ScoreKeeper.restore(snap)
    except ScoreError as exc:
        assert "referee" in str(exc)
    else:
        raise AssertionError("a damaged referee flag was taken")
    del snap["referee"]
    assert not ScoreKeeper.restore(snap).referee
    try:
        start(ScoreKeeper(N))
    except PhaseError:
        pass
    else:
        raise AssertionError("a referee before the calls")
