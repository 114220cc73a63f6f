"""``pipboard coach``: GNU Backgammon judges every play and cube decision made on the board.

The coach watches a board (or the simulator) over the protocol and never
touches the game. After each committed play and cube decision it asks gnubg
(the Debian program, ``gnubg -t``, kept running) for its analysis and
answers with what gnubg says:

* the line on the console (and, through the board's ``coach`` event, in
  ``pipboard monitor``): the play, gnubg's rating of the error (doubtful,
  bad, very bad: gnubg's own thresholds, read from ``show analysis``), the
  equity lost and gnubg's best play or proper cube action;
* on the board (protocol command ``coach``): the better play lit in the
  coach's violet and the size of the error on the panel's dice (docs/coach.md).

What happened is read from the board's match record (``record``), replayed
through the rules, so no action is missed or judged twice, whatever the
timing: the coach may be slow (2-ply) or attach in the middle of a match.

Chequer plays are gnubg's own move analysis (``analyse move`` on the play
entered into gnubg, rating included). Cube decisions are rated from gnubg's
cubeful equities (``hint``: no double, double/take, double/pass) the way
gnubg's analysis rates them (analysis.c): a double loses min(DT, DP) minus
the best, a missed double ND minus the best, a wrong take DT - DP, a wrong
pass DP - DT, measured against the same thresholds. Beavers and raccoons are
not rated (gnubg does not analyse them either).

At the end of a match the whole match goes to gnubg as .mat (``import mat``,
``analyse match``, ``show statistics match``) and its statistics are shown:
error rates, ratings and luck, as gnubg reports them.
"""

import json
import os
import re
import sys
import tempfile
import time

from pipboard.engine import GNUBG_PROGRAM, EngineError, GnubgCubeAdvisor
from pipboard.link import CommandError, Link, LinkError

RATINGS = ("none", "doubtful", "bad", "very bad")
NAMES = ("white", "black")
_SENTINEL = "###COACH "
_EQUITY_LINE = re.compile(r"^\s*\d\.\s+(.*?)\s+([+-]?\d+\.\d+)")
_THRESHOLD_LINE = re.compile(r"^\s*([+-]?\d+\.\d+)\s+(very bad|bad|doubtful)\s*$")


class CoachError(Exception):
    """gnubg could not analyse what the board did (the message says what)."""


class Verdict:
    """gnubg's word on one decision of ``player``.

    ``kind`` is ``play``, ``double``, ``no double``, ``take`` or ``drop``;
    ``loss`` the equity lost (>= 0, gnubg's normalised equity, EMG in a
    match); ``rating`` one of RATINGS; ``best`` gnubg's play (notation, the
    player's numbering) or its proper cube action; ``played`` the play made.
    """

    def __init__(self, player, kind, rating, loss, best, played="", dice=None):
        self.player = player
        self.kind = kind
        self.rating = rating
        self.loss = loss
        self.best = best
        self.played = played
        self.dice = dice

    @property
    def error(self):
        return self.rating != "none"

    def line(self):
        who = NAMES[self.player]
        if self.kind == "play":
            head = "%s %d%d: %s" % (who, self.dice[0], self.dice[1], self.played or "-")
            if not self.error and self.loss < 0.0005:
                return head + "  -- gnubg's best play"
            return "%s  -- %s (-%.3f); gnubg plays %s" % (head, self.rating if self.error else "fine", self.loss,
                                                          self.best)
        action = {"double": "doubles", "no double": "rolls without doubling", "take": "takes",
                  "drop": "drops"}[self.kind]
        if not self.error:
            return "%s %s  -- right (gnubg: %s)" % (who, action, self.best)
        return "%s %s  -- %s (-%.3f); gnubg: %s" % (who, action, self.rating, self.loss, self.best)

    def __repr__(self):
        return "Verdict(%r, %r, %r, %.3f, %r, %r, %r)" % (self.player, self.kind, self.rating, self.loss, self.best,
                                                         self.played, self.dice)


