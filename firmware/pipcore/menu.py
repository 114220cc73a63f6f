"""The board's menu: its items, their values, the buttons that move through it and what the LEDs show.

Pure: no I/O, no clock, no storage. ``pipcore.settings`` opens it when the
menu button is held, hands it every button press, applies what ``press``
returns and keeps the settings on the flash. ``pipboard hwdocs`` draws the
printable overlay (``hardware/menu-overlay.svg``) from the same ``ITEMS``,
so the drawing and the firmware cannot disagree; docs/board-menu.md is the
legend. Imported only when the menu opens (RAM on the Pico).

Buttons while the menu is open (either side's):

    menu            next item           undo          previous item
    take            value up            drop          value down   (held: 10 steps on numbers)
    roll/done       OK: on "self-test" start it; elsewhere leave, keeping the changes
    double          leave, forgetting the changes
    menu held       leave, keeping the changes

LEDs: every item has its own place (``ITEMS``: a point, or the white tray);
the pixel at its outer edge (slot 1) glows for each item the chosen game
has (amber: settings of the match; blue: settings of the board), the
current item's pulses white. The value: a choice lights one of the slots
2.. of the item's own place (the overlay names them), a number is drawn in
3 x 5 digits on slots 2..6 of points 19..24 (tens on 19-21, units on 22-24;
"--" for unlimited). The panel, which no checker covers, says it too: die A
the choice's number, or a number's tens and die B its units (7, 8, 9: six pips
and one to three move markers). Both "to move" lights glow blue while the menu
is open; the cube shows the cap while the cap is chosen.
"""

from pipcore import geometry as g
from pipcore.compat import const
from pipcore.glyphs import BITS  # 3 x 5 digits 0..9, then "-" (index 10)
from pipcore.options import UNLIMITED, VARIANTS, make_options
from pipcore.render import PULSE

CHOICE = 0  # the value lights a slot of the item's own place
NUMBER = 1  # the value is drawn in digits on points 19..24
ACTION = 2  # no value: OK starts it

_OFF_ON = (False, True)
_ONOFF_LABELS = ("off", "on")
SELF_TEST = "selfTest"
BOARD_ITEMS = ("tournament", "brightness", SELF_TEST)  # apply at once, from any phase
BACKALLEY = "backalley"  # the board keeps a Back Alley score (pipcore.bamode): no match options
REFEREE = "referee"  # Back Alley's one option: the cards of each trick keyed in (pipcore.baref)
GAMES = VARIANTS + (BACKALLEY,)

# (key, location, kind, values, title, labels of a choice's values)
ITEMS = (
    ("variant", 0, CHOICE, GAMES, "game", VARIANTS + ("Back Alley",)),
    (REFEREE, g.LOC_OFF_BLACK, CHOICE, _OFF_ON, "referee (cards keyed)", _ONOFF_LABELS),
    ("matchLength", 1, NUMBER, range(0, 26), "match length (0 money)", None),
    ("crawford", 2, CHOICE, _OFF_ON, "Crawford", _ONOFF_LABELS),
    ("openingReroll", 3, CHOICE, _OFF_ON, "opening reroll", _ONOFF_LABELS),
    ("dice", 4, CHOICE, ("electronic", "physical", "fair"), "dice", ("electronic", "physical", "fair")),
    ("clock", 5, CHOICE, ("off", "simple", "bronstein"), "clock", ("off", "simple delay", "Bronstein")),
    ("clockDelay", 6, NUMBER, range(0, 61), "clock delay s", None),
    ("clockMinutes", 7, NUMBER, range(1, 61), "clock min per point", None),
    ("cubeEnabled", 8, CHOICE, _OFF_ON, "cube", _ONOFF_LABELS),
    ("cubeCap", 9, NUMBER, (0, 2, 4, 8, 16, 32, 64), "cube cap (0 none)", None),
    ("cubeProgression", 10, CHOICE, ("geometric", "arithmetic"), "cube steps", ("x2 geometric", "+1 arithmetic")),
    ("autoDoubles", 11, NUMBER, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, UNLIMITED), "automatic doubles", None),
    ("beavers", 12, CHOICE, _OFF_ON, "beavers", _ONOFF_LABELS),
    ("raccoons", 13, CHOICE, _OFF_ON, "raccoons", _ONOFF_LABELS),
    ("jacoby", 14, CHOICE, _OFF_ON, "Jacoby", _ONOFF_LABELS),
    ("noGammonsWithCube", 15, CHOICE, _OFF_ON, "no gammons with cube", _ONOFF_LABELS),
    ("caucasian", 16, CHOICE, _OFF_ON, "Caucasian", _ONOFF_LABELS),
    ("caucasianScope", 17, CHOICE, ("home", "board"), "Caucasian scope", ("home", "board")),
    ("jailBearOff", 18, CHOICE, _OFF_ON, "jail clause", _ONOFF_LABELS),
    ("lnOpening", 19, CHOICE, ("fresh-roll", "opening-dice"), "nardy opening", ("fresh roll", "opening dice")),
    ("lnWinnerStarts", 20, CHOICE, _OFF_ON, "nardy winner starts", _ONOFF_LABELS),
    ("lnBlockCheck", 21, CHOICE, ("per-move", "end-of-turn"), "nardy block check", ("per move", "end of turn")),
    ("tournament", 22, CHOICE, _OFF_ON, "tournament (no hints)", _ONOFF_LABELS),
    ("brightness", 23, NUMBER, range(1, 9), "brightness", None),
    (SELF_TEST, g.LOC_OFF_WHITE, ACTION, (), "self-test", None),
)

