"""Back Alley referee mode (pipcore.batricks) against the engine, and ``pipboard backalley --keep --referee``.

* Hypothesis: deals dealt and played by ``backalley.Deal`` with random legal
  cards, keyed into the referee card by card: it accepts every card (and
  every other card the engine would have allowed at that moment), finds the
  same trick winners and tricks per seat, and a save taken anywhere gives
  the same referee back.
* The terminal: a whole game of 25 deals typed line by line (cards as text
  and as the board's card keys, refused cards, an undo, a restart from the
  save), scored as the engine scores the same game.
"""

import io
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pipboard import cli
from pipcore.backalley import (
    BIDDING,
    BOARD,
    NO_TRUMP,
    PASS,
    PLAYING,
    Game,
    call_text,
    card_text,
    deal_cards,
    is_trump,
    shuffled_deck,
)
from pipcore.batricks import SUIT, UP, Tricks


def needs_word(deal, card):
    """A trump led before trumps are broken by a leader who did not call Board (5.8 (c))."""
    return (not deal.trick and deal.trump != NO_TRUMP and not deal.trump_broken and is_trump(card, deal.trump)
            and deal.call_of(deal.to_act) != BOARD)


def boards_of(deal):
    return [seat for seat in range(4) if deal.call_of(seat) == BOARD]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), h=st.integers(1, 13), dealer=st.integers(0, 3),
       calls=st.lists(st.sampled_from(["pass", "1", "2", "board"]), min_size=4, max_size=4),
       cut=st.integers(0, 60))
def test_every_legal_card_is_accepted_with_the_engines_winners(seed, h, dealer, calls, cut):
    rng = random.Random(seed)
    deal = deal_cards(shuffled_deck(rng), dealer, h)
    for call in calls:
        if call.isdigit() and int(call) >= h:
            call = "pass"
        deal.bid(deal.to_act, call)
    if deal.phase != PLAYING:
        return
    t = Tricks(h, deal.trump, deal.leader, boards_of(deal))
    n = 0
    while deal.phase == PLAYING:
        seat = deal.to_act
        assert t.to_act == seat and t.trick == deal.trick and t.trick_leader == deal.trick_leader
        assert t.trump_broken == deal.trump_broken
        legal = deal.legal_cards()
        for other in legal:  # whatever the engine allows, the referee allows (with the word where needed)
            assert t._refusal(seat, other, needs_word(deal, other)) is None, (card_text(other), t.prompt())
        card = legal[rng.randrange(len(legal))]
        word = needs_word(deal, card)
        deal.play(seat, card)
        t.play(card, word)
        n += 1
        if n == cut:  # a power cut: the save replayed through the checks gives the same referee
            again = Tricks.restore(json.loads(json.dumps(t.snapshot())))
            assert again.snapshot() == t.snapshot() and again.taken == t.taken and again.trick == t.trick
            t = again
    assert t.done() and t.taken == deal.taken
    for i in range(h):
        leader, cards, winner = deal.tricks[i]
        assert t.finished(i) == (leader, list(cards), winner)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), h=st.integers(2, 13), back=st.integers(1, 20))
def test_undo_then_the_same_cards_again_gives_the_same_referee(seed, h, back):
    rng = random.Random(seed)
    deal = deal_cards(shuffled_deck(rng), 0, h)
    for call in ("board", "pass", "pass", "pass"):
        deal.bid(deal.to_act, call)
    t = Tricks(h, deal.trump, deal.leader, boards_of(deal))
    played = []
    while deal.phase == PLAYING:
        legal = deal.legal_cards()
        card = legal[rng.randrange(len(legal))]
        played.append((card, needs_word(deal, card)))
        deal.play(deal.to_act, card)
        t.play(card, played[-1][1])
    final = t.snapshot()
    back = min(back, len(played))
    for card, _word in reversed(played[-back:]):
        assert t.undo() == card
    assert t.snapshot()["cards"] == final["cards"][:2 * (len(played) - back)]
    for card, word in played[-back:]:
        t.play(card, word)
    assert t.snapshot() == final and t.taken == deal.taken


