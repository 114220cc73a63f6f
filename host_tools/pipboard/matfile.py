"""The Jellyfish / GNU Backgammon ``.mat`` text format: export and import.

``export_record(record_bytes)`` turns a Pipboard game record into ``.mat``
text; ``import_mat(text)`` (``pipboard.matimport``, loaded when asked) reads a
``.mat`` file (as gnubg, Jellyfish and others write it) into a record, checking every roll, play and cube action
against our rules and naming the first entry that is illegal or unreadable.

What the format cannot say (see docs/mat-format.md for the full list):
the options (we add ``; [Pipboard ...]`` comment lines, which other programs
ignore), automatic doubles, the arithmetic cube, ``noGammonsWithCube``,
opening rolls that were ties (or, with ``openingReroll``, the opening roll),
and names with colons or runs of spaces (written in a ``; [Player N ...]``
comment). The header lines of an imported file (gnubg's ``; [Event ...]`` and
the rest) are kept in the record and written back as they were.
"""

import re

from pipcore.cube import BEAVER, DROP, OFFER, RACCOON, TAKE
from pipcore.match import PLAY, TIME, Referee
from pipcore.options import make_options
from pipcore.record import RecordError, apply_entry, describe_entry, read_record, replay

from pipboard.fields import clean_field, clean_name

LEFT_WIDTH = 28  # gnubg pads the left column to this width
LEFT_HEADER = 32  # ...and the left player of a game header to this one
NAME_WIDTH = 31  # gnubg keeps this many characters of a name
_RECORD_TAG = "; [Pipboard record "  # the board's record of the match stopped early (the flash full)
_OPTIONS_TAG = "; [Pipboard options "
_OPENING_TAG = "; [Pipboard opening "
_TIMEOUT_TAG = "; [Pipboard timeout "
_DICE_TAG = "; [Pipboard dice "  # a provably fair match: its commitment and (after it) its seed
_DEFAULT_HEADER = ['; [Site "Pipboard"]', ""]


class MatExportError(ValueError):
    """A record that cannot be turned into a .mat file."""


class MatImportError(ValueError):
    """A .mat file that cannot be read, or that breaks the rules."""


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------
def mat_name(name):
    """A player name as the .mat game header can carry it: cleaned (``pipboard.fields``), single spaces, no
    colons, at most 31 characters.

    gnubg 1.07 writes and reads names with spaces ("Carla Ruiz : 0"); a colon would end the name, a
    comma before digits reads as a rating, and gnubg keeps 31 characters of a name (its MAX_NAME_LEN).
    """
    out = re.sub(r"\s+", " ", clean_name(name).replace(":", "_")).strip()
    out = re.sub(r",(?=\s*\d)", "_", out)
    return out[:NAME_WIDTH].strip() or "Player"


def header_line(names, score):
    """A game's header line as gnubg 1.07 writes it (`` Carla : 0`` padded to 32 columns, then ``Bob : 0``),
    with at least one space before the second name: gnubg's importer skips the first score up to a space,
    so a left side of 32 columns or more (a name of 27 characters or more) needs one."""
    left = " %s : %d" % (names[0], score[0])
    return "%s %s : %d" % (left.ljust(LEFT_HEADER - 1), names[1], score[1])


def match_header(event=None, round_=None, date=None):
    """The header lines gnubg writes before the match line, for a match of ``event`` (its ``round_``) played on
    ``date`` (a ``time.struct_time``): ``; [Site "Pipboard"]``, ``; [Event ...]``, ``; [Round ...]``,
    ``; [EventDate ...]``, ``; [EventTime ...]`` and a blank line; fields cleaned (``pipboard.fields``)."""
    from pipboard.fields import EVENT_MAX, ROUND_MAX

    out = [_DEFAULT_HEADER[0]]
    for tag, value, limit in (("Event", event, EVENT_MAX), ("Round", round_, ROUND_MAX)):
        text = clean_field(value, limit).replace('"', "'")
        if text:
            out.append('; [%s "%s"]' % (tag, text))
    if date is not None:
        out.append('; [EventDate "%04d.%02d.%02d"]' % (date.tm_year, date.tm_mon, date.tm_mday))
        out.append('; [EventTime "%02d.%02d"]' % (date.tm_hour, date.tm_min))
    return out + [""]


def header_value(lines, tag):
    """The value of ``; [TAG "value"]`` among a record's header lines, or None."""
    for line in lines or ():
        m = re.match(r'^;\s*\[%s "(.*)"\]\s*$' % tag, line.strip())
        if m:
            return m.group(1)
    return None


def tag_text(text):
    """Text inside a ``; [... "TEXT"]`` comment after the match line: one line (``pipboard.fields``), no double
    quote, and no "Game " (gnubg starts a game at any line holding it; a tab stands for that space)."""
    return clean_field(text, 200).replace('"', "'").replace("Game ", "Game\t")


