"""The board under test for protocol tests: a real board (``pytest --board PORT``) or the simulator."""

import contextlib


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
        link.new_game()
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
