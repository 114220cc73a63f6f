"""The game controller: sensed checkers and buttons in, LED marks and dice requests out.

A pure state machine: ``Controller.step(event, now)`` with explicit time, no
sleep, no I/O, no globals. The app (``pipcore.app``) feeds it events from the
drivers and turns its outputs into LED frames, the dice display and saves.

It owns the phases and the buttons, and nothing else. An event goes down the
floors and nothing comes back up:

* the match's truth (cube, score, Crawford, automatic doubles, beavers,
  results, the record and its text log) is ``pipcore.match.Referee``'s;
* the roll being played by hand is ``pipcore.tracker.Tracker``'s (it reads
  the sensed counts; this module turns its readings into marks);
* laying out a position is ``pipcore.layout``'s.

Events (tuples):

    ("board", counts)        settled checker counts per location (pipcore.board)
    ("button", name[, player])  ROLL, DONE, DOUBLE, TAKE, DROP, BEAVER, RACCOON, NEXT, NEW, RESIGN, UNDO;
                             ``player`` (0 white, 1 black) pressed it: a side's buttons act
                             only for that side (without it: whoever's turn it is)
    ("dice", a, b)           dice the app rolled after ``want_roll`` (opening: a is
                             player 0's die, b player 1's)
    ("load", pid, mover, dice[, match_id])  set up a position from the host
    ("host_play", text)      the only play accepted this turn (gnubg notation or the
                             Position ID of the result)
    ("tournament", on)       hints off / on (validation never stops)
    ("coach", player, segments, level, pips[, text])  the coach's word on ``player``'s last
                             play or cube action: the better play's single moves
                             (pipcore.notation segments, ``player``'s numbering) lit in
                             the coach colour, ``level`` (0 none .. 3 very bad) and
                             ``pips`` (0..6, the equity lost) for the panel; shown only
                             between rolls, and until the next action on the board
    ("tick",)                time passes (missing-checker escalation, the clock's flag)
    ("resign", player, action[, level])  the host's resignation (pipcore.resign): "offer" (level
                             1..3), "accept", "decline", "withdraw"

Outputs (read after each step): ``marks`` (location -> role, ``pipcore.names``),
``mark_player`` (whose colour a mark concerns), ``display`` (tuple for the dice
display), ``message`` (one line saying what to do), ``want_roll`` (0, ROLL_TURN
or ROLL_OPENING), ``save_due`` (the app saves ``snapshot()`` and clears it),
``frame`` (bumped whenever the marks change).
"""

from pipcore.board import index, DEFAULT_CAPACITY, NLOC, TRAY0, find, fill_counts
from pipcore.compat import unload
from pipcore.cube import BEAVER, DROP, OFFER, RACCOON, TAKE
from pipcore.keeper import RecordKeeper
from pipcore.owners import refusal
from pipcore.layout import Layout, guide_back
from pipcore.match import ANSWER, CUBE_OR_ROLL, GAME_ENDED, PLAY, MatchError, Referee
from pipcore.match import colour as colour_name
from pipcore.match import OPENING as R_OPENING
from pipcore.names import (BUTTONS, CUBE_OFFERED, GAME_OVER, M_CAND_FROM, M_CAND_TO, M_ERROR,  # noqa: F401
                           M_FIX_FROM, M_FIX_TO, M_LIFTED, M_MISSING, M_NONE, M_PLAY_FROM, M_PLAY_TO, M_REQUIRED,
                           M_SOURCE, M_TARGET, M_WIN, MATCH_OVER, MOVING, NOBODY, OPENING, PHASE_NAMES, PICK,
                           ROLE_NAMES, ROLL_OPENING, ROLL_TURN, SETUP, TURN_START, M_ADD, M_REMOVE)
from pipcore.position import PositionError
from pipcore.guide import MISSING_MS, TurnGuide  # noqa: F401
from pipcore.ctlviews import LOG_LINES, ControllerViews  # noqa: F401
from pipcore.tracker import IN_HAND, WRONG, Tracker
from pipcore.variants import decode_position

