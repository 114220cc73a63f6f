"""The app: the board's drivers in, the controller stepped, LEDs / dice display / saves out.

One loop for the Pico (``main.py`` with ``pipdrivers.board_pins.build()``)
and the simulated board (``pipboard.simboard`` with the twins of
``pipboard.twins``): both hand ``App`` a ``pipdrivers.board.Board``. The app
never imports ``machine``, files or clocks; ``poll(now)`` is its only entry
and the caller owns time.

Each ``poll``: scan the switches (every ``SCAN_PERIOD_MS``), turn settled
changes into per-location counts (``geometry.location_counts``) and step the
controller; debounce the buttons and step it with their meaning; roll when it
asks; save its state when it asks; redraw the LEDs right after any change
(and every ``FRAME_PERIOD_MS`` for blinking) and the panel (dice, cube, turn).
After each ``poll``, ``due`` says when the next one is needed (the next scan
at the latest; at once while work waits): ``main.py`` sleeps until then. A
pass where nothing was sensed, pressed or falls due only scans and polls the
buttons (``changes`` counts what may have changed the board: the LEDs, the
panel and the host's events are looked at again only then).

Buttons (geometry.BUTTON_NAMES): a player's roll/done button is ROLL before
the roll and DONE after it; double, take and drop act on the cube (double,
facing a double, beavers; after a beaver, raccoons); each side's four act only
for that side (the controller refuses the other side's out of turn); a side's
drop held long offers to resign (``pipcore.resign``); ``undo`` short reopens keyed-in
dice (``pipcore.keyed``); ``menu`` short shows
the next candidate when the board asks to pick; ``menu`` long opens the board's menu
(``pipcore.settings``: loaded only then), which takes every button and LED until it closes,
as the self-test does (``pipcore.selftest``); ``undo`` long starts a new match. At power-up
the settings file is applied and the LED chain checked; the switch chain is watched at every
scan (``hardware``, the panel's fault code 4).

The board never stops (``pipcore.guard``): a fault inside an event (a
``MemoryError``, a bug) leaves the controller half-applied, so ``step``
rebuilds it from the last committed state (the save, as a power cut would)
with the sensed checkers, and tries the event again with the dice it
already rolled (a fault never re-rolls dice). If that fails too, the board
stays at the last commit, shows the fault on the panel (``DiceDisplay.error``)
and in ``error``, and goes on answering the host and the players.
"""

import json

from pipcore import geometry as g
from pipcore import guard
from pipcore.compat import unload
from pipcore.board import NLOC
from pipcore.names import CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, PICK
from pipcore.jsonbuf import JsonBuffer
from pipcore.playcodes import play_store
from pipcore.render import Renderer

try:  # MicroPython: the heap is watched (CPython has no mem_free, and collects on its own)
    from gc import collect as _collect
    from gc import mem_free as _mem_free
except ImportError:
    _collect = _mem_free = None

SCAN_PERIOD_MS = 5
BUTTON_PERIOD_MS = 10
FRAME_PERIOD_MS = 20
# A heap too full for the work ahead is looked at again after this long (``gc.mem_free`` walks the whole
# heap: 9 ms on the emulated Pico, as long as a pass that scans and draws)
AHEAD_RETRY_MS = 1000
CALM_MS = 1000  # the longest a pass with nothing sensed stays a calm one (only the scan and the buttons)
CHAIN_MS = 50  # the switch chain's sentinel read otherwise for this long: it broke (or works again)
SAVE_BUFFER = 1536  # bytes kept for the state save's JSON (about 1.1 KB; grown by half when a save outgrows it)
PLAY_STORE = 2304  # play codes a double's turn may write without growing (the corpus's largest: 2,226)
_CAUCASIAN_MODULES = ("caucasian", "causteps", "caunative")
_NARDY_MODULES = ("nardy", "nardysteps")


def _unload_other_variants(ctl):
    """A new match keeps its own variant's generator; the other variants' code leaves the heap (a Caucasian
    match then long nardy held both: 21 KB, tests/pico/heap.py), and so does the options' table (~4 KB: a
    match's options are made once, when it starts; a variant's turns load it again)."""
    gone = ("options",) if ctl.variant == "nardy" else ("options",) + _NARDY_MODULES
    opts = ctl.options
    if ctl.variant == "nardy" or not (opts.get("caucasian") or opts.get("jailBearOff")):
        gone += _CAUCASIAN_MODULES
    unload("pipcore", gone)


