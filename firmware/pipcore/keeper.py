"""Where the board keeps its match record: in its own append-only file, never in RAM or in the save.

``RecordKeeper`` is the stream of the referee's ``RecordWriter``: each
framed entry goes straight to the match's record file through the injected
store (``pipdrivers.recstore.MatchStore`` on the board; ``pipcore.ramrecords``
for a controller without flash: tests, host tools). The keeper holds only
the live match's id, the length written, the games and score (for the
directory), and whether the record had to stop (the flash full).

The state save holds ``[id, length, base, games, score0, score1, stopped]``
(``save``/``restore``), never the record's bytes, and **the save wins**: a
resumed (or rebuilt) controller rewinds the record to the saved length, so
entries appended after the last save, for actions the resumed game will
play again, are dropped: none lost, none twice.

A money session is one match however long it runs (no cut). Long nardy keeps
no binary record (the record replays standard backgammon only); a position
set up by the host stops the record (it cannot say how the match got there):
in both cases the controller's text log is what the host gets.
"""

_E = 69  # ord("E"): a game's result entry


class RecordKeeper:
    """The live match's record (see the module docstring)."""

    def __init__(self, variant, store=None):
        self.variant = variant
        if store is None:  # a controller without flash (tests, host tools): the records in RAM
            from pipcore.ramrecords import RamRecords
            store = RamRecords()
        self.store = store
        self.mid = 0  # the live match's id; 0: no binary record (text log only)
        self.length = 0  # bytes written (committed by the next state save)
        self.base = 0  # bytes of header and first game mark: nothing to export below this
        self.games = 0
        self.score = [0, 0]
        self.stopped = False  # the record could not be written on (see ``failed``)
        self.failed = None  # why, in one line; the app shows it as a save fault

    def writer(self, players, match_length):
        """A record writer for a new match (the live one, if any, is closed first); None where none
        is kept."""
        self.close()
        if self.variant == "nardy":
            return None
        try:
            mid = self.store.begin(self.variant, players, match_length)
        except OSError as exc:
            self._fail(exc)
            return None
        self.mid = mid
        self.store.live = mid
        from pipcore.recwriter import RecordWriter
        return RecordWriter(self, self.variant)

    def _fail(self, exc):
        self.stopped = True
        args = exc.args
        why = args[1] if len(args) > 1 and isinstance(args[1], str) else str(exc)
        self.failed = "the match record stopped (%s)" % why
        if self.mid:  # the directory says so too, for the host's export (appends stop short of the full
            try:      # flash, so the entry still has room)
                self.store.stopped(self.mid, self.games + 1, why)
            except OSError:
                pass

    def write(self, frame):
        """One framed entry (the RecordWriter's stream): appended to the file at once."""
        if not self.mid or self.stopped:
            return
        try:
            self.store.append(self.mid, self.length, frame)
        except OSError as exc:
            self._fail(exc)  # the game goes on; the record keeps every entry before this one
            return
        self.length += len(frame)
        if len(frame) >= 7 and frame[1] == _E:
            winner = frame[2]
            self.score[winner] += frame[4] << 8 | frame[5]
            self.games += 1
            try:
                self.store.game_over(self.mid, self.length, self.games, self.score)
            except OSError:
                pass  # the directory catches up at the next game end or when the match closes

    def started(self):
        """The header and first game are written: what follows is worth exporting."""
        if self.mid:
            self.base = self.length

    def close(self):
        """The live match ends here (a new match, a position from the host)."""
        if self.mid:
            try:
                self.store.close(self.mid, self.length, self.games, self.score)
            except OSError:
                pass
        self.mid = 0
        self.length = 0
        self.base = 0
        self.games = 0
        self.score = [0, 0]
        self.stopped = False
        self.failed = None

    def stop(self):
        """The record cannot say how the match got here (a position from the host): text log only."""
        self.close()

    def total(self, log):
        """Bytes the host can page through: the record's, or the text log's."""
        if self.mid:
            return self.length if self.length > self.base else 0
        return len(self._log_text(log))

    def read(self, offset, n, log):
        """At most ``n`` bytes of the record (or the text log) from ``offset``."""
        if self.mid:
            end = self.total(log)
            if offset >= end:
                return b""
            return self.store.read(self.mid, offset, min(n, end - offset))
        return self._log_text(log)[offset:offset + n]

    def _log_text(self, log):
        return ("\n".join(log) + "\n").encode() if log else b""

    def save(self, snap):
        snap["rec"] = [self.mid, self.length, self.base, self.games, self.score[0], self.score[1],
                       1 if self.stopped else 0]

    def restore(self, snap):
        """The writer continuing the saved record, rewound to the saved length (None where none is kept)."""
        if "rec" not in snap:
            return self._migrate(snap)
        mid, length, base, games, s0, s1, stopped = snap["rec"]
        self.mid = mid
        self.length = length
        self.base = base
        self.games = games
        self.score = [s0, s1]
        self.stopped = bool(stopped)
        if not mid:
            return None
        self.store.live = mid
        if self.stopped:
            self.failed = "the match record stopped (the flash was full)"
        else:
            try:
                self.store.rewind(mid, length)
            except OSError as exc:
                self._fail(exc)
        from pipcore.recwriter import RecordWriter
        return RecordWriter(self, self.variant)

    def _migrate(self, snap):
        """A save of snapshot version 2 (the record in it, base64): the record moves to its own file."""
        mrec = snap.get("mrec")
        if not mrec:
            return None
        try:
            from binascii import a2b_base64
        except ImportError:
            from ubinascii import a2b_base64
        data = a2b_base64(mrec.encode())
        try:
            mid = self.store.begin(self.variant, ("white", "black"), snap["options"].get("matchLength", 0))
            self.store.append(mid, 0, data)
        except OSError as exc:
            self._fail(exc)
            return None
        self.mid = mid
        self.store.live = mid
        self.length = len(data)
        self.base = min(snap.get("rec_base", 0), self.length)
        from pipcore.recwriter import RecordWriter
        return RecordWriter(self, self.variant)
