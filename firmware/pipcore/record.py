"""The game record: an append-only log of a match, safe against power cuts.

A record is a sequence of *entries*, each framed as::

    length (1 byte) | body (length bytes; body[0] is the entry type) | CRC-16 (2 bytes, big-endian)

The CRC (CCITT, init 0xFFFF) covers the length byte and the body. The writer
appends one frame per action as the game goes (``RecordWriter`` is the
``writer`` of a ``pipcore.match.Referee``). The reader (``read_record``)
stops at the end of the data or at erased flash (all 0xFF or 0x00), and
drops a damaged *last* entry (a write cut short by a power cut: reported as
``torn``). A damaged entry followed by more data is corruption and raises
RecordError naming the entry: the record is never misread.

Entry types and bodies (players are 0 and 1):

    H  b"PIPREC" version variant      start of the record
    N  player name(utf-8)             a player's name
    O  "name=value"                   an option (RULES.md 0.4 name): matchLength and
                                      every option that differs from its default
    T  more text(utf-8)               a line of the match's header as an imported file
                                      gave it (gnubg's "; [Event ...]", comments, blank
                                      lines), kept so export writes it back byte for byte;
                                      more=1 continues the line before (lines longer
                                      than one entry)
    G  -                              a game starts
    I  die0 die1                      one opening roll (ties give several)
    R  player d1 d2                   a roll
    M  player (from to)*              a play, single moves in the order played
    C  player action                  a cube action (pipcore.cube OFFER..RACCOON)
    S  player kind                    a resignation (1 single, 2 gammon, 3 backgammon)
    L  player                         the player's clock ran out (pipcore.gameclock)
    E  winner kind points(2 bytes)    the result of a game (kind 0: double dropped; 4: on time)
    U  player                         the roll before it is taken back before anything
                                      was played (physical dice keyed in wrong); the
                                      corrected roll follows
    F  kind text(ascii hex)           a provably fair match's dice (``pipcore.fairmatch``):
                                      kind 0 the commitment, before the first roll;
                                      kind 1 the seed, revealed after the match

Versions: 1 has no T entries; a record with header lines is written as
version 2, one of a match started with fair or keyed-in dice (F and U
entries) as version 3 (so an older reader refuses it by its version, not by
an unknown entry; a match whose dice were switched to keyed-in ones later
may hold U entries in a version 1 record: an older reader refuses them by
their type). This reader reads all three.

Nothing here opens files: the caller passes bytes, or a stream to write to.
"""

from pipcore.cube import ACTION_NAMES
from pipcore.match import Referee
from pipcore.options import ConfigError, make_options
from pipcore.recwriter import (_TEXT_CHUNK, MAGIC, VERSION, VERSION_HEADER_LINES, VERSION_TABLE_DICE,  # noqa: F401
                               RecordError, RecordWriter, _option_text, _text_chunks, crc16, frame)

ENTRY_NAMES = {
    ord("H"): "header", ord("N"): "player name", ord("O"): "option", ord("G"): "game start",
    ord("I"): "opening roll", ord("R"): "roll", ord("M"): "play", ord("C"): "cube action",
    ord("S"): "resignation", ord("E"): "game result", ord("T"): "header line", ord("L"): "loss on time",
    ord("U"): "roll taken back", ord("F"): "fair dice",
}


def _option_value(text):
    if text == "on":
        return True
    if text == "off":
        return False
    if text and (text[0] == "-" and text[1:].isdigit() or text.isdigit()):
        return int(text)
    return text


class Record:
    """A decoded record: players, options and the entries of every game.

    ``entries`` lists tuples such as ``("roll", player, d1, d2)``;
    ``offsets`` the byte offset of each; ``torn`` is True when a damaged
    last entry was dropped, ``length`` the bytes read up to the last good entry;
    ``header_lines`` the header of an imported file (T entries), ``version``
    the record version; ``fair`` the commitment and the seed of a provably
    fair match (F entries: ``{"commitment": hex, "seed": hex or None}``), or None.
    """

    def __init__(self):
        self.variant = "backgammon"
        self.version = VERSION
        self.header_lines = []
        self.players = ["Player 1", "Player 2"]
        self.options = None
        self.entries = []
        self.offsets = []
        self.torn = False
        self.length = 0
        self.fair = None

    def games(self):
        """Entries split per game: a list of lists (the header is left out)."""
        out = []
        for entry in self.entries:
            if entry[0] == "game":
                out.append([])
            elif out:
                out[-1].append(entry)
        return out


def _filler(data, start):
    """True when data[start:] is empty or erased flash (all 0xFF or all 0x00)."""
    n = len(data)
    if start >= n:
        return True
    b = data[start]
    if b != 0xFF and b != 0:
        return False
    for i in range(start, n):
        if data[i] != b:
            return False
    return True


