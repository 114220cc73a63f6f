"""``pipboard export``: the match records of a board or the simulator, for GNU Backgammon.

* ``-o FILE.mat|FILE.sgf``: the match being played;
* ``--list``: the board's directory of matches (players, date, length, result, exported);
* ``--match N -o FILE``: match N of the directory;
* ``--all -o DIR``: every match, one file each (``match-00012.mat``, or ``.sgf`` with ``--sgf``).

A match written whole to a file is marked exported on the board (``exported``): when its flash
fills, the board deletes the oldest exported matches first and never one not exported.

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

from pipboard.files import write_file
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
    ("timeout", re.compile(r"^" + _P + r" loses on time$")),
    ("end", re.compile(r"^" + _P + r" wins (\d+) points? \((single|gammon|backgammon|drop|time)\)$")),
    ("resign", re.compile(r"^" + _P + r" resigns a (single|gammon|backgammon)$")),
    ("unroll", re.compile(r"^" + _P + r"'s (\d)(\d) taken back$")),
)
KINDS = {"drop": 0, "single": 1, "gammon": 2, "backgammon": 3, "time": 4}


class ExportError(Exception):
    """The record cannot be exported; the message says why."""


class EmptyMatch(ExportError):
    """A match with nothing played yet."""


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
        elif kind == "timeout":
            writer.timeout(PLAYERS[g[0]])
        elif kind == "resign":
            writer.resign(PLAYERS[g[0]], KINDS[g[1]])
        elif kind == "unroll":
            writer.unroll(PLAYERS[g[0]])
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


def without_empty_last_game(record):
    """``record`` without a last game that has begun but holds nothing yet (no play, cube action or result:
    after DONE the board starts the next game at once); gnubg cannot read a game without a move."""
    last = None
    for i in range(len(record.entries)):
        if record.entries[i][0] == "game":
            last = i
    if last is not None and all(e[0] in ("game", "opening") for e in record.entries[last:]):
        del record.entries[last:]
        del record.offsets[last:]
    return record


def _read(data, snapshot):
    from pipcore.record import read_record

    return without_empty_last_game(read_record(board_record(data, snapshot)))


def live_stopped(snapshot):
    """Why the live match's record stopped (the snapshot's ``storage``), or None."""
    return ((snapshot or {}).get("storage") or {}).get("record") or None


def stopped_text(info):
    """Why and where a match's record stopped (its directory entry), or None when it is whole."""
    why = (info or {}).get("stopped")
    if not why:
        return None
    game = info.get("stopped_game")
    return "stopped in game %d: %s" % (game, why) if isinstance(game, int) else "stopped: %s" % why


def record_to_mat(data, snapshot=None):
    """.mat text for the bytes a board returned for ``record``."""
    from pipboard.matfile import export_mat

    try:
        return export_mat(_read(data, snapshot), live_stopped(snapshot))
    except ValueError as exc:  # MatExportError, RecordError
        raise ExportError("the record cannot be written as .mat: %s" % exc)


def record_to_sgf(data, snapshot=None):
    """gnubg SGF text for the bytes a board returned for ``record``."""
    from pipboard.sgffile import export_sgf

    try:
        return export_sgf(_read(data, snapshot))
    except ValueError as exc:
        raise ExportError("the record cannot be written as SGF: %s" % exc)


def _date_lines(info):
    """gnubg's date tags for a match's directory entry (none when the board did not know the date)."""
    import time

    date = (info or {}).get("date")
    if not isinstance(date, int):
        return []
    t = time.gmtime(date)
    return ['; [EventDate "%04d.%02d.%02d"]' % (t.tm_year, t.tm_mon, t.tm_mday),
            '; [EventTime "%02d.%02d"]' % (t.tm_hour, t.tm_min)]


def match_text(data, info, sgf=False):
    """The .mat (or SGF) text of a match record pulled from the board's directory."""
    if sgf:
        from pipboard.sgffile import export_sgf
    from pipboard.matfile import _DEFAULT_HEADER, export_mat
    from pipcore.record import read_record

    label = "match %s" % info["id"] if (info or {}).get("id") is not None else "the record"
    if not data:
        raise EmptyMatch("%s has nothing played yet" % label)
    try:
        record = without_empty_last_game(read_record(board_record(data)))
        if sgf:
            date = _date_lines(info)
            return export_sgf(record, date[0].split('"')[1].replace(".", "-") if date else None)
        if not record.header_lines:
            date = _date_lines(info)
            if date:
                record.header_lines = _DEFAULT_HEADER[:1] + date + _DEFAULT_HEADER[1:]
        return export_mat(record, stopped_text(info))
    except ValueError as exc:  # RecordError, MatExportError, SgfExportError
        raise ExportError("%s cannot be exported: %s" % (label, exc))


def _when(info):
    import time

    date = info.get("date")
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(date)) if isinstance(date, int) else "unknown date"


def describe_match(info):
    """One line of ``--list``."""
    length = info.get("length") or 0
    players = info.get("players") or ["white", "black"]
    score = info.get("score") or [0, 0]
    kind = "%d-point match" % length if length else "money session"
    state = "playing" if info.get("live") else ("open" if info.get("open") else "closed")
    exported = info.get("exported", 0)
    size = info.get("bytes", 0)
    flag = "exported" if size and exported >= size else ("partly exported" if exported else "not exported")
    stopped = stopped_text(info)
    return "%5d  %s  %s - %s  %s, %s, %d-%d, %s, %d bytes, %s%s" % (
        info.get("id", 0), _when(info), players[0], players[1], kind, _games(info.get("games", 0)),
        score[0], score[1], state, size, flag, "; RECORD %s (the games after it are not in it)" % stopped
        if stopped else "")