# -- the terminal ---------------------------------------------------------------------------------------
def key_presses(t, card):
    """The board's card keys (``> + .``) that bring the entry of ``t`` to ``card`` and play it."""
    keys = ""
    for _ in range(5):
        if t.entry == card:
            break
        suit = card // 13 if card < 52 else t.trump
        if (t.entry // 13 if t.entry < 52 else t.trump) == suit:
            while t.entry != card:
                t.press(UP)
                keys += "+"
            break
        t.press(SUIT)
        keys += ">"
    assert t.entry == card
    return keys + "."


def referee_lines(seed):
    """Lines typed for a whole refereed game, the engine's game behind them, and the refusals typed."""
    rng = random.Random(seed)
    game = Game(first_dealer=3, rng=rng)
    lines = []
    refused = {"played": 0, "word": 0}
    shadow = None
    while not game.is_over():
        deal = game.deal()
        lines.append("joker" if deal.trump == NO_TRUMP else "CDHS"[deal.trump])
        while game.phase == BIDDING:
            h = deal.hand_size
            call = rng.choice([PASS, BOARD] if h == 1 else [PASS, PASS, 1, 2, BOARD] if h > 2 else [PASS, 1])
            lines.append(call_text(call).lower())
            game.bid(game.to_act, call)
        if deal.phase != PLAYING:
            continue
        shadow = Tricks(deal.hand_size, deal.trump, deal.leader, boards_of(deal))
        while deal.phase == PLAYING:
            legal = deal.legal_cards()
            card = legal[rng.randrange(len(legal))]
            word = needs_word(deal, card)
            if deal.tricks and rng.random() < 0.03:
                lines.append(card_text(deal.tricks[0][1][0]))  # a card already played: refused
                refused["played"] += 1
            if word:
                lines.append(card_text(card))  # refused once: trumps are not broken
                refused["word"] += 1
            elif rng.random() < 0.02:
                lines.append(card_text(card))
                lines.append("undo")  # keyed, taken back (the entry then shows it), keyed again below
                word = True
            if rng.random() < 0.3 and not word:
                lines.append(key_presses(shadow, card))
            else:
                lines.append(card_text(card) if rng.random() < 0.5 else card_text(card).lower())
            shadow.play(card, needs_word(deal, card))
            game.play(game.to_act, card)
    return lines, game, refused


def test_the_terminal_referees_a_whole_game_across_a_restart(tmp_path, monkeypatch, capsys):
    lines, game, refused = referee_lines(3)
    save = str(tmp_path / "game.json")
    half = len(lines) // 2
    while lines[half - 1].upper() == lines[half].upper():  # not between a trump lead and its word
        half += 1
    args = ["backalley", "--keep", "--referee", "--save", save, "--names", "Ann,Bob,Cy,Di", "--dealer", "W"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines[:half]) + "\n"))
    assert cli.main(args) == 0
    first = capsys.readouterr().out
    assert "Referee mode" in first and "The game is kept in" in first
    saved = json.loads(open(save).read())
    assert saved["referee"] is True and "tricks" in saved
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines[half:]) + "\n"))
    assert cli.main(["backalley", "--keep", "--save", save, "--sheet", str(tmp_path / "sheet.json")]) == 0
    second = capsys.readouterr().out
    out = first + second
    assert "Resumed from" in second and "referee mode" in second and "Game over" in second
    assert "Traceback" not in out
    assert out.count("Not accepted:") == refused["played"] + refused["word"]
    assert out.count("is already played") == refused["played"] > 0
    assert out.count("trumps are not broken") == refused["word"] > 0
    assert "Trick 1 to" in out
    assert "tricks taken by" not in out  # nobody keys trick counts
    data = json.loads((tmp_path / "sheet.json").read_text())
    assert data["totals"] == {"NS": game.scores[0], "EW": game.scores[1]} and data["finished"]
    counted = [d for d in data["deals"] if d["counted"]]
    assert [[d["NS"]["tricks"], d["EW"]["tricks"]] for d in counted] == [r.tricks for r in game.results]
    assert [[d["NS"]["points"], d["EW"]["points"]] for d in counted] == [r.scores for r in game.results]


def test_referee_needs_keep(capsys):
    assert cli.main(["backalley", "--referee"]) == 2
    assert "go with --keep" in capsys.readouterr().err


def test_the_terminal_says_why_a_card_is_refused_and_what_the_keys_show(tmp_path, monkeypatch, capsys):
    lines = ["S", "2", "pass", "1", "pass",  # dealer N: E 2, S pass, W 1, N pass: E leads
             "help", "AS", "2d", ">", "+++", ".", "5d", "3c", "3c", "undo", "undo", "4h", "zz"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli.main(["backalley", "--keep", "--referee", "--dealer", "N", "--names", "Ann,Bob,Cy,Di"]) == 0
    out = capsys.readouterr().out
    assert "the board's card keys" in out  # the help
    assert "Not accepted: trumps are not broken: Bob may lead ♠A only" in out
    assert "Bob plays ♦2." in out and "[♥J]" in out and "Cy plays ♥J." in out
    assert "Ann plays ♣3. Trick 1 to Di with ♦5 (NS 0, EW 1)." in out
    assert "Not accepted: ♣3 is already played (trick 1)." in out
    assert "♣3 taken back" in out and "♦5 taken back" in out and "Di plays ♥4." in out
    assert "Not accepted: 'zz' is not a card" in out
