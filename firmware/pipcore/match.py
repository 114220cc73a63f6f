"""Match play (RULES.md 2.7), the gnubg Match ID, and the referee of a match.

* ``Match``: the score of a match to N points (or a money session), the
  Crawford game, post-Crawford play and the match winner.
* the Match ID itself (``MatchState``, exact ``encode`` and ``decode``) is
  ``pipcore.matchid``'s, imported only when a Match ID is asked for.
* ``Referee``: one whole match step by step (opening rolls, cube actions,
  rolls, plays, resignations, results) checked against the rules. It writes
  every accepted action to an optional record writer (``pipcore.record``).
"""


from pipcore.compat import const
from pipcore.cube import BEAVER, CENTRE, DROP, OFFER, RACCOON, TAKE, Cube, CubeError  # noqa: F401
from pipcore.notation import format_play
from pipcore.position import Position
from pipcore.rules import BACKGAMMON, SINGLE, Turn, apply_move, check_dice, check_play, winner_of


class MatchError(ValueError):
    """An action that does not fit the state of the match (wrong phase or player)."""



# ---------------------------------------------------------------------------
# score and Crawford
# ---------------------------------------------------------------------------
class Match:
    """Score of a match to ``length`` points (0 = money play)."""

    def __init__(self, length=0, crawford=True):
        self.length = length
        self.crawford = crawford and length > 0
        self.score = [0, 0]
        self.games = 0
        self.crawford_game = False  # the game being played (or next) is the Crawford game
        self.crawford_done = False  # a Crawford game has been triggered already

    def __repr__(self):
        return "<Match to %d: %d-%d>" % (self.length, self.score[0], self.score[1])

    def post_crawford(self):
        return self.crawford_done and not self.crawford_game

    def winner(self):
        """The player who has won the match, or None (always None in money play)."""
        if not self.length:
            return None
        for p in (0, 1):
            if self.score[p] >= self.length:
                return p
        return None

    def is_over(self):
        return self.winner() is not None

    def add_result(self, winner, points):
        """Add a finished game's points; updates the Crawford state (2.7)."""
        if self.is_over():
            raise MatchError("the match is already over")
        if winner not in (0, 1) or points < 1:
            raise MatchError("a game result needs a winner (0 or 1) and points >= 1")
        self.score[winner] += points
        self.games += 1
        self.crawford_game = False
        if self.crawford and not self.crawford_done and not self.is_over():
            if self.score[winner] == self.length - 1:
                self.crawford_game = True
                self.crawford_done = True

    def away(self, player):
        return self.length - self.score[player] if self.length else 0



# ---------------------------------------------------------------------------
# the referee
# ---------------------------------------------------------------------------
# phases
OPENING = const(0)  # waiting for the opening roll (one die each)
CUBE_OR_ROLL = const(1)  # the player on turn may offer, or rolls
ANSWER = const(2)  # a cube offer waits for an answer
PLAY = const(3)  # dice rolled, waiting for the play
GAME_ENDED = const(4)  # between games (call new_game)
MATCH_ENDED = const(5)
NO_GAME = const(6)  # before the first game

PHASE_NAMES = ("opening roll", "cube or roll", "cube answer", "play", "game over", "match over", "no game")
KIND_NAMES = ("drop", "single", "gammon", "backgammon")
NARDY_KIND_NAMES = ("drop", "oin", "mars")
TIME = const(4)  # the kind of a game lost on time (``Referee.lose_on_time``)
SNAPSHOT_VERSION = const(1)


def colour(player):
    """The name the board's text log gives a player."""
    return "white" if player == 0 else "black"


class GameResult:
    """How one game ended: winner, kind (1-3, 0 for a dropped double), points."""

    def __init__(self, winner, kind, points, resigned=False, dropped=False, dice=None):
        self.winner = winner
        self.kind = kind
        self.points = points
        self.resigned = resigned
        self.dropped = dropped
        self.dice = tuple(dice) if dice else None  # rolled, then resigned: gnubg's Match ID keeps the dice

    def __repr__(self):
        how = "drop" if self.dropped else ("resign" if self.resigned else ("time" if self.kind == TIME else "play"))
        return "<GameResult player %d wins %d (kind %d, %s)>" % (self.winner, self.points, self.kind, how)

    def fields(self):
        out = [self.winner, self.kind, self.points, self.resigned, self.dropped]
        if self.dice:
            out.append(list(self.dice))
        return out


