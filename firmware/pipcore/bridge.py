"""The protocol's app seam over the board's main loop (``pipcore.app.App``).

``pipcore.protocol.ProtocolHandler`` reads frames and calls the seam its
docstring lists; ``AppBridge`` is that seam for the real app, on the Pico
(``pipdrivers.usb_serial``) and in the simulator alike: the snapshot, the
events numbered for the host, the record pages and the test-mode commands.
"""


class _ForcedDice:
    """Wraps the dice driver: test mode may queue the next values."""

    def __init__(self, dice):
        self.dice = dice
        self.forced = []

    def roll(self):
        if self.forced:
            return self.forced.pop(0)
        return self.dice.roll()


class AppBridge:
    """The protocol's app seam over ``pipcore.app.App`` (the board's main loop).

    Used by ``main.py`` on the Pico and by the simulator alike. ``poll(now)``
    runs the app and turns what changed into events for the host: ``phase``,
    ``roll``, ``record`` (each new line of the game record: plays, cube
    actions, results), ``cube``, ``game_over``, ``resign`` (an offer made,
    raised or ended) and ``fair`` (a fair match's commitment, then its seed).
    The event queue is bounded;
    when it overflows the oldest events are dropped and the host, seeing a gap
    in ``seq``, asks for a snapshot.
    """

    MAX_EVENTS = 32

    def __init__(self, app):
        self.app = app
        self.now = 0
        self.events = []
        self.injected = None
        self.remote = None  # {"commitment", "roll"}: the dice come from a remote match's authority
        if hasattr(app, "dice"):
            self.dice = _ForcedDice(app.dice)
            try:
                app.dice = self.dice
            except AttributeError:
                self.dice = None
        else:
            self.dice = None
        self._seen = self._state()
        self._tested = getattr(app, "tested", None)
        self._keyed = None  # the Back Alley keys last told (pipcore.bamode)
        self._looked = None  # the app's ``changes`` at the last look for events

    @property
    def ctl(self):
        return self.app.ctl

    # -- main loop ----------------------------------------------------------
    def poll(self, now):
        self.now = now
        app = self.app
        app.poll(now)
        changes = getattr(app, "changes", None)  # (App counts what may change it; another app: looked at always)
        if changes is not None and changes == self._looked:
            return  # nothing happened since the last look: no state tuple made on an idle pass
        self._looked = changes
        self._changes()

    def _state(self):
        app = self.app
        ctl = app.ctl
        dice = ctl.dice
        # which match: the app's generation (a controller rebuilt after a fault is the same match)
        match = getattr(app, "generation", None)
        offer = ctl.pending.display if ctl.pending is not None and ctl.pending.display[0] == "resign" else None
        fair = (ctl.fair.commitment, ctl.fair.revealed) if ctl.fair is not None else None
        return (id(ctl) if match is None else match, ctl.phase_name(), tuple(dice) if dice else None, ctl.cube, ctl.owner, ctl.record_count,
                ctl.game_no, offer, fair)

    def _changes(self):
        mode = getattr(self.app, "mode", None)
        keyed = mode.seen() if mode is not None else None
        if keyed != self._keyed:  # a Back Alley key went in or was taken back
            self._keyed = keyed
            if mode is not None:
                self._push(mode.event())
        tested = getattr(self.app, "tested", None)
        if tested is not self._tested:  # a self-test ended: its result, switch by switch
            self._tested = tested
            if tested is not None:
                event = {"event": "self_test"}
                for key in tested:
                    event[key] = tested[key]
                self._push(event)
        old = self._seen
        new = self._state()
        if new == old:
            return
        self._seen = new
        ctl = self.app.ctl
        mode = getattr(self.app, "mode", None)
        if new[0] != old[0] or new[6] != old[6]:
            self._push({"event": "new_game", "game": ctl.game_no, "variant": ctl.variant if mode is None else
                        "backalley"})
            old = (new[0], None, None, 1, -1, 0, new[6], None, None)
        if new[5] > old[5]:
            log = ctl.record  # the last lines of the game's log: the newest are at its end
            fresh = new[5] - old[5]
            for line in log[-fresh:] if fresh < len(log) else log:
                self._push({"event": "record", "text": line, "mover": ctl.mover})
        elif new[5] < old[5]:
            self._push({"event": "record_reset", "lines": new[5]})
        if new[2] != old[2] and new[2] is not None:
            self._push({"event": "roll", "dice": list(new[2]), "mover": ctl.mover})
        if new[3] != old[3] or new[4] != old[4]:
            self._push({"event": "cube", "value": new[3], "owner": new[4]})
        if new[7] != old[7]:  # a resignation offered, raised (level, points), or ended (level 0)
            off = new[7] or old[7]
            self._push({"event": "resign", "player": off[1], "level": new[7][2] if new[7] else 0,
                        "points": new[7][3] if new[7] else 0})
        if new[8] != old[8] and new[8] is not None:
            self._push({"event": "fair", "commitment": new[8][0], "seed": ctl.fair.seed if new[8][1] else None})
        if new[1] != old[1]:
            self._push({"event": "phase", "phase": new[1], "mover": ctl.mover})
            if new[1] in ("game-over", "match-over") and ctl.result:
                self._push({"event": "game_over", "winner": ctl.result[0], "points": ctl.result[1],
                            "score": list(ctl.scores)})

    def _push(self, event):
        if len(self.events) >= self.MAX_EVENTS:
            self.events.pop(0)
        self.events.append(event)

    def pop_event(self):
        if self.events:
            return self.events.pop(0)
        return None

    # The host's events go to ``app.event`` straight from each command (no helper between): a command
    # answered from the main loop (pipdrivers.usb_serial.HostLink) then steps the controller as deep on the
    # Pico's C stack as a button press does (tests/pico/depth.py).

    # -- the protocol seam ----------------------------------------------------
    def snapshot(self):
        ctl = self.app.ctl
        opts = ctl.options
        dice = ctl.dice
        snap = {
            "variant": ctl.variant,
            "phase": ctl.phase_name(),
            "mover": ctl.mover,
            "position_id": ctl.pos.position_id(),
            "match_id": self._match_id(),
            "dice": list(dice) if dice else None,
            "cube": {"value": ctl.cube, "owner": ctl.owner, "offered_by": getattr(ctl, "offerer", -1),
                     "stage": getattr(ctl, "offer_stage", 0)},
            "score": list(ctl.scores),
            "match_length": opts.get("matchLength", 0),
            "game": ctl.game_no,
            "options": opts,
            "message": ctl.message,
            "record_lines": ctl.record_count,
            "error": getattr(self.app, "error", None),
            "faults": getattr(self.app, "faults", 0),
            "last_fault": getattr(self.app, "last_fault", None),
            "storage": self.storage(),
        }
        if ctl.result:
            snap["result"] = list(ctl.result)
        if ctl.phase_name() == "pick":  # which candidate the LEDs show: its play, as gnubg writes it
            cands, idx = ctl.pick
            snap["pick"] = {"index": idx + 1, "count": len(cands), "play": ctl.pick_play()}
        if self.remote is not None:
            snap["remote"] = self.remote
        app = self.app
        if hasattr(app, "hardware"):  # the board's own parts: the menu, the self-test, the power-up checks
            overlay = app.overlay
            mode = getattr(app, "mode", None)
            if mode is not None and mode is not overlay:
                mode.describe(snap)  # the Back Alley score (pipcore.bamode) under the menu or the self-test
            if overlay is not None:
                overlay.describe(snap)  # its fields, and its message instead of the game's
            if "menu" not in snap:
                snap["menu"] = {"open": False, "pending": app.pending}
            if "self_test" not in snap:
                snap["self_test"] = app.tested
            snap["hardware"] = app.hardware
        clock = getattr(ctl, "clock", None)
        snap["clock"] = clock.view() if clock is not None else None  # the tournament clock (pipcore.gameclock)
        pending = ctl.pending  # at the table: a resignation offered, dice being keyed in (docs/protocol.md)
        if pending is not None:
            d = pending.display
            if d[0] == "resign":
                snap["resign"] = {"player": d[1], "level": d[2], "points": d[3]}
            else:
                snap["keyed"] = {"dice": [d[1], d[2]], "player": d[3], "correcting": pending.correcting}
        if ctl.fair is not None:
            snap["fair"] = ctl.fair.public()
        return snap

    def _match_id(self):
        """The gnubg Match ID of the referee's state, or None where it has none (a cube gnubg cannot write)."""
        return self.app.ctl.match_id()

    def new_game(self, variant, options):
        self.remote = None
        app = self.app
        if hasattr(app, "new_game"):
            app.new_game(variant, options)
        else:
            from pipcore.controller import Controller

            ctl = Controller(options, variant, getattr(app, "capacity", None))
            ctl.save_due = True
            app.ctl = ctl
            sensors = getattr(app, "sensors", None)
            if sensors is not None:
                ctl.step(("board", sensors.counts), self.now)
        if self.injected is not None:  # test mode: the injected readings are what the board senses
            self.app.event(("board", self.injected), self.now)
        self._changes()

    def set_position(self, position_id, match_id):
        mover = 0
        dice = None
        if match_id:
            from pipcore.matchdecode import decode_match_id

            state = decode_match_id(match_id)  # checked already by the handler
            mover = state.on_roll
            dice = state.dice if state.dice[0] else None
        # the controller's loader imported here, high on the stack: an import is deep in C (on the Pico's 8 KB
        # stack it left 950 bytes from inside the controller's step: tests/pico/depth.py)
        import pipcore.matchload  # noqa: F401
        import pipcore.options  # noqa: F401  (a Match ID's options are made again; both leave after the load)

        self.app.event(("load", position_id, mover, dice, match_id), self.now)
        self._changes()

    def show_play(self, play):
        self.app.event(("host_play", play), self.now)
        self._changes()

    def show_cube(self, action):
        self.app.event(("button", action.upper()), self.now)
        self._changes()

    def roll(self):
        self.app.event(("button", "ROLL"), self.now)
        self._changes()

    def resign(self, player, action, level):
        """A host's resignation: ``player`` offers (``level`` 1..3), accepts, declines or withdraws; the reply
        says what waits now (the offer, or None) and the phase (``game-over`` after an accepted one)."""
        self.app.event(("resign", player, action, level), self.now)
        self._changes()
        pending = self.app.ctl.pending
        d = pending.display if pending is not None else ()
        offer = {"player": d[1], "level": d[2], "points": d[3]} if d and d[0] == "resign" else None
        return {"resign": offer, "phase": self.app.ctl.phase_name()}

    def coach(self, player, segments, level, loss, text):
        from pipcore.coaching import RATINGS, panel_pips

        self.app.event(("coach", player, segments, level, panel_pips(loss), text), self.now)
        self._changes()
        self._push({"event": "coach", "player": player, "rating": RATINGS[level], "loss": loss, "text": text})
        return self.app.ctl.coach is not None

    def record_page(self, match, offset, n):
        app = self.app
        if getattr(app, "store", None) is not None:  # the board's App: pipcore.directory, loaded on demand
            from pipcore.directory import record_page
            return record_page(app, match, offset, n)
        if match is not None:
            raise ValueError("this board keeps no directory of matches")
        ctl = app.ctl
        fn = getattr(ctl, "record_bytes", None)
        data = fn() if fn is not None else (("\n".join(ctl.record) + "\n").encode() if ctl.record else b"")
        return len(data), data[offset:offset + n]

    def _directory(self):
        if getattr(self.app, "store", None) is None:
            raise ValueError("this board keeps no directory of matches")
        from pipcore import directory
        return directory

    def matches(self, start, n):
        if getattr(self.app, "store", None) is None:
            return [], None
        return self._directory().matches(self.app, start, n)

    def mark_exported(self, match, length):
        self._directory().mark_exported(self.app, match, length)

    def delete_match(self, match):
        self._directory().delete_match(self.app, match)
        self._changes()

    def set_time(self, seconds):
        if getattr(self.app, "store", None) is None:
            raise ValueError("this board keeps no directory of matches")
        from pipcore.directory import set_time

        set_time(self.app, seconds, self.now)

    def storage(self):
        """The snapshot's ``storage``: flash free, low space, the live match's id and record state."""
        app = self.app
        if not hasattr(app, "low_space"):
            return None
        store = app.store
        records = app.ctl.records
        return {"free": store.free() if store is not None else None, "low": app.low_space,
                "match": records.mid or None, "record": records.failed}

    def _settable(self):
        source = self.app.ctl.options.get("dice", "electronic")
        if self.dice is None:
            raise ValueError("this board's dice cannot be set")
        if source != "electronic":
            raise ValueError("this match's dice are %s: they cannot be set" % (
                "keyed in with the buttons" if source == "physical" else "a provably fair seed's"))

    def set_dice(self, dice):
        self._settable()
        self.dice.forced = [dice[0], dice[1]]

    def remote_dice(self, dice, commitment, roll):
        """The next roll of a remote match, from the match's dice authority (shown in the snapshot)."""
        self._settable()
        self.dice.forced = [dice[0], dice[1]]
        self.remote = {"commitment": commitment, "roll": roll}

    def self_test(self, action):
        if not hasattr(self.app, "hardware"):
            raise ValueError("this board has no self-test")
        from pipcore.selftest import command

        result = command(self.app, action, self.now)
        command = None
        self.app.forget_modules()  # (while no test runs)
        self._changes()
        return result
    def advance(self, ms):
        """Test mode: the board's time jumps ``ms`` ahead, at once (``App.advance_time``)."""
        fn = getattr(self.app, "advance_time", None)
        if fn is None:
            raise ValueError("this board's time cannot be advanced")
        fn(ms)
        self.app.poll(self.now)  # the board sees the jump now: a clock that ran out falls before the reply
        self._changes()

    def inject(self, kind, index, value, player=None):
        app = self.app
        if kind == "press":  # a physical button, as the players press it (the menu, the self-test)
            if index >= 10:
                raise ValueError("button index %d out of range (0..9)" % index)
            app.press(index, value, self.now)  # (App.press is App._button: no frame between)
            self._changes()
            return
        if kind == "switch":  # the simulator's twin only: a real board's switches stay what they are
            stick = getattr(app, "stick_switch", None)
            if stick is None:
                raise ValueError("only the simulated board's switches can be stuck")
            if index >= 168:
                raise ValueError("scan bit %d out of range (0..167)" % index)
            stick(index, value)
            return
        if kind == "button":
            from pipcore.controller import BUTTONS

            if index >= len(BUTTONS):
                raise ValueError("button index %d out of range (0..%d)" % (index, len(BUTTONS) - 1))
            if value:
                name = BUTTONS[index]
                self.app.event(("button", name) if player is None else ("button", name, player), self.now)
                self._changes()
            return
        counts = self.injected  # injected readings stay what the board senses (a new game included)
        if counts is None:
            sensors = getattr(app, "sensors", None)
            counts = bytearray(sensors.counts) if sensors is not None else bytearray(self.app.ctl.sensed)
            self.injected = counts
        if index >= len(counts):
            raise ValueError("location %d out of range (0..%d)" % (index, len(counts) - 1))
        counts[index] = value
        self.app.event(("board", counts), self.now)
        self._changes()
