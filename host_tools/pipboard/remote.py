"""``pipboard remote``: two boards in different places play one match through an MQTT broker.

Each player runs ``pipboard remote --broker URL --match ID --side white``
(``black`` on the other board). Under ``pipboard/v1/match/ID/`` (docs/room.md):

* ``commit`` (retained): the dice authority's commitment, sha256 of its seed
  (the authority is white's host; the scheme is ``pipdrivers.dice``);
* ``salt`` (retained): black's salt, chosen after seeing the commitment, so
  the authority cannot have picked a seed that suits it;
* ``dice`` (retained): every roll of the match so far, in order; each host
  gives its board the next one (``remote_dice``) before the board needs it;
* ``actions/white``, ``actions/black`` (retained): the record lines of each
  side's own actions, in order (rolls, committed plays, cube actions);
* ``resign/white``, ``resign/black`` (retained): that side's resignation
  offer as made on its own board (``offer``: a number per offer, ``level``:
  1..3, 0 once withdrawn); the other host offers it on its board for that
  side (``resign``), where the person answers with TAKE or DROP;
* ``answer/white``, ``answer/black`` (retained): that side's answer to the
  other's offer (``offer``, ``answer``: accept or decline), which the
  offering side's host gives its own board: both boards end the game with
  the same resignation, or both play on;
* ``stop`` (retained): a disagreement, with the reason; both hosts stop;
* ``reveal`` (retained): the seed, published at the match's end; both hosts
  check every roll against the commitment.

A host shows the other side's plays on its board as an outside play
(``show_play``, cyan, executed by a local hand), answers its cube actions
(``show_cube``) and rolls for it (``roll``). Every line its board records for
the other side must be the line the other side published, and every roll the
board makes must be the authority's: otherwise the match stops on both sides
with the reason, instead of going on with two different games.
"""

import hashlib
import hmac
import json
import os
import re
import sys
import threading
import time

from pipboard.fields import FieldError, check_salt
from pipboard.link import CommandError, Link, LinkError
from pipboard.mqttlink import BrokerError, BrokerLink

PREFIX = "pipboard/v1/match"
SIDES = ("white", "black")
_LINE = re.compile(r"^(white|black) (.*)$")


SENDERS = {"commit": "white", "dice": "white", "reveal": "white", "salt": "black"}  # other leaves: SIDE at the end
KEY_RE = re.compile(r"^[0-9a-f]{32}$")


class RemoteError(Exception):
    """The match cannot go on (a disagreement, a refused command); the message says why."""


def new_key():
    """A fresh match key: 32 hex characters (128 bits), for both players and no one else."""
    return os.urandom(16).hex()


def check_key(key):
    if not isinstance(key, str) or not KEY_RE.match(key.strip().lower()):
        raise RemoteError("the match key is the 32 hex characters white's host printed (--key); black needs it")
    return key.strip().lower()


def sign(key, match, leaf, body):
    """HMAC-SHA256 of a message: the match, its topic and its fields (``n``, ``by`` included), under the key."""
    text = json.dumps([match, leaf, body], sort_keys=True, separators=(",", ":"))
    return hmac.new(bytes.fromhex(key), text.encode("utf-8"), hashlib.sha256).hexdigest()


def action_text(entry):
    """One entry of the match record as a published action: ``roll 31``, ``play 8/5 6/5``, ``cube take``."""
    from pipcore.cube import ACTION_NAMES

    kind = entry[0]
    if kind == "roll":
        return "roll %d%d" % (entry[2], entry[3])
    if kind == "play":
        def point(p):
            return "bar" if p == 25 else ("off" if p == 0 else str(p))
        return "play " + (" ".join("%s/%s" % (point(a), point(b)) for a, b in entry[2]) or "-")
    if kind == "cube":
        return "cube " + ACTION_NAMES.get(entry[2], str(entry[2]))
    if kind == "resign":
        return "resign %d" % entry[2]  # an accepted resignation (offers and answers travel apart: resign/)
    return None


def own_lines(entries, side):
    """The actions of ``side`` (0 white, 1 black) in record entries: its rolls, plays and cube actions."""
    return [action_text(e) for e in entries if e[0] in ("roll", "play", "cube", "resign") and e[1] == side]


def rolls_in(entries):
    """Every roll in record entries, in order: opening rolls (ties included) and turn rolls."""
    out = []
    for e in entries:
        if e[0] == "opening":
            out.append([e[1], e[2]])
        elif e[0] == "roll":
            out.append([e[2], e[3]])
    return out


