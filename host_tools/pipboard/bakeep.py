"""``pipboard backalley --keep``: the scorekeeper in the terminal, for a game played with a real pack.

The same core as the board's scorekeeper mode (``pipcore.bascore``): for each
deal the trump is typed (a suit or ``joker``), then each seat's call in turn
from the dealer's left (refused where RULES.md 5.6 forbids it), then the
tricks each seat took (checked: they add up to the cards dealt). The deal is
scored, redeals and the end of the 25 deals are handled, ``undo`` takes back
the last entry. With ``--save FILE`` the game is written after every entry
and picked up again from that file, so closing the terminal loses nothing.

With ``--referee`` (the board's referee mode, ``pipcore.batricks``) the
tricks are not typed as counts: each card is typed as it is played (its text,
or the board's four card keys), checked, each trick's winner shown, and the
tricks each seat took go into the score sheet by themselves.
"""

import json
import os
import random
import sys

from pipboard.files import write_file
from pipcore.backalley import BackAlleyError
from pipcore.bascore import CALLING, OVER, TRICKS, TRUMP, ScoreError, ScoreKeeper, trump_name

HELP = """Type what the prompt asks:
  the trump:   C, D, H, S (or clubs, ...), or J / joker for a joker turned up (no trump)
  a call:      pass (p), a number, or board (b)
  the tricks:  the number of tricks that seat took
Any time:      undo (take back the last entry), score, sheet, help, quit
"""

REFEREE_HELP = """With --referee, each card as it is played, in turn from the leader:
  its text:    AS, 10H (or TH), qd, ♠A, BJ, LJ
  or the board's card keys, several on one line: > next suit, + higher, - lower, . play the card shown
  A trump led before trumps are broken is refused once; typed again it is the leader's word that he holds
  only trumps. undo takes back the last card (even the last of a deal, with its score).
"""
KEY_CHARS = {">": 0, "+": 1, "-": 2, ".": 3}  # batricks.SUIT, UP, DOWN, PLAY


def _contract(c):
    from pipboard.batable import contract_words

    return contract_words(c)


class KeeperText:
    """One typed line at a time into a ScoreKeeper, saved after every accepted one."""

    def __init__(self, keeper, out, save=None, tricks=None):
        self.keeper = keeper
        self.out = out
        self.save_path = save
        self.tricks = tricks  # the referee of the deal in play, or of the last one (--referee)

    def say(self, text):
        self.out.write(text + "\n")

    def save(self):
        if not self.save_path:
            return
        snap = self.keeper.snapshot()
        if self.tricks is not None:
            snap["tricks"] = self.tricks.snapshot()
        write_file(self.save_path, json.dumps(snap))

    def keep(self):
        """Save after an entry; a save that fails is said, and the previous save stays whole."""
        try:
            self.save()
        except OSError as exc:  # FileWriteError: names the file
            self.say("Not saved: %s (the previous save is kept)." % exc)

    def handle(self, line):
        """Act on one line; False to stop."""
        k = self.keeper
        text = line.strip()
        word = text.lower()
        if not text:
            return True
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?"):
            self.say(HELP + (REFEREE_HELP if k.referee else ""))
            return True
        if word == "score":
            self.say("Score: NS %d, EW %d (deal %d of 25)." % (k.scores[0], k.scores[1], min(k.number, 25)))
            return True
        if word == "sheet":
            from pipboard.basheet import sheet_text

            self.say(sheet_text(k))
            return True
        if word == "undo":
            if k.referee:
                from pipcore.batricks import undo

                self.tricks, said = undo(k, self.tricks)
                self.say(said[0].upper() + said[1:] + ".")
            else:
                self.say("Taken back." if k.undo() else "Nothing to take back.")
            self.keep()
            return True
        rows = len(k.rows)
        phase = k.phase
        try:
            if phase == TRICKS and self.tricks is not None and self.tricks.fits(k):
                self._card(text)
            elif phase == TRUMP:
                k.key_trump(text)
            elif phase == CALLING:
                k.key_call(text)
            elif phase == TRICKS:
                k.key_tricks(text)
            else:
                self.say("The game is over: 'sheet' shows the score sheet, 'undo' takes back the last entry.")
                return True
        except BackAlleyError as exc:
            self.say("Not accepted: %s." % exc)
            return True
        if k.referee:
            from pipcore.batricks import current

            self.tricks = current(k, self.tricks)
        self.keep()
        if phase == CALLING and k.phase == TRICKS:
            c = k.contracts
            self.say("Contracts: NS %s, EW %s. %s leads." % (_contract(c[0]), _contract(c[1]), k.names[k.leader]))
            if self.tricks is not None:
                self.say("Type each card as it is played ('help' shows how).")
        if len(k.rows) > rows:
            row = k.last_row()
            if row.redeal:
                self.say("All four passed: %s deals again (%d cards, not counted)." % (k.names[k.dealer],
                                                                                       k.hand_size))
            else:
                self.say("Deal %d: NS %+d (total %d), EW %+d (total %d)." % (
                    row.number, row.points[0], row.totals[0], row.points[1], row.totals[1]))
        return True


    def _card(self, text):
        """A card typed as it is played: its text, or the board's card keys (``> + - .``)."""
        t = self.tricks
        keys = text.replace(" ", "")
        if keys and all(ch in KEY_CHARS for ch in keys):
            for ch in keys:
                if ch == ".":  # PLAY, here with the refusal raised rather than said
                    self.say(t.play(t.entry) + ".")
                    if t.done():
                        return
                else:
                    t.press(KEY_CHARS[ch])
            return
        self.say(t.play(text) + ".")

    def prompt(self):
        k = self.keeper
        t = self.tricks
        if k.phase == TRICKS and t is not None and t.fits(k):
            trump = "no trump" if k.trump < 0 else "trump " + trump_name(k.trump)
            return "Deal %d, %s. %s [%s]" % (k.number, trump, t.prompt(), t.entry_text())
        return k.prompt()