SNAPSHOT_VERSION = 3  # 3: the record in its own file (pipcore.keeper); a version 2 save is migrated

# A settled change is answered at once from the quick search (``Tracker.follow``); where it left ways
# unjudged, the deeper one (``Tracker.refine``) is the first tick this long after it (or DONE), so what
# the board says hangs on the events and their times only, never on how many quiet polls ran (issue 23,
# tests/mp/verdicts.py), and the frame of the change is shown before it.
DEEP_MS = 20

KEEP_RESULTS = 16  # finished games the board remembers (scores are kept whole)
_DIFFERS = "the board differs from the game: follow the LEDs to restore it"
_CUBE_BUTTONS = {"TAKE": TAKE, "DROP": DROP, "BEAVER": BEAVER, "RACCOON": RACCOON}


class ControllerError(ValueError):
    """An event the controller cannot take (bad shape or bad data)."""


class Controller(ControllerViews):
    """See the module docstring."""

    play_store = None  # set by the app: the array its rolls' plays are written into (playcodes.play_store)

    def __init__(self, options=None, variant="backgammon", capacity=None, _fresh=True, store=None, entropy=None):
        self.variant = variant
        self.nardy = variant == "nardy"
        from pipcore.options import make_options  # (loaded for a new match only: pipcore.app unloads it)

        self.options = make_options(options, variant)
        self.capacity = capacity if capacity is not None else DEFAULT_CAPACITY
        self.sensed = bytearray(NLOC)
        self.have_sensed = False
        self.marks = bytearray(NLOC)
        self.mark_player = bytearray(NLOC)
        self._shown = (bytearray(NLOC), bytearray(NLOC))  # the marks before an evaluation (``_evaluate``)
        self.frame = 0
        self.display = ()
        self.message = ""
        self.want_roll = 0
        self.save_due = False
        self.tournament = False
        self.paused = False  # the app's menu or self-test is open: the clock stops (pipcore.gameclock)
        self.now = 0
        self.since = 0
        self.accepted = 0
        self.refused = 0
        self.layout = Layout(self.capacity, self.nardy)
        self.setting_up = True
        self.tracker = None  # the roll being played (pipcore.tracker)
        self.guide = None  # its marks (pipcore.guide)
        self.forced = None  # the one result a host play allows this turn
        self.pick = None  # (candidate nodes, index) while the player picks
        self.missing_now = False  # DONE was pressed with checkers off the board
        self.coach = None  # (player, [(location, role), ...]): the coach's better play, between rolls
        self.coach_panel = None  # (level, pips) for the panel's dice while the coach speaks
        self.deep_at = -1  # when the deeper reading of counts answered in haste is due (a tick), or -1
        self._prompt = ""  # the message the coach's line was added to
        self._want = bytearray(NLOC)
        # at the table (docs/controller.md): a resignation offered (pipcore.resign) or dice being keyed in
        # (pipcore.keyed) until answered; a provably fair match's dice (pipcore.fairmatch), seeded from entropy(n)
        self.pending = None
        self.fair = None
        self.entropy = entropy
        self.records = RecordKeeper(variant, store)  # store: the board's match records (pipdrivers.recstore)
        self.ref = None
        self.clock = None  # the tournament clock (pipcore.gameclock), when the options want one
        if _fresh:
            self._new_match()

    # ------------------------------------------------------------------ the match
    def _new_match(self):
        ref = self.ref
        if ref is None:
            self.layout.forget()  # a fresh start: nothing is known about the board
        elif not self.setting_up:
            # the last match's checkers still lie on the board: setup must clear every point holding the
            # colour the start position does not want there (during setup, the beliefs gathered still hold)
            self.layout.seed(self.tracker.cur.pos if self.tracker is not None else ref.position, ref.turn)
        players = ("white", "black")
        if ref is not None:
            self._reveal(ref.writer)
        writer = self.records.writer(players, self.options.get("matchLength", 0))
        self.ref = Referee(self.options, players, writer, self.variant, [], KEEP_RESULTS, self._log_lines())
        self._fair_dice(writer)
        self.ref.new_game()
        self.records.started()
        self.clock = None
        if self.options["clock"] != "off":
            from pipcore.gameclock import GameClock
            self.clock = GameClock.for_options(self.options)
        self._start_setup()

    def _next_game(self):
        ref = self.ref
        last_pos = ref.position
        last_mover = ref.turn
        starter = None
        if self.nardy and self.options["lnWinnerStarts"] and ref.result is not None:
            starter = ref.result.winner  # the winner rolls first, without an opening roll
        ref.new_game(starter)  # a money session is one record however long it runs (its own file)
        self.layout.seed(last_pos, last_mover)
        self._start_setup()

    def _fair_dice(self, writer):
        """A new match's provably fair dice where its options want them (``dice``: ``fair``), else None."""
        self.fair = None
        if self.options["dice"] == "fair":
            from pipcore.fairmatch import FairMatch
            self.fair = FairMatch.new(self.entropy, writer)

    def _reveal(self, writer):
        """A fair match ends (its last game, a new match, a host's position): its seed is shown and recorded."""
        if self.fair is not None and self.fair.reveal(writer):
            self.save_due = True

    def end_match(self):
        """The match being played ends here (the host starts another): reveal, close its record."""
        self._reveal(self.ref.writer)
        self.records.close()

    def _start_setup(self):
        self.setting_up = True
        self._leave()
        self.display = ("setup",)
        self.save_due = True

    def _leave(self):
        """Forget what belonged to the phase being left."""
        self.want_roll = 0
        self.tracker = None
        self.guide = None
        self.pick = None
        self.pending = None
        self.missing_now = False
        self.coach = None  # the coach speaks about one action, until the next one
        self.coach_panel = None

    def _enter(self):
        """Display and message of the referee's phase (after setup, a roll, a cube action, a play)."""
        self._leave()
        ref = self.ref
        p = ref.phase
        if p == R_OPENING:
            self.display = ("opening",)
            self.message = "press ROLL for the opening roll"
        elif p == CUBE_OR_ROLL:
            self.display = ("turn", ref.turn, ref.cube.value, ref.cube.owner)
            self.message = "%s: ROLL%s" % (colour_name(ref.turn), " or DOUBLE" if self.can_double() else "")
        elif p == ANSWER:
            cube = ref.cube
            self.display = ("offer", cube.offered_value)
            who = cube.responder()
            if cube.state == 1:
                self.message = "%s doubles: %s TAKE or DROP" % (colour_name(1 - who), colour_name(who))
            elif cube.state == 2:
                self.message = "beaver: %s TAKE or DROP%s" % (colour_name(who), " or RACCOON" if
                                                                self.options["raccoons"] else "")
            else:
                self.message = "raccoon: %s TAKE or DROP" % colour_name(who)
        elif p == PLAY:
            self._start_moving()
        else:
            r = ref.result
            s = ref.match.score
            self.display = ("result", r.winner, r.points, s[0], s[1])
            if p == GAME_ENDED:
                self.message = "%s wins %d point%s; press DONE for the next game" % (
                    colour_name(r.winner), r.points, "" if r.points == 1 else "s")
            else:
                self.message = "%s wins the match %d-%d" % (colour_name(r.winner), s[r.winner], s[1 - r.winner])
                self._reveal(ref.writer)

    # ----------------------------------------------------------------- events
    def step(self, event, now):
        """Handle one event at time ``now`` (ms); outputs are updated in place."""
        self.now = now
        if not isinstance(event, tuple) or not event:
            raise ControllerError("an event is a non-empty tuple, got %r" % (event,))
        kind = event[0]
        # the clock (pipcore.gameclock) first: a flag that fell before this press or roll wins over it
        if self.clock is not None and self.clock.follow(self, now) and kind in ("button", "dice"):
            return
        if kind == "board":
            self._on_board(event[1])
        elif kind == "button":
            self._on_button(event[1], event[2] if len(event) > 2 else None)
        elif kind == "dice":
            self._on_dice(event[1], event[2])
        elif kind == "tick":
            if 0 <= self.deep_at and now - self.deep_at >= 0:
                self._deepen()
            elif self.phase == MOVING and self.transit_since >= 0 and now - self.transit_since >= MISSING_MS:
                self._evaluate()
        elif kind == "load":
            from pipcore.matchload import load_position

            load_position(self, event[1], event[2], event[3] if len(event) > 3 else None,
                          event[4] if len(event) > 4 else None)
            unload("pipcore", ("matchload", "options"))  # a host's position is rare: its code leaves the heap
        elif kind == "host_play":
            from pipcore.outside import show_play
            show_play(self, event[1])
        elif kind == "tournament":
            self.tournament = bool(event[1])
            self._evaluate()
        elif kind == "coach":
            from pipcore.outside import coach
            coach(self, event[1], event[2], event[3], event[4], event[5] if len(event) > 5 else "")
        elif kind == "resign":  # the host's: (player, "offer" | "accept" | "decline" | "withdraw"[, level])
            from pipcore.resign import on_host
            on_host(self, event[1], event[2], event[3] if len(event) > 3 else 0)
        else:
            raise ControllerError("unknown event %r" % (kind,))
        if self.clock is not None:
            self.clock.follow(self, now)  # whose clock runs now

    def _on_board(self, counts):
        if len(counts) != NLOC:
            raise ControllerError("board counts need %d locations, got %d" % (NLOC, len(counts)))
        s = self.sensed
        cap = self.capacity
        if type(counts) is bytearray:  # (the scan's: only the locations that changed, found in one pass)
            find(counts, s)
            c = 0
            i = index[0]
            while i < NLOC:
                s[i] = counts[i] if counts[i] < cap[i] else cap[i]
                c += 1
                i = index[c]
        else:
            for i in range(NLOC):
                c = counts[i]
                s[i] = c if c < cap[i] else cap[i]
        self.have_sensed = True
        self._evaluate()

    def _on_button(self, name, player=None):
        phase = self.phase
        if player is not None and player not in (0, 1):
            raise ControllerError("a button's player must be 0 (white) or 1 (black), not %r" % (player,))
        if self.pending is not None and self.pending.press(self, name, player):
            return  # a resignation waits for its answer, or dice are being keyed in
        if name == "RESIGN":
            from pipcore.resign import on_button
            on_button(self, player)
            return
        if player is not None:
            refused = refusal(self.phase, self.ref, name, player)
            if refused is not None:
                self.refused += 1
                self.message = refused
                self._evaluate()
                return
        if name == "NEW" or phase == MATCH_OVER and name in ("DONE", "ROLL"):
            self._new_match()
        elif phase in (OPENING, TURN_START) and name == "ROLL":
            if self.have_sensed and not self.board_matches(self.ref.position):
                self.message = "restore the board first"
            elif self.options["dice"] == "physical":
                from pipcore.keyed import open_entry
                open_entry(self, phase)
            else:
                self.want_roll = ROLL_OPENING if phase == OPENING else ROLL_TURN
        elif phase == TURN_START and name == "DOUBLE":
            self._cube(OFFER)
        elif phase == CUBE_OFFERED:
            action = _CUBE_BUTTONS.get(name)
            if action is None:
                self.message = "TAKE or DROP"
            else:
                self._cube(action)
        elif phase == MOVING and name == "DONE":
            self._done()
            return
        elif phase == MOVING and name == "UNDO" and self.options["dice"] == "physical":
            from pipcore.keyed import correct
            correct(self)  # dice keyed in wrong: the entry again, while no checker has moved
            return
        elif phase == MOVING and name == "NEXT" and self.tracker is not None:
            self.tracker.next_reading()  # readings that stay equally good: the player shows which
        elif phase == PICK and name == "NEXT":
            cands, idx = self.pick
            self.pick = (cands, (idx + 1) % len(cands))
        elif phase == PICK and name == "DONE":
            cands, idx = self.pick
            self._commit(cands[idx])
        elif phase == GAME_OVER and name in ("DONE", "ROLL"):
            self._next_game()
        self._evaluate()

    def _cube(self, action):
        try:
            self.ref.cube_action(action)
        except ValueError as exc:  # CubeError or MatchError: the reason a player is told
            self.refused += 1
            self.message = ("you cannot double now: %s" if action == OFFER else "TAKE or DROP (%s)") % exc
            return
        self._enter()
        self.save_due = True

    def _on_dice(self, a, b):
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise ControllerError("dice must be 1..6, got %r %r" % (a, b))
        if self.fair is not None and self.want_roll and (a, b) != self.fair.pair():
            raise ControllerError("the dice of a fair match come from its seed, not %d-%d" % (a, b))
        want = self.want_roll
        self.want_roll = 0
        phase = self.phase
        moving = False  # the roll is to be played: ``_start_moving`` from here (not through ``_enter``: a
        # frame less on the Pico's 8 KB C stack, the roll's path being the deepest, tests/pico/depth.py)
        if want == ROLL_OPENING and phase == OPENING:
            if self.ref.opening_roll(a, b) is None:
                self.display = ("tie", a, b, self.ref.cube.value)
                self.message = "tie: press ROLL again"
            elif self.ref.phase == PLAY:
                moving = True
            else:
                self._enter()
        elif want == ROLL_TURN and phase == TURN_START:
            self.ref.roll((a, b))
            moving = True
        else:
            return
        if self.fair is not None:
            self.fair.used_pair()
        self.save_due = True
        if moving:
            self._start_moving()  # (its marks evaluated: once is enough on the roll's path)
        else:
            self._evaluate()

    # ------------------------------------------------------------- the roll played
    def _start_moving(self):
        ref = self.ref
        self._leave()
        self._track(ref.legal_turn(self.play_store), self.forced)
        self.display = ("dice", ref.turn, ref.dice[0], ref.dice[1])
        self.message = "%s: move" % colour_name(ref.turn)
        self._evaluate()

    def _track(self, turn, only):
        """Follow the hands through ``turn`` (restricted to the result ``only`` if given)."""
        ref = self.ref
        self.tracker = tr = Tracker(turn, ref.position, ref.turn, self.capacity, self.nardy, only)
        self.guide = TurnGuide(tr, self._mark, self.marks, only)

    def _roll_tracker(self):
        """The tracker of the roll being played, made again if it went (a fault while it was built):
        it is derived state, and the sensed counts tell it where the hands are."""
        if self.tracker is None and not self.setting_up and self.ref.phase == PLAY:
            self._track(self.ref.legal_turn(self.play_store), self.forced)
        return self.tracker

    def _done(self):
        if not self.have_sensed:
            return
        self._deepen()  # (DONE before the reading's tick: the deeper readings first)
        tr = self.tracker
        done, unsure = tr.at_done(self.sensed)
        if not done:
            self.refused += 1
            s = bytes(self.sensed)
            if s != tr.cur.key:
                kind = tr.kind
                if kind == IN_HAND:
                    self.missing_now = True  # DONE with checkers off the board: they are missing (15 each)
                self._evaluate()
                if kind == WRONG:
                    self.message = "the board does not show a legal play: follow the LEDs"
                elif kind != IN_HAND and tr.cur.left and tr.sources(tr.cur):
                    self.message = self.guide.show_required()  # (a blot barred early: its hitter must come)
                    self.frame += 1
                return
            self._clear_marks()
            self.message = self.guide.show_required()
            self.frame += 1
            self.display = ("more",) + tuple(tr.cur.left)
            return
        if len(done) > 1 or unsure:
            self.pick = (done, 0)
            self._evaluate()
            return
        node = done[0]
        done = tr = None  # (the turn's readings are garbage once the play is known: see _commit)
        self._commit(node)
        self._evaluate()

    def _deepen(self):
        """The deeper reading of counts a settled change answered in haste (``deep_at``), now."""
        tr = self._roll_tracker()
        if tr is not None and tr.deep is not None and self.have_sensed and tr.refine(bytes(self.sensed)):
            self._evaluate()
        self.deep_at = -1

    def _commit(self, node):
        tr = self.tracker
        ref = self.ref
        code = tr.code_for(node.pos)
        if code is None:  # cannot happen for a complete node; refuse rather than guess
            self.refused += 1
            self.pick = None
            self.message = "that play could not be matched: press DONE again"
            return
        self.accepted += 1
        turn = tr.turn
        # the readings, tables and marks of the turn go before the referee writes the play and the app
        # saves it: DONE's peak on the heap is the turn's structures or the commit's work, not both
        self.tracker = self.guide = self.pick = tr = node = None
        ref.play_code(turn, code)
        self.forced = None
        self._enter()
        self.save_due = True

    # -------------------------------------------------------------- persistence
    def snapshot(self):
        """The committed state as plain data (JSON-ready)."""
        snap = {
            "v": SNAPSHOT_VERSION,
            "variant": self.variant,
            "options": self.options,
            "setup": self.setting_up,
            "ref": self.ref.snapshot(),
            "forced": self.forced.position_id() if self.forced is not None else None,
            "tournament": self.tournament,
            "clock": self.clock.state() if self.clock is not None else None,
            "fair": self.fair.snapshot() if self.fair is not None else None,
            "resign": self.pending.saved() if self.pending is not None else None,
        }
        self.records.save(snap)
        return snap

    @classmethod
    def restore(cls, snap, capacity=None, store=None, entropy=None):
        """A controller resumed from ``snapshot()`` data (raises ControllerError if unusable); ``store``
        holds its match record (rewound to the saved length: the save wins); ``entropy`` seeds the next
        fair match."""
        try:
            if snap.get("v") not in (2, SNAPSHOT_VERSION):
                raise ControllerError("saved state has version %r, expected %d" % (snap.get("v"), SNAPSHOT_VERSION))
            c = cls(snap["options"], snap["variant"], capacity, _fresh=False, store=store, entropy=entropy)
            writer = c.records.restore(snap)
            c.ref = Referee.restore(snap["ref"], c.options, ("white", "black"), writer, c.variant, KEEP_RESULTS,
                                    c._log_lines())
            c.setting_up = bool(snap["setup"])
            c.forced = decode_position(snap["forced"], c.variant) if snap["forced"] else None
            c.tournament = bool(snap["tournament"])
            if c.options["clock"] != "off":  # the clock resumes from the save: the time off is not charged
                from pipcore.gameclock import GameClock
                clock = snap.get("clock")
                c.clock = GameClock.restore(clock) if clock is not None else GameClock.for_options(c.options)
            if snap.get("fair"):
                from pipcore.fairmatch import FairMatch
                c.fair = FairMatch.restore(snap["fair"])
        except (KeyError, TypeError, ValueError, AttributeError, PositionError, MatchError) as exc:
            if isinstance(exc, ControllerError):
                raise
            raise ControllerError("saved state is unusable: %r" % (exc,))
        if c.setting_up:
            c.display = ("setup",)
        else:
            try:
                c._enter()
                if snap.get("resign"):
                    from pipcore.resign import restore
                    restore(c, snap["resign"])
            except (ValueError, TypeError) as exc:
                raise ControllerError("saved state is unusable: %r" % (exc,))
        return c

    # ------------------------------------------------------------- evaluation
    def _clear_marks(self):
        # (copied in at C speed from two small blocks of garbage: a loop over the locations cost about as much
        # as a settled change's search, and kept blocks would stay in the heap)
        self.marks[:] = bytes(NLOC)
        self.mark_player[:] = bytes((NOBODY,)) * NLOC

    def _mark(self, loc, role, player=NOBODY):
        self.marks[loc] = role
        self.mark_player[loc] = player

    def _evaluate(self):
        was = self._shown  # the marks before, copied into kept arrays (no bytes made at every change)
        was[0][:] = self.marks
        was[1][:] = self.mark_player
        self._clear_marks()
        phase = self.phase
        if phase == MOVING or phase == PICK:
            self._roll_tracker()
        if phase == SETUP:
            self._eval_setup()
        elif phase == MOVING:  # (``_eval_moving`` inline: every settled change comes here, a frame less)
            if self.have_sensed:
                self.message = self.guide.show(self.sensed, self.now, self.tournament, self.missing_now)
        elif phase == PICK:
            self._eval_pick()
        else:
            self._eval_static()
        if self.pending is not None:  # a resignation offered, dice being keyed in: shown until answered
            self.display = self.pending.display
            self.message = self.pending.message
        if self.marks != was[0] or self.mark_player != was[1]:
            self.frame += 1
            self.since = self.now
        tr = self.tracker
        if tr is None or tr.deep is None:
            self.deep_at = -1
        elif self.deep_at < 0:
            self.deep_at = self.now + DEEP_MS  # (a later change before it keeps the time: it is not put off)

    def _eval_setup(self):
        """Guide the board to the referee's position: every addition and removal at once."""
        if not self.have_sensed:
            self.message = "set up the checkers"
            return
        ref = self.ref
        if self.layout.check(self.sensed, ref.position, ref.turn, self._mark):
            self.message = "board set up"
            self.setting_up = False
            self.save_due = True
            self._clear_marks()
            self._enter()  # (a roll set up with its dice starts moving: marks of its own)
        else:
            self.message = "add checkers where the LEDs show green, remove where red"
            self.display = ("setup",)

    def _eval_static(self):
        """Phases where the board must stay as committed: guide back if it differs."""
        if not self.have_sensed:
            return
        ref = self.ref
        want = self._want
        fill_counts(ref.position, ref.turn, want, self.capacity, self.nardy)
        resigned = ref.result is not None and ref.result.resigned  # (a play left half-way: the next setup clears it)
        if not resigned and not guide_back(self.sensed, want, ref.position, ref.turn, self._mark, self.nardy):
            self.message = _DIFFERS
            return
        if self.message == _DIFFERS:  # put back (after a self-test, a knock): say again what the phase asks
            coach, panel = self.coach, self.coach_panel
            self._enter()
            self.coach, self.coach_panel = coach, panel
        if self.phase == GAME_OVER and ref.result is not None:
            w = ref.result.winner
            self._mark(TRAY0 + w, M_WIN, w)
        if self.coach is not None:
            player, marks = self.coach
            for loc, role in marks:
                if not self.marks[loc]:
                    self._mark(loc, role, player)

    def _eval_moving(self):
        if not self.have_sensed:
            return
        self.message = self.guide.show(self.sensed, self.now, self.tournament, self.missing_now)

    def _eval_pick(self):
        if not self.have_sensed:
            return
        cands, idx = self.pick
        if bytes(self.sensed) != cands[0].key:
            self.pick = None  # the board changed: back to ordinary moving
            self._eval_moving()
            return
        self.display = ("pick", idx + 1, len(cands))
        self.message = self.guide.show_pick(cands, idx)

    @property
    def transit_since(self):
        """When checkers went into the hand (ms), or -1: the app ticks the controller meanwhile."""
        return self.guide.transit_since if self.guide is not None and self.phase == MOVING else -1
