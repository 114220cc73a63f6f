"""The protocol's less frequent commands, loaded at their first use (``ProtocolHandler.command``).

The match directory (``record``, ``matches``, ``exported``, ``delete_match``, ``set_time``: a sync or an
export), test mode (``set_dice``, ``inject``, ``advance``, ``reset``), a remote match's dice and the
self-test. A host that only mirrors a game never loads them: the board keeps their code (~3 KB on the
Pico) out of its heap. Each takes the handler and the decoded frame and returns the reply's fields, as the
handler's own ``_cmd_NAME`` methods do (docs/protocol.md).
"""

try:
    from binascii import b2a_base64
except ImportError:  # older MicroPython
    from ubinascii import b2a_base64

from pipcore.protocol import (E_BAD_ARGS, INJECT_KINDS, MATCHES_PAGE, MAX_ADVANCE_MS, RECORD_CHUNK,
                              RESET_KINDS, SELF_TEST_ACTIONS, INJECT_VALUES, ProtocolError, type_name)


def record(handler, msg):
    offset = msg.get("offset", 0)
    if offset < 0:
        raise ProtocolError(E_BAD_ARGS, "record: offset must be >= 0")
    match = msg.get("match")
    page = getattr(handler.app, "record_page", None)
    if page is not None:
        total, data = page(match, offset, RECORD_CHUNK)
    elif match is not None:
        raise ValueError("this board keeps no directory of matches")
    else:  # an app without pages (the whole record in RAM)
        whole = handler.app.record_bytes()
        total = len(whole)
        data = whole[offset:offset + RECORD_CHUNK]
    if offset > total:
        raise ProtocolError(E_BAD_ARGS, "record: offset %d is past the end (%d bytes)" % (offset, total))
    end = offset + len(data)
    chunk = b2a_base64(data).decode().strip()
    reply = {"offset": offset, "total": total, "next": end if end < total else None, "data": chunk}
    if match is not None:
        reply["match"] = match
    return reply


def _store(handler, name):
    fn = getattr(handler.app, name, None)
    if fn is None:
        raise ValueError("this board keeps no directory of matches")
    return fn


def matches(handler, msg):
    start = msg.get("start", 0)
    entries, after = _store(handler, "matches")(start, MATCHES_PAGE)
    storage = getattr(handler.app, "storage", None)
    return {"matches": entries, "next": after, "storage": storage() if storage is not None else None}


def exported(handler, msg):
    if msg["length"] < 0:
        raise ProtocolError(E_BAD_ARGS, "exported: length must be >= 0")
    _store(handler, "mark_exported")(msg["match"], msg["length"])


def delete_match(handler, msg):
    _store(handler, "delete_match")(msg["match"])


def set_time(handler, msg):
    if msg["time"] < 0:
        raise ProtocolError(E_BAD_ARGS, "set_time: time is seconds since 1970 (UTC), >= 0")
    _store(handler, "set_time")(msg["time"])
    return {"time": msg["time"]}


def set_dice(handler, msg):
    from pipcore.rules import check_dice

    dice = msg["dice"]
    if len(dice) != 2 or type_name(dice[0]) != "int" or type_name(dice[1]) != "int":
        raise ProtocolError(E_BAD_ARGS, "set_dice: dice must be two integers from 1 to 6")
    check_dice(dice)
    handler.app.set_dice((dice[0], dice[1]))
    return None


def remote_dice(handler, msg):
    from pipcore.rules import check_dice

    dice = msg["dice"]
    if len(dice) != 2 or type_name(dice[0]) != "int" or type_name(dice[1]) != "int":
        raise ProtocolError(E_BAD_ARGS, "remote_dice: dice must be two integers from 1 to 6")
    commitment = msg["commitment"]
    if not 16 <= len(commitment) <= 64:
        raise ProtocolError(E_BAD_ARGS, "remote_dice: commitment must be 16 to 64 characters")
    if msg["roll"] < 1:
        raise ProtocolError(E_BAD_ARGS, "remote_dice: roll must be >= 1")
    check_dice(dice)
    handler.app.remote_dice((dice[0], dice[1]), commitment, msg["roll"])
    return None


def advance(handler, msg):
    ms = msg["ms"]
    if not 1 <= ms <= MAX_ADVANCE_MS:
        raise ProtocolError(E_BAD_ARGS, "advance: ms must be 1..%d" % MAX_ADVANCE_MS)
    handler.app.advance(ms)
    return None


def reset(handler, msg):
    how = msg.get("how", "power")
    if how not in RESET_KINDS:
        raise ProtocolError(E_BAD_ARGS, "reset: how must be one of %s" % ", ".join(RESET_KINDS))
    if not handler.can_reset:
        raise ValueError("this board cannot be reset by the host")
    handler.reset_requested = how
    return {"reset": how}


def inject(handler, msg):
    kind = msg["kind"]
    if kind not in INJECT_KINDS:
        raise ProtocolError(E_BAD_ARGS, "inject: kind must be one of %s" % ", ".join(INJECT_KINDS))
    low, top = INJECT_VALUES[INJECT_KINDS.index(kind)]
    if not low <= msg["value"] <= top:
        raise ProtocolError(E_BAD_ARGS, "inject: value must be %d..%d for a %s" % (low, top, kind))
    if msg["index"] < 0:
        raise ProtocolError(E_BAD_ARGS, "inject: index must be >= 0")
    player = msg.get("player")
    if player is None:
        handler.app.inject(kind, msg["index"], msg["value"])
        return None
    if kind != "button" or player not in (0, 1):
        raise ProtocolError(E_BAD_ARGS, "inject: player (0 white, 1 black) goes with a button only")
    handler.app.inject(kind, msg["index"], msg["value"], player)
    return None


def self_test(handler, msg):
    action = msg.get("action", "start")
    if action not in SELF_TEST_ACTIONS:
        raise ProtocolError(E_BAD_ARGS, "self_test: action must be one of %s" % ", ".join(SELF_TEST_ACTIONS))
    run = getattr(handler.app, "self_test", None)
    if run is None:
        raise ValueError("this board has no self-test")
    return {"self_test": run(action), "snapshot": handler.snapshot()}
