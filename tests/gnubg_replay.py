"""Drive the real GNU Backgammon in batch mode: import .mat files, dump what it read.

``gnubg_read(jobs)`` runs one ``gnubg -t -q -p script.py`` process for many
files (starting gnubg costs ~0.3 s) and returns, per file, gnubg's own view
of the match: every game's start score, winner, points, and every action
with its dice, move and the board (Position ID) before it.

``expected_from_record(record)`` computes the same view from our record with
our rules, so a test can compare the two game by game.
"""

import json
import os
import subprocess
import tempfile

from pipcore.cube import BEAVER, DROP, OFFER, RACCOON, TAKE
from pipcore.match import PLAY, Referee
from pipcore.position import Position
from pipcore.record import apply_entry
from pipcore.rules import apply_move

GNUBG = "/usr/games/gnubg"

_SCRIPT = r'''
import json
import gnubg

def plain(x):
    if isinstance(x, (list, tuple)):
        return [plain(i) for i in x]
    if isinstance(x, dict):
        return dict((k, plain(v)) for k, v in x.items())
    return x

jobs = json.load(open(%(jobs)r))
results = []
for job in jobs:
    try:
        for c in job.get("commands", []):
            gnubg.command(c)
        gnubg.command('%%s "%%s"' %% (job["load"], job["path"]))
        m = gnubg.match()
        ids = []
        for get in (gnubg.matchid, gnubg.positionid):
            try:
                ids.append(get())
            except ValueError:  # "no current position available": gnubg 1.07's Python API after loading an
                ids.append(None)  # SGF match whose last game ends with a resignation by the player on roll
        results.append({"path": job["path"], "match": plain(m), "matchid": ids[0], "positionid": ids[1]})
    except Exception as exc:
        results.append({"path": job["path"], "error": "%%s: %%s" %% (type(exc).__name__, exc)})
json.dump(results, open(%(out)r, "w"))
'''

BASE_COMMANDS = ["set confirm new off", "set confirm save off"]


def gnubg_available():
    return os.path.exists(GNUBG)


def gnubg_read(jobs, timeout=600):
    """``jobs``: list of ``{"path": FILE, "commands": [...], "load": "import mat"}``; gnubg's dumps in order.

    ``load`` is the gnubg command that reads the file: ``import mat`` (default)
    or ``load match`` (gnubg's SGF).
    """
    with tempfile.TemporaryDirectory() as tmp:
        jobs_path = os.path.join(tmp, "jobs.json")
        out_path = os.path.join(tmp, "out.json")
        script = os.path.join(tmp, "read.py")
        full = [{"path": j["path"], "commands": BASE_COMMANDS + list(j.get("commands", [])),
                 "load": j.get("load", "import mat")} for j in jobs]
        with open(jobs_path, "w") as f:
            json.dump(full, f)
        with open(script, "w") as f:
            f.write(_SCRIPT % {"jobs": jobs_path, "out": out_path})
        proc = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        if not os.path.exists(out_path):
            raise RuntimeError("gnubg wrote no results: %s" % (proc.stdout[-2000:] + proc.stderr[-2000:]))
        with open(out_path) as f:
            return json.load(f)


def commands_for(options):
    """gnubg settings matching our options, for what the .mat format does not carry."""
    cmds = ["set jacoby %s" % ("on" if options["jacoby"] else "off")]
    if options["raccoons"]:
        cmds.append("set beavers 2")
    elif options["beavers"]:
        cmds.append("set beavers 1")
    else:
        cmds.append("set beavers 0")
    return cmds


_CUBE_NAMES = {OFFER: "double", BEAVER: "double", RACCOON: "double", TAKE: "take", DROP: "drop"}
_SIDE = ("X", "O")  # gnubg calls the left (first) player of a .mat file X


def expected_from_record(record):
    """Our view of a record in gnubg's terms: a list of games, each a dict."""
    ref = Referee(record.options, record.players)
    games = []
    game = None
    for entry in record.entries:
        kind = entry[0]
        if kind == "game":
            game = {"score": list(ref.match.score), "actions": []}
            games.append(game)
        elif kind == "play":
            game["actions"].append({"player": _SIDE[entry[1]], "action": "move",
                                    "dice": sorted(ref.dice), "board": ref.position.position_id(),
                                    "move": sorted([list(st) for st in entry[2]])})
        elif kind == "cube":
            game["actions"].append({"player": _SIDE[entry[1]], "action": _CUBE_NAMES[entry[2]]})
        elif kind in ("resign", "timeout"):  # gnubg reads a loss on time as a resignation (docs/mat-format.md)
            if ref.phase == PLAY:
                # rolled, then resigned: gnubg keeps the roll as a "set dice" record
                game["actions"].append({"player": _SIDE[ref.turn], "action": "set"})
            game["actions"].append({"player": _SIDE[entry[1]], "action": "resign"})
        apply_entry(ref, entry)
        if ref.game_over() and "winner" not in game:
            r = ref.result
            game["winner"] = _SIDE[r.winner]
            game["points"] = r.points
            game["resigned"] = r.resigned or kind == "timeout"
            pos = ref.position
            game["final"] = pos.position_id() if ref.turn == 0 else pos.swapped().position_id()
    return games


def gnubg_view(dump):
    """gnubg's dump of one match in the same terms as ``expected_from_record``."""
    games = []
    for g in dump["match"]["games"]:
        info = g["info"]
        game = {"score": [info["score-X"], info["score-O"]], "actions": []}
        board = None
        mover = None
        last_move = None
        doubles = 0
        skip_next_double = False
        for a in g["game"]:
            if a["action"] == "double" and skip_next_double:
                # gnubg's match() lists a beavered cube's double once more after the take
                skip_next_double = False
                continue
            skip_next_double = a["action"] == "take" and doubles >= 2
            doubles = doubles + 1 if a["action"] == "double" else 0
            act = {"player": a["player"], "action": a["action"]}
            if a["action"] == "move":
                act["dice"] = sorted(a["dice"])
                act["board"] = a["board"]
                act["move"] = sorted([list(st) for st in a["move"]])
                board, mover, last_move = a["board"], a["player"], a["move"]
            game["actions"].append(act)
        if info.get("winner") is not None:
            game["winner"] = info["winner"]
            game["points"] = info["points-won"]
            game["resigned"] = bool(info.get("resigned"))
        if board is not None:
            pos = Position.from_id(board)
            try:
                for s, t in last_move:
                    apply_move(pos, s, t)
            except ValueError:
                game["final"] = "gnubg's last move %r does not fit its board %s" % (last_move, board)
                games.append(game)
                continue
            # seen from player 0 (X), like expected_from_record
            game["final"] = pos.position_id() if mover == "X" else pos.swapped().position_id()
        games.append(game)
    return games