def _points_text(n):
    return "Wins %d point%s" % (n, "" if n == 1 else "s")


def export_warnings(options):
    """What a .mat file loses for these options (empty when nothing)."""
    out = []
    if options["autoDoubles"]:
        out.append("automatic doubles are not in the .mat format: gnubg will show lower cube values and scores")
    if options["cubeProgression"] == "arithmetic":
        out.append("the arithmetic cube is not in the .mat format: gnubg will read every double as x2")
    if options["noGammonsWithCube"]:
        out.append("noGammonsWithCube is not in the .mat format: gnubg will score gammons")
    if options["matchLength"] and not options["crawford"]:
        out.append("gnubg assumes the Crawford rule in every .mat match")
    if options["openingReroll"]:
        out.append("openingReroll is not in the .mat format")
    return out


def _cube_warnings(record):
    """gnubg 1.07 crashes on cubes above 64: say so before it does. A loss on time reads as a resignation
    in gnubg, which scores at most a backgammon: say so where the match needed more."""
    top = [1]
    short = []

    def watch(ref, entry):
        if ref.cube is not None:
            top[0] = max(top[0], ref.cube.value, ref.cube.offered_value)
        if entry[0] == "end" and entry[2] == TIME:
            value = ref.cube.value
            if entry[3] > 3 * value or entry[3] % value:
                short.append("game %d was lost on time for %d points: gnubg reads it as a resignation, worth at "
                             "most %d (a backgammon at cube %d), so its final score is short"
                             % (ref.game_number, entry[3], 3 * value, value))

    try:
        replay(record, watch)
    except ValueError:
        return []
    if top[0] > 64:
        short.append("the cube reaches %d: GNU Backgammon 1.07 crashes reading cubes above 64" % top[0])
    return short


class _Lines:
    """Fills the two columns of a game's move lines."""

    def __init__(self):
        self.lines = []  # [left, right]
        self.next_column = 0

    def add(self, column, text, unnumbered=False):
        if not self.lines or column < self.next_column:
            self.lines.append(["", "", unnumbered])
        self.lines[-1][column] = text
        self.next_column = column + 1

    def render(self, out):
        number = 0
        for left, right, unnumbered in self.lines:
            if unnumbered:
                prefix = "     "  # gnubg writes the result line without a move number
            else:
                number += 1
                prefix = "%3d) " % number
            if right:
                out.append("%s%s%s" % (prefix, left.ljust(max(LEFT_WIDTH, len(left) + 2)), right))
            elif left.strip().startswith("Wins"):
                out.append(prefix + left)
            else:
                # gnubg 1.07 misreads the line after a short left-only line such as
                # "14)  Takes" (it loses the next play); padded as gnubg writes it, it reads fine
                out.append(prefix + left.ljust(LEFT_WIDTH))


