"""Back Alley's cards: their numbers and texts, trumps and the winner of a trick (RULES.md 5.2, 5.5, 5.8).

The part of the card rules that a referee needs without the hands, apart
from the engine (``pipcore.backalley``, which imports and re-exports all of
it): ``pipcore.batricks`` checks the cards keyed in at a real table with it,
without loading the engine.

* Cards are small ints: ``suit * 13 + rank`` (suits clubs, diamonds, hearts,
  spades = 0..3; ranks 2..A = 0..12), Little Joker 52, Big Joker 53. Their
  text forms round-trip: ``card_text`` gives ``"AS"``, ``"10H"``, ``"LJ"``,
  ``"BJ"``; ``card_symbol`` gives RULES.md's ``"♠A"``; ``parse_card`` reads
  both (and ``"A♠"``, ``"TH"``, any case).
"""

from pipcore.bacalls import NO_TRUMP, SUIT_LETTERS, SUIT_SYMBOLS, BackAlleyError, _shown
from pipcore.compat import const

LJ = const(52)
BJ = const(53)
DECK_SIZE = const(54)
_SUIT_WHITE = "♧♢♡♤"  # also accepted when parsing
RANK_TEXTS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


class CardError(BackAlleyError):
    """A text or value that is not one of the 54 cards."""


def suit_of(card):
    """Printed suit 0..3 of a card; -1 for a joker."""
    return -1 if card >= LJ else card // 13


def rank_of(card):
    """Rank 0 (two) .. 12 (ace); LJ 13 and BJ 14, so it orders trumps too."""
    return card - 39 if card >= LJ else card % 13


def _check_card(card):
    if type(card) is not int or card < 0 or card >= DECK_SIZE:
        raise CardError("%s is not a card (cards are 0..53)" % _shown(card))
    return card


def card_text(card):
    """ASCII text of a card: ``"AS"``, ``"10H"``, ``"2C"``, ``"LJ"``, ``"BJ"``."""
    _check_card(card)
    if card == BJ:
        return "BJ"
    if card == LJ:
        return "LJ"
    return RANK_TEXTS[card % 13] + SUIT_LETTERS[card // 13]


def card_symbol(card):
    """Text of a card as RULES.md writes it: ``"♠A"``, ``"♥10"``, ``"LJ"``."""
    _check_card(card)
    if card >= LJ:
        return card_text(card)
    return SUIT_SYMBOLS[card // 13] + RANK_TEXTS[card % 13]


def _suit_index(char):
    for table in (SUIT_LETTERS, SUIT_SYMBOLS, _SUIT_WHITE):
        i = table.find(char)
        if i >= 0:
            return i
    return -1


def parse_card(text):
    """The card named by ``text`` (``"AS"``, ``"As"``, ``"♠A"``, ``"A♠"``, ``"10H"``, ``"TH"``, ``"BJ"``)."""
    if type(text) is not str:
        raise CardError("%s is not a card text" % _shown(text))
    t = text.strip().upper()
    if t in ("BJ", "LJ"):
        return BJ if t == "BJ" else LJ
    suit = -1
    if len(t) >= 2:
        suit = _suit_index(t[0]) if t[0] in SUIT_SYMBOLS or t[0] in _SUIT_WHITE else -1
        if suit >= 0:
            rank_text = t[1:]
        else:
            suit = _suit_index(t[-1])
            rank_text = t[:-1]
    if suit >= 0:
        if rank_text == "T":
            rank_text = "10"
        for rank in range(13):
            if RANK_TEXTS[rank] == rank_text:
                return suit * 13 + rank
    raise CardError("%s is not a card (write a rank 2-10, J, Q, K, A and a suit C, D, H, S, "
                    "as in AS or 10H; jokers are BJ and LJ)" % _shown(text))


def _as_card(card):
    return parse_card(card) if type(card) is str else _check_card(card)


def trump_of(upcard):
    """Trump suit set by the turned card; ``NO_TRUMP`` for a joker (5.4)."""
    return NO_TRUMP if _check_card(upcard) >= LJ else upcard // 13


def is_trump(card, trump):
    """True for a card of the trump suit or a joker (jokers are always trumps)."""
    if trump == NO_TRUMP:
        return False
    return card >= LJ or card // 13 == trump


def played_suit(card, trump):
    """The suit a card counts as: ``trump`` for a joker in a trump deal, else its printed suit."""
    if card >= LJ:
        return trump
    return card // 13


def card_power(card, led_suit, trump):
    """Strength of a card in a trick led in ``led_suit``: trumps beat the led suit, which beats the rest."""
    if is_trump(card, trump):
        return 100 + rank_of(card)
    if card // 13 == led_suit:
        return 50 + rank_of(card)
    return -1


def trick_winner(cards, leader, trump):
    """Seat winning a trick whose ``cards`` were played in order starting with ``leader`` (5.8)."""
    led_suit = played_suit(cards[0], trump)
    best = 0
    best_power = card_power(cards[0], led_suit, trump)
    for i in range(1, len(cards)):
        power = card_power(cards[i], led_suit, trump)
        if power > best_power:
            best, best_power = i, power
    return (leader + best) % 4
