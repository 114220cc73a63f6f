"""``pipboard play --engine gnubg``: a person against GNU Backgammon on the board.

The engine is GNU Backgammon's evaluator through its Python bindings (PyPI
``gnubg``): ``findbestmove`` for checker play (0-ply neural net, the same
net the gnubg program uses) and its win/gammon probabilities for cube
decisions. Positions go to gnubg as Position IDs, so nothing is translated
by hand.

The engine never touches the checkers. Over the protocol it asks the board
to roll its own dice (``roll``), shows its play on the LEDs (``show_play``:
the board lights from and to points and accepts only that play being
executed), and gives its cube decisions (``show_cube``). The person moves
the engine's checkers as the LEDs show and presses DONE; the board waits.

Cube decisions are gnubg's own cubeful analysis: the Debian ``gnubg``
program runs in the background (``gnubg -t``) and is asked for its proper
cube action (``hint``) with the board's Match ID and Position ID. Without the
program, the evaluator's win and gammon chances are held against the usual
money-play thresholds instead (a sound opponent, not a cubeful analysis).

Resignations (docs/controller.md): when the person offers one at the table
(a long DROP), gnubg accepts or declines it by its own evaluation (the
program's ``hint`` on the offer: "Correct resign decision"); before its own
roll in a race it resigns itself when gnubg would (the program's own turn,
``play``: "offers to resign"), and the person answers with TAKE or DROP.
Without the program, the evaluator's chances decide both the same way
gnubg's rule does (a resignation costing nothing against playing on).
"""

import sys
import time

from pipboard.link import CommandError, Link, LinkError

WHITE, BLACK = 0, 1
SIDE_NAMES = {"white": WHITE, "black": BLACK}


class EngineError(Exception):
    """The engine cannot be used (bindings missing, evaluation failed)."""


class GnubgEngine:
    """GNU Backgammon's evaluator: best plays and cube decisions from Position IDs."""

    def __init__(self, plies=0):
        try:
            import gnubg
        except ImportError as exc:
            raise EngineError("the gnubg Python bindings are not installed (pip install gnubg; make setup does it)"
                              " : %s" % exc)
        self.gnubg = gnubg
        self.context = gnubg.evalcontext(1, plies, 1, 0, 0.0)

    def _cube(self, cube=1, owner=-1, match_length=0, score=(0, 0), crawford=False):
        return self.gnubg.cubeinfo(cube, owner, 0, match_length, tuple(score), int(bool(crawford)))

    def best_play(self, position_id, dice, **cube):
        """The best play (gnubg notation, the mover's numbering) for the player on roll; "" if none.

        gnubg's ``findbestmove`` picks the play. Its move tuple drops a
        trailing bear-off and its text abbreviates chains, so the choice is
        matched to our own list of legal plays by the resulting position; if
        that fails, every legal play is scored with gnubg's evaluator (what
        0-ply move choice does) and the best is taken.
        """
        from pipcore.position import Position
        from pipcore.rules import Turn

        pos = Position.from_id(position_id)
        turn = Turn(pos, tuple(dice))
        if not turn.plays:
            return ""
        if len(turn.plays) == 1:
            return turn.notation(turn.plays[0])
        board = self.gnubg.positionfromid(position_id)
        ci = self._cube(**cube)
        move = self.gnubg.findbestmove(board, ci, self.context, tuple(dice))
        code = self._match(turn, pos, move)
        if code is None:
            code = self._best_by_evaluation(turn, ci)
        return turn.notation(code)

    def _match(self, turn, pos, move):
        """The code of the legal play gnubg's move tuple describes, or None."""
        from pipcore.rules import apply_move

        if not move:
            return None
        tup = list(move)
        if len(tup) % 2:
            tup.append(0)  # a trailing bear-off loses its "to" in the tuple
        trial = pos.copy()
        try:
            for i in range(0, len(tup), 2):
                apply_move(trial, tup[i], tup[i + 1])
        except (IndexError, ValueError):
            return None
        return turn.result_for(trial)

    def _best_by_evaluation(self, turn, ci):
        best, best_equity = None, None
        for code in turn.plays:
            after = turn.result(code)
            if after.me[0] == 15:
                return code  # the play that wins the game
            ev = self.gnubg.evaluate(self.gnubg.positionfromid(after.swapped().position_id()), ci, self.context)
            equity = -((2 * ev[0] - 1) + (ev[1] - ev[3]) + (ev[2] - ev[4]))
            if best_equity is None or equity > best_equity:
                best, best_equity = code, equity
        return best

    def probabilities(self, position_id, **cube):
        """(win, win gammon, win backgammon, lose gammon, lose backgammon) for the player on roll."""
        board = self.gnubg.positionfromid(position_id)
        return tuple(self.gnubg.evaluate(board, self._cube(**cube), self.context)[:5])

    def _points(self, position_id):
        """Cubeless equity (points per unit cube) and the gammon rates."""
        win, wg, wbg, lg, lbg = self.probabilities(position_id)
        equity = (2 * win - 1) + (wg - lg) + (wbg - lbg)
        return win, equity, wg, lg

    def should_double(self, position_id):
        """True when the player on roll (before rolling) should offer the cube."""
        win, equity, wg, lg = self._points(position_id)
        if win > 0.5 and self.should_drop(position_id) and wg > 0.25:
            return False  # too good: play on for the gammon
        return equity >= 0.40 and win >= 0.66

    def should_drop(self, position_id):
        """True when the opponent of the player on roll should pass a double now."""
        win, equity, wg, lg = self._points(position_id)
        return equity > 0.52 or win > 0.78