def export_mat(record, stopped=None):
    """``.mat`` text for a Record (see ``pipcore.record``); ``stopped``: why the board's record of the match
    stopped early (a comment line says so: the file holds the games before it)."""
    opts = record.options
    full = (clean_name(record.players[0]), clean_name(record.players[1]))
    names = (mat_name(full[0]), mat_name(full[1]))
    out = []
    non_default = []
    defaults = make_options({"matchLength": opts["matchLength"]}, record.variant)
    for name in sorted(opts):
        if opts[name] != defaults[name]:
            value = opts[name]
            non_default.append("%s=%s" % (name, ("on" if value else "off") if value in (True, False) and
                                          type(value) is bool else value))
    # the header: an imported file's own lines as it gave them, else ours
    out.extend(record.header_lines or _DEFAULT_HEADER)
    out.append(" %d point match" % opts["matchLength"])
    # our tags come after the match line: gnubg skips lines there (before it,
    # it would add them to the match comment)
    for k in (0, 1):
        if names[k] != full[k]:
            out.append("; [Player %d \"%s\"]" % (k + 1, tag_text(full[k])))
    if stopped:
        out.append(_RECORD_TAG + "\"%s\"]" % tag_text(stopped))
    if non_default:
        out.append(_OPTIONS_TAG + "\"%s\"]" % " ".join(non_default))
    fair = record.fair
    if fair is not None:  # pipboard verify checks every roll against it (docs/mat-format.md)
        words = ["commitment=%s" % fair["commitment"]] + (["seed=%s" % fair["seed"]] if fair["seed"] else [])
        out.append(_DICE_TAG + "\"%s\"]" % " ".join(words))
    out.extend(_game_tags(record))
    out.append("")
    ref = Referee(opts, record.players)
    lines = None
    game = 0
    rolled = (0, 0)

    def close_game():
        if lines is None:
            return
        lines.render(out)
        out.append("")

    for i in range(len(record.entries)):
        entry = record.entries[i]
        kind = entry[0]
        try:
            if kind == "game":
                close_game()
                game += 1
                lines = _Lines()
                out.append(" Game %d" % game)
                out.append(header_line(names, ref.match.score))
            elif kind == "opening":
                rolled = (entry[1], entry[2]) if entry[1] > entry[2] else (entry[2], entry[1])
            elif kind == "roll":
                rolled = (entry[2], entry[3])
            elif kind == "play":
                player = entry[1]
                dice = rolled
                pos = ref.position.copy()
                words = []
                for s, t in entry[2]:
                    hit = t > 0 and pos.opp[25 - t] == 1
                    _apply(pos, s, t)
                    words.append("%d/%d%s" % (s, t, "*" if hit else ""))
                # gnubg ends a cell with a space, except after four moves
                text = " ".join(words) if len(words) == 4 else "".join(w + " " for w in words)
                lines.add(player, "%d%d: %s" % (dice[0], dice[1], text))
            elif kind in ("resign", "timeout") and ref.phase == PLAY:
                # rolled, then resigned (or out of time): gnubg writes the dice alone ("43: ") before "Wins"
                lines.add(ref.turn, "%d%d: " % rolled)
            elif kind == "cube":
                player, action = entry[1], entry[2]
                if action in (OFFER, BEAVER, RACCOON):
                    if action == OFFER:
                        value = ref.cube.next_value(ref.cube.value)
                    else:
                        value = ref.cube.offered_value * 2
                    lines.add(player, " Doubles => %d" % value)
                elif action == TAKE:
                    lines.add(player, " Takes")
                elif action == DROP:
                    lines.add(player, " Drops")
            apply_entry(ref, entry)
            if kind in ("play", "cube", "resign", "timeout") and ref.game_over():
                r = ref.result
                lines.add(r.winner, " " + _points_text(r.points), unnumbered=r.winner < lines.next_column)
        except ValueError as exc:
            raise MatExportError("cannot export entry at byte %d (game %d, %s): %s"
                                 % (record.offsets[i], game, describe_entry(entry), exc))
    close_game()
    return "\n".join(out) + "\n"


def _game_tags(record):
    """The comments of single games, each with its game's number, for the block after the match line: gnubg
    skips every line there, where a line between two games would reach its move parser ("Unrecognised
    move"). Tied opening rolls (or the opening roll itself when the winner rolls afresh, or whose die
    was whose, which a fair match's check needs) and a loss on time (read by gnubg as a resignation
    worth the points given: pipcore.match.Referee.lose_on_time) have no place in the format."""
    out = []
    game = 0
    for i in range(len(record.entries)):
        if record.entries[i][0] != "game":
            continue
        game += 1
        rolls = _opening_rolls(record.entries, i + 1)
        if len(rolls) > 1 or (rolls and (record.options["openingReroll"] or record.fair is not None)):
            out.append(_OPENING_TAG + "%d \"%s\"]" % (game, " ".join("%d-%d" % t for t in rolls)))
        loser = _timeout_in(record.entries, i + 1)
        if loser is not None:
            out.append(_TIMEOUT_TAG + "%d \"player %d lost on time\"]" % (game, loser + 1))
    return out


def _timeout_in(entries, start):
    """The player who lost the game beginning at ``start`` on time, or None."""
    for j in range(start, len(entries)):
        e = entries[j]
        if e[0] == "game":
            break
        if e[0] == "timeout":
            return e[1]
    return None


def _opening_rolls(entries, start):
    """The opening rolls (player 0's die first) of the game whose entries begin at ``start``."""
    rolls = []
    for j in range(start, len(entries)):
        e = entries[j]
        if e[0] == "unroll" and rolls:
            rolls.pop()  # keyed in wrong and taken back: the corrected roll follows
        elif e[0] != "opening":
            break
        else:
            rolls.append((e[1], e[2]))
    return rolls


def _apply(pos, s, t):
    from pipcore.rules import apply_move

    apply_move(pos, s, t)


def export_record(record_bytes):
    """``.mat`` text for a record given as bytes (a file's content)."""
    try:
        record = read_record(record_bytes)
    except RecordError as exc:
        raise MatExportError(str(exc))
    return export_mat(record)


# ---------------------------------------------------------------------------
# import
# ---------------------------------------------------------------------------


def import_mat(text, options=None, players=None):
    """A ``.mat`` file's text as a record (``pipboard.matimport``, loaded when asked)."""
    from pipboard.matimport import import_mat as read

    return read(text, options, players)


def __getattr__(name):
    """The rest of the reading side (``parse_mat``, ``import_to_record``), from ``pipboard.matimport``."""
    if name in ("parse_mat", "import_to_record"):
        from pipboard import matimport

        return getattr(matimport, name)
    raise AttributeError("module 'pipboard.matfile' has no attribute %r" % (name,))


