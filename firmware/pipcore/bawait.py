"""The backgammon game that waits while the board keeps a Back Alley score, without its code.

While the board keeps a Back Alley score (``pipcore.bamode``) the backgammon game only waits: a fresh
game's setup with the match's options, which the switches never reach and which keeps no record. Its
code (``pipcore.controller`` and everything a backgammon game loads: the referee, the rules, the tracker,
the guide; about 100 KB of heap on the unix port) leaves the heap meanwhile, and ``Waiting`` stands in for
the controller as ``App.ctl``: the options and tournament mode (its part of the state save, beside the
score), and what the app, the menu, the self-test and the protocol read of a game waiting for its setup.

``switch`` is ``App.new_game``'s hook (the mode starts, starts again, or ends); ``resume`` is
``pipcore.powerup``'s (a power-up into a saved Back Alley game, which never loads the controller). The
backgammon modules (``BACKGAMMON``) leave before the mode's come in, and come back (collected as they load,
as at power-up) when a backgammon or nardy match starts again. What a switch from a backgammon board cannot
avoid: the names of this module and the mode's take the pool of interned names past its next step (1,280
entries: 14 KB in one block on the unix port, 9 KB on the Pico) while the backgammon code is still in the
heap: the menu keeps that room while it is open (``pipcore.settings.MenuSession``; tests/bench/README.md,
"Back Alley in the budget heap").
"""

import gc

from pipcore.board import NLOC
from pipcore.compat import unload
from pipcore.names import SETUP

VARIANT = "backalley"
# the modules of a backgammon game (loaded at power-up, with its first match, or on demand) that leave
# the heap while the board keeps a Back Alley score
BACKGAMMON = ("controller", "keeper", "owners", "layout", "match", "guide", "ctlviews", "tracker", "variants",
              "cube", "rules", "notation", "position", "reach", "turnmap", "steps", "showing", "record",
              "recwriter", "gameclock", "fairmatch", "keyed", "resign", "matchid", "matchload", "outside",
              "coaching", "caucasian", "causteps", "nardy", "nardysteps", "playcheck", "posdicts")
REFEREE = ("baref", "batricks", "bacards")  # referee mode's (pipcore.baref)
START_ID = "4HPwATDgc/ABMA"  # the Position ID of backgammon's start: the waiting game's setup
_COLLECT = 16384  # bytes allocated between collections while code loads (pipcore.guard)


def switch(app, variant, options):
    """``App.new_game``'s hook: True when the new game is Back Alley (the board keeps its score now);
    else the mode ends and the app starts the match itself (its modules are back: loaded here). Options
    refused raise ConfigError and change nothing."""
    if variant != VARIANT:
        _leave(app)
        return False
    from pipcore.bahost import ba_options

    try:
        opts = ba_options(options)
    except ValueError:  # refused: nothing changes, and nothing of the mode stays loaded
        unload("pipcore", ("bahost",) if app.mode is not None else ("bahost", "bawait"))
        raise
    unload("pipcore", ("bahost",) if opts["referee"] else ("bahost",) + REFEREE)
    if type(app.ctl) is not Waiting:
        _end_match(app)
    _drop_backgammon(app)
    session = _loaded("pipcore.bamode").BaSession
    app.mode = session(app, opts)
    session = None
    app.generation += 1
    app.saving = True
    app._replay = []
    app._unsaved = None
    app.show_overlay(app.mode)
    app.mode.commit()
    return True


def _end_match(app):
    """The match being played ends here (its record stays in the directory); a fresh game with its options (a
    nardy match's: the defaults) waits. A function of its own: no frame still running may keep a pointer to
    the controller, which the collector would take for a reference to it and to all its code."""
    ctl = app.ctl
    ctl.end_match()
    app.ctl = Waiting({"options": ctl.options if ctl.variant == "backgammon" else None, "tournament": ctl.tournament})


def resume(app, saved):
    """``pipcore.powerup``'s hook for a save with a Back Alley score: the mode resumed (``app.mode``) and the
    game that waits, returned for ``App.ctl``. ValueError when the backgammon part is unusable (the
    whole save then is); a damaged Back Alley part is refused in ``pipcore.bamode.restore``."""
    waiting = Waiting(saved)
    _drop_backgammon(app)
    app.mode = _loaded("pipcore.bamode").restore(app, saved["backalley"])
    unload("pipcore", ("bahost",))
    return waiting