def skill(error, thresholds):
    """gnubg's ``Skill()``: the rating of a (negative) equity difference, with ``thresholds``
    ``{"doubtful": 0.03, "bad": 0.06, "very bad": 0.12}``."""
    for name in ("very bad", "bad", "doubtful"):
        if error < -thresholds[name]:
            return name
    return "none"


def cube_errors(nd, dt, dp):
    """gnubg's cube analysis from the doubler's cubeful equities (no double, double/take, double/pass):
    the error (<= 0) of each decision, as analysis.c computes it."""
    best_double = min(dt, dp)
    optimal = max(best_double, nd)
    return {
        "no double": nd - optimal,
        "double": best_double - optimal,
        "take": min(0.0, dp - dt),
        "drop": min(0.0, dt - dp),
    }


def _moves_text(singles):
    label = {25: "bar", 0: "off"}
    return " ".join("%s/%s" % (label.get(s, s), label.get(t, t)) for s, t in singles)


class GnubgAnalyst(GnubgCubeAdvisor):
    """gnubg -t kept running, set to analyse at ``plies`` (0..2), one decision at a time."""

    def __init__(self, plies=0, program=GNUBG_PROGRAM, timeout=120.0):
        if plies not in (0, 1, 2):
            raise EngineError("the coach's strength is 0, 1 or 2 plies, not %r" % (plies,))
        super().__init__(program, timeout)
        self.plies = plies
        lines = self._ask([
            "set auto roll off", "set confirm new off", "set output mwc off",
            "set analysis chequerplay evaluation plies %d" % plies,
            "set analysis cubedecision evaluation plies %d" % plies,
            "set evaluation chequerplay evaluation plies %d" % plies,
            "set evaluation cubedecision evaluation plies %d" % plies,
            "show analysis"])
        self.thresholds = {}
        for line in lines:
            m = _THRESHOLD_LINE.match(line)
            if m:
                self.thresholds[m.group(2)] = abs(float(m.group(1)))
        if len(self.thresholds) != 3:
            raise EngineError("gnubg did not tell its analysis thresholds: %s" % " | ".join(lines[-12:]))

    def _python(self, commands, expression):
        """Run gnubg commands, then print ``expression`` (gnubg's embedded Python) as JSON."""
        lines = self._ask(list(commands) + [
            ">import gnubg, json; print(%r + json.dumps(%s))" % (_SENTINEL, expression)])
        for line in lines:
            if line.startswith(_SENTINEL):
                return json.loads(line[len(_SENTINEL):]), lines
        raise CoachError("gnubg did not answer: %s" % " | ".join(lines[-6:]))

    def play(self, position_id, match_id, singles):
        """gnubg's analysis of the play ``singles`` (single moves ``(from, to)``) made from
        ``position_id`` with the dice of ``match_id``: ``(rating, loss, best move tuple, played tuple)``."""
        record, lines = self._python(
            ["set matchid %s" % match_id, "set board %s" % position_id, _moves_text(singles), "previous",
             "analyse move"],
            "[x for x in gnubg.match(analysis=1)['games'][-1]['game'] if x.get('action') == 'move'][-1:]")
        if not record or "analysis" not in record[0]:
            raise CoachError("gnubg did not analyse %s in %s %s: %s" % (
                _moves_text(singles), position_id, match_id, " | ".join(lines[-6:])))
        analysis = record[0]["analysis"]
        moves = analysis.get("moves") or []
        index = analysis.get("imove", -1)
        if not moves or not 0 <= index < len(moves):
            raise CoachError("gnubg's analysis has no move list for %s" % _moves_text(singles))
        loss = max(0.0, moves[0]["score"] - moves[index]["score"])
        rating = analysis.get("skill") or "none"
        if rating not in RATINGS:
            rating = "none"
        return rating, loss, moves[0]["move"], moves[index]["move"]

    def cube(self, position_id, match_id):
        """gnubg's cubeful equities for the player on roll: ``(no double, double/take, double/pass, proper action)``."""
        from pipcore.matchid import MatchState

        state = MatchState.from_id(match_id)
        state.doubled = False
        state.turn = state.on_roll
        state.dice = (0, 0)
        lines = self._ask(["set matchid %s" % state.encode(), "set board %s" % position_id, "hint"])
        nd = dt = dp = None
        proper = None
        for line in lines:
            if line.startswith("Proper cube action:"):
                proper = line.split(":", 1)[1].strip()
                continue
            m = _EQUITY_LINE.match(line)
            if not m:
                continue
            label, value = m.group(1).lower(), float(m.group(2))
            if label.startswith("no "):
                nd = value
            elif "pass" in label:
                dp = value
            elif "take" in label or "beaver" in label:
                dt = value
        if None in (nd, dt, dp) or proper is None:
            raise CoachError("gnubg gave no cube analysis for %s %s" % (position_id, match_id))
        return nd, dt, dp, proper

    def statistics(self, mat_path):
        """gnubg's ``show statistics match`` after ``analyse match`` of a .mat file: its lines."""
        lines = self._ask(["import mat %s" % mat_path, "analyse match", "show statistics match"])
        for i, line in enumerate(lines):
            if line.startswith("Player "):
                return [x.rstrip() for x in lines[i:] if x.strip()]
        raise CoachError("gnubg gave no statistics: %s" % " | ".join(lines[-6:]))


