"""The simulator's Back Alley table: the page ``/backalley`` and its JSON endpoints.

One table for every open page (like the simulated board): a person plays
one seat against three bots, four bots play, or four people share one
screen (the page hides each hand until its owner asks to see it). Bots act
one action per ``{"do": "bot"}`` from the page, which paces them, so the
people can follow every card.

* ``GET /ba/state``: what the page draws (``state()``): the seats, calls,
  contracts, the trick, the people's hands and legal actions, scores, the log;
* ``POST /ba/action``: ``{"do": "new", "people": ["S"], "seed": 1}``,
  ``{"do": "call", "seat": "S", "call": "3"}``, ``{"do": "play", "seat": "S",
  "card": "AS"}``, ``{"do": "bot", "version": N}``; a refused one answers
  400 with the engine's reason;
* ``GET /ba/sheet.txt``, ``/ba/sheet.json``: the score sheet
  (``pipboard.basheet``); ``GET /ba/record.txt``: the game record.

With ``pipboard sim --flash DIR`` the game is kept in ``DIR/backalley.json``
after every action and picked up again when the simulator restarts.
"""

import json
import os
import threading

from pipboard.files import write_file
from pipcore.backalley import (
    BIDDING,
    BOARD,
    DEALS,
    NO_TRUMP,
    PLAYING,
    SEAT_NAMES,
    SUIT_NAMES,
    BackAlleyError,
    Game,
    call_text,
    card_text,
    legal_calls,
    parse_call,
    parse_card,
)

SAVE_NAME = "backalley.json"


class BackAlleyActionError(ValueError):
    """An action the table cannot take; the message says why (shown on the page)."""


def _seat(value):
    if isinstance(value, str) and value.upper() in ("N", "E", "S", "W"):
        return SEAT_NAMES.index(value.upper())
    raise BackAlleyActionError("a seat is N, E, S or W, not %r" % (value,))


class BackAlleyRoom:
    """The table behind the page (see the module docstring)."""

    def __init__(self, flash_dir=None, seed=None):
        self.lock = threading.RLock()
        self.seed = seed
        self.table = None
        self.path = os.path.join(flash_dir, SAVE_NAME) if flash_dir else None
        self.load_error = None
        if self.path and os.path.exists(self.path):
            self._load()

    # -- keeping the game ----------------------------------------------------------
    def _load(self):
        from pipboard.batable import Table

        try:
            with open(self.path, encoding="utf-8") as f:
                saved = json.load(f)
            people = [_seat(s) for s in saved["people"]]
            game = Game.from_record(saved["record"])
            self.table = Table(people=people, names=saved.get("names"), game=game)
        except (OSError, ValueError, KeyError, TypeError, BackAlleyError) as exc:
            self.load_error = "the saved Back Alley game could not be read (%s); start a new one" % exc
            self.table = None

    def _save(self):
        if not self.path or self.table is None:
            return
        table = self.table
        data = {"people": [SEAT_NAMES[s] for s in table.people], "names": table.names, "record": table.record()}
        write_file(self.path, json.dumps(data))

    # -- actions ---------------------------------------------------------------------
    def act(self, action):
        """Carry out one page action; returns the new state. BackAlleyActionError if refused."""
        from pipboard.batable import Table

        kind = action.get("do")
        with self.lock:
            if kind == "new":
                people = action.get("people", ["S"])
                if not isinstance(people, list) or len(people) not in (0, 1, 4):
                    raise BackAlleyActionError("people is a list of the seats people play: one seat, all four "
                                               "or none")
                seats = sorted(set(_seat(s) for s in people))
                seed = action.get("seed", self.seed)
                if seed is not None and type(seed) is not int:
                    raise BackAlleyActionError("seed must be a whole number")
                self.table = Table(people=seats, seed=seed)
                self.load_error = None
            else:
                table = self.table
                if table is None:
                    raise BackAlleyActionError("no game yet: start a new game")
                try:
                    if kind == "call":
                        table.call(_seat(action.get("seat")), parse_call(str(action.get("call"))))
                    elif kind == "play":
                        table.play(_seat(action.get("seat")), parse_card(str(action.get("card"))))
                    elif kind == "bot":
                        version = action.get("version")
                        if version is None or version == table.version:
                            table.bot_step()
                    else:
                        raise BackAlleyActionError("unknown action %r" % (kind,))
                except BackAlleyError as exc:
                    raise BackAlleyActionError(str(exc)) from None
            try:
                self._save()
            except OSError as exc:
                self.load_error = "the game could not be kept in the flash folder: %s" % exc
            return self.state()

    # -- what the page draws -------------------------------------------------------------
    def state(self):
        with self.lock:
            table = self.table
            if table is None:
                return {"active": False, "error": self.load_error}
            return _table_state(table, self.load_error)

    def sheet(self, kind):
        """The score sheet as (content type, bytes); None without a game."""
        from pipboard.basheet import keeper_from_game, sheet_json, sheet_text

        with self.lock:
            if self.table is None:
                return None
            keeper = keeper_from_game(self.table.game)
            if kind == "json":
                return "application/json", json.dumps(sheet_json(keeper), indent=1, ensure_ascii=False).encode()
            if kind == "record":
                return "text/plain; charset=utf-8", self.table.record().encode()
            return "text/plain; charset=utf-8", sheet_text(keeper).encode()