class Referee:
    """One match or money session, step by step: the one owner of its truth.

    ``position`` is always seen from ``turn`` (the player on turn). Every
    method raises a ValueError subclass (MatchError, CubeError,
    IllegalPlayError, DiceError) and changes nothing if the action is not
    allowed. ``writer`` (optional) gets each accepted action; ``log``
    (optional list) gets one line of text per action, as the board's host
    protocol reports them (``white rolls 31``, ``black 64: 24/18 13/9``).

    ``variant`` is "backgammon" or "nardy" (long nardy: head start position,
    its own generator and results, the first-turn exceptions, the winner of a
    game starting the next). ``keep_results`` bounds ``results`` (0: keep all).
    """

    def __init__(self, options, players=("Player 1", "Player 2"), writer=None, variant="backgammon", log=None,
                 keep_results=0, log_lines=0):
        self.options = options
        self.players = (players[0], players[1])
        self.writer = writer
        self.variant = variant
        self.nardy = variant == "nardy"
        self.log = log
        self.log_lines = log_lines  # keep only the last lines of the log (0: all)
        self.log_count = 0  # lines said this game (the log may keep fewer)
        self.keep_results = keep_results
        self.match = Match(options["matchLength"], options["crawford"])
        self.phase = NO_GAME
        self.game_number = 0
        self.move_number = 0
        self.turn = 0
        self.position = None
        self.dice = None
        self.cube = None
        self.result = None
        self.results = []
        self.opening_ties = 0
        self.played = [False, False]  # has each player played this game (long nardy's first-turn rules)
        self.opening_dice = False  # the dice being played are the opening roll's (``unroll`` goes back to it)
        self._dropper = None
        if writer is not None:
            writer.header(self.players, options)

    def __repr__(self):
        return "<Referee game %d %s, player %d>" % (self.game_number, PHASE_NAMES[self.phase], self.turn)

    # -- helpers ---------------------------------------------------------------
    def _need(self, *phases):
        if self.phase not in phases:
            raise MatchError("not now: the game is at the %s, not the %s" % (
                PHASE_NAMES[self.phase], " or ".join(PHASE_NAMES[p] for p in phases)))

    def _check_player(self, player, expected, what):
        if player is not None and player != expected:
            raise MatchError("it is %s's %s, not %s's" % (colour(expected), what, colour(player)))

    def _write(self, method, *args):
        if self.writer is not None:
            getattr(self.writer, method)(*args)

    def _say(self, text):
        log = self.log
        if log is not None:
            self.log_count += 1
            if self.log_lines and len(log) >= self.log_lines:
                log.pop(0)  # a bounded window: the record (writer) keeps the whole match
            log.append(text)

    def start_position(self):
        if self.nardy:
            from pipcore.nardy import start_position
            return start_position()
        return Position.start()

    def kind_name(self, kind):
        if kind == TIME:
            return "time"
        return (NARDY_KIND_NAMES if self.nardy else KIND_NAMES)[kind]

    # -- games -----------------------------------------------------------------
    def new_game(self, starter=None):
        """Start the next game (the first, or after a game ended).

        ``starter`` skips the opening roll: that player rolls first (long
        nardy's ``lnWinnerStarts``).
        """
        self._need(NO_GAME, GAME_ENDED)
        self.game_number += 1
        self.move_number = 0
        self.position = self.start_position()
        self.cube = Cube(self.options, crawford_game=self.match.crawford_game)
        self.dice = None
        self.result = None
        self.opening_ties = 0
        self.played = [False, False]
        if self.log is not None:
            del self.log[:]
            self.log_count = 0
        self._write("new_game")
        if starter is None:
            self.phase = OPENING
        else:
            self._first_turn(starter)

    def _first_turn(self, starter):
        self.turn = starter
        self.move_number = 1
        self.cube.start_turn(starter)
        self.phase = CUBE_OR_ROLL

    def opening_roll(self, die0, die1):
        """Each player rolls one die (1.5); returns the starter or None on a tie."""
        self._need(OPENING)
        check_dice((die0, die1))
        self._write("opening", die0, die1)
        if die0 == die1:
            self.opening_ties += 1
            if self.cube.auto_double():
                self._say("opening tie %d%d: automatic double => %d" % (die0, die1, self.cube.value))
            else:
                self._say("opening tie %d%d" % (die0, die1))
            return None
        starter = 0 if die0 > die1 else 1
        if self.nardy:
            again = self.options["lnOpening"] == "fresh-roll"
        else:
            again = self.options["openingReroll"]
        self._first_turn(starter)
        if again:
            self._say("opening %d%d: %s rolls again" % (die0, die1, colour(starter)))
        else:
            self.cube.note_roll()
            self.dice = check_dice((die0, die1))
            self.phase = PLAY
            self.opening_dice = True
            self._say("opening %d%d: %s plays %d%d" % (die0, die1, colour(starter), self.dice[0], self.dice[1]))
        return starter

    def roll(self, dice, player=None):
        """The player on turn rolls ``dice`` (kept in the order rolled)."""
        self._need(CUBE_OR_ROLL)
        self._check_player(player, self.turn, "roll")
        check_dice(dice)
        self.dice = (int(dice[0]), int(dice[1]))
        self.cube.note_roll()
        self.phase = PLAY
        self.opening_dice = False
        self._write("roll", self.turn, dice[0], dice[1])
        self._say("%s rolls %d%d" % (colour(self.turn), dice[0], dice[1]))

    def unroll(self, player=None):
        """Take back the roll being played before any of it was played: physical dice keyed in wrong
        (``pipcore.keyed``). The record keeps the roll and says it was taken back (append-only); the
        game goes back to before it (the opening roll, or the turn before its roll)."""
        self._need(PLAY)
        self._check_player(player, self.turn, "roll")
        self._write("unroll", self.turn)
        self._say("%s's %d%d taken back" % (colour(self.turn), self.dice[0], self.dice[1]))
        self.dice = None
        if self.opening_dice:
            self.phase = OPENING
            self.move_number = 0
            self.opening_dice = False
        else:
            self.cube.rolled = False
            self.phase = CUBE_OR_ROLL

    def legal_turn(self, store=None):
        """The legal plays of the current roll (``variants.make_turn``: every variant's generator),
        written into ``store`` where the generator can (``playcodes.play_store``)."""
        self._need(PLAY)
        if self.nardy or self.options["caucasian"] or self.options["jailBearOff"]:
            from pipcore.variants import make_turn
            return make_turn(self.position, self.dice, self.variant, self.options, not self.played[self.turn],
                             store, True)  # (the referee's options are made: make_options' output)
        return Turn(self.position, self.dice, store)

    def play(self, moves, player=None):
        """Play ``moves`` (segments as notation.parse_play gives) with the dice.

        Returns the GameResult if the play ends the game, else None.
        """
        self._need(PLAY)
        self._check_player(player, self.turn, "play")
        if self.nardy:
            turn = self.legal_turn()
            code, result = turn.check(moves)
            return self._finish_play(turn, code, result)
        code, result = check_play(self.position, self.dice, moves)
        turn = Turn(self.position, self.dice)
        from pipcore.playcheck import single_steps  # loaded by check_play already

        return self._finish_play(turn, code, result, single_steps(self.position, moves, self.dice, turn.dice_used))

    def play_code(self, turn, code):
        """Play a code of ``turn`` (a ``legal_turn()``) directly."""
        self._need(PLAY)
        return self._finish_play(turn, code, turn.result(code))

    def play_text(self, turn, code):
        """gnubg notation of ``code`` of ``turn`` from the current position, hits marked."""
        moves = turn.moves(code)
        if not moves:
            return "-"
        if self.nardy:
            return format_play([(s, t, None) for s, t, d in moves])
        from pipcore.notation import format_play_from
        return format_play_from(self.position, moves, apply_move)  # each hit on the move that makes it

    def _finish_play(self, turn, code, result, singles=None):
        if singles is None:  # the generator's own order of single moves
            singles = [(s, t) for s, t, _ in turn.moves(code)] if turn.dice_used else []
        if self.log is not None:
            self._say("%s %d%d: %s" % (colour(self.turn), self.dice[0], self.dice[1], self.play_text(turn, code)))
        self._write("play", self.turn, singles)
        self.played[self.turn] = True
        self.position = result
        if self.nardy:
            from pipcore.nardy import winner_of as nardy_winner_of
            won = nardy_winner_of(result)
        else:
            won = winner_of(result)
        if won is not None:
            side, kind = won
            winner = self.turn if side == 0 else 1 - self.turn
            # as in gnubg, the turn passes after the last play: the loser is "on roll"
            self.turn = 1 - self.turn
            self.position = result.swapped()
            return self._end(winner, kind, self.cube.points(kind))
        self._next_turn()
        return None

    def _next_turn(self):
        self.turn = 1 - self.turn
        self.position = self.position.swapped()
        self.dice = None
        self.move_number += 1
        self.cube.start_turn(self.turn)
        self.phase = CUBE_OR_ROLL

    # -- cube --------------------------------------------------------------------
    def may_double(self):
        """True if the player on turn may offer the cube now (RULES.md 2.2)."""
        return self.phase == CUBE_OR_ROLL and self.cube.may_offer(self.turn)

    def cube_action(self, action, player=None):
        """Apply a cube action code (cube.OFFER, TAKE, DROP, BEAVER, RACCOON).

        ``player`` defaults to whoever may act. Returns the GameResult of a
        drop, else None.
        """
        cube = self.cube
        if action == OFFER:
            if player is None:
                player = self.turn
            if self.phase in (PLAY, ANSWER):
                cube.offer(player)  # raises with the reason (rolled, or an offer pending)
            self._need(CUBE_OR_ROLL)
            cube.offer(player)
            self.phase = ANSWER
            self._write("cube", player, action)
            self._say("%s doubles => %d" % (colour(player), cube.offered_value))
            return None
        self._need(ANSWER)
        if player is None:
            player = cube.responder()
        state = cube.state
        if action == TAKE:
            cube.take(player)
            self.phase = CUBE_OR_ROLL  # the doubler now rolls (no second offer: D5)
            self._write("cube", player, action)
            self._say("%s %s" % (colour(player), ("takes", "accepts the beaver", "accepts the raccoon")[state - 1]))
            return None
        if action == DROP:
            self._dropper = cube.responder()
            winner, points = cube.drop(player)
            self._write("cube", player, action)
            self._say("%s %s" % (colour(player), ("drops", "refuses the beaver", "refuses the raccoon")[state - 1]))
            return self._end(winner, 0, points, dropped=True)
        if action == BEAVER:
            cube.beaver(player)
            self._say("%s beavers => %d" % (colour(player), cube.offered_value))
        elif action == RACCOON:
            cube.raccoon(player)
            self._say("%s raccoons => %d" % (colour(player), cube.offered_value))
        else:
            raise CubeError("unknown cube action %r" % (action,))
        self._write("cube", player, action)
        return None

    def double(self, player=None):
        return self.cube_action(OFFER, player)

    def take(self, player=None):
        return self.cube_action(TAKE, player)

    def drop(self, player=None):
        return self.cube_action(DROP, player)

    def beaver(self, player=None):
        return self.cube_action(BEAVER, player)

    def raccoon(self, player=None):
        return self.cube_action(RACCOON, player)

    # -- resignation ---------------------------------------------------------------
    def resign(self, player, kind):
        """``player`` resigns a single, gammon or backgammon (kind 1-3).

        RULES.md leaves resignations out of the rules; the record keeps them
        because gnubg's matches contain them.
        """
        self._need(CUBE_OR_ROLL, PLAY, ANSWER)
        if player not in (0, 1):
            raise MatchError("player must be 0 or 1")
        if not SINGLE <= kind <= BACKGAMMON:
            raise MatchError("a resignation is of a single, gammon or backgammon (1-3), not %r" % (kind,))
        if self.phase == ANSWER:
            self.cube._clear()
        rolled = self.dice if self.phase == PLAY else None
        self._write("resign", player, kind)
        self._say("%s resigns a %s" % (colour(player), self.kind_name(kind)))
        result = self._end(1 - player, kind, self.cube.points(kind), resigned=True)
        result.dice = rolled
        return result

    # -- the clock -------------------------------------------------------------------
    def lose_on_time(self, player):
        """``player``'s reserve ran out (``pipcore.gameclock``): the match is lost (money play: the game),
        for the points ``gameclock.time_points`` gives."""
        self._need(CUBE_OR_ROLL, PLAY, ANSWER)
        from pipcore.gameclock import time_points

        points = time_points(self, 1 - player)  # (raises MatchError for a player who does not exist)
        if self.phase == ANSWER:
            self.cube._clear()  # the offer dies with the game
        self._write("timeout", player)
        self._say("%s loses on time" % colour(player))
        return self._end(1 - player, TIME, points)

    # -- end of game -----------------------------------------------------------------
    def _end(self, winner, kind, points, resigned=False, dropped=False):
        result = GameResult(winner, kind, points, resigned, dropped)
        self.result = result
        self.results.append(result)
        if self.keep_results and len(self.results) > self.keep_results:
            self.results.pop(0)
        self.dice = None
        self.match.add_result(winner, points)
        self._write("end", winner, kind, points)
        self._say("%s wins %d point%s (%s)" % (colour(winner), points, "" if points == 1 else "s",
                                               self.kind_name(kind)))
        self.phase = MATCH_ENDED if self.match.is_over() else GAME_ENDED
        return result

    # -- a position from outside ---------------------------------------------------
    def load(self, position, turn, dice=None, state=None):
        """Continue from ``position`` (seen from ``turn``), as a host sets it up (``pipcore.matchload``:
        loaded only when a host does). Raises MatchError for a finished game or match."""
        from pipcore.matchload import load

        load(self, position, turn, dice, state)

    # -- queries ---------------------------------------------------------------------
    def game_over(self):
        return self.phase in (GAME_ENDED, MATCH_ENDED)

    def match_state(self):
        """This moment as a ``pipcore.matchid.MatchState`` (for the Match ID: loaded only when asked)."""
        from pipcore.matchid import referee_state

        return referee_state(self)

    def match_id(self):
        return self.match_state().encode()

    def position_id(self):
        return self.position.position_id()

    # -- persistence ---------------------------------------------------------------------
    def snapshot(self):
        """Everything needed to resume this referee, as JSON-ready data (options and writer not included)."""
        c = self.cube
        m = self.match
        r = self.result
        return {
            "v": SNAPSHOT_VERSION,
            "phase": self.phase,
            "game": self.game_number,
            "move": self.move_number,
            "turn": self.turn,
            "pos": self.position.position_id() if self.position is not None else None,
            "dice": list(self.dice) if self.dice else None,
            "ties": self.opening_ties,
            "played": list(self.played),
            "od": self.opening_dice,
            "dropper": self._dropper,
            "match": [m.length, m.score[0], m.score[1], m.games, m.crawford_game, m.crawford_done],
            "cube": None if c is None else [c.value, c.owner, c.state, c.doubler, c.stake, c.offered_value,
                                            c.player_doubled, c.auto_doubles, c.turn, c.rolled,
                                            c.offered_this_turn, c.crawford_game],
            "result": r.fields() if r is not None else None,
            "results": [x.fields() for x in self.results],
            "log": list(self.log) if self.log is not None else None,
            "logn": self.log_count,
        }

    @classmethod
    def restore(cls, snap, options, players=("Player 1", "Player 2"), writer=None, variant="backgammon",
                keep_results=0, log_lines=0):
        """A referee resumed from ``snapshot()`` data; ``writer`` continues the record (no header written).

        Raises MatchError when the data is unusable.
        """
        try:
            if snap["v"] != SNAPSHOT_VERSION:
                raise MatchError("referee state version %r, expected %d" % (snap["v"], SNAPSHOT_VERSION))
            log = snap["log"]
            ref = cls(options, players, None, variant, list(log) if log is not None else None, keep_results,
                      log_lines)
            ref.log_count = snap.get("logn", len(log) if log is not None else 0)
            ref.writer = writer
            ref.phase = snap["phase"]
            ref.game_number = snap["game"]
            ref.move_number = snap["move"]
            ref.turn = snap["turn"]
            pid = snap["pos"]
            if pid is not None:
                from pipcore.variants import decode_position
                ref.position = decode_position(pid, variant)
            ref.dice = tuple(snap["dice"]) if snap["dice"] else None
            ref.opening_ties = snap["ties"]
            ref.played = list(snap["played"])
            ref.opening_dice = bool(snap.get("od"))
            ref._dropper = snap["dropper"]
            length, s0, s1, games, cg, cd = snap["match"]
            m = Match(length, options["crawford"])
            m.score = [s0, s1]
            m.games = games
            m.crawford_game = cg
            m.crawford_done = cd
            ref.match = m
            cs = snap["cube"]
            if cs is not None:
                c = Cube(options, crawford_game=cs[11])
                (c.value, c.owner, c.state, c.doubler, c.stake, c.offered_value, c.player_doubled, c.auto_doubles,
                 c.turn, c.rolled, c.offered_this_turn) = cs[:11]
                ref.cube = c
            r = snap["result"]
            ref.result = GameResult(*r) if r else None
            ref.results = [GameResult(*x) for x in snap["results"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise MatchError("saved match is unusable: %r" % (exc,))
        if ref.phase not in (OPENING, CUBE_OR_ROLL, ANSWER, PLAY, GAME_ENDED, MATCH_ENDED, NO_GAME):
            raise MatchError("saved match has an unknown phase %r" % (ref.phase,))
        if ref.phase == PLAY and not ref.dice or ref.phase != NO_GAME and (ref.position is None or ref.cube is None):
            raise MatchError("saved match is incomplete")
        return ref
