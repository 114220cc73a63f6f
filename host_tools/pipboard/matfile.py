"""The Jellyfish / GNU Backgammon ``.mat`` text format: export and import.

``export_record(record_bytes)`` turns a Pipboard game record into ``.mat``
text; ``import_mat(text)`` reads a ``.mat`` file (as gnubg, Jellyfish and
others write it) into a record, checking every roll, play and cube action
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

from pipcore.cube import BEAVER, BEAVERED, DROP, OFFER, OFFERED, RACCOON, RACCOONED, TAKE, CubeError
from pipcore.match import ANSWER, GAME_ENDED, MATCH_ENDED, OPENING, PLAY, TIME, Referee
from pipcore.notation import NotationError, parse_play
from pipcore.options import ConfigError, make_options
from pipcore.record import RecordError, RecordWriter, apply_entry, describe_entry, read_record, replay

LEFT_WIDTH = 28  # gnubg pads the left column to this width
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
    """A player name as the .mat game header can carry it: single spaces, no colons.

    gnubg 1.07 writes and reads names with spaces ("Carla Ruiz : 0"); a
    colon would end the name, and a comma before digits reads as a rating.
    """
    out = re.sub(r"\s+", " ", name.replace(":", "_")).strip()
    out = re.sub(r",(?=\s*\d)", "_", out)
    return out[:31].strip() or "Player"


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


def export_mat(record):
    """``.mat`` text for a Record (see ``pipcore.record``)."""
    opts = record.options
    names = (mat_name(record.players[0]), mat_name(record.players[1]))
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
        if names[k] != record.players[k]:
            out.append("; [Player %d \"%s\"]" % (k + 1, record.players[k].replace('"', "'")))
    if non_default:
        out.append(_OPTIONS_TAG + "\"%s\"]" % " ".join(non_default))
    fair = record.fair
    if fair is not None:  # pipboard verify checks every roll against it (docs/mat-format.md)
        words = ["commitment=%s" % fair["commitment"]] + (["seed=%s" % fair["seed"]] if fair["seed"] else [])
        out.append(_DICE_TAG + "\"%s\"]" % " ".join(words))
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
                rolls = _opening_rolls(record.entries, i + 1)
                if len(rolls) > 1 or (rolls and (opts["openingReroll"] or fair is not None)):
                    # .mat has no place for tied opening rolls (or the opening roll itself when the
                    # winner rolls afresh, or whose die was whose, which a fair match's check needs);
                    # other programs skip this comment
                    out.append(_OPENING_TAG + "\"%s\"]" % " ".join("%d-%d" % t for t in rolls))
                loser = _timeout_in(record.entries, i + 1)
                if loser is not None:
                    # .mat has no loss on time: the game reads as a resignation worth the points given
                    # (pipcore.match.Referee.lose_on_time); this comment says what it was
                    out.append(_TIMEOUT_TAG + "\"player %d lost on time\"]" % (loser + 1))
                out.append(" Game %d" % game)
                s = ref.match.score
                left = " %s : %d" % (names[0], s[0])
                out.append("%s%s : %d" % (left.ljust(32), names[1], s[1]))
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
_MATCH_RE = re.compile(r"^\s*(\d+)\s+point\s+match", re.I)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
_HEADER_RE = re.compile(r"^\s*([^:]+?)\s*:\s*(-?\d+)\s+(.+?)\s*:\s*(-?\d+)\s*$")
_LINE_RE = re.compile(r"^\s*(\d+)\)(.*)$")
_ACTION_RE = re.compile(r"(?:(?<=\s)|^)(\d\d:|doubles?\b|takes?\b|accepts?\b|drops?\b|pass(?:es)?\b|"
                        r"refuses?\b|beavers?\b|raccoons?\b|wins?\b|resigns?\b)", re.I)
_WINS_RE = re.compile(r"^wins?\s+(\d+)\s+points?", re.I)
_DOUBLE_RE = re.compile(r"^(?:doubles?|beavers?|raccoons?)\s*(?:=>\s*(\d+))?\s*$", re.I)


class _Action:
    def __init__(self, player, text, move_number, line_number):
        self.player = player
        self.text = text.strip()
        self.move_number = move_number
        self.line_number = line_number


def _split_cells(rest, line_number, move_number, offset):
    """Actions of one move line: a list of (column, text)."""
    starts = [m.start(1) for m in _ACTION_RE.finditer(rest)]
    if not starts:
        if rest.strip():
            raise MatImportError("line %d: cannot read %r" % (line_number, rest.strip()))
        return []
    if len(starts) > 2:
        # a roll followed by more words that look like actions is unreadable
        raise MatImportError("line %d (move %s): more than two entries in %r" % (line_number, move_number,
                                                                                rest.strip()))
    if rest[:starts[0]].strip():
        raise MatImportError("line %d (move %s): cannot read %r" % (line_number, move_number,
                                                                 rest[:starts[0]].strip()))
    cells = []
    if len(starts) == 2:
        cells.append((0, rest[starts[0]:starts[1]]))
        cells.append((1, rest[starts[1]:]))
    else:
        column = 0 if starts[0] + offset < 20 else 1
        cells.append((column, rest[starts[0]:]))
    return cells


def parse_mat(text):
    """Read ``.mat`` text into ``(length, games, option_text)``.

    ``games`` is a list of dicts: names, score, actions (with player,
    move and line numbers). Raises MatImportError for unreadable text.
    """
    if not isinstance(text, str):
        raise MatImportError("a .mat file is text")
    return _parse(text)[:3]


def _parse(text):
    """``parse_mat`` plus the header lines before the match line (as ``header_lines`` of a record)."""
    if not isinstance(text, str):
        raise MatImportError("a .mat file is text")
    text = text.removeprefix("\ufeff")  # XG starts its files with a UTF-8 byte order mark
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header_lines = []
    length = None
    option_text = None
    games = []
    full_names = [None, None]
    fair = None
    pending_opening = []
    pending_timeout = None
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        i += 1
        stripped = line.strip()
        if length is None and not _MATCH_RE.match(line) and not stripped.startswith("; [Pipboard "):
            header_lines.append(line)
        if stripped.startswith(_OPTIONS_TAG.strip()):
            m = re.search(r'"([^"]*)"', stripped)
            option_text = m.group(1) if m else ""
            continue
        if stripped.startswith(_DICE_TAG.strip()):
            m = re.search(r'"([^"]*)"', stripped)
            fair = {"commitment": None, "seed": None}
            for word in (m.group(1) if m else "").split():
                name, _, value = word.partition("=")
                if name not in fair or not re.match(r"^[0-9a-f]{16,128}$", value):
                    raise MatImportError("line %d: %r is not the commitment or the seed of fair dice" % (i, word))
                fair[name] = value
            if fair["commitment"] is None:
                raise MatImportError("line %d: fair dice without their commitment" % i)
            continue
        pm = re.match(r'^;\s*\[Player ([12]) "(.*)"\]\s*$', stripped)
        if pm:
            full_names[int(pm.group(1)) - 1] = pm.group(2)
            continue
        if stripped.startswith(_OPENING_TAG.strip()):
            m = re.search(r'"([^"]*)"', stripped)
            rolls = []
            for word in (m.group(1) if m else "").split():
                dm = re.match(r"^([1-6])-([1-6])$", word)
                if not dm:
                    raise MatImportError("line %d: %r is not an opening roll (die-die)" % (i, word))
                rolls.append((int(dm.group(1)), int(dm.group(2))))
            pending_opening = rolls
            continue
        if stripped.startswith(_TIMEOUT_TAG.strip()):
            m = re.search(r'"player ([12]) lost on time"', stripped)
            if not m:
                raise MatImportError("line %d: cannot read %r (want 'player 1|2 lost on time')" % (i, stripped))
            pending_timeout = int(m.group(1)) - 1
            continue
        if length is None:
            m = _MATCH_RE.match(line)
            if m:
                length = int(m.group(1))
            continue
        m = _GAME_RE.match(line)
        if not m:
            if stripped and not stripped.startswith(";"):
                if _LINE_RE.match(line):
                    raise MatImportError("line %d: a move line outside any game" % i)
            continue
        number = int(m.group(1))
        # the header: names and scores
        while i < n and not lines[i].strip():
            i += 1
        if i >= n:
            raise MatImportError("line %d: game %d has no player header" % (i, number))
        h = _HEADER_RE.match(lines[i])
        if not h:
            raise MatImportError("line %d: game %d: cannot read the header %r (want 'name : score   name : score')"
                                 % (i + 1, number, lines[i].strip()))
        i += 1
        game = {"number": number, "names": (h.group(1), h.group(3)),
                "score": (int(h.group(2)), int(h.group(4))), "actions": [], "line": i, "opening": pending_opening,
                "timeout": pending_timeout}
        pending_opening = []
        pending_timeout = None
        move_number = 0
        while i < n and not lines[i].strip():
            i += 1
        while i < n and lines[i].strip() and not _GAME_RE.match(lines[i]):
            line = lines[i]
            i += 1
            lm = _LINE_RE.match(line)
            if lm:
                move_number = int(lm.group(1))
                rest = lm.group(2)
                offset = lm.start(2)
            else:
                rest = line
                offset = 0
            for column, cell in _split_cells(rest, i, move_number, offset):
                game["actions"].append(_Action(column, cell, move_number, i))
        games.append(game)
    if length is None:
        raise MatImportError("not a .mat file: no 'N point match' line")
    if length < 0 or length > 255:
        raise MatImportError("match length %d is out of range" % length)
    # names as written in "; [Player N ...]" comments, when they fit the game headers
    if games:
        names = list(games[0]["names"])
        for k in (0, 1):
            if full_names[k] and mat_name(full_names[k]) == names[k]:
                names[k] = full_names[k]
        for g in games:
            if tuple(g["names"]) == tuple(games[0]["names"]):
                g["names"] = tuple(names)
    # our own export's header (with or without the player tags of older exports) is no metadata
    if [h for h in header_lines if not re.match(r'^;\s*\[Player [12] "', h.strip())] == _DEFAULT_HEADER:
        header_lines = []
    return length, games, option_text, header_lines, fair


def _options_from(length, option_text, overrides):
    given = {}
    if option_text:
        for word in option_text.split():
            if "=" not in word:
                raise MatImportError("cannot read the Pipboard option %r" % word)
            name, value = word.split("=", 1)
            given[name] = True if value == "on" else False if value == "off" else (
                int(value) if value.lstrip("-").isdigit() else value)
    given["matchLength"] = length
    for name in overrides or {}:
        given[name] = overrides[name]
    try:
        return make_options(given)
    except ConfigError as exc:
        raise MatImportError("options: %s" % exc)


class _Where:
    def __init__(self, game, action):
        self.game = game
        self.action = action

    def __str__(self):
        if self.action is None:
            return "game %d" % self.game
        return "game %d, move %d (line %d: %r)" % (self.game, self.action.move_number, self.action.line_number,
                                                   self.action.text)


def import_mat(text, options=None, players=None):
    """Read ``.mat`` text into record bytes; returns ``(record_bytes, referee)``.

    ``options`` (a dict of RULES.md option names) adds what the format
    cannot say, e.g. ``{"jacoby": True}`` for a money session played with
    the Jacoby rule. Every action is checked; the first that is illegal or
    unreadable raises MatImportError naming the game, move and line.
    """
    length, games, option_text, header_lines, fair = _parse(text)
    opts = _options_from(length, option_text, options)
    if not games:
        raise MatImportError("the file has no games")
    names = players or games[0]["names"]
    out = _Buffer()
    writer = RecordWriter(out, "backgammon", header_lines)
    ref = Referee(opts, names, writer)
    if fair is not None:
        writer.fair(0, fair["commitment"])  # as the board wrote it: before the first game
    for g in games:
        if ref.phase == MATCH_ENDED:
            break  # gnubg ignores games after the match is won
        where = _Where(g["number"], None)
        if tuple(ref.match.score) != g["score"]:
            raise MatImportError("%s: the file gives the score %d-%d but the games before add up to %d-%d%s"
                                 % (where, g["score"][0], g["score"][1], ref.match.score[0], ref.match.score[1],
                                    _score_hint(opts)))
        if ref.phase != GAME_ENDED and ref.game_number:
            raise MatImportError("game %d: game %d before it has no result" % (g["number"], ref.game_number))
        ref.new_game()
        where.action = None
        try:
            for d0, d1 in g["opening"]:
                ref.opening_roll(d0, d1)
        except ValueError as exc:
            raise MatImportError("%s: opening roll: %s" % (where, exc))
        context = {"rolled": None, "timeout": g.get("timeout")}
        actions = g["actions"]
        for k in range(len(actions)):
            action = actions[k]
            context["next"] = actions[k + 1] if k + 1 < len(actions) else None
            where.action = action
            try:
                _apply_action(ref, action, opts, context)
            except MatImportError as exc:
                raise MatImportError("%s: %s" % (where, exc))
            except (CubeError, NotationError) as exc:
                raise MatImportError("%s: %s%s" % (where, exc, _cube_hint(exc, opts)))
            except ValueError as exc:
                raise MatImportError("%s: %s" % (where, exc))
        if context["rolled"] is not None and not ref.game_over():
            where.action = context["rolled"]
            raise MatImportError("%s: a roll without a play, and no resignation after it" % where)
    if fair is not None and fair["seed"]:
        writer.fair(1, fair["seed"])
    return out.getvalue(), ref


def _score_hint(opts):
    if not opts["matchLength"]:
        return " (was the Jacoby rule or were automatic doubles in use?)"
    return ""


def _cube_hint(exc, opts):
    text = str(exc)
    if "beavers are not allowed" in text:
        return " (import with the beavers option if the session allowed them)"
    if "raccoons are not allowed" in text:
        return " (import with the raccoons option if the session allowed them)"
    return ""


class _Buffer:
    def __init__(self):
        self.parts = []

    def write(self, data):
        self.parts.append(bytes(data))

    def getvalue(self):
        return b"".join(self.parts)


def _apply_action(ref, action, opts, context):
    text = action.text
    player = action.player
    low = text.lower()
    rolled = context["rolled"]
    if rolled is not None and not _WINS_RE.match(text) and not low.startswith("resign"):
        # gnubg writes "43: " alone when the player rolled and then resigned
        raise MatImportError("line %d has a roll without a play (%r), but no resignation follows it"
                             % (rolled.line_number, rolled.text))
    if ref.game_over():
        m = _WINS_RE.match(text)
        if not m:
            raise MatImportError("the game is already over")
        points = int(m.group(1))
        if points != ref.result.points or player != ref.result.winner:
            raise MatImportError("the file says %s wins %d points but the game gives player %d %d points%s"
                                 % ("left player" if player == 0 else "right player", points, ref.result.winner,
                                    ref.result.points, _score_hint(opts)))
        return
    if len(text) >= 3 and text[2] == ":" and text[:2].isdigit():
        d1, d2 = int(text[0]), int(text[1])
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MatImportError("dice %s are not two numbers from 1 to 6" % text[:2])
        moves = parse_play(text[3:].strip()) if text[3:].strip() else []
        if ref.phase == ANSWER and ref.cube.state in (BEAVERED, RACCOONED) and player == ref.turn:
            # gnubg writes no "Takes" after "Beavers => 4" (or a raccoon's "Beavers => 8"):
            # the doubler simply rolls. gnubg reads the roll as the take; so do we.
            ref.cube_action(TAKE)
        if ref.phase == OPENING:
            # the first roll of a game is the opening roll: one die each
            if d1 == d2:
                raise MatImportError("the first roll of a game cannot be a double (%d-%d)" % (d1, d2))
            die = [0, 0]
            die[player] = max(d1, d2)
            die[1 - player] = min(d1, d2)
            ref.opening_roll(die[0], die[1])
        elif ref.phase == PLAY and ref.move_number == 1:
            # the opening roll came from a "; [Pipboard opening ...]" comment: the dice must agree
            if sorted((d1, d2)) != sorted(ref.dice) or player != ref.turn:
                raise MatImportError("the first play's dice %d%d do not match the opening roll" % (d1, d2))
        else:
            ref.roll((d1, d2), player)
        if not moves:
            turn = ref.legal_turn()
            if context.get("timeout") == player and context.get("next") is not None and \
                    _WINS_RE.match(context["next"].text):
                context["rolled"] = action  # our own export: the roll after which this player's flag fell
            elif turn.dice_used and len(turn.plays) == 1:
                ref.play_code(turn, turn.plays[0])  # a forced play left out: gnubg plays it
            elif turn.dice_used:
                context["rolled"] = action  # rolled, then resigned (the "Wins" line follows)
            else:
                ref.play([], player)  # no legal move
            return
        _play_any_order(ref, moves, player)
        return
    if _DOUBLE_RE.match(text):
        if ref.phase == ANSWER:
            state = ref.cube.state
            if state == OFFERED:
                ref.cube_action(BEAVER, player)
            elif state == BEAVERED:
                ref.cube_action(RACCOON, player)
            else:
                raise CubeError("%r after a raccoon is an otter (a third immediate redouble, which gnubg allows "
                                "with 'set beavers 3'): RULES.md 2.6.3 supports beavers and raccoons only"
                                % text)
        else:
            ref.cube_action(OFFER, player)
        return
    if low.startswith("take") or low.startswith("accept"):
        ref.cube_action(TAKE, player)
        return
    if low.startswith("drop") or low.startswith("pass") or low.startswith("refuse"):
        ref.cube_action(DROP, player)
        return
    m = _WINS_RE.match(text)
    if m and context.get("timeout") == 1 - player:
        # a "; [Pipboard timeout ...]" game: the other player's clock ran out
        context["rolled"] = None
        result = ref.lose_on_time(1 - player)
        if result.points != int(m.group(1)):
            raise MatImportError("a loss on time gives %d points here, not %s" % (result.points, m.group(1)))
        return
    if m:
        # the game is not over: the other player resigned
        points = int(m.group(1))
        value = ref.cube.value
        kind = points // value
        kind = 1 if kind < 1 else (3 if kind > 3 else kind)
        context["rolled"] = None
        result = ref.resign(1 - player, kind)
        if result.points != points:
            raise MatImportError("a resignation worth %d points does not fit cube value %d" % (points, value))
        return
    if low.startswith("resign"):
        return  # some programs write "Resigns" before the "Wins" line
    raise MatImportError("cannot read %r" % text)


def _play_any_order(ref, moves, player):
    """Play ``moves``; some writers list a play's moves in an order that cannot be played as written."""
    try:
        ref.play(moves, player)
        return
    except ValueError as first:
        if len(moves) < 2:
            raise
        error = first
    for order in _permutations(moves):
        try:
            ref.play(order, player)
            return
        except ValueError:
            continue
    raise error


