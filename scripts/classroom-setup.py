#!/usr/bin/env python3
"""The classroom bench's set-up (issue 46): over the real HTTP API, N
teachers each with a class of M pupils: the teacher signs up, makes the
class and pastes its list; each pupil registers as a player and takes their
name with the class's code. Writes what the load generator needs:
{"classes": [{"token", "class", "pupils": [{"name", "token"}]}]}.

    scripts/classroom-setup.py http://127.0.0.1:PORT CLASSES PUPILS OUT.json
"""
import json
import secrets
import sys
import urllib.request


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"null")


def main():
    base, n_classes, n_pupils, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    run = secrets.token_hex(2)
    classes = []
    for k in range(n_classes):
        teacher = call(base, "POST", "/api/teachers", {"name": f"T{run}c{k}", "password": "a classroom bench"})["token"]
        made = call(base, "POST", "/api/classes", {"name": f"Class {k}"}, teacher)
        names = [f"P{i}" for i in range(n_pupils)]
        call(base, "POST", f"/api/classes/{made['id']}/pupils", {"names": names}, teacher)
        pupils = []
        for i, roster in enumerate(names):
            player = f"b{run}c{k}p{i}"
            token = call(base, "POST", "/api/players", {"name": player})["token"]
            call(base, "POST", f"/api/players/{player}/classes", {"code": made["join_code"], "name": roster}, token)
            pupils.append({"name": player, "token": token})
        classes.append({"token": teacher, "class": made["id"], "pupils": pupils})
    with open(out, "w") as f:
        json.dump({"classes": classes}, f)


if __name__ == "__main__":
    main()
