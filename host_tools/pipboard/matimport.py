"""Reading ``.mat`` files (gnubg, Jellyfish and others) into Pipboard records: ``import_mat``.

Every roll, play and cube action is checked against our rules; the first entry that is illegal
or unreadable is named with its line. The writing side and the format's notes: ``pipboard.matfile``.
"""

import re

from pipcore.cube import BEAVER, BEAVERED, DROP, OFFER, OFFERED, RACCOON, RACCOONED, TAKE, CubeError
from pipcore.match import ANSWER, GAME_ENDED, MATCH_ENDED, OPENING, PLAY, Referee
from pipcore.notation import NotationError, parse_play
from pipcore.options import ConfigError, make_options
from pipcore.record import RecordWriter, read_record

from pipboard.matfile import (_DEFAULT_HEADER, _DICE_TAG, _OPENING_TAG, _OPTIONS_TAG, _TIMEOUT_TAG,
                              MatImportError, mat_name)


_MATCH_RE = re.compile(r"^\s*(\d+)\s+point\s+match", re.I)
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)\s*$", re.I)
# a game's header, read as gnubg reads it: the first name up to the first colon, its score, then the second
# name and score; gnubg 1.07 writes no space before the second name when the first fills its 31 characters
# (" Maximilian Alexander von Hohenz : 0Bob : 0")
_HEADER_RE = re.compile(r"^\s*([^:]+?)\s*:\s*(-?\d+)\s*(\S.*?)\s*:\s*(-?\d+)\s*$")
_GAME_TAG_RE = re.compile(r'^;\s*\[Pipboard (?:opening|timeout) (?:(\d+) )?"([^"]*)"\]')
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
    openings = {}  # game number -> its opening rolls, from the block after the match line
    timeouts = {}  # game number -> the player who lost it on time
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
            full_names[int(pm.group(1)) - 1] = pm.group(2).replace("\t", " ")  # (matfile.tag_text)
            continue
        if stripped.startswith(_OPENING_TAG.strip()):
            number, text = _game_tag(stripped, i)
            rolls = []
            for word in text.split():
                dm = re.match(r"^([1-6])-([1-6])$", word)
                if not dm:
                    raise MatImportError("line %d: %r is not an opening roll (die-die)" % (i, word))
                rolls.append((int(dm.group(1)), int(dm.group(2))))
            if number is None:
                pending_opening = rolls  # (files before 0.x: the comment stood before its game)
            else:
                openings[number] = rolls
            continue
        if stripped.startswith(_TIMEOUT_TAG.strip()):
            number, text = _game_tag(stripped, i)
            m = re.match(r"^player ([12]) lost on time$", text)
            if not m:
                raise MatImportError("line %d: cannot read %r (want 'player 1|2 lost on time')" % (i, stripped))
            if number is None:
                pending_timeout = int(m.group(1)) - 1
            else:
                timeouts[number] = int(m.group(1)) - 1
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
                "score": (int(h.group(2)), int(h.group(4))), "actions": [], "line": i,
                "opening": openings.pop(number, pending_opening), "timeout": timeouts.pop(number, pending_timeout)}
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


def _game_tag(line, number):
    """``(game number or None, text)`` of a ``; [Pipboard opening|timeout ...]`` comment at line ``number``."""
    m = _GAME_TAG_RE.match(line)
    if not m:
        raise MatImportError("line %d: cannot read %r" % (number, line))
    return (int(m.group(1)) if m.group(1) else None), m.group(2)


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
