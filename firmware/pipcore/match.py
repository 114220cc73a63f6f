"""Match play (RULES.md 2.7), the gnubg Match ID, and the referee of a match.

* ``Match``: the score of a match to N points (or a money session), the
  Crawford game, post-Crawford play and the match winner.
* ``MatchState``: the fields of a GNU Backgammon Match ID; ``encode`` and
  ``decode`` are exact, and ``validate`` (kept apart from decoding) rejects
  impossible states. Errors are ``MatchIdError`` (a ValueError).
* ``Referee``: one whole match step by step (opening rolls, cube actions,
  rolls, plays, resignations, results) checked against the rules. It writes
  every accepted action to an optional record writer (``pipcore.record``).
"""

from pipcore.compat import const
from pipcore.cube import BEAVER, BEAVERED, CENTRE, DROP, IDLE, OFFER, OFFERED, RACCOON, RACCOONED, TAKE, Cube, CubeError
from pipcore.position import Position
from pipcore.rules import BACKGAMMON, SINGLE, Turn, apply_move, check_dice, check_play, single_move_error, winner_of

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

# gnubg game states (bits 8-10 of the Match ID)
GAME_NONE = const(0)
GAME_PLAYING = const(1)
GAME_OVER = const(2)
GAME_RESIGNED = const(3)
GAME_DROPPED = const(4)

MAX_SCORE = const(0x7FFF)


class MatchError(ValueError):
    """An action that does not fit the state of the match (wrong phase or player)."""


class MatchIdError(ValueError):
    """A Match ID that is malformed or describes an impossible state."""


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
# Match ID
# ---------------------------------------------------------------------------
def _set_bits(key, pos, nbits, value):
    for i in range(nbits):
        if value >> i & 1:
            key[(pos + i) >> 3] |= 1 << ((pos + i) & 7)


def _get_bits(key, pos, nbits):
    v = 0
    for i in range(nbits):
        if key[(pos + i) >> 3] >> ((pos + i) & 7) & 1:
            v |= 1 << i
    return v