def _drop_backgammon(app):
    """What a backgammon game keeps leaves the heap: the store of a roll's plays and every module of the
    game (``BACKGAMMON``). Nothing may refer to the controller any more."""
    app._plays = None
    unload("pipcore", BACKGAMMON)
    gc.collect()


def _leave(app):
    """The mode ends: its modules leave the heap, the backgammon game's code and a roll's store come back
    (in that order: the heap holds one of them at a time)."""
    app.mode = None
    unload("pipcore", REFEREE)
    app.show_overlay(None)  # (the mode's modules leave with it: App.forget_modules)
    gc.collect()
    from pipcore.app import _ROLL_MODULES, PLAY_STORE
    from pipcore.playcodes import play_store

    try:
        app._plays = play_store(PLAY_STORE)  # the rolls of the match to come: written into one store
    except MemoryError:
        pass  # (each roll allocates its own)
    _loaded("pipcore.controller")
    for name in _ROLL_MODULES:
        _loaded(name)
    unload("pipcore", ("bawait",))  # (this module too, once this call returns)


def _loaded(name):
    """Module ``name``, its loading collected every ``_COLLECT`` bytes (MicroPython: the loader's garbage is
    reused at once instead of leaving holes between the code, ``pipcore.guard``)."""
    import sys

    every = gc.threshold() if hasattr(gc, "threshold") else None
    if every is not None:
        gc.threshold(_COLLECT)
    try:
        __import__(name)
    finally:
        if every is not None:
            gc.threshold(every)
    return sys.modules[name]


class Waiting:
    """``App.ctl`` while the board keeps a Back Alley score: the backgammon game that waits (a fresh game's
    setup with the match's options), as a fresh ``pipcore.controller.Controller`` shows it to the app and the
    protocol. ``saved``: its part of the state save (``snapshot``; a save of an older firmware holds the whole
    controller's, read the same); ValueError if it is damaged."""

    variant = "backgammon"
    phase = SETUP
    mover = 0
    cube = 1
    owner = -1
    offerer = -1
    offer_stage = 0
    dice = None
    result = None
    pending = None
    fair = None
    clock = None
    pick = None
    coach = None
    coach_panel = None
    want_roll = 0
    transit_since = -1
    deep_at = -1
    game_no = 1
    record_count = 0
    display = ("setup",)
    message = ""
    frame = 0
    # ``records`` (pipcore.keeper.RecordKeeper) is the game itself: no match record
    mid = 0
    games = 0
    length = 0
    failed = None
    store = None

    def __init__(self, saved):
        from pipcore.options import make_options

        try:
            self.options = make_options(saved["options"], "backgammon")
            self.tournament = bool(saved["tournament"])
        except (KeyError, TypeError) as exc:
            raise ValueError("the waiting backgammon game is damaged: %r" % (exc,))
        self._mid = None
        self.paused = False
        self.save_due = False
        self.play_store = None
        self.records = self
        self.pos = self
        self.scores = self.score = [0, 0]
        self.record = []
        self.marks = self.mark_player = self.sensed = bytearray(NLOC)

    def step(self, event, now):
        """The events that reach a waiting game: tournament mode (the menu); the rest wait for its match."""
        if event[0] == "tournament":
            self.tournament = bool(event[1])
            self.save_due = True

    def idle(self, ahead):
        return False

    def snapshot(self):
        """Its part of the state save (the app adds the score's): ``{"variant": "backgammon", "waiting": true,
        "options", "tournament"}``, not a controller's (``Controller.restore`` refuses it: nothing is lost,
        the fresh game is made again from the options when the mode ends)."""
        return {"variant": "backgammon", "waiting": True, "options": self.options, "tournament": self.tournament}

    def end_match(self):
        pass

    def phase_name(self):
        return "setup"

    def position_id(self):
        return START_ID

    def match_id(self):
        """The gnubg Match ID of the waiting match before its first game (worked out once a host asks)."""
        if self._mid is None:
            import sys

            gone = [m for m in ("matchid", "cube", "position") if "pipcore." + m not in sys.modules]
            from pipcore.matchid import GAME_NONE, MatchState

            length = self.options["matchLength"]
            state = MatchState(game_state=GAME_NONE, length=length, jacoby=bool(self.options["jacoby"]) and not length)
            self._mid = state.encode()
            state = None
            unload("pipcore", gone)  # (what it loaded leaves again)
        return self._mid

    def dice_left(self):
        return ()

    def record_size(self):
        return 0

    def record_page(self, offset, n):
        return b""
