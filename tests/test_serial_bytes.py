"""Every byte value on the line, through the link: the simulator, or a real board with ``pytest --board PORT``.

On a real board this is the reported failure: a 0x03 in a line used to
raise KeyboardInterrupt in the game loop and a 0x04 soft-rebooted it. With
Ctrl-C off while the game runs, every byte reaches the protocol, and the
board keeps answering.
"""


def _send_raw(link, data):
    link.stream.write(data)


def test_every_byte_value_keeps_the_board_answering(board_link):
    before = board_link.snapshot()
    for b in range(256):
        _send_raw(board_link, bytes((b,)) * 2 + b"\n")
        assert board_link.ping(b) == b  # the error replies to the garbage carry no id: the link skips them
    _send_raw(board_link, bytes(range(256)) + b"\n\x03\x04\x01\x02\x05\n")
    assert board_link.ping("after") == "after"
    after = board_link.snapshot()
    assert after["position_id"] == before["position_id"] and after["phase"] == before["phase"]
    assert after["record_lines"] == before["record_lines"]
