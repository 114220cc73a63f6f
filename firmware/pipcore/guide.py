"""Guidance for a roll being played: the tracker's readings turned into LED marks and a message.

``TurnGuide.show`` is called after every settled change while a roll is
played. It asks the tracker (``pipcore.tracker``) which reading of the
sensed counts holds, then marks what a person needs: the checkers that may
move, where a lifted checker may land, a hit checker to put on the bar, a
checker on a wrong point and where it belongs, checkers missing for too
long, the play a host gave, the candidates to pick from. It knows nothing
of the cube, the score or the phases.
"""

from pipcore.board import index, BAR0, NLOC, find, loc_point, owner_at, slot_loc, slot_table
from pipcore.names import (M_CAND_FROM, M_CAND_TO, M_ERROR, M_FIX_FROM, M_FIX_TO, M_LIFTED, M_MISSING, M_NONE,
                           M_PLAY_FROM, M_PLAY_TO, M_REQUIRED, M_SOURCE, M_TARGET, NOBODY)
from pipcore.tracker import AT_REST, WRONG

MISSING_MS = 20000  # checkers in hand this long are reported missing


def _dice(left):
    return "-".join(str(d) for d in left) or "no dice"


class TurnGuide:
    """Marks for one roll of ``tracker`` (moving checkers of ``mover``), written with ``mark(loc, role, player)``.

    ``forced`` (a result position, or None) is the play a host gave: the
    guide then shows that play's from and to points instead of the sources.
    """

    def __init__(self, tracker, mark, marks, forced=None):
        self.tracker = tracker
        self.mark = mark
        self.marks = marks
        self.forced = forced
        self.mover = tracker.mover
        self.nardy = tracker.nardy
        self.transit_since = -1  # when checkers went into the hand (ms), -1 when none are
        self.tournament = False  # (the last ``show``'s: no sources nor targets lit)
        self._table = slot_table(self.mover, self.nardy)  # the mover's slot -> location
        # (dice left, readings and whether complete, message): the last "move" message, formatted again only
        # when these change
        # (each new string is looked up among the interned names: about a thousand compared on the board)
        self._prompt = None

    def show(self, sensed, now, tournament=False, missing_now=False):
        """Mark the board for the counts ``sensed`` at ``now``; returns the message.

        (This and the methods below keep to 11 locals and stack slots where they run at every
        settled change: a bigger frame is allocated on the heap, slow in a game's heap.)"""
        self.tournament = tournament
        kind = self.tracker.follow(bytes(sensed))
        if kind == AT_REST:
            self.transit_since = -1
            return self._at_rest()
        if kind == WRONG:
            self.transit_since = -1
            return self._wrong(self.tracker, sensed)
        return self._adjusting(sensed, now, missing_now)

    def _at_rest(self):
        tr = self.tracker
        cands = tr.cands
        complete = False
        i = 0
        while not complete and i < len(cands):
            complete = tr.complete(cands[i])
            i += 1
        if self.forced is not None:
            self._show_forced(tr.cur)
            return "play the move shown: %s" % ("press DONE" if complete else "from / to")
        if complete and (not tr.cur.left or not tr.sources(tr.cur)):
            return "press DONE to finish the turn"
        if not self.tournament:
            self._sources(tr, tr.cur)
        said = self._prompt
        key = len(cands) | (0x100 if complete else 0)
        if said is None or said[0] is not tr.cur.left or said[1] != key:
            if complete:  # a legal result that another play goes on from (4/3/off, or 4/off and a 1)
                said = "press DONE, or move on: %s left" % _dice(tr.cur.left)
            elif len(cands) > 1:
                said = "move: %s left (the checkers fit %d plays: NEXT shows the next)" % (_dice(tr.cur.left), len(cands))
            else:
                said = "move: %s left" % _dice(tr.cur.left)
            said = self._prompt = (tr.cur.left, key, said)
        return said[2]

    def _sources(self, tr, node):
        srcs = tr.sources(node)  # (bit per point)
        p = 0
        while srcs:
            if srcs & 1:
                self.mark(self._table[p], M_SOURCE, self.mover)
            srcs >>= 1
            p += 1

    def _show_forced(self, cur):
        """Host play: show from/to of what is still to be done to reach the forced result."""
        tgt = self.forced
        mover = self.mover
        for p in range(0, 26):
            d = tgt.me[p] - cur.pos.me[p]
            if d < 0:
                self.mark(slot_loc(mover, p, self.nardy), M_PLAY_FROM, mover)
            elif d > 0:
                self.mark(slot_loc(mover, p, self.nardy), M_PLAY_TO, mover)
        if tgt.opp[25] > cur.pos.opp[25]:
            self.mark(BAR0 + 1 - mover, M_PLAY_TO, 1 - mover)

    def _adjusting(self, s, now, missing_now):
        """The best readings with checkers in hand, hit checkers still on their points, or blots on
        the bar before their hitter: every mark leads towards one of them (readings that stay
        equally good are all shown, so none is guided away from)."""
        tr = self.tracker
        if tr.hand:
            if self.transit_since < 0:
                self.transit_since = now
            if now - self.transit_since >= MISSING_MS or missing_now:
                return self._say(tr, s)
        else:
            self.transit_since = -1
        got = 0
        i = 0
        while i < len(tr.cands):
            if tr.cands[i] is tr.cur:
                got = self._reading_marks(tr.cands[i], s)
            else:
                self._reading_marks(tr.cands[i], s)
            i += 1
        if got & 1:
            if len(tr.cands) > 1:
                return "hit on the way: put the checker you hit on the bar (%d ways)" % len(tr.cands)
            return "hit: put the hit checker on the bar"
        if tr.hand:
            if not got & 2:
                return "put the checker back"
            # (tournament mode lights no targets: no "lit point" to speak of)
            return "put the checker down (tournament: no targets lit)" if self.tournament else \
                "put the checker on a lit point"
        if not self.tournament:
            self._sources(tr, tr.cur)
        return "move: %s left (the hit checker is on the bar)" % _dice(tr.cur.left)

    def _say(self, tr, s):
        """Checkers in hand too long: they are reported missing."""
        k = tr.cur.key
        for i in range(NLOC):
            if s[i] < k[i]:
                self.mark(i, M_MISSING, owner_at(tr.cur.pos, self.mover, i, self.nardy))
        return "checker missing: put it back where the LEDs show"

    def _reading_marks(self, node, s):
        """Marks leading from ``s`` to ``node``; returns 1 if a hit checker is still on its point,
        | 2 if a checker of the mover is in hand."""
        tr = self.tracker
        tournament = self.tournament
        # one reading: its hit checker must go to the bar; several: the player shows which
        take = M_FIX_FROM if len(tr.cands) == 1 else M_CAND_FROM
        pos = node.pos
        k = node.key
        mover = self.mover
        other = 1 - mover
        nardy = self.nardy
        mark = self.mark
        marks = self.marks
        obar = BAR0 + other
        blots = tr.blots
        root = tr.pos
        pend = 0
        blots_off = 0
        diff = 0  # bit i: location i shows other than ``node`` (the opponent's bar aside)
        find(s, k)  # (the locations that differ, in ``index``)
        i = 0
        while index[i] < NLOC:
            d = index[i]
            if d != obar:
                diff |= 1 << d
                if s[d] > k[d]:
                    pend += 1
                elif blots[d] and pos.opp[blots[d]]:
                    blots_off += 1
            i += 1
        # blots already on the bar before their hitter came; the others are in hand
        early = s[obar] - k[obar] + pend
        if s[obar] >= tr.capacity[obar] and blots_off:
            early = blots_off  # (a clipped bar shows no blot put on it: each lifted one may be there)
        blots_in_hand = blots_off - early if early > 0 else blots_off
        lifted = 0
        to_bar = early < 0  # a hit checker in hand
        table = self._table
        i = 0
        while diff:
            if diff & 1:
                q = blots[i]
                p = loc_point(mover, i, nardy)
                if s[i] > k[i]:  # a hit checker still on its point
                    mark(i, take, other)
                    to_bar = True
                elif q and pos.opp[q]:  # a blot off its point: back, or to the bar if it is being hit
                    if blots_in_hand:
                        if marks[i] == M_NONE:
                            mark(i, M_FIX_TO, other)
                        to_bar = True
                elif p >= 0 and pos.me[p]:
                    if pos.me[p] > root.me[p]:
                        mark(i, M_TARGET, mover)  # a checker landed here this turn: back here, or on
                    elif marks[i] == M_NONE:
                        mark(i, M_LIFTED, mover)
                    lifted = 2
                    if not tournament:
                        for child in tr.lift_targets(node, p):
                            loc = table[child.to]
                            if marks[loc] == M_NONE or marks[loc] == M_LIFTED:  # (another reading's lift)
                                mark(loc, M_TARGET, mover)
                            if child.key[obar] > k[obar] and s[loc]:
                                to_bar = True  # the checker on that point may be the hit one, in hand
                elif marks[i] == M_NONE:
                    mark(i, M_FIX_TO, owner_at(pos, mover, i, nardy))
            diff >>= 1
            i += 1
        if to_bar:
            mark(obar, M_FIX_TO, other)
        return (1 if pend else 0) | lifted

    def _wrong(self, tr, s):
        """No reading of the turn shows the counts: flash the surplus, guide one checker back."""
        cur = tr.cur
        k = cur.key
        mover = self.mover
        nardy = self.nardy
        mark = self.mark
        deficit = []
        surplus = False
        find(s, k)  # (the locations that differ, in ``index``)
        j = 0
        i = index[0]
        while i < NLOC:
            if s[i] > k[i]:
                mark(i, M_ERROR, NOBODY)
                surplus = True
            else:
                deficit.append(i)
            j += 1
            i = index[j]
        if deficit:
            mark(deficit[0], M_FIX_TO, owner_at(cur.pos, mover, deficit[0], nardy))
            for i in deficit[1:]:
                mark(i, M_MISSING, owner_at(cur.pos, mover, i, nardy))
            if surplus:
                return "wrong point: move the checker from the flashing point to the lit one"
            return "put the checkers back where the LEDs show"
        return "wrong point: take the extra checker away from the flashing point"

    def show_required(self):
        """DONE pressed too early: the checkers that must still move; returns the message."""
        tr = self.tracker
        srcs = tr.sources(tr.cur)  # (bit per point)
        p = 0
        while srcs:
            if srcs & 1:
                self.mark(slot_loc(self.mover, p, self.nardy), M_REQUIRED, self.mover)
            srcs >>= 1
            p += 1
        return "not finished: you must still play %s" % _dice(tr.cur.left)

    def show_pick(self, cands, idx):
        """The candidate ``idx`` of plays the switches cannot tell apart; returns the message."""
        node = cands[idx]
        base = self.tracker.pos
        mover = self.mover
        for p in range(0, 26):
            d = node.pos.me[p] - base.me[p]
            if d < 0:
                self.mark(slot_loc(mover, p, self.nardy), M_CAND_FROM, mover)
            elif d > 0:
                self.mark(slot_loc(mover, p, self.nardy), M_CAND_TO, mover)
        return "sensors cannot tell these plays apart: NEXT shows the next one, DONE picks it (%d of %d)" % (
            idx + 1, len(cands))
