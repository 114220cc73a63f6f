"""The game controller: sensed checkers and buttons in, LED marks and dice out.

A pure state machine: ``Controller.step(event, now)`` with explicit time, no
sleep, no I/O, no globals. The app (``pipcore.app``) feeds it events from the
drivers and turns its outputs into LED frames, the dice display and saves.

Events (tuples):

    ("board", counts)        settled checker counts per location (pipcore.board)
    ("button", name)         ROLL, DONE, DOUBLE, TAKE, DROP, BEAVER, RACCOON, NEXT, NEW
    ("dice", a, b)           dice the app rolled after ``want_roll`` (opening: a is
                             player 0's die, b player 1's)
    ("load", pid, mover, dice)  set up a position from the host (dice may be None)
    ("host_play", text)      the only play accepted this turn (gnubg notation or the
                             Position ID of the result)
    ("tournament", on)       hints off / on (validation never stops)
    ("tick",)                time passes (missing-checker escalation)

Outputs (read after each step): ``marks`` (location -> role, see ``M_*``),
``mark_player`` (whose colour a mark concerns), ``display`` (tuple for the dice
display), ``message`` (one line saying what to do), ``want_roll`` (0, ROLL_TURN
or ROLL_OPENING), ``save_due`` (the app saves ``snapshot()`` and clears it),
``frame`` (bumped whenever the marks change).

The turn in progress is matched against every position a person can pass
through while playing the roll (``pipcore.turnmap``): checkers in hand are
fine, a checker where no legal continuation puts one is an error with
guidance back, and DONE commits only a complete legal play. Where the
switches cannot tell positions apart (stacks taller than the sensed slots),
the candidates are shown and the player picks with NEXT and DONE.
"""

from pipcore.board import BAR0, NLOC, TRAY0, DEFAULT_CAPACITY, fill_counts, loc_point, opp_slot, slot_loc
from pipcore.notation import format_play, parse_play
from pipcore.options import make_options
from pipcore.position import BAR, CHECKERS, Position, PositionError
from pipcore.rules import BACKGAMMON, GAMMON, SINGLE, Turn, apply_move, check_play

# -- phases -----------------------------------------------------------------
SETUP = 0
OPENING = 1
TURN_START = 2
CUBE_OFFERED = 3
MOVING = 4
PICK = 5
GAME_OVER = 6
MATCH_OVER = 7
PHASE_NAMES = ("setup", "opening", "turn-start", "cube-offered", "moving", "pick", "game-over", "match-over")

# -- LED mark roles ---------------------------------------------------------
M_NONE = 0
M_SOURCE = 1  # a checker here can move
M_LIFTED = 2  # the checker in hand came from here
M_TARGET = 3  # the lifted checker may land here
M_ERROR = 4  # wrong: flashes
M_FIX_FROM = 5  # guidance: take a checker from here...
M_FIX_TO = 6  # ...and put it here
M_MISSING = 7  # a checker belongs here and is not sensed
M_ADD = 8  # setup: add a checker
M_REMOVE = 9  # setup: remove a checker
M_CAND_FROM = 10  # a candidate play (pick with NEXT / DONE)
M_CAND_TO = 11
M_PLAY_FROM = 12  # a play given by the host
M_PLAY_TO = 13
M_REQUIRED = 14  # DONE pressed too early: checkers that must still move
M_WIN = 15  # game over: the winner's tray
ROLE_NAMES = ("none", "source", "lifted", "target", "error", "fix-from", "fix-to", "missing", "add", "remove",
              "cand-from", "cand-to", "play-from", "play-to", "required", "win")

ROLL_TURN = 1
ROLL_OPENING = 2

