"""The GNU Backgammon Match ID: ``MatchState``, its exact encoding and its validation.

``MatchState`` holds the fields of a Match ID (cube, turn, dice, score,
Crawford, game state); ``encode`` and ``decode`` are exact, and
``validate`` (kept apart from decoding) rejects impossible states. Errors
are ``MatchIdError`` (a ValueError). Decoding, validation and the cube
questions about a state (``cube_of``, ``state_after``: ``pipboard rules``)
are in ``pipcore.matchdecode``, loaded when one is asked for: the board
writes a Match ID for every snapshot but seldom reads one.
"""

from pipcore.compat import const
from pipcore.cube import CENTRE
from pipcore.position import B64_CODES  # (the same alphabet as the Position ID)


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
        """Raise MatchIdError unless the state is possible (``pipcore.matchdecode``, loaded when asked)."""
        from pipcore.matchdecode import validate

        return validate(self)

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
            out[j] = B64_CODES[a >> 2]
            out[j + 1] = B64_CODES[((a & 3) << 4) | (b >> 4)]
            out[j + 2] = B64_CODES[((b & 15) << 2) | (c >> 6)]
            out[j + 3] = B64_CODES[c & 63]
            j += 4
        return str(out, "ascii")

    @classmethod
    def from_id(cls, match_id):
        """Decode and validate (as ``Position.from_id``)."""
        return cls.decode(match_id)

    @classmethod
    def decode(cls, match_id, validate=True):
        """Decode a Match ID; validated unless ``validate`` is False (``pipcore.matchdecode``)."""
        from pipcore.matchdecode import decode

        return decode(match_id, validate)


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