_STAT_VALUE = re.compile(r"[+-]?\d[\d.,]*%?(?:\s*\(\s*[+-]?\d[\d.]*%?\))?")


def statistics_rows(statistics):
    """gnubg's statistics table by row: ``(names, {(section, label): [white's value, black's value]})``.

    A row is its label (up to the first gap of two spaces or more, units included:
    ``Error rate mEMG (MWC)`` in a match, ``Error rate mEMG (Points)`` in money
    play) and one value per player: a figure with its bracketed second form
    (``-209.9   ( -4.198%)``), or a word (``World class``, ``Bad dice, man!``).
    """
    names = None
    rows = {}
    section = ""
    for line in statistics:
        text = line.strip()
        if line.startswith("Player "):
            names = [x for x in re.split(r"\s{2,}", text[len("Player"):].strip()) if x]
            continue
        parts = re.split(r"\s{2,}", text, maxsplit=1)
        if len(parts) < 2:
            section = text  # a section's title: ``Overall statistics``
            continue
        label, rest = parts
        # words (ratings, n/a) are split at the gaps; figures one by one (a figure's bracket has gaps too)
        values = re.split(r"\s{2,}", rest) if rest[0].isalpha() else _STAT_VALUE.findall(rest)
        rows[(section, label)] = [re.sub(r"\s+", " ", v).strip() for v in values]
    return names, rows


def _row(rows, section, label):
    """The values of the row of ``section`` whose label starts with ``label`` (its unit varies)."""
    for (where, name), values in rows.items():
        if where == section and (name == label or name.startswith(label + " ")):
            return values
    return []


def summary_lines(statistics):
    """The match summary from gnubg's statistics table: overall error rate and rating, luck, per player."""
    names, rows = statistics_rows(statistics)
    picked = {"error": _row(rows, "Overall statistics", "Error rate mEMG"),
              "rating": _row(rows, "Overall statistics", "Overall rating"),
              "luck": _row(rows, "Luck statistics", "Luck rate mEMG"),
              "luck_rating": _row(rows, "Luck statistics", "Luck rating")}
    if not names or not picked["error"]:
        return []
    out = []
    for i, name in enumerate(names[:2]):
        got = {}
        for key, values in picked.items():
            got[key] = values[i] if i < len(values) else "?"
        out.append("%s: error rate %s mEMG (%s), luck %s mEMG (%s)" % (
            name, got["error"].split()[0], got["rating"], got["luck"].split()[0], got["luck_rating"]))
    return out


