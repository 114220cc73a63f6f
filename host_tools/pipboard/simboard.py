"""A headless simulated board: the firmware app with driver twins and a physical model.

``SimBoard`` runs the same ``pipcore.app.App`` as ``main.py`` on the Pico,
with twins of the drivers, and models the physical board: which checkers (by
colour) lie on every location, and a box for checkers off the board. Tests
drive it like people do::

    board = SimBoard(seed=1)
    board.follow_guidance()          # set up the checkers as the LEDs ask
    board.press("ROLL")              # opening roll
    board.move(loc_from, loc_to)     # lift and place (settles the switches)
    board.press("DONE")
    board.power_cut(); board.power_on()

Time is virtual: ``advance(ms)`` polls the app at that instant, and switch
changes settle after ``settle_ms`` (the debounce of the scan driver), so
thousands of games run in seconds.
"""

import random

from pipcore.app import App
from pipcore.board import BAR0, DEFAULT_CAPACITY, NLOC, slot_loc
from pipcore.controller import (M_ADD, M_ERROR, M_FIX_FROM, M_FIX_TO, M_MISSING, M_REMOVE, MOVING, PICK)
from pipcore.position import CHECKERS

SETTLE_MS = 30


class SimSensors:
    """Twin of the scan driver: per-location counts debounced over ``settle_ms``."""

    def __init__(self, board, settle_ms=SETTLE_MS):
        self.board = board
        self.settle_ms = settle_ms
        self.counts = bytearray(NLOC)
        self._cand = bytearray(NLOC)
        self._since = [0] * NLOC
        self.flicker = {}  # loc -> raw count shown instead of the true one

    def poll(self, now):
        board = self.board
        cap = board.capacity
        changed = False
        counts = self.counts
        cand = self._cand
        since = self._since
        stacks = board.stacks
        flicker = self.flicker
        for loc in range(NLOC):
            raw = flicker.get(loc)
            if raw is None:
                n = len(stacks[loc])
                raw = n if n < cap[loc] else cap[loc]
            if raw == counts[loc]:
                cand[loc] = raw
                continue
            if raw != cand[loc]:
                cand[loc] = raw
                since[loc] = now
            elif now - since[loc] >= self.settle_ms:
                counts[loc] = raw
                changed = True
        return changed


class SimButtons:
    def __init__(self):
        self.queue = []

    def poll(self, now):
        if self.queue:
            return self.queue.pop(0)
        return None


class SimDice:
    """Twin of the dice driver: a seeded fair die."""

    def __init__(self, rng):
        self.rng = rng
        self.forced = []

    def roll(self):
        if self.forced:
            return self.forced.pop(0)
        return self.rng.randint(1, 6)


class SimDisplay:
    def __init__(self):
        self.item = None
        self.shown = 0

    def show(self, item):
        self.item = item
        self.shown += 1


class SimStorage:
    """Twin of the storage driver: atomic saves kept across power cuts (flash)."""

    def __init__(self):
        self.files = {}
        self.writes = 0

    def load(self, name):
        return self.files.get(name)

    def save(self, name, text):
        self.files[name] = text  # atomic: all or nothing
        self.writes += 1


class SimPixels:
    """Twin of the NeoPixel strip."""

    def __init__(self, n):
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.frames = 0
        self.brightness = 1.0

    def __setitem__(self, i, colour):
        self.buf[i] = colour

    def __getitem__(self, i):
        return self.buf[i]

    def __len__(self):
        return self.n

    def show(self):
        self.frames += 1


class BoardError(AssertionError):
    """The virtual hands were asked to do something physically impossible."""