# Loaded on demand elsewhere, but every backgammon roll needs them: loaded at power-up, while the heap
# is whole (a module's code wants blocks of a KB or more that a game's heap no longer has in one piece)
_ROLL_MODULES = ("pipcore.turnmap", "pipcore.steps", "pipcore.reach", "pipcore.showing")
# Bytes the heap keeps free for the next event: work ahead (lift targets) stops below it, so it never
# takes the heap under the on-target line (50 KB free at a turn's worst moment, issue 23) even with the
# garbage of one unit of work ahead: up to ~4.5 KB (a long nardy 1-1's lift targets, unix port halved).
# At 24 KB the work ahead of a long nardy 1-1 met MemoryErrors on the Pico. (The long nardy 1-1 still
# dips under the line, 47 KB at 56 KB as at 52 KB: its worst moment is elsewhere; tests/bench/README.md.)
IDLE_RESERVE = 57344

_TICK = ("tick",)  # one tuple for every tick (a poll must not allocate)
_SHORT = 1  # pipdrivers.buttons.SHORT
_LONG = 2  # pipdrivers.buttons.LONG
# button index -> name for a short press (geometry.BUTTON_NAMES order)
_SHORT_NAMES = ("ROLL", "DOUBLE", "TAKE", "DROP", "ROLL", "DOUBLE", "TAKE", "DROP", "UNDO", "NEXT")
_LONG_NAMES = (None, None, None, "RESIGN", None, None, None, "RESIGN", "NEW", None)
SWITCH_CHAIN = "the switch chain is broken (its sentinel byte does not come back)"
LED_CHAIN = "the LED chain is broken (no data comes back from its last pixel)"


def _shown(value):
    """True for the cube values the panel has a pixel for (1, 2, 4 .. 64)."""
    return 1 <= value <= 64 and not value & (value - 1)


