"""The board's own settings: kept on the flash, changed in the menu, applied to the board.

The settings file (``/pipboard_settings.bin``, an ``AtomicStore`` of its own beside the game's save: a
power cut keeps the old settings or the new ones, never half) holds one small JSON object::

    {"v": 1, "light": 0.4, "tournament": false, "next": null}

``light`` (the LEDs' brightness) and ``tournament`` (hints off) apply at once and to every match.
``next`` is ``{"variant", "options"}`` of a match chosen in the menu while a game was being played: the
board starts it at the next new match (undo held, or DONE once the match is over), and a host's
``new_game`` replaces it. A match chosen between games starts at once; the game's own save then keeps
its options. The app reads the file at power-up by itself (``pipcore.powerup.load_settings``, no import of this
module); this module is loaded when the menu opens or a waiting match starts.

``MenuSession`` is the open menu as the app sees it (``App.overlay``): it hands the buttons to the pure
``pipcore.menu.Menu`` and carries out what it answers.
"""

import json

from pipcore import guard
from pipcore.compat import unload
from pipcore.names import GAME_OVER, MATCH_OVER, MOVING, OPENING, PICK, SETUP

VERSION = 1
BRIGHTNESS = (5, 10, 20, 30, 40, 55, 75, 100)  # percent at the menu's levels 1..8


def level_of(light):
    """The menu's level (1..8) nearest to a brightness 0.0..1.0."""
    best = 0
    for i in range(len(BRIGHTNESS)):
        if abs(BRIGHTNESS[i] - light * 100) < abs(BRIGHTNESS[best] - light * 100):
            best = i
    return best + 1


def read(app):
    """The settings file as a dict, or None (none written yet, or unreadable: the defaults stand)."""
    store = getattr(app.hw, "settings_store", None)
    if store is None:
        return None
    try:
        payload = store.load()
        data = json.loads(payload) if payload else None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def waiting_match(app):
    """``(variant, options)`` of the match waiting for the next new match, or None (checked again: a
    file from another firmware is not trusted)."""
    from pipcore.options import make_options

    data = read(app)
    nxt = data.get("next") if data else None
    if not isinstance(nxt, dict):
        return None
    try:
        variant = nxt["variant"]
        if variant == "backalley":  # the board's scorekeeper (pipcore.bamode)
            from pipcore.bahost import ba_options

            return variant, ba_options(nxt["options"])
        return variant, make_options(nxt["options"], variant)
    except (KeyError, TypeError, ValueError):
        return None


def write(app, nxt=None):
    """Store the board's settings (with ``nxt`` as the waiting match); a flash that refuses shows the save
    fault, and the settings still hold until the power goes."""
    store = getattr(app.hw, "settings_store", None)
    if store is None:
        return
    data = {"v": VERSION, "light": app.hw.pixels.brightness, "tournament": bool(app.ctl.tournament),
            "next": None if nxt is None else {"variant": nxt[0], "options": nxt[1]}}
    try:
        store.save(json.dumps(data).encode())
    except (OSError, ValueError) as exc:
        app.fault(guard.SAVE, exc)


def start_waiting(app):
    """The new match the players asked for is the one chosen in the menu; False if none waits."""
    found = waiting_match(app)
    app.pending = False
    write(app)
    if found is not None:
        app.new_game(found[0], found[1])
    app.forget_modules()  # (this module's code too, once this call returns)
    return found is not None


def drop_waiting(app):
    """A host started a match of its own: the one waiting is forgotten."""
    app.pending = False
    write(app)
    app.forget_modules()


def _loading(every):
    """MicroPython: a collection every ``every`` bytes allocated while the menu's or the mode's code loads (the
    loader's garbage is reused at once instead of leaving holes between the code: pipcore.guard); -1:
    none before the heap is full again, as the game runs."""
    if hasattr(guard.gc, "threshold"):
        guard.gc.threshold(every)


def regain(app):
    """The store of a roll's plays again, after the menu that borrowed its room (``MenuSession``)."""
    if app.mode is None and app._plays is None:
        from pipcore.app import PLAY_STORE
        from pipcore.playcodes import play_store

        try:
            app._plays = play_store(PLAY_STORE)
        except MemoryError:
            pass  # (each roll allocates its own)