def _contract(c):
    from pipboard.batable import contract_words

    return contract_words(c)


def _table_state(table, note=None):
    from pipboard.batable import winner_name

    game = table.game
    deal = game.current if game.current is not None else game.last_deal
    seat_to_act = game.to_act
    seats = []
    for seat in range(4):
        entry = {"seat": SEAT_NAMES[seat], "name": table.names[seat], "person": seat in table.people,
                 "cards": 0, "call": None, "board": 0, "taken": 0}
        if deal is not None:
            entry["cards"] = len(deal.hands[seat])
            call = deal.call_of(seat)
            entry["call"] = None if call is None else call_text(call)
            for board_seat, k in deal.board_calls():
                if board_seat == seat:
                    entry["board"] = k
            entry["taken"] = deal.taken[seat]
        seats.append(entry)
    state = {
        "active": True,
        "version": table.version,
        "people": [SEAT_NAMES[s] for s in table.people],
        "seats": seats,
        "phase": ("dealing", "bidding", "playing", "finished", "passed out", "game over")[game.phase],
        "deals": DEALS,
        "scores": list(game.scores),
        "to_act": None if seat_to_act is None else SEAT_NAMES[seat_to_act],
        "person_to_act": seat_to_act is not None and seat_to_act in table.people,
        "log": table.log[-60:],
        "last_deal": table.last_deal_lines,
        "results": [_result(r) for r in game.results],
        "over": table.over(),
        "final": table.log[-1] if table.over() else None,
        "winner": winner_name(game),
        "error": note,
        "hands": {},
        "legal": [],
        "legal_calls": [],
        "trick": [],
        "last_trick": None,
    }
    if deal is None:
        return state
    state.update({
        "number": deal.number,
        "hand_size": deal.hand_size,
        "dealer": SEAT_NAMES[deal.dealer],
        "trump": "no trump" if deal.trump == NO_TRUMP else SUIT_NAMES[deal.trump],
        "upcard": card_text(deal.upcard),
        "contracts": None if deal.contracts is None else [_contract(c) for c in deal.contracts],
        "leader": None if deal.leader is None else SEAT_NAMES[deal.leader],
        "team_tricks": deal.team_tricks(),
        "trick_number": min(len(deal.tricks) + 1, deal.hand_size),
    })
    for seat in table.people:
        state["hands"][SEAT_NAMES[seat]] = [card_text(c) for c in table.hand(seat)]
    if seat_to_act is not None and seat_to_act in table.people:
        if game.phase == BIDDING:
            state["legal_calls"] = [call_text(c) for c in legal_calls(deal.hand_size)]
        elif game.phase == PLAYING:
            state["legal"] = [card_text(c) for c in deal.legal_cards()]
    if deal.trick_leader is not None:
        state["trick"] = [{"seat": SEAT_NAMES[(deal.trick_leader + i) % 4], "card": card_text(deal.trick[i])}
                          for i in range(len(deal.trick))]
    if table.last_trick is not None:
        leader, cards, winner = table.last_trick
        state["last_trick"] = {"cards": [{"seat": SEAT_NAMES[(leader + i) % 4], "card": card_text(cards[i])}
                                         for i in range(4)], "winner": SEAT_NAMES[winner],
                              "deal": table.last_trick_deal}
    return state


def _result(r):
    return {"number": r.number, "cards": r.hand_size, "dealer": SEAT_NAMES[r.dealer],
            "trump": "no trump" if r.trump == NO_TRUMP else SUIT_NAMES[r.trump],
            "contracts": [_contract(c) for c in r.contracts], "tricks": list(r.tricks), "points": list(r.scores),
            "calls": [call_text(c) for c in r.calls], "boards": sum(1 for c in r.calls if c == BOARD)}
