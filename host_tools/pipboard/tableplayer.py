"""Whole games on a board through the protocol only, played as people at the table play them (test mode).

``play_games(link, games)`` plays on the simulator (``pipboard sim --test``)
or on a Pico deployed with ``pipboard deploy --test``: it sets up the start
position checker by checker, presses the board's own buttons (``inject``
``press``: roll/done, double, take, drop, menu for the next candidate),
lifts and puts down every checker of random legal plays (``inject``
``sensor``), and now and then makes an illegal play (the board must refuse
it; the checker is then put back), offers, takes, drops, beavers and
raccoons the cube where the options allow, resigns (declined, then
accepted), and cuts the power in the middle of a turn (the protocol's
``reset``: a chip reset, or a hung loop the watchdog restarts): the game
must resume from the board's save with no committed play lost.

The player decides with the firmware's own rules core on the host: a
``Referee`` mirrors the match, and after every action the board's snapshot
must show what it expects (the phase, the position, the dice, the cube, the
score, the Match ID, the lines of the record). The figures it returns:
``games``, ``plays``, ``faults`` (the board's count), ``internal`` errors,
``desyncs`` (a snapshot not as expected), ``wrong_accepts`` (an illegal play
committed), ``wrong_refusals`` (a legal play refused), ``resets`` survived,
the cube actions and resignations made, and ``heap``: the free heap after
every turn (the test-mode ``ping``'s ``mem_free``; None on the simulator).

The menu's option sets (``OPTION_SETS``) are played in turn, each as one
match; a game that desyncs ends its match (a new match starts).

    python -m pipboard.tableplayer --port /dev/ttyACM0 --games 20 --seed 1
    python -m pipboard.tableplayer --port sim --games 4 --resets 2
"""

import os
import random
import sys
import time

from pipcore.board import BAR0, DEFAULT_CAPACITY as CAPACITY, NLOC, fill_counts, owner_at, slot_loc
from pipcore.match import ANSWER, CUBE_OR_ROLL, GAME_ENDED, MATCH_ENDED, OPENING, PLAY, Referee
from pipcore.options import make_options

from pipboard.link import CommandError, LinkError

# the board's physical buttons (hardware/pinmap.md): each side's roll/done, double, take, drop; undo; menu
ROLL, DOUBLE, TAKE, DROP = 0, 1, 2, 3
SIDE = 4  # black's buttons are white's + 4
MENU = 9  # short: the next candidate of a pick
SHORT, HELD = 1, 2

PHASES = {OPENING: "opening", CUBE_OR_ROLL: "turn-start", ANSWER: "cube-offered", PLAY: "moving",
          GAME_ENDED: "game-over", MATCH_ENDED: "match-over"}

# The menu's option sets (docs/board-menu.md): every item of a match, each set played as a match.
OPTION_SETS = (
    ("backgammon", {}),
    ("backgammon", {"jacoby": True, "beavers": True, "raccoons": True}),
    ("backgammon", {"matchLength": 3}),
    ("backgammon", {"matchLength": 5, "crawford": False, "dice": "fair"}),
    ("backgammon", {"matchLength": 1, "clock": "simple", "clockDelay": 12, "clockMinutes": 30}),
    ("backgammon", {"cubeCap": 4, "openingReroll": True, "noGammonsWithCube": True}),
    ("backgammon", {"cubeProgression": "arithmetic", "clock": "bronstein", "clockDelay": 5, "clockMinutes": 30}),
    ("backgammon", {"autoDoubles": 2, "beavers": True}),
    ("backgammon", {"dice": "physical", "cubeEnabled": False}),
    ("backgammon", {"caucasian": True, "matchLength": 2}),
    ("backgammon", {"caucasian": True, "caucasianScope": "board", "jailBearOff": True}),
    ("nardy", {}),
    ("nardy", {"lnOpening": "opening-dice", "lnWinnerStarts": False, "lnBlockCheck": "end-of-turn"}),
)

FIGURES = ("games", "plays", "faults", "internal", "desyncs", "wrong_accepts", "wrong_refusals", "illegal_tried",
           "resets", "doubles", "takes", "drops", "beavers", "raccoons", "resigns", "declined", "picks")


class Desync(Exception):
    """The board's state is not what the player expects: the match cannot go on."""


