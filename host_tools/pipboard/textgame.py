"""Text mode: backgammon in the terminal, two players sharing the keyboard, refereed as the board is.

X moves from 24 down to 1 in X's numbering, O likewise in O's. Moves are
typed in gnubg notation (``13/9 6/5*``, ``bar/22``, ``6/off``, ``24/18(2)``);
the cube with ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``; a
resignation with ``resign [single|gammon|backgammon]``, answered ``accept`` or
``decline``. ``pipboard sim --text`` runs it (``--match N`` for a match, money
play by default; the cube options of RULES.md 0.4); tests drive it through
``TextGame.handle`` and ``play``.

The match has one owner, the firmware's referee (``pipcore.match.Referee``):
every roll, play, cube action, resignation and result is the referee's, with
the reason it gives when it refuses one. This module only reads the typed
lines, asks the referee, and draws (``pipboard.textboard``, as gnubg draws).
The referee writes the game record (``pipcore.recwriter``), so ``export FILE``
(or ``--save FILE`` on leaving) writes the match with the exporter of
``pipboard export`` (``pipboard.matfile``), for GNU Backgammon to import.

The dice roll by themselves when the player on roll may not double (as
gnubg's automatic roll does); when he may, he types ``roll`` or ``double``.

With ``--clock simple|bronstein`` (``--clock-minutes``, ``--clock-delay``) the
players have the board's tournament clock (``pipcore.gameclock``): the clock
of the player on roll runs until his play is typed, the answering player's
while a double or a resignation waits, and a player whose time runs out loses
the game (in a match, the match: ``Referee.lose_on_time``). The terminal
cannot interrupt a player who is typing: the flag is seen when the line comes.
"""

import io
import random
import time

from pipboard.textboard import NAMES, draw_board, margins
from pipcore.cube import ACTIONS, BEAVER, DROP, OFFER, RACCOON, TAKE, CubeError
from pipcore.match import ANSWER, CUBE_OR_ROLL, GAME_ENDED, MATCH_ENDED, PLAY, TIME, MatchError, Referee
from pipcore.notation import NotationError, parse_play
from pipcore.options import make_options
from pipcore.recwriter import RecordWriter
from pipcore.rules import RESULT_NAMES, IllegalPlayError

__all__ = ["HELP", "NAMES", "TextGame", "clock_for", "draw_board", "make_clock", "play"]

HELP = """Commands (the prompt says what is awaited):
  roll          roll the dice (asked only when you may double; otherwise they roll by themselves)
  double        offer the cube, before rolling
  take, drop    answer a double (a beaver, a raccoon)
  beaver        take and redouble at once, keeping the cube (money play with --beavers)
  raccoon       answer a beaver by redoubling again (--raccoons)
  13/9 6/5*     play a move in gnubg notation (bar/22, 6/off, 24/18(2), 13/7*/1)
  legal         list every legal play for this roll
  resign [single|gammon|backgammon]
                offer to resign (a single if not said), on your turn or facing a double
  accept        accept the resignation offered (the game ends), or:
  decline       decline it (the game goes on as if nothing was offered)
  board         draw the board again
  score         the score, the match length and the cube
  clock         the time left on the tournament clock (sim --text --clock ...)
  id            show the Position ID and the Match ID
  export FILE   write the match so far as a GNU Backgammon .mat file
  help          this text
  quit          leave the game (sim --text --save FILE writes the match first)
"""

LEVELS = ("single", "gammon", "backgammon")
_AFTER_THE_MATCH = ("export", "board", "score", "id", "help", "?")
_LEVEL_WORDS = {"single": 1, "s": 1, "1": 1, "gammon": 2, "g": 2, "2": 2, "backgammon": 3, "b": 3, "bg": 3, "3": 3}


def _points(n):
    return "%d point%s" % (n, "" if n == 1 else "s")


