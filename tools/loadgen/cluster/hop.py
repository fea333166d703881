#!/usr/bin/env python3
"""The HAProxy hop's own latency: round trips on two WebSockets to the same
instance, one straight and one through HAProxy, alternated so that both see
the same machine load (docs/scaling.md).

usage: hop.py DIRECT_PORT HAPROXY_PORT [ROUND_TRIPS]

A round trip is a `ready` outside a room and its `not_in_lobby` error: one
message each way, no database. The instance must allow the rate
(MINDPAD_MESSAGES_PER_SECOND=100000 MINDPAD_MESSAGE_BURST=100000). Needs
websocket-client (.venv-e2e has it).
"""
import json
import statistics
import sys
import time
import uuid

import websocket


def connect(port):
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", subprotocols=["mindpad.v1"], timeout=10)
    json.loads(ws.recv())  # welcome
    ws.send(json.dumps({"type": "identify", "name": f"hop{uuid.uuid4().hex[:8]}"}))
    while json.loads(ws.recv())["type"] != "identified":
        pass
    return ws


def round_trip(ws):
    t = time.perf_counter_ns()
    ws.send('{"type":"ready","ready":true}')
    ws.recv()
    return (time.perf_counter_ns() - t) / 1e6


def main():
    direct_port, proxy_port = int(sys.argv[1]), int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    direct, proxied = connect(direct_port), connect(proxy_port)
    for _ in range(200):  # warm-up
        round_trip(direct), round_trip(proxied)
    a, b = [], []
    for _ in range(n):
        a.append(round_trip(direct))
        b.append(round_trip(proxied))

    def pct(xs, p):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(len(xs) * p / 100))]
    out = {"round_trips": n}
    for name, xs in (("direct", a), ("haproxy", b)):
        out[name] = {"p50_ms": round(pct(xs, 50), 3), "p99_ms": round(pct(xs, 99), 3), "mean_ms": round(statistics.mean(xs), 3)}
    out["added_p50_ms"] = round(out["haproxy"]["p50_ms"] - out["direct"]["p50_ms"], 3)
    out["added_p99_ms"] = round(out["haproxy"]["p99_ms"] - out["direct"]["p99_ms"], 3)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