class MenuSession:
    """The open menu on the board (``App.overlay``)."""

    def __init__(self, app):
        ctl = app.ctl
        if app.mode is None and ctl.phase not in (MOVING, PICK):  # no roll's plays to keep: the store's 9 KB hold
            app._plays = ctl.play_store = None  # the menu (``close`` takes them back: ``regain``)
        self._buf = None
        if app.mode is None and hasattr(guard.gc, "threshold"):
            # MicroPython: Back Alley may be chosen, and its names take the pool of interned names past its next
            # step (1,280 entries: 14 KB in one block on the unix port, 9 KB on the Pico) while the backgammon
            # code is still in the heap (pipcore.bawait): the room is kept while the heap has it in one piece,
            # and let go of when the menu closes (none if the heap has no such block: the menu opens all the same)
            try:
                self._buf = bytearray(14100)
            except MemoryError:
                pass
        _loading(16384)
        try:
            from pipcore.menu import Menu
        except MemoryError:
            if self._buf is None:
                raise
            self._buf = None  # (the menu first)
            guard.gc.collect()
            from pipcore.menu import Menu
        finally:
            _loading(-1)
        chosen = waiting_match(app) if app.pending else None
        variant, options = chosen if chosen is not None else (ctl.variant, ctl.options)
        if chosen is None and app.mode is not None or variant == "backalley":
            # (the backgammon options wait in the controller; Back Alley's referee mode beside them)
            referee = app.mode.referee if chosen is None else options["referee"]
            variant, options = "backalley", dict(ctl.options, referee=referee)
        self.app = app
        self.menu = Menu(variant, options, level_of(app.hw.pixels.brightness), ctl.tournament)

    @property
    def frame(self):
        return self.menu.frame

    def sensed(self, now):
        return False  # the game goes on following the checkers while the menu is open

    def press(self, button, kind, now):
        from pipcore.menu import CANCEL, CLOSE, LIVE, START_TEST

        action = self.menu.press(button, kind)
        if action == LIVE:
            self._apply_board(now)
        elif action == CLOSE:
            self.close(True, now)
        elif action == CANCEL:
            self.close(False, now)
        elif action == START_TEST:
            if self.app.ctl.phase in (MOVING, PICK):
                self.menu.note = "finish the roll being played first"
                self.menu.frame += 1
                return
            self.close(True, now)
            from pipcore.selftest import TestSession

            self.app.show_overlay(TestSession(self.app))

    def _apply_board(self, now):
        """Brightness and tournament mode apply at once, in any phase."""
        app = self.app
        v = self.menu.v
        app.hw.pixels.brightness = BRIGHTNESS[v["brightness"] - 1] / 100
        if v["tournament"] != app.ctl.tournament:
            app.step(("tournament", v["tournament"]), now)
        app.tournament = v["tournament"]

    def close(self, keep, now):
        """Leave the menu; ``keep``: the changes hold (a match chosen between games starts now, during a
        game it waits for the next new match)."""
        app = self.app
        menu = self.menu
        start = menu.start
        if not keep:
            menu.v["brightness"] = start["brightness"]
            menu.v["tournament"] = start["tournament"]
        self._apply_board(now)
        app.show_overlay(None)
        board_changed = menu.v["brightness"] != start["brightness"] or menu.v["tournament"] != start["tournament"]
        game = menu.game() if keep and menu.game_changed() else None
        self.menu = menu = None  # (show_overlay unloaded its module): its code leaves the heap before a game's comes
        if self._buf is not None:
            self._buf = None  # the room kept for Back Alley's names: the pool, a roll's store take it
            guard.gc.collect()
        if game is None:
            if keep and board_changed:
                write(app, waiting_match(app) if app.pending else None)
            regain(app)
            return
        variant, options = game
        ctl = app.ctl
        mode = app.mode  # the board keeps a Back Alley score (pipcore.bamode)
        # between games a match chosen starts at once
        if mode is None and ctl.phase in (SETUP, OPENING, GAME_OVER, MATCH_OVER) or mode is not None and mode.idle():
            ctl = mode = None  # (the game that ends leaves the heap before the next one's code comes in)
            app.pending = False
            write(app)
            if app.mode is None and variant == "backalley":  # the mode's code and names come in where a roll's were
                unload("pipcore", ("turnmap", "steps", "reach", "showing"))
            _loading(16384)
            try:
                app.new_game(variant, options)
            finally:
                _loading(-1)
        elif (variant == "backalley" and options["referee"] == mode.referee if mode is not None
              else variant == ctl.variant and options == ctl.options):
            app.pending = False  # back to the match being played: nothing waits
            write(app)
        else:
            app.pending = True
            write(app, (variant, options))
            if mode is not None:
                mode.note = "the new settings start with the next game (hold undo twice for a new game now)"
            else:
                ctl.message = "the new settings start with the next match (hold undo for a new match now)"
        regain(app)

    def describe(self, snap):
        """The snapshot's ``menu`` and ``message`` while the menu is open."""
        state = self.menu.state()
        state["pending"] = self.app.pending
        snap["menu"] = state
        snap["message"] = self.menu.message()

    @property
    def message(self):
        return self.menu.message()

    def draw(self, px, display):
        self.menu.draw(px, display)