class MatchState:
    """The fields of a gnubg Match ID.

    ``cube_owner`` is 0, 1 or ``CENTRE``; ``on_roll`` is gnubg's fMove (the
    player whose turn it is), ``turn`` its fTurn (who must act now: the
    responder while a double is pending); ``dice`` is ``(0, 0)`` before the roll;
    ``jacoby`` is whether the Jacoby rule is in use (bit 66, stored inverted,
    so every match-play ID gnubg writes has it set).
    """

    def __init__(self, cube_value=1, cube_owner=CENTRE, on_roll=0, crawford=False, game_state=GAME_PLAYING,
                 turn=None, doubled=False, resigned=0, dice=(0, 0), length=0, score=(0, 0), jacoby=False):
        self.cube_value = cube_value
        self.cube_owner = cube_owner
        self.on_roll = on_roll
        self.crawford = crawford
        self.game_state = game_state
        self.turn = on_roll if turn is None else turn
        self.doubled = doubled
        self.resigned = resigned
        self.dice = (dice[0], dice[1])
        self.length = length
        self.score = (score[0], score[1])
        self.jacoby = jacoby

    def _fields(self):
        return (bool(self.jacoby), self.cube_value, self.cube_owner, self.on_roll, bool(self.crawford),
                self.game_state, self.turn, bool(self.doubled), self.resigned, self.dice, self.length, self.score)

    def __eq__(self, other):
        return isinstance(other, MatchState) and self._fields() == other._fields()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "MatchState.decode(%r)" % self.encode()

    def validate(self):
        """Raise MatchIdError unless the state is possible."""
        v = self.cube_value
        if v < 1 or v > 1 << 15 or v & (v - 1):
            raise MatchIdError("cube value %r is not a power of two from 1 to 32768" % (v,))
        if self.cube_owner not in (0, 1, CENTRE):
            raise MatchIdError("cube owner must be player 0, player 1 or the centre")
        if self.cube_owner == CENTRE and v > 1 and self.length:
            raise MatchIdError("in match play a cube above 1 has an owner (centred at %d)" % v)
        for name, x in (("player on roll", self.on_roll), ("player to act", self.turn)):
            if x not in (0, 1):
                raise MatchIdError("%s must be 0 or 1, not %r" % (name, x))
        if not 0 <= self.game_state <= GAME_DROPPED:
            raise MatchIdError("game state %d is not one of 0..4" % self.game_state)
        if not 0 <= self.resigned <= 3:
            raise MatchIdError("resignation value %d is not 0..3" % self.resigned)
        d0, d1 = self.dice
        if not (0 <= d0 <= 6 and 0 <= d1 <= 6):
            raise MatchIdError("dice %d-%d are outside 1..6" % (d0, d1))
        if (d0 == 0) != (d1 == 0):
            raise MatchIdError("only one die is set (%d-%d)" % (d0, d1))
        if self.doubled:
            if d0:
                raise MatchIdError("a double is pending but the dice are already rolled")
            if self.turn == self.on_roll and (self.length or self.cube_owner != 1 - self.on_roll):
                # (only after a beaver does the doubler answer: money play, the beaverer owns the cube)
                raise MatchIdError("a double is pending but the doubler is to act")
            if self.resigned:
                raise MatchIdError("a double and a resignation cannot both be pending")
        elif self.turn != self.on_roll and self.game_state == GAME_PLAYING and not self.resigned:
            raise MatchIdError("the player to act differs from the player on roll with nothing pending")
        if self.game_state == GAME_NONE and (d0 or self.doubled or self.resigned):
            raise MatchIdError("no game is in progress, yet dice, a double or a resignation are set")
        n = self.length
        if not 0 <= n <= MAX_SCORE:
            raise MatchIdError("match length %d out of range" % n)
        s0, s1 = self.score
        if s0 < 0 or s1 < 0 or s0 > MAX_SCORE or s1 > MAX_SCORE:
            raise MatchIdError("score %d-%d out of range" % (s0, s1))
        if n:
            if s0 >= n and s1 >= n:
                raise MatchIdError("both players have reached %d points in a %d-point match" % (n, n))
            if (s0 >= n or s1 >= n) and self.game_state == GAME_PLAYING:
                raise MatchIdError("the match is over at %d-%d, yet a game is being played" % (s0, s1))
            if self.crawford and not ((s0 == n - 1) != (s1 == n - 1)):
                raise MatchIdError("a Crawford game needs exactly one player 1-away (score %d-%d of %d)" % (s0, s1, n))
            if self.crawford and (self.doubled or v > 1):
                raise MatchIdError("the cube cannot have been turned in the Crawford game")
        elif self.crawford:
            raise MatchIdError("there is no Crawford game in money play")
        return self

    def encode(self):
        """The 12-character Match ID."""
        v = self.cube_value
        log = 0
        while (1 << log) < v:
            log += 1
        if (1 << log) != v or log > 15:
            raise MatchIdError("cube value %r cannot be written in a Match ID (powers of two only)" % (v,))
        key = bytearray(9)
        _set_bits(key, 0, 4, log)
        _set_bits(key, 4, 2, 3 if self.cube_owner == CENTRE else self.cube_owner)
        _set_bits(key, 6, 1, self.on_roll)
        _set_bits(key, 7, 1, 1 if self.crawford else 0)
        _set_bits(key, 8, 3, self.game_state)
        _set_bits(key, 11, 1, self.turn)
        _set_bits(key, 12, 1, 1 if self.doubled else 0)
        _set_bits(key, 13, 2, self.resigned)
        _set_bits(key, 15, 3, self.dice[0])
        _set_bits(key, 18, 3, self.dice[1])
        _set_bits(key, 21, 15, self.length)
        _set_bits(key, 36, 15, self.score[0])
        _set_bits(key, 51, 15, self.score[1])
        _set_bits(key, 66, 1, 0 if self.jacoby else 1)
        out = []
        for i in range(0, 9, 3):
            a, b, c = key[i], key[i + 1], key[i + 2]
            out.append(_B64[a >> 2])
            out.append(_B64[((a & 3) << 4) | (b >> 4)])
            out.append(_B64[((b & 15) << 2) | (c >> 6)])
            out.append(_B64[c & 63])
        return "".join(out)

    @classmethod
    def from_id(cls, match_id):
        """Decode and validate (as ``Position.from_id``)."""
        return cls.decode(match_id)

    @classmethod
    def decode(cls, match_id, validate=True):
        """Decode a Match ID; validated unless ``validate`` is False."""
        if not isinstance(match_id, str):
            raise MatchIdError("a Match ID is a string of 12 characters")
        text = match_id.strip()
        if len(text) != 12:
            raise MatchIdError("a Match ID has 12 characters, not %d: %r" % (len(text), match_id))
        vals = []
        for ch in text:
            x = _B64.find(ch)
            if x < 0:
                raise MatchIdError("character %r is not allowed in a Match ID" % ch)
            vals.append(x)
        key = bytearray(9)
        for i in range(3):
            a, b, c, d = vals[4 * i:4 * i + 4]
            key[3 * i] = ((a << 2) | (b >> 4)) & 255
            key[3 * i + 1] = ((b << 4) | (c >> 2)) & 255
            key[3 * i + 2] = ((c << 6) | d) & 255
        if _get_bits(key, 67, 5):
            raise MatchIdError("Match ID %r has stray bits after the scores" % text)
        owner = _get_bits(key, 4, 2)
        if owner == 2:
            raise MatchIdError("Match ID %r has an impossible cube owner" % text)
        state = cls(cube_value=1 << _get_bits(key, 0, 4),
                    cube_owner=CENTRE if owner == 3 else owner,
                    on_roll=_get_bits(key, 6, 1),
                    crawford=bool(_get_bits(key, 7, 1)),
                    game_state=_get_bits(key, 8, 3),
                    turn=_get_bits(key, 11, 1),
                    doubled=bool(_get_bits(key, 12, 1)),
                    resigned=_get_bits(key, 13, 2),
                    dice=(_get_bits(key, 15, 3), _get_bits(key, 18, 3)),
                    length=_get_bits(key, 21, 15),
                    score=(_get_bits(key, 36, 15), _get_bits(key, 51, 15)),
                    jacoby=not _get_bits(key, 66, 1))
        if validate:
            try:
                state.validate()
            except MatchIdError as exc:
                raise MatchIdError("Match ID %r: %s" % (text, exc))
        return state


