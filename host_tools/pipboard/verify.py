"""``pipboard verify RECORD``: check every roll of a provably fair match against its commitment.

A match played with the ``dice`` option ``fair`` (docs/controller.md) has
its dice from a secret seed the board committed to before the first roll
(sha256 of the seed, shown on the panel and by ``pipboard monitor``, and
written into the match record); the board reveals the seed when the match
ends. This command takes the match record (a record file, or a ``.mat`` file
``pipboard export`` wrote: its ``; [Pipboard dice ...]`` comment carries the
commitment and the seed) and recomputes every die with the board's own
generator (``pipcore.fairmatch.verify``): it names the first die that differs,
or says that every one came from the committed seed.
"""

import sys

from pipcore.fairmatch import FairnessError, verify
from pipcore.record import RecordError, read_record


class VerifyError(ValueError):
    """The match cannot be verified, or a roll is not the seed's; the message says which and why."""


def _load(data):
    """A decoded ``pipcore.record.Record`` from a record file's bytes or a .mat file's text."""
    from pipboard.export import is_binary_record

    if is_binary_record(data):
        try:
            return read_record(data)
        except RecordError as exc:
            raise VerifyError("the record cannot be read: %s" % exc)
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        raise VerifyError("neither a Pipboard match record nor a .mat file")
    from pipboard.matfile import MatImportError, import_mat

    try:
        record_bytes, _ = import_mat(text)
    except MatImportError as exc:
        raise VerifyError("neither a Pipboard match record nor a readable .mat file: %s" % exc)
    return read_record(record_bytes)


def rolled_dice(record):
    """Every die of the match in the order the board drew them, each with where it was: a list of
    ``(value, "game 2, black's roll 3-1")``. Opening rolls give white's die, then black's; a roll taken
    back (dice keyed in: never in a fair match) still counts, as the board drew it."""
    out = []
    game = 0
    for entry in record.entries:
        kind = entry[0]
        if kind == "game":
            game += 1
        elif kind == "opening":
            where = "game %d, opening roll (white %d, black %d)" % (game, entry[1], entry[2])
            out.append((entry[1], where))
            out.append((entry[2], where))
        elif kind == "roll":
            where = "game %d, %s's roll %d-%d" % (game, ("white", "black")[entry[1]], entry[2], entry[3])
            out.append((entry[2], where))
            out.append((entry[3], where))
    return out


def verify_record(record):
    """Check a decoded record; returns ``(dice, rolls, games)`` checked, raises VerifyError."""
    source = record.options.get("dice", "electronic")
    fair = record.fair
    if source != "fair" or fair is None or not fair.get("commitment"):
        raise VerifyError("this match was not played with provably fair dice (its dice option is %r): there is "
                          "no commitment to check the rolls against" % source)
    if not fair.get("seed"):
        raise VerifyError("the seed is not revealed yet: the match is still being played (the board reveals it "
                          "when the match ends or a new one starts); commitment %s" % fair["commitment"])
    dice = rolled_dice(record)
    try:
        n = verify(fair["seed"], fair["commitment"], [d for d, _ in dice])
    except FairnessError as exc:
        if exc.index < 0:
            raise VerifyError(str(exc))
        raise VerifyError("%s: %s" % (dice[exc.index][1], exc))
    games = sum(1 for e in record.entries if e[0] == "game")
    return n, n // 2, games


def run(args, out=None, err=None):
    """``pipboard verify RECORD``; returns the exit status (0: every roll is the seed's)."""
    out = out or sys.stdout
    err = err or sys.stderr
    path = args.record
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        err.write("pipboard verify: cannot read %s: %s\n" % (path, exc.strerror or exc))
        return 1
    try:
        record = _load(data)
        dice, rolls, games = verify_record(record)
    except VerifyError as exc:
        err.write("pipboard verify: %s: %s\n" % (path, exc))
        return 1
    out.write("%s: every roll is the committed seed's: %d dice in %d rolls over %d game%s\n"
              "  commitment %s\n  seed       %s\n" % (path, dice, rolls, games, "" if games == 1 else "s",
                                                     record.fair["commitment"], record.fair["seed"]))
    return 0


def add_arguments(p):
    p.add_argument("record", metavar="RECORD",
                   help="the match: a Pipboard record file, or a .mat file pipboard export wrote")