class TablePlayer:
    """One player for both sides, on one board (a ``pipboard.link.Link`` in test mode)."""

    def __init__(self, link, rng=None, log=print, illegal_rate=0.08, double_rate=0.08, resign_rate=0.01,
                 reset_rate=0.0, watchdog=False, wait_s=None, roll_button=None):
        self.link = link
        self.roll_button = roll_button  # (player): the board's own roll button pressed outside the protocol
        self.rng = rng or random.Random(1)
        self.log = log or (lambda text: None)
        self.illegal_rate = illegal_rate
        self.double_rate = double_rate
        self.resign_rate = resign_rate
        self.reset_rate = reset_rate
        self.watchdog = watchdog
        self.serial = ":" not in (link.name or "")  # a serial port (a Pico), not the simulator's host:port
        self.wait_s = wait_s if wait_s is not None else (20.0 if self.serial else 5.0)
        self.figures = dict.fromkeys(FIGURES, 0)
        self.heap = []  # (game, turn, free bytes) after every turn
        self.problems = []  # one line each: desyncs, wrong verdicts, internal errors, with their repro
        self.counts = bytearray(NLOC)  # the checkers lying on each location, as the hands left them
        self.faults_base = 0  # faults counted by the board before its last reset
        self.faults_seen = 0
        self.error_seen = None
        self.ref = None
        self.lying = None  # (position, its mover, nardy): the colours of the checkers on the points
        self.variant = "backgammon"
        self.options = None
        self.game_turns = 0

    # -- the link ---------------------------------------------------------------
    def request(self, cmd, **args):
        try:
            return self.link.request(cmd, timeout=self.wait_s, **args)
        except CommandError as exc:
            if exc.code == "internal":
                self._problem("internal", "%s %r: %s" % (cmd, args, exc.message))
            raise

    def press(self, button, player=0, kind=SHORT):
        self.request("inject", kind="press", index=button + (SIDE * player if button < 4 else 0), value=kind)

    def press_roll(self, player):
        if self.roll_button is not None:
            self.roll_button(player)
        else:
            self.press(ROLL, player)

    def put(self, loc, count):
        self.counts[loc] = count
        self.request("inject", kind="sensor", index=loc, value=min(count, 15))

    def sensed(self):
        """What the switches report: the counts, each at most what its location can sense."""
        return bytes(min(n, cap) for n, cap in zip(self.counts, CAPACITY))

    def move(self, src, dst):
        """A hand lifts a checker from ``src`` and puts it down on ``dst``."""
        self.put(src, self.counts[src] - 1)
        self.put(dst, self.counts[dst] + 1)

    def snapshot(self):
        snap = self.request("snapshot")["snapshot"]
        faults = snap.get("faults") or 0
        if faults < self.faults_seen:  # the board started again: its count too
            self.faults_base += self.faults_seen
        self.faults_seen = faults
        self.figures["faults"] = self.faults_base + faults
        error = snap.get("error")
        if error and error != self.error_seen and error.split(":")[0] in ("internal", "memory"):
            self._problem("internal", "snapshot error %r (phase %s)" % (error, snap.get("phase")))
        self.error_seen = error
        return snap

    def _problem(self, kind, text):
        self.figures[{"internal": "internal", "desync": "desyncs", "accept": "wrong_accepts",
                      "refuse": "wrong_refusals"}[kind]] += 1
        line = "%s: game %d turn %d: %s" % (kind.upper(), self.figures["games"] + 1, self.game_turns, text)
        self.problems.append(line)
        self.log(line)

    # -- what the board must show -----------------------------------------------
    def expected(self):
        ref = self.ref
        exp = {"phase": PHASES[ref.phase], "position_id": ref.position.position_id(),
               "dice": list(ref.dice) if ref.dice else None, "score": list(ref.match.score),
               "record_lines": ref.log_count, "cube": (ref.cube.value, ref.cube.owner)}
        if ref.phase != OPENING:
            exp["mover"] = ref.turn
        try:
            exp["match_id"] = ref.match_id()
        except ValueError:
            pass
        return exp

    def differences(self, snap, exp):
        out = []
        for key in exp:
            got = snap.get(key)
            if key == "cube":
                got = (snap["cube"]["value"], snap["cube"]["owner"])
            elif key == "match_id" and got is None:
                continue
            if got != exp[key]:
                out.append("%s %r, expected %r" % (key, got, exp[key]))
        return out

    def settle(self, what, extra=None):
        """Wait until the board shows the mirror's state (a roll lands on the board's next poll)."""
        exp = self.expected()
        if extra:
            exp.update(extra)
        deadline = time.monotonic() + self.wait_s
        while True:
            snap = self.snapshot()
            diff = self.differences(snap, exp)
            if not diff:
                return snap
            if time.monotonic() > deadline:
                self._problem("desync", "after %s: %s; board says %r" % (what, "; ".join(diff), snap.get("message")))
                raise Desync(what)
            time.sleep(0.05)

    # -- setting up -------------------------------------------------------------------
    def lay(self, pos, mover):
        """Clear what differs (a point of the other colour too: the switches cannot tell colours, the board's
        LEDs can), then set the checkers of ``pos`` down."""
        nardy = self.ref.nardy
        want = fill_counts(pos, mover, bytearray(NLOC), None, nardy)
        lying = self.lying
        for loc in range(NLOC):
            if not self.counts[loc]:
                continue
            if self.counts[loc] != want[loc] or lying is not None and loc < 24 and want[loc] and \
                    owner_at(lying[0], lying[1], loc, lying[2]) != owner_at(pos, mover, loc, nardy):
                self.put(loc, 0)
        for loc in range(NLOC):
            if self.counts[loc] != want[loc]:
                self.put(loc, want[loc])

    def reinject(self):
        """After a reset the board senses its own switches again: the hands' checkers are told once more."""
        for loc in range(NLOC):
            self.put(loc, self.counts[loc])

    def keep_lying(self):
        """What lies on the board now (the last position of the match being left), for ``lay``."""
        ref = self.ref
        if ref is not None and ref.position is not None:
            self.lying = (ref.position.copy(), ref.turn, ref.nardy)

    def start_game(self, starter=None):
        self.keep_lying()
        self.ref.new_game(starter)
        self.game_turns = 0
        self.lay(self.ref.position, self.ref.turn)
        self.settle("the set-up")

    # -- dice ---------------------------------------------------------------------------
    def roll(self, player, opening=False):
        """The player rolls (electronic: the dice set first; physical: keyed in; fair: the board's seed)."""
        ref = self.ref
        source = self.options["dice"]
        rng = self.rng
        if source == "fair":
            before = self.snapshot().get("fair", {}).get("rolls")
            self.press_roll(player)
            deadline = time.monotonic() + self.wait_s
            while True:
                snap = self.snapshot()
                if snap.get("fair", {}).get("rolls") != before:
                    break
                if time.monotonic() > deadline:
                    self._problem("desync", "the fair roll did not come")
                    raise Desync("roll")
                time.sleep(0.05)
            if not opening:
                dice = tuple(snap["dice"] or (0, 0))
            elif snap["phase"] == "opening":
                dice = (1, 1)  # a tie: its value shows nowhere but in the record's text
            elif snap["dice"]:  # (high, low): the starter's die is the high one
                high, low = snap["dice"]
                dice = (high, low) if snap["mover"] == 0 else (low, high)
            else:
                dice = (2, 1) if snap["mover"] == 0 else (1, 2)  # openingReroll: the starter rolls again
        else:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if source == "electronic":
                self.request("set_dice", dice=list(dice))
                self.press_roll(player)
            else:  # physical: roll opens the entry, double steps die A, take die B, roll confirms
                self.press(ROLL, player)
                for _ in range(dice[0]):
                    self.press(DOUBLE, player)
                for _ in range(dice[1]):
                    self.press(TAKE, player)
                self.press(ROLL, player)
        if opening:
            ref.opening_roll(dice[0], dice[1])
        else:
            ref.roll(dice)
        self.settle("%s's roll %d%d" % (_colour(player), dice[0], dice[1]))

    # -- the cube and resignations ---------------------------------------------------------
    def cube_answer(self):
        ref = self.ref
        cube = ref.cube
        who = cube.responder()
        answers = cube.answers()
        r = self.rng.random()
        from pipcore.cube import BEAVER, RACCOON

        if BEAVER in answers and r < 0.35:
            self.press(DOUBLE, who)
            ref.beaver(who)
            self.figures["beavers"] += 1
        elif RACCOON in answers and r < 0.5:
            self.press(DOUBLE, who)
            ref.raccoon(who)
            self.figures["raccoons"] += 1
        elif r < 0.75:
            self.press(TAKE, who)
            ref.take(who)
            self.figures["takes"] += 1
        else:
            self.press(DROP, who)
            ref.drop(who)
            self.figures["drops"] += 1
        self.settle("%s's answer to the cube" % _colour(who))

    def resign(self, player):
        """``player`` holds his drop (a single), raises it to a gammon where one counts; the other side
        declines the first offer of the game and accepts the next."""
        from pipcore.resign import top_level

        ref = self.ref
        self.press(DROP, player, HELD)
        level = 1
        if top_level(ref) == 3 and self.rng.random() < 0.5:
            self.press(DROP, player)
            level = 2
        snap = self.snapshot()
        offer = snap.get("resign") or {}
        if offer.get("player") != player or offer.get("level") != level:
            self._problem("desync", "%s offered a %d-level resignation; board shows %r, says %r" % (
                _colour(player), level, offer, snap.get("message")))
            raise Desync("resign")
        self.figures["resigns"] += 1
        if not self.declined:
            self.declined = True
            self.figures["declined"] += 1
            self.press(DROP, 1 - player)
            self.settle("a declined resignation", {"resign": None})
            return
        self.press(TAKE, 1 - player)
        ref.resign(player, level)
        self.settle("an accepted resignation")

    # -- a turn -------------------------------------------------------------------------------
    def play_turn(self):
        ref = self.ref
        mover = ref.turn
        nardy = ref.nardy
        turn = ref.legal_turn()
        code = self.rng.choice(turn.plays)
        text = ref.play_text(turn, code)
        base = ref.position.copy()
        legal = set()
        for c in turn.plays:  # the sensed outcomes the board must accept (switches cannot tell colours, and
            # count at most CAPACITY checkers a location: a checker more on a tall stack is not seen)
            legal.add(bytes(fill_counts(turn.result(c), mover, bytearray(NLOC), CAPACITY, nardy)))
        steps = self.steps(base, turn.moves(code), mover, nardy)
        cut = self.rng.randrange(len(steps) + 1) if self.rng.random() < self.reset_rate else -1
        partial = self.rng.randrange(1, len(steps)) if len(steps) > 2 and self.rng.random() < self.illegal_rate else -1
        for i, (src, dst) in enumerate(steps):
            if i == cut:
                self.reset()
            if i == partial and self.sensed() not in legal:
                self.refused("an incomplete play (%d of %d hand moves) of %s" % (i, len(steps), text))
            self.move(src, dst)
        if cut == len(steps):
            self.reset()
        if self.rng.random() < self.illegal_rate:
            self.illegal(turn.result(code), mover, legal, text)
        self.done(turn, code, text)

    def steps(self, pos, moves, mover, nardy):
        """The hands' moves (location to location) for ``moves``: each hit's blot goes to its bar, before or
        after the hitter lands."""
        out = []
        trial = pos.copy()
        other = 1 - mover
        if nardy:
            from pipcore.nardy import apply_move
        else:
            from pipcore.rules import apply_move
        for s, t, _ in moves:
            hit = not nardy and 0 < t < 25 and trial.opp[25 - t] == 1
            apply_move(trial, s, t)
            here = (slot_loc(mover, s, nardy), slot_loc(mover, t, nardy))
            if hit:
                blot = (slot_loc(mover, t, nardy), BAR0 + other)
                out.extend((blot, here) if self.rng.random() < 0.5 else (here, blot))
            else:
                out.append(here)
        return out

    def illegal(self, result, mover, legal, text):
        """One checker more moved where no legal play puts it; DONE must be refused; it goes back."""
        nardy = self.ref.nardy
        mine = [loc for loc in range(24) if self.counts[loc] and owner_at(result, mover, loc, nardy) == mover]
        if not mine:
            return
        src = self.rng.choice(mine)
        dst = self.rng.randrange(24)
        if dst == src:
            return
        self.move(src, dst)
        if self.sensed() in legal:
            self.move(dst, src)
            return
        self.refused("%s and a checker more from location %d to %d" % (text, src, dst))
        self.move(dst, src)

    def refused(self, what):
        """DONE on an illegal or incomplete play: the board must stay in the turn, nothing committed."""
        self.figures["illegal_tried"] += 1
        self.press(ROLL, self.ref.turn)
        snap = self.snapshot()
        diff = self.differences(snap, self.expected())
        if diff:
            self._problem("accept", "%s: %s; repro %s" % (what, "; ".join(diff), self.repro()))
            raise Desync("a wrong accept")

    def done(self, turn, code, text):
        ref = self.ref
        mover = ref.turn
        self.press(ROLL, mover)
        snap = self.snapshot()
        if snap["phase"] == "pick":
            self.figures["picks"] += 1
            for _ in range(snap["pick"]["count"]):
                if snap["pick"]["play"] == text:
                    break
                self.press(MENU)
                snap = self.snapshot()
            self.press(ROLL, mover)
            snap = self.snapshot()
        if snap["phase"] == "moving" and snap["record_lines"] == ref.log_count:
            self._problem("refuse", "%s refused: %r; repro %s %s" % (text, snap.get("message"), self.repro(), text))
            time.sleep(0.5)
            self.press(ROLL, mover)  # (a verdict that waited for a quiet poll would come now)
            if self.snapshot()["phase"] == "moving":
                raise Desync("a wrong refusal")
        repro = self.repro()
        ref.play_code(turn, code)
        self.figures["plays"] += 1
        self.game_turns += 1
        snap = self.settle("%s's play %s (%s)" % (_colour(mover), text, repro))
        if self.link.hello_reply.get("test_mode"):
            free = self.request("ping").get("mem_free")
            self.heap.append((self.figures["games"] + 1, self.game_turns, free))
            self.log("game %d turn %d %s %s heap %s" % (self.figures["games"] + 1, self.game_turns, _colour(mover),
                                                       text, free))

    def repro(self):
        ref = self.ref
        return "%s,%d,%d,%d" % (ref.position.position_id(), ref.turn, ref.dice[0], ref.dice[1])

    # -- power cuts -------------------------------------------------------------------------------
    def reset(self):
        """Cut the power (or hang the loop: the watchdog bites) mid-turn; the board must come back where the
        last save left it, and sense the hands' checkers again."""
        how = "watchdog" if self.watchdog and self.figures["resets"] % 2 == 0 else "power"  # (they alternate)
        self.request("reset", how=how)
        self.figures["resets"] += 1
        if self.serial:
            time.sleep(12.0 if how == "watchdog" else 1.0)
            deadline = time.monotonic() + 120
            while True:
                try:
                    hello = self.link.reopen(timeout=5.0)
                    break
                except (LinkError, OSError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(1.0)
            if not hello.get("test_mode"):
                raise LinkError("the board came back without test mode")
        self.error_seen = None
        self.settle("the %s reset" % how)
        self.reinject()

    # -- a match ----------------------------------------------------------------------------------------
    def play_match(self, variant, options, games):
        """Play one match (money play: until ``games`` games) with ``options``; returns the games finished."""
        self.variant = variant
        self.options = make_options(options, variant)
        self.request("new_game", variant=variant, options=options)
        self.keep_lying()
        self.ref = Referee(self.options, ("white", "black"), None, variant, [])
        self.declined = False
        finished = 0
        self.log("match: %s %s" % (variant, options or "(defaults)"))
        self.start_game()
        while finished < games:
            ref = self.ref
            phase = ref.phase
            if phase == OPENING:
                self.roll(0, opening=True)
            elif phase == CUBE_OR_ROLL:
                r = self.rng.random()
                if r < self.resign_rate and self.game_turns > 2:
                    self.resign(ref.turn)
                elif ref.may_double() and r < self.double_rate:
                    self.press(DOUBLE, ref.turn)
                    ref.double()
                    self.figures["doubles"] += 1
                    self.settle("%s's double" % _colour(ref.turn))
                else:
                    self.roll(ref.turn)
            elif phase == ANSWER:
                self.cube_answer()
            elif phase == PLAY:
                self.play_turn()
            else:
                finished += 1
                self.figures["games"] += 1
                result = ref.result
                self.log("game over: %s wins %d (score %d-%d)" % (_colour(result.winner), result.points,
                                                                 ref.match.score[0], ref.match.score[1]))
                if phase == MATCH_ENDED or finished >= games:
                    break
                self.press(ROLL, ref.turn)
                starter = result.winner if ref.nardy and self.options["lnWinnerStarts"] else None
                self.start_game(starter)
        return finished


def _colour(player):
    return "white" if player == 0 else "black"


def emulator_buttons(path, hold_s=0.3):
    """A ``roll_button`` for the emulated Pico (``PICO_BUTTONS`` file, /tmp/rp2emu/README.md): the side's
    physical roll button pressed and released, as a hand does (the protocol's own presses reach the roll
    through a deeper path: docs/protocol.md)."""
    import json

    def press(player):
        for pressed in ([ROLL + SIDE * player], []):
            with open(path + ".tmp", "w") as f:
                json.dump(pressed, f)
            os.replace(path + ".tmp", path)
            time.sleep(hold_s)
    return press


def play_games(link, games, seed=1, options=None, log=print, resets=0, watchdog=False, variant="backgammon",
               **rates):
    """Play ``games`` whole games on the board behind ``link`` (test mode); returns the figures (a dict).

    ``options`` None: the menu's option sets in turn (``OPTION_SETS``), each as a match; else every match
    with these options (of ``variant``). ``resets``: about that many power cuts (``watchdog``: every other one a hung
    loop the watchdog restarts) in the middle of turns, spread over the games.
    """
    rng = random.Random(seed)
    sets = OPTION_SETS if options is None else ((variant, options),)
    player = TablePlayer(link, rng, log, watchdog=watchdog, **rates)
    player.reset_rate = min(1.0, resets / (games * 25.0)) if resets else 0.0
    started = time.monotonic()
    player.reinject()  # the hands start from an empty board: whatever the board sensed before is taken off
    n = 0
    while player.figures["games"] < games:
        var, opts = sets[n % len(sets)]
        n += 1
        left = games - player.figures["games"]
        try:
            player.play_match(var, dict(opts), min(left, 1 if not opts.get("matchLength") else 3))
        except Desync as exc:
            log("the match is abandoned after a desync (%s): a new match starts" % exc)
            player.figures["games"] += 1  # the game was played as far as the board allowed
        if resets and player.figures["resets"] == 0 and player.figures["games"] >= games:
            break
    out = dict(player.figures)
    free = [h[2] for h in player.heap if h[2] is not None]
    out["heap_min"] = min(free) if free else None
    out["heap_max"] = max(free) if free else None
    out["heap"] = player.heap
    out["problems"] = player.problems
    out["seconds"] = round(time.monotonic() - started, 1)
    return out


def summary(figures):
    """One line of the figures a maker reads."""
    return ("%(games)d games, %(plays)d plays, %(faults)d faults, %(internal)d internal errors, %(desyncs)d desyncs, "
            "%(wrong_accepts)d wrong accepts, %(wrong_refusals)d wrong refusals (%(illegal_tried)d illegal plays "
            "tried), %(resets)d resets; cube: %(doubles)d doubles, %(takes)d takes, %(drops)d drops, %(beavers)d "
            "beavers, %(raccoons)d raccoons; %(resigns)d resignations (%(declined)d declined); free heap after a "
            "turn: lowest %(heap_min)s, highest %(heap_max)s; %(seconds)s s" % figures)


def main(argv=None):
    import argparse

    from pipboard.link import Link

    parser = argparse.ArgumentParser(prog="python -m pipboard.tableplayer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", default="sim", help="the board: a serial port, or sim[:PORT] (default sim)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resets", type=int, default=0, help="power cuts in the middle of turns (about)")
    parser.add_argument("--watchdog", action="store_true",
                        help="every other reset hangs the loop: the watchdog bites")
    parser.add_argument("--roll-buttons", metavar="FILE",
                        help="roll with the emulated Pico's physical button (its PICO_BUTTONS file)")
    parser.add_argument("--quiet", action="store_true", help="only the problems and the figures")
    parser.add_argument("--commands", action="store_true", help="every protocol command instead (pipboard.commandtable)")
    args = parser.parse_args(argv)
    try:
        return _run(args, Link)
    except (LinkError, OSError) as exc:  # no board, a board that went away: said in a line, no traceback
        print("tableplayer: %s" % exc, file=sys.stderr)
        return 2


def _run(args, Link):
    with Link.open(args.port, timeout=10.0) as link:
        if not link.hello_reply.get("test_mode"):
            print("the board on %s is not in test mode (pipboard deploy --test, pipboard sim --test)" % args.port)
            return 2
        if args.commands:
            from pipboard.commandtable import run_table

            rows = run_table(link, log=print)
            return 0 if all(row[2].startswith("ok") for row in rows) else 1
        log = (lambda text: text.startswith(("INTERNAL", "DESYNC", "ACCEPT", "REFUSE")) and print(text)) \
            if args.quiet else print
        hook = emulator_buttons(args.roll_buttons) if args.roll_buttons else None
        figures = play_games(link, args.games, args.seed, log=log, resets=args.resets, watchdog=args.watchdog,
                             roll_button=hook)
    print(summary(figures))
    bad = figures["internal"] + figures["faults"] + figures["desyncs"] + figures["wrong_accepts"] + \
        figures["wrong_refusals"]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