# what ``press`` returns
STAY = 0
LIVE = 1  # a setting of the board changed: the app applies it now
CLOSE = 2  # leave, keeping the changes
CANCEL = 3  # leave, forgetting them
START_TEST = 4  # leave and start the self-test

_SHORT = 1  # pipdrivers.buttons kinds
_LONG = 2

DIGIT_LOCS = (18, 19, 20, 21, 22, 23)  # points 19..24: tens on the first three, units on the last three

# The colours are written where they are drawn, and _DASH is a const: every module-level name is an
# interned string that stays in RAM once the menu has been opened (tests/bench/README.md, "Back Alley")
_DASH = const(0x1C)  # the middle row of a die's pips (geometry.PIP_ML, PIP_C, PIP_MR): "--", no limit


def item_index(key):
    """Index in ``ITEMS`` of the item named ``key``."""
    for i in range(len(ITEMS)):
        if ITEMS[i][0] == key:
            return i
    raise ValueError("no menu item %r" % (key,))


def shown(key, v):
    """True if item ``key`` applies to the settings ``v`` (an item of another game, or of a cube that is
    off, is skipped)."""
    variant = v["variant"]
    if variant == BACKALLEY:  # the scorekeeper: only the game, referee mode and the board's own settings
        return key in ("variant", REFEREE) or key in BOARD_ITEMS
    if key == REFEREE:
        return False
    money = not v["matchLength"]
    cube = v["cubeEnabled"]
    if key == "crawford":
        return not money
    if key in ("cubeCap", "noGammonsWithCube"):
        return cube
    if key in ("cubeProgression", "jacoby"):
        return cube and money
    if key in ("autoDoubles", "beavers"):
        return cube and money and v["cubeProgression"] == "geometric"
    if key == "raccoons":
        return cube and money and v["cubeProgression"] == "geometric" and v["beavers"]
    if key in ("openingReroll", "caucasian", "jailBearOff"):
        return variant == "backgammon"
    if key == "caucasianScope":
        return variant == "backgammon" and v["caucasian"]
    if key in ("lnOpening", "lnWinnerStarts", "lnBlockCheck"):
        return variant == "nardy"
    if key in ("clockDelay", "clockMinutes"):
        return v["clock"] != "off"
    return True


def repair(v, key, old):
    """Keep the combination legal after ``key`` changed from ``old`` (RULES.md 0.4: what a match, the
    arithmetic cube, a cube that is off or long nardy forbids is switched off)."""
    if key == "variant":
        v["cubeEnabled"] = v["variant"] == "backgammon"  # each game's default
    if key == "matchLength":
        v["crawford"] = v["matchLength"] > 0 and (v["crawford"] or not old)
    if v["matchLength"]:
        v["beavers"] = v["raccoons"] = v["jacoby"] = False
        v["autoDoubles"] = 0
        v["cubeProgression"] = "geometric"
    if not v["cubeEnabled"]:
        v["autoDoubles"] = 0
        v["beavers"] = v["raccoons"] = v["jacoby"] = False
    if v["cubeProgression"] == "arithmetic":
        v["autoDoubles"] = 0
        v["beavers"] = False
    if not v["beavers"]:
        v["raccoons"] = False
    if v["variant"] != "backgammon":
        v["caucasian"] = v["jailBearOff"] = False


