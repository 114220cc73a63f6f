"""``pipboard rules``: legal plays as JSON lines.

Each input line is a JSON object; each gets exactly one output line::

    {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}
    -> {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "plays": ["...", ...]}

``plays`` are the distinct legal resulting positions as Position IDs in the
input's orientation (the player who moved is still the one "on roll"),
sorted. A bad line gets ``{"error": "..."}`` and processing continues.
"""

import json

from pipcore.position import Position
from pipcore.rules import Turn

MAX_LINE = 64 * 1024


class RequestError(ValueError):
    """A request line that cannot be answered."""


def answer(request):
    """Answer one decoded request (a dict); raises ValueError subclasses."""
    if not isinstance(request, dict):
        raise RequestError("each line must be a JSON object")
    if "position_id" not in request:
        raise RequestError("missing 'position_id'")
    if "dice" not in request:
        raise RequestError("missing 'dice'")
    dice = request["dice"]
    if not isinstance(dice, list) or len(dice) != 2 or not all(type(d) is int for d in dice):
        raise RequestError("'dice' must be a list of two integers from 1 to 6")
    position = Position.from_id(request["position_id"])
    turn = Turn(position, dice)
    if turn.dice_used:
        plays = sorted(set(p.position_id() for p in turn.results()))
    else:
        plays = []  # nothing can be played (gnubg lists no move)
    return {"position_id": request["position_id"], "dice": dice, "plays": plays}


def handle_line(line):
    """One input line to one output dict (never raises for bad input)."""
    if len(line) > MAX_LINE:
        return {"error": "line longer than %d bytes" % MAX_LINE}
    try:
        request = json.loads(line)
    except ValueError as exc:
        return {"error": "not JSON: %s" % exc}
    except RecursionError:
        return {"error": "not JSON: nested too deeply"}
    try:
        return answer(request)
    except ValueError as exc:
        return {"error": str(exc)}


def run(stdin, stdout):
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(json.dumps(handle_line(line)) + "\n")
        stdout.flush()
    return 0