# ---------------------------------------------------------------------------
# command line: pipboard export RECORD / pipboard import FILE.mat
# ---------------------------------------------------------------------------
def _write_text(path, text):
    import sys

    if path in (None, "-"):
        sys.stdout.write(text)
    else:
        from pipboard.files import write_file

        write_file(path, text)


def directory_entry_beside(record_path):
    """The board's directory entry of a record file copied from its flash (``m00012.inf`` beside
    ``m00012.rec``: players, date, where the record stopped), or None."""
    import json
    import os

    from pipdrivers.storage import decode

    base, ext = os.path.splitext(str(record_path))
    if ext.lower() != ".rec":
        return None
    try:
        with open(base + ".inf", "rb") as f:
            saved = decode(f.read())
        info = json.loads(saved[1]) if saved else None
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


def run_export(record_path, output="-"):
    """``pipboard export RECORD [-o FILE.mat | FILE.sgf]``; returns the exit status (SGF by extension).

    The text is what ``pipboard export --match N`` writes for the same record (``pipboard.export.match_text``:
    no empty last game, the date and the stop of the record from the directory entry beside it)."""
    import sys

    from pipboard.export import ExportError, match_text, stopped_text

    try:
        with open(record_path, "rb") as f:
            data = f.read()
        record = read_record(data)
        info = directory_entry_beside(record_path)
        text = match_text(data, info, str(output).lower().endswith(".sgf"))
    except OSError as exc:
        sys.stderr.write("pipboard export: cannot read %s: %s\n" % (record_path, exc.strerror or exc))
        return 1
    except (ValueError, ExportError) as exc:  # RecordError, MatExportError, SgfExportError
        sys.stderr.write("pipboard export: %s: %s\n" % (record_path, exc))
        return 1
    if stopped_text(info):
        sys.stderr.write("pipboard export: note: the board's record %s; the file holds the games before it\n"
                         % stopped_text(info))
    if record.torn:
        sys.stderr.write("pipboard export: note: the record's last entry was cut short (a power cut?) and is "
                         "left out\n")
    for warning in export_warnings(record.options) + _cube_warnings(record):
        sys.stderr.write("pipboard export: warning: %s\n" % warning)
    try:
        _write_text(output, text)
    except OSError as exc:  # FileWriteError: names the file
        sys.stderr.write("pipboard export: %s\n" % exc)
        return 1
    return 0


def add_import_arguments(p):
    p.add_argument("matfile", metavar="FILE.mat", help="the .mat file to read")
    p.add_argument("-o", "--output", help="the record file to write (default: FILE.pbr beside the .mat file)")
    p.add_argument("--jacoby", action="store_true", help="money play: the session used the Jacoby rule")
    p.add_argument("--beavers", action="store_true", help="money play: beavers were allowed")
    p.add_argument("--raccoons", action="store_true", help="money play: raccoons were allowed (implies --beavers)")
    p.add_argument("--no-crawford", action="store_true", help="match play without the Crawford rule")


def run_import(args):
    """``pipboard import FILE.mat [-o RECORD]``; returns the exit status."""
    import sys

    overrides = {}
    if args.jacoby:
        overrides["jacoby"] = True
    if args.beavers or args.raccoons:
        overrides["beavers"] = True
    if args.raccoons:
        overrides["raccoons"] = True
    if args.no_crawford:
        overrides["crawford"] = False
    try:
        with open(args.matfile, "rb") as f:
            raw = f.read()
    except OSError as exc:
        sys.stderr.write("pipboard import: cannot read %s: %s\n" % (args.matfile, exc.strerror or exc))
        return 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        data, ref = import_mat(text, overrides)
    except MatImportError as exc:
        sys.stderr.write("pipboard import: %s: %s\n" % (args.matfile, exc))
        return 1
    output = args.output
    if not output:
        base = args.matfile[:-4] if args.matfile.lower().endswith(".mat") else args.matfile
        output = base + ".pbr"
    from pipboard.files import write_file

    try:
        write_file(output, data)
    except OSError as exc:  # FileWriteError: names the file
        sys.stderr.write("pipboard import: %s\n" % exc)
        return 1
    if not ref.game_over():
        sys.stderr.write("pipboard import: note: %s: game %d has no result: the file ends in the middle of it "
                         "(cut short, or written while the game was played); the record ends there too\n"
                         % (args.matfile, ref.game_number))
    length = ref.match.length
    what = "%d-point match" % length if length else "money session"
    sys.stdout.write("%s: %s, %d game%s, %s %d - %s %d%s -> %s\n" % (
        args.matfile, what, ref.game_number, "" if ref.game_number == 1 else "s", ref.players[0],
        ref.match.score[0], ref.players[1], ref.match.score[1],
        " (match won)" if ref.match.is_over() else "", output))
    return 0