def _index(values, value):
    """Index of ``value`` in ``values``; a number the list lacks (a host's choice) gives the nearest."""
    best = 0
    for i in range(len(values)):
        if values[i] == value and type(values[i]) is type(value):
            return i
        if type(value) is int and abs(values[i] - value) < abs(values[best] - value):
            best = i
    return best


class Menu:
    """The open menu: the settings being edited and the item shown (see the module docstring)."""

    def __init__(self, variant, options, brightness, tournament, item=0):
        v = dict(options)
        v["variant"] = variant
        v[REFEREE] = v.get(REFEREE) is True  # (Back Alley's; the match options beside it are backgammon's)
        v["brightness"] = brightness
        v["tournament"] = bool(tournament)
        self.v = v
        self.start = dict(v)
        self.item = item
        self.frame = 0
        self.note = ""  # a line the app adds to the message (why OK did nothing, ...)
        if not shown(ITEMS[item][0], v):
            self.move(1)

    # -- what is chosen ----------------------------------------------------------
    @property
    def key(self):
        return ITEMS[self.item][0]

    def value(self, key=None):
        return self.v[key or self.key]

    def game(self):
        """``(variant, options)`` chosen for the match, completed and checked (``make_options``)."""
        v = self.v
        if v["variant"] == BACKALLEY:
            return BACKALLEY, {REFEREE: v[REFEREE]}  # (pipcore.bahost completes them)
        opts = {}
        for key in v:
            if key not in ("variant", "brightness", "tournament", REFEREE):
                opts[key] = v[key]
        return v["variant"], make_options(opts, v["variant"])

    def game_changed(self):
        """True if a setting of the match differs from what the menu opened with."""
        start = self.start
        v = self.v
        for key in v:
            if key not in ("brightness", "tournament") and v[key] != start[key]:
                return True
        return False

    # -- the buttons ---------------------------------------------------------------
    def press(self, button, kind):
        """A button event (``pipdrivers.buttons`` kinds); returns STAY, LIVE, CLOSE, CANCEL or START_TEST."""
        if kind != _SHORT and kind != _LONG:
            return STAY
        if button == g.BTN_MENU:
            if kind == _LONG:
                return CLOSE
            self.move(1)
        elif button == g.BTN_UNDO:
            if kind == _SHORT:
                self.move(-1)
        elif button in (g.BTN_WHITE_TAKE, g.BTN_BLACK_TAKE, g.BTN_WHITE_DROP, g.BTN_BLACK_DROP):
            up = button in (g.BTN_WHITE_TAKE, g.BTN_BLACK_TAKE)
            step = 10 if kind == _LONG and ITEMS[self.item][2] == NUMBER else 1
            if self.change(step if up else -step):
                return LIVE if self.key in BOARD_ITEMS else STAY
        elif kind != _SHORT:
            return STAY
        elif button in (g.BTN_WHITE_ROLL, g.BTN_BLACK_ROLL):
            return START_TEST if self.key == SELF_TEST else CLOSE
        elif button in (g.BTN_WHITE_DOUBLE, g.BTN_BLACK_DOUBLE):
            return CANCEL
        return STAY

    def move(self, step):
        """The next (``step`` 1) or previous (-1) item the chosen game has."""
        n = len(ITEMS)
        i = self.item
        for _ in range(n):
            i = (i + step) % n
            if shown(ITEMS[i][0], self.v):
                break
        self.item = i
        self.note = ""
        self.frame += 1

    def change(self, step):
        """Move the current item's value ``step`` places (choices wrap round, numbers stop at their ends);
        returns True if it changed."""
        key, _loc, kind, values, _title, _labels = ITEMS[self.item]
        if kind == ACTION:
            return False
        old = self.v[key]
        i = _index(values, old) + step
        n = len(values)
        if kind == CHOICE:
            i %= n
        else:
            i = 0 if i < 0 else n - 1 if i >= n else i
        new = values[i]
        if new == old and type(new) is type(old):
            return False
        self.v[key] = new
        repair(self.v, key, old)
        self.note = ""
        self.frame += 1
        return True

    # -- what the players and the host see ------------------------------------------------
    def text(self, value=None, key=None):
        """A value as the overlay names it."""
        key = key or self.key
        entry = ITEMS[item_index(key)]
        if entry[2] == ACTION:
            return "press ROLL/DONE to start"
        value = self.v[key] if value is None else value
        if entry[2] == CHOICE:
            return entry[5][_index(entry[3], value)]
        if key == "autoDoubles" and value == UNLIMITED:
            return "unlimited"
        if key == "brightness":
            return "%d of 8" % value
        return "%d" % value

    def message(self):
        title = ITEMS[self.item][4]
        line = "menu: %s: %s (TAKE/DROP change, menu next, ROLL/DONE OK, DOUBLE cancel)" % (title, self.text())
        return line + (" | " + self.note if self.note else "")

    def state(self):
        """The snapshot's ``menu`` (docs/protocol.md)."""
        key = self.key
        return {"open": True, "item": key, "title": ITEMS[self.item][4],
                "value": None if key == SELF_TEST else self.v[key], "text": self.text()}

    def draw(self, px, display):
        """The menu on the location pixels (``px.set``) and the panel (``display``: a DiceDisplay)."""
        for i in range(g.LED_LOC_BASE, g.LEDS):
            px.set(i, 0, 0, 0)
        v = self.v
        for i in range(len(ITEMS)):
            key, loc, kind, values, _title, _labels = ITEMS[i]
            if not shown(key, v):
                continue
            if i == self.item:
                px.set(g.led_index(loc, 0), 130, 130, 130, PULSE)  # the item shown: white
            else:
                c = (0, 12, 45) if key in BOARD_ITEMS else (40, 22, 0)  # blue: the board's; amber: the match's
                px.set(g.led_index(loc, 0), c[0], c[1], c[2])
        key, loc, kind, values, _title, _labels = ITEMS[self.item]
        if kind == CHOICE:
            chosen = _index(values, v[key])
            for k in range(len(values)):
                c = (0, 120, 0) if k == chosen else (14, 14, 14)  # the value chosen green, the others grey
                px.set(g.led_index(loc, 1 + k), c[0], c[1], c[2])
        elif kind == NUMBER:
            draw_number(px, v[key])
        # the panel, never under a checker: the value on the dice, the menu on both "to move" lights
        display.blank()
        if kind == CHOICE:
            display.dice(_index(values, v[key]) + 1, 0, 0)  # die A: which choice (1 = the first)
        elif kind == NUMBER:
            draw_number_dice(px, display, v[key])
        cap = v["cubeCap"] if key == "cubeCap" else 0
        if cap:
            display.cube(cap, -1)
        else:
            for k in range(g.LED_CUBE_VALUE, g.LED_TURN_WHITE):
                px.set(k, 0, 0, 0)
        for k in (g.LED_TURN_WHITE, g.LED_TURN_BLACK):
            px.set(k, 0, 40, 255)  # blue: both "to move" lights while the menu is open


