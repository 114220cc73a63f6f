"""What the browser page draws: the board's layout (from ``pipcore.geometry``) and its live state.

Positions are in millimetres, as in ``hardware/`` drawings, so the page shows
the board as it is built: each location's six slots (checker, reed switch and
pixel share a slot), the control panel's pixels (dice display, cube, turn)
and the trays.
"""

from pipboard import drawing
from pipcore import dimensions as dims
from pipcore import geometry as g

WHITE_RGB = (235, 230, 215)


def _loc_kind(loc):
    if loc < g.POINTS:
        return "point"
    return "bar" if loc < g.LOC_OFF_WHITE else "tray"


def layout(board=None):
    """Static drawing data: board size, location slots, panel pixels, buttons, and where each pixel sits."""
    from pipboard.websim.server import button_names

    locs = []
    for loc in range(g.LOCATIONS):
        locs.append({
            "loc": loc,
            "name": g.loc_name(loc),
            "kind": _loc_kind(loc),
            "slots": [list(drawing.slot_xy(loc, s)) for s in range(g.SLOTS)],
        })
    npix = len(board.pixels) if board is not None else g.LEDS
    return {
        "width": dims.BOARD_W,
        "height": dims.BOARD_H,
        "pitch": dims.PITCH,
        "border": dims.BORDER,
        "half_w": dims.HALF_W,
        "bar_w": dims.BAR_W,
        "column_w": dims.COLUMN_W,
        "locations": locs,
        "panel": [list(drawing.panel_xy(i)) for i in range(g.PANEL_LEDS)],
        "pixels": pixel_places(npix),
        "buttons": list(button_names()),
        "keys": [{"button": g.BTN_MENU, "name": "menu"}, {"button": g.BTN_MENU, "name": "hold menu", "long": True},
                 {"button": g.BTN_UNDO, "name": "undo"}, {"button": g.BTN_UNDO, "name": "hold undo", "long": True}],
        "die_a": g.LED_DIE_A,
        "die_b": g.LED_DIE_B,
        "panel_labels": panel_labels(),
        # the printed menu overlay (hardware/menu-overlay.svg, from pipcore.menu.ITEMS), laid over the board
        # while the menu is open
        "menu_overlay": menu_overlay(),
    }


def menu_overlay():
    """The board's part of the printed menu overlay, as SVG markup (``pipboard hwdocs`` prints it whole)."""
    from pipboard.hwdocs import menu_overlay_svg

    return menu_overlay_svg(legend=False)


def panel_labels():
    """What each group of the control panel's pixels shows, as ``[x, y, text, size, anchor]`` (mm), as the
    panel's own printed labels would say."""
    def at(led, dy=0, dx=0):
        x, y = drawing.panel_xy(led)
        return x + dx, y + dy

    labels = []
    x, y = at(g.LED_TURN_BLACK, -6)
    labels.append([x, y, "black's turn", 4, "middle"])
    x, y = at(g.LED_TURN_WHITE, 9)
    labels.append([x, y, "white's turn", 4, "middle"])
    x, y = at(g.LED_DIE_A + g.PIP_TL, -6)
    labels.append([x + 9, y, "die A", 4, "middle"])
    x, y = at(g.LED_DIE_B + g.PIP_TL, -6)
    labels.append([x + 9, y, "die B", 4, "middle"])
    x, y = at(g.LED_MOVES, -6)
    labels.append([x + 21, y, "moves left", 4, "middle"])
    x, y = at(g.LED_CUBE_VALUE, -7)
    labels.append([x + 14, y, "cube", 4, "middle"])
    for k in range(6):
        x, y = at(g.LED_CUBE_VALUE + k, 5.5)
        labels.append([x, y, str(2 << k), 3, "middle"])
    for k, word in enumerate(("white owns", "centred", "black owns")):
        x, y = at(g.LED_CUBE_OWNER + k, 1.2, -5)
        labels.append([x, y, word, 3, "end"])
    return labels


def skipped_items(settings):
    """The menu items the settings being edited skip, each with why (``pipcore.menu.shown`` decides; the
    reason is the fewest other settings that would show it)."""
    from pipcore import menu

    if settings.get("variant") == menu.BACKALLEY:
        return [{"item": key, "title": title, "why": "the Back Alley scorekeeper has no match settings"}
                for key, _loc, _kind, _values, title, _labels in menu.ITEMS if not menu.shown(key, settings)]
    found = []
    for key, _loc, _kind, _values, title, _labels in menu.ITEMS:
        if not menu.shown(key, settings):
            found.append({"item": key, "title": title, "why": _why_skipped(menu, key, settings)})
    return found


_DECIDING = ("variant", "matchLength", "cubeEnabled", "cubeProgression", "beavers", "caucasian", "clock")


def _why_skipped(menu, key, settings):
    import itertools

    for n in (1, 2, 3):
        for keys in itertools.combinations(_DECIDING, n):
            for values in itertools.product(*(_others(menu, k, settings[k]) for k in keys)):
                trial = dict(settings)
                trial.update(zip(keys, values))
                if menu.shown(key, trial):
                    return "only with " + " and ".join(_setting_text(menu, k, v) for k, v in zip(keys, values))
    return "not for this game"


