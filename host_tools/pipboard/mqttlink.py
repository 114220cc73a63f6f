"""A broker connection for the room and remote play (paho-mqtt, Eclipse Mosquitto as the broker).

``BrokerLink`` keeps one MQTT connection up for as long as the tool runs:
it reconnects by itself after the broker restarts (every 0.2 to 2 s), and
calls ``on_connect`` after every (re)connection so the caller subscribes
again and republishes its retained state (a broker restarted without
persistence has forgotten both). Payloads are JSON objects.

Broker URLs: ``mqtt://HOST[:PORT]`` (default port 1883), ``mqtts://HOST[:PORT]``
(TLS, default port 8883: the broker's certificate is checked against the
system's certificate authorities, or ``ca``), or ``HOST[:PORT]``. A broker
with accounts (docs/room.md) is given ``username`` and ``password``; a
refused connection (a wrong password) is kept in ``refused`` and said once.
"""

import json
import threading
import time
import uuid

DEFAULT_PORT = 1883
TLS_PORT = 8883


class BrokerError(Exception):
    """The broker URL is wrong, or paho-mqtt is missing."""


def parse_broker(url, with_tls=False):
    """``(host, port)`` for a broker URL (``(host, port, tls)`` with ``with_tls``)."""
    if not url:
        raise BrokerError("name the broker, e.g. --broker mqtt://127.0.0.1:1883")
    text = url
    tls = False
    if "://" in text:
        scheme, _, text = text.partition("://")
        if scheme not in ("mqtt", "tcp", "mqtts", "ssl"):
            raise BrokerError("broker URL %r: use mqtt:// (plain TCP) or mqtts:// (TLS)" % url)
        tls = scheme in ("mqtts", "ssl")
    text = text.rstrip("/")
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(TLS_PORT if tls else DEFAULT_PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BrokerError("broker URL %r is not mqtt://HOST:PORT" % url)
    return (host, int(port), tls) if with_tls else (host, int(port))


def encode(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()


def decode(payload):
    """A JSON object from a payload, or None (bad input from the broker never raises)."""
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


class BrokerLink:
    """One MQTT client, reconnecting by itself (see module doc)."""

    def __init__(self, url, client_name="pipboard", on_connect=None, on_message=None, will=None, username=None,
                 password=None, ca=None, out=None):
        try:
            import paho.mqtt.client as mqtt
        except ImportError as exc:
            raise BrokerError("paho-mqtt is not installed (pip install paho-mqtt; make setup does it): %s" % exc)
        self.host, self.port, tls = parse_broker(url, with_tls=True)
        self.url = "%s://%s:%d" % ("mqtts" if tls else "mqtt", self.host, self.port)
        self.username = username
        self.refused = None  # why the broker refused the connection (a wrong account), said once
        self.out = out
        self.mqtt = mqtt
        self.connected = threading.Event()
        self.connects = 0
        self.on_connect_cb = on_connect
        self.on_message_cb = on_message
        self.last_info = None  # the last publish (stop waits for it)
        client_id = "%s-%s" % (client_name, uuid.uuid4().hex[:10])
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
        self.client.max_queued_messages_set(0)  # keep everything published while the broker is away
        # no in-flight limit: with one, paho 2.2 can leave messages published while the broker was away
        # unsent after the reconnection (its resend loop stops at the first message it had to queue)
        self.client.max_inflight_messages_set(0)
        self.client.reconnect_delay_set(0.2, 2)
        if username is not None:
            self.client.username_pw_set(username, password)
        if tls:
            import ssl

            try:
                self.client.tls_set(ca_certs=ca, cert_reqs=ssl.CERT_REQUIRED)
            except (OSError, ValueError) as exc:
                raise BrokerError("cannot use the certificate authority %s: %s" % (ca, exc))
        elif ca:
            raise BrokerError("--broker-ca is for a TLS broker (mqtts://HOST:PORT)")
        if will is not None:
            self.client.will_set(will[0], encode(will[1]), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self, wait=0.0):
        """Connect in the background; with ``wait`` seconds, wait for the first connection (True if up)."""
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()
        if wait:
            return self.connected.wait(wait)
        return True

    def stop(self, flush_s=3.0):
        """Disconnect, after what was published is with the broker (at most ``flush_s`` seconds)."""
        last = self.last_info
        if last is not None and self.connected.is_set():
            try:
                last.wait_for_publish(flush_s)  # QoS 1 in order: the last acknowledged, all are
            except (RuntimeError, ValueError):
                pass
        try:
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            why = "the broker %s refused %s: %s" % (self.url, "the account %r" % self.username if self.username
                                                     else "a client without an account", reason_code)
            if why != self.refused:
                self.refused = why
                import sys

                (self.out or sys.stderr).write("pipboard: %s\n" % why)
            return
        self.refused = None
        self.connects += 1
        self.connected.set()
        if self.on_connect_cb is not None:
            self.on_connect_cb(self)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()

    def _on_message(self, client, userdata, msg):
        if self.on_message_cb is None:
            return
        obj = decode(msg.payload) if msg.payload else {}
        if obj is None:
            return  # not JSON: someone else's message on our topics
        try:
            self.on_message_cb(msg.topic, obj, bool(msg.retain))
        except Exception as exc:  # a bad message must not stop the network thread
            import sys

            sys.stderr.write("pipboard: message on %s not handled: %r\n" % (msg.topic, exc))

    def subscribe(self, topic, qos=1):
        self.client.subscribe(topic, qos)

    def publish(self, topic, obj, retain=False, qos=1):
        """Publish a JSON object; queued while the broker is away (QoS 1: at least once)."""
        payload = b"" if obj is None else encode(obj)
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        self.last_info = info
        return info

    def wait_connected(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected.wait(0.1):
                return True
        return False