class RemoteMatch:
    """One side of a remote match: a board link and the broker (see module doc)."""

    def __init__(self, link, broker_url, match, side, out=sys.stdout, seed=None, key=None, **account):
        if side not in SIDES:
            raise RemoteError("side must be white or black")
        if not re.match(r"^[A-Za-z0-9_.-]{1,40}$", match or ""):
            raise RemoteError("match ID %r: use 1-40 letters, digits, '_', '-' or '.'" % (match,))
        if key is None and side == "white":
            key = new_key()
        self.key = check_key(key)
        self.counter = 0  # the number of this host's last signed message
        self.heard = {}  # (side, leaf) -> (number, mac) of the last message taken from that side on it
        self.sent = {}  # leaf -> this host's last signed message on it
        self.rejected = {}  # (leaf, why) -> how many messages were ignored for it
        self.link = link
        self.match = match
        self.side = side
        self.other = SIDES[1 - SIDES.index(side)]
        self.authority = side == "white"
        self.out = out
        self.lock = threading.RLock()
        self.commitment = None
        self.salt = None
        self.rolls = []  # the authority's rolls, as published
        self.theirs = []  # the other side's published action lines
        self.applied = 0  # how many of them were carried out on this board
        self.mine_published = 0
        self.rolls_used = 0  # rolls this board has made in the match
        self.queued = 0  # the roll number given to the board last
        self.stopped = None
        self.revealed = None
        self.verified = None
        # resignations (see the module doc): this side's offer as published, the other side's as received
        self.my_offer = None  # (offer number, level) of the offer on this board
        self.my_offers = 0
        self.answers = {}  # offer number -> "accept" / "decline": the other side's answers to ours
        self.their_offer = None  # {"offer": n, "level": L} as the other side published it
        self.their_applied = None  # (offer number, level) given to this board
        self.answered = {}  # offer number -> our answer to theirs (published)
        if self.authority:
            from pipdrivers.dice import Dice

            self.dice = Dice(seed or os.urandom(32))
            self.commitment = self.dice.commitment
        self.broker = BrokerLink(broker_url, "pipboard-remote-" + side, on_connect=self._on_connect,
                                 on_message=self._on_message, **account)

    def topic(self, *parts):
        return "/".join((PREFIX, self.match) + parts)

    def say(self, text):
        if self.out is not None:
            self.out.write("%s\n" % text)
            self.out.flush()

    # -- broker ----------------------------------------------------------------------
    def _on_connect(self, broker):
        broker.subscribe(self.topic("#"))
        with self.lock:
            if self.authority:
                self._send("commit", {"v": 1, "commitment": self.commitment})
                if self.rolls:
                    self._publish_rolls()
            self._publish_mine()

    def _send(self, leaf, body):
        """Publish ``body`` on ``leaf`` (retained), numbered and signed with the match key."""
        with self.lock:
            self.counter = max(self.counter + 1, time.time_ns() // 1000)  # grows across a restart of the host
            obj = dict(body, by=self.side, n=self.counter)
            obj["mac"] = sign(self.key, self.match, leaf, obj)
            self.sent[leaf] = obj
            self.broker.publish(self.topic(leaf), obj, retain=True)

    def _genuine(self, leaf, obj):
        """True for a message of the side that owns ``leaf``, signed with the match key and newer than the last
        one taken there. Anything else is ignored and said (once per kind): a forgery or a replay. A forgery on
        one of this host's own topics (the retained message overwritten) is answered with its own again."""
        owner = SENDERS.get(leaf) or (leaf.partition("/")[2] if "/" in leaf else None)
        if leaf == "stop":
            owner = obj.get("by") if obj.get("by") in SIDES else None
        mac = obj.get("mac")
        n = obj.get("n")
        why = None
        if owner not in SIDES or obj.get("by") != owner:
            why = "not from the side whose topic it is"
        elif not isinstance(mac, str) or not isinstance(n, int) or isinstance(n, bool) or not hmac.compare_digest(
                mac.encode("utf-8"), sign(self.key, self.match, leaf, {k: obj[k] for k in obj if k != "mac"}).encode()):
            why = "not signed with this match's key"
        else:
            last = self.heard.get((owner, leaf))
            if last is not None and n == last[0] and mac == last[1]:
                return False  # the same message again (QoS 1, the retained copy after a reconnection)
            if last is not None and n <= last[0]:
                why = "replayed (number %d, after %d)" % (n, last[0])
        if why is None:
            self.heard[(owner, leaf)] = (n, mac)
            return owner != self.side  # this host's own messages come back: nothing to take from them
        count = self.rejected.get((leaf, why.split(" (")[0]), 0)
        self.rejected[(leaf, why.split(" (")[0])] = count + 1
        if not count:
            self.say("ignored a message on %s: %s" % (leaf, why))
        mine = self.sent.get(leaf)
        if mine is not None:
            self.broker.publish(self.topic(leaf), mine, retain=True)  # the retained copy is ours again
        return False

    def _on_message(self, topic, obj, retained):
        leaf = topic[len(self.topic()) + 1:]
        with self.lock:
            if not self._genuine(leaf, obj):
                return
            if leaf == "commit" and not self.authority:
                if isinstance(obj.get("commitment"), str):
                    if self.commitment not in (None, obj["commitment"]):
                        self._stop("the dice authority changed its commitment", publish=True)
                    self.commitment = obj["commitment"]
                    if self.salt is None:
                        self.salt = os.urandom(16).hex()
                    self._send("salt", {"v": 1, "salt": self.salt})
            elif leaf == "salt" and self.authority and self.salt is None and not self.dice.drawn:
                try:
                    self.salt = check_salt(obj.get("salt"))
                except FieldError as exc:
                    self.say("a salt was refused: %s" % exc)
                else:
                    self.dice.add_salt(self.salt.encode())
                    self.say("dice: commitment %s, salt %s from black" % (self.commitment, self.salt))
                    self._next_roll()
            elif leaf == "dice" and not self.authority:
                rolls = obj.get("rolls")
                if isinstance(rolls, list) and len(rolls) > len(self.rolls):
                    if rolls[:len(self.rolls)] != self.rolls:
                        self._stop("the dice authority published different earlier rolls", publish=True)
                    self.rolls = [list(r) for r in rolls]
            elif leaf == "actions/" + self.other:
                lines = obj.get("lines")
                if isinstance(lines, list) and len(lines) >= len(self.theirs):
                    if lines[:len(self.theirs)] != self.theirs:
                        self._stop("%s's published actions changed" % self.other, publish=True)
                    self.theirs = list(lines)
            elif leaf == "resign/" + self.other and isinstance(obj.get("offer"), int):
                self.their_offer = {"offer": obj["offer"], "level": obj.get("level", 0)}
            elif leaf == "answer/" + self.other and obj.get("answer") in ("accept", "decline"):
                if isinstance(obj.get("offer"), int):
                    self.answers[obj["offer"]] = obj["answer"]
            elif leaf == "stop" and obj.get("reason") and self.stopped is None:
                self.stopped = obj["reason"]
                self.say("MATCH STOPPED by %s's host: %s" % (obj.get("by"), obj["reason"]))
            elif leaf == "reveal" and not self.authority and isinstance(obj.get("seed"), str):
                self.revealed = obj["seed"]

    def _publish_rolls(self):
        self._send("dice", {"v": 1, "commitment": self.commitment, "rolls": self.rolls})

    def _next_roll(self):
        self.rolls.append(list(self.dice.roll()))
        self._publish_rolls()

    def _publish_mine(self):
        self._send("actions/" + self.side, {"v": 1, "lines": self.mine})

    def _stop(self, reason, publish=True):
        if self.stopped is not None:
            return
        self.stopped = reason
        self.say("MATCH STOPPED: %s" % reason)
        if publish:
            self._send("stop", {"v": 1, "by": self.side, "reason": reason})

    # -- the board -------------------------------------------------------------------
    mine = ()

    def step(self):
        """One look at the board: give it the next roll, publish our lines, carry out theirs, check both."""
        snap = self.link.snapshot()
        record = self._record_lines(snap)
        with self.lock:
            if self.stopped:
                return snap
            self._check_rolls(record)
            mine = own_lines(record, SIDES.index(self.side))
            if list(mine) != list(self.mine):
                self.mine = list(mine)
                self._publish_mine()
            self._check_theirs(record)
            if self.stopped:
                return snap
            if self.authority and len(self.rolls) <= self.rolls_used + 1 and self.salt is not None:
                self._next_roll()  # one roll ahead, so a board that rolls again at once has it
            if self.rolls_used < len(self.rolls) and self.queued != self.rolls_used + 1:
                k = self.rolls_used
                self.link.request("remote_dice", dice=self.rolls[k], commitment=self.commitment or "-" * 16,
                                  roll=k + 1)
                self.queued = k + 1
                if k == 0:
                    self.say("the dice are ready (commitment %s): press ROLL" % self.commitment)
        self._act(snap)
        self._resignations(snap)
        if snap.get("phase") == "match-over":
            self._finish()
        return snap

    def _record_lines(self, snap):
        """The whole match's record entries (the board's binary record, or its text log rewritten)."""
        from pipboard.export import board_record
        from pipcore.record import read_record

        key = (snap.get("seq"), snap.get("record_lines"), snap.get("game"))
        if key == self._record_key:
            return self._entries  # nothing happened on the board: the record is as read last time
        data = self.link.record()
        entries = read_record(board_record(data, snap)).entries if data else []
        self._record_key, self._entries = key, entries
        return entries

    def _check_rolls(self, record):
        """Every roll the board made must be the authority's, in order."""
        dice = rolls_in(record)
        for i, d in enumerate(dice):
            if i >= len(self.rolls) or list(d) != list(self.rolls[i]):
                want = self.rolls[i] if i < len(self.rolls) else None
                self._stop("roll %d on the %s board was %d%d but the dice authority's is %s" % (
                    i + 1, self.side, d[0], d[1], "%d%d" % tuple(want) if want else "not rolled yet"))
                return
        self.rolls_used = len(dice)

    def _check_theirs(self, record):
        """The other side's lines on this board must be what it published."""
        here = own_lines(record, SIDES.index(self.other))
        for i, line in enumerate(here):
            if i >= len(self.theirs):
                if i == len(here) - 1 and line.startswith("resign ") and (
                        self.their_applied is not None or "accept" in self.answered.values()):
                    break  # their offer, accepted here: their board records it once it has our answer
                self._stop("this board recorded %r for %s, which %s did not publish" % (line, self.other,
                                                                                       self.other))
                return
            if line != self.theirs[i]:
                self._stop("%s played %r, but this board recorded %r" % (self.other, self.theirs[i], line))
                return
        self.applied = len(here)

    def _act(self, snap):
        """Carry out the other side's next action on this board (show its play, its cube action, roll for it)."""
        if self.stopped or self.applied >= len(self.theirs):
            return
        line = self.theirs[self.applied]
        kind, _, what = line.partition(" ")
        other = SIDES.index(self.other)
        phase = snap.get("phase")
        try:
            if kind == "roll" and phase == "turn-start" and snap.get("mover") == other:
                self.link.roll()
            elif kind == "play" and phase in ("moving", "pick") and snap.get("mover") == other:
                if self.shown != (self.applied, snap.get("position_id")):
                    self.link.show_play(what)
                    self.shown = (self.applied, snap.get("position_id"))
                    self.say("%s plays %s: move it on this board as the LEDs show (cyan), then press DONE"
                             % (self.other, what))
            elif kind == "cube" and what == "double" and phase == "turn-start" and snap.get("mover") == other:
                self.link.show_cube("double")
            elif kind == "cube" and what != "double" and phase == "cube-offered":
                self.link.show_cube(what)
            elif kind == "resign":
                pass  # accepted on this board already (_resignations): nothing to carry out
        except CommandError as exc:
            self._stop("this board refused %s's %r: %s" % (self.other, line, exc.message))

    shown = None
    _record_key = None
    _entries = ()

    def _resignations(self, snap):
        """Offers and answers cross: ours published, theirs offered on this board, answers carried back."""
        if self.stopped:
            return
        me = SIDES.index(self.side)
        other = 1 - me
        offer = snap.get("resign") or None
        with self.lock:
            mine = offer if offer and offer.get("player") == me else None
            if mine is not None and (self.my_offer is None or self.my_offer[1] != mine["level"]):
                if self.my_offer is None:
                    self.my_offers += 1
                self.my_offer = (self.my_offers, mine["level"])
                self._publish_offer(mine["level"])
                self.say("you offer to resign a %s: waiting for %s's answer on the other board"
                         % (("single", "gammon", "backgammon")[mine["level"] - 1], self.other))
            elif mine is None and self.my_offer is not None:
                if self.my_offer[0] not in self.answers:
                    self._publish_offer(0)  # withdrawn on this board
                self.my_offer = None
            answer = self.answers.get(self.my_offer[0]) if self.my_offer is not None else None
            theirs = self.their_offer
            applied = self.their_applied
        try:
            if answer is not None and mine is not None:
                self.link.resign(other, action=answer)  # their answer, given on this board
                with self.lock:
                    self.my_offer = None  # answered: an offer made after this one has a number of its own
                self.say("%s %ss your resignation" % (self.other, answer))
                return
            if applied is not None and not (offer and offer.get("player") == other):
                self._answered(applied, snap)  # the person here answered their offer
                return
            if theirs is None or theirs["offer"] in self.answered:
                return
            if theirs["level"] and (offer is None or offer.get("player") == other and
                                    offer.get("level") != theirs["level"]):
                self.link.resign(other, theirs["level"])
                with self.lock:
                    self.their_applied = (theirs["offer"], theirs["level"])
                self.say("%s offers to resign a %s: TAKE accepts, DROP declines" % (
                    self.other, ("single", "gammon", "backgammon")[theirs["level"] - 1]))
            elif not theirs["level"] and offer and offer.get("player") == other:
                self.link.resign(other, action="withdraw")
                with self.lock:
                    self.their_applied = None
                    self.answered[theirs["offer"]] = "withdrawn"
        except CommandError:
            pass  # this board is not there yet (the other side's last action still being carried out)

    def _answered(self, applied, snap):
        result = snap.get("result")
        accepted = snap.get("phase") in ("game-over", "match-over") and bool(result)
        answer = "accept" if accepted else "decline"
        with self.lock:
            self.their_applied = None
            self.answered[applied[0]] = answer
            self._send("answer/" + self.side, {"v": 1, "offer": applied[0], "answer": answer})

    def _publish_offer(self, level):
        self._send("resign/" + self.side, {"v": 1, "offer": self.my_offers, "level": level})

    def _finish(self):
        from pipdrivers.dice import FairnessError, verify

        with self.lock:
            if self.verified is not None:
                return
            if self.authority:
                self.revealed = self.dice.reveal()
                self._send("reveal", {"v": 1, "seed": self.revealed})
            if self.revealed is None or self.salt is None:
                return
            flat = [d for roll in self.rolls[:self.rolls_used] for d in roll]
            try:
                n = verify(self.revealed, self.commitment, flat, self.salt.encode())
                self.verified = "every die checked (%d) against the commitment %s" % (n, self.commitment)
            except FairnessError as exc:
                self.verified = "DICE NOT FAIR: %s" % exc
            self.say("match over. dice: %s" % self.verified)

    def run(self, stop=None, poll_s=0.05):
        """Play until the match is over and checked, or stopped; returns the exit code."""
        source = (self.link.snapshot().get("options") or {}).get("dice", "electronic")
        if source != "electronic":
            raise RemoteError("this board's match has %s dice: a remote match takes its dice from white's host "
                              "(start a match with electronic dice on the board first)" % source)
        self.broker.start()
        self.say("remote match %s: you play %s on %s%s" % (
            self.match, self.side, self.link.name, " (dice authority)" if self.authority else ""))
        if self.authority:
            self.say("dice commitment: %s (waiting for black's salt)" % self.commitment)
        try:
            while stop is None or not stop():
                self.step()
                if self.stopped:
                    return 1
                if self.verified is not None:
                    return 0 if self.verified.startswith("every") else 1
                time.sleep(poll_s)
        finally:
            self.broker.stop()
        return 1  # stopped from outside before the match was over and checked


def add_arguments(p):
    p.add_argument("--broker", required=True, help="the MQTT broker both players use, mqtt://HOST:PORT")
    p.add_argument("--match", required=True, help="the match's name, the same on both boards")
    p.add_argument("--side", required=True, choices=SIDES, help="the colour played on this board")
    p.add_argument("--key", help="the match key: 32 hex characters that only the two players know (white's host "
                   "makes one and prints it if none is given; black must give it). Also PIPBOARD_MATCH_KEY")
    p.add_argument("--broker-user", help="the broker account (its password in PIPBOARD_BROKER_PASSWORD)")
    p.add_argument("--broker-ca", metavar="FILE", help="the certificate authority of a TLS broker (mqtts://), if "
                   "not one the system trusts")


def run(args, out=sys.stdout):
    from pipboard.hostcli import target_of

    try:
        link = Link.open(target_of(args))
    except (LinkError, CommandError) as exc:
        sys.stderr.write("pipboard remote: %s\n" % exc)
        return 1
    key = getattr(args, "key", None) or os.environ.get("PIPBOARD_MATCH_KEY")
    account = {"ca": getattr(args, "broker_ca", None)}
    if getattr(args, "broker_user", None):
        account.update(username=args.broker_user, password=os.environ.get("PIPBOARD_BROKER_PASSWORD", ""))
    try:
        if key is None and args.side == "black":
            raise RemoteError("black needs the match key that white's host printed (--key or PIPBOARD_MATCH_KEY)")
        match = RemoteMatch(link, args.broker, args.match, args.side, out, key=key, **account)
        if key is None:
            out.write("match key: %s (give it to black's player, and to no one else: pipboard remote ... --side "
                      "black --key %s)\n" % (match.key, match.key))
        return match.run()
    except (RemoteError, BrokerError, LinkError) as exc:
        sys.stderr.write("pipboard remote: %s\n" % exc)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        link.close()
