"""Game options: the names, values and defaults of RULES.md section 0.4.

Beside them, the board's own match settings: ``clock``, ``clockDelay``,
``clockMinutes`` (the tournament clock) and ``dice`` (electronic, physical
dice keyed in, or provably fair electronic dice).

Options travel as a plain dict with RULES.md's names (``cubeCap``,
``caucasian``, ...), so they read the same in saves, the protocol and the
CLI. ``make_options`` fills defaults and validates; bad names, values or
combinations raise ConfigError with a message that says which.
"""

from pipcore.names import ConfigError  # noqa: F401  (raised here; the host tools import it from here)

UNLIMITED = -1  # autoDoubles without a limit

VARIANTS = ("backgammon", "nardy")

# name -> (allowed values or a checker, default). ``None`` default means
# "depends on the variant or match length" and is filled in make_options.
_SPEC = {
    "openingReroll": ((False, True), False),
    "cubeEnabled": ((False, True), None),
    "cubeCap": ("cap", 0),  # 0 = none, else a power of two >= 2
    "cubeProgression": (("geometric", "arithmetic"), "geometric"),
    "autoDoubles": ("autodoubles", 0),  # 0 off, L >= 1, or UNLIMITED
    "beavers": ((False, True), False),
    "raccoons": ((False, True), False),
    "jacoby": ((False, True), False),
    "noGammonsWithCube": ((False, True), False),
    "matchLength": ("length", 0),  # 0 = money play
    "crawford": ((False, True), None),
    "caucasian": ((False, True), False),
    "caucasianScope": (("home", "board"), "home"),
    "jailBearOff": ((False, True), False),
    "lnOpening": (("fresh-roll", "opening-dice"), "fresh-roll"),
    "lnWinnerStarts": ((False, True), True),
    "lnBlockCheck": (("per-move", "end-of-turn"), "per-move"),
    # the board's own match settings (not RULES.md's): the clock and where the dice come from
    "clock": (("off", "simple", "bronstein"), "off"),
    "clockDelay": ("seconds", 12),  # delay per move, 0..60 s
    "clockMinutes": ("minutes", 2),  # reserve: minutes per point of match length (per game in money play)
    "dice": (("electronic", "physical", "fair"), "electronic"),
}

OPTION_NAMES = tuple(sorted(_SPEC))



def _check_value(name, value):
    allowed = _SPEC[name][0]
    if allowed == "cap":
        if type(value) is not int or (value != 0 and (value < 2 or value & (value - 1))):
            raise ConfigError("cubeCap must be 0 (none) or a power of two >= 2, not %r" % (value,))
    elif allowed == "autodoubles":
        if type(value) is not int or value < UNLIMITED:
            raise ConfigError("autoDoubles must be 0 (off), a limit >= 1 or -1 (unlimited), not %r" % (value,))
    elif allowed == "length":
        if type(value) is not int or value < 0 or value > 255:
            raise ConfigError("matchLength must be 0 (money play) or 1..255, not %r" % (value,))
    elif allowed == "seconds":
        if type(value) is not int or not 0 <= value <= 60:
            raise ConfigError("clockDelay must be 0..60 seconds, not %r" % (value,))
    elif allowed == "minutes":
        if type(value) is not int or not 1 <= value <= 60:
            raise ConfigError("clockMinutes must be 1..60 minutes, not %r" % (value,))
    elif value not in allowed or type(value) is not type(allowed[0]):
        raise ConfigError("%s must be one of %s, not %r" % (name, ", ".join(repr(a) for a in allowed), value))


def make_options(given=None, variant="backgammon"):
    """Return a complete, validated options dict for ``variant``."""
    if variant not in VARIANTS:
        raise ConfigError("unknown variant %r (use %s)" % (variant, " or ".join(VARIANTS)))
    given = given or {}
    if not isinstance(given, dict):
        raise ConfigError("options must be a mapping of RULES.md option names")
    opts = {}
    for name in given:
        if name not in _SPEC:
            raise ConfigError("unknown option %r" % (name,))
        _check_value(name, given[name])
        opts[name] = given[name]
    for name in _SPEC:
        if name not in opts:
            opts[name] = _SPEC[name][1]
    if opts["cubeEnabled"] is None:
        opts["cubeEnabled"] = variant == "backgammon"
    if opts["crawford"] is None:
        opts["crawford"] = opts["matchLength"] >= 1
    _check_combinations(opts, variant)
    return opts


def _check_combinations(opts, variant):
    match = opts["matchLength"] >= 1
    if opts["autoDoubles"] and match:
        raise ConfigError("automatic doubles are for money play only, not with matchLength %d" % opts["matchLength"])
    if opts["autoDoubles"] and opts["cubeProgression"] == "arithmetic":
        raise ConfigError("automatic doubles cannot be combined with the arithmetic cube")
    if opts["raccoons"] and not opts["beavers"]:
        raise ConfigError("raccoons require beavers")
    if opts["cubeProgression"] == "arithmetic":
        for name in ("beavers", "raccoons"):
            if opts[name]:
                raise ConfigError("%s cannot be combined with the arithmetic cube" % name)
        if match:
            raise ConfigError("the arithmetic cube is for money play only")
    if match:
        for name in ("beavers", "raccoons", "jacoby"):
            if opts[name]:
                raise ConfigError("%s is for money play only, not with matchLength %d" % (name, opts["matchLength"]))
    if variant == "nardy" and (opts["caucasian"] or opts["jailBearOff"]):
        raise ConfigError("the Caucasian and jail options do not exist in long nardy")
    if not opts["cubeEnabled"]:
        for name in ("autoDoubles", "beavers", "jacoby"):
            if opts[name]:
                raise ConfigError("%s needs the cube (cubeEnabled)" % name)
