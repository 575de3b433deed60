"""MQTT clients for scripts/compose-test.sh, connecting from outside over TLS on the published port.

  steady   a phone publishing location fixes at a steady rate (QoS 1, persistent session, reconnects
           by itself) until STOP_FILE exists; then waits until every fix is acknowledged, writes each
           acknowledged fix's ts to OUT, one a line, and publishes one more fix, whose ts it writes to
           OUT.sentinel.
  collect  a subscriber (QoS 1, persistent session, reconnects by itself) writing each message's
           payload to OUT, one a line, until it receives SIGTERM.

Every wait has a generous ceiling; nothing here depends on the machine's speed.
"""
import argparse
import json
import os
import signal
import sys
import threading
import time
from datetime import datetime, timezone

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.packettypes import PacketTypes

CEILING = 300


def client(args, client_id):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    c.username_pw_set(args.user, args.password)
    c.tls_set(ca_certs=args.cafile)
    c.reconnect_delay_set(min_delay=1, max_delay=2)
    c.max_inflight_messages_set(100)
    c.max_queued_messages_set(0)
    return c


def connect(c, args):
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = 3600
    deadline = time.time() + CEILING
    while True:
        try:
            c.connect(args.host, args.port, keepalive=10, clean_start=False, properties=props)
            return
        except OSError as error:
            if time.time() > deadline:
                sys.exit(f"compose_mqtt: cannot connect: {error}")
            time.sleep(1)


def steady(args):
    c = client(args, f"{args.user}-steady")
    acked, published, lock = set(), {}, threading.Lock()
    connected = threading.Event()

    def on_connect(_c, _u, _f, reason, _p):
        if not reason.is_failure:
            connected.set()

    def on_publish(_c, _u, mid, reason, _p):
        with lock:
            ts = published.get(mid)
            if ts is not None and not reason.is_failure:
                acked.add(ts)

    c.on_connect, c.on_publish = on_connect, on_publish
    connect(c, args)
    c.loop_start()
    if not connected.wait(CEILING):
        sys.exit("compose_mqtt: the phone never connected")
    interval, sent, start, last = 1.0 / args.rate, 0, time.time(), 0
    while not os.path.exists(args.stop_file):
        # Each fix its own millisecond (ts is how the test matches events to fixes).
        millis = max(int(time.time() * 1000), last + 1)
        last = millis
        ts = datetime.fromtimestamp(millis / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        body = {"ts": ts, "lat": 48.85 + sent * 1e-6, "lon": 2.35, "acc": 10}
        with lock:
            info = c.publish(f"guardian/devices/{args.user}/location", json.dumps(body), qos=1)
            published[info.mid] = ts
        sent += 1
        time.sleep(max(0.0, start + sent * interval - time.time()))
    deadline = time.time() + CEILING
    while time.time() < deadline:
        with lock:
            if len(acked) >= sent:
                break
        time.sleep(0.2)
    # One more fix after all the others: its event comes after any late redelivery of theirs through
    # the same path, so the caller waits for it before counting.
    sentinel = datetime.fromtimestamp(max(int(time.time() * 1000), last + 1) / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    c.publish(f"guardian/devices/{args.user}/location", json.dumps({"ts": sentinel, "lat": 48.0, "lon": 2.0, "acc": 10}), qos=1).wait_for_publish(CEILING)
    with open(args.out + ".sentinel", "w") as f:
        f.write(sentinel + "\n")
    c.loop_stop()
    with open(args.out, "w") as f:
        for ts in sorted(acked):
            f.write(ts + "\n")
    print(f"phone {args.user}: {sent} fixes sent, {len(acked)} acknowledged", flush=True)


def collect(args):
    c = client(args, f"{args.user}-collect-{args.name}")
    ready = threading.Event()
    out = open(args.out, "a", buffering=1)

    def on_connect(cl, _u, _f, reason, _p):
        if not reason.is_failure:
            for topic in args.topic:
                cl.subscribe(topic, qos=1)

    def on_subscribe(_c, _u, _m, _r, _p):
        ready.set()

    def on_message(_c, _u, message):
        out.write(message.payload.decode("utf-8", "replace").replace("\n", " ") + "\n")

    c.on_connect, c.on_subscribe, c.on_message = on_connect, on_subscribe, on_message
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    connect(c, args)
    c.loop_start()
    if ready.wait(CEILING):
        open(args.out + ".ready", "w").close()
    stop.wait()
    c.loop_stop()
    out.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["steady", "collect"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8883)
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", default=os.environ.get("MQTT_PASSWORD"))
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--stop-file")
    parser.add_argument("--topic", action="append", default=[])
    parser.add_argument("--name", default="events")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    steady(args) if args.mode == "steady" else collect(args)


if __name__ == "__main__":
    main()
