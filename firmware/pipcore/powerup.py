"""The board's power-up: the saved game resumed (or a fresh one) and the settings file applied.

Run once by ``pipcore.app.App`` when the board starts, then unloaded: its code
never stays in the heap beside the game's.
"""

import json

from pipcore import guard


def power_up(app, options, variant):
    """The controller the board starts with: the saved game resumed, or a fresh one; a fault while
    restoring is tried once more, then the board starts afresh and never overwrites that save."""
    failure = None
    for _ in range(2):
        try:
            return _resume(app, options, variant)
        except Exception as exc:  # MemoryError or a bug while restoring: the save itself may be good
            failure = exc
            app.faults += 1
            guard.relieve(None)
    app.fault(guard.kind_of(failure), failure)
    app.saving = False  # never overwrite the save this start could not read; a new match saves again
    # (its record in RAM: the flash is left alone)
    from pipcore.controller import Controller

    return Controller(options, variant, app.capacity, entropy=app.entropy)


def _resume(app, options, variant):
    """The saved game (a Back Alley score: its waiting game, ``pipcore.bawait``), else a fresh one."""
    app.mode = None
    payload = None
    try:
        payload = app.hw.state_store.load()
    except (OSError, ValueError) as exc:
        app.load_error = "reading the saved game failed: %s" % exc
    if payload:
        try:
            data = json.loads(payload)
            if "backalley" in data:  # the score of a Back Alley game: the backgammon game waits without
                from pipcore.bawait import resume  # its code (pipcore.bawait)

                ctl = resume(app, data)
            else:
                from pipcore.controller import Controller

                ctl = Controller.restore(data, app.capacity, app.store, app.entropy)
                _clock_reading(app, ctl)
            app.resumed = True
            app._check_space()
            return ctl
        except ValueError as exc:  # (pipcore.controller.ControllerError too)
            # a damaged save must not brick the board: start afresh, and say why
            app.load_error = "the saved game was unusable: %s" % exc
    from pipcore.controller import Controller

    ctl = Controller(options, variant, app.capacity, store=app.store, entropy=app.entropy)
    ctl.save_due = True
    app._check_space()
    return ctl


def _clock_reading(app, ctl):
    """A running clock goes on from its last reading when that is newer than the save (pipcore.gameclock)."""
    store = getattr(app.hw, "clock_store", None)
    if ctl.clock is None or store is None:
        return
    try:
        data = store.load()
    except (OSError, ValueError):
        return
    if data:
        ctl.clock.take_reading(data, app.hw.state_store.seq)


def load_settings(app):
    """The settings file (pipcore.settings): brightness and tournament mode now, a waiting match later."""
    store = getattr(app.hw, "settings_store", None)
    try:
        payload = store.load() if store is not None else None
        data = json.loads(payload) if payload else None
        if isinstance(data, dict):
            app.hw.pixels.brightness = float(data["light"])
            app.tournament = app.ctl.tournament = bool(data["tournament"])
            app.pending = isinstance(data.get("next"), dict)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no settings, or a file this firmware cannot read: the defaults stand