def cube_of(state, options):
    """A Cube in the state a MatchState describes (for questions such as "may he double?").

    ``options`` are the game's options; a pending double (gnubg's fDoubled)
    is a plain offer, a beaver (the doubler answers) or a raccoon (the cube
    already belongs to the player who answers).
    """
    cube = Cube(options, crawford_game=state.crawford)
    cube.value = state.cube_value
    cube.owner = state.cube_owner
    if state.game_state != GAME_PLAYING:
        return cube
    cube.start_turn(state.on_roll)
    if state.dice[0]:
        cube.rolled = True
    if state.doubled:
        cube.doubler = state.on_roll
        cube.offered_this_turn = True
        cube.player_doubled = True
        if state.turn == state.on_roll:
            cube.state = BEAVERED
        elif state.cube_owner == state.turn:
            cube.state = RACCOONED
        else:
            cube.state = OFFERED
        cube.stake = cube.value
        cube.offered_value = cube.value * 2 if cube.state != OFFERED else cube.next_value(cube.value)
    return cube


def state_after(state, cube, action, player=None):
    """Apply a cube action (OFFER..RACCOON) to ``cube`` (from ``cube_of(state)``).

    Returns ``(new_state, drop_result)``; ``drop_result`` is ``(winner,
    points)`` when the action was a drop, else None. Raises CubeError.
    """
    if state.game_state != GAME_PLAYING:
        raise CubeError("no game is being played")
    if player is None:
        player = state.turn
    result = cube.act(action, player)
    new = MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=state.on_roll, crawford=state.crawford,
                     game_state=GAME_PLAYING, turn=state.on_roll, doubled=False, dice=state.dice,
                     length=state.length, score=state.score, jacoby=state.jacoby)
    if result is not None:
        winner, points = result
        score = list(state.score)
        score[winner] += points
        new.score = (score[0], score[1])
        new.game_state = GAME_DROPPED
        new.turn = player
    elif cube.state != IDLE:
        new.doubled = True
        new.turn = cube.responder()
    return new, result