BUTTONS = ("ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "BEAVER", "RACCOON", "NEXT", "NEW")

MISSING_MS = 20000  # checkers in hand this long are reported missing

# cube offer stages
_OFFER = 1
_BEAVER = 2
_RACCOON = 3

# cube action codes of the match record (pipcore.cube OFFER..RACCOON)
_C_OFFER = 1
_C_TAKE = 2
_C_DROP = 3
_C_BEAVER = 4
_C_RACCOON = 5

SNAPSHOT_VERSION = 1

# Money play: a game past this many record bytes starts a fresh record. The
# record travels inside the state save (base64 in JSON), whose payload the
# storage driver caps at 256 KB: a money session left to grow reached that
# after about 190 KB of record, every later save failed, and the next power
# cut lost the game (seen in the e2e run with the cap lifted).
REC_MONEY_MAX = 4096


class ControllerError(ValueError):
    """An event the controller cannot take (bad shape or bad data)."""


class _Sink:
    """The match record's bytes: the ``RecordWriter`` stream, appended to in place (never copied)."""

    def __init__(self, data=None):
        self.data = data if data is not None else bytearray()

    def write(self, b):
        self.data.extend(b)


def _b64(data):
    try:
        from binascii import b2a_base64
    except ImportError:
        from ubinascii import b2a_base64
    return b2a_base64(data).decode().strip()


def _unb64(text):
    try:
        from binascii import a2b_base64
    except ImportError:
        from ubinascii import a2b_base64
    return bytearray(a2b_base64(text.encode()))  # MicroPython takes bytes only


def make_turn(pos, dice, variant, options, first):
    """The legal plays: the variants factory once it exists, else standard rules."""
    try:
        from pipcore.variants import make_turn as factory
    except ImportError:
        factory = None
    if factory is not None:
        return factory(pos, dice, variant, options, first)
    return Turn(pos, dice)


class _Node:
    """A position passed through during the turn, with the dice still to play."""

    def __init__(self, pos, left, key, parent):
        self.pos = pos
        self.left = left
        self.key = key
        self.parent = parent
        self.pend = None  # lazily: [(key, hit locations)] with hit checkers not yet on the bar
        self.srcs = None  # lazily: movable sources
        self.targets = None  # lazily: source -> [(to, child node)]


class Controller:
    """See the module docstring."""

    def __init__(self, options=None, variant="backgammon", capacity=None):
        self.variant = variant
        self.nardy = variant == "nardy"
        self.options = make_options(options, variant)
        self.capacity = capacity if capacity is not None else DEFAULT_CAPACITY
        self.sensed = bytearray(NLOC)
        self.have_sensed = False
        self.marks = bytearray(NLOC)
        self.mark_player = bytearray(NLOC)
        self.frame = 0
        self.display = ()
        self.message = ""
        self.want_roll = 0
        self.save_due = False
        self.tournament = False
        self.now = 0
        self.since = 0
        self.accepted = 0
        self.refused = 0
        self._scratch = bytearray(NLOC)
        self._new_match()

    # ------------------------------------------------------------------ state
    def _new_match(self):
        self._rec_start()
        self.scores = [0, 0]
        self.crawford_used = False
        self.game_no = 0
        self.games = []
        self._new_game()

    # the match record (pipcore.record): every game of the match, saved with the state
    def _rec_start(self, data=None):
        """A fresh match record (header written), or one resumed from ``data``; None where not kept."""
        self.rec = None
        self.rec_acts = 0  # actions recorded (0: nothing to export yet)
        if self.variant != "backgammon":
            return  # the record replays standard backgammon only: other variants keep the text log
        try:
            from pipcore.record import RecordWriter
        except ImportError:
            return
        self.rec = RecordWriter(_Sink(data), self.variant)
        if data is None:
            self.rec.header(("white", "black"), self.options)

    def _rec(self, method, *args):
        rec = self.rec
        if rec is not None:
            getattr(rec, method)(*args)
            self.rec_acts += 1

    def _rec_stop(self):
        """The match left what a record can say (a position or score set by the host): keep the text log only."""
        self.rec = None
        self.rec_acts = 0

    def record_bytes(self):
        """The match record (``pipcore.record`` bytes, the live buffer) or, where none is kept, this
        game's text log (UTF-8 lines); empty before anything was played."""
        if self.rec is not None:
            return self.rec.stream.data if self.rec_acts else b""
        return ("\n".join(self.record) + "\n").encode() if self.record else b""

    def _new_game(self):
        self.game_no += 1
        if self.rec is not None:
            if not self.options["matchLength"] and len(self.rec.stream.data) > REC_MONEY_MAX:
                self._rec_start()  # a money session has no end: start a fresh record, never grow without bound
            self.rec.new_game()
        self.crawford_game = False
        self.mover = 0
        self.pos = self._start_position()
        self.dice = None
        self.first = True
        self.cube = 1
        self.owner = -1
        self.offerer = -1
        self.offer_stage = 0
        self.doubled = False
        self.auto_doubles = 0
        self.played = [False, False]  # has each player made a play this game (long nardy's first turns)
        self.record = []
        self.result = None
        self.forced = None
        self.after_setup = OPENING
        self.setup_colour = bytearray(b"\x02" * NLOC)  # colour known to lie on each point (2: unknown)
        self.setup_count = bytearray(NLOC)  # checkers believed on each location (see _eval_setup)
        self._set_phase(SETUP)

    def _start_position(self):
        if self.nardy:
            from pipcore.nardy import start_position
            return start_position()
        return Position.start()

    def _set_phase(self, phase):
        self.phase = phase
        self.want_roll = 0
        self.tmap = None
        self.cur = None
        self.cands = None
        self.pick = None
        self.transit_since = -1
        self.missing_now = False  # DONE was pressed with checkers off the board

    # ----------------------------------------------------------------- events
    def step(self, event, now):
        """Handle one event at time ``now`` (ms); outputs are updated in place."""
        self.now = now
        if not isinstance(event, tuple) or not event:
            raise ControllerError("an event is a non-empty tuple, got %r" % (event,))
        kind = event[0]
        if kind == "board":
            self._on_board(event[1])
        elif kind == "button":
            self._on_button(event[1])
        elif kind == "dice":
            self._on_dice(event[1], event[2])
        elif kind == "tick":
            if self.phase == MOVING and self.transit_since >= 0 and now - self.transit_since >= MISSING_MS:
                self._evaluate()
        elif kind == "load":
            self._on_load(event[1], event[2], event[3] if len(event) > 3 else None)
            if len(event) > 4 and event[4]:
                self._apply_match_id(event[4])
        elif kind == "host_play":
            self._on_host_play(event[1])
        elif kind == "tournament":
            self.tournament = bool(event[1])
            self._evaluate()
        else:
            raise ControllerError("unknown event %r" % (kind,))

    def _on_board(self, counts):
        if len(counts) != NLOC:
            raise ControllerError("board counts need %d locations, got %d" % (NLOC, len(counts)))
        s = self.sensed
        for i in range(NLOC):
            c = counts[i]
            cap = self.capacity[i]
            s[i] = c if c < cap else cap
        self.have_sensed = True
        self._evaluate()

    # ------------------------------------------------------------- evaluation
    def _key(self, pos, mover=None):
        """Sensed-counts key of a position (as the switches would see it)."""
        buf = self._scratch
        fill_counts(pos, self.mover if mover is None else mover, buf, self.capacity, self.nardy)
        return bytes(buf)

    def _clear_marks(self):
        m = self.marks
        p = self.mark_player
        for i in range(NLOC):
            m[i] = 0
            p[i] = 2

    def _mark(self, loc, role, player=2):
        self.marks[loc] = role
        self.mark_player[loc] = player

    def _owner_of(self, pos, loc):
        """Whose checkers stand on ``loc`` in ``pos`` (seen from the mover), or -1."""
        mover = self.mover
        if loc >= BAR0:
            player = (loc - BAR0) & 1
            slot = BAR if loc < TRAY0 else 0
            arr = pos.me if player == mover else pos.opp
            return player if arr[slot] else -1
        p = loc_point(mover, loc, self.nardy)
        if pos.me[p]:
            return mover
        if pos.opp[opp_slot(p, self.nardy)]:
            return 1 - mover
        return -1

    def _evaluate(self):
        old = bytes(self.marks) + bytes(self.mark_player)
        self._clear_marks()
        phase = self.phase
        if phase == SETUP:
            self._eval_setup()
        elif phase == MOVING:
            self._eval_moving()
        elif phase == PICK:
            self._eval_pick()
        else:
            self._eval_static()
        if bytes(self.marks) + bytes(self.mark_player) != old:
            self.frame += 1
            self.since = self.now

    def board_matches(self, pos, mover=None):
        return self.have_sensed and bytes(self.sensed) == self._key(pos, mover)

    def _guide_back(self, pos, one_at_a_time=True):
        """Marks leading the sensed board back to ``pos``; returns True if it matches.

        Setup shows every addition and removal at once; elsewhere one checker
        at a time (a surplus point to a deficit point), the rest flashing or
        shown missing.
        """
        want = self._key(pos)
        s = self.sensed
        surplus = -1
        deficit = -1
        bad = False
        for i in range(NLOC):
            if s[i] > want[i]:
                bad = True
                if surplus < 0 and one_at_a_time:
                    surplus = i
                else:
                    self._mark(i, M_ERROR if one_at_a_time else M_REMOVE)
            elif s[i] < want[i]:
                bad = True
                owner = self._owner_of(pos, i)
                if deficit < 0 and one_at_a_time:
                    deficit = i
                else:
                    self._mark(i, M_MISSING if one_at_a_time else M_ADD, owner)
        if surplus >= 0:
            self._mark(surplus, M_FIX_FROM)
        if deficit >= 0:
            self._mark(deficit, M_FIX_TO, self._owner_of(pos, deficit))
        return not bad

    def _eval_setup(self):
        """Guide the board to ``self.pos``: every addition and removal at once.

        Switches see neither colours nor stacks taller than their slots, so
        setup keeps a belief per location, seeded from the last known
        position: what colour lies there, and how many when the switches are
        saturated. Points holding the wrong colour are cleared first.
        """
        if not self.have_sensed:
            self.message = "set up the checkers"
            return
        colour = self.setup_colour
        belief = self.setup_count
        sensed = self.sensed
        cap = self.capacity
        want = bytearray(NLOC)
        fill_counts(self.pos, self.mover, want, None, self.nardy)
        ok = True
        for loc in range(NLOC):
            c = sensed[loc]
            if c < cap[loc] or belief[loc] < c:
                belief[loc] = c
            if not c:
                colour[loc] = 2
            owner = self._owner_of(self.pos, loc)
            if loc < 24 and c and colour[loc] != 2 and owner >= 0 and owner != colour[loc]:
                self._mark(loc, M_REMOVE, colour[loc])
                ok = False
            elif belief[loc] > want[loc]:
                self._mark(loc, M_REMOVE, colour[loc] if loc < 24 else (loc - BAR0) & 1)
                ok = False
            elif belief[loc] < want[loc] and not (c == cap[loc] and want[loc] >= cap[loc]):
                # (checkers added to a full stack cannot be seen: trusted)
                self._mark(loc, M_ADD, owner)
                ok = False
        if ok:
            self.message = "board set up"
            self._setup_done()
        else:
            self.message = "add checkers where the LEDs show green, remove where red"
            self.display = ("setup",)

    def _seed_setup(self, pos, mover):
        """Setup starts from what is known to lie on the board: ``pos`` seen from ``mover``."""
        fill_counts(pos, mover, self.setup_count, None, self.nardy)
        for loc in range(24):
            p = loc_point(mover, loc, self.nardy)
            if pos.me[p]:
                self.setup_colour[loc] = mover
            elif pos.opp[opp_slot(p, self.nardy)]:
                self.setup_colour[loc] = 1 - mover
            else:
                self.setup_colour[loc] = 2

    def _setup_done(self):
        nxt = self.after_setup
        if nxt == MOVING and self.dice is not None:
            self._start_moving()
        elif nxt == OPENING:
            self._set_phase(OPENING)
            self.display = ("opening",)
            self.message = "press ROLL for the opening roll"
        else:
            self._set_phase(TURN_START)
            self._show_turn_start()
        self.save_due = True
        if self.phase != MOVING:
            self._clear_marks()

    def _eval_static(self):
        """Phases where the board must stay as committed: guide back if it differs."""
        if not self.have_sensed:
            return
        if not self._guide_back(self.pos):
            self.message = "the board differs from the game: follow the LEDs to restore it"
        elif self.phase == GAME_OVER and self.result is not None:
            self._mark(TRAY0 + self.result[0], M_WIN, self.result[0])

    # -- moving ------------------------------------------------------------
    def _start_moving(self):
        self._set_phase(MOVING)
        turn = make_turn(self.pos, self.dice, self.variant, self.options, not self.played[self.mover])
        self.turn = turn
        self.tmap = _turnmap(turn, self.forced, self.nardy)
        root = _Node(self.pos, self.tmap.dice, self._key(self.pos), None)
        self.root = root
        self.cur = root
        self.cands = [root]
        self.display = ("dice", self.mover, self.dice[0], self.dice[1])
        self.message = "player %d: move" % self.mover
        self._evaluate()

    def _node_pend(self, node):
        """Keys of ``node`` with some hit checkers not yet moved to the bar."""
        if node.pend is not None:
            return node.pend
        base = self.pos.opp
        opp = node.pos.opp
        other = 1 - self.mover
        hits = []
        for q in range(1, 25):
            if base[q] == 1 and opp[q] == 0:
                hits.append(slot_loc(other, q, self.nardy))
        out = []
        if hits:
            bar = BAR0 + other
            n = len(hits)
            cap = self.capacity
            for mask in range(1, 1 << n):
                k = bytearray(node.key)
                # node.key is clipped; recompute the affected entries from the true counts
                fill_counts(node.pos, self.mover, self._scratch, None, self.nardy)
                true = self._scratch
                locs = []
                b = true[bar]
                for i in range(n):
                    if mask >> i & 1:
                        loc = hits[i]
                        locs.append(loc)
                        c = true[loc] + 1
                        k[loc] = c if c < cap[loc] else cap[loc]
                        b -= 1
                k[bar] = b if b < cap[bar] else cap[bar]
                out.append((bytes(k), locs))
        node.pend = out
        return out

    def _child(self, parent, pos, left, src, to, path=()):
        """Node for ``pos`` reached from ``parent`` by one checker ``src`` -> ``to`` (through ``path``).

        The sensed key is patched from the parent's: only the source, the
        landing points and the opponent's bar can change.
        """
        key = bytearray(parent.key)
        mover = self.mover
        cap = self.capacity
        me = pos.me
        opp = pos.opp
        other_bar = BAR0 + 1 - mover
        for loc in (slot_loc(mover, src, self.nardy), slot_loc(mover, to, self.nardy), other_bar) + tuple(slot_loc(mover, q, self.nardy) for q in path):
            if loc < 24:
                q = loc_point(mover, loc, self.nardy)
                c = me[q] + opp[opp_slot(q, self.nardy)]
            elif loc == other_bar:
                c = opp[BAR]
            elif loc < TRAY0:
                c = me[BAR]
            else:
                c = me[0]
            key[loc] = c if c < cap[loc] else cap[loc]
        return _Node(pos, left, bytes(key), parent)

    def _lift_targets(self, node, src):
        """``[(to, child_node)]`` for a checker lifted from ``src`` at ``node`` (kept on the node)."""
        cache = node.targets
        if cache is None:
            cache = node.targets = {}
        out = cache.get(src)
        if out is None:
            out = []
            for t, child, left2, path in self.tmap.targets(node.pos, node.left, src):
                out.append((t, self._child(node, child, left2, src, t, path)))
            cache[src] = out
        return out

    def _sources(self, node):
        """Points a checker may start a move from at ``node`` (kept on the node)."""
        if node.srcs is None:
            node.srcs = self.tmap.sources(node.pos, node.left)
        return node.srcs

    def _set_cur(self, node):
        old = self.cur
        if old is not None and old is not node:
            old.targets = None  # siblings of the way taken: let them go (a take-back recomputes)
        self.cur = node

    def idle(self):
        """Work ahead while nothing happens: the targets of one more movable checker.

        Returns True if it did something (the app calls it once per quiet poll),
        so a lift is answered from what is ready instead of being computed then.
        """
        if self.phase != MOVING or self.transit_since >= 0:
            return False
        cur = self.cur
        if cur is None or self.have_sensed and bytes(self.sensed) != cur.key:
            return False
        cache = cur.targets
        for p in self._sources(cur):
            if cache is None or p not in cache:
                self._lift_targets(cur, p)
                return True
        return False

    def _eval_moving(self):
        if not self.have_sensed:
            return
        s = bytes(self.sensed)
        cur = self.cur
        # 1. the board still shows the current node (or one of the ambiguous ones)
        if s == cur.key:
            self._at_rest(self.cands if self.cands and self.cands[0] is cur else [cur])
            return
        # 2. checkers moved on from points that lost some: one checker (also a combined
        #    move in one motion) or several before the switches settled
        exact, pend = self._search(cur, s)
        # 3. going back along the way we came
        if not exact:
            node = cur.parent
            while node is not None:
                if node.key == s:
                    exact.append(node)
                    break
                node = node.parent
        if exact:
            self._set_cur(exact[0])
            self._at_rest(exact)
            return
        # 4. a hit checker not yet moved to the bar (the current node or one reached now)
        for k, locs in self._node_pend(cur):
            if s == k:
                self._hit_pending(cur, locs)
                return
        if pend is not None:
            self._set_cur(pend[0])
            self.cands = [pend[0]]
            self._hit_pending(pend[0], pend[1])
            return
        self._transit_or_error(cur)

    def _search(self, start, s):
        """Nodes reachable from ``start`` whose sensed key is ``s``: ``(exact, pending_hit)``.

        Follows only moves of checkers from locations the sensed board shows
        with fewer checkers, and only moves that bring the board closer to
        ``s``, so the search stays within the few moves a person made before
        the switches settled. (Stacks taller than the switches can hide a
        move; DONE then consults every position of the turn.)
        """
        exact = []
        pend = None
        mover = self.mover
        if self._only_lifted(start):
            # checkers in hand, none put down: nothing to find (a checker put on a stack taller
            # than its switches is found by DONE, which looks at every legal result)
            return exact, pend
        stack = [start]
        seen = {}
        while stack:
            node = stack.pop()
            k = node.key
            me = node.pos.me
            srcs = []
            for i in range(NLOC):
                if s[i] < k[i]:
                    p = loc_point(mover, i, self.nardy)
                    if p > 0 and me[p]:
                        srcs.append(p)
            if not srcs:
                continue
            dist = _distance(k, s)
            for p in srcs:
                for t, child in self._lift_targets(node, p):
                    pk = child.pos.key()
                    if pk in seen:
                        continue
                    seen[pk] = 1
                    ck = child.key
                    if ck == s:
                        # several positions may show the same counts (colours differ): keep them all
                        exact.append(child)
                        continue
                    if pend is None:
                        for pk, locs in self._node_pend(child):
                            if pk == s:
                                pend = (child, locs)
                                break
                    if _distance(ck, s) < dist:
                        stack.append(child)
        return exact, pend

    def _only_lifted(self, cur):
        """True when the sensed board is the current node minus checkers in hand."""
        s = self.sensed
        k = cur.key
        for i in range(NLOC):
            if s[i] > k[i]:
                return False
        return True

    def _at_rest(self, cands):
        self.cands = cands
        self.transit_since = -1
        self.missing_now = False
        cur = self.cur
        tmap = self.tmap
        complete = False
        for n in cands:
            if tmap.complete(n.pos):
                complete = True
        if self.forced is not None:
            self._show_forced(cur)
            self.message = "play the move shown: %s" % ("press DONE" if complete else "from / to")
            return
        if complete and not cur.left or (complete and not self._sources(cur)):
            self.message = "press DONE to finish the turn"
            return
        if not self.tournament:
            for p in self._sources(cur):
                self._mark(slot_loc(self.mover, p, self.nardy), M_SOURCE, self.mover)
        self.message = "move: %s left" % ("-".join(str(d) for d in cur.left) or "no dice")

    def _show_forced(self, cur):
        """Host play: show from/to of what is still to be done to reach the forced result."""
        tgt = self.forced
        mover = self.mover
        for p in range(0, 26):
            d = tgt.me[p] - cur.pos.me[p]
            if d < 0:
                self._mark(slot_loc(mover, p, self.nardy), M_PLAY_FROM, mover)
            elif d > 0:
                self._mark(slot_loc(mover, p, self.nardy), M_PLAY_TO, mover)
        if tgt.opp[BAR] > cur.pos.opp[BAR]:
            self._mark(BAR0 + 1 - mover, M_PLAY_TO, 1 - mover)

    def _hit_pending(self, node, locs):
        self.transit_since = -1
        self.cands = [node]
        other = 1 - self.mover
        for loc in locs:
            self._mark(loc, M_FIX_FROM, other)
        self._mark(BAR0 + other, M_FIX_TO, other)
        self.message = "hit: put the hit checker on the bar"

    def _transit_or_error(self, cur):
        s = self.sensed
        k = cur.key
        surplus = []
        deficit = []
        for i in range(NLOC):
            if s[i] > k[i]:
                surplus.append(i)
            elif s[i] < k[i]:
                deficit.append(i)
        if not surplus:
            if self.transit_since < 0:
                self.transit_since = self.now
            if self.now - self.transit_since >= MISSING_MS or self.missing_now:
                for i in deficit:
                    self._mark(i, M_MISSING, self._owner_of(cur.pos, i))
                self.message = "checker missing: put it back where the LEDs show"
                return
            mover = self.mover
            shown = False
            for i in deficit:
                owner = self._owner_of(cur.pos, i)
                if owner == mover:
                    p = loc_point(mover, i, self.nardy)
                    self._mark(i, M_LIFTED, mover)
                    if not self.tournament:
                        for t, child in self._lift_targets(cur, p):
                            loc = slot_loc(mover, t, self.nardy)
                            if self.marks[loc] == M_NONE:
                                self._mark(loc, M_TARGET, mover)
                    shown = True
                else:
                    # an opponent checker in hand: back to its point, or to its bar if hit
                    self._mark(i, M_FIX_TO, owner)
                    if owner >= 0 and i < BAR0 and self._is_blot(cur.pos, i):
                        self._mark(BAR0 + owner, M_FIX_TO, owner)
            if shown:
                self.message = "put the checker on a lit point"
            else:
                self.message = "put the checker back"
            return
        # a checker where none may be: flash it, guide one checker at a time
        self.transit_since = -1
        first = surplus[0]
        self._mark(first, M_ERROR)
        for i in surplus[1:]:
            self._mark(i, M_ERROR)
        if deficit:
            dst = deficit[0]
            self._mark(dst, M_FIX_TO, self._owner_of(cur.pos, dst))
            for i in deficit[1:]:
                self._mark(i, M_MISSING, self._owner_of(cur.pos, i))
            self.message = "wrong point: move the checker from the flashing point to the lit one"
        else:
            self.message = "wrong point: take the extra checker away from the flashing point"
        self.error_loc = first

    def _is_blot(self, pos, loc):
        p = loc_point(self.mover, loc, self.nardy)
        return pos.opp[opp_slot(p, self.nardy)] == 1

    def _eval_pick(self):
        if not self.have_sensed:
            return
        if bytes(self.sensed) != self.pick[0][0].key:
            # the board changed: back to ordinary moving
            self.phase = MOVING
            self.pick = None
            self._eval_moving()
            return
        cands, idx = self.pick
        node = cands[idx]
        base = self.pos
        mover = self.mover
        for p in range(0, 26):
            d = node.pos.me[p] - base.me[p]
            if d < 0:
                self._mark(slot_loc(mover, p, self.nardy), M_CAND_FROM, mover)
            elif d > 0:
                self._mark(slot_loc(mover, p, self.nardy), M_CAND_TO, mover)
        self.display = ("pick", idx + 1, len(cands))
        self.message = "sensors cannot tell these plays apart: NEXT shows the next one, DONE picks it (%d of %d)" % (
            idx + 1, len(cands))

    # ---------------------------------------------------------------- buttons
    def _on_button(self, name):
        phase = self.phase
        if name == "NEW":
            self._new_match()
            self.save_due = True
            self._evaluate()
            return
        if phase == OPENING:
            if name == "ROLL":
                if self.have_sensed and not self.board_matches(self.pos):
                    self.message = "restore the board first"
                    self._evaluate()
                    return
                self.want_roll = ROLL_OPENING
        elif phase == TURN_START:
            if name == "ROLL":
                if self.have_sensed and not self.board_matches(self.pos):
                    self.message = "restore the board first"
                    self._evaluate()
                    return
                self.want_roll = ROLL_TURN
            elif name == "DOUBLE":
                self._offer_double()
        elif phase == CUBE_OFFERED:
            self._cube_response(name)
        elif phase == MOVING:
            if name == "DONE":
                self._done()
        elif phase == PICK:
            if name == "NEXT":
                cands, idx = self.pick
                self.pick = (cands, (idx + 1) % len(cands))
                self._evaluate()
            elif name == "DONE":
                cands, idx = self.pick
                self._commit(cands[idx])
        elif phase == GAME_OVER:
            if name in ("DONE", "ROLL"):
                self._next_game()
        elif phase == MATCH_OVER:
            if name in ("DONE", "ROLL"):
                self._new_match()
                self.save_due = True
                self._evaluate()

    def can_double(self):
        """True if the player on roll may offer the cube now (RULES.md 2.2)."""
        o = self.options
        if self.phase != TURN_START or not o["cubeEnabled"] or self.crawford_game:
            return False
        if self.owner not in (-1, self.mover):
            return False
        nxt = self._next_value(self.cube)
        cap = o["cubeCap"]
        if cap and nxt > cap:
            return False
        return True

    def _next_value(self, v):
        if self.options["cubeProgression"] == "arithmetic":
            return v + 1
        return v * 2

    def _offer_double(self):
        if not self.can_double():
            self.message = "you cannot double now"
            self.refused += 1
            return
        self.offerer = self.mover
        self.offer_stage = _OFFER
        self.phase = CUBE_OFFERED
        self.doubled = True
        self.display = ("offer", self._next_value(self.cube))
        self.message = "player %d doubles: TAKE or DROP" % self.mover
        self.record.append("%s doubles => %d" % (_pname(self.mover), self._next_value(self.cube)))
        self._rec("cube", self.mover, _C_OFFER)
        self.save_due = True

    def _cube_response(self, name):
        o = self.options
        stage = self.offer_stage
        taker = 1 - self.offerer
        v = self.cube
        if stage == _OFFER:
            if name == "TAKE":
                self._rec("cube", taker, _C_TAKE)
                self.cube = self._next_value(v)
                self.owner = taker
                self._cube_settled("%s takes" % _pname(taker))
            elif name == "DROP":
                self.record.append("%s drops" % _pname(taker))
                self._rec("cube", taker, _C_DROP)
                self._end_game(self.offerer, v, "drop")
            elif name == "BEAVER" and o["beavers"] and not o["matchLength"]:
                self.offer_stage = _BEAVER
                self.owner = taker
                self.display = ("offer", 4 * v)
                self.record.append("%s beavers => %d" % (_pname(taker), 4 * v))
                self._rec("cube", taker, _C_BEAVER)
                self.message = "beaver: player %d TAKE or DROP%s" % (self.offerer, " or RACCOON" if o["raccoons"] else "")
                self.save_due = True
            else:
                self.message = "TAKE or DROP"
        elif stage == _BEAVER:
            if name == "TAKE":
                self._rec("cube", self.offerer, _C_TAKE)
                self.cube = 4 * v
                self._cube_settled("%s accepts the beaver" % _pname(self.offerer))
            elif name == "DROP":
                self.record.append("%s refuses the beaver" % _pname(self.offerer))
                self._rec("cube", self.offerer, _C_DROP)
                self._end_game(taker, 2 * v, "drop")
            elif name == "RACCOON" and o["raccoons"]:
                self.offer_stage = _RACCOON
                self.display = ("offer", 8 * v)
                self.record.append("%s raccoons => %d" % (_pname(self.offerer), 8 * v))
                self._rec("cube", self.offerer, _C_RACCOON)
                self.message = "raccoon: player %d TAKE or DROP" % taker
                self.save_due = True
        elif stage == _RACCOON:
            if name == "TAKE":
                self._rec("cube", taker, _C_TAKE)
                self.cube = 8 * v
                self._cube_settled("%s accepts the raccoon" % _pname(taker))
            elif name == "DROP":
                self.record.append("%s refuses the raccoon" % _pname(taker))
                self._rec("cube", taker, _C_DROP)
                self._end_game(self.offerer, 4 * v, "drop")

    def _cube_settled(self, text):
        self.record.append(text)
        self.offer_stage = 0
        self.offerer = -1
        self._set_phase(TURN_START)
        self._show_turn_start()
        self.save_due = True

    def _show_turn_start(self):
        self.display = ("turn", self.mover, self.cube, self.owner)
        self.message = "player %d: ROLL%s" % (self.mover, " or DOUBLE" if self.can_double() else "")

    # -------------------------------------------------------------- the dice
    def _on_dice(self, a, b):
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise ControllerError("dice must be 1..6, got %r %r" % (a, b))
        want = self.want_roll
        self.want_roll = 0
        if want == ROLL_OPENING and self.phase == OPENING:
            self._opening(a, b)
        elif want == ROLL_TURN and self.phase == TURN_START:
            self.dice = (a, b)
            self.first = False
            self.record.append("%s rolls %d%d" % (_pname(self.mover), a, b))
            self._rec("roll", self.mover, a, b)
            self._start_moving()
            self.save_due = True

    def _opening(self, a, b):
        o = self.options
        self._rec("opening", a, b)
        if a == b:
            limit = o["autoDoubles"]
            if limit and (limit < 0 or self.auto_doubles < limit):
                self.auto_doubles += 1
                self.cube *= 2
                self.record.append("opening tie %d%d: automatic double => %d" % (a, b, self.cube))
            else:
                self.record.append("opening tie %d%d" % (a, b))
            self.display = ("tie", a, b, self.cube)
            self.message = "tie: press ROLL again"
            self.save_due = True
            return
        winner = 0 if a > b else 1
        self.mover = winner
        self.pos = self._start_position()  # symmetric, already seen from the winner
        if self.nardy and o["lnOpening"] == "fresh-roll" or not self.nardy and o["openingReroll"]:
            self.record.append("opening %d%d: %s rolls again" % (a, b, _pname(winner)))
            self._set_phase(TURN_START)
            self.first = True
            self._show_turn_start()
        else:
            self.dice = (a, b) if a > b else (b, a)
            self.record.append("opening %d%d: %s plays %d%d" % (a, b, _pname(winner), self.dice[0], self.dice[1]))
            self.first = True
            self._start_moving()
        self.save_due = True
        self._evaluate()

    # ------------------------------------------------------------- done/commit
    def _done(self):
        if not self.have_sensed:
            return
        sensed = self.sensed
        s = bytes(sensed)
        cur = self.cur
        # without a full location the counts name the position: the current node says it all;
        # otherwise (tall stacks) every legal result the switches cannot tell from this board
        cap = self.capacity
        full = False
        for i in range(NLOC):
            if sensed[i] >= cap[i]:
                full = True
                break
        unsure = False
        if not full and s == cur.key:
            # every position of the turn showing these counts (a colour swap on single
            # checkers gives the same counts): searched from the start of the turn
            cands = list(self.cands or [cur])
            bar = BAR0 + 1 - self.mover
            if s[bar] != self.root.key[bar]:
                # only hits move the opponent's checkers: without one the counts name the play
                seen = {}
                for n in cands:
                    seen[n.pos.key()] = 1
                for n in self._search(self.root, s)[0]:
                    if n.pos.key() not in seen:
                        seen[n.pos.key()] = 1
                        cands.append(n)
            done = []
            for n in cands:
                if self.tmap.complete(n.pos):
                    done.append(n)
            # the same counts could also be a play not finished yet (colours differ): let the player confirm
            unsure = 0 < len(done) < len(cands)
        else:
            done = self._results_showing(s)
        if not done:
            self.refused += 1
            if s != cur.key:
                if self._only_lifted(cur):
                    # DONE with checkers off the board: they are missing (conservation of 15)
                    self.missing_now = True
                self._evaluate()
                if self._only_lifted(cur):
                    return
                self.message = "the board does not show a legal play: follow the LEDs"
                return
            self._clear_marks()
            for p in self._sources(cur):
                self._mark(slot_loc(self.mover, p, self.nardy), M_REQUIRED, self.mover)
            self.frame += 1
            self.message = "not finished: you must still play %s" % "-".join(str(d) for d in cur.left)
            self.display = ("more",) + tuple(cur.left)
            return
        if len(done) > 1 or unsure:
            self._set_phase_keep(PICK)
            self.pick = (done, 0)
            self._evaluate()
            return
        self._commit(done[0])

    def _results_showing(self, s):
        """Legal results whose sensed key is ``s`` (one pass over the plays; nothing kept)."""
        out = []
        turn = self.turn
        only = self.forced
        for code in turn.plays:
            res = turn.result(code)
            if only is not None and res != only:
                continue
            if self._key(res) == s:
                out.append(_Node(res, (), s, self.root))
        return out

    def _set_phase_keep(self, phase):
        self.phase = phase

    def _commit(self, node):
        turn = self.turn
        code = self.tmap.code_for(node.pos)
        text = _play_text(self.pos, turn, code, self.nardy) if code is not None else "?"
        mover = self.mover
        self.record.append("%s %d%d: %s" % (_pname(mover), self.dice[0], self.dice[1], text))
        if self.rec is not None:
            if code is None:
                self._rec_stop()
            else:
                self._rec("play", mover, [(m[0], m[1]) for m in turn.moves(code)] if turn.dice_used else [])
        self.accepted += 1
        self.last_play = text
        self.last_result = node.pos.copy()
        result = node.pos
        self.forced = None
        self.played[mover] = True
        if result.me[0] == CHECKERS:
            kind = SINGLE
            if not result.opp[0]:
                kind = GAMMON  # long nardy's mars; nardy has no backgammon (RULES.md 4.10)
                for p in range(19, 26):
                    if result.opp[p] and not self.nardy:
                        kind = BACKGAMMON
            self.pos = result
            self.dice = None
            self._end_game(mover, self.cube, kind)
            return
        self.pos = result.swapped()
        self.mover = 1 - mover
        self.dice = None
        self.first = False
        self._set_phase(TURN_START)
        self._show_turn_start()
        self.save_due = True
        self._evaluate()

    def _end_game(self, winner, value, kind):
        o = self.options
        if kind == "drop":
            mult = 1
            kname = "drop"
        else:
            mult = kind
            kname = (("oin", "mars") if self.nardy else ("single", "gammon", "backgammon"))[kind - 1]
            if o["noGammonsWithCube"] or (o["jacoby"] and not o["matchLength"] and not self.doubled):
                mult = 1
        points = mult * value
        self.scores[winner] += points
        self.result = (winner, points, kname)
        self.record.append("%s wins %d point%s (%s)" % (_pname(winner), points, "" if points == 1 else "s", kname))
        self.games.append((self.game_no, winner, points, kname))
        self._rec("end", winner, 0 if kind == "drop" else kind, points)
        n = o["matchLength"]
        if n and self.scores[winner] >= n:
            self._set_phase(MATCH_OVER)
            self.message = "player %d wins the match %d-%d" % (winner, self.scores[winner], self.scores[1 - winner])
        else:
            self._set_phase(GAME_OVER)
            self.message = "player %d wins %d point%s; press DONE for the next game" % (
                winner, points, "" if points == 1 else "s")
        self.display = ("result", winner, points, self.scores[0], self.scores[1])
        # the winner's perspective for the static board check
        if kind == "drop":
            pass
        self.save_due = True
        self._evaluate()

    def _next_game(self):
        o = self.options
        n = o["matchLength"]
        crawford_next = False
        if n and o["crawford"] and not self.crawford_used:
            for s in self.scores:
                if s == n - 1:
                    crawford_next = True
        scores = self.scores
        last = self.pos
        last_mover = self.mover
        last_result = self.result
        self._new_game()
        self._seed_setup(last, last_mover)
        if crawford_next:
            self.crawford_game = True
            self.crawford_used = True
        if self.nardy and o["lnWinnerStarts"] and last_result:
            # the winner of the last game moves first, rolling two dice, without an opening roll
            self.mover = last_result[0]
            self.after_setup = TURN_START
        self.scores = scores
        self.save_due = True
        self._evaluate()

    # ------------------------------------------------------------ from the host
    def _on_load(self, pid, mover, dice):
        pos = _position(pid, self.nardy)
        if mover not in (0, 1):
            raise ControllerError("mover must be 0 or 1, not %r" % (mover,))
        if self.phase != SETUP:
            self._seed_setup(self.cur.pos if self.cur is not None else self.pos, self.mover)
        self._set_phase(SETUP)
        self.pos = pos
        self.mover = mover
        self.first = False
        self.forced = None
        if dice:
            a, b = dice
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise ControllerError("dice must be 1..6, got %r" % (dice,))
            self.dice = (a, b)
            self.after_setup = MOVING
        else:
            self.dice = None
            self.after_setup = TURN_START
        self._rec_stop()
        self.save_due = True
        self._evaluate()

    def _apply_match_id(self, match_id):
        """Cube, score, match length and Crawford game from a gnubg Match ID."""
        try:
            from pipcore.match import CENTRE, decode_match_id
        except ImportError:
            raise ControllerError("this firmware has no Match ID support")
        try:
            st = decode_match_id(match_id)
        except ValueError as exc:
            raise ControllerError("bad Match ID %r: %s" % (match_id, exc))
        if st.length != self.options["matchLength"]:
            opts = dict(self.options)
            opts["matchLength"] = st.length
            opts["crawford"] = st.length > 0
            for name in ("beavers", "raccoons", "jacoby", "autoDoubles"):
                if st.length:
                    opts[name] = 0 if name == "autoDoubles" else False
            self.options = make_options(opts, self.variant)
        self.cube = st.cube_value
        self.owner = -1 if st.cube_owner == CENTRE else st.cube_owner
        self.scores = [st.score[0], st.score[1]]
        self.crawford_game = bool(st.crawford)
        self.crawford_used = self.crawford_used or self.crawford_game
        self._rec_stop()
        self.save_due = True

    def _on_host_play(self, text):
        if self.phase not in (MOVING, PICK):
            raise ControllerError("a play can be given only while a roll is being played")
        text = text.strip()
        target = None
        if len(text) == 14 and " " not in text:  # a Position ID (its alphabet has "/" too)
            try:
                p = _position(text, self.nardy)
            except PositionError:
                p = None
            if p is not None:
                for cand in (p, p.swapped()):
                    if target is None and self.turn.result_for(cand) is not None:
                        target = cand
        if target is None:
            try:
                segments = parse_play(text)
                check = getattr(self.turn, "check", None)  # the variant's own referee (long nardy)
                if check is not None:
                    code, target = check(segments)
                else:
                    code, target = check_play(self.pos, self.dice, segments)
            except ValueError as exc:  # not notation, or not legal (each variant's IllegalPlayError)
                raise ControllerError("host play %r refused (neither a legal play in gnubg notation nor the "
                                      "Position ID of a legal result): %s" % (text, exc))
        self.forced = target
        self.tmap = _turnmap(self.turn, target, self.nardy)
        root = _Node(self.pos, self.tmap.dice, self._key(self.pos), None)
        self.root = root
        self._set_cur(root)
        self.cands = [root]
        self.phase = MOVING
        self.pick = None
        self._evaluate()

    # -------------------------------------------------------------- persistence
    def snapshot(self):
        """The committed state as plain data (JSON-ready)."""
        return {
            "v": SNAPSHOT_VERSION,
            "variant": self.variant,
            "options": self.options,
            "phase": self.phase if self.phase != PICK else MOVING,
            "after_setup": self.after_setup,
            "mover": self.mover,
            "pos": self.pos.position_id(),
            "dice": list(self.dice) if self.dice else None,
            "first": self.first,
            "cube": self.cube,
            "owner": self.owner,
            "offerer": self.offerer,
            "offer_stage": self.offer_stage,
            "doubled": self.doubled,
            "auto_doubles": self.auto_doubles,
            "played": list(self.played),
            "scores": list(self.scores),
            "crawford_game": self.crawford_game,
            "crawford_used": self.crawford_used,
            "game_no": self.game_no,
            "games": [list(g) for g in self.games],
            "record": list(self.record),
            "mrec": _b64(self.rec.stream.data) if self.rec is not None else None,
            "rec_acts": self.rec_acts,
            "result": list(self.result) if self.result else None,
            "forced": self.forced.position_id() if self.forced is not None else None,
            "tournament": self.tournament,
        }

    @classmethod
    def restore(cls, snap, capacity=None):
        """A controller resumed from ``snapshot()`` data (raises ControllerError if unusable)."""
        try:
            if snap.get("v") != SNAPSHOT_VERSION:
                raise ControllerError("saved state has version %r, expected %d" % (snap.get("v"), SNAPSHOT_VERSION))
            c = cls(snap["options"], snap["variant"], capacity)
            c.mover = snap["mover"]
            c.pos = _position(snap["pos"], c.nardy)
            c.dice = tuple(snap["dice"]) if snap["dice"] else None
            c.first = snap["first"]
            c.cube = snap["cube"]
            c.owner = snap["owner"]
            c.offerer = snap["offerer"]
            c.offer_stage = snap["offer_stage"]
            c.doubled = snap["doubled"]
            c.auto_doubles = snap["auto_doubles"]
            c.played = list(snap.get("played", (True, True)))
            c.scores = list(snap["scores"])
            c.crawford_game = snap["crawford_game"]
            c.crawford_used = snap["crawford_used"]
            c.game_no = snap["game_no"]
            c.games = [tuple(g) for g in snap["games"]]
            c.record = list(snap["record"])
            mrec = snap.get("mrec")
            if mrec:
                c._rec_start(_unb64(mrec))
                c.rec_acts = snap.get("rec_acts", 0)
            else:
                c._rec_stop()  # a save from before the match record: this match keeps its text log
            c.result = tuple(snap["result"]) if snap["result"] else None
            c.forced = _position(snap["forced"], c.nardy) if snap["forced"] else None
            c.tournament = snap["tournament"]
            c.after_setup = snap["after_setup"]
            phase = snap["phase"]
        except (KeyError, TypeError, PositionError) as exc:
            raise ControllerError("saved state is unusable: %r" % (exc,))
        c._set_phase(phase)
        if phase == MOVING:
            if c.dice is None:
                raise ControllerError("saved state is moving without dice")
            c._start_moving()
            if c.forced is not None:
                c.tmap = _turnmap(c.turn, c.forced, c.nardy)
                c.root = _Node(c.pos, c.tmap.dice, c._key(c.pos), None)
                c.cur = c.root
                c.cands = [c.root]
        elif phase == TURN_START:
            c._show_turn_start()
        elif phase == OPENING:
            c.display = ("opening",)
        elif phase == CUBE_OFFERED:
            c.display = ("offer", c._next_value(c.cube))
        elif phase in (GAME_OVER, MATCH_OVER) and c.result:
            c.display = ("result", c.result[0], c.result[1], c.scores[0], c.scores[1])
        return c

    def match_id(self):
        """The gnubg Match ID of this state, or None (no ``pipcore.match``, or a cube gnubg cannot write)."""
        try:
            from pipcore import match as m
        except ImportError:
            return None
        phase = self.phase
        if phase in (GAME_OVER, MATCH_OVER):
            state = m.GAME_DROPPED if self.result and self.result[2] == "drop" else m.GAME_OVER
        elif phase in (SETUP, OPENING):
            state = m.GAME_NONE
        else:
            state = m.GAME_PLAYING
        offered = phase == CUBE_OFFERED
        try:
            ms = m.MatchState(cube_value=self.cube, cube_owner=self.owner if self.owner >= 0 else m.CENTRE,
                              on_roll=self.mover, crawford=self.crawford_game, game_state=state,
                              turn=(1 - self.mover) if offered else self.mover, doubled=offered,
                              dice=self.dice if self.dice and phase in (MOVING, PICK) else (0, 0),
                              length=self.options["matchLength"], score=tuple(self.scores),
                              jacoby=self.options["jacoby"])
            return ms.encode()
        except ValueError:
            return None

    # ------------------------------------------------------------- inspection
    def phase_name(self):
        return PHASE_NAMES[self.phase]

    def dice_left(self):
        return self.cur.left if self.phase in (MOVING, PICK) and self.cur is not None else ()

    def pick_candidate(self):
        """The position (seen from the mover) the PICK phase is showing, or None."""
        if self.phase != PICK:
            return None
        cands, idx = self.pick
        return cands[idx].pos

    def expected_counts(self):
        """True (unclipped) counts of the committed position, per location."""
        out = bytearray(NLOC)
        if self.phase in (MOVING, PICK) and self.cur is not None:
            fill_counts(self.cur.pos, self.mover, out, None, self.nardy)
        else:
            fill_counts(self.pos, self.mover, out, None, self.nardy)
        return out


def _position(position_id, nardy):
    """Decode and validate a Position ID in the variant's geometry."""
    from pipcore.position import decode_position_id
    pos = decode_position_id(position_id)
    pos.validate("nardy" if nardy else "backgammon")
    return pos


def _distance(a, b):
    """Checkers out of place between two count vectors (L1 distance)."""
    d = 0
    for i in range(NLOC):
        x = a[i] - b[i]
        d += x if x > 0 else -x
    return d


def _turnmap(turn, only, nardy=False):
    from pipcore.turnmap import TurnMap
    if nardy:
        from pipcore.nardy import apply_move as nardy_apply
        return TurnMap(turn, only, nardy_apply)
    return TurnMap(turn, only)


def _pname(player):
    return "white" if player == 0 else "black"


def _play_text(pos, turn, code, nardy=False):
    """gnubg notation of play ``code`` from ``pos``, with hits marked."""
    moves = turn.moves(code)
    if not moves:
        return "-"
    if nardy:
        return format_play([(s, t, None) for s, t, d in moves])
    trial = pos.copy()
    marked = []
    for s, t, d in moves:
        hit = t > 0 and trial.opp[25 - t] == 1
        apply_move(trial, s, t)
        marked.append((s, t, True if hit else None))
    return format_play(marked)
