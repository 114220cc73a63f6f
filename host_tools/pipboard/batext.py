"""``pipboard backalley``: Back Alley in the terminal, a person against three bots (or four bots).

The person plays one seat (South unless ``--seat``); the bots call and play
the other three (``pipboard.babots``). Every call and card goes through the
rules engine; a refused one is asked again with the reason, never a
traceback. At the end (or on ``quit``, or at the end of the input) the score
sheet is printed, and written to ``--sheet FILE`` if given (``.json``: JSON).
"""

import sys

from pipcore.backalley import (
    BIDDING,
    DEALS,
    NO_TRUMP,
    NS,
    PLAYING,
    BackAlleyError,
    CardError,
    call_text,
    card_symbol,
    card_text,
    is_trump,
    parse_call,
    parse_card,
)

HELP = """How to play (RULES.md section 5; docs/backalley.md):
  While you call:  Pass (or p), a number of tricks, or Board (or b).
  While you play:  a card: AS, 10H (or TH), QD, 2C, BJ, LJ (any case; ♠A works too),
                   or its number in the list of cards you may play.
  Any time:        hand     your cards again
                   score    the score so far
                   sheet    the score sheet
                   log      the last 30 things that happened
                   help     this text
                   quit     leave the game (the score sheet is shown)
"""


class TextTable:
    """The terminal around a ``batable.Table``: shows what happened, asks the person, checks the answer."""

    def __init__(self, table, out, ascii_cards=False):
        self.table = table
        self.out = out
        self.ascii = ascii_cards
        self.shown = 0  # log lines already printed

    def say(self, text):
        self.out.write(text + "\n")

    def card(self, card):
        return card_text(card) if self.ascii else card_symbol(card)

    def show_news(self):
        log = self.table.log
        if self.shown > len(log):
            self.shown = 0
        for line in log[self.shown:]:
            self.say(self._ascii(line) if self.ascii else line)
        self.shown = len(log)

    def _ascii(self, line):
        for sym, letter in zip("♣♦♥♠", "CDHS"):
            while sym in line:  # "♠A" -> "AS", "♥10" -> "10H"
                i = line.index(sym)
                j = i + 1
                while j < len(line) and line[j] in "0123456789JQKA":
                    j += 1
                line = line[:i] + line[i + 1:j] + letter + line[j:]
        return line

    # -- what the person sees ----------------------------------------------------
    def hand_line(self, seat):
        table = self.table
        deal = table.game.current
        cards = table.hand(seat)
        groups = []
        for c in cards:
            key = "T" if is_trump(c, deal.trump) else c // 13
            if not groups or groups[-1][0] != key:
                groups.append((key, []))
            groups[-1][1].append(self.card(c))
        text = "   ".join(" ".join(g[1]) for g in groups)
        return "Your hand (%d card%s): %s" % (len(cards), "" if len(cards) == 1 else "s", text)

    def situation(self):
        """Everything the person needs before acting: hand, trump, calls or trick."""
        table = self.table
        game = table.game
        deal = game.current
        seat = game.to_act
        lines = ["", self.hand_line(seat)]
        trump = "no trump" if deal.trump == NO_TRUMP else "trump " + deal.trump_name()
        if game.phase == BIDDING:
            calls = ", ".join("%s %s" % (table.name((deal.first_bidder + i) % 4), call_text(deal.calls[i]))
                              for i in range(len(deal.calls)))
            lines.append("Deal %d of %d, %s (turned up %s), dealer %s. Calls so far: %s." % (
                deal.number, DEALS, trump, self.card(deal.upcard), table.name(deal.dealer), calls or "none"))
            h = deal.hand_size
            lines.append("Your call (%s)? " % ("Pass or Board" if h == 1 else "Pass, 1-%d or Board" % (h - 1)))
            return "\n".join(lines)
        taken = deal.team_tricks()
        lines.append("Deal %d, %s. Trick %d of %d. Tricks: NS %d (contract %s), EW %d (contract %s)." % (
            deal.number, trump, len(deal.tricks) + 1, deal.hand_size, taken[0], _contract(deal.contracts[0]),
            taken[1], _contract(deal.contracts[1])))
        if deal.trick:
            lines.append("On the table: %s." % ", ".join(
                "%s %s" % (table.name((deal.trick_leader + i) % 4), self.card(deal.trick[i]))
                for i in range(len(deal.trick))))
        else:
            lines.append("You lead.")
        legal = self.legal()
        lines.append("You may play: %s" % "  ".join("%d:%s" % (i + 1, self.card(c)) for i, c in enumerate(legal)))
        lines.append("Your card? ")
        return "\n".join(lines)

    def legal(self):
        deal = self.table.game.current
        hand = self.table.hand(self.table.to_act)
        legal = deal.legal_cards()
        return [c for c in hand if c in legal]

    def score_line(self):
        game = self.table.game
        s = game.scores
        return "Score after %d of %d deals: NS %d, EW %d." % (len(game.results), DEALS, s[NS], s[1])

    # -- one line typed ----------------------------------------------------------
    def handle(self, line):
        """Act on one typed line; False to stop (quit)."""
        text = line.strip()
        if not text:
            return True
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?", "h"):
            self.say(HELP)
        elif word == "hand":
            self.say(self.hand_line(self.table.to_act))
        elif word == "score":
            self.say(self.score_line())
        elif word == "sheet":
            self.say(self.sheet())
        elif word == "log":
            for entry in self.table.log[-30:]:
                self.say(self._ascii(entry) if self.ascii else entry)
        elif self.table.game.phase == BIDDING:
            self._call(text)
        elif self.table.game.phase == PLAYING:
            self._play(text)
        return True

    def _call(self, text):
        table = self.table
        seat = table.to_act
        try:
            call = parse_call(text)
            table.call(seat, call)
        except BackAlleyError as exc:
            h = table.game.hand_size
            self.say("Not accepted: %s. Call %s; 'help' explains." % (
                exc, "Pass or Board" if h == 1 else "Pass, a number from 1 to %d, or Board" % (h - 1)))

    def _play(self, text):
        table = self.table
        seat = table.to_act
        legal = self.legal()
        try:
            if text.isdigit():
                i = int(text)
                if not 1 <= i <= len(legal):
                    raise CardError("there is no card %d in the list (1-%d)" % (i, len(legal)))
                card = legal[i - 1]
            else:
                card = parse_card(text)
            table.play(seat, card)
        except BackAlleyError as exc:
            self.say("Not accepted: %s. You may play: %s" % (exc, " ".join(self.card(c) for c in legal)))

    def sheet(self):
        from pipboard.basheet import keeper_from_game, sheet_text

        text = sheet_text(keeper_from_game(self.table.game))
        return self._ascii(text) if self.ascii else text


