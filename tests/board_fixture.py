"""The board under test for protocol tests: a real board (``pytest --board PORT``) or the simulator."""

import contextlib
import time

LOCATIONS = 28  # points 1-24, the two bars, the two trays (pipcore.board.NLOC)


def start_afresh(link):
    """Bring a real board to the state a fresh simulator starts in: a new game, no checker sensed.

    What the last test injected stays what the board senses (docs/protocol.md, ``inject``), and a
    point's colour is believed until the point empties (``pipcore.layout``): a test laying out its
    position over the last test's checkers would be told to clear points first. Every location is
    emptied, after the new game (in setup an empty reading only clears beliefs: no play, no fault).
    """
    link.new_game()
    # (sent at once, then answered: one by one, the 28 round trips took 5-6 s on the emulated Pico)
    first = link.next_id
    link.next_id += LOCATIONS
    link.stream.write(b"".join(b'{"id":%d,"cmd":"inject","kind":"sensor","index":%d,"value":0}\n' % (first + loc, loc)
                               for loc in range(LOCATIONS)))
    waiting = set(range(first, first + LOCATIONS))
    deadline = time.monotonic() + 30.0
    while waiting:
        frame = link.read_frame(max(0.0, deadline - time.monotonic()))
        if frame is None:
            raise RuntimeError("the board did not answer the injections that empty it (%d left)" % len(waiting))
        if "event" in frame:
            link.events.append(frame)
        elif frame.get("id") in waiting:
            if not frame.get("ok"):
                raise RuntimeError("the board refused to be emptied: %r" % (frame,))
            waiting.discard(frame["id"])


@contextlib.contextmanager
def open_board_link(port=None, seed=1):
    """Yield a ``pipboard.link.Link`` in test mode; ``link.sim`` is the simulator's Servers (None on HIL)."""
    from pipboard.link import Link

    if port:
        link = Link.open(port, timeout=5.0)
        if not link.hello_reply.get("test_mode"):
            link.close()
            raise RuntimeError("the board on %s is not in test mode: deploy it with 'pipboard deploy --test'" % port)
        link.sim = None
        start_afresh(link)
        try:
            yield link
        finally:
            link.close()
        return
    from pipboard.websim import server

    sim = server.start(seed=seed, test_mode=True, http_port=0, protocol_port=0)
    try:
        link = Link.open("sim:" + sim.protocol_address)
        link.sim = sim
        try:
            yield link
        finally:
            link.close()
    finally:
        sim.close()
