"""The room's broker accounts: Mosquitto's password file and ACL file, written by ``pipboard room --setup-broker``.

A room on a broker that strangers can reach (a club's, on the internet) must
decide who may publish what. ``write_broker_files(folder, room, boards)``
writes, in ``folder``:

* ``accounts.json`` (mode 0600): every account's name and password, what
  ``pipboard room --accounts`` and the director's and spectators' tools read;
* ``passwd``: the same accounts hashed as Mosquitto's ``mosquitto_passwd``
  writes them (``$7$``: PBKDF2-SHA512, 101 rounds, a 12-byte salt), for
  Mosquitto's ``password_file``;
* ``acl``: Mosquitto's ``acl_file``, one account per role (docs/room.md):

  - ``room``: the room's own topics (``status``, its will) and the resync
    requests (the room's page asks for missing events with it); reads all;
  - ``board-NAME``: one per board, the bridge of that board: may publish
    only ``board/NAME/snapshot``, ``events`` and ``match``;
  - ``director``: publishes pairings (``board/+/pairing``); reads all;
  - ``spectator`` (and anonymous clients, where the listener allows them):
    read only;
  - ``player``: remote matches (``pipboard/v1/match/#``), whose every message
    is also signed with the match's own key (``pipboard.remote``);

* ``mosquitto.conf``: a listener on 127.0.0.1:1883 with these two files,
  and the TLS listener for an internet broker, commented out.
"""

import base64
import hashlib
import json
import os
import secrets

from pipboard.room import PREFIX, RoomError, board_account, check_name

ITERATIONS = 101  # mosquitto_passwd's default for $7$ (Mosquitto 2.0)
ROLES = ("room", "director", "spectator", "player")


class AccountsError(RoomError):
    """The accounts file is missing, unreadable or lacks an account."""


def password_hash(password, salt=None):
    """Mosquitto's ``$7$`` hash of ``password`` (what ``mosquitto_passwd`` writes)."""
    salt = salt if salt is not None else os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, ITERATIONS)
    return "$7$%d$%s$%s" % (ITERATIONS, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())


def acl_text(room, boards):
    """Mosquitto's ACL file for ``room`` and its ``boards`` (names)."""
    top = "%s/%s" % (PREFIX, room)
    lines = ["# pipboard room %r: written by pipboard room --setup-broker (docs/room.md)" % room,
             "# anonymous clients (where the listener allows them): read only",
             "topic read %s/#" % top, "",
             "user room", "topic readwrite %s/status" % top, "topic readwrite %s/resync" % top,
             "topic read %s/#" % top, "",
             "user director", "topic write %s/board/+/pairing" % top, "topic read %s/#" % top, "",
             "user spectator", "topic read %s/#" % top, "",
             "user player", "topic readwrite pipboard/v1/match/#", ""]
    for board in boards:
        lines.append("user %s" % board_account(board))
        for leaf in ("snapshot", "events", "match"):
            lines.append("topic write %s/board/%s/%s" % (top, board, leaf))
        lines.append("")
    return "\n".join(lines)


CONF = """# Mosquitto for the pipboard room (docs/room.md); mosquitto -c THIS_FILE
per_listener_settings false
allow_anonymous false
password_file {passwd}
acl_file {acl}

# on the club's own network
listener 1883 127.0.0.1

# on the internet: TLS only (a certificate for the broker's name, e.g. from Let's Encrypt)
#listener 8883
#certfile /etc/letsencrypt/live/BROKER.EXAMPLE.ORG/fullchain.pem
#keyfile /etc/letsencrypt/live/BROKER.EXAMPLE.ORG/privkey.pem
#tls_version tlsv1.2
"""


def _write(path, text, mode=0o644):
    tmp = path + ".part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def write_broker_files(folder, room, boards, keep=True):
    """Write ``accounts.json``, ``passwd``, ``acl`` and ``mosquitto.conf`` in ``folder`` (see module doc); with
    ``keep`` the passwords of an existing ``accounts.json`` stay (a board added keeps the others' passwords).
    Returns the accounts (name -> password)."""
    check_name("room", room)
    for board in boards:
        check_name("board", board)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "accounts.json")
    old = {}
    if keep and os.path.exists(path):
        old = load_accounts(path)["accounts"]
    names = list(ROLES) + [board_account(b) for b in boards]
    accounts = {name: old.get(name) or secrets.token_urlsafe(18) for name in names}
    _write(path, json.dumps({"room": room, "boards": list(boards), "accounts": accounts}, indent=1) + "\n",
           0o600)
    _write(os.path.join(folder, "passwd"),
           "".join("%s:%s\n" % (name, password_hash(accounts[name])) for name in names), 0o640)
    _write(os.path.join(folder, "acl"), acl_text(room, boards))
    _write(os.path.join(folder, "mosquitto.conf"),
           CONF.format(passwd=os.path.abspath(os.path.join(folder, "passwd")),
                       acl=os.path.abspath(os.path.join(folder, "acl"))))
    return accounts


def load_accounts(path):
    """The accounts file written by ``write_broker_files``: ``{"room", "boards", "accounts": {name: password}}``."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        raise AccountsError("cannot read the broker accounts %s: %s" % (path, exc))
    if not isinstance(data, dict) or not isinstance(data.get("accounts"), dict):
        raise AccountsError("%s is not an accounts file of pipboard room --setup-broker" % path)
    return data


def credentials(data, name):
    """``(name, password)`` of an account of ``data`` (``load_accounts``)."""
    password = data["accounts"].get(name)
    if not isinstance(password, str):
        raise AccountsError("the accounts file has no account %r (run pipboard room --setup-broker again with "
                            "every board)" % name)
    return name, password
