"""``pipboard rules``: legal plays as JSON lines.

Each input line is a JSON object; each gets exactly one output line::

    {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}
    -> {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "plays": ["...", ...]}

``plays`` are the distinct legal resulting positions as Position IDs in the
input's orientation (the player who moved is still the one "on roll"),
sorted. A bad line gets ``{"error": "..."}`` and processing continues.

Optional keys: ``"variant": "backgammon" | "nardy"`` (long nardy positions
use the same Position ID container, see docs/positions.md), ``"first_turn":
true`` (the mover's first turn: long nardy's head-rule exceptions) and
``"options": {...}`` with RULES.md's option names (``caucasian``,
``caucasianScope``, ``jailBearOff``, ``lnBlockCheck``, ...).
"""

import json

from pipcore.position import decode_position_id
from pipcore.variants import geometry, make_turn

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
    variant = request.get("variant", "backgammon")
    if variant not in ("backgammon", "nardy"):
        raise RequestError("'variant' must be \"backgammon\" or \"nardy\"")
    first_turn = request.get("first_turn", False)
    if type(first_turn) is not bool:
        raise RequestError("'first_turn' must be true or false")
    options = request.get("options", {})
    if not isinstance(options, dict):
        raise RequestError("'options' must be an object of RULES.md option names")
    position = decode_position_id(request["position_id"])
    position.validate(geometry(variant))
    turn = make_turn(position, dice, variant, options, first_turn)
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
