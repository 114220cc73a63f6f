"""`make bench`: the room's end-to-end latency and the broker's load (Mosquitto on a loopback port).

Simulated tables (the firmware app on driver twins, played by virtual hands at a
human pace) are bridged by one ``pipboard room`` to a Mosquitto started here; a
subscriber (``RoomWatcher``, what the room page uses) receives every event.

* latency: from the moment a board commits a play (its DONE) to the moment the
  subscriber has the room's ``record`` event of that play (board -> protocol ->
  bridge -> broker -> subscriber); median and 95th percentile;
* broker load with 16 and with 200 boards: messages/s delivered to the subscriber
  and the broker's CPU (user + system time of the mosquitto process / wall time).

Budgets: median latency under 100 ms and 95th percentile under 300 ms with 16
boards; the broker under 25 % of one core with 200 boards. Prints PASS/FAIL; exits 1
on FAIL. ``--boards N --seconds S`` runs one size only.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for sub in ("firmware", "host_tools", "tests"):
    sys.path.insert(0, os.path.join(ROOT, sub))

from mosquitto_broker import Mosquitto  # noqa: E402
from pipboard.room import Room  # noqa: E402
from pipboard.roompage import RoomWatcher  # noqa: E402
from pipboard.simtable import SimTable  # noqa: E402

LATENCY_MEDIAN_BUDGET_MS = 100
LATENCY_P95_BUDGET_MS = 300
BROKER_CPU_BUDGET = 0.25


def _tables_worker(conn, seeds, pace_s):
    """A process of simulated tables (the GIL of one process cannot play 200 boards at a human pace)."""
    tables = [SimTable(seed=seed, match_length=25, pace_s=pace_s) for seed in seeds]
    conn.send([t.target for t in tables])
    conn.recv()  # start
    for t in tables:
        t.start()
    conn.recv()  # stop
    for t in tables:
        t.stop()
    conn.send([list(t.done_at) for t in tables])


def run(n, seconds, pace_s, per_process=25):
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    workers = []
    for first in range(0, n, per_process):
        parent, child = ctx.Pipe()
        seeds = list(range(500 + first, 500 + min(n, first + per_process)))
        proc = ctx.Process(target=_tables_worker, args=(child, seeds, pace_s), daemon=True)
        proc.start()
        workers.append((proc, parent))
    targets = []
    for _proc, conn in workers:
        targets += conn.recv()
    broker = Mosquitto()
    room = Room(broker.url, "bench", [{"name": "b%03d" % i, "target": t} for i, t in enumerate(targets)], None)
    received = {}  # board -> receive times of its play lines

    watcher = RoomWatcher(broker.url, "bench", name="bench")
    original = watcher._take

    def take(b, ev):
        original(b, ev)
        text = ev.get("text") or ""
        if ev.get("event") == "record" and text.startswith(("white ", "black ")) and text.split(" ")[1][:1].isdigit():
            received.setdefault(b.name, []).append(time.time())

    watcher._take = take
    done_at = []
    try:
        watcher.start(5)
        room.start(5)
        time.sleep(0.5 + n * 0.01)
        for _proc, conn in workers:
            conn.send("start")
        time.sleep(3.0)  # everyone set up and playing
        events0 = sum(len(b.events) for b in watcher.boards.values())
        cpu0, wall0 = broker.cpu_seconds(), time.time()
        time.sleep(seconds)
        cpu1, wall1 = broker.cpu_seconds(), time.time()
        events1 = sum(len(b.events) for b in watcher.boards.values())
        for _proc, conn in workers:
            conn.send("stop")
        for _proc, conn in workers:
            done_at += conn.recv()
    finally:
        room.stop()
        watcher.stop()
        broker.close()
        for proc, _conn in workers:
            proc.join(10)
    latencies = []
    for i, done in enumerate(done_at):
        for d, seen in zip(done, received.get("b%03d" % i, [])):
            latencies.append((seen - d) * 1000)
    latencies.sort()
    return {"boards": n, "events_per_s": (events1 - events0) / (wall1 - wall0), "cpu": (cpu1 - cpu0) / (wall1 - wall0),
            "median_ms": latencies[len(latencies) // 2] if latencies else None,
            "p95_ms": latencies[int(len(latencies) * 0.95)] if latencies else None, "plays": len(latencies)}


def report(r):
    print("%3d boards: %.0f events/s to a subscriber (each burst also updates a retained snapshot), broker CPU %.1f %% "
          "of a core; "
          "DONE -> subscriber latency median %.1f ms, 95th percentile %.1f ms over %d plays"
          % (r["boards"], r["events_per_s"], 100 * r["cpu"], r["median_ms"] or -1, r["p95_ms"] or -1, r["plays"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    sizes = [(args.boards, 0.3 if args.boards <= 16 else 2.0)] if args.boards else [(16, 0.3), (200, 2.0)]
    ok = True
    for n, pace in sizes:
        r = run(n, args.seconds, pace)
        report(r)
        if n <= 16 and r["median_ms"] is not None:
            ok &= r["median_ms"] < LATENCY_MEDIAN_BUDGET_MS and r["p95_ms"] < LATENCY_P95_BUDGET_MS
        if n >= 200:
            ok &= r["cpu"] < BROKER_CPU_BUDGET
    print("PASS bench_room" if ok else "FAIL bench_room")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
