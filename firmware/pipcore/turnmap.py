"""The positions a player may pass through while playing one roll.

A person moves checkers one at a time, in any order, sometimes straight to
the end of a combined move. ``TurnMap`` answers the questions the controller
asks about such a turn in progress, for a ``rules.Turn``:

* ``steps(pos, left)``: the single moves ``(from, to, die, child, left')``
  that keep some legal play reachable (a move that leads nowhere legal is
  not offered, so the LEDs never suggest it);
* ``targets(pos, left, src)``: where a checker lifted from ``src`` may be
  put down, using one or several of the dice left;
* ``complete(pos)``: True when ``pos`` is the result of a legal play.

``only`` restricts the legal plays to one result (a play given by the host:
the board then accepts that play and nothing else).

Answers are memoised per turn in one dict keyed by position and dice left;
the generator stops at the first legal continuation, so marking the movable
checkers after a roll stays cheap even for doubles.
"""

from pipcore.position import BAR, CHECKERS
from pipcore.rules import Turn, apply_move, single_move_error
from pipcore.steps import index_of  # (a standard turn's steps, asked of its index directly: rules.Turn imports
# them at every call, which costs as much as a step; and no wrapper frame on the Pico's 8 KB C stack)


def remove_die(left, d):
    """``left`` (a tuple of dice values) without one ``d`` (the first)."""
    i = left.index(d)
    return left[:i] + left[i + 1:]


class TurnMap:
    """Legal partial plays of ``turn`` (see module docstring)."""

    def __init__(self, turn, only=None, apply=apply_move):
        self.turn = turn
        self.apply = apply  # the variant's single move (long nardy never hits)
        self.only = only
        self._rules_steps = hasattr(turn, "steps") and hasattr(turn, "is_complete")
        self.results = {}
        if only is not None:
            code = turn.result_for(only)
            if code is not None:
                self.results[only.key()] = code
        elif not self._rules_steps:
            for code in turn.plays:
                self.results[turn.result(code).key()] = code
        if turn.double:
            self.dice = (turn.high,) * 4
        else:
            self.dice = (turn.high, turn.low)
        self._ok = {}

    def complete(self, pos):
        """True when ``pos`` is the result of a legal (allowed) play."""
        if self.only is None and self._rules_steps:
            return index_of(self.turn).is_complete(pos) if type(self.turn) is Turn else self.turn.is_complete(pos)
        return pos.key() in self.results

    def code_for(self, pos):
        code = self.results.get(pos.key())
        if code is None and self.only is None:
            code = self.turn.result_for(pos)
        return code

    def _moves(self, pos, left, src=-1):
        """Single moves ``(s, t, d)`` that keep some legal play of the turn reachable.

        Uses the turn's own ``steps`` (every variant's generator knows its
        restrictions); a turn without it falls back to the standard rules'
        single moves (checked for reachability by ``on_path``).
        """
        if self._rules_steps:
            found = index_of(self.turn).steps(pos) if type(self.turn) is Turn else self.turn.steps(pos)
            if not found:
                return ()
            if src < 0:
                return found
            return [m for m in found if m[0] == src]
        out = []
        me = pos.me
        if me[0] == CHECKERS or not left:
            return out
        seen = 0
        for d in left:
            if seen & (1 << d):
                continue
            seen |= 1 << d
            if me[BAR]:
                srcs = (BAR,)
            elif src >= 0:
                srcs = (src,)
            else:
                srcs = range(24, 0, -1)
            for s in srcs:
                if me[s] and single_move_error(pos, s, d) is None:
                    t = s - d
                    out.append((s, t if t > 0 else 0, d))
        return out

    def on_path(self, pos, left):
        """True if a legal (allowed) play is still reachable from ``pos`` with dice ``left``.

        Recursion: each level uses up one die of ``left``: at most four."""
        if self._rules_steps and self.only is None:
            return True  # the turn's steps only lead towards legal plays
        key = pos.key() + bytes(left)
        ok = self._ok.get(key)
        if ok is not None:
            return ok
        ok = pos.key() in self.results
        if not ok:
            for s, t, d in self._moves(pos, left):
                if d not in left:
                    continue
                child = pos.copy()
                self.apply(child, s, t)
                if self.on_path(child, remove_die(left, d)):
                    ok = True
                    break
        self._ok[key] = ok
        return ok

    def steps(self, pos, left, src=-1):
        """Single moves that keep a legal play reachable: ``[(s, t, d, child, left2)]``."""
        out = []
        for s, t, d in self._moves(pos, left, src):
            if d not in left:
                continue
            child = pos.copy()
            self.apply(child, s, t)
            left2 = remove_die(left, d)
            if self.on_path(child, left2):
                out.append((s, t, d, child, left2))
        return out

    def sources(self, pos, left):
        """Points (25 = bar) from which a checker may start a move now: bit ``p`` set for point ``p``
        (an int: a node keeps it without a list)."""
        out = 0
        if self._rules_steps and self.only is None:
            # the turn's steps lead only towards legal plays: no need to try them (asked here, not through
            # ``_moves``: the roll's marks come this way, a frame less on the Pico's C stack)
            turn = self.turn
            for s, t, d in (index_of(turn).steps(pos) if type(turn) is Turn else turn.steps(pos)) or ():
                if d in left:
                    out |= 1 << s
            return out
        for s, t, d in self._moves(pos, left):
            if out >> s & 1 or d not in left:
                continue
            child = pos.copy()
            self.apply(child, s, t)
            if self.on_path(child, remove_die(left, d)):
                out |= 1 << s
        return out

    def targets(self, pos, left, src):
        """Where one checker lifted from ``src`` may land: ``[(to, child, left2, path)]``.

        ``path`` lists the points the checker passes through (the landing
        points of its earlier dice) so hits on the way are known. Several
        entries may share ``to`` (different dice orders that differ in a hit).
        """
        out = []
        if not left:
            return out  # (no die left: nowhere to go)
        seen = {}
        check = self.only is not None or not self._rules_steps
        one = type(self.turn) is Turn  # (its steps judge one source when asked: pipcore.steps)
        # a standard double moves the checker on by the one die: each position comes once (no key kept)
        chain = one and self.turn.double
        frontier = [(src, pos, left, ())]
        while frontier:
            at, p, lf, path = frontier.pop()
            # (the turn's steps filtered here: ``_moves`` would build a filtered list)
            for s, t, d in (((index_of(self.turn).steps(p, at) if one else self.turn.steps(p)) or ()) if not check
                            else self._moves(p, lf, at)):
                if s != at or d not in lf:
                    continue
                child = p.copy()
                self.apply(child, s, t)
                if chain:
                    left2 = lf[1:]
                else:
                    left2 = remove_die(lf, d)
                    key = child.key() + bytes(left2)  # (the same position with other dice left: a bear-off)
                    if key in seen:
                        continue
                    seen[key] = 1
                if check and not self.on_path(child, left2):
                    continue
                out.append((t, child, left2, path))
                if t != 0 and left2:  # (no die left: it moves no further, the turn's steps not asked)
                    frontier.append((t, child, left2, path + (t,)))
        return out

    def walk(self, pos, left, visit):
        """Call ``visit(pos, left)`` on every on-path position from ``pos`` (each once)."""
        seen = {}
        stack = [(pos, left)]
        while stack:
            p, lf = stack.pop()
            k = p.key() + bytes(lf)
            if k in seen:
                continue
            seen[k] = 1
            visit(p, lf)
            for s, t, d, child, left2 in self.steps(p, lf):
                stack.append((child, left2))
