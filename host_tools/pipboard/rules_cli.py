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

With ``"match_id"`` (gnubg Match ID) the answer is given in a full match
context: the cube (value, owner, whether the player may double and why not),
the cube actions allowed now, and the plays when the dice are known (from
``dice`` or the Match ID). With ``"action"`` (``double``, ``take``, ``drop``,
``beaver``, ``raccoon``) the action is checked and the Match ID after it is
returned. See docs/rules-cli.md.
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
    if "match_id" in request or "action" in request:
        return answer_in_match(request)
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


# -- match context: "match_id" and cube actions (docs/rules-cli.md) --------------
def answer_in_match(request):
    """Answer a request that carries a Match ID (and maybe a cube action)."""
    from pipcore.cube import ACTION_NAMES, ACTIONS, CENTRE
    from pipcore.matchdecode import cube_of, state_after
    from pipcore.matchid import GAME_PLAYING, MatchState
    from pipcore.options import make_options

    if "match_id" not in request:
        raise RequestError("a cube 'action' needs the 'match_id' it applies to")
    if not isinstance(request["match_id"], str):
        raise RequestError("'match_id' must be a string of 12 characters")
    state = MatchState.decode(request["match_id"])
    given = request.get("options", {})
    if not isinstance(given, dict):
        raise RequestError("'options' must be an object of RULES.md option names")
    if "matchLength" in given and given["matchLength"] != state.length:
        raise RequestError("options say matchLength %r but the Match ID says %d" % (given["matchLength"],
                                                                                    state.length))
    given = dict(given)
    given["matchLength"] = state.length
    if not state.length and "jacoby" not in given:
        given["jacoby"] = state.jacoby
    options = make_options(given)
    cube = cube_of(state, options)
    out = {"position_id": request["position_id"], "match_id": request["match_id"]}
    if "action" in request:
        name = request["action"]
        if name not in ACTIONS:
            raise RequestError("'action' must be one of %s" % ", ".join(sorted(ACTIONS)))
        player = request.get("player")
        if player is not None and player not in (0, 1):
            raise RequestError("'player' must be 0 or 1")
        new_state, dropped = state_after(state, cube, ACTIONS[name], player)
        out["action"] = name
        out["match_id_after"] = new_state.encode()
        if dropped is not None:
            out["result"] = {"winner": dropped[0], "points": dropped[1]}
        return out
    playing = state.game_state == GAME_PLAYING
    out["cube"] = {"value": cube.value, "owner": "centre" if cube.owner == CENTRE else cube.owner,
                   "crawford": bool(state.crawford)}
    actions = []
    if playing and state.doubled:
        actions = [ACTION_NAMES[a] for a in cube.answers()]
    elif playing and not state.dice[0]:
        reason = cube.offer_error(state.on_roll)
        out["cube"]["may_double"] = reason is None
        if reason:
            out["cube"]["no_double"] = reason
        else:
            actions = ["double"]
    out["cube_actions"] = actions
    dice = request.get("dice")
    if dice is None and playing and state.dice[0]:
        dice = [state.dice[0], state.dice[1]]
    if dice is not None:
        inner = dict(request)
        for key in ("match_id", "action", "player"):
            inner.pop(key, None)
        inner["dice"] = dice
        inner["options"] = {k: v for k, v in options.items() if k in request.get("options", {})}
        plays = answer(inner)
        out["dice"] = plays["dice"]
        out["plays"] = plays["plays"]
    return out