def _permutations(items):
    if len(items) <= 1:
        yield list(items)
        return
    for i in range(len(items)):
        for rest in _permutations(items[:i] + items[i + 1:]):
            yield [items[i]] + rest


def import_to_record(text, options=None):
    """``.mat`` text to a decoded Record (convenience for tools and tests)."""
    data, _ = import_mat(text, options)
    return read_record(data)



# ---------------------------------------------------------------------------
# command line: pipboard export RECORD / pipboard import FILE.mat
# ---------------------------------------------------------------------------
def _write_text(path, text):
    import sys

    if path in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(path, "w", newline="\n") as f:
            f.write(text)


def run_export(record_path, output="-"):
    """``pipboard export RECORD [-o FILE.mat | FILE.sgf]``; returns the exit status (SGF by extension)."""
    import sys

    try:
        with open(record_path, "rb") as f:
            data = f.read()
        record = read_record(data)
        if str(output).lower().endswith(".sgf"):
            from pipboard.sgffile import export_sgf

            text = export_sgf(record)
        else:
            text = export_mat(record)
    except OSError as exc:
        sys.stderr.write("pipboard export: cannot read %s: %s\n" % (record_path, exc.strerror or exc))
        return 1
    except ValueError as exc:  # RecordError, MatExportError, SgfExportError
        sys.stderr.write("pipboard export: %s: %s\n" % (record_path, exc))
        return 1
    if record.torn:
        sys.stderr.write("pipboard export: note: the record's last entry was cut short (a power cut?) and is "
                         "left out\n")
    for warning in export_warnings(record.options) + _cube_warnings(record):
        sys.stderr.write("pipboard export: warning: %s\n" % warning)
    try:
        _write_text(output, text)
    except OSError as exc:
        sys.stderr.write("pipboard export: cannot write %s: %s\n" % (output, exc.strerror or exc))
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
    try:
        with open(output, "wb") as f:
            f.write(data)
    except OSError as exc:
        sys.stderr.write("pipboard import: cannot write %s: %s\n" % (output, exc.strerror or exc))
        return 1
    length = ref.match.length
    what = "%d-point match" % length if length else "money session"
    sys.stdout.write("%s: %s, %d game%s, %s %d - %s %d%s -> %s\n" % (
        args.matfile, what, ref.game_number, "" if ref.game_number == 1 else "s", ref.players[0],
        ref.match.score[0], ref.players[1], ref.match.score[1],
        " (match won)" if ref.match.is_over() else "", output))
    return 0