def _header_start(data):
    """True when data starts like a record: a header frame with the magic (as far as it goes)."""
    start = data[1:8]
    return len(data) >= 2 and (b"H" + MAGIC)[:len(start)] == start


def _entry_label(index, offset):
    return "entry %d (byte %d)" % (index + 1, offset)


def read_record(data):
    """Decode ``data`` (bytes) into a Record; raises RecordError.

    Frames are checked, not the rules: ``replay`` does that.
    """
    data = bytes(data)
    rec = Record()
    n = len(data)
    pos = 0
    index = 0
    opts = {}
    while pos < n and not _filler(data, pos):
        size = data[pos]
        end = pos + 1 + size + 2
        good = size > 0 and end <= n and crc16(data[pos:pos + 1 + size]) == (data[end - 2] << 8 | data[end - 1])
        if not good:
            if index == 0 and not _header_start(data):
                raise RecordError("not a Pipboard record")
            if end > n or size == 0 or _filler(data, end):
                rec.torn = True  # a write cut short: drop it
                break
            raise RecordError("%s is corrupt (CRC mismatch) and more entries follow it" % _entry_label(index, pos))
        body = data[pos + 1:pos + 1 + size]
        if index == 0 and body[0] != ord("H"):
            raise RecordError("not a Pipboard record (the first entry is not a header)")
        entry = _decode_body(body, index, pos)
        if entry[0] == "header":
            if index:
                raise RecordError("%s: a second header inside the record" % _entry_label(index, pos))
            rec.variant = entry[1]
            rec.version = entry[2]
        elif entry[0] == "header line":
            if rec.entries:
                raise RecordError("%s: a header line after the first game started" % _entry_label(index, pos))
            if entry[1] and rec.header_lines:
                rec.header_lines[-1] += entry[2]
            else:
                rec.header_lines.append(entry[2])
        elif entry[0] == "name":
            rec.players[entry[1]] = entry[2]
        elif entry[0] == "option":
            opts[entry[1]] = entry[2]
        elif entry[0] == "fair":
            if rec.fair is None:
                rec.fair = {"commitment": None, "seed": None}
            rec.fair["seed" if entry[1] else "commitment"] = entry[2]
        else:
            if rec.options is None:
                rec.options = _make_options(opts, rec.variant, index, pos)
            rec.entries.append(entry)
            rec.offsets.append(pos)
        pos = end
        index += 1
    if index == 0:
        if n == 0 or _filler(data, 0):
            raise RecordError("the record is empty")
        if not _header_start(data):
            raise RecordError("not a Pipboard record")
        raise RecordError("the record is empty (its header was cut short)")
    if rec.options is None:
        rec.options = _make_options(opts, rec.variant, index, pos)
    rec.length = pos
    return rec


def _make_options(opts, variant, index, pos):
    try:
        return make_options(opts, variant)
    except ConfigError as exc:
        raise RecordError("the record's options are invalid: %s" % exc)


def _decode_body(body, index, pos):
    kind = body[0]
    name = ENTRY_NAMES.get(kind)
    if name is None:
        raise RecordError("%s has an unknown type %r" % (_entry_label(index, pos), chr(kind)))
    size = len(body) - 1
    fixed = {"G": 0, "I": 2, "R": 3, "C": 2, "S": 2, "E": 4, "L": 1, "U": 1}
    if size < 1 and chr(kind) in "HNTF":
        raise RecordError("%s: an empty %s entry" % (_entry_label(index, pos), name))
    ch = chr(kind)
    if ch in fixed and size != fixed[ch]:
        raise RecordError("%s: a %s entry has %d bytes, not %d" % (_entry_label(index, pos), name, size, fixed[ch]))
    try:
        if ch == "H":
            if body[1:7] != MAGIC:
                raise RecordError("not a Pipboard record (bad magic)")
            if body[7] not in (VERSION, VERSION_HEADER_LINES, VERSION_TABLE_DICE):
                raise RecordError("record version %d is not supported (this reads %d to %d)"
                                  % (body[7], VERSION, VERSION_TABLE_DICE))
            return ("header", body[8:].decode(), body[7])
        if ch == "T":
            if body[1] > 1:
                raise RecordError("%s: a header line entry with flag %d" % (_entry_label(index, pos), body[1]))
            return ("header line", body[1], body[2:].decode())
        if ch == "N":
            if body[1] > 1:
                raise RecordError("%s: player %d does not exist" % (_entry_label(index, pos), body[1]))
            return ("name", body[1], body[2:].decode())
        if ch == "O":
            text = body[1:].decode()
            eq = text.find("=")
            if eq < 1:
                raise RecordError("%s: option entry %r is not name=value" % (_entry_label(index, pos), text))
            return ("option", text[:eq], _option_value(text[eq + 1:]))
        if ch == "G":
            return ("game",)
        if ch == "I":
            return ("opening", body[1], body[2])
        if ch == "R":
            return ("roll", body[1], body[2], body[3])
        if ch == "M":
            if size % 2 != 1:
                raise RecordError("%s: a play entry has an odd number of point bytes" % _entry_label(index, pos))
            singles = []
            for i in range(2, len(body), 2):
                singles.append((body[i], body[i + 1]))
            return ("play", body[1], singles)
        if ch == "C":
            return ("cube", body[1], body[2])
        if ch == "S":
            return ("resign", body[1], body[2])
        if ch == "L":
            if body[1] > 1:
                raise RecordError("%s: player %d does not exist" % (_entry_label(index, pos), body[1]))
            return ("timeout", body[1])
        if ch == "U":
            return ("unroll", body[1])
        if ch == "F":
            if body[1] > 1:
                raise RecordError("%s: a fair dice entry of kind %d" % (_entry_label(index, pos), body[1]))
            return ("fair", body[1], body[2:].decode())
        return ("end", body[1], body[2], body[3] << 8 | body[4])
    except UnicodeError:
        raise RecordError("%s: text that is not UTF-8" % _entry_label(index, pos))


