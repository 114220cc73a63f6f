"""Every protocol command of docs/protocol.md sent to a board in test mode, its effect checked in the snapshot.

``run_table(link)`` returns rows ``(command, phases tried, result)``: ``ok`` when every check held, else
what failed. The board is left at a new money game. ``python -m pipboard.tableplayer --port PORT
--commands`` prints the table (tests/README.md has the emulated Pico's).
"""

import time

from pipboard.link import CommandError

START = {0: 2, 11: 5, 16: 3, 18: 5, 23: 2, 12: 5, 7: 3, 5: 5}  # location -> checkers of the start position
PRESS_ROLL = 0


def _lay(link, counts):
    for loc in range(28):
        link.inject("sensor", loc, counts.get(loc, 0))


def _wait(link, check, timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        snap = link.snapshot()
        if check(snap) or time.monotonic() > deadline:
            return snap
        time.sleep(0.1)


def _refused(link, cmd, **args):
    try:
        link.request(cmd, timeout=20.0, **args)
    except CommandError as exc:
        return exc.code
    return None


def run_table(link, log=print):
    rows = []

    def row(cmd, phases, ok, detail=""):
        rows.append((cmd, phases, "ok" if ok else "FAILED " + detail))
        log("| `%s` | %s | %s |" % rows[-1])

    def to_turn(dice=(3, 1)):
        link.new_game("backgammon", {})
        _lay(link, START)
        link.set_dice(list(dice))
        link.inject("press", PRESS_ROLL, 1)
        return _wait(link, lambda s: s["phase"] == "moving")

    snap = link.snapshot()
    row("ping", "any", link.request("ping", data=7)["pong"] == 7)
    hello = link.hello()
    row("hello", snap["phase"], hello["protocol"] == 1 and hello["test_mode"] is True and "snapshot" in hello)
    row("snapshot", snap["phase"], all(k in snap for k in ("position_id", "match_id", "phase", "cube", "seq")))
    s = link.new_game("backgammon", {"matchLength": 5})
    bad = _refused(link, "new_game", variant="backgammon", options={"beavers": True, "matchLength": 5})
    row("new_game", "setup, moving", s["options"]["matchLength"] == 5 and bad == "rejected" and
        link.snapshot()["options"]["matchLength"] == 5)
    pid = "4HPwATDgc/ABMA"
    s = link.set_position(pid)
    row("set_position", "setup", s["position_id"] == pid and _refused(link, "set_position",
                                                                       position_id="nope") is not None)
    s = to_turn((3, 1))
    row("set_dice", "opening, turn-start", s["dice"] == [3, 1])
    row("inject", "setup, opening, moving", s["phase"] == "moving" and s["mover"] == 0)
    link.show_play("8/5 6/5")
    for loc, n in ((7, 2), (4, 1), (5, 4), (4, 2)):
        link.inject("sensor", loc, n)
    link.inject("press", PRESS_ROLL, 1)
    s = _wait(link, lambda s: s["phase"] == "turn-start")
    row("show_play", "moving (refused outside a turn)", s["mover"] == 1 and s["record_lines"] >= 2)
    link.set_dice([6, 5])
    link.roll()
    s = _wait(link, lambda s: s["phase"] == "moving")
    row("roll", "turn-start", s["dice"] == [6, 5] and s["mover"] == 1)
    s = to_turn((4, 2))
    link.inject("press", PRESS_ROLL + 0, 1)  # nothing moved: DONE refused
    for loc, n in ((7, 2), (3, 1), (5, 4), (3, 2)):
        link.inject("sensor", loc, n)
    link.inject("press", PRESS_ROLL, 1)
    s = _wait(link, lambda s: s["phase"] == "turn-start")
    link.show_cube("double")
    s1 = link.snapshot()
    link.show_cube("take")
    s2 = link.snapshot()
    row("show_cube", "turn-start, cube-offered", s1["phase"] == "cube-offered" and s2["cube"]["value"] == 2)
    r = link.resign(1, level=1)
    r2 = link.resign(0, action="decline")
    r3 = link.resign(1, level=1)
    r4 = link.resign(0, action="accept")
    row("resign", "turn-start (offer, decline, accept)", r["resign"] and r2["resign"] is None and r3["resign"] and
        r4["phase"] in ("game-over", "match-over"))
    s = to_turn((3, 1))
    shown = link.request("coach", player=0, rating="bad", loss=120, text="8/5 6/5 was better")["shown"]
    row("coach", "moving", shown is False and _refused(link, "coach", player=3, rating="bad") == "bad_args")
    rec = link.request("record", offset=0)
    row("record", "moving", rec["total"] >= 0 and "data" in rec)
    m = link.request("matches")
    row("matches", "moving", isinstance(m["matches"], list) and m["storage"] is not None)
    # the live match from the snapshot: "matches" pages from the oldest, and a board that kept more than a page
    # of matches (MATCHES_PAGE) does not list the live one first (its last entry there was deleted)
    live = link.snapshot()["storage"]["match"]
    row("exported", "moving", live is not None and link.request("exported", match=live, length=0)["ok"])
    row("delete_match", "moving (the live match: refused)", _refused(link, "delete_match", match=live) == "rejected")
    row("set_time", "moving", link.request("set_time", time=1764597600)["time"] == 1764597600)
    link.request("advance", ms=1000)
    row("advance", "moving", link.snapshot()["phase"] == "moving")
    link.new_game("backgammon", {})
    st = link.request("self_test", action="start")
    stop = link.request("self_test", action="stop")
    row("self_test", "setup (start, stop)", st["self_test"] is not None and stop["self_test"] is not None)
    _lay(link, {})
    _lay(link, START)
    link.request("remote_dice", dice=[5, 3], commitment="0123456789abcdef", roll=1)
    link.inject("press", PRESS_ROLL, 1)
    s = _wait(link, lambda s: s["phase"] == "moving")
    row("remote_dice", "opening", s["dice"] == [5, 3] and s.get("remote", {}).get("roll") == 1)
    switch = _refused(link, "inject", kind="switch", index=3, value=0)
    row("inject switch", "any (the simulator only)", switch in (None, "rejected"))
    before = link.snapshot()
    link.request("reset", how="power")
    if ":" not in (link.name or ""):
        time.sleep(2.0)
        for _ in range(60):
            try:
                link.reopen(timeout=5.0)
                break
            except Exception:
                time.sleep(1.0)
    after = link.snapshot()
    row("reset", "moving", after["position_id"] == before["position_id"] and after["dice"] == before["dice"])
    simulator = ":" in (link.name or "")
    repl = _refused(link, "repl") if simulator else None  # (a Pico would stop its game and restart)
    row("repl", "any (refused on the simulator; on a Pico not sent: it hands the port over)",
        repl == "rejected" or not simulator)
    link.new_game("backgammon", {})
    return rows
