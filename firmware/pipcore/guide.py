"""Guidance for a roll being played: the tracker's readings turned into LED marks and a message.

``TurnGuide.show`` is called after every settled change while a roll is
played. It asks the tracker (``pipcore.tracker``) which reading of the
sensed counts holds, then marks what a person needs: the checkers that may
move, where a lifted checker may land, a hit checker to put on the bar, a
checker on a wrong point and where it belongs, checkers missing for too
long, the play a host gave, the candidates to pick from. It knows nothing
of the cube, the score or the phases.
"""

from pipcore.board import BAR0, NLOC, loc_point, opp_slot, owner_at, slot_loc
from pipcore.names import (M_CAND_FROM, M_CAND_TO, M_ERROR, M_FIX_FROM, M_FIX_TO, M_LIFTED, M_MISSING, M_NONE,
                           M_PLAY_FROM, M_PLAY_TO, M_REQUIRED, M_SOURCE, M_TARGET, NOBODY)
from pipcore.tracker import AT_REST, HIT_PENDING

MISSING_MS = 20000  # checkers in hand this long are reported missing


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

    def show(self, sensed, now, tournament=False, missing_now=False):
        """Mark the board for the counts ``sensed`` at ``now``; returns the message."""
        tr = self.tracker
        kind = tr.follow(bytes(sensed))
        if kind == AT_REST:
            self.transit_since = -1
            return self._at_rest(tr, tournament)
        if kind == HIT_PENDING:
            self.transit_since = -1
            other = 1 - self.mover
            for loc in tr.hits:
                self.mark(loc, M_FIX_FROM, other)
            self.mark(BAR0 + other, M_FIX_TO, other)
            return "hit: put the hit checker on the bar"
        return self._elsewhere(tr, sensed, now, tournament, missing_now)

    def _at_rest(self, tr, tournament):
        cur = tr.cur
        complete = False
        for n in tr.cands:
            if tr.complete(n.pos):
                complete = True
        if self.forced is not None:
            self._show_forced(cur)
            return "play the move shown: %s" % ("press DONE" if complete else "from / to")
        if complete and (not cur.left or not tr.sources(cur)):
            return "press DONE to finish the turn"
        if not tournament:
            for p in tr.sources(cur):
                self.mark(slot_loc(self.mover, p, self.nardy), M_SOURCE, self.mover)
        return "move: %s left" % ("-".join(str(d) for d in cur.left) or "no dice")

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

    def _elsewhere(self, tr, s, now, tournament, missing_now):
        """No reading of the turn shows the counts: checkers in hand, or a checker where none may be."""
        cur = tr.cur
        k = cur.key
        mover = self.mover
        nardy = self.nardy
        mark = self.mark
        surplus = []
        deficit = []
        for i in range(NLOC):
            if s[i] > k[i]:
                surplus.append(i)
            elif s[i] < k[i]:
                deficit.append(i)
        if not surplus:
            # checkers in hand: show where they may go, and report them missing after a while
            if self.transit_since < 0:
                self.transit_since = now
            if now - self.transit_since >= MISSING_MS or missing_now:
                for i in deficit:
                    mark(i, M_MISSING, owner_at(cur.pos, mover, i, nardy))
                return "checker missing: put it back where the LEDs show"
            shown = False
            for i in deficit:
                owner = owner_at(cur.pos, mover, i, nardy)
                if owner == mover:
                    mark(i, M_LIFTED, mover)
                    if not tournament:
                        for child in tr.lift_targets(cur, loc_point(mover, i, nardy)):
                            loc = slot_loc(mover, child.to, nardy)
                            if self.marks[loc] == M_NONE:
                                mark(loc, M_TARGET, mover)
                    shown = True
                else:
                    # an opponent checker in hand: back to its point, or to its bar if hit
                    mark(i, M_FIX_TO, owner)
                    if owner >= 0 and i < BAR0 and cur.pos.opp[opp_slot(loc_point(mover, i, nardy), nardy)] == 1:
                        mark(BAR0 + owner, M_FIX_TO, owner)
            return "put the checker on a lit point" if shown else "put the checker back"
        # a checker where none may be: flash it, guide one checker at a time
        self.transit_since = -1
        for i in surplus:
            mark(i, M_ERROR, NOBODY)
        if deficit:
            mark(deficit[0], M_FIX_TO, owner_at(cur.pos, mover, deficit[0], nardy))
            for i in deficit[1:]:
                mark(i, M_MISSING, owner_at(cur.pos, mover, i, nardy))
            return "wrong point: move the checker from the flashing point to the lit one"
        return "wrong point: take the extra checker away from the flashing point"

    def show_required(self):
        """DONE pressed too early: the checkers that must still move; returns the message."""
        tr = self.tracker
        for p in tr.sources(tr.cur):
            self.mark(slot_loc(self.mover, p, self.nardy), M_REQUIRED, self.mover)
        return "not finished: you must still play %s" % "-".join(str(d) for d in tr.cur.left)

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
