"""Names and event fields that reach a file or a topic: one rule for all of them, and the checks of a pairing.

``clean_field`` is the rule: every control character (C0 and C1 controls, DEL, Unicode format
characters such as bidi overrides, line and paragraph separators) becomes a space, the outer spaces
go, and the text is cut to its field's length. A newline in a player's name therefore cannot add a
line to a ``.mat`` file, a header comment or a log, whoever typed it. The exporters
(``pipboard.matfile``, ``pipboard.sgffile``), the room (pairings, events, rounds: ``pipboard.room``)
and remote play (salts: ``pipboard.remote``) all use it.

``check_pairing``, ``check_round`` and ``check_salt`` refuse what the docs do not allow (docs/room.md),
with a message that says what is wanted; they raise ``FieldError``.
"""

import re
import unicodedata

NAME_MAX = 60  # a player's name
EVENT_MAX = 80  # an event's name
ROUND_MAX = 20  # a round ("3", "Final", "Semi-final 2")
ROUND_TOP = 999  # the highest round number
_CONTROL = ("Cc", "Cf", "Cs", "Zl", "Zp")
_NUMBER = re.compile(r"^[+-]?\d+$")
_SALT = re.compile(r"^[0-9a-fA-F]{32}$")


class FieldError(ValueError):
    """A name, round, pairing or salt that is refused; the message says what is wanted."""


def clean_field(value, limit):
    """``value`` (any text) with control characters made spaces, outer spaces stripped, at most ``limit``
    characters (see the module docstring)."""
    text = "" if value is None else str(value)
    text = "".join(" " if unicodedata.category(c) in _CONTROL else c for c in text)
    return text.strip()[:limit].rstrip()


def clean_name(value, default="Player"):
    """A player's name by the rule (``default`` when nothing is left)."""
    return clean_field(value, NAME_MAX) or default


def check_round(value):
    """A round: a number from 1 to ROUND_TOP (an int or its digits) or a short name ("Final"); the value kept."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise FieldError("round %r: give a number from 1 to %d or a short name such as \"Final\"" % (value, ROUND_TOP))
    if isinstance(value, int) or _NUMBER.match(value.strip()):
        number = int(value)
        if not 1 <= number <= ROUND_TOP:
            raise FieldError("round %s: rounds are numbered from 1 to %d" % (number, ROUND_TOP))
        return number if isinstance(value, int) else str(number)
    text = clean_field(value, ROUND_MAX + 1)
    if not text or len(text) > ROUND_MAX:
        raise FieldError("round %r: give a number or a name of 1 to %d characters" % (value[:40], ROUND_MAX))
    return text


def check_pairing(pairing):
    """A director's pairing (``white``, ``black``, ``round``, ``event``; each optional), cleaned; FieldError
    for anything else (a field of the wrong type, an empty name, a bad round, an unknown field)."""
    if not isinstance(pairing, dict):
        raise FieldError("a pairing is a JSON object with white, black, round and event")
    unknown = sorted(str(k) for k in pairing if k not in ("v", "white", "black", "round", "event"))
    if unknown:
        raise FieldError("a pairing has white, black, round and event, not %s" % ", ".join(unknown)[:80])
    out = {}
    for side in ("white", "black"):
        if side in pairing and pairing[side] is not None:
            if not isinstance(pairing[side], str) or not clean_field(pairing[side], NAME_MAX):
                raise FieldError("%s: a player's name is text of 1 to %d characters" % (side, NAME_MAX))
            out[side] = clean_field(pairing[side], NAME_MAX)
    if pairing.get("round") is not None:
        out["round"] = check_round(pairing["round"])
    if pairing.get("event") is not None:
        if not isinstance(pairing["event"], str):
            raise FieldError("event: an event's name is text of up to %d characters" % EVENT_MAX)
        out["event"] = clean_field(pairing["event"], EVENT_MAX)
    return out


def check_salt(value):
    """Black's salt of a remote match: 32 hex characters (docs/room.md); the salt, or FieldError."""
    if not isinstance(value, str) or not _SALT.match(value):
        raise FieldError("a salt is 32 hex characters (0-9, a-f), not %r" % (str(value)[:40],))
    return value
