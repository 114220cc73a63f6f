"""The Back Alley scorekeeper mode (``pipcore.bamode``) for a host: its options, its state and its words.

The board itself shows everything with its LEDs; the options a host or the
menu gives a new game are checked here, and the sentences and the state a
host reads (the snapshot's ``backalley``) are made here, in a module loaded
only while one of them asks and dropped again right after (RAM on the Pico).
The options are checked without loading the mode: a host's ``new_game``
refused on a backgammon board leaves this small module only.
"""

from pipcore.names import ConfigError  # (a Back Alley option refused says which, as a match's does)

_TRUMPS = ("clubs", "diamonds", "hearts", "spades", "joker (no trump)")
_SHORTCUTS = ("DOUBLE: joker", "DOUBLE: Board", "DOUBLE: the rest")  # by the keeper's phase
_SEATS = ("North", "East", "South", "West")


def ba_options(given=None):
    """The options of a Back Alley game, completed and checked: ``names`` (four seat names N, E, S, W, or
    None for North...), ``dealer`` (the first dealer, ``N``..``W``, or None: chosen at the table),
    ``referee`` (True: the cards of each trick keyed in and checked, ``pipcore.baref``; default False)."""
    given = given or {}
    if not isinstance(given, dict):
        raise ConfigError("Back Alley options are a mapping: names, dealer, referee")
    for key in given:
        if key not in ("names", "dealer", "referee"):
            raise ConfigError("Back Alley has no option %r (names, dealer, referee)" % (key,))
    names = given.get("names")
    dealer = given.get("dealer")
    if names is not None:
        from pipcore.bacalls import BackAlleyError
        from pipcore.bascore import _names

        try:
            names = _names(names)
        except BackAlleyError as exc:
            raise ConfigError(str(exc)) from None
    if dealer is not None and (type(dealer) is not str or dealer.upper() not in "NESW" or len(dealer) != 1):
        raise ConfigError("dealer must be N, E, S or W, not %r" % (dealer,))
    referee = given.get("referee", False)
    if type(referee) is not bool:
        raise ConfigError("referee is true (the cards of each trick keyed in) or false, not %r" % (referee,))
    return {"names": names, "dealer": dealer.upper() if dealer else None, "referee": referee}


def state(session):
    """The snapshot's ``backalley`` (docs/protocol.md)."""
    from pipcore.bacalls import SEAT_NAMES, TEAM_NAMES
    from pipcore.bascore import OVER, call_short, trump_name

    k = session.keeper
    out = {"phase": session.phase_name(), "entry": session.entry_text(), "view": session.shown_view(),
           "refused": session.refused[1] if session.refused else None, "options": session.options}
    if session.ref is not None:
        out["referee"] = referee_state(session.ref)
    if k is None:
        out["state"] = None
        return out
    out["state"] = k.snapshot()
    out["deal"] = min(k.number, 25)
    out["cards"] = k.hand_size
    out["dealer"] = SEAT_NAMES[k.dealer]
    seat = session.actor()  # who keys next: the dealer (the trump), the seat that calls, whose tricks
    out["to_act"] = SEAT_NAMES[seat] if seat is not None else None
    out["trump"] = None if k.trump is None else trump_name(k.trump)
    calls = {}
    tricks = {}
    for seat in range(4):
        c = k.call_of(seat)
        if c is not None:
            calls[SEAT_NAMES[seat]] = call_short(c, session.fold(seat))
        t = k.tricks_of(seat)
        if t is not None:
            tricks[SEAT_NAMES[seat]] = t
    out["calls"] = calls
    out["tricks"] = tricks
    out["contracts"] = {"NS": session.contract(0), "EW": session.contract(1)} if k.calls else None
    out["leader"] = SEAT_NAMES[k.leader] if k.leader is not None else None
    out["scores"] = {"NS": k.scores[0], "EW": k.scores[1]}
    out["redeals"] = k.redeals
    out["names"] = k.names
    out["winner"] = None
    if k.phase == OVER:
        w = k.winner()
        out["winner"] = "tie" if w < 0 else TEAM_NAMES[w]
    return out


def referee_state(ref):
    """The snapshot's ``backalley.referee`` (docs/protocol.md): the deal's cards, or None before its play."""
    from pipcore.bacalls import SEAT_NAMES
    from pipcore.bacards import card_text

    t = ref.tricks
    if t is None:
        return None
    n = sum(t.taken)
    last = None
    if n:
        leader, cards, winner = t.finished(n - 1)
        last = {"trick": n, "leader": SEAT_NAMES[leader], "cards": [card_text(c) for c in cards],
                "winner": SEAT_NAMES[winner]}
    taken = {}
    for seat in range(4):
        taken[SEAT_NAMES[seat]] = t.taken[seat]
    done = t.to_act is None
    return {"playing": ref.playing(), "trick": n if done else n + 1, "of": t.hand_size,
            "leader": None if done else SEAT_NAMES[t.trick_leader], "cards": [card_text(c) for c in t.trick],
            "to_act": None if done else SEAT_NAMES[t.to_act], "entry": None if done else card_text(t.entry),
            "showing_last": ref.showing(), "last": last, "taken": taken, "state": t.snapshot()}


def _referee_prompt(session):
    """What the board waits for while it referees a deal's play."""
    from pipcore.bacards import card_symbol
    from pipcore.bamode import SIDE_TEXT, SIDES
    from pipcore.bascore import trump_name

    k = session.keeper
    t = session.ref.tricks
    name = k.names[t.to_act]
    head = "Deal %d of 25, trump %s: %s" % (k.number, trump_name(k.trump), t.prompt())
    side = SIDE_TEXT[SIDES[t.to_act]]
    if session.ref.showing():
        return "%s: a key of %s shows the card entry (%s)" % (head, name, side)
    return "%s: %s? (DOUBLE: the next suit, TAKE/DROP: the card up/down, ROLL/DONE: play it; %s)" % (
        head, card_symbol(t.entry), side)


def prompt(session):
    """What the board waits for, in one line: the keeper's words, the value shown and the keys."""
    from pipcore.bamode import SIDE_TEXT, SIDES
    from pipcore.bascore import OVER, TRUMP

    if session.ref is not None and session.ref.playing():
        return _referee_prompt(session)
    k = session.keeper
    if k is None:
        return ("Back Alley: who deals first? %s (TAKE/DROP: the next seat, DOUBLE: at random, ROLL/DONE: "
                "confirm)" % _SEATS[session.entry])
    if k.phase == OVER:
        return k.prompt() + " (ROLL/DONE twice: a new game)"
    value = _TRUMPS[session.entry] if k.phase == TRUMP else session.entry_text()
    value = {"P": "Pass", "B": "Board"}.get(value, value)
    return "%s: %s? (TAKE/DROP change, %s, ROLL/DONE ok; %s)" % (
        k.prompt(), value, _SHORTCUTS[k.phase], SIDE_TEXT[SIDES[session.actor()]])


def message(session):
    """The snapshot's ``message``: a refusal first, then the prompt, then a note."""
    text = prompt(session)
    if session.refused is not None:
        text = "REFUSED: %s | %s" % (session.refused[1], text)
    if session.note:
        text += " | " + session.note
    return text


def describe(session, snap):
    snap["variant"] = "backalley"
    snap["backalley"] = state(session)
    snap["message"] = message(session)
