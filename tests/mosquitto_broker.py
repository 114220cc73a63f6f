"""Eclipse Mosquitto (Debian ``mosquitto``) on a free loopback port, for the room and remote-play tests.

``Mosquitto()`` writes a config into a temporary folder (a plain MQTT
listener on 127.0.0.1 and, with ``websockets=True``, a WebSocket listener),
starts ``/usr/sbin/mosquitto`` and waits until it accepts connections.
``kill()`` stops it at once (SIGKILL: nothing saved), ``start()`` starts it
again on the same port. ``Mosquitto(accounts=DIR)`` uses the password file and
the ACL file ``pipboard room --setup-broker DIR`` wrote (no anonymous clients);
``tls=True`` adds a TLS listener (``tls_url``, mqtts://localhost:PORT) with a
certificate made here by openssl for localhost, whose file is ``ca``.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    def __init__(self, websockets=False, accounts=None, tls=False):
        if not os.path.exists(MOSQUITTO):
            raise RuntimeError("mosquitto is not installed (Debian package 'mosquitto'; make setup installs it)")
        self.dir = tempfile.mkdtemp(prefix="pipboard-mosquitto-")
        self.port = free_port()
        self.ws_port = free_port() if websockets else None
        self.url = "mqtt://127.0.0.1:%d" % self.port
        lines = ["per_listener_settings false", "listener %d 127.0.0.1" % self.port, "persistence false",
                 "max_queued_messages 100000", "log_dest file %s" % os.path.join(self.dir, "mosquitto.log")]
        import pwd

        # the files are the tests' user's (0600): run as that user (as root, mosquitto drops to 'mosquitto')
        lines.append("user %s" % pwd.getpwuid(os.geteuid()).pw_name)
        if accounts:
            lines += ["allow_anonymous false",
                      "password_file %s" % os.path.join(accounts, "passwd"),
                      "acl_file %s" % os.path.join(accounts, "acl")]
        else:
            lines.append("allow_anonymous true")
        if websockets:
            lines += ["listener %d 127.0.0.1" % self.ws_port, "protocol websockets"]
        self.tls_url = self.ca = None
        if tls:
            self.ca = os.path.join(self.dir, "cert.pem")
            key = os.path.join(self.dir, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out",
                            self.ca, "-days", "2", "-subj", "/CN=localhost", "-addext",
                            "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            tls_port = free_port()
            self.tls_url = "mqtts://localhost:%d" % tls_port
            lines += ["listener %d 127.0.0.1" % tls_port, "certfile %s" % self.ca, "keyfile %s" % key]
        self.config = os.path.join(self.dir, "mosquitto.conf")
        with open(self.config, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.proc = None
        self.start()

    def start(self, timeout=10.0):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.config], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("mosquitto stopped at start: %s" % self.log()[-2000:])
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen on %d" % self.port)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def restart(self):
        self.kill()
        self.start()

    def cpu_seconds(self):
        """User + system CPU time the broker process has used (from /proc)."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log(self):
        try:
            with open(os.path.join(self.dir, "mosquitto.log")) as f:
                return f.read()
        except OSError:
            return ""

    def close(self):
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