def keep(stdin, stdout, save=None, names=None, dealer=None, sheet=None, seed=None, referee=False):
    """Run the terminal scorekeeper; returns the exit status."""
    keeper = None
    tricks = None
    if save and os.path.exists(save):
        try:
            with open(save, encoding="utf-8") as f:
                data = json.load(f)
            keeper = ScoreKeeper.restore(data)
            if keeper.referee:
                from pipcore.batricks import resume

                tricks = resume(keeper, data.get("tricks"))
        except (OSError, ValueError) as exc:
            sys.stderr.write("pipboard backalley --keep: %s cannot be read (%s); move it away or choose another "
                             "--save file\n" % (save, exc))
            return 1
        stdout.write("Resumed from %s%s.\n" % (save, " (referee mode: the cards of each trick)" if keeper.referee
                                                  else ""))
        if referee and not keeper.referee:
            stdout.write("That game was started without --referee: its tricks are typed as counts.\n")
    else:
        try:
            first = dealer if dealer is not None else random.Random(seed).randrange(4)
            keeper = ScoreKeeper(first, names, referee=referee)
        except ScoreError as exc:
            sys.stderr.write("pipboard backalley --keep: %s\n" % exc)
            return 2
        stdout.write("Back Alley scorekeeper. NS: %s and %s; EW: %s and %s. %s deals first%s.\n" % (
            keeper.names[0], keeper.names[2], keeper.names[1], keeper.names[3], keeper.names[keeper.first_dealer],
            "" if dealer is not None else " (drawn at random)"))
        if referee:
            stdout.write("Referee mode: type each card as it is played; the tricks are counted for you.\n")
    text = KeeperText(keeper, stdout, save, tricks)
    try:
        text.save()
    except OSError as exc:
        sys.stderr.write("pipboard backalley --keep: %s\n" % exc)
        return 1
    over_said = False
    while True:
        if keeper.phase == OVER:
            # the last entry may still be wrong: as on the board, it can be taken back until the player leaves
            if not over_said:
                stdout.write(keeper.prompt() + ".\n")
                over_said = True
            stdout.write("Game over: 'undo' takes back the last entry, 'sheet' shows the sheet, 'quit' ends? ")
        else:
            over_said = False
            stdout.write(text.prompt() + "? ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            break
        if not text.handle(line):
            break
    from pipboard.basheet import sheet_text, write_sheet

    stdout.write("\n" + sheet_text(keeper))
    if save and keeper.phase != OVER:
        stdout.write("The game is kept in %s: the same command goes on from here.\n" % save)
    if sheet:
        try:
            write_sheet(keeper, sheet, stdout)
        except OSError as exc:
            sys.stderr.write("pipboard backalley: cannot write %s: %s\n" % (sheet, exc.strerror or exc))
            return 1
    return 0


def parse_names(text):
    """``"Ann,Bob,Cy,Di"`` (N, E, S, W) as a list; ValueError with a reason otherwise."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise ValueError("give four names separated by commas, for N, E, S and W")
    return names