def list_matches(link, out=sys.stdout):
    entries, storage = link.matches()
    if not entries:
        out.write("the board holds no match records\n")
    for info in entries:
        out.write(describe_match(info) + "\n")
    if isinstance(storage, dict) and storage.get("free") is not None:
        out.write("flash: %d bytes free%s\n" % (storage["free"], " (nearly full: export and let the board "
                                                                   "delete old matches)" if storage.get("low") else ""))
    return entries


def _games(n):
    return "%d game%s" % (n, "" if n == 1 else "s")


def _pull(link, path, match=None):
    """The record's bytes from the board; a failure says which file was being written."""
    try:
        return link.record() if match is None else link.record(match)
    except (LinkError, CommandError) as exc:
        what = "the record" if match is None else "match %d's record" % match
        target = "" if path in (None, "-") else " for %s" % path
        raise ExportError("cannot read %s from the board%s (nothing written): %s" % (what, target, exc))


def _find(entries, match):
    for info in entries:
        if info.get("id") == match:
            return info
    raise ExportError("there is no match %d on the board (pipboard export --list shows them)" % match)


def export_match(link, info, path, out=sys.stdout, sgf=None):
    """Write one match of the directory to ``path`` and mark it exported (what was written)."""
    if sgf is None:
        sgf = str(path).lower().endswith(".sgf")
    data = _pull(link, path, info["id"])
    text = match_text(data, info, sgf)
    if path == "-":
        out.write(text)
    else:
        write_file(path, text)
        games = text.count("\n Game ") if not sgf else text.count("(;")
        out.write("match %d: wrote %s (%d bytes of record, %s)\n" % (info["id"], path, len(data), _games(games)))
    stopped = stopped_text(info)
    if stopped:
        sys.stderr.write("pipboard export: note: match %d's record %s; the file holds the games before it\n"
                         % (info["id"], stopped))
    link.mark_exported(info["id"], len(data))
    return text


def export_all(link, folder, out=sys.stdout, sgf=False):
    """Every match of the directory into ``folder``; returns the paths written."""
    import os

    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ExportError("%s is a file: --all writes one file per match into a folder (give a folder's name)"
                          % folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise ExportError("cannot make the folder %s: %s" % (folder, exc.strerror or exc))
    entries, _ = link.matches()
    paths = []
    failures = []
    for info in entries:
        if not info.get("bytes"):
            continue  # a match with nothing played yet
        path = os.path.join(folder, "match-%05d.%s" % (info["id"], "sgf" if sgf else "mat"))
        try:
            export_match(link, info, path, out, sgf)
            paths.append(path)
        except EmptyMatch:
            continue  # (the match just started: nothing to write)
        except ExportError as exc:
            failures.append(str(exc))
    for text in failures:
        sys.stderr.write("pipboard export: %s\n" % text)
    if failures:
        raise ExportError("%d of %d matches could not be exported" % (len(failures), len(failures) + len(paths)))
    return paths


def backalley_sheet(snapshot, path, out=sys.stdout):
    """A board keeping a Back Alley score: its score sheet to ``path`` (``pipboard.basheet``: JSON for a name
    ending in .json, else the text as players write it; '-': stdout)."""
    from pipboard.basheet import sheet_for
    from pipcore.bascore import ScoreKeeper, ScoreError

    state = (snapshot.get("backalley") or {}).get("state")
    if state is None:
        raise ExportError("the board's Back Alley game has not begun: choose the first dealer on the board")
    try:
        keeper = ScoreKeeper.restore(state)
    except ScoreError as exc:
        raise ExportError("the board's Back Alley score cannot be read: %s" % exc)
    text = sheet_for(keeper, "-" if path == "-" else str(path))
    if path == "-":
        out.write(text)
    else:
        write_file(path, text)
        out.write("wrote the Back Alley score sheet to %s (%d deals scored)\n" % (
            path, len([r for r in keeper.rows if not r.redeal])))
    return text


def export(link, path, out=sys.stdout):
    """Pull the record and write it to ``path`` (.mat, or gnubg SGF for a name ending in .sgf; '-': stdout);
    a board keeping a Back Alley score writes its score sheet instead."""
    snapshot = link.snapshot()
    if snapshot.get("backalley") is not None:
        return backalley_sheet(snapshot, path, out)
    data = _pull(link, path)
    text = record_to_sgf(data, snapshot) if str(path).lower().endswith(".sgf") else record_to_mat(data, snapshot)
    if live_stopped(snapshot):
        sys.stderr.write("pipboard export: note: %s; the file holds the games before it\n" % live_stopped(snapshot))
    if path == "-":
        out.write(text)
    else:
        write_file(path, text)
        out.write("wrote %s (%d bytes of record, %d lines)\n" % (path, len(data), text.count("\n")))
    return text


def run(target, path, out=sys.stdout, listing=False, match=None, every=False, sgf=False):
    """``pipboard export`` (see the module docstring); returns the exit status."""
    if every and (path in (None, "-")):
        sys.stderr.write("pipboard export: --all needs -o DIR (a folder for one file per match)\n")
        return 2
    try:
        with Link.open(target) as link:
            link.set_time()
            if listing:
                list_matches(link, out)
            elif every:
                paths = export_all(link, path, out, sgf)
                out.write("%d match%s exported to %s\n" % (len(paths), "" if len(paths) == 1 else "es", path))
            elif match is not None:
                entries, _ = link.matches()
                export_match(link, _find(entries, match), path, out, True if sgf else None)
            else:
                export(link, path, out)
    except (LinkError, CommandError, ExportError, OSError) as exc:
        sys.stderr.write("pipboard export: %s\n" % exc)
        return 1
    return 0
