"""A Back Alley table: people at some seats, bots at the others, one ``pipcore.backalley.Game``.

Shared by ``pipboard backalley`` (the terminal) and the simulator's Back
Alley page. The engine referees every call and card (a refused one raises
its ``BackAlleyError`` and changes nothing); the table deals the next deal
as soon as one ends, lets the bots act (``bot_step``) and keeps a log of
what happened, in words, for the people.
"""

import random

from pipcore.backalley import (
    BIDDING,
    BOARD,
    BOARD_NAMES,
    DEALING,
    DEALS,
    EW,
    GAME_OVER,
    LJ,
    NO_TRUMP,
    NS,
    PLAYING,
    SEAT_NAMES,
    TEAM_NAMES,
    TIE,
    Game,
    TurnError,
    call_text,
    card_symbol,
    sorted_hand,
)

LOG_LINES = 400  # the log keeps this many last lines


class Table:
    """One game at a table; ``people`` are the seats (0..3) played by people, the others by bots."""

    def __init__(self, people=(2,), seed=None, names=None, first_dealer=None, game=None):
        self.rng = random.Random(seed)
        self.people = sorted(set(people))
        for seat in self.people:
            if seat not in (0, 1, 2, 3):
                raise ValueError("%r is not a seat" % (seat,))
        self.names = list(names) if names else default_names(self.people)
        self.game = game if game is not None else Game(first_dealer=first_dealer, rng=self.rng)
        if game is not None:
            game.rng = self.rng
        self.log = []
        self.version = 0  # grows with every change (the web page polls it)
        self.last_trick = None  # (leader, cards, winner) of the last finished trick
        self.last_trick_deal = None  # the deal it belongs to
        self.last_deal_lines = []  # the scoring of the last finished deal, in words
        if self.game.phase == DEALING:
            self._deal()

    # -- who acts --------------------------------------------------------------
    @property
    def to_act(self):
        return self.game.to_act

    def is_person(self, seat):
        return seat in self.people

    def waiting_for_person(self):
        """True if the seat to act is a person's."""
        seat = self.game.to_act
        return seat is not None and seat in self.people

    def over(self):
        return self.game.phase == GAME_OVER

    def name(self, seat):
        return self.names[seat]

    # -- actions ---------------------------------------------------------------
    def call(self, seat, call):
        """A person's call; BackAlleyError if it is refused."""
        self._person_turn(seat)
        self._bid(seat, call)

    def play(self, seat, card):
        """A person's card; BackAlleyError if it is refused."""
        self._person_turn(seat)
        self._play(seat, card)

    def _person_turn(self, seat):
        if seat not in self.people:
            raise TurnError("%s is played by a bot" % SEAT_NAMES[seat])

    def bot_step(self):
        """One action by the bot to act, if a bot is to act; True if it acted."""
        from pipboard.babots import choose_call, choose_card

        game = self.game
        seat = game.to_act
        if seat is None or seat in self.people:
            return False
        if game.phase == BIDDING:
            self._bid(seat, choose_call(game.current, seat))
        else:
            self._play(seat, choose_card(game.current, seat))
        return True

    def run_bots(self):
        """Let the bots act until a person is to act or the game is over; returns the number of actions."""
        n = 0
        while self.bot_step():
            n += 1
        return n

    def _bid(self, seat, call):
        game = self.game
        deal = game.current
        game.bid(seat, call)
        self.version += 1
        call = deal.calls[-1]
        text = call_text(call)
        if call == BOARD:
            text = BOARD_NAMES[len(deal.board_calls()) - 1].capitalize()
        self._say("%s calls %s." % (self.names[seat], text))
        if deal.phase == PLAYING:
            c = deal.contracts
            self._say("Contracts: NS %s, EW %s. %s leads." % (contract_words(c[NS]), contract_words(c[EW]),
                                                              self.names[deal.leader]))
        elif game.current is None:  # four passes
            self._say("All four passed: %s deals again (%d cards, not counted)." % (
                self.names[game.dealer], game.hand_size))
            self._deal()

    def _play(self, seat, card):
        game = self.game
        deal = game.current
        game.play(seat, card)
        self.version += 1
        if not deal.trick:  # the trick is complete
            leader, cards, winner = deal.tricks[-1]
            self.last_trick = (leader, list(cards), winner)
            self.last_trick_deal = deal.number
            shown = ", ".join("%s %s" % (SEAT_NAMES[(leader + i) % 4], card_symbol(cards[i])) for i in range(4))
            self._say("Trick %d: %s: %s wins." % (len(deal.tricks), shown, self.names[winner]))
        if game.current is None:
            self._deal_over(deal)

    def _deal_over(self, deal):
        game = self.game
        result = game.results[-1]
        lines = []
        for team in (NS, EW):
            lines.append("%s called %s, took %d: %+d (total %d)" % (
                TEAM_NAMES[team], contract_words(result.contracts[team]), result.tricks[team],
                result.scores[team], game.scores[team]))
        self.last_deal_lines = ["Deal %d of %d scored." % (result.number, DEALS)] + lines
        self._say("Deal %d: %s; %s." % (result.number, lines[0], lines[1]))
        if game.is_over():
            self._say(final_words(game.scores))
        else:
            self._deal()

    def _deal(self):
        game = self.game
        deal = game.deal()
        self.version += 1
        if deal.trump == NO_TRUMP:
            trump = "no trump"
            if deal.discarded is not None:
                trump += " (the %s is out of play; its holder took the next stock card)" % (
                    "Little Joker" if deal.discarded == LJ else "Big Joker")
        else:
            trump = "trump %s" % deal.trump_name()
        self._say("Deal %d of %d: %d card%s each, dealer %s. Turned up %s: %s." % (
            deal.number, DEALS, deal.hand_size, "" if deal.hand_size == 1 else "s", self.names[deal.dealer],
            card_symbol(deal.upcard), trump))

    def _say(self, line):
        self.log.append(line)
        if len(self.log) > LOG_LINES:
            del self.log[:len(self.log) - LOG_LINES]

    # -- what a person sees ----------------------------------------------------
    def hand(self, seat):
        """``seat``'s cards as a player holds them."""
        deal = self.game.current
        if deal is None:
            return []
        return sorted_hand(deal.hands[seat], deal.trump)

    def record(self):
        return self.game.record()


def default_names(people):
    """Seat names: with one person, "South (you)" and the bots by their seats; else bots marked "(bot)"."""
    seats = ("North", "East", "South", "West")
    if len(people) == 1:
        return [name + (" (you)" if seat in people else "") for seat, name in enumerate(seats)]
    return [name + ("" if seat in people or not people else " (bot)") for seat, name in enumerate(seats)]


def contract_words(contract):
    """``"5"``, ``"pass"`` (a contract of 0) or ``"board"`` / ``"double board"``..."""
    if contract.board:
        return BOARD_NAMES[contract.board - 1]
    return str(contract.tricks) if contract.tricks else "pass"


def final_words(scores):
    if scores[NS] == scores[EW]:
        return "Game over after %d deals: a tie at %d." % (DEALS, scores[NS])
    w = NS if scores[NS] > scores[EW] else EW
    return "Game over after %d deals: %s win %d to %d." % (DEALS, TEAM_NAMES[w], scores[w], scores[1 - w])


def winner_name(game):
    if not game.is_over():
        return None
    w = game.winner()
    return "tie" if w == TIE else TEAM_NAMES[w]

