"""One entry point for the legal plays of a turn in any variant.

The board controller, the simulator and ``pipboard rules`` call only
``make_turn``; it returns the generator the game's options need, all with the
interface of ``pipcore.rules.Turn`` (``plays``, ``dice_used``, ``moves``,
``result``, ``results``, ``result_for``, and ``steps``/``is_complete``):

* standard backgammon: ``pipcore.rules.Turn`` (also when the Caucasian or
  jail options are on but no checker can hit in scope before the turn's last
  die: the same plays);
* backgammon with ``caucasian`` or ``jailBearOff``: ``pipcore.caucasian.Turn``;
* long nardy: ``pipcore.nardy.Turn``.

Variant modules are imported only when a game needs them (RAM on the Pico).
"""

VARIANTS = ("backgammon", "nardy")


def make_turn(position, dice, variant="backgammon", options=None, first_turn=False, store=None, made=False):
    """The legal plays of ``dice`` in ``position`` for ``variant``.

    ``options`` uses RULES.md's option names (missing ones take their
    defaults; bad ones raise ``ConfigError``). ``first_turn`` is True on the
    mover's first turn of the game (long nardy's head-rule exceptions); ``store``
    is where standard backgammon writes a double's plays (``rules.Turn``); ``made``: ``options`` come
    from ``make_options`` already (a referee's), taken as they are.
    """
    if made:  # a referee's options, made when its match began (the options' table stays out of RAM)
        opts = options
    else:
        from pipcore.options import make_options

        opts = make_options(options, variant)
    if variant == "nardy":
        from pipcore import nardy

        return nardy.Turn(position, dice, first_turn=first_turn, block_check=opts["lnBlockCheck"])
    if opts["caucasian"] or opts["jailBearOff"]:
        from pipcore import caucasian

        if caucasian.restriction_possible(position, opts["caucasian"], opts["caucasianScope"], opts["jailBearOff"],
                                          dice):
            return caucasian.Turn(position, dice, caucasian=opts["caucasian"], scope=opts["caucasianScope"],
                                  jail=opts["jailBearOff"])
    from pipcore.rules import Turn

    return Turn(position, dice, store)


def geometry(variant):
    """The ``Position.validate`` geometry of a variant."""
    return "nardy" if variant == "nardy" else "backgammon"


def decode_position(position_id, variant="backgammon"):
    """Decode a Position ID and validate it in the variant's geometry (raises PositionError)."""
    from pipcore.position import decode_position_id
    pos = decode_position_id(position_id)
    pos.validate(geometry(variant))
    return pos