GNUBG_PROGRAM = "/usr/games/gnubg"
_CUBE_RE = None
LEVEL_NAMES = ("single", "gammon", "backgammon")
_RESIGN_WORDS = ("normal", "gammon", "backgammon")  # gnubg's resign command
_OFFERS_RE = None


def resign_level_for(probabilities, max_cost=0.05, max_gain=1e-6):
    """The level a side with these chances (win, win g, win bg, lose g, lose bg) resigns at, or 0: the
    one whose points equal what playing on is worth (gnubg's rule: it costs less than ``max_cost`` and
    gains less than ``max_gain``), and only with no chance to win."""
    win, wg, wbg, lg, lbg = probabilities
    if win > max_gain:
        return 0
    equity = (2 * win - 1) + (wg - lg) + (wbg - lbg)
    for level in (1, 2, 3):
        if equity + level < max_cost and -level - equity < max_gain:
            return level
    return 0


def no_contact(position_id):
    """True when no checker can meet one of the other side's any more (a race: gnubg resigns only then)."""
    from pipcore.position import Position

    pos = Position.from_id(position_id)
    mine = max([p for p in range(1, 26) if pos.me[p]] or [0])
    theirs = max([p for p in range(1, 26) if pos.opp[p]] or [0])
    return mine + theirs <= 25


