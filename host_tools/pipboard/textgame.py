"""Text mode: a game of backgammon in the terminal, board drawn as gnubg draws it.

Two players share the keyboard (X moves from 24 down to 1 in X's numbering,
O likewise in O's). Moves are typed in gnubg notation (``13/9 6/5*``,
``bar/22``, ``6/off``, ``24/18(2)``); an illegal play is refused with the
reason. ``pipboard sim --text`` runs it; tests drive it through ``play``.

With ``--clock simple|bronstein`` (``--clock-minutes``, ``--clock-delay``) the
players have the board's tournament clock (``pipcore.gameclock``): the
mover's runs from the end of the opponent's turn until his play is typed, and
a player whose time runs out loses the game (the terminal cannot interrupt a
player who is typing: the flag is seen when the line comes).
"""

import random
import time

from pipcore.notation import NotationError, parse_play
from pipcore.position import BAR, Position
from pipcore.rules import RESULT_NAMES, IllegalPlayError, Turn, check_play, winner_of

HELP = """Commands:
  13/9 6/5*     play a move in gnubg notation (bar/22, 6/off, 24/18(2), 13/7*/1)
  legal         list every legal play for this roll
  board         draw the board again
  clock         the time left on the tournament clock (sim --text --clock ...)
  id            show the Position ID
  help          this text
  quit          leave the game
"""

NAMES = ("X", "O")


def draw_board(position, x_on_roll, dice=None, names=NAMES):
    """The board as gnubg's ``show board`` draws it, from X's side.

    ``position`` is seen from the player on roll; ``x_on_roll`` says who
    that is. X's points 13-24 are along the top, 12-1 along the bottom.
    """
    x, o = (position.me, position.opp) if x_on_roll else (position.opp, position.me)

    def stack(point):
        """(character, count) on X's ``point``."""
        if x[point]:
            return "X", x[point]
        if o[25 - point]:
            return "O", o[25 - point]
        return " ", 0

    def cell(point, row):
        ch, n = stack(point)
        if n > row:
            if row == 4 and n > 5:
                return "%2d " % n if n > 9 else " %d " % n
            return " %s " % ch
        return "   "

    lines = []
    lines.append(" Position ID: %s" % position.position_id())
    lines.append(" +13-14-15-16-17-18------19-20-21-22-23-24-+     O: %s" % names[1])
    for row in range(5):
        left = "".join(cell(p, row) for p in range(13, 19))
        right = "".join(cell(p, row) for p in range(19, 25))
        bar = " O " if o[BAR] > row else "   "
        side = ""
        if row == 0 and o[0]:
            side = "     O off: %d" % o[0]
        lines.append(" |%s|%s|%s|%s" % (left, bar, right, side))
    roll = ""
    if dice:
        roll = "     %s rolled %d-%d" % (NAMES[0] if x_on_roll else NAMES[1], dice[0], dice[1])
    arrow = "v" if x_on_roll else "^"
    lines.append("%s|                  |BAR|                  |%s" % (arrow, roll))
    for row in range(4, -1, -1):
        left = "".join(cell(p, row) for p in range(12, 6, -1))
        right = "".join(cell(p, row) for p in range(6, 0, -1))
        bar = " X " if x[BAR] > row else "   "
        side = ""
        if row == 0 and x[0]:
            side = "     X off: %d" % x[0]
        lines.append(" |%s|%s|%s|%s" % (left, bar, right, side))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: %s" % names[0])
    lines.append(" Pip count  O: %d  X: %d" % (position.pips(o), position.pips(x)))
    return "\n".join(lines)