def describe_entry(entry):
    """A short human text for an entry, e.g. ``player 1 rolls 6-5``."""
    kind = entry[0]
    if kind == "game":
        return "game start"
    if kind == "opening":
        return "opening roll %d and %d" % (entry[1], entry[2])
    if kind == "roll":
        return "player %d rolls %d-%d" % entry[1:]
    if kind == "play":
        return "player %d plays %s" % (entry[1], " ".join("%d/%d" % st for st in entry[2]) or "nothing")
    if kind == "cube":
        return "player %d %s" % (entry[1], ACTION_NAMES.get(entry[2], "cube action %d" % entry[2]))
    if kind == "resign":
        return "player %d resigns (kind %d)" % (entry[1], entry[2])
    if kind == "timeout":
        return "player %d loses on time" % entry[1]
    if kind == "unroll":
        return "player %d's roll taken back" % entry[1]
    if kind == "end":
        return "player %d wins %d points" % (entry[1], entry[3])
    return kind


def replay(record, on_entry=None):
    """Replay a Record (or bytes) through the rules; return the Referee.

    Every roll, play and cube action is checked; the first that breaks a
    rule raises RecordError naming the entry, its game and move number.
    ``on_entry(referee, entry)`` (optional) is called before each entry is applied.
    """
    if not isinstance(record, Record):
        record = read_record(record)
    if record.variant != "backgammon":
        raise RecordError("replaying %s records is not supported here" % record.variant)
    ref = Referee(record.options, record.players)
    for i in range(len(record.entries)):
        entry = record.entries[i]
        if on_entry is not None:
            on_entry(ref, entry)
        try:
            apply_entry(ref, entry)
        except ValueError as exc:
            where = "game %d, move %d" % (ref.game_number, ref.move_number) if ref.game_number else "before game 1"
            raise RecordError("entry at byte %d (%s, %s): %s" % (record.offsets[i], where,
                                                                describe_entry(entry), exc))
    return ref


def apply_entry(ref, entry):
    """Apply one decoded entry to a Referee (raises ValueError subclasses)."""
    kind = entry[0]
    if kind == "game":
        ref.new_game()
    elif kind == "opening":
        ref.opening_roll(entry[1], entry[2])
    elif kind == "roll":
        ref.roll((entry[2], entry[3]), entry[1])
    elif kind == "play":
        ref.play(entry[2], entry[1])
    elif kind == "cube":
        ref.cube_action(entry[2], entry[1])
    elif kind == "resign":
        ref.resign(entry[1], entry[2])
    elif kind == "timeout":
        ref.lose_on_time(entry[1])
    elif kind == "unroll":
        ref.unroll(entry[1])
    elif kind == "end":
        r = ref.result
        if not ref.game_over() or r is None:
            raise RecordError("a game result is recorded but the game is not over")
        if (r.winner, r.kind, r.points) != (entry[1], entry[2], entry[3]):
            raise RecordError("the record says player %d wins %d points (kind %d); the rules give player %d "
                              "%d points (kind %d)" % (entry[1], entry[3], entry[2], r.winner, r.points, r.kind))
    else:
        raise RecordError("unknown entry %r" % (kind,))