def _contract(contract):
    from pipboard.batable import contract_words

    return contract_words(contract)


def play(stdin, stdout, seat=2, bots=3, seed=None, sheet=None, ascii_cards=False, stderr=None):
    """Run a game reading the person's lines from ``stdin``; returns the exit status."""
    stderr = stderr or sys.stderr
    from pipboard.batable import Table

    people = [] if bots == 4 else [seat]
    table = Table(people=people, seed=seed)
    text = TextTable(table, stdout, ascii_cards)
    if people:
        text.say("Back Alley: you are %s, partnered with %s, against %s and %s (bots). 'help' for the commands."
                 % (("North", "East", "South", "West")[seat], table.name((seat + 2) % 4), table.name((seat + 1) % 4),
                    table.name((seat + 3) % 4)))
    else:
        text.say("Back Alley: four bots play a whole game.")
    stopped = False
    while True:
        table.run_bots()
        text.show_news()
        if table.over():
            break
        stdout.write(text.situation())
        stdout.flush()
        line = stdin.readline()
        if not line:
            text.say("\n(end of input: the game stops at deal %d of %d)" % (table.game.number, DEALS))
            stopped = True
            break
        if not text.handle(line):
            stopped = True
            break
        text.show_news()
    if stopped:
        text.say(text.score_line())
    text.say("")
    text.say(text.sheet())
    if sheet:
        from pipboard.basheet import keeper_from_game, write_sheet

        try:
            write_sheet(keeper_from_game(table.game), sheet, stdout)
        except OSError as exc:
            stderr.write("pipboard backalley: cannot write the score sheet to %s: %s\n" % (sheet, exc.strerror or exc))
            return 1
        if sheet != "-":
            text.say("Score sheet written to %s." % sheet)
    return 0


def add_arguments(p):
    p.add_argument("--seat", default="S", type=_seat_arg, help="your seat: N, E, S or W (default S; N-S and E-W "
                   "are partners)")
    p.add_argument("--bots", type=int, choices=(3, 4), default=3,
                   help="3: you play one seat against three bots (default); 4: watch four bots play a game")
    p.add_argument("--seed", type=int, default=None, help="seed the shuffles (repeatable games)")
    p.add_argument("--sheet", metavar="FILE", default=None,
                   help="write the score sheet at the end (FILE.json: JSON; else the plain text sheet)")
    p.add_argument("--ascii", action="store_true", help="cards as AS, 10H instead of the suit symbols")
    keep = p.add_argument_group("scorekeeper for a game with a real pack (--keep)")
    keep.add_argument("--keep", action="store_true", help="keep the score of a game played with real cards: type "
                      "the trump, the calls and the tricks of each deal")
    keep.add_argument("--save", metavar="FILE", help="keep the game in FILE after every entry and go on from it")
    keep.add_argument("--names", type=_names_arg, metavar="N,E,S,W", help="the four players' names")
    keep.add_argument("--dealer", type=_seat_arg, help="the first dealer (default: drawn at random)")
    keep.add_argument("--referee", action="store_true", help="referee mode: type each card as it is played (checked "
                      "by RULES.md 5.8 as far as the board can without seeing the hands); the tricks are counted")


def _seat_arg(text):
    import argparse

    t = text.strip().lower()
    for seat, name in enumerate(("north", "east", "south", "west")):
        if t in (name, name[0]):
            return seat
    raise argparse.ArgumentTypeError("a seat is N, E, S or W, not %r" % text)


def _names_arg(text):
    import argparse

    from pipboard.bakeep import parse_names

    try:
        return parse_names(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args):
    if not args.keep and (args.save or args.names or args.dealer is not None or args.referee):
        sys.stderr.write("pipboard backalley: --save, --names, --dealer and --referee go with --keep\n")
        return 2
    try:
        if args.keep:
            from pipboard.bakeep import keep

            return keep(sys.stdin, sys.stdout, save=args.save, names=args.names, dealer=args.dealer,
                        sheet=args.sheet, seed=args.seed, referee=args.referee)
        return play(sys.stdin, sys.stdout, seat=args.seat, bots=args.bots, seed=args.seed, sheet=args.sheet,
                    ascii_cards=args.ascii)
    except BrokenPipeError:  # the output went to a pager or `head` that stopped reading: no traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1

