"""Everything a person sees after every change of a game played by hand, one line each (MicroPython or
CPython): the harness of tests/bench/differential.py, which runs it on two firmware trees and compares.

``python differential_play.py SEED PLAYS [full]``: random legal plays of random games (one App on its
drivers with the bench's stand-ins), each executed checker by checker as people do (tests/mp/hands.py:
orders, chains, hits before and after), with wrong placements and lifts put back at random, and a random
number of quiet polls between changes (none to many: what is prepared ahead varies). Each line: the
marks, their colours, the phase, the message, the panel's item, a hash of the LED frame's bytes and the
tracker's reading (kind, readings, checkers in hand). The time stands still during quiet polls so that
frames' blink phases compare.
"""
import sys
from pipcore import geometry as g
from pipcore.app import App
from pipcore.board import NLOC
from pipcore.names import GAME_OVER, MATCH_OVER, MOVING, PICK, TURN_START
from pipdrivers.board import Board
from pipbench_board import Chain, Dice, Flash
import hands

seed = int(sys.argv[1])
plays = int(sys.argv[2])
rng = hands.Rng(seed)
FULL = len(sys.argv) > 3


class Rig:
    def __init__(self):
        self.chain = Chain()
        self.buttons = 0
        self.flash = Flash()
        self.hw = Board(self.chain.readinto, lambda buf: None, lambda: self.buttons, self.flash,
                        lambda n: bytes(range(n)))
        self.app = App(self.hw)
        self.dice = Dice()
        self.app.dice = self.dice
        self.now = 0
        self.have = [bytearray(NLOC), bytearray(NLOC)]
        self.counts = bytearray(NLOC)

    def sync(self):
        for i in range(NLOC):
            c = self.have[0][i] + self.have[1][i]
            self.counts[i] = c if c < 255 else 255
            g.set_count(self.chain.bits, i, c if c < g.SLOTS else g.SLOTS)

    def show_counts(self):
        self.sync()
        self.event(("board", self.counts))

    def event(self, ev):
        self.now += 7
        self.app.step(ev, self.now)
        self.app.draw(self.now)
        self.show()
        for _ in range(rng.below(4) * rng.below(30)):  # quiet polls: none, a few, or many
            if not self.app.quiet(self.now):  # (the time stands: the frames' blink phases stay comparable)
                break

    def show(self):
        ctl = self.app.ctl
        out = self.app.hw.pixels.out
        h = 0
        for b in out:
            h = (h * 131 + b) & 0xFFFFFFF
        tr = ctl.tracker
        if FULL:
            print(bytes(out).hex())
        print("%s %s %d %r %r %d %s" % (bytes(ctl.marks).hex(), bytes(ctl.mark_player).hex(), ctl.phase,
                                        ctl.message, ctl.display, h,
                                        "%d/%d/%d" % (tr.kind, len(tr.cands), tr.hand) if tr is not None else "-"))


rig = Rig()
app = rig.app


def lay_out(pos, mover):
    per = hands._per_colour(pos, mover)
    rig.have[0][:] = per[0]
    rig.have[1][:] = per[1]
    rig.sync()
    rig.event(("board", rig.counts))


def turn_start():
    ctl = app.ctl
    if ctl.phase in (GAME_OVER, MATCH_OVER):
        rig.event(("button", "DONE"))
    for _ in range(20):
        ctl = app.ctl
        if ctl.phase == MOVING:
            return True
        if ctl.phase == TURN_START or ctl.phase == 1:
            a = 1 + rng.below(6)
            b = 1 + rng.below(6) if rng.below(3) else a
            rig.dice.next = (a, b)
            rig.event(("button", "ROLL"))
        else:
            lay_out(ctl.ref.position, ctl.ref.turn)
    return app.ctl.phase == MOVING


done = 0
while done < plays:
    ctl = app.ctl
    if ctl.phase != MOVING:
        if ctl.setting_up:
            lay_out(ctl.ref.position, ctl.ref.turn)
        if not turn_start():
            print("stuck", ctl.phase, ctl.message)
            break
        continue
    ctl = app.ctl
    turn = ctl.turn
    pos = ctl.pos
    mover = ctl.mover
    code = turn.plays[rng.below(len(turn.plays))]
    events = hands.hand_events(rng, pos, mover, turn, code)
    per = hands._per_colour(pos, mover)  # (the board shows the committed position: whose checkers are whose)
    rig.have[0][:] = per[0]
    rig.have[1][:] = per[1]
    k = 0
    while k < len(events):
        loc, delta, colour = events[k]
        r = rng.below(7)
        if r == 0:  # a wrong placement and back
            w = rng.below(NLOC)
            rig.have[0][w] += 1
            rig.show_counts()
            rig.have[0][w] -= 1
            rig.show_counts()
        elif r == 1 and delta < 0 and rig.have[0 if colour == mover else 1][loc]:  # lifted and put back first
            rig.have[0 if colour == mover else 1][loc] -= 1
            rig.show_counts()
            rig.have[0 if colour == mover else 1][loc] += 1
            rig.show_counts()
        if delta < 0 and not rig.have[0 if colour == mover else 1][loc]:
            print("harness: nothing to lift at", loc)
            break
        rig.have[0 if colour == mover else 1][loc] += delta
        rig.sync()
        rig.event(("board", rig.counts))
        k += 1
    rig.event(("button", "DONE"))
    if app.ctl.phase == PICK:
        result = turn.result(code)
        for _ in range(8):
            if app.ctl.pick_candidate() == result:
                break
            rig.event(("button", "NEXT"))
        rig.event(("button", "DONE"))
    done += 1
print("plays", done, "faults", app.faults)
rig.flash.clean()