class App:
    """Owns the controller and moves data between it and the drivers of ``hw``."""

    def __init__(self, hw, options=None, variant="backgammon", capacity=None):
        self.hw = hw
        self.capacity = capacity if capacity is not None else g.CAPACITY
        self.counts = bytearray(NLOC)
        self.renderer = Renderer(hw.pixels, self.counts)
        self.resumed = False
        self.load_error = None
        self.saves = 0
        self.save_errors = 0
        self.dice = hw.dice  # anything with roll() -> (d1, d2) or one die per call
        self.entropy = getattr(hw, "entropy", None)  # entropy(n) -> bytes: a fair match's seed (pipcore.fairdice)
        self.sensors = self  # the protocol bridge reads ``sensors.counts``
        # survival (pipcore.guard): see ``step`` and ``fault``
        self.error = None  # one line naming the fault shown on the panel, None while all is well
        self.error_kind = None  # guard.MEMORY, guard.INTERNAL or guard.SAVE
        self.faults = 0  # exceptions caught (recovered or not) since power-up
        self.last_fault = None
        self.saving = True  # False after a start that could not read a save: keep it for the next start
        self.generation = 0  # bumped by new_game only: a rebuilt controller is the same match
        self._board = None  # counts of the last "board" event (the rebuild feeds them again)
        self._rolled = []  # dice rolled by the event being applied
        self._replay = []  # dice rolled by a failed event: the next rolls take them first
        self._unsaved = None  # payload of a commit the flash refused: the rebuild starts from it
        self._poll_failures = 0
        self._save_retry_at = 0  # when a refused save is tried again from the quiet loop
        self._save_backoff = 0
        self._json = JsonBuffer(SAVE_BUFFER)  # before anything fragments the heap
        self.store = getattr(hw, "match_store", None)  # the match records (pipdrivers.recstore), if any
        self.low_space = False  # the flash is nearly full (docs/controller.md: the turn light pulses amber)
        self._time_at = None  # (host's seconds since 1970, app ms) of the last set_time
        self.skew = 0  # ms added to the caller's time: test mode's ``advance`` (docs/protocol.md)
        try:
            self._plays = play_store(PLAY_STORE)  # likewise: every roll's plays are written here
        except MemoryError:  # a heap already cut up (never at power-up): each roll allocates its own
            self._plays = None
        if variant == "backgammon":
            for name in _ROLL_MODULES:
                __import__(name)
        self.mode = None  # the board keeps a Back Alley score (pipcore.bamode, loaded only then)
        from pipcore import powerup  # (its code leaves the heap once the board is up)

        self.ctl = powerup.power_up(self, options, variant)
        self.overlay = self.mode  # the open menu, the running self-test or the mode: the buttons and the LEDs
        self.tested = None  # the result of the last self-test (the snapshot's ``self_test``)
        self.pending = False  # a match chosen in the menu waits for the next new match (pipcore.settings)
        self.tournament = None  # tournament mode from the settings (None: none saved yet)
        powerup.load_settings(self)
        unload("pipcore", ("powerup", "options"))  # (options: made once a match)
        self.hardware = []  # what the power-up checks and the self-test found broken
        self._chain_ok = True  # the switch chain as last judged: watched at every scan (``_poll``)
        self._chain_at = None  # since when the chain reads otherwise
        self.hardware_checked(True, hw.check_leds() if hasattr(hw, "check_leds") else None)
        self._scan_at = None
        self._button_at = None
        self._frame_at = -FRAME_PERIOD_MS
        self._drawn = -1
        self._panel = None
        self._dirty = True
        # the idle loop (main.py sleeps between the passes it needs)
        self.changes = 0  # bumped by whatever may change the board's state: the host's bridge looks only then
        self.due = 0  # the caller's time of the next pass this app needs (the next scan at the latest)
        self._looked = -1  # ``changes`` when the LEDs and the panel were last looked at
        self._animated = False  # something blinks or pulses: a frame every FRAME_PERIOD_MS
        # the controller may have work ahead (``quiet``); False once it had none, until an event or another
        # controller (no reference to the controller is kept here: a Back Alley mode drops its code, bawait)
        self._ahead = True
        self._ahead_at = 0  # heap too full for the work ahead: when it is looked at again
        self._ahead_garbage = False  # the work ahead left garbage since the last collection
        self._calm_until = 0  # until then a pass where nothing is sensed only scans (``_plan``)
        self._litter = False  # an event ran since the last collection (MicroPython only)
        if hasattr(guard.gc, "threshold"):  # loaded: no collection until the heap is full (pipcore.guard)
            guard.gc.threshold(-1)

    def hardware_checked(self, switch_chain, led_chain):
        """The chains checked (power-up, self-test; ``led_chain`` None: this board cannot check it)."""
        self._chain_ok = switch_chain
        found = [] if switch_chain else [SWITCH_CHAIN]
        if led_chain is False:
            found.append(LED_CHAIN)
        self.hardware = found
        if found:
            self.fault(guard.HARDWARE, "; ".join(found))
        elif self.error_kind == guard.HARDWARE:
            self._clear_error()

    def show_overlay(self, overlay):
        """The menu or the self-test takes the LEDs and the buttons (None gives them back to the game, and
        their modules leave the heap); the Back Alley mode takes them back if it is on."""
        if overlay is None:
            overlay = self.mode
        self.overlay = overlay
        self.ctl.paused = overlay is not None  # (the running clock is charged meanwhile: pipcore.gameclock)
        if self.ctl.clock is not None:
            self.ctl.clock.wake = 0  # the next pass steps it: the panel, and a flag that fell in the menu
        if overlay is self.mode:
            self.forget_modules()
        px = self.hw.pixels
        for i in range(g.LED_LOC_BASE, g.LEDS):
            px.set(i, 0, 0, 0)
        lit = self.renderer.lit
        for i in range(NLOC):
            lit[i] = 0
        self._drawn = -1
        self._panel = None
        self._dirty = True
        self.changes += 1
        self._ahead = True

    def forget_modules(self):
        """The menu's, settings' and self-test's code out of RAM while none is open (unix port: 17 KB, 7 KB)."""
        if self.overlay is self.mode:
            unload("pipcore", ("menu", "settings", "selftest", "options") if self.mode else (
                "menu", "settings", "selftest", "options", "glyphs", "bamode", "bahost", "bascore", "bacalls", "bawait"))

    # -- the loop ------------------------------------------------------------
    def poll(self, now):
        """One pass of the main loop at time ``now`` (ms); never raises an Exception."""
        now += self.skew
        try:
            self._poll(now)
        except Exception as exc:  # the scan, the buttons or the LEDs failed: the controller is intact
            self._poll_fault(exc)
            return
        if self._poll_failures:
            if self._poll_failures > 1 and self.error_kind != guard.SAVE:
                self._clear_error()
            self._poll_failures = 0

    def _poll(self, now):
        # (Few locals in the functions of a calm pass: MicroPython puts a frame of more than 11 locals and
        # stack slots on the heap, and finding that block in a game's heap cost 0.3 ms on the emulated Pico.
        # The events are stepped from here, as deep on the C stack as before.)
        busy = False
        if self._scan_at is None or now - self._scan_at >= SCAN_PERIOD_MS:
            if self._scan(now):  # a change settled: the counts are read
                busy = True
                if self.overlay is None or not self.overlay.sensed(now):  # (the self-test keeps the board)
                    self.step(("board", self.counts), now)
        if self._button_at is None or now - self._button_at >= BUTTON_PERIOD_MS:
            self._button_at = now
            self.hw.buttons.poll(now)
            code = self.hw.buttons.pop()  # drained on every pass: a press left by a failed pass is not lost
            while code >= 0:
                busy = True
                self._button(code >> 2, code & 3, now)
                code = self.hw.buttons.pop()
        if not busy and self.overlay is None and now - self._calm_until < 0 and not self._dirty and (
                self._looked == self.changes):
            self.due = self._scan_at + SCAN_PERIOD_MS - self.skew  # a calm pass: nothing to tick, draw or prepare
            return
        self._pass(now, busy)

    def _scan(self, now):
        """Scan the switches; True if a change settled (``counts`` then holds the sensed checkers)."""
        first = self._scan_at is None
        self._scan_at = now
        scanner = self.hw.scanner
        scanner.scan(now)
        if scanner.chain_ok == self._chain_ok:
            self._chain_at = None
        else:
            self._chain_watch(scanner.chain_ok, now)
        if not (first or scanner.pending()):
            return False
        self._read_counts(scanner)
        return True

    def _read_counts(self, scanner):
        while scanner.pop() >= 0:
            pass
        counts = self.counts
        g.location_counts(scanner.bits, counts)
        for i in range(NLOC):
            counts[i] &= 0x7F  # a checker not pushed home still counts in its run

    def _chain_watch(self, ok, now):
        if self._chain_at is None:
            self._chain_at = now
        elif now - self._chain_at >= CHAIN_MS:  # the switch chain broke, or works again (not a glitch,
            self._chain_at = None  # nor a keypad that has not scanned yet at power-up)
            self.hardware_checked(ok, LED_CHAIN not in self.hardware and None)

    def _pass(self, now, busy):
        """The rest of a pass where something happened or is due: ticks, the LEDs, the quiet work, the plan."""
        overlay = self.overlay
        ctl = self.ctl  # (a step may have rebuilt the controller)
        clock = ctl.clock
        if ctl.transit_since >= 0 or 0 <= ctl.deep_at <= now or clock is not None and 0 <= clock.wake <= now:
            self.step(_TICK, now)  # checkers in hand escalate; a deeper reading is due; the running clock
            clock = self.ctl.clock
            if clock is not None and clock.running >= 0 and self.saving:  # its reading between saves
                clock.keep_reading(getattr(self.hw, "clock_store", None), self.hw.state_store.seq, now)
        if busy or overlay is not None:
            self.changes += 1
        self.draw(now)
        if not busy and self.quiet(now):
            self.changes += 1  # (a deeper reading of the counts may change the marks)
            busy = True
        self._plan(now, busy)

    def _plan(self, now, busy):
        """When the next pass is needed (``due``, in the caller's time: it sleeps until then, USB keeps
        working), and until when the passes between may only scan (``_calm_until``).

        At once while work waits (an event's garbage, the work ahead, checkers in hand: their ticks); else
        the next animation frame, deeper reading (``Controller.deep_at``), clock deadline or save retry, and the next scan at the latest (the
        buttons are polled on a scan's pass: their period is two scan periods).
        """
        ctl = self.ctl
        calm = now + CALM_MS
        if busy or self._litter or ctl.transit_since >= 0:
            calm = now
        else:
            if self._ahead:  # the work ahead goes on (or waits for the heap)
                calm = self._ahead_at
            if self._animated or self.overlay is not None:
                calm = min(calm, self._frame_at + FRAME_PERIOD_MS)
            if 0 <= ctl.deep_at < calm:  # the deeper reading of a change answered in haste: its tick
                calm = ctl.deep_at
            clock = ctl.clock
            if clock is not None and 0 <= clock.wake < calm:
                calm = clock.wake
            if ctl.save_due and self._save_retry_at < calm:
                calm = self._save_retry_at
        self._calm_until = calm
        due = min(calm, self._scan_at + SCAN_PERIOD_MS)
        self.due = (due if due > now else now) - self.skew

    def quiet(self, now):
        """The work of a pass where nothing was sensed or pressed; True if it did something.

        A commit the flash or the heap refused is saved again (with back-off);
        the garbage of the last event is collected now, between a person's
        actions (so the next event rarely meets a collection); then the
        controller works ahead (``Controller.idle``: while the heap keeps
        ``IDLE_RESERVE`` free, the next lift's targets; what the board says
        never hangs on it, the deeper reading of counts being a tick's).
        """
        ctl = self.ctl
        if ctl.save_due and now - self._save_retry_at >= 0:
            self._retry_save(now)  # do not wait for the next commit
        if self._litter and _collect is not None:
            self._litter = False
            self._ahead_garbage = False
            _collect()
            return True
        if not self._ahead:
            return False  # nothing was left to prepare: nothing is, until an event (``step``) or another controller
        if now - self._ahead_at < 0:
            return False  # the heap was too full: looked at again later (or after an event)
        # below the reserve a lift computes its own targets: the heap is for the next event
        free = IDLE_RESERVE if _mem_free is None else _mem_free()
        if free < IDLE_RESERVE and self._ahead_garbage and _collect is not None:
            self._ahead_garbage = False  # the work ahead's own garbage took the reserve: collected first
            _collect()
            return True
        prepare = free >= IDLE_RESERVE
        try:
            done = bool(ctl.idle(prepare))
        except Exception as exc:  # half-built tables: rebuild the controller
            self._recover(exc, None, now)
            return False
        if done:
            self._ahead_garbage = _collect is not None
        elif prepare:
            self._ahead = False  # all done: no more work (nor ``mem_free``) on the quiet passes
        else:
            self._ahead_at = now + AHEAD_RETRY_MS
        return done

    def _retry_save(self, now):
        self._save()
        if self.ctl.save_due:  # refused again: try less and less often, up to every 2 s
            self._save_backoff = min(2 * self._save_backoff, 2000) if self._save_backoff else 20
            self._save_retry_at = now + self._save_backoff
        else:
            self._save_backoff = 0

    def _poll_fault(self, exc):
        """A fault outside the controller: relieve, redraw everything, rescan; twice running is shown."""
        self.faults += 1
        kind = guard.kind_of(exc)
        self.last_fault = guard.describe(kind, exc)
        guard.relieve(self.ctl)
        self._scan_at = None  # the next pass reads every switch again
        self._drawn = -1
        self._panel = None
        self._dirty = True
        self._poll_failures += 1
        if self._poll_failures > 1:
            self.fault(kind, exc)

    def _button(self, button, kind, now):
        if button >= len(_SHORT_NAMES):
            return
        self.changes += 1
        if self.error_kind == guard.HARDWARE and self._chain_ok and kind == _SHORT:
            self._clear_error()  # seen: the panel goes back to the game (``hardware`` still says it)
        if self.overlay is not None:
            self.overlay.press(button, kind, now)
            return
        if kind == _LONG and button == g.BTN_MENU:
            if hasattr(guard.gc, "threshold"):  # its code loads collected as it goes (pipcore.settings: the room
                guard.gc.threshold(16384)  # Back Alley's names need is then found in one piece; it sets it back)
            from pipcore.settings import MenuSession

            self.show_overlay(MenuSession(self))
            return
        if kind == _SHORT:
            name = _SHORT_NAMES[button]
            phase = self.ctl.phase
            if name == "ROLL" and phase in (MOVING, PICK, GAME_OVER, MATCH_OVER):
                name = "DONE"
            elif name == "DOUBLE" and phase == CUBE_OFFERED:
                name = "BEAVER" if self.ctl.offer_stage == 1 else "RACCOON"
            if name:
                # a side's four buttons act only for that side (undo and menu belong to both)
                self.step(("button", name, 0 if button < 4 else 1) if button < 8 else ("button", name), now)
        elif kind == _LONG:
            name = _LONG_NAMES[button]
            if name == "RESIGN":  # a side's DROP held: that side offers to resign (pipcore.resign)
                self.step(("button", name, 0 if button < 4 else 1), now)
            elif name:
                self.step(("button", name), now)

    # physical button ``button`` (0..9) pressed short (``kind`` 1) or held (2), as the loop reads it: the
    # protocol's ``inject`` ``press`` (test mode); the same function, so as deep as a press on the C stack
    press = _button

    def step(self, event, now, refusals=False):
        """Step the controller with one event and carry out what it asks (roll, save).

        A fault rebuilds the controller from the last commit and tries the
        event once more (see the module docstring). Never raises, except that
        with ``refusals`` (the host's events) a ValueError, the controller
        refusing the event, goes back to the caller.
        """
        self.changes += 1
        if event[0] != "tick":  # (a tick leaves no work ahead: it comes every pass while checkers are in hand)
            self._ahead = True  # the event may leave work ahead (or the heap room for it)
            self._ahead_at = now
        if event[0] == "board":
            self._board = event[1]
        else:  # (not for every scan: a match starts on a button or a host's event)
            self._tick_clock(now)
        if event[0] != "tick" or 0 <= self.ctl.deep_at <= now:  # (a tick's deeper reading leaves garbage too)
            self._litter = _collect is not None  # its garbage goes at the next quiet pass
        if self.pending and event[0] == "button" and (event[1] == "NEW" or self.ctl.phase == MATCH_OVER and
                                                      event[1] in ("DONE", "ROLL")):
            from pipcore.settings import start_waiting

            if start_waiting(self):  # the new match is the one chosen in the menu
                return
        if event == ("button", "NEW"):
            self.saving = True  # a new match: saving resumes after a start that kept an unreadable save
            if self.store is not None:
                self.ctl.records.store = self.store
        self._rolled = []
        try:
            self._apply(event, now)
        except ValueError as exc:
            if refusals:
                self._rolled = []
                raise  # the controller refused a host's event (and changed nothing): the host is told why
            self._recover(exc, event, now)
        except Exception as exc:
            self._recover(exc, event, now)
        self._rolled = []

    def _apply(self, event, now):
        ctl = self.ctl
        games = ctl.records.games
        ctl.play_store = self._plays  # whichever controller is current (a rebuild makes a new one)
        ctl.step(event, now)
        if ctl.save_due:
            self._save()
        while ctl.want_roll:
            d1, d2 = self._roll()
            ctl.step(("dice", d1, d2), now)
            if ctl.save_due:
                self._save()
        if self.error_kind is not None and self.error_kind != guard.SAVE and self.error_kind != guard.HARDWARE:
            self._clear_error()  # an event went through: the board works again
        records = self.ctl.records
        if records.failed is not None and self.error_kind is None:
            self._record_fault(records.failed)
        if records.games != games:
            self._check_space()  # a game ended: the flash is looked at again

    def _record_fault(self, text):
        """The match record stopped (the flash is full): the save fault, kept until a new match."""
        self.error_kind = guard.SAVE
        self.error = ("save: " + text)[:120]
        self._panel = None
        self._dirty = True

    def _check_space(self):
        """Is the flash nearly full? (exported matches are deleted first: ``MatchStore.make_room``)"""
        store = self.store
        if store is None:
            return
        try:
            low = not store.make_room()
        except OSError:
            low = True
        if low != self.low_space:
            self.low_space = low
            self._panel = None
            self._dirty = True

    def _tick_clock(self, now):
        if self._time_at is not None:
            self.store.now_s = self._time_at[0] + (now - self._time_at[1]) // 1000

    def _recover(self, exc, event, now):
        """Rebuild the controller from the last commit and retry ``event`` (None: nothing to retry)."""
        self.faults += 1
        self.last_fault = guard.describe(guard.kind_of(exc), exc)
        exc = None  # let the traceback go before collecting
        self._replay = self._rolled + self._replay
        self._rolled = []
        guard.relieve(self.ctl)
        try:
            self._rebuild(now)
            if event is not None and event[0] != "board":  # a board event was just fed again
                self._apply(event, now)
            self._rolled = []
            self._replay = []  # dice the retry did not need were in the commit already
            return
        except Exception as again:
            self._replay = self._rolled + self._replay
            self._rolled = []
            guard.relieve(self.ctl)
            self.fault(guard.kind_of(again), again)
        try:
            self._rebuild(now)  # leave the board at its last commit, not half-way through an event
        except Exception:
            guard.relieve(self.ctl)
        if self.ctl.dice:
            self._replay = []  # the commit holds dice already: the replayed ones were those

    def _rebuild(self, now):
        """A fresh controller from the last commit, fed the sensed checkers: as after a power cut."""
        if self.mode is not None:  # the backgammon game that waits has nothing to rebuild (pipcore.bawait)
            return
        from pipcore.controller import Controller

        payload = self._unsaved
        if payload is None:
            payload = self.hw.state_store.load()
        if payload:
            ctl = Controller.restore(json.loads(payload), self.capacity, self.store, self.entropy)
        else:
            # nothing was ever saved, so nothing of the match record is committed: the fresh controller
            # starts it again under the same number (no empty match left behind in the directory)
            records = self.ctl.records
            if records.mid and self.store is not None:
                self.store.remove(records.mid)
                records.mid = 0
            ctl = Controller(self.ctl.options, self.ctl.variant, self.capacity, store=self.store, entropy=self.entropy)
            ctl.save_due = True
        self.ctl = ctl
        _unload_other_variants(ctl)
        self._drawn = -1
        self._panel = None
        self._dirty = True
        self._ahead = True
        if self._board is not None:
            ctl.step(("board", self._board), now)
        if ctl.save_due:
            self._save()

    def fault(self, kind, exc):
        """A fault the board could not recover from: shown on the panel and in the snapshot; play goes on."""
        self.error_kind = kind
        self.error = guard.describe(kind, exc)
        self._panel = None
        self._dirty = True

    def _clear_error(self):
        self.error_kind = None
        self.error = None
        self._panel = None
        self._dirty = True

    def event(self, event, now):
        """A host's event (the protocol bridge's name for ``step``): a refusal is raised to the host."""
        self.changes += 1
        if self.mode is not None:  # Back Alley: the backgammon game waits
            return self.mode.host_event(event)
        self.step(event, now + self.skew, True)

    def advance_time(self, ms):
        """Test mode: the board's time jumps ``ms`` ahead (the clock runs out without waiting for it)."""
        self.skew += ms
        self.changes += 1

    def _roll(self):
        if self._replay:
            got = self._replay.pop(0)
        elif self.ctl.fair is not None:
            got = self.ctl.fair.pair()  # a provably fair match: the next dice of its committed seed
        else:
            got = self.dice.roll()
            got = (got, self.dice.roll()) if isinstance(got, int) else (got[0], got[1])
        self._rolled.append(got)
        return got

    def new_game(self, variant, options):
        """A new match with ``options`` (from the host); the board is then set up."""
        self.changes += 1
        self._ahead = True
        self._tick_clock(self._scan_at or 0)
        if self.pending:  # the host's match replaces the one waiting from the menu
            from pipcore.settings import drop_waiting

            drop_waiting(self)
        if self.mode is not None or variant == "backalley":
            from pipcore.bawait import switch

            if switch(self, variant, options):  # the board keeps a Back Alley score now
                return
        from pipcore.controller import Controller

        self.ctl.end_match()  # the match being played ends here; its record stays in the directory
        ctl = Controller(options, variant, self.capacity, store=self.store, entropy=self.entropy)
        if self.tournament is not None:
            ctl.tournament = self.tournament
        ctl.step(("board", self.counts), self._scan_at or 0)
        ctl.save_due = True
        self.ctl = ctl
        _unload_other_variants(ctl)
        self.generation += 1
        self.saving = True
        self._replay = []
        self._unsaved = None
        self._save()
        self._drawn = -1

    def _save(self):
        ctl = self.ctl
        ctl.save_due = False
        if not self.saving:
            return
        if _collect is not None:
            # the event's garbage goes before the save makes its own: a commit's dropped turn tables, a roll's
            # search (a long nardy 1-1's DONE: 47 KB free at its worst without this, tests/pico/heap.py)
            _collect()
        # the JSON goes into a buffer kept from power-up (pipcore.jsonbuf): no big block to find in a
        # fragmented heap
        try:
            snap = ctl.snapshot()
            if self.mode is not None:  # the Back Alley score, saved with the (waiting) backgammon game
                snap["backalley"] = self.mode.snapshot()
            payload = self._json.encode(snap)
            snap = None
        except MemoryError as exc:
            # no room to write the save now (the buffer could not grow): the game goes on in RAM with
            # the fault shown, and the quiet loop tries again (``_retry_save``), as does the next commit
            self.save_errors += 1
            ctl.save_due = True
            self.fault(guard.SAVE, exc)
            return
        try:
            self.hw.state_store.save(payload)
            self.saves += 1
            self._unsaved = None
            if self.error_kind == guard.SAVE and ctl.records.failed is None:
                self._clear_error()
        except (OSError, ValueError) as exc:
            # the game goes on; the next commit tries again, and a rebuild starts from this payload
            self.save_errors += 1
            self._unsaved = bytes(payload)
            ctl.save_due = True
            self.fault(guard.SAVE, exc)

    # -- output ---------------------------------------------------------------
    def draw(self, now):
        """Push a frame when the marks or the panel changed, and every frame period while something blinks."""
        overlay = self.overlay
        if overlay is not None:  # the menu or the self-test draws the whole board and the panel
            if overlay.frame != self._drawn:
                self._drawn = overlay.frame
                overlay.draw(self.hw.pixels, self.hw.display)
                self._dirty = True
            if self._dirty or now - self._frame_at >= FRAME_PERIOD_MS:  # (they pulse)
                self.hw.pixels.show(now)
                self._frame_at = now
                self._dirty = False
            return
        ctl = self.ctl
        dirty = self._dirty
        if not dirty and self._looked == self.changes:  # nothing happened since
            if self._animated and now - self._frame_at >= FRAME_PERIOD_MS:  # (the panel's tuple is not made)
                self.hw.pixels.show(now)
                self._frame_at = now
            return
        self._looked = self.changes
        if ctl.frame != self._drawn:
            self._drawn = ctl.frame
            self.renderer.draw(ctl.marks, ctl.mark_player)
            dirty = True
        clock = ctl.clock
        panel = (ctl.cube, ctl.owner, ctl.phase, ctl.mover, self.error_kind, ctl.coach_panel, self.low_space,
                 clock.shown if clock is not None else 0, ctl.display)
        left = ctl.dice_left()
        shown = self._panel  # [the panel drawn, its dice left] (None: draw it all)
        if shown is None or panel != shown[0]:
            self._panel = [panel, left]
            self._draw_panel(None)
            dirty = True
        elif left != shown[1]:  # a checker moved: only the dice change (a die used, a marker less)
            self._draw_panel(shown[1])
            shown[1] = left
            dirty = True
        animated = self.renderer.animated or self.error_kind is not None or self.low_space or (
            clock is not None and clock.warn)
        self._animated = animated
        if not dirty and (not animated or now - self._frame_at < FRAME_PERIOD_MS):
            return
        self.hw.pixels.show(now)
        self._frame_at = now
        self._dirty = False

    def _draw_panel(self, old=None):
        """The panel; with ``old`` (the dice left drawn last, when only they changed) only the dice that
        changed: a die used or a move marker less (a whole panel is some 30 pixels written)."""
        ctl = self.ctl
        disp = self.hw.display
        item = ctl.display
        kind = item[0] if item else ""
        if old is not None:
            if self.error_kind is None and kind == "dice" and ctl.dice:
                a, b = ctl.dice
                left = ctl.dice_left()
                if a == b:  # the faces dim with the last die (or light again): else the markers count
                    only = 4 if left and old else 15
                    disp.dice(a, b, ctl.mover, not left, not left, len(left), only)
                else:  # (8: the faces are shown, only a die's brightness changes)
                    only = ((a in left) != (a in old)) | ((b in left) != (b in old)) << 1 | 8
                    disp.dice(a, b, ctl.mover, a not in left, b not in left, -1, only)
                return
        if self.error_kind is not None:
            disp.error(guard.KINDS.index(self.error_kind) + 1)  # docs/controller.md: the fault pattern
            return
        phase = ctl.phase
        # the flash nearly full: the turn light pulses amber (docs/controller.md)
        disp.turn(ctl.mover if phase not in (OPENING, GAME_OVER, MATCH_OVER) else -1, self.low_space)
        value = ctl.cube
        # the panel's cube shows 2..64; other values (arithmetic cube, past 64) are on the host's screen
        if _shown(value):
            offer = item[1] if phase == CUBE_OFFERED and item and kind == "offer" else 0
            if offer and _shown(offer):
                disp.offer(offer, ctl.offerer)
            else:
                disp.cube(value, ctl.owner)
        free = False  # the dice show nothing: the clock may use them
        if kind == "dice" and ctl.dice:
            a, b = ctl.dice
            left = ctl.dice_left()
            if a == b:
                disp.dice(a, b, ctl.mover, not left, not left, len(left))
            else:  # (two different dice: each is used or not)
                disp.dice(a, b, ctl.mover, a not in left, b not in left, -1)
        elif kind == "tie":
            disp.dice(item[1], item[2], -1 if False else 0, False, False, -1)
        elif kind == "result":
            points = item[2]
            disp.dice(min(points, 6), 0, item[1], False, False, -1)
        elif kind == "resign":  # a resignation offered: (player, level, points)
            disp.resign(item[1], item[2], item[3])
        elif kind == "keyed":  # physical dice being keyed in: (die A, die B, player)
            disp.keyed(item[1], item[2], item[3])
        elif kind == "opening" and ctl.fair is not None and not ctl.fair.used:
            disp.commitment(ctl.fair.commitment)  # a fair match's commitment, before its first roll
        elif ctl.coach_panel is not None and hasattr(disp, "coach"):
            disp.coach(ctl.coach_panel[0], ctl.coach_panel[1])  # docs/controller.md: the coach's scale
        else:
            disp.blank()
            free = True
        clock = ctl.clock
        if clock is not None and clock.shown and hasattr(disp, "moves"):
            # docs/controller.md: the running clock's minutes on free dice, its reserve on the move markers
            # (unless they count a double's moves)
            from pipcore.gameclock import draw

            draw(disp, clock, free, not (kind == "dice" and ctl.dice and ctl.dice[0] == ctl.dice[1]))