def _others(menu, key, value):
    if key == "matchLength":
        return [0] if value else [1]
    entry = menu.ITEMS[menu.item_index(key)]
    return [v for v in entry[3] if v != value]


def _setting_text(menu, key, value):
    if key == "matchLength":
        return "money play (match length 0)" if value == 0 else "a match (match length 1 or more)"
    if key == "clock":
        return "a clock (simple delay or Bronstein)"
    entry = menu.ITEMS[menu.item_index(key)]
    label = entry[5][list(entry[3]).index(value)]
    return "%s %s" % (entry[4], label)


def pixel_places(npix):
    """For each pixel of the simulated strip, the ``[x, y, radius]`` of every light it makes.

    The hardware has one pixel under every slot plus the panel (``geometry.LEDS``);
    a strip of one pixel per location (the controller's renderer without a
    pixel map) lights all six slot pixels of its location alike.
    """
    slot_r = dims.PITCH * 0.47
    if npix == g.LEDS:
        places = []
        for i in range(npix):
            loc, _slot = drawing.led_at(i)
            x, y = drawing.led_xy(i)
            places.append([[x, y, 2.6 if loc is None else slot_r]])
        return places
    if npix == g.LOCATIONS:
        return [[list(drawing.slot_xy(loc, s)) + [slot_r] for s in range(g.SLOTS)] for loc in range(npix)]
    raise ValueError("cannot place a strip of %d pixels on the board" % npix)


def panel_colours(ctl):
    """The control panel as the hardware lights it: dice, moves left, cube value and owner, turn."""
    off = [0, 0, 0]
    panel = [off] * g.PANEL_LEDS
    tint = [255, 255, 255] if ctl.mover == 0 else [255, 90, 40]
    dice = ctl.dice
    if dice:
        for base, face in ((g.LED_DIE_A, dice[0]), (g.LED_DIE_B, dice[1])):
            mask = g.DIE_FACE_MASKS[face]
            for pip in range(g.DIE_PIPS):
                if mask >> pip & 1:
                    panel[base + pip] = tint
        left = getattr(ctl, "dice_left", None)
        n = len(left()) if callable(left) else 0
        for i in range(min(n, 4)):
            panel[g.LED_MOVES + i] = [0, 120, 0]
    cube = ctl.cube
    if cube > 1:
        i = 0
        v = cube
        while v > 2 and i < 5:
            v >>= 1
            i += 1
        panel[g.LED_CUBE_VALUE + i] = [200, 200, 0]
    owner = {0: 0, -1: 1, 1: 2}.get(ctl.owner, 1)
    panel[g.LED_CUBE_OWNER + owner] = [120, 120, 0]
    panel[g.LED_TURN_WHITE if ctl.mover == 0 else g.LED_TURN_BLACK] = [0, 0, 160]
    return panel


def _menu_skipped(board):
    menu = getattr(board.app.overlay, "menu", None)  # (pipcore.settings.MenuSession, while the menu is open)
    settings = getattr(menu, "v", None)
    return skipped_items(settings) if isinstance(settings, dict) else []


def _rgb(value):
    """A pixel as ``[r, g, b]``, whether the strip keeps tuples or ``0xRRGGBB`` ints."""
    if isinstance(value, int):
        return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
    return [int(c) for c in tuple(value)[:3]]


def state(board, bridge):
    """The live state the page draws."""
    ctl = board.app.ctl
    pixels = board.pixels
    dice = ctl.dice
    snap = bridge.snapshot()
    return {
        "stacks": [list(s) for s in board.stacks],
        "hand": list(board.hand),
        "box": list(board.box),
        "leds": [_rgb(pixels[i]) for i in range(len(pixels))],
        # a full strip carries the panel itself (drawn by the dice display driver)
        "panel": None if len(pixels) == g.LEDS else panel_colours(ctl),
        "dice": list(dice) if dice else None,
        "cube": ctl.cube,
        "owner": ctl.owner,
        "mover": ctl.mover,
        "phase": ctl.phase_name(),
        "message": snap["message"],  # (the menu's or the self-test's while they are open)
        "menu": snap.get("menu"),
        "menu_skipped": _menu_skipped(board),  # the items the open menu skips, and why
        "backalley": snap.get("backalley"),  # the Back Alley scorekeeper (docs/backalley.md), or None
        "self_test": snap.get("self_test"),
        "hardware": snap.get("hardware"),
        "display": [x for x in ctl.display],
        "score": list(ctl.scores),
        "position_id": snap["position_id"],
        "match_id": snap["match_id"],
        "record": list(ctl.record[-12:]),
        "clock": snap.get("clock"),  # the tournament clock (docs/protocol.md), or None
        "now": board.now,
        # at the table (docs/protocol.md): a resignation offered, dice keyed in, a fair match's dice
        "resign": snap.get("resign"),
        "keyed": snap.get("keyed"),
        "fair": snap.get("fair"),
        "dice_source": snap["options"].get("dice", "electronic"),
    }