class Coach:
    """Follows a board's match record and has gnubg judge each new decision."""

    def __init__(self, link, analyst, errors_only=False, out=sys.stdout, summary=True):
        self.link = link
        self.analyst = analyst
        self.errors_only = errors_only
        self.out = out
        self.summary = summary
        self.data = b""  # the record bytes already followed
        self.ref = None  # the referee after the entries followed
        self.done = 0  # entries followed
        self.verdicts = []
        self.unsupported = None  # why this record cannot be followed (said once)
        self.board_speaks = True  # False once a board without the coach command answered
        self.summaries = 0
        self.summarised = set()  # the ends summarised: (directory id, 0) for a match, (id, games) in money play
        self.watch_from = None  # the first directory id the coach summarises (the latest one when it attached)
        self.ended = True  # a game may have ended: read the directory
        self.attached = False  # True once the record already on the board has been followed
        self.text_ref = None  # a game from a loaded position: the referee followed from its text log
        self.text_game = None
        self.text_done = 0  # lines of that log followed
        self.again = False  # the board moved on while it was read: read again

    def say(self, text):
        if self.out is not None:
            self.out.write(text + "\n")
            self.out.flush()

    # -- following the record ------------------------------------------------------
    def sync(self, catch_up=False):
        """Read the board's record and judge what is new; returns the new verdicts.

        With ``catch_up`` what the record already holds is followed without a word
        (the coach attaching in the middle of a match).
        """
        from pipcore.match import Referee
        from pipcore.record import RecordError, read_record

        from pipboard.export import is_binary_record

        data = self.link.record()
        if not data or not is_binary_record(data):
            return self._sync_text()  # nothing played yet, or a game from a loaded position
        self.text_ref = None
        if not data.startswith(self.data) or self.ref is None:
            self._restart(b"")
        try:
            record = read_record(data)
        except RecordError as exc:
            self._unsupported("the board's record cannot be read: %s" % exc)
            return []
        if record.variant != "backgammon":
            self._unsupported("gnubg coaches backgammon only, not %s" % record.variant)
            return []
        if self.ref is None:
            self.ref = Referee(record.options, record.players)
            self.done = 0
        self.unsupported = None
        self.data = data
        entries = record.entries[self.done:]
        new, applied = self._follow(self.ref, entries, catch_up)
        self.done += applied
        if applied < len(entries):
            self._unsupported("the record does not replay (entry %d)" % self.done)
        self._speak(new)
        return new

    def _follow(self, ref, entries, catch_up=False):
        """Judge and apply ``entries`` on ``ref``; returns (verdicts, entries applied)."""
        from pipcore.record import apply_entry

        new = []
        applied = 0
        for entry in entries:
            verdict = None
            if not catch_up:
                try:
                    verdict = self.judge(ref, entry)
                except (CoachError, ValueError) as exc:
                    self.say("coach: %s" % exc)
            try:
                apply_entry(ref, entry)
            except ValueError:
                break
            applied += 1
            if verdict is not None:
                new.append(verdict)
        return new, applied

    def _sync_text(self):
        """Follow a game set up from a loaded position: the board keeps only its text log (the last lines).

        The coach anchors on a snapshot (the position, the Match ID and how many lines the log has said,
        all of one instant) and replays the lines said after it; a snapshot before and after the log
        makes sure the lines read belong to that count.
        """
        from pipcore.record import RecordError, read_record

        from pipboard.export import ExportError, text_log_to_record

        first = self.link.snapshot()
        data = self.link.record()
        snap = self.link.snapshot()
        self._restart(b"")
        if (first.get("record_lines"), first.get("game")) != (snap.get("record_lines"), snap.get("game")):
            self.again = True  # the game moved on meanwhile: read again
            return []
        if snap.get("variant") != "backgammon":
            self._unsupported("gnubg coaches backgammon only, not %s" % snap.get("variant"))
            return []
        count = snap.get("record_lines") or 0
        lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
        if self.text_ref is None or self.text_game != snap.get("game") or count < self.text_done:
            self.text_ref = self._anchor(snap)
            self.text_game = snap.get("game")
            self.text_done = count
            return []
        fresh = count - self.text_done
        if fresh <= 0:
            return []
        if fresh > len(lines):
            self.say("coach: %d lines of the board's log went by unread; following again from here" % fresh)
            self.text_ref = None
            return []
        try:
            record = read_record(text_log_to_record("\n".join(lines[-fresh:]), snap.get("options") or {}))
        except (ExportError, RecordError, ValueError) as exc:
            self.say("coach: the board's log cannot be followed (%s); following again from here" % exc)
            self.text_ref = None
            return []
        entries = [e for e in record.entries if e[0] != "game"]
        new, applied = self._follow(self.text_ref, entries)
        self.text_done = count
        if applied < len(entries):
            self.say("coach: the board's log does not replay from where the coach started; following again")
            self.text_ref = None
        self.unsupported = None
        self._speak(new)
        return new

    def _anchor(self, snap):
        """A referee in the state of ``snap`` (before a roll or while one is played), or None."""
        from pipcore.match import Referee
        from pipcore.matchid import MatchState
        from pipcore.position import Position

        if snap.get("phase") not in ("turn-start", "moving", "pick"):
            return None  # anchored at the next quiet moment
        try:
            ref = Referee(snap.get("options") or {}, ("white", "black"))
            ref.new_game()
            state = MatchState.from_id(snap["match_id"]) if snap.get("match_id") else None
            dice = tuple(snap["dice"]) if snap.get("phase") != "turn-start" and snap.get("dice") else None
            ref.load(Position.from_id(snap["position_id"]), snap.get("mover", 0), dice, state)
        except (KeyError, TypeError, ValueError) as exc:
            self.say("coach: cannot follow this game from the board's state: %s" % exc)
            return None
        return ref

    def _speak(self, new):
        for verdict in new:
            self.verdicts.append(verdict)
            if verdict.error or not self.errors_only:
                self.say(verdict.line())
        self._show(new)
        return new

    def _restart(self, data):
        self.data = data
        self.ref = None
        self.done = 0

    def _unsupported(self, why):
        self._restart(b"")
        if self.unsupported != why:
            self.unsupported = why
            self.say("coach: %s" % why)

    def judge(self, ref, entry):
        """gnubg's verdict on ``entry`` made in the state ``ref`` (before it), or None."""
        from pipcore import cube
        from pipcore.position import Position

        kind = entry[0]
        if kind == "roll":
            # the player rolled without doubling: a missed double is an error (gnubg skips the opening position)
            if not ref.may_double() or ref.position == Position.start():
                return None
            nd, dt, dp, proper = self._cube(ref)
            loss = -cube_errors(nd, dt, dp)["no double"]
            rating = skill(-loss, self.analyst.thresholds)
            return Verdict(entry[1], "no double", rating, loss, proper) if rating != "none" else None
        if kind == "play":
            return self._judge_play(ref, entry[1], entry[2])
        if kind == "cube":
            action = entry[2]
            # beavers and raccoons, and the answers to them, are not rated: gnubg does not analyse them
            if action == cube.OFFER and ref.cube.state == cube.IDLE:
                name = "double"
            elif action in (cube.TAKE, cube.DROP) and ref.cube.state == 1:
                name = "take" if action == cube.TAKE else "drop"
            else:
                return None
            nd, dt, dp, proper = self._cube(ref)
            loss = -cube_errors(nd, dt, dp)[name]
            return Verdict(entry[1], name, skill(-loss, self.analyst.thresholds), loss, proper)
        return None

    def _cube(self, ref):
        try:
            match_id = ref.match_id()
        except ValueError as exc:
            raise CoachError("gnubg cannot be given this cube (%s)" % exc)
        return self.analyst.cube(ref.position.position_id(), match_id)

    def _judge_play(self, ref, player, singles):
        from pipcore.rules import Turn, apply_move

        pos = ref.position
        dice = tuple(ref.dice)
        turn = Turn(pos, dice)
        if len(turn.plays) < 2:
            return None  # no choice: nothing to judge (gnubg leaves it unmarked)
        after = pos.copy()
        for s, t in singles:
            apply_move(after, s, t)
        code = turn.result_for(after)
        if code is None:
            raise CoachError("the record's play %s is not legal here" % _moves_text(singles))
        played = turn.notation(code)
        rating, loss, best, judged = self.analyst.play(pos.position_id(), ref.match_id(), singles)
        best_code = _code_of(turn, pos, best)
        if _code_of(turn, pos, judged) != code:
            raise CoachError("gnubg judged another play than %s" % played)
        best_text = turn.notation(best_code) if best_code is not None else _moves_text(best)
        return Verdict(player, "play", rating, loss, best_text, played, dice)

    # -- the board ------------------------------------------------------------------
    def _show(self, verdicts):
        """Light the last verdict worth showing on the board (the coach command)."""
        shown = [v for v in verdicts if v.error or not self.errors_only]
        if not shown or not self.board_speaks:
            return
        v = shown[-1]
        args = {"player": v.player, "rating": v.rating, "loss": round(v.loss * 1000), "text": v.line()[:200]}
        if v.kind == "play" and v.error and v.best:
            args["play"] = v.best
        try:
            self.link.request("coach", **args)
        except CommandError as exc:
            if exc.code == "unknown_command":
                self.board_speaks = False
                self.say("coach: this board's firmware has no coach command (update it with pipboard deploy);"
                         " the coach speaks here only")
            else:
                self.say("coach: the board refused the coach's word: %s" % exc.message)

    def match_summary(self, snapshot=None, match=None):
        """gnubg's statistics of the whole match on the board (``analyse match``; ``match``: a directory id, None
        the live match); returns the lines shown."""
        from pipboard.export import ExportError, record_to_mat

        snapshot = snapshot or self.link.snapshot()
        data = self.link.record(None if match is None else match["id"])
        try:
            mat = record_to_mat(data, snapshot)
        except ExportError as exc:
            self.say("coach: no match summary: %s" % exc)
            return []
        fd, path = tempfile.mkstemp(suffix=".mat", prefix="pipboard-coach-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(mat)
            table = self.analyst.statistics(path)
        except (CoachError, EngineError, OSError) as exc:
            self.say("coach: no match summary: %s" % exc)
            return []
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
        lines = summary_lines(table)
        money = not (snapshot.get("match_length") if match is None else match.get("length"))
        self.say("coach: %s summary (gnubg, %d-ply)" % ("money session" if money else "match", self.analyst.plies))
        for line in table:
            self.say("  " + line)
        for line in lines:
            self.say("coach: " + line)
        if lines and self.board_speaks:
            try:
                self.link.request("coach", player=0, rating="none", text=("summary: " + "; ".join(lines))[:200])
            except CommandError:
                pass
        self.summaries += 1
        return lines

    def run(self, stop=None, poll_s=0.2):
        """Coach until ``stop()`` is true; the link is the caller's (after a reconnect, set ``link`` and run
        again: what was played meanwhile is judged then)."""
        if not self.attached:
            self.say("coach: gnubg %d-ply, %s (thresholds: doubtful %.3f, bad %.3f, very bad %.3f)" % (
                self.analyst.plies, "speaks after errors only" if self.errors_only else "speaks after every play",
                self.analyst.thresholds["doubtful"], self.analyst.thresholds["bad"],
                self.analyst.thresholds["very bad"]))
        self.sync(catch_up=not self.attached)
        if not self.attached and self.summary:
            self._attach_directory()
        self.attached = True
        dirty = False
        while stop is None or not stop():
            event = self.link.next_event(poll_s)
            if event is not None:
                if event.get("event") in ("record", "record_reset", "new_game", "hello", "game_over"):
                    dirty = True
                if event.get("event") in ("record_reset", "new_game", "hello", "game_over", "phase"):
                    self.ended = True
                if event.get("event") != "phase" or event.get("phase") != "match-over":
                    continue
            elif not dirty:
                continue
            self.sync()
            dirty, self.again = self.again, False
            if self.summary:
                self._maybe_summary()

    def _maybe_summary(self):
        """gnubg's statistics when a match ends (in money play, the session's after each game).

        The ends are read from the board's directory of matches and each record from the board, not from
        the live phase: a match whose players pressed DONE at once (the next match started) is summarised
        too. A board without a directory (a game from a loaded position) is read from its snapshot.
        """
        if not self.ended:
            return
        self.ended = False
        snapshot = self.link.snapshot()
        try:
            entries = self.link.matches(self.watch_from or 0)[0]
        except CommandError:
            entries = []
        if not entries:
            phase = snapshot.get("phase")
            if phase == "match-over" or phase == "game-over" and not snapshot.get("match_length"):
                key = (snapshot.get("game"), snapshot.get("record_lines"), tuple(snapshot.get("score") or ()))
                if key not in self.summarised:
                    self.summarised.add(key)
                    self.match_summary(snapshot)
            return
        for info in entries:
            key = _end_key(info)
            if key is not None and key not in self.summarised:
                self.summarised.add(key)
                self.match_summary(snapshot, info)

    def _attach_directory(self):
        """Where the coach starts on the board's directory: the latest match (the ends before it, and those of
        the latest one unless the board still shows its end, are not the coach's to summarise)."""
        try:
            entries = self.link.matches()[0]
        except CommandError:
            return
        if not entries:
            return
        snapshot = self.link.snapshot()
        live = (snapshot.get("storage") or {}).get("match")
        self.watch_from = entries[-1]["id"]
        for info in entries:
            key = _end_key(info)
            if key is not None and not (info["id"] == live and snapshot.get("phase") in ("game-over",
                                                                                         "match-over")):
                self.summarised.add(key)


def _end_key(info):
    """A directory entry's end: ``(id, 0)`` for a match whose score reached its length, ``(id, games)`` for a money
    session after a game; None while nothing ended."""
    length, games = info.get("length") or 0, info.get("games") or 0
    if length:
        return (info["id"], 0) if max(info.get("score") or [0]) >= length else None
    return (info["id"], games) if games else None


def _code_of(turn, pos, move):
    """The code of the legal play a gnubg move tuple (pairs, bar 25, off 0) describes, or None."""
    from pipcore.rules import apply_move

    trial = pos.copy()
    try:
        for pair in move:
            apply_move(trial, pair[0], pair[1])
    except (IndexError, ValueError, TypeError):
        return None
    return turn.result_for(trial)


def run(target, plies=0, errors_only=False, summary=True, out=sys.stdout):
    try:
        analyst = GnubgAnalyst(plies)
    except EngineError as exc:
        sys.stderr.write("pipboard coach: %s\n" % exc)
        return 1
    coach = None
    try:
        while True:
            try:
                with Link.open(target) as link:
                    if coach is None:
                        coach = Coach(link, analyst, errors_only, out, summary)
                    coach.link = link  # after a reconnect: what was played meanwhile is judged now
                    coach.run()
                    return 0
            except EngineError as exc:
                sys.stderr.write("pipboard coach: %s\n" % exc)
                return 1
            except LinkError as exc:
                sys.stderr.write("pipboard coach: %s; retrying in 2 s (Ctrl-C stops)\n" % exc)
                time.sleep(2)
    except KeyboardInterrupt:
        return 0
    finally:
        analyst.close()