class TextGame:
    """State of one text-mode game; ``handle`` takes one typed line."""

    def __init__(self, rng, out, clock=None, now=None):
        self.rng = rng
        self.out = out
        self.position = Position.start()
        self.x_on_roll = True
        self.dice = None
        self.turn = None
        self.over = False
        self.clock = clock  # a pipcore.gameclock.GameClock, or None
        self.now = now or (lambda: int(time.monotonic() * 1000))  # ms
        self._opening()

    def say(self, text):
        self.out.write(text + "\n")

    def _opening(self):
        while True:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            self.say("Opening roll: X %d, O %d" % (a, b))
            if a != b:
                break
            self.say("A tie: both roll again.")
        self.x_on_roll = a > b
        if not self.x_on_roll:
            self.position = self.position.swapped()
        self._start_turn((a, b))

    def _start_turn(self, dice):
        dice = (max(dice), min(dice))
        self.dice = dice
        self.turn = Turn(self.position, dice)
        if self.clock is not None:
            self.clock.run(0 if self.x_on_roll else 1, self.now())  # the mover's clock runs
        self.say(draw_board(self.position, self.x_on_roll, dice))
        self._say_clock()
        if self.turn.dice_used == 0:
            self.say("%s cannot move with %d-%d." % (self.mover, dice[0], dice[1]))
            self._next_player()
        else:
            self.say("%s to play %d-%d (%d dice must be used)." % (self.mover, dice[0], dice[1], self.turn.dice_used))

    @property
    def mover(self):
        return NAMES[0] if self.x_on_roll else NAMES[1]

    def _next_player(self):
        self.position = self.position.swapped()
        self.x_on_roll = not self.x_on_roll
        self._start_turn((self.rng.randint(1, 6), self.rng.randint(1, 6)))

    def handle(self, line):
        """Process one input line; returns False when the game should stop."""
        text = line.strip()
        if not text:
            return True
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return False
        if self._out_of_time():
            return False
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "clock":
            if self.clock is None:
                self.say("No clock: start with --clock simple|bronstein.")
            self._say_clock()
        elif word == "board":
            self.say(draw_board(self.position, self.x_on_roll, self.dice))
            self._say_clock()
        elif word == "id":
            self.say("Position ID: %s" % self.position.position_id())
        elif word == "legal":
            for text in self.legal_plays():
                self.say("  " + text)
        else:
            self._play(text)
        return not self.over

    def _say_clock(self):
        if self.clock is not None:
            from pipcore.gameclock import format_line

            self.say("Clock: " + format_line(self.clock.view()).replace("white", "X").replace("black", "O"))

    def _out_of_time(self):
        """Charge the mover's clock up to now; True (and the game over) if the flag fell."""
        clock = self.clock
        if clock is None or self.over:
            return False
        if clock.charge(self.now()) < 0:
            return False
        loser = NAMES[clock.flag]
        self.say("%s's time ran out: %s loses the game on time." % (loser, loser))
        self._say_clock()
        self.over = True
        return True

    def legal_plays(self):
        """Every legal play for the current roll, in gnubg notation, sorted."""
        return sorted(self.turn.notation(code) or "(no move)" for code in self.turn.plays)

    def _play(self, text):
        try:
            segments = parse_play(text)
            _, result = check_play(self.position, self.dice, segments)
        except (NotationError, IllegalPlayError) as exc:
            self.say("Illegal: %s. Type 'legal' to list the legal plays." % exc)
            return
        self.position = result
        won = winner_of(result)
        if won:
            side, kind = won
            self.say(draw_board(result, self.x_on_roll))
            self.say("%s wins a %s (%d point%s)." % (self.mover, RESULT_NAMES[kind], kind, "s" if kind > 1 else ""))
            self.over = True
            return
        self._next_player()


def make_clock(mode, minutes=2, delay=12):
    """The clock of a text game (one game: ``minutes`` each), or None for mode "off"; ConfigError if bad."""
    from pipcore.options import make_options

    opts = make_options({"clock": mode, "clockMinutes": minutes, "clockDelay": delay})
    if opts["clock"] == "off":
        return None
    from pipcore.gameclock import GameClock

    return GameClock.for_options(opts)


def play(stdin, stdout, seed=None, clock=None, now=None):
    """Run a text-mode game reading commands from ``stdin`` (``clock``: a GameClock, ``now``: ms source)."""
    rng = random.Random(seed)
    stdout.write("Pipboard text mode. Type 'help' for commands.\n")
    game = TextGame(rng, stdout, clock, now)
    for line in stdin:
        if not game.handle(line):
            break
        stdout.flush()
    return 0