def decode_match_id(match_id):
    """Decode and validate a Match ID into a MatchState (raises MatchIdError)."""
    return MatchState.decode(match_id)


def encode_match_id(state):
    return state.encode()


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


class GameResult:
    """How one game ended: winner, kind (1-3, 0 for a dropped double), points."""

    def __init__(self, winner, kind, points, resigned=False, dropped=False):
        self.winner = winner
        self.kind = kind
        self.points = points
        self.resigned = resigned
        self.dropped = dropped

    def __repr__(self):
        how = "drop" if self.dropped else ("resign" if self.resigned else "play")
        return "<GameResult player %d wins %d (kind %d, %s)>" % (self.winner, self.points, self.kind, how)


class Referee:
    """One match or money session, step by step.

    ``position`` is always seen from ``turn`` (the player on turn). Every
    method raises a ValueError subclass (MatchError, CubeError,
    IllegalPlayError, DiceError) and changes nothing if the action is not
    allowed. ``writer`` (optional) gets each accepted action.
    """

    def __init__(self, options, players=("Player 1", "Player 2"), writer=None):
        self.options = options
        self.players = (players[0], players[1])
        self.writer = writer
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
            raise MatchError("it is player %d's %s, not player %d's" % (expected, what, player))

    def _write(self, method, *args):
        if self.writer is not None:
            getattr(self.writer, method)(*args)

    # -- games -----------------------------------------------------------------
    def new_game(self):
        """Start the next game (the first, or after a game ended)."""
        self._need(NO_GAME, GAME_ENDED)
        self.game_number += 1
        self.move_number = 0
        self.position = Position.start()
        self.cube = Cube(self.options, crawford_game=self.match.crawford_game)
        self.dice = None
        self.result = None
        self.opening_ties = 0
        self.phase = OPENING
        self._write("new_game")

    def opening_roll(self, die0, die1):
        """Each player rolls one die (1.5); returns the starter or None on a tie."""
        self._need(OPENING)
        check_dice((die0, die1))
        self._write("opening", die0, die1)
        if die0 == die1:
            self.opening_ties += 1
            self.cube.auto_double()
            return None
        starter = 0 if die0 > die1 else 1
        self.turn = starter
        self.move_number = 1
        self.cube.start_turn(starter)
        if self.options["openingReroll"]:
            self.phase = CUBE_OR_ROLL
        else:
            self.cube.note_roll()
            self.dice = check_dice((die0, die1))
            self.phase = PLAY
        return starter

    def roll(self, dice, player=None):
        """The player on turn rolls ``dice``."""
        self._need(CUBE_OR_ROLL)
        self._check_player(player, self.turn, "roll")
        self.dice = check_dice(dice)
        self.cube.note_roll()
        self.phase = PLAY
        self._write("roll", self.turn, dice[0], dice[1])

    def legal_turn(self):
        """The ``rules.Turn`` of the current roll."""
        self._need(PLAY)
        return Turn(self.position, self.dice)

    def play(self, moves, player=None):
        """Play ``moves`` (segments as notation.parse_play gives) with the dice.

        Returns the GameResult if the play ends the game, else None.
        """
        self._need(PLAY)
        self._check_player(player, self.turn, "play")
        code, result = check_play(self.position, self.dice, moves)
        turn = Turn(self.position, self.dice)
        return self._finish_play(turn, code, result, _single_steps(self.position, moves, self.dice, turn.dice_used))

    def play_code(self, turn, code):
        """Play a code of ``turn`` (a ``legal_turn()``) directly."""
        self._need(PLAY)
        return self._finish_play(turn, code, turn.result(code))

    def _finish_play(self, turn, code, result, singles=None):
        if singles is None:  # the generator's own order of single moves
            singles = [(s, t) for s, t, _ in turn.moves(code)] if turn.dice_used else []
        self._write("play", self.turn, singles)
        self.position = result
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
    def cube_action(self, action, player=None):
        """Apply a cube action code (cube.OFFER, TAKE, DROP, BEAVER, RACCOON).

        ``player`` defaults to whoever may act. Returns the GameResult of a
        drop, else None.
        """
        if action == OFFER:
            if player is None:
                player = self.turn
            if self.phase in (PLAY, ANSWER):
                self.cube.offer(player)  # raises with the reason (rolled, or an offer pending)
            self._need(CUBE_OR_ROLL)
            self.cube.offer(player)
            self.phase = ANSWER
            self._write("cube", player, action)
            return None
        self._need(ANSWER)
        if player is None:
            player = self.cube.responder()
        if action == TAKE:
            self.cube.take(player)
            self.phase = CUBE_OR_ROLL  # the doubler now rolls (no second offer: D5)
            self._write("cube", player, action)
            return None
        if action == DROP:
            self._dropper = self.cube.responder()
            winner, points = self.cube.drop(player)
            self._write("cube", player, action)
            return self._end(winner, 0, points, dropped=True)
        if action == BEAVER:
            self.cube.beaver(player)
        elif action == RACCOON:
            self.cube.raccoon(player)
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
        self._write("resign", player, kind)
        return self._end(1 - player, kind, self.cube.points(kind), resigned=True)

    # -- end of game -----------------------------------------------------------------
    def _end(self, winner, kind, points, resigned=False, dropped=False):
        result = GameResult(winner, kind, points, resigned, dropped)
        self.result = result
        self.results.append(result)
        self.dice = None
        self.match.add_result(winner, points)
        self._write("end", winner, kind, points)
        self.phase = MATCH_ENDED if self.match.is_over() else GAME_ENDED
        return result

    # -- queries ---------------------------------------------------------------------
    def game_over(self):
        return self.phase in (GAME_ENDED, MATCH_ENDED)

    def match_state(self):
        """This moment as a MatchState (for the Match ID)."""
        state = self._match_state()
        state.jacoby = bool(self.options["jacoby"]) and not self.match.length
        return state

    def _match_state(self):
        cube = self.cube
        if self.phase == NO_GAME or cube is None:
            return MatchState(game_state=GAME_NONE, length=self.match.length, score=self.match.score,
                              crawford=self.match.crawford_game)
        if self.game_over():
            # as gnubg: the score already includes the finished game
            r = self.result
            if r.dropped:
                gs, turn, resigned = GAME_DROPPED, self._dropper, 0
            elif r.resigned:
                gs, turn, resigned = GAME_RESIGNED, self.turn, r.kind
            else:
                gs, turn, resigned = GAME_OVER, self.turn, 0
            return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=self.turn,
                              crawford=cube.crawford_game, game_state=gs, turn=turn, resigned=resigned,
                              length=self.match.length, score=self.match.score)
        doubled = self.phase == ANSWER
        turn = cube.responder() if doubled else self.turn
        dice = self.dice if self.phase == PLAY else (0, 0)
        return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=self.turn,
                          crawford=cube.crawford_game, game_state=GAME_PLAYING, turn=turn, doubled=doubled,
                          dice=dice, length=self.match.length, score=self.match.score)

    def match_id(self):
        return self.match_state().encode()

    def position_id(self):
        return self.position.position_id()


def _single_steps(position, moves, dice, dice_used):
    """``moves`` as ``[(from, to)]`` if each is one die's move, playable in that order; else None.

    The record keeps a play as the player made it when it was made one die
    at a time (as the board senses it and as .mat files list it).
    """
    if len(moves) != dice_used:
        return None
    left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    pos = position.copy()
    out = []
    for seg in moves:
        s, t = seg[0], seg[1]
        span = s - t
        if t == 0:
            fits = [d for d in left if d >= span]
            die = span if span in fits else (min(fits) if fits else 0)
        else:
            die = span if span in left else 0
        if not die or single_move_error(pos, s, die) is not None:
            return None
        apply_move(pos, s, t)
        left.remove(die)
        out.append((s, t))
    return out
