"""Export a game record as GNU Backgammon's SGF (``load match FILE.sgf`` in gnubg).

One SGF game tree per game, as gnubg saves a match: the game information
(``MI[length:N][game:i][ws:..][bs:..]``, players, rules, result) and one node
per action: ``;W[52xvmh]`` (dice, then from/to letters), ``;B[double]``,
``;W[take]``, ``;W[drop]``. White is our player 0 (the left column of .mat).
Points are letters ``a``..``x`` in White's numbering (1..24), ``y`` is the
bar and ``z`` off; Black's points are mirrored (his point p is 25 - p).

A resignation only shows in the result (``RE[B+4R]``), as gnubg writes it. A game
lost on time (``pipcore.match.Referee.lose_on_time``) has no SGF of its own in
gnubg: it is written as that resignation, with a game comment saying so.
"""

from pipcore.cube import BEAVER, DROP, OFFER, RACCOON, TAKE
from pipcore.match import TIME, Referee
from pipcore.record import RecordError, apply_entry, describe_entry, read_record

from pipboard import __version__
from pipboard.fields import clean_field, clean_name
from pipboard.matfile import header_value

_SIDES = ("W", "B")


class SgfExportError(ValueError):
    """A record that cannot be written as SGF."""


def _letter(player, point):
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    if player == 1:
        point = 25 - point
    return chr(ord("a") + point - 1)


def _text(value):
    return str(value).replace("\\", "\\\\").replace("]", "\\]")


def _rules(options, crawford_game):
    words = []
    if options["matchLength"]:
        if options["crawford"]:
            words.append("Crawford")
            if crawford_game:
                words.append("CrawfordGame")
    elif options["jacoby"]:
        words.append("Jacoby")
    return ":".join(words)


def export_sgf(record, date=None):
    """SGF text for a Record (``pipcore.record``)."""
    opts = record.options
    ref = Referee(opts, record.players)
    trees = []
    nodes = None
    header = None
    rolled = (0, 0)

    def close():
        if nodes is None:
            return
        info = header
        if ref.game_over() and ref.result is not None:
            r = ref.result
            on_time = r.kind == TIME
            info += "RE[%s+%d%s]" % (_SIDES[r.winner], r.points, "R" if r.resigned or on_time else "")
            if on_time:
                info += "GC[%s lost on time]" % _text(record.players[1 - r.winner])
        trees.append("(" + info + "".join("\n" + n for n in nodes) + ")")

    for i in range(len(record.entries)):
        entry = record.entries[i]
        kind = entry[0]
        try:
            if kind == "game":
                close()
                nodes = []
                rolled = (0, 0)
            apply_before = kind != "game"
            if not apply_before:
                apply_entry(ref, entry)
                s = ref.match.score
                header = (";FF[4]GM[6]CA[UTF-8]AP[Pipboard:%s]MI[length:%d][game:%d][ws:%d][bs:%d]PW[%s]PB[%s]"
                          % (__version__, opts["matchLength"], ref.game_number - 1, s[0], s[1],
                             _text(clean_name(record.players[0])), _text(clean_name(record.players[1]))))
                if date and ref.game_number == 1:
                    header += "DT[%s]" % date
                if ref.game_number == 1:  # the event and round of an imported file's header, or the room's
                    for prop, tag in (("EV", "Event"), ("RO", "Round")):
                        value = header_value(record.header_lines, tag)
                        if value:
                            header += "%s[%s]" % (prop, _text(clean_field(value, 80)))
                rules = _rules(opts, ref.cube.crawford_game)
                if rules:
                    header += "RU[%s]" % rules
                continue
            if kind == "opening":
                rolled = (entry[1], entry[2]) if entry[1] > entry[2] else (entry[2], entry[1])
            elif kind == "roll":
                rolled = (entry[2], entry[3])
            elif kind == "play":
                player = entry[1]
                letters = "".join(_letter(player, s) + _letter(player, t) for s, t in entry[2])
                nodes.append(";%s[%d%d%s]" % (_SIDES[player], rolled[0], rolled[1], letters))
            elif kind == "cube":
                player, action = entry[1], entry[2]
                if action in (OFFER, BEAVER, RACCOON):
                    word = "double"
                elif action == TAKE:
                    word = "take"
                elif action == DROP:
                    word = "drop"
                else:
                    raise SgfExportError("unknown cube action %r" % (action,))
                nodes.append(";%s[%s]" % (_SIDES[player], word))
            apply_entry(ref, entry)
        except ValueError as exc:
            raise SgfExportError("cannot export entry at byte %d (game %d, %s): %s"
                                 % (record.offsets[i], ref.game_number, describe_entry(entry), exc))
    close()
    return "\n".join(trees) + "\n"


def export_record_sgf(record_bytes, date=None):
    """SGF text for a record given as bytes."""
    try:
        record = read_record(record_bytes)
    except RecordError as exc:
        raise SgfExportError(str(exc))
    return export_sgf(record, date)
