"""``pipboard export -o FILE.mat|FILE.sgf``: the game record of a board or the simulator for GNU Backgammon.

The record is read page by page over the protocol (``record``) and turned
into .mat text by ``pipboard.matfile`` (the exporter gnubg's importer
judges). Boards that keep the binary game record (``pipcore.record``) are
exported as they are; the controller's text log (one line per roll, play,
cube action and result, e.g. ``white 43: 8/5 8/4``) is first rewritten into
that binary record, game options taken from the board's snapshot.
"""

import io
import re
import sys

from pipboard.link import CommandError, Link, LinkError

PLAYERS = {"white": 0, "black": 1}
_P = r"(white|black)"
_PATTERNS = (
    ("opening_tie", re.compile(r"^opening tie (\d)(\d)(?:: automatic double => (\d+))?$")),
    ("opening_again", re.compile(r"^opening (\d)(\d): " + _P + r" rolls again$")),
    ("opening", re.compile(r"^opening (\d)(\d): " + _P + r" plays (\d)(\d)$")),
    ("roll", re.compile(r"^" + _P + r" rolls (\d)(\d)$")),
    ("play", re.compile(r"^" + _P + r" (\d)(\d): (.*)$")),
    ("double", re.compile(r"^" + _P + r" doubles => (\d+)$")),
    ("take", re.compile(r"^" + _P + r" (?:takes|accepts the beaver|accepts the raccoon)$")),
    ("drop", re.compile(r"^" + _P + r" (?:drops|refuses the beaver|refuses the raccoon)$")),
    ("beaver", re.compile(r"^" + _P + r" beavers => (\d+)$")),
    ("raccoon", re.compile(r"^" + _P + r" raccoons => (\d+)$")),
    ("end", re.compile(r"^" + _P + r" wins (\d+) points? \((single|gammon|backgammon|drop)\)$")),
)
KINDS = {"drop": 0, "single": 1, "gammon": 2, "backgammon": 3}


class ExportError(Exception):
    """The record cannot be exported; the message says why."""


def is_binary_record(data):
    """True for a ``pipcore.record`` record (first frame: header with the PIPREC magic)."""
    return len(data) > 8 and data[1:8] == b"HPIPREC"


def text_log_to_record(text, options, variant="backgammon", players=("white", "black")):
    """Rewrite the controller's text log as a ``pipcore.record`` binary record."""
    from pipcore import cube
    from pipcore.notation import parse_play
    from pipcore.record import RecordWriter

    out = io.BytesIO()
    writer = RecordWriter(out, variant)
    writer.header(list(players), options)
    started = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        for kind, pattern in _PATTERNS:
            m = pattern.match(line)
            if m:
                break
        else:
            raise ExportError("line %d of the board's record is not understood: %r" % (number, line))
        g = m.groups()
        if not started:
            writer.new_game()
            started = True
        if kind in ("opening_tie", "opening_again", "opening"):
            writer.opening(int(g[0]), int(g[1]))
        elif kind == "roll":
            writer.roll(PLAYERS[g[0]], int(g[1]), int(g[2]))
        elif kind == "play":
            singles = [(s, t) for s, t, _hit in parse_play(g[3])]
            writer.play(PLAYERS[g[0]], singles)
        elif kind == "double":
            writer.cube(PLAYERS[g[0]], cube.OFFER)
        elif kind == "take":
            writer.cube(PLAYERS[g[0]], cube.TAKE)
        elif kind == "drop":
            writer.cube(PLAYERS[g[0]], cube.DROP)
        elif kind == "beaver":
            writer.cube(PLAYERS[g[0]], cube.BEAVER)
        elif kind == "raccoon":
            writer.cube(PLAYERS[g[0]], cube.RACCOON)
        elif kind == "end":
            writer.end(PLAYERS[g[0]], KINDS[g[2]], int(g[1]))
            started = False
    return out.getvalue()


def board_record(data, snapshot=None):
    """The binary ``pipcore.record`` for the bytes a board returned for ``record``."""
    if not data:
        raise ExportError("the board has no game record yet (play a move first)")
    if is_binary_record(data):
        return data
    snapshot = snapshot or {}
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        raise ExportError("the board's record is neither a Pipboard record nor a text log")
    return text_log_to_record(text, snapshot.get("options") or {}, snapshot.get("variant", "backgammon"))


def record_to_mat(data, snapshot=None):
    """.mat text for the bytes a board returned for ``record``."""
    from pipboard.matfile import export_record

    try:
        return export_record(board_record(data, snapshot))
    except ValueError as exc:  # MatExportError, RecordError
        raise ExportError("the record cannot be written as .mat: %s" % exc)


def record_to_sgf(data, snapshot=None):
    """gnubg SGF text for the bytes a board returned for ``record``."""
    from pipboard.sgffile import export_record_sgf

    try:
        return export_record_sgf(board_record(data, snapshot))
    except ValueError as exc:
        raise ExportError("the record cannot be written as SGF: %s" % exc)


def export(link, path, out=sys.stdout):
    """Pull the record and write it to ``path`` (.mat, or gnubg SGF for a name ending in .sgf; '-': stdout)."""
    snapshot = link.snapshot()
    data = link.record()
    text = record_to_sgf(data, snapshot) if str(path).lower().endswith(".sgf") else record_to_mat(data, snapshot)
    if path == "-":
        out.write(text)
    else:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        out.write("wrote %s (%d bytes of record, %d lines)\n" % (path, len(data), text.count("\n")))
    return text


def run(target, path, out=sys.stdout):
    try:
        with Link.open(target) as link:
            export(link, path, out)
    except (LinkError, CommandError, ExportError, OSError) as exc:
        sys.stderr.write("pipboard export: %s\n" % exc)
        return 1
    return 0