def draw_number(px, value):
    """``value`` (0..99, or UNLIMITED as "--") in 3 x 5 digits on slots 2..6 of points 19..24."""
    if value == UNLIMITED:
        tens = units = 10
    else:
        tens = value // 10 % 10 if value >= 10 else -1
        units = value % 10
    for half in range(2):
        glyph = units if half else tens
        if glyph < 0:
            continue
        bits = BITS[glyph]
        c = (0, 100, 130) if half else (120, 90, 0)  # units blue, tens amber
        for row in range(5):
            for col in range(3):
                if bits >> (14 - 3 * row - col) & 1:
                    px.set(g.led_index(DIGIT_LOCS[3 * half + col], 1 + row), c[0], c[1], c[2])


def draw_number_dice(px, display, value):
    """``value`` on the panel's dice: die A the tens, die B the units (7, 8, 9: six pips and one, two, three
    move markers); "--" (the middle row of both dice) for UNLIMITED."""
    if value == UNLIMITED:
        for base in (g.LED_DIE_A, g.LED_DIE_B):
            for pip in range(g.DIE_PIPS):
                if _DASH >> pip & 1:
                    px.set(base + pip, 110, 100, 70)
        return
    units = value % 10
    display.dice(value // 10 % 10, units if units <= 6 else 6, 0, False, False, units - 6 if units > 6 else -1)


def glyph_rows(digit):
    """The rows of a digit's glyph as text (``"#.#"``), for docs and tests."""
    bits = BITS[digit]
    return ["".join("#" if bits >> (14 - 3 * row - col) & 1 else "." for col in range(3)) for row in range(5)]