class SimBoard:
    """The whole board in software (see module docstring)."""

    def __init__(self, seed=None, capacity=None, options=None, settle_ms=SETTLE_MS, variant="backgammon"):
        self.rng = random.Random(seed)
        self.capacity = bytes(capacity) if capacity is not None else DEFAULT_CAPACITY
        self.options = options
        self.variant = variant
        self.stacks = [[] for _ in range(NLOC)]
        self.box = [CHECKERS, CHECKERS]  # checkers off the board, per colour
        self.hand = []
        self.now = 0
        self.storage = SimStorage()
        self.pixels = SimPixels(NLOC)
        self.dice = SimDice(random.Random(self.rng.random()))
        self.display = SimDisplay()
        self.buttons = SimButtons()
        self.settle_ms = settle_ms
        self.app = None
        self.power_cuts = 0
        self.power_on()

    # -- power ---------------------------------------------------------------
    def power_on(self):
        self.sensors = SimSensors(self, self.settle_ms)
        self.app = App(self.sensors, self.buttons, self.dice, self.display, self.storage, self.pixels,
                       capacity=self.capacity, options=self.options, variant=self.variant)
        self.settle()

    def power_cut(self):
        """Lose everything in RAM at this instant (the storage twin keeps its files)."""
        self.app = None
        self.buttons.queue = []
        self.power_cuts += 1

    @property
    def ctl(self):
        return self.app.ctl

    # -- time ----------------------------------------------------------------
    def advance(self, ms):
        self.now += ms
        if self.app is not None:
            self.app.poll(self.now)

    def settle(self):
        """Let the switches settle and the app see it."""
        self.advance(1)
        self.advance(self.settle_ms)

    # -- hands ---------------------------------------------------------------
    def lift(self, loc, colour=None, settle=True):
        """Lift a checker (of ``colour`` if given) from ``loc`` into the hand; returns its colour."""
        stack = self.stacks[loc]
        if not stack:
            raise BoardError("no checker to lift at location %d" % loc)
        if colour is None:
            c = stack.pop()
        else:
            if colour not in stack:
                raise BoardError("no checker of colour %d at location %d" % (colour, loc))
            stack.remove(colour)
            c = colour
        self.hand.append(c)
        if settle:
            self.settle()
        return c

    def place(self, loc, colour=None, settle=True):
        """Put a checker from the hand (of ``colour`` if given) on ``loc``."""
        if colour is None:
            c = self.hand.pop()
        else:
            self.hand.remove(colour)
            c = colour
        self.stacks[loc].append(c)
        if settle:
            self.settle()

    def move(self, src, dst, colour=None, settle=True):
        c = self.lift(src, colour, settle)
        self.place(dst, c, settle)

    def take_from_box(self, colour):
        if self.box[colour] <= 0:
            raise BoardError("no checker of colour %d left in the box" % colour)
        self.box[colour] -= 1
        self.hand.append(colour)

    def put_in_box(self):
        self.box[self.hand.pop()] += 1

    def press(self, name):
        self.buttons.queue.append(name)
        self.advance(1)

    def chatter(self, loc, times=3):
        """Switch bounce at ``loc``: raw flickers shorter than the debounce."""
        s = self.sensors
        n = len(self.stacks[loc])
        true = min(n, self.capacity[loc])
        for _ in range(times):
            s.flicker[loc] = true + 1 if true == 0 else true - 1
            self.advance(2)
            del s.flicker[loc]
            self.advance(2)

    def knock(self, locs, ms=8):
        """A knock: many switches flicker at once for ``ms`` (below the debounce)."""
        s = self.sensors
        for loc in locs:
            n = len(self.stacks[loc])
            true = min(n, self.capacity[loc])
            s.flicker[loc] = 0 if true else 1
        self.advance(ms)
        s.flicker.clear()
        self.advance(1)

    # -- what people see ------------------------------------------------------
    def marked(self, role):
        m = self.ctl.marks
        return [i for i in range(NLOC) if m[i] == role]

    def physical_counts(self):
        return [len(s) for s in self.stacks]

    def colour_total(self, colour):
        n = self.box[colour] + self.hand.count(colour)
        for s in self.stacks:
            n += s.count(colour)
        return n

    def follow_guidance(self, limit=200):
        """Do what the LEDs ask (setup, fixes) until they ask nothing more; returns the steps taken."""
        steps = 0
        while steps < limit:
            ctl = self.ctl
            marks = ctl.marks
            players = ctl.mark_player
            src = -1
            dst = -1
            for i in range(NLOC):
                r = marks[i]
                if r in (M_FIX_FROM, M_ERROR, M_REMOVE) and src < 0:
                    src = i
                elif r in (M_FIX_TO, M_ADD, M_MISSING) and dst < 0:
                    dst = i
            if src < 0 and dst < 0:
                return steps
            steps += 1
            if src >= 0:
                want = players[dst] if dst >= 0 else 2
                if marks[src] == M_REMOVE and players[src] in (0, 1):
                    want = players[src]
                stack = self.stacks[src]
                if want in (0, 1) and want in stack:
                    self.lift(src, want)
                else:
                    self.lift(src)
                if dst >= 0 and self.hand[-1] == players[dst] or dst >= 0 and players[dst] == 2:
                    self.place(dst)
                else:
                    self.put_in_box()
            else:
                colour = players[dst]
                if colour not in (0, 1):
                    raise BoardError("guidance asks to add a checker of unknown colour at %d" % dst)
                # people fill a point to the count they know it needs, even past what the switches see
                want = ctl.expected_counts()[dst]
                n = max(1, want - len(self.stacks[dst])) if marks[dst] == M_ADD else 1
                for _ in range(n):
                    if colour not in self.hand:
                        self.take_from_box(colour)
                    self.place(dst, colour)
        raise BoardError("guidance did not converge after %d steps" % limit)

    def tidy_tall_stacks(self):
        """What a person does after setup: fix stacks taller than the switches see to the known count."""
        ctl = self.ctl
        want = ctl.expected_counts()
        cap = self.capacity
        for loc in range(NLOC):
            stack = self.stacks[loc]
            if len(stack) >= cap[loc] and want[loc] >= cap[loc] and len(stack) != want[loc]:
                colour = stack[0]
                while len(stack) > want[loc]:
                    stack.pop()
                    self.box[colour] += 1
                while len(stack) < want[loc]:
                    if self.box[colour] <= 0:
                        raise BoardError("no checker left to fill location %d" % loc)
                    self.box[colour] -= 1
                    stack.append(colour)

    def in_turn(self):
        return self.ctl.phase in (MOVING, PICK)


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

    # -- power cuts at random instants ----------------------------------------
    def _maybe_cut(self):
        if self.rng.random() < self.cut_rate:
            self.power_cycle()

    def power_cycle(self):
        b = self.board
        saved = b.storage.files.get("game")
        b.power_cut()
        b.power_on()
        self.stats["resumed"] += 1
        if saved is not None:
            import json
            now = json.dumps(b.ctl.snapshot())
            if json.loads(now) != json.loads(saved):
                raise PlayFailure("resume did not restore the saved state:\n%s\n%s" % (saved, now))

    # -- a game ------------------------------------------------------------------
    def play_game(self, max_steps=2000):
        from pipcore.controller import (CUBE_OFFERED, GAME_OVER, MATCH_OVER, OPENING, SETUP, TURN_START)
        b = self.board
        game_no = b.ctl.game_no
        for _ in range(max_steps):
            ctl = b.ctl
            ph = ctl.phase
            if ph == SETUP:
                b.follow_guidance()
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
                if z > 0 and trial.opp[25 - z] == 1:
                    hits.append(z)
                apply_move(trial, a, z)
            src = slot_loc(mover, s)
            dst = slot_loc(mover, t)
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
        self._maybe_cut()

    def _chatter(self):
        rng = self.rng
        if rng.random() < self.chatter_rate:
            self.board.chatter(rng.randrange(NLOC), 1 + rng.randrange(3))
        if rng.random() < self.knock_rate:
            self.board.knock(rng.sample(range(NLOC), 8 + rng.randrange(12)))

    def _finish(self, base, intended, dice):
        b = self.board
        b.press("DONE")
        ctl = b.ctl
        if ctl.phase == PICK:
            self.stats["picks"] += 1
            for _ in range(len(ctl.pick[0]) + 1):
                if ctl.pick_candidate() == intended:
                    break
                b.press("NEXT")
            if ctl.pick_candidate() != intended:
                raise PlayFailure("the intended play is not among the candidates")
            b.press("DONE")
        if ctl.phase in (MOVING, PICK):
            self.stats["refused"] += 1
            raise PlayFailure("legal play refused: %s dice %r -> %s; board says %r" % (
                base.describe(), dice, intended.describe(), ctl.message))
        if ctl.last_result != intended:
            raise PlayFailure("recorded %s but the player played %s" % (ctl.last_result.describe(),
                                                                        intended.describe()))
        self.stats["accepted"] += 1
        self.stats["turns"] += 1


__all__ = ["SimBoard", "VirtualPlayer", "BoardError", "PlayFailure", "SETTLE_MS"]
