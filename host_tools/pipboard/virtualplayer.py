"""Virtual players: whole games played on a ``SimBoard`` by simulated hands, every verdict checked.

Random legal plays executed in the orders people use (through the intermediate
point or straight on, hits in either order, wrong placements corrected), with
switch chatter, knocks and power cuts; ``stats`` counts what happened.
"""

import json
import random

from pipcore.board import BAR0, NLOC, slot_loc
from pipcore.names import GAME_OVER, MATCH_OVER, MOVING, PICK


class PlayFailure(AssertionError):
    """The board refused a legal play or recorded something else than was played."""


class VirtualPlayer:
    """Plays complete games on a SimBoard the way people do, checking the board's every verdict.

    Chooses random legal plays and executes them with random order of lifts
    and placements, combined moves through the intermediate point or straight
    to the end, hits in both orders, wrong placements corrected, switch
    chatter, knocks that flicker many switches, and power cuts at random
    instants (``cut_rate`` per physical action). Counts what happened in
    ``stats``.
    """

    def __init__(self, board, rng=None, wrong_rate=0.05, chatter_rate=0.05, knock_rate=0.01, cut_rate=0.004,
                 fast_rate=0.1, double_rate=0.03, drop_rate=0.3):
        self.board = board
        self.rng = rng or random.Random(1)
        self.wrong_rate = wrong_rate
        self.chatter_rate = chatter_rate
        self.knock_rate = knock_rate
        self.cut_rate = cut_rate
        self.fast_rate = fast_rate
        self.double_rate = double_rate
        self.drop_rate = drop_rate
        self.stats = {"games": 0, "accepted": 0, "refused": 0, "resumed": 0, "picks": 0, "wrong": 0,
                      "doubles": 0, "turns": 0}
        self.last_scores = None  # the score when the last game ended
        self.match_over = False  # the last game ended the match

    # -- power cuts at random instants ----------------------------------------
    def _maybe_cut(self):
        if self.rng.random() < self.cut_rate:
            self.power_cycle()

    def power_cycle(self):
        """Cut the power now (sometimes in the middle of the next save) and boot again."""
        b = self.board
        if self.rng.random() < 0.3:
            b.power_cut(during_save_units=self.rng.randrange(1, 400))
            return  # the cut falls inside the next save; _check_resume runs after the boot
        b.power_cut()
        self.boot()

    def boot(self):
        b = self.board
        b.power_on()
        self.stats["resumed"] += 1
        if b.saved_at_boot is not None:
            if b.resumed_state is None or json.loads(b.resumed_state) != json.loads(b.saved_at_boot):
                raise PlayFailure("resume did not restore the saved state:\n%s\n%s" % (
                    b.saved_at_boot, b.resumed_state))

    # -- a game ------------------------------------------------------------------
    def play_game(self, max_steps=2000):
        from pipcore.names import CUBE_OFFERED, OPENING, SETUP, TURN_START
        b = self.board
        self._revive()
        game_no = b.ctl.game_no
        for _ in range(max_steps):
            self._revive()
            ctl = b.ctl
            ph = ctl.phase
            if ph == SETUP:
                b.follow_guidance()
                if self._revive():
                    continue
                b.tidy_tall_stacks()
                if b.ctl.phase == SETUP:
                    raise PlayFailure("setup guidance finished but the board is not set up")
            elif ph == OPENING:
                b.press("ROLL")
            elif ph == TURN_START:
                if ctl.can_double() and self.rng.random() < self.double_rate:
                    b.press("DOUBLE")
                    self.stats["doubles"] += 1
                else:
                    b.press("ROLL")
            elif ph == CUBE_OFFERED:
                b.press("DROP" if self.rng.random() < self.drop_rate else "TAKE")
            elif ph in (MOVING, PICK):
                self.play_turn()
            elif ph in (GAME_OVER, MATCH_OVER):
                if ctl.game_no == game_no:
                    self.stats["games"] += 1
                    result = ctl.result
                    self.last_scores = list(ctl.scores)
                    self.match_over = ph == MATCH_OVER
                    if self.match_over:
                        self.stats["matches"] = self.stats.get("matches", 0) + 1
                    b.press("DONE")
                    return result
            self._maybe_cut()
        raise PlayFailure("game did not end within %d steps (phase %s)" % (max_steps, b.ctl.phase_name()))

    def _legal_order(self, pos, moves):
        from pipcore.rules import apply_move, single_move_error
        for _ in range(4):
            order = list(moves)
            self.rng.shuffle(order)
            trial = pos.copy()
            ok = True
            for s, t, d in order:
                if single_move_error(trial, s, d) is not None:
                    ok = False
                    break
                apply_move(trial, s, t)
            if ok:
                return order
        return list(moves)

    def play_turn(self):
        from pipcore.rules import apply_move
        b = self.board
        ctl = b.ctl
        if ctl.phase == PICK:
            b.press("DONE")  # resumed into a pick: pick again below
        turn = ctl.turn
        base = ctl.pos.copy()
        mover = ctl.mover
        dice = ctl.dice
        code = self.rng.choice(turn.plays)
        intended = turn.result(code)
        if ctl.cur is not None and ctl.cur.pos != base:
            # resumed mid-turn with checkers already moved: put them back first
            b.follow_guidance()
        nardy = ctl.nardy
        if nardy:
            from pipcore.nardy import apply_move  # noqa: F811  (long nardy never hits)
            order = list(turn.moves(code))  # the generator's order is a legal one
        else:
            order = self._legal_order(base, turn.moves(code))
        trial = base.copy()
        rng = self.rng
        other = 1 - mover
        i = 0
        while i < len(order):
            s, t, d = order[i]
            path = [(s, t)]
            while t != 0 and i + 1 < len(order) and order[i + 1][0] == t and rng.random() < 0.5:
                i += 1
                path.append((order[i][0], order[i][1]))
                t = order[i][1]
            i += 1
            hits = []
            for a, z in path:
                if not nardy and z > 0 and trial.opp[25 - z] == 1:
                    hits.append(z)
                apply_move(trial, a, z)
            src = slot_loc(mover, s, nardy)
            dst = slot_loc(mover, t, nardy)
            blots_first = rng.random() < 0.5
            if blots_first:
                for z in hits:
                    self._act(lambda z=z: b.move(slot_loc(mover, z), BAR0 + other, other))
            self._chatter()
            fast = rng.random() < self.fast_rate
            if rng.random() < self.wrong_rate:
                wrong = rng.randrange(24)
                if wrong != dst and wrong != src:
                    self.stats["wrong"] += 1
                    self._act(lambda: b.move(src, wrong, mover))
                    self._act(lambda: b.move(wrong, dst, mover, settle=not fast))
                else:
                    self._act(lambda: b.move(src, dst, mover, settle=not fast))
            else:
                self._act(lambda: b.move(src, dst, mover, settle=not fast))
            if fast:
                b.settle()
            if not blots_first:
                for z in hits:
                    self._act(lambda z=z: b.move(slot_loc(mover, z), BAR0 + other, other))
        self._finish(base, intended, dice)

    def _act(self, fn):
        fn()
        self._revive()
        self._maybe_cut()

    def _revive(self):
        """Boot again if the power failed (a cut inside a save)."""
        if self.board.app is None:
            self.boot()
            return True
        return False

    def _chatter(self):
        rng = self.rng
        if rng.random() < self.chatter_rate:
            self.board.chatter(rng.randrange(NLOC), 1 + rng.randrange(3))
        if rng.random() < self.knock_rate:
            self.board.knock(rng.sample(range(NLOC), 8 + rng.randrange(12)))

    def _finish(self, base, intended, dice):
        """Press DONE (and pick among candidates if asked) until the board commits the play."""
        b = self.board
        picked = False
        for _ in range(40):
            ctl = b.ctl
            if ctl.phase == MOVING:
                b.press("DONE")
                if not self._revive() and b.ctl.phase == MOVING:
                    self.stats["refused"] += 1
                    raise PlayFailure("legal play refused: %s dice %r -> %s; board says %r" % (
                        base.describe(), dice, intended.describe(), b.ctl.message))
            elif ctl.phase == PICK:
                if not picked:
                    picked = True
                    self.stats["picks"] += 1
                b.press("DONE" if ctl.pick_candidate() == intended else "NEXT")
                self._revive()
            else:
                break
        else:
            raise PlayFailure("the intended play could not be picked")
        ctl = b.ctl
        after = ctl.pos.swapped()  # the turn has passed (also after the last play: the loser is on roll, as in gnubg)
        if after != intended:
            raise PlayFailure("recorded %s but the player played %s" % (after.describe(), intended.describe()))
        self.stats["accepted"] += 1
        self.stats["turns"] += 1


__all__ = ["VirtualPlayer", "PlayFailure"]