class TextGame:
    """A match (or money session) in the terminal; ``handle`` takes one typed line.

    ``options``: a complete options dict (``pipcore.options.make_options``;
    default: money play with the cube). ``clock``: a ``GameClock`` or None;
    ``now``: the ms source of the clock. ``over`` is True once the match is
    over (money play goes on until ``quit``); then the board, the score and ``export`` still answer.
    """

    def __init__(self, rng, out, clock=None, now=None, options=None, players=NAMES):
        self.rng = rng
        self.out = out
        self.clock = clock  # a pipcore.gameclock.GameClock, or None
        self.now = now or (lambda: int(time.monotonic() * 1000))  # ms
        self.options = make_options() if options is None else options
        self.names = (players[0], players[1])
        self.record = io.BytesIO()  # the game record, written by the referee (pipcore.record's format)
        self.ref = Referee(self.options, self.names, RecordWriter(self.record))
        self.resigning = None  # (player, level): a resignation waiting for accept or decline
        self.turn = None  # the legal plays of the roll being played
        self.no_double = None  # why the dice rolled by themselves (the cube could not be offered)
        self.over = False
        self._new_game()
        self._advance()

    # -- what the tests and the prompt read ------------------------------------------
    @property
    def position(self):
        return self.ref.position

    @property
    def x_on_roll(self):
        return self.ref.turn == 0

    @property
    def dice(self):
        return self.ref.dice

    @property
    def mover(self):
        return NAMES[self.ref.turn]

    def say(self, text):
        self.out.write(text + "\n")

    def prompt(self):
        """The prompt line: who is awaited, for what."""
        ref = self.ref
        if self.over:
            return "The match is over: export FILE.mat, or quit> "
        if self.resigning is not None:
            return "%s: accept or decline> " % NAMES[1 - self.resigning[0]]
        if ref.phase == PLAY:
            return "%s to play %d-%d> " % (self.mover, max(ref.dice), min(ref.dice))
        if ref.phase == CUBE_OR_ROLL:
            return "%s: roll or double> " % self.mover
        if ref.phase == ANSWER:
            return "%s: %s> " % (NAMES[ref.cube.responder()], self._answers())
        return "> "

    def legal_plays(self):
        """Every legal play for the current roll, in gnubg notation, sorted."""
        if self.ref.phase != PLAY:
            return []
        return sorted(self.turn.notation(code) or "(no move)" for code in self.turn.plays)

    # -- the flow of the match -----------------------------------------------------------
    def _new_game(self):
        ref = self.ref
        ref.new_game()
        if self.clock is not None:
            self.clock.new_game(ref.game_number)
        self.say("")
        self.say(self._game_title())
        while True:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            self.say("Opening roll: X %d, O %d" % (a, b))
            value = ref.cube.value
            if ref.opening_roll(a, b) is not None:
                break
            if ref.cube.value != value:
                self.say("A tie: both roll again. Automatic double: the cube is at %d." % ref.cube.value)
            else:
                self.say("A tie: both roll again.")
        self.no_double = "the opening roll is played as it fell: doubles come on later turns"
        if ref.phase == CUBE_OR_ROLL:
            self.say("%s starts, and rolls afresh (opening reroll)." % self.mover)

    def _game_title(self):
        ref = self.ref
        match = ref.match
        score = "X %d, O %d" % (match.score[0], match.score[1])
        if not match.length:
            return "Game %d, money play (%s so far)" % (ref.game_number, score)
        text = "Game %d of a %d point match: %s" % (ref.game_number, match.length, score)
        if ref.cube.crawford_game:
            text += ". The Crawford game: no doubling in this game"
        elif match.post_crawford():
            text += " (post-Crawford)"
        return text

    def _advance(self):
        """Carry the match on as far as it goes without a player (rolls nobody needs to ask for, forced
        passes, the end of a game, the next game), then show the board and say what is awaited."""
        ref = self.ref
        while not self.over:
            phase = ref.phase
            if phase in (GAME_ENDED, MATCH_ENDED):
                self._game_over()
                if not self.over:
                    self._new_game()
                continue
            if phase == CUBE_OR_ROLL and self.resigning is None and not ref.may_double():
                self.no_double = ref.cube.offer_error(ref.turn)
                self._roll()
                continue
            if phase == PLAY and self.turn is None:
                self.turn = ref.legal_turn()
                if self.turn.dice_used == 0:
                    self._show()
                    self.say("%s cannot move with %d-%d." % (self.mover, max(ref.dice), min(ref.dice)))
                    ref.play_code(self.turn, self.turn.plays[0])
                    self.turn = None
                    continue
            break
        self._run_clock()
        if self.over:
            return
        self._show()
        self.say(self._awaited())

    def _awaited(self):
        ref = self.ref
        cube = ref.cube
        if self.resigning is not None:
            player, level = self.resigning
            return "%s offers to resign a %s (%s): %s, accept or decline?" % (
                NAMES[player], LEVELS[level - 1], _points(cube.points(level)), NAMES[1 - player])
        if ref.phase == PLAY:
            return "%s to play %d-%d (%d dice must be used)." % (self.mover, max(ref.dice), min(ref.dice),
                                                                self.turn.dice_used)
        if ref.phase == CUBE_OR_ROLL:
            return "%s on roll: 'roll', or 'double' (the cube to %d)." % (self.mover, cube.next_value(cube.value))
        return "%s to answer the double to %d: %s." % (NAMES[cube.responder()], cube.offered_value,
                                                       self._answers())

    def _answers(self):
        names = {TAKE: "take", DROP: "drop", BEAVER: "beaver", RACCOON: "raccoon"}
        words = [names[a] for a in self.ref.cube.answers()]
        return ", ".join(words[:-1]) + " or " + words[-1]

    def _show(self):
        ref = self.ref
        self.say(draw_board(ref.position, ref.turn == 0, ref.dice, self.names,
                            margins(ref, self.names, self.resigning), ref.match_id()))
        self._say_clock()

    def _roll(self):
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.ref.roll(dice)
        self.turn = None
        self.say("%s rolls %d-%d." % (self.mover, max(dice), min(dice)))

    def _game_over(self):
        ref = self.ref
        r = ref.result
        self.resigning = None
        self.turn = None
        if self.clock is not None:
            self.clock.run(-1, self.now())
            self.clock.end_turn()  # the last move ends its turn of the clock (Bronstein gives back)
        winner = NAMES[r.winner]
        if r.dropped:
            self.say("%s wins %s (the double is dropped)." % (winner, _points(r.points)))
        elif r.resigned:
            self.say("%s wins %s (%s resigns a %s)." % (winner, _points(r.points), NAMES[1 - r.winner],
                                                       LEVELS[r.kind - 1]))
        elif r.kind == TIME:
            self.say("%s wins %s (on time)." % (winner, _points(r.points)))
        else:
            self._show()
            self.say("%s wins a %s (%s)." % (winner, RESULT_NAMES[r.kind], _points(r.points)))
        self.say(self._score_line())
        if ref.phase == MATCH_ENDED:
            score = ref.match.score
            self.say("%s wins the match %d-%d." % (winner, score[r.winner], score[1 - r.winner]))
            self.over = True

    def _score_line(self):
        match = self.ref.match
        where = "in a %d point match" % match.length if match.length else "in money play"
        text = "Score: X %d, O %d %s" % (match.score[0], match.score[1], where)
        cube = self.ref.cube
        if cube is not None and not self.ref.game_over():
            if cube.crawford_game:
                text += "; the Crawford game"
            elif self.options["cubeEnabled"]:
                owner = "in the centre" if cube.owner < 0 else "owned by %s" % NAMES[cube.owner]
                text += "; the cube is at %d, %s" % (cube.value, owner)
        return text + "."

    # -- the clock -------------------------------------------------------------------------
    def _running_side(self):
        """Whose clock runs: the player on roll's, the answering player's while a double or an offer to
        resign waits; nobody's between games (as ``pipcore.gameclock.running_side`` on the board)."""
        ref = self.ref
        if self.resigning is not None:
            return 1 - self.resigning[0]
        if ref.phase in (CUBE_OR_ROLL, PLAY):
            return ref.turn
        if ref.phase == ANSWER:
            return ref.cube.responder()
        return -1

    def _run_clock(self):
        if self.clock is not None and not self.ref.game_over():
            self.clock.run(self._running_side(), self.now())

    def _say_clock(self):
        if self.clock is not None:
            from pipcore.gameclock import format_line

            self.say("Clock: " + format_line(self.clock.view()).replace("white", "X").replace("black", "O"))

    def _out_of_time(self):
        """Charge the running clock up to now; True (and the game lost on time) if the flag fell."""
        clock = self.clock
        ref = self.ref
        if clock is None or ref.phase not in (CUBE_OR_ROLL, ANSWER, PLAY):
            return False
        if clock.charge(self.now()) < 0:
            return False
        loser = clock.flag
        self.resigning = None
        name = NAMES[loser]
        self.say("%s's time ran out: %s loses the %s on time." % (name, name, "match" if ref.match.length
                                                                  else "game"))
        self._say_clock()
        ref.lose_on_time(loser)
        self._advance()
        return True

    # -- commands ----------------------------------------------------------------------------
    def handle(self, line):
        """Process one input line; returns False when the session should stop (``quit``; once the match is
        over, anything but a look at it or ``export``)."""
        text = line.strip()
        if not text:
            return True
        words = text.lower().split()
        word = words[0]
        if word in ("quit", "exit", "q") or self.over and word not in _AFTER_THE_MATCH:
            return False
        if self._out_of_time():
            return True
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "clock":
            if self.clock is None:
                self.say("No clock: start with --clock simple|bronstein.")
            self._say_clock()
        elif word == "board":
            self._show()
        elif word == "id":
            self.say("Position ID: %s\nMatch ID: %s" % (self.ref.position_id(), self.ref.match_id()))
        elif word == "score":
            self.say(self._score_line())
        elif word == "legal":
            if self.ref.phase != PLAY:
                self._refuse("no dice to play yet: %s" % self._awaited())
            for play_text in self.legal_plays():
                self.say("  " + play_text)
        elif word == "export":
            if len(words) < 2:
                self._refuse("say where: export FILE.mat")
            else:
                self.export(text.split(None, 1)[1])
        elif word in ("roll", "r"):
            self._cmd_roll()
        elif word in ACTIONS:
            self._cmd_cube(ACTIONS[word])
        elif word == "resign":
            self._cmd_resign(words[1:])
        elif word in ("accept", "decline"):
            self._cmd_answer(word == "accept")
        elif self.resigning is not None:
            self._refuse(self._waiting())
        elif self.ref.phase == PLAY:
            self._play(text)
        elif word[0].isdigit() or word.startswith("bar"):
            self._refuse("not a time to move: %s" % self._awaited())
        else:
            self._refuse("%r is not a command (type 'help')" % word)
        return True

    def _refuse(self, reason):
        self.say("Refused: %s" % reason)

    def _waiting(self):
        """The refusal while an offer to resign waits, or None."""
        if self.resigning is None:
            return None
        player, level = self.resigning
        return "%s's offer to resign a %s waits: %s, accept or decline" % (NAMES[player], LEVELS[level - 1],
                                                                           NAMES[1 - player])

    def _cmd_roll(self):
        ref = self.ref
        why = self._waiting()
        if why is None and ref.phase == PLAY:
            why = "%s has rolled %d-%d already: play it" % (self.mover, max(ref.dice), min(ref.dice))
        elif why is None and ref.phase == ANSWER:
            why = "the double waits for %s's answer: %s" % (NAMES[ref.cube.responder()], self._answers())
        if why is not None:
            return self._refuse(why)
        self.no_double = None
        self._roll()
        self._advance()

    def _cmd_cube(self, action):
        ref = self.ref
        why = self._waiting()
        if why is not None:
            return self._refuse(why)
        try:
            if action == OFFER:
                if ref.phase == PLAY and self.no_double:
                    raise CubeError(self.no_double)  # the dice rolled by themselves for that reason
                player = ref.turn
            elif ref.phase != ANSWER:
                raise CubeError("no double has been offered")
            else:
                player = ref.cube.responder()
            ref.cube_action(action)
        except (CubeError, MatchError) as exc:
            return self._refuse(str(exc))
        cube = ref.cube
        name = NAMES[player]
        if action == OFFER:
            self.say("%s doubles: the cube to %d." % (name, cube.offered_value))
        elif action == TAKE:
            self.say("%s takes: the cube is at %d, owned by %s." % (name, cube.value, NAMES[cube.owner]))
        elif action == DROP:
            self.say("%s drops." % name)
        elif action == BEAVER:
            self.say("%s beavers: takes at %d, owning the cube, and redoubles to %d." % (name, cube.value,
                                                                                        cube.offered_value))
        else:
            self.say("%s raccoons: the cube to %d." % (name, cube.offered_value))
        self._advance()

    def _cmd_resign(self, args):
        ref = self.ref
        why = self._waiting()
        if why is not None:
            return self._refuse(why)
        level = _LEVEL_WORDS.get(args[0] if args else "single")
        if level is None or len(args) > 1:
            return self._refuse("resign single, gammon or backgammon, not %r" % " ".join(args))
        if ref.phase in (CUBE_OR_ROLL, PLAY):
            player = ref.turn
        elif ref.phase == ANSWER:
            player = ref.cube.responder()
        else:
            return self._refuse("no game is being played")
        from pipcore.resign import top_level

        if level > top_level(ref):
            return self._refuse("a %s would score as a single now: offer a single" % LEVELS[level - 1])
        self.resigning = (player, level)
        self._advance()

    def _cmd_answer(self, accept):
        if self.resigning is None:
            return self._refuse("no resignation is offered")
        player, level = self.resigning
        self.resigning = None
        if accept:
            self.say("%s accepts %s's resignation." % (NAMES[1 - player], NAMES[player]))
            self.ref.resign(player, level)
        else:
            self.say("%s declines: the game goes on." % NAMES[1 - player])
        self._advance()

    def _play(self, text):
        try:
            self.ref.play(parse_play(text))
        except (NotationError, IllegalPlayError) as exc:
            self.say("Illegal: %s. Type 'legal' to list the legal plays." % exc)
            return
        self.turn = None
        self._advance()

    # -- the match as a file ----------------------------------------------------------------------
    def mat_text(self):
        """The match so far as .mat text (``pipboard.matfile``, as ``pipboard export`` writes it); ValueError
        when nothing has been played yet."""
        from pipboard.export import without_empty_last_game
        from pipboard.matfile import export_mat
        from pipcore.record import read_record

        record = without_empty_last_game(read_record(self.record.getvalue()))
        if not record.entries:
            raise ValueError("nothing has been played yet")
        return export_mat(record)

    def export(self, path):
        """Write the match so far to ``path`` as a .mat file; True when written (the reason said if not)."""
        from pipboard.matfile import export_warnings

        try:
            text = self.mat_text()
        except ValueError as exc:
            self.say("Cannot export: %s." % exc)
            return False
        from pipboard.files import write_file

        try:
            write_file(path, text)
        except OSError as exc:  # FileWriteError: names the file
            self.say("%s." % str(exc).capitalize())
            return False
        for warning in export_warnings(self.options):
            self.say("Note: %s." % warning)
        self.say("Match written to %s (GNU Backgammon: import mat)." % path)
        return True


