"""What a controller shows without changing: the views the app, the bridge and the tests read.

``pipcore.controller.Controller`` inherits them. Each is a window on one
owner's truth (the referee's match, the tracker's roll, the record keeper's
file), never a copy of it; plus the work a quiet poll may do ahead
(``idle``: never a change of what the board says) and what may be dropped
for RAM (``drop_caches``).
"""

from pipcore.board import NLOC, fill_counts
from pipcore.cube import IDLE
from pipcore.names import CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, PHASE_NAMES, PICK, SETUP, TURN_START

LOG_LINES = 24  # lines of the game's text log kept (the snapshot shows them; the binary record keeps the whole match)

# the referee's phase -> the board's (outside setup and picking)
_BOARD_PHASE = (OPENING, TURN_START, CUBE_OFFERED, MOVING, GAME_OVER, MATCH_OVER, SETUP)


class ControllerViews:
    """Read-only views of a controller's parts (mixed into ``Controller``)."""

    @property
    def phase(self):
        if self.setting_up:
            return SETUP
        p = _BOARD_PHASE[self.ref.phase]
        return PICK if p == MOVING and self.pick is not None else p

    def phase_name(self):
        return PHASE_NAMES[self.phase]

    @property
    def pos(self):
        return self.ref.position

    @property
    def mover(self):
        return self.ref.turn

    @property
    def dice(self):
        return self.ref.dice

    @property
    def cube(self):
        return self.ref.cube.value

    @property
    def owner(self):
        return self.ref.cube.owner

    @property
    def offerer(self):
        c = self.ref.cube
        return c.doubler if c.state != IDLE else -1

    @property
    def offer_stage(self):
        return self.ref.cube.state

    @property
    def scores(self):
        return self.ref.match.score

    @property
    def crawford_game(self):
        return self.ref.cube.crawford_game

    @property
    def game_no(self):
        return self.ref.game_number

    @property
    def record(self):
        """This game's text log, one line per roll, play, cube action and result (the last ``LOG_LINES``
        where a binary record keeps the whole match; long nardy keeps its whole game)."""
        return self.ref.log

    @property
    def record_count(self):
        """Lines said this game (``record`` may hold only the last of them)."""
        return self.ref.log_count

    def _log_lines(self):
        return 0 if self.nardy else LOG_LINES

    @property
    def result(self):
        r = self.ref.result
        return (r.winner, r.points, self.ref.kind_name(r.kind)) if r is not None else None

    @property
    def games(self):
        """The last finished games: ``(game number, winner, points, kind name)``."""
        ref = self.ref
        done = ref.results
        last = ref.game_number if ref.game_over() else ref.game_number - 1
        first = last - len(done) + 1
        return [(first + i, r.winner, r.points, ref.kind_name(r.kind)) for i, r in enumerate(done)]

    @property
    def turn(self):
        tr = self._roll_tracker()
        return tr.turn if tr is not None else None

    @property
    def cur(self):
        return self.tracker.cur if self.tracker is not None else None

    @property
    def root(self):
        return self.tracker.root if self.tracker is not None else None

    def can_double(self):
        """True if the player on roll may offer the cube now (RULES.md 2.2)."""
        return not self.setting_up and self.ref.may_double()

    def match_id(self):
        """The gnubg Match ID of this state, or None (a cube gnubg cannot write)."""
        try:
            return self.ref.match_id()
        except ValueError:
            return None

    def dice_left(self):
        tr = self.tracker
        return tr.cur.left if tr is not None and self.phase in (MOVING, PICK) else ()

    def pick_candidate(self):
        """The position (seen from the mover) the PICK phase is showing, or None."""
        if self.phase != PICK:
            return None
        cands, idx = self.pick
        return cands[idx].pos

    def pick_play(self):
        """The play (gnubg notation) of the candidate the PICK phase is showing, or None."""
        if self.phase != PICK:
            return None
        cands, idx = self.pick
        tr = self.tracker
        code = tr.code_for(cands[idx].pos)
        return self.ref.play_text(tr.turn, code) if code is not None else None

    def expected_counts(self):
        """True (unclipped) counts of the committed position (or the turn's current one), per location."""
        out = bytearray(NLOC)
        if self.tracker is not None and self.phase in (MOVING, PICK):
            return self.tracker.true_counts(out)
        fill_counts(self.ref.position, self.ref.turn, out, None, self.nardy)
        return out

    def record_size(self):
        """Bytes of the match record (or, where none is kept, of this game's text log); 0 before anything
        was played."""
        return self.records.total(self.ref.log)

    def record_page(self, offset, n):
        """At most ``n`` bytes of the match record (or the text log) from ``offset``: one page for the host."""
        return self.records.read(offset, n, self.ref.log)

    def record_bytes(self):
        """The whole match record (``pipcore.record`` bytes) or, where none is kept, this game's text log
        (UTF-8 lines); empty before anything was played. Host tools and tests only: the board pages it
        (``record_page``), never holding a record in RAM."""
        return self.records.read(0, self.record_size(), self.ref.log)

    def drop_caches(self):
        """Let go of what can be recomputed (the tracker's tables): RAM for a retry."""
        if self.tracker is not None:
            self.tracker.drop_caches()

    def idle(self, prepare=True):
        """Work ahead while nothing happens (if ``prepare``: the app says no when the heap is short): the
        targets of one more movable checker, so a lift is answered from what is ready instead of being
        computed then. Returns True if it did something (the app calls it once per quiet poll).

        Nothing done here changes what the board says (issue 23: the same verdicts whether no quiet
        poll, some or all of them ran; tests/mp/verdicts.py): the deeper reading of counts answered in
        haste is the ``tick`` due at ``deep_at`` (``Controller.step``).
        """
        if self.phase != MOVING or not prepare or self.transit_since >= 0:
            return False
        try:
            tr = self._roll_tracker()
            return tr.idle(bytes(self.sensed) if self.have_sensed else None)
        except MemoryError:  # work ahead is optional: with the heap this full, a lift computes its own
            self.drop_caches()
            return False

    def board_matches(self, pos, mover=None):
        if not self.have_sensed:
            return False
        fill_counts(pos, self.ref.turn if mover is None else mover, self._want, self.capacity, self.nardy)
        return self.sensed == self._want
