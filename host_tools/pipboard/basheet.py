"""Back Alley score sheets: a game as players write it down (plain text), and as JSON.

A sheet is made from a scorekeeper state (``pipcore.bascore.ScoreKeeper``:
what the board's scorekeeper mode keeps and saves) or from a played game
(``pipcore.backalley.Game``: ``pipboard backalley``, the simulator's page),
which is first turned into the keys a scorekeeper would have been given.

``pipboard export FILE`` writes the sheet of FILE: a scorekeeper save (its
JSON snapshot), a JSON sheet written earlier (it carries that snapshot) or a
Back Alley game record (``backalley 1``, as ``Game.record()`` writes it);
``-o NAME.json`` writes JSON, any other name (or ``-``) the text.
"""

import json
import sys

from pipcore.backalley import (
    BOARD,
    DEALS,
    EW,
    FINISHED,
    NO_TRUMP,
    NS,
    RECORD_HEADER,
    SEAT_NAMES,
    SUIT_SYMBOLS,
    TEAM_NAMES,
    TIE,
    BackAlleyError,
    Game,
    call_text,
)
from pipcore.bascore import ScoreKeeper, board_folds, call_short, trump_name

SHEET_FORMAT = "pipboard backalley score sheet"
SHEET_VERSION = 1


class SheetError(ValueError):
    """A file that holds no Back Alley game; the message says what it is instead."""


# -- from a played game -------------------------------------------------------------
def keeper_from_game(game, names=None):
    """The scorekeeper a table would have keyed for ``game`` (trump, calls, each seat's tricks)."""
    keeper = ScoreKeeper(game.first_dealer, names)
    shadow = Game(first_dealer=game.first_dealer)
    for action in game.actions():
        if action[0] == "deal":
            deal = shadow.deal(action[1])
            keeper.key_trump(deal.trump)
        elif action[0] == "bid":
            shadow.bid(action[1], action[2])
            keeper.key_call(action[2])
        else:
            deal = shadow.current
            shadow.play(action[1], action[2])
            if deal.phase == FINISHED:
                for i in range(4):
                    keeper.key_tricks(deal.taken[(deal.first_bidder + i) % 4])
    return keeper