def clock_for(options):
    """The tournament clock of a match with these (complete) options, or None when ``clock`` is "off"."""
    if options["clock"] == "off":
        return None
    from pipcore.gameclock import GameClock

    return GameClock.for_options(options)


def make_clock(mode, minutes=2, delay=12, length=0):
    """The clock of a text game, or None for mode "off"; ConfigError (a ValueError) if a value is bad."""
    return clock_for(make_options({"clock": mode, "clockMinutes": minutes, "clockDelay": delay,
                                   "matchLength": length}))


def play(stdin, stdout, seed=None, clock=None, now=None, options=None, save=None):
    """Run a text-mode match reading commands from ``stdin``; returns the exit status.

    ``options``: RULES.md options (completed by ``make_options``; ConfigError if bad); ``clock``: a
    GameClock (default: the options' own); ``now``: ms source; ``save``: a .mat file written on leaving.
    """
    rng = random.Random(seed)
    opts = make_options(options or {})
    if clock is None:
        clock = clock_for(opts)
    stdout.write("Pipboard text mode. Type 'help' for commands.\n")
    game = TextGame(rng, stdout, clock, now, opts)
    status = 0
    try:
        stdout.write(game.prompt())
        stdout.flush()
        for line in stdin:
            if not game.handle(line):
                break
            stdout.write(game.prompt())
            stdout.flush()
        else:
            stdout.write("\n")  # the input ended at a prompt
    except KeyboardInterrupt:
        stdout.write("\n")
        status = 130
    if save and not game.export(save):
        status = status or 1
    stdout.flush()
    return status
