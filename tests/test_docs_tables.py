"""The reference tables of the docs agree with the code and with themselves.

* docs/protocol.md lists every command of the protocol's table (``pipcore.protocol.COMMANDS``) exactly
  once, says "test mode only" for exactly the test-mode ones (``TEST_ONLY``), and its ``inject`` row names
  every kind the bridge takes and every button of the controller's list (``pipcore.names.BUTTONS``);
* no table of docs/protocol.md or docs/controller.md has a row twice (the same first cell), and
  docs/controller.md says once what the long presses do.
"""

import os
import re

from pipcore.names import BUTTONS
from pipcore.protocol import COMMANDS, TEST_ONLY

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs")


def read(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


def tables(text):
    """Every markdown table of ``text``: a list of (header cells, [row cells...])."""
    out = []
    rows = None
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = [cells]
            elif not re.match(r"^-+$", cells[0]):
                rows.append(cells)
        elif rows is not None:
            out.append((rows[0], rows[1:]))
            rows = None
    return out


def command_rows():
    found = [rows for header, rows in tables(read("protocol.md")) if header[:2] == ["`cmd`", "Arguments"]]
    assert len(found) == 1, "docs/protocol.md should have one command table"
    return [(row[0].strip("`"), row) for row in found[0]]


def test_protocol_md_lists_every_command_once():
    names = [name for name, _ in command_rows()]
    twice = sorted(set(n for n in names if names.count(n) > 1))
    assert not twice, "docs/protocol.md lists these commands more than once: %s" % twice
    assert sorted(names) == sorted(COMMANDS), "missing from docs/protocol.md: %s; not in the protocol: %s" % (
        sorted(set(COMMANDS) - set(names)), sorted(set(names) - set(COMMANDS)))


def test_protocol_md_marks_the_test_mode_commands():
    for name, row in command_rows():
        marked = "test mode only" in row[-1]
        assert marked == (name in TEST_ONLY), "%s: 'test mode only' %s" % (
            name, "missing" if name in TEST_ONLY else "written for a command any host may send")


def test_the_inject_row_names_every_kind_and_button():
    (row,) = [row for name, row in command_rows() if name == "inject"]
    for kind in ("sensor", "button", "press", "switch"):
        assert "`%s`" % kind in row[1] and "`%s`:" % kind in row[-1], kind
    for button in BUTTONS:
        assert re.search(r"\b%s\b" % button, row[-1]), "the inject row does not name the button %s" % button


def test_no_table_of_the_docs_repeats_a_row():
    for name in ("protocol.md", "controller.md"):
        for header, rows in tables(read(name)):
            firsts = [row[0] for row in rows]
            twice = sorted(set(f for f in firsts if firsts.count(f) > 1))
            assert not twice, "%s: the table %r has these rows twice: %s" % (name, header[0], twice)


def test_controller_md_says_once_what_the_long_presses_do():
    text = read("controller.md")
    assert text.count("Long presses:") == 1
    said = text[text.index("Long presses:"):].split("\n\n")[0]
    assert "`menu` opens the board's menu" in said and "toggles" not in said
    assert "`drop` offers to resign" in said
