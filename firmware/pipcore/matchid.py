"""The GNU Backgammon Match ID: ``MatchState``, its exact encoding and its validation.

``MatchState`` holds the fields of a Match ID (cube, turn, dice, score,
Crawford, game state); ``encode`` and ``decode`` are exact, and
``validate`` (kept apart from decoding) rejects impossible states. Errors
are ``MatchIdError`` (a ValueError). ``cube_of`` and ``state_after`` answer
cube questions about a state without a whole match (``pipboard rules``).
"""

from pipcore.compat import const
from pipcore.cube import BEAVERED, CENTRE, IDLE, OFFERED, RACCOONED, Cube, CubeError
from pipcore.position import _B64_CODES, _B64_VALUES  # (the same alphabet as the Position ID)


# gnubg game states (bits 8-10 of the Match ID)
GAME_NONE = const(0)
GAME_PLAYING = const(1)
GAME_OVER = const(2)
GAME_RESIGNED = const(3)
GAME_DROPPED = const(4)

MAX_SCORE = const(0x7FFF)

class MatchIdError(ValueError):
    """A Match ID that is malformed or describes an impossible state."""


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
        out = bytearray(12)  # codes, not _B64[i]: MicroPython interns each 1-character string for good
        j = 0
        for i in range(0, 9, 3):
            a, b, c = key[i], key[i + 1], key[i + 2]
            out[j] = _B64_CODES[a >> 2]
            out[j + 1] = _B64_CODES[((a & 3) << 4) | (b >> 4)]
            out[j + 2] = _B64_CODES[((b & 15) << 2) | (c >> 6)]
            out[j + 3] = _B64_CODES[c & 63]
            j += 4
        return str(out, "ascii")

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
        vals = bytearray(12)
        raw = text.encode()  # bytes, not characters: MicroPython interns each 1-character string for good
        for i in range(12):
            b = raw[i]
            x = _B64_VALUES[b] if b < 128 else 64
            if x == 64:
                raise MatchIdError("character %r is not allowed in a Match ID" % text[i])
            vals[i] = x
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


def referee_state(ref):
    """``ref``'s moment as a ``pipcore.matchid.MatchState``."""
    state = _referee_state(ref)
    state.jacoby = bool(ref.options["jacoby"]) and not ref.match.length
    return state


def _referee_state(ref):
    from pipcore.match import ANSWER, NO_GAME, OPENING, PLAY, TIME

    cube = ref.cube
    if ref.phase == NO_GAME or cube is None:
        return MatchState(game_state=GAME_NONE, length=ref.match.length, score=ref.match.score,
                          crawford=ref.match.crawford_game)
    if ref.phase == OPENING:
        return MatchState(cube_value=cube.value, game_state=GAME_NONE, length=ref.match.length,
                          score=ref.match.score, crawford=cube.crawford_game)
    if ref.game_over():
        # as gnubg: the score already includes the finished game
        r = ref.result
        if r.dropped:
            gs, turn, resigned = GAME_DROPPED, ref._dropper, 0
        elif r.resigned:
            gs, turn, resigned = GAME_RESIGNED, ref.turn, r.kind
        elif r.kind == TIME:  # as gnubg reads the game from a .mat file: a resignation
            kind = r.points // cube.value
            gs, turn, resigned = GAME_RESIGNED, ref.turn, 1 if kind < 1 else (3 if kind > 3 else kind)
        else:
            gs, turn, resigned = GAME_OVER, ref.turn, 0
        return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=ref.turn,
                          crawford=cube.crawford_game, game_state=gs, turn=turn, resigned=resigned,
                          dice=r.dice or (0, 0), length=ref.match.length, score=ref.match.score)
    doubled = ref.phase == ANSWER
    turn = cube.responder() if doubled else ref.turn
    dice = ref.dice if ref.phase == PLAY else (0, 0)
    return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=ref.turn,
                      crawford=cube.crawford_game, game_state=GAME_PLAYING, turn=turn, doubled=doubled,
                      dice=dice, length=ref.match.length, score=ref.match.score)
