"""Fuzz the firmware's frame parser under CPython.

The seeded generator (tests/mp/protocol_fuzz.py) checks every frame against an
independent reference: one reply per frame, an error exactly for bad frames,
the game untouched by a refused frame. ``make test`` runs 100,000 frames;
``make soak`` runs 1,000,000 (about 40 s of CPU). Hypothesis adds arbitrary
byte strings and JSON documents on top.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipcore import protocol
from protocol_fuzz import RecordingApp, reference_ok, run


def test_fuzz_100k_frames():
    frames, errors = run(50_000, seed=11, test_mode=False)
    assert frames == 50_000 and 0 < errors < frames
    frames, errors = run(50_000, seed=12, test_mode=True)
    assert frames == 50_000 and 0 < errors < frames


@pytest.mark.soak
def test_fuzz_one_million_frames():
    total = 0
    for seed in range(10):
        frames, _ = run(100_000, seed=1000 + seed, test_mode=bool(seed & 1))
        total += frames
    assert total == 1_000_000


def _one_reply(frame, test_mode=False):
    app = RecordingApp()
    out = []
    handler = protocol.ProtocolHandler(app, out.append, "fuzz", {}, test_mode=test_mode)
    handler.feed(frame + b"\n")
    return app, [json.loads(line) for line in out]


@settings(max_examples=3000, deadline=None)
@given(st.binary(max_size=1200).filter(lambda b: b"\n" not in b))
def test_arbitrary_bytes(frame):
    app, out = _one_reply(frame)
    if frame.rstrip(b"\r") == b"" and len(frame) <= 1:
        assert out == []
        return
    assert len(out) == 1
    if not out[0]["ok"]:
        assert app.calls == []
    assert out[0]["ok"] == bool(reference_ok(frame, False))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
commands = st.sampled_from(protocol.COMMANDS + ("nope", ""))
arg_names = st.sampled_from(("position_id", "match_id", "play", "action", "offset", "dice", "kind", "index", "value",
                             "variant", "options", "data", "x"))


@settings(max_examples=800, deadline=None)
@given(commands, st.dictionaries(arg_names, json_values, max_size=4), st.booleans(),
       st.one_of(st.none(), st.integers(), st.text(max_size=50)))
def test_structured_commands(cmd, args, test_mode, request_id):
    msg = dict(args, cmd=cmd)
    if request_id is not None:
        msg["id"] = request_id
    frame = json.dumps(msg).encode()
    app, out = _one_reply(frame, test_mode)
    assert len(out) == 1
    assert out[0]["ok"] == bool(reference_ok(frame, test_mode)), (msg, out)
    if not out[0]["ok"]:
        assert app.calls == []
        assert out[0]["error"] != protocol.E_INTERNAL, out