# -- reading files ------------------------------------------------------------------
def load(text, names=None):
    """The ScoreKeeper of a scorekeeper save, a JSON sheet or a game record (text); SheetError otherwise."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SheetError("not valid JSON: %s" % exc) from None
        if isinstance(data, dict) and data.get("format") == SHEET_FORMAT:
            data = data.get("state")
        try:
            return ScoreKeeper.restore(data)
        except BackAlleyError as exc:
            raise SheetError(str(exc)) from None
    if stripped.startswith(RECORD_HEADER):
        try:
            game = Game.from_record(text)
        except BackAlleyError as exc:
            raise SheetError("the game record is refused: %s" % exc) from None
        return keeper_from_game(game, names)
    raise SheetError("not a Back Alley game: expected a scorekeeper save (JSON) or a game record "
                     "starting with %r" % RECORD_HEADER)


# -- the text sheet -----------------------------------------------------------------
def _trump_short(trump):
    return "NT" if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


def _contract_short(contract):
    if contract.board:
        return "B" if contract.board == 1 else "B%d" % contract.board
    return str(contract.tricks) if contract.tricks else "-"


def _cell(text, width):
    return text[:width].ljust(width)


def sheet_text(keeper):
    """The score sheet as players write it: a line a deal, calls and tricks per seat, team points and totals."""
    names = keeper.names
    short = [n[:7] for n in names]
    out = ["Back Alley score sheet",
           "NS: %s and %s    EW: %s and %s    first dealer: %s" % (names[0], names[2], names[1], names[3],
                                                                    names[keeper.first_dealer]),
           ""]
    seats = " ".join(_cell(s, 7) for s in short)
    teams = " | ".join("%7s %4s %6s %5s" % (team + " bid", "took", "points", "total") for team in ("NS", "EW"))
    out.append("Deal Cards Dealer  Trump | %s | %s" % (seats, teams))
    out.append("-" * len(out[-1]))
    for row in keeper.rows:
        folds = board_folds(row.calls)
        cells = []
        for seat in range(4):
            i = (seat - row.dealer - 1) % 4
            text = call_short(row.calls[i], folds[i])
            if not row.redeal:
                text += "/%d" % row.taken[seat]
                if seat == row.leader:
                    text += "*"
            cells.append(_cell(text, 7))
        head = "%4s %5d %-7s %-5s | %s |" % ("-" if row.redeal else row.number, row.hand_size,
                                            short[row.dealer], _trump_short(row.trump), " ".join(cells))
        if row.redeal:
            out.append(head + "  all four passed: %s deals again" % names[(row.dealer + 1) % 4])
            continue
        teams = []
        for team in (NS, EW):
            took = row.taken[team] + row.taken[team + 2]
            teams.append("%7s %4d %+6d %5d" % (_contract_short(row.contracts[team]), took, row.points[team],
                                               row.totals[team]))
        out.append(head + " " + " | ".join(teams))
    out.append("")
    out.append("call/tricks for each seat; * led the first trick; P pass, B board (B2 the second board of the "
               "deal: double); - a team that passed")
    s = keeper.scores
    if keeper.is_over():
        w = keeper.winner()
        if w == TIE:
            out.append("Final: NS %d, EW %d: a tie." % (s[NS], s[EW]))
        else:
            out.append("Final: NS %d, EW %d: %s and %s win." % (s[NS], s[EW], names[w], names[w + 2]))
    else:
        out.append("After %d of %d deals: NS %d, EW %d. The game goes on: deal %d, %d card%s, dealer %s."
                   % (keeper.number - 1, DEALS, s[NS], s[EW], keeper.number, keeper.hand_size,
                      "" if keeper.hand_size == 1 else "s", names[keeper.dealer]))
    return "\n".join(out) + "\n"


# -- the JSON sheet -----------------------------------------------------------------
def sheet_json(keeper):
    """The score sheet as a JSON-ready dict (it carries the scorekeeper state, so ``load`` reads it back)."""
    names = keeper.names
    deals = []
    for row in keeper.rows:
        folds = board_folds(row.calls)
        order = [SEAT_NAMES[(row.dealer + 1 + i) % 4] for i in range(4)]
        entry = {
            "deal": row.number,
            "counted": not row.redeal,
            "cards": row.hand_size,
            "dealer": SEAT_NAMES[row.dealer],
            "trump": trump_name(row.trump),
            "call_order": order,
            "calls": dict((order[i], call_text(row.calls[i])) for i in range(4)),
            "boards": dict((order[i], folds[i]) for i in range(4) if row.calls[i] == BOARD),
        }
        if not row.redeal:
            entry["leader"] = SEAT_NAMES[row.leader]
            entry["tricks"] = dict((SEAT_NAMES[seat], row.taken[seat]) for seat in range(4))
            for team in (NS, EW):
                c = row.contracts[team]
                entry[TEAM_NAMES[team]] = {
                    "contract": "board x%d" % c.board if c.board else str(c.tricks) if c.tricks else "pass",
                    "tricks": row.taken[team] + row.taken[team + 2],
                    "points": row.points[team],
                    "total": row.totals[team],
                }
        deals.append(entry)
    over = keeper.is_over()
    winner = None
    if over:
        w = keeper.winner()
        winner = "tie" if w == TIE else TEAM_NAMES[w]
    return {
        "format": SHEET_FORMAT,
        "version": SHEET_VERSION,
        "seats": dict((SEAT_NAMES[seat], names[seat]) for seat in range(4)),
        "teams": {"NS": [names[0], names[2]], "EW": [names[1], names[3]]},
        "first_dealer": SEAT_NAMES[keeper.first_dealer],
        "deals": deals,
        "redeals": keeper.redeals,
        "totals": {"NS": keeper.scores[NS], "EW": keeper.scores[EW]},
        "finished": over,
        "winner": winner,
        "next": None if over else {"deal": keeper.number, "cards": keeper.hand_size,
                                   "dealer": SEAT_NAMES[keeper.dealer]},
        "state": keeper.snapshot(),
    }


def sheet_for(keeper, name):
    """The sheet as the file ``name`` wants it: JSON for ``*.json``, else the text."""
    if name.lower().endswith(".json"):
        return json.dumps(sheet_json(keeper), indent=1, ensure_ascii=False) + "\n"
    return sheet_text(keeper)


def write_sheet(keeper, name, out=None):
    """Write the sheet to the file ``name`` (``-``: ``out``, standard output by default)."""
    text = sheet_for(keeper, name)
    if name == "-":
        (out or sys.stdout).write(text)
    else:
        from pipboard.files import write_file

        write_file(name, text)


def run_export(path, output, out=None, err=None):
    """``pipboard export FILE -o OUT`` for a Back Alley file; 0 on success, 1 with a message otherwise."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        err.write("pipboard export: cannot read %s: %s\n" % (path, getattr(exc, "strerror", None) or exc))
        return 1
    try:
        keeper = load(text)
    except SheetError as exc:
        err.write("pipboard export: %s: %s\n" % (path, exc))
        return 1
    try:
        write_sheet(keeper, output, out)
    except OSError as exc:
        err.write("pipboard export: cannot write %s: %s\n" % (output, exc.strerror or exc))
        return 1
    if output != "-":
        err.write("wrote the score sheet of %s to %s\n" % (path, output))
    return 0


def is_backalley_file(path):
    """True if ``path`` starts like a Back Alley record or a scorekeeper save/sheet (so export routes it here)."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(400).lstrip()
    except (OSError, UnicodeDecodeError):
        return False
    return head.startswith(RECORD_HEADER) or (head.startswith("{") and ('"backalley"' in head or SHEET_FORMAT in head))