class GnubgCubeAdvisor:
    """Full cubeful cube decisions from the gnubg program (``gnubg -t``), kept running between questions.

    Each question sets the Match ID and the Position ID and asks ``hint``;
    gnubg answers with its proper cube action, e.g. ``Double, take``,
    ``No double, beaver`` or ``Too good to double, pass``.
    """

    def __init__(self, program=GNUBG_PROGRAM, timeout=60.0):
        import subprocess

        self.timeout = timeout
        self.pending = b""
        self.questions = 0
        try:
            self.proc = subprocess.Popen([program, "-t", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, bufsize=0)
        except OSError as exc:
            raise EngineError("cannot start %s: %s" % (program, exc))
        self._ask(["set player 0 human", "set player 1 human", "new game"])

    def _ask(self, commands):
        """Send commands; return gnubg's output lines up to the sentinel (read unbuffered, with a timeout)."""
        import os
        import select

        text = "".join(c + "\n" for c in commands) + '>print("###PIPBOARD")\n'
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"###PIPBOARD\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise EngineError("gnubg did not answer within %.0f s" % self.timeout)
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EngineError("gnubg stopped: %s" % self.pending[-300:].decode("utf-8", "replace"))
            self.pending += chunk
        head, _, self.pending = self.pending.partition(b"###PIPBOARD\n")
        return head.decode("utf-8", "replace").splitlines()

    def cube_action(self, position_id, match_id):
        """gnubg's proper cube action for the player on roll: ``(doubles, response)``.

        ``response`` is the opponent's proper answer to a double now: ``take``,
        ``drop`` or ``beaver``.
        """
        from pipcore.matchid import MatchState

        self.questions += 1
        state = MatchState.from_id(match_id)
        state.doubled = False
        state.turn = state.on_roll
        state.dice = (0, 0)
        lines = self._ask(["set matchid %s" % state.encode(), "set board %s" % position_id, "hint"])
        for line in lines:
            if line.startswith("Proper cube action:"):
                text = line.split(":", 1)[1].strip().lower()
                first, _, second = text.partition(",")
                doubles = first.strip() in ("double", "redouble")
                second = second.strip()
                response = "beaver" if second.startswith("beaver") else ("drop" if second.startswith("pass") else
                                                                          "take")
                return doubles, response
        raise EngineError("gnubg gave no cube action for %s %s: %s" % (position_id, match_id, "".join(lines[-8:])))

    def _state(self, match_id, turn):
        from pipcore.matchid import MatchState

        state = MatchState.from_id(match_id)
        state.doubled = False  # (a side facing a double resigns at the cube's value: the offer is gone)
        state.resigned = 0
        state.turn = turn
        state.dice = (0, 0)
        return state.encode()

    def resign_answer(self, position_id, match_id, resigner, level):
        """gnubg's answer to ``resigner`` (0/1) offering ``level`` (1..3) in this position (seen from the
        player on roll, as the snapshot gives it): True to accept ("Correct resign decision : Accept")."""
        self.questions += 1
        lines = self._ask(["set matchid %s" % self._state(match_id, resigner), "set board %s" % position_id,
                           "resign %s" % _RESIGN_WORDS[level - 1], "hint"])
        for line in lines:
            if line.startswith("Correct resign decision"):
                return "accept" in line.lower()
        raise EngineError("gnubg gave no resign decision for %s %s: %s" % (position_id, match_id,
                                                                           "".join(lines[-8:])))

    def resign_offer(self, position_id, match_id):
        """The level gnubg resigns at as the player on roll, before its roll (0: it plays on): its own turn
        is taken (``play``) and what it says is read; the session's position is set afresh every time."""
        import re

        from pipcore.matchid import MatchState

        self.questions += 1
        side = MatchState.from_id(match_id).on_roll
        lines = self._ask(["set matchid %s" % self._state(match_id, side), "set board %s" % position_id,
                           "set player %d gnubg" % side, "play", "set player %d human" % side])
        for line in lines:
            m = re.search(r"offers to resign an? (single game|gammon|backgammon)", line)
            if m:
                return {"single game": 1, "gammon": 2, "backgammon": 3}[m.group(1)]
        return 0

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(5)
        except Exception:
            self.proc.kill()


class Seat:
    """Whose turn it is and what the engine must do, read from a snapshot."""

    def __init__(self, engine_side):
        self.engine_side = engine_side

    def action(self, snap):
        """What the engine must do now: 'roll', 'double', 'play', 'answer', 'next', or None (waiting)."""
        phase = snap.get("phase")
        mover = snap.get("mover")
        if phase == "turn-start" and mover == self.engine_side:
            return "turn"
        if phase in ("moving", "pick") and mover == self.engine_side:
            return "play"
        if phase == "cube-offered":
            cube = snap.get("cube") or {}
            by, stage = cube.get("offered_by", 1 - self.engine_side), cube.get("stage", 1)
            answering = by if stage == 2 else 1 - by  # a beaver goes back to the doubler
            if by not in (0, 1):
                answering = 1 - mover
            if answering == self.engine_side:
                return "answer_beaver" if stage == 2 else "answer"
        if phase == "opening":
            return "opening"
        return None


def cube_args(snap):
    cube = snap.get("cube") or {}
    return {"cube": cube.get("value", 1), "owner": cube.get("owner", -1),
            "match_length": snap.get("match_length", 0), "score": tuple(snap.get("score", (0, 0)))}


def swap_position_id(position_id):
    from pipcore.position import Position

    return Position.from_id(position_id).swapped().position_id()


class EngineGame:
    """Drives the engine's side of games on a board reached through ``link``."""

    def __init__(self, link, engine=None, engine_side=BLACK, out=sys.stdout, may_double=True, cube_advisor=None):
        self.link = link
        self.engine = engine or GnubgEngine()
        self.cube_advisor = cube_advisor  # GnubgCubeAdvisor, or None for the engine's own thresholds
        self.seat = Seat(engine_side)
        self.engine_side = engine_side
        self.out = out
        self.may_double = may_double
        self.shown = None  # (position_id, dice) of the play on the LEDs
        self.games = 0
        self.results = []
        self.plays = 0
        self.cube_actions = 0
        self.resignations = 0  # offers made and answered by gnubg
        self._offered = None  # (game, position) of gnubg's offer declined this turn: not made twice

    def say(self, text):
        if self.out is not None:
            self.out.write(text + "\n")
            self.out.flush()

    def step(self, snap):
        """Do what the engine must do in this snapshot; returns True if it acted."""
        offer = snap.get("resign")
        if offer:
            if offer.get("player") == self.engine_side:
                return False  # gnubg's own offer waits for the person's TAKE or DROP
            accept = self._accepts(snap, offer["player"], offer["level"])
            self.say("gnubg %s your resignation of a %s" % ("accepts" if accept else "declines",
                                                          LEVEL_NAMES[offer["level"] - 1]))
            self.resignations += 1
            self.link.resign(self.engine_side, action="accept" if accept else "decline")
            return True
        if snap.get("keyed"):
            return False  # physical dice: the person keys in the roll (gnubg's too), the board waits for it
        what = self.seat.action(snap)
        if what == "turn" and self._resigns(snap):
            return True
        if what == "turn":
            self._offered = None  # (declined: this turn goes on; the next may see another offer)
            if self.may_double and self._can_double(snap) and self._doubles(snap):
                self.say("gnubg doubles")
                self.cube_actions += 1
                self.link.show_cube("double")
            else:
                self.link.roll()
                if (snap.get("options") or {}).get("dice") == "physical":
                    self.say("roll the dice for gnubg and key them in (DOUBLE die A, TAKE die B, ROLL)")
            return True
        if what == "answer":
            # the doubler is on roll: its position is the snapshot's
            answer = self._answer(snap)
            self.say("gnubg %s" % {"drop": "drops", "take": "takes", "beaver": "beavers"}[answer])
            self.cube_actions += 1
            self.link.show_cube(answer)
            return True
        if what == "answer_beaver":
            self.say("gnubg accepts the beaver")  # it doubled: the beavered cube is still worth playing
            self.cube_actions += 1
            self.link.show_cube("take")
            return True
        if what == "play":
            key = (snap["position_id"], tuple(snap.get("dice") or ()))
            if self.shown == key:
                return False  # already on the LEDs: waiting for the person to execute it
            play = self.engine.best_play(snap["position_id"], snap["dice"], **cube_args(snap))
            self.shown = key
            self.plays += 1
            if not play:
                play = "-"  # no legal move: shown as such; the person presses DONE
            self.say("gnubg plays %d%d: %s  (move the checkers as the LEDs show, then press DONE)"
                     % (snap["dice"][0], snap["dice"][1], play))
            try:
                self.link.show_play(play)
            except CommandError as exc:
                raise EngineError("the board refused gnubg's play %s in %s with %r: %s"
                                  % (play, snap["position_id"], snap["dice"], exc.message))
            return True
        return False

    def _accepts(self, snap, resigner, level):
        """Does gnubg accept ``resigner``'s offer of ``level``?"""
        if self.cube_advisor is not None and snap.get("match_id"):
            return self.cube_advisor.resign_answer(snap["position_id"], snap["match_id"], resigner, level)
        pid = snap["position_id"] if resigner == snap.get("mover") else swap_position_id(snap["position_id"])
        win, wg, wbg, lg, lbg = self.engine.probabilities(pid)
        equity = (2 * win - 1) + (wg - lg) + (wbg - lbg)  # the resigner's, per unit of the cube
        return level >= -equity - 1e-6  # the points offered are at least what playing on is worth

    def _resigns(self, snap):
        """Before its roll in a race, gnubg resigns where it would (the person answers at the table)."""
        key = (snap.get("game"), snap["position_id"])
        if self._offered == key or not no_contact(snap["position_id"]):
            return False
        if self.cube_advisor is not None and snap.get("match_id"):
            level = self.cube_advisor.resign_offer(snap["position_id"], snap["match_id"])
        else:
            level = resign_level_for(self.engine.probabilities(snap["position_id"]))
        if not level:
            return False
        self._offered = key
        self.resignations += 1
        self.say("gnubg offers to resign a %s: press TAKE to accept, DROP to decline" % LEVEL_NAMES[level - 1])
        try:
            self.link.resign(self.engine_side, level)
        except CommandError as exc:  # (a gammon that counts single at this cube: the single, then)
            if level == 1:
                raise EngineError("the board refused gnubg's resignation: %s" % exc.message)
            self.link.resign(self.engine_side, 1)
        return True

    def _doubles(self, snap):
        if self.cube_advisor is not None and snap.get("match_id"):
            return self.cube_advisor.cube_action(snap["position_id"], snap["match_id"])[0]
        return self.engine.should_double(snap["position_id"])

    def _answer(self, snap):
        """``take``, ``drop`` or ``beaver`` to the double now offered."""
        options = snap.get("options") or {}
        if self.cube_advisor is not None and snap.get("match_id"):
            response = self.cube_advisor.cube_action(snap["position_id"], snap["match_id"])[1]
        else:
            response = "drop" if self.engine.should_drop(snap["position_id"]) else "take"
        if response == "beaver" and not options.get("beavers"):
            response = "take"
        return response

    def _can_double(self, snap):
        cube = snap.get("cube") or {}
        options = snap.get("options") or {}
        if not options.get("cubeEnabled", True):
            return False
        return cube.get("owner", -1) in (-1, self.engine_side)

    def run(self, games=1, stop=None, poll_s=0.1):
        """Play until ``games`` games have ended; returns the list of results."""
        self.say("You play %s, gnubg plays %s." % (
            "white" if self.engine_side == BLACK else "black", "black" if self.engine_side == BLACK else "white"))
        last_game = None
        snap = self.link.snapshot()
        while stop is None or not stop():
            if snap.get("phase") in ("game-over", "match-over"):
                game = snap.get("game")
                if game != last_game:
                    last_game = game
                    self.games += 1
                    self.results.append(snap.get("result"))
                    self.say("game over: %s" % (snap.get("result"),))
                    if self.games >= games:
                        return self.results
            acted = self.step(snap)
            if not acted:
                self.link.next_event(poll_s)
            snap = self.link.snapshot()
        return self.results


def run(target, side="black", games=1, out=sys.stdout):
    try:
        engine = GnubgEngine()
    except EngineError as exc:
        sys.stderr.write("pipboard play: %s\n" % exc)
        return 1
    advisor = None
    try:
        advisor = GnubgCubeAdvisor()
    except EngineError as exc:
        sys.stderr.write("pipboard play: %s; cube decisions from the evaluator's thresholds instead\n" % exc)
    while True:
        try:
            with Link.open(target) as link:
                EngineGame(link, engine, SIDE_NAMES[side], out, cube_advisor=advisor).run(games)
                if advisor is not None:
                    advisor.close()
                return 0
        except EngineError as exc:
            sys.stderr.write("pipboard play: %s\n" % exc)
            return 1
        except LinkError as exc:
            sys.stderr.write("pipboard play: %s; retrying in 2 s (Ctrl-C stops)\n" % exc)
            time.sleep(2)
        except KeyboardInterrupt:
            return 0
