"""``pipboard deploy``'s last step: the board's hello, asked again while the board is still starting."""

import pytest
from pipboard import deploy
from pipboard.link import CommandError, LinkError


class _Link:
    def __init__(self, reply):
        self.hello_reply = reply

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_board_still_starting_is_asked_again(monkeypatch):
    monkeypatch.setattr(deploy.time, "sleep", lambda s: None)
    answers = [LinkError("no answer"), CommandError("error", ""), {"hello": "pipboard", "firmware": "0.1.0"}]

    def opener():
        got = answers.pop(0)
        if isinstance(got, Exception):
            raise got
        return _Link(got)

    assert deploy.wait_for_hello("P", opener=opener)["hello"] == "pipboard"
    assert answers == []


def test_a_board_that_never_answers_gets_a_clear_error(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(deploy.time, "sleep", lambda s: clock.__setitem__(0, clock[0] + s))
    monkeypatch.setattr(deploy.time, "monotonic", lambda: clock[0])

    def opener():
        clock[0] += 5.0
        raise LinkError("P did not answer")

    with pytest.raises(deploy.DeployError, match="does not answer the Pipboard hello"):
        deploy.wait_for_hello("P", wait=10.0, opener=opener)


def test_a_request_echoed_by_the_repl_is_not_taken_for_its_reply():
    from pipboard.link import Link

    class Stream:
        name = "P"

        def __init__(self):
            self.sent = []

        def write(self, data):
            self.sent.append(data)

        def read(self, timeout):
            if len(self.sent) == 1:  # the REPL echoes the frame, then the game answers it
                self.sent.append(None)
                return self.sent[0].rstrip(b"\n") + b'\r\n{"id": 1, "ok": true, "hello": "pipboard"}\n'
            return b""

    link = Link(Stream())
    link.next_id = 1
    assert link.request("hello", timeout=1.0)["hello"] == "pipboard"
