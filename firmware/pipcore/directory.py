"""The board's directory of matches, as the host sees it: loaded only when a host asks.

The protocol's ``record`` (pages of any match), ``matches``, ``exported``,
``delete_match`` and ``set_time`` (``pipcore.bridge.AppBridge``) call these
with the app (``pipcore.app.App``); the records and directory entries are
``pipdrivers.recstore.MatchStore``'s (``app.store``), the live match's length,
games and score its keeper's (``app.ctl.records``), which know more than the
directory until the match is closed.
"""


def record_page(app, match, offset, n):
    """``(total, bytes)``: at most ``n`` bytes of match ``match``'s record from ``offset`` (None or the live
    match's id: the live match, or its text log where it keeps no record). Raises ValueError."""
    ctl = app.ctl
    if match is None or match == ctl.records.mid:
        total = ctl.record_size()
        return total, ctl.record_page(offset, n) if offset < total else b""
    entry = info(app, match)
    total = entry["bytes"]
    if offset >= total:
        return total, b""
    return total, app.store.read(match, offset, min(n, total - offset))


def info(app, match):
    """The directory entry of ``match`` (the live one completed from its keeper); ValueError if none."""
    entry = app.store.info(match) if app.store is not None else None
    if entry is None:
        raise ValueError("there is no match %d on the board" % match)
    records = app.ctl.records
    if match == records.mid:
        entry["bytes"] = records.length
        entry["games"] = records.games
        entry["score"] = list(records.score)
        entry["open"] = True
        if records.stopped and not entry.get("stopped"):
            entry["stopped"] = records.failed
            entry["stopped_game"] = records.games + 1
    entry["live"] = match == records.mid
    return entry


def matches(app, start, n):
    """``(entries, next)``: up to ``n`` directory entries from match id ``start`` on, oldest first."""
    if app.store is None:
        return [], None
    ids = [m for m in app.store.ids() if m >= start]
    out = []
    for mid in ids[:n]:
        try:
            out.append(info(app, mid))
        except ValueError:
            pass
    return out, ids[n] if len(ids) > n else None


def mark_exported(app, match, length):
    """The host wrote match ``match`` up to ``length`` bytes: it may go when the flash fills."""
    info(app, match)
    app.store.mark_exported(match, length)


def delete_match(app, match):
    """The host asks to delete a match (even one not exported); never the live one."""
    if info(app, match)["live"]:
        raise ValueError("match %d is being played: start a new match first" % match)
    app.store.remove(match)
    app._check_space()


def set_time(app, seconds, now):
    """The host's clock (seconds since 1970, UTC) at the board's time ``now``: new matches get this date,
    the live one too if it has none yet, and the app keeps the clock running (``App._tick_clock``)."""
    app._time_at = (seconds, now + app.skew)
    store = app.store
    store.now_s = seconds
    mid = app.ctl.records.mid
    if mid:
        try:
            entry = store.info(mid)
            if entry is not None and entry.get("date") is None:
                entry["date"] = seconds
                store.set_info(mid, entry)
        except (OSError, ValueError):
            pass
