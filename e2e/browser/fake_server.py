"""A scripted stand-in for the MindPad server, for what the real one cannot
be made to send: other players' names it would refuse (it only allows
letters, digits, spaces, _ and -), and a catalog of several games (only
MindPad is registered in production). Serves web/ under a strict CSP, a tiny
JSON API (recording every request), and a WebSocket (RFC 6455, text frames
only) that answers the client's messages from a script and records them.

The scripted `quick_pick` game follows the toy kind the server's own tests
register: prompt {"options": [int, int, int], "instruction": "Tap the
largest"}, answer {"option_index": n}."""
import base64
import hashlib
import secrets
import json
import pathlib
import socket
import struct
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"
CSP = ("default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; style-src 'self'; "
       "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none';form-action 'self';")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


def send_frame(sock, obj):
    data = json.dumps(obj).encode()
    head = bytes([0x81])
    if len(data) < 126:
        head += bytes([len(data)])
    elif len(data) < 65536:
        head += bytes([126]) + struct.pack(">H", len(data))
    else:
        head += bytes([127]) + struct.pack(">Q", len(data))
    sock.sendall(head + data)


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError
        buf += chunk
    return buf


def recv_frame(sock):
    b0, b1 = recv_exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", recv_exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack(">Q", recv_exact(sock, 8))[0]
    mask = recv_exact(sock, 4) if b1 & 0x80 else b"\0\0\0\0"
    data = bytes(c ^ mask[i % 4] for i, c in enumerate(recv_exact(sock, n)))
    return b0 & 0x0F, data


MINDPAD = {"id": "mindpad", "names": {"en": "MindPad", "zh": "心算板"}, "modes": ["normal", "survival", "time_attack"],
           "normal_length": 10, "answer_input": "drawn_digit", "board_order": "higher_first"}
QUICK_PICK = {"id": "quick_pick", "names": {"en": "Quick Pick", "zh": "快选"}, "modes": ["normal", "time_attack"],
              "normal_length": 5, "answer_input": "choice", "board_order": "higher_first"}
# Two of the real catalog's entries (GET /api/games): a kids' game finds its
# client module by its `group`, never by the shape of its id.
KIDS = [{"id": game, "names": {"en": name, "zh": name}, "modes": ["normal"], "normal_length": 10,
         "answer_input": "choice_or_digit", "board_order": "higher_first", "group": "kids", "pass_mark": 8,
         "levels": [{"level": 1, "name": {"en": "Ant", "zh": "蚂蚁"}}]}
        for game, name in (("kids_counting", "Counting"), ("kids_positions", "Positions"))]
ADDONE = {"id": "addone", "names": {"en": "Add-One", "zh": "加一"}, "modes": ["normal", "survival", "time_attack"],
          "normal_length": 10, "answer_input": "drawn_number", "board_order": "higher_first", "plays_with_fish": True}
QUICK_PICK_PROMPT = {"options": [3, 11, 7], "instruction": "Tap the largest"}
SIGNS = {"+": "+", "-": "−", "*": "×", "/": "÷"}


def mindpad_prompt(lhs, op, rhs):
    """A MindPad prompt whose one-digit result is hidden (`4 × 2 = ?`), and that digit."""
    result = {"+": lhs + rhs, "-": lhs - rhs, "*": lhs * rhs, "/": lhs // rhs}[op]
    assert 0 <= result <= 9
    return {"text": f"{lhs} {SIGNS[op]} {rhs} = ?", "ascii_text": f"{lhs} {op} {rhs} = ?", "lhs": lhs, "operation": op,
            "rhs": rhs, "masked_result": "?", "hidden_position": 0, "difficulty": 1}, result


CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ISSUED_TOKEN = "f" * 64   # the token every `identify` of a new name gets here


class FakeServer:
    def __init__(self, hostile="Other", games=(MINDPAD,), run=None, board_empty=False):
        self.hostile = hostile
        # A scripted solo MindPad run: [(lhs, op, rhs, read)], `read` the digit this "recognizer"
        # reads from whatever is drawn (a misread on purpose when it is not the result).
        self.run = run
        self.run_state = {}
        self.races = {}       # GET /api/races/{race}: race id -> payload (contract §5)
        self.games = None if games is None else list(games)   # None: /api/games answers 503
        self.board_empty = board_empty
        self.spectate_mode = "time_attack"   # the mode of room WTCH's race
        self.requests = []    # HTTP paths asked for, with their queries
        self.posts = []       # (path, Authorization header, JSON body) of every POST
        self.received = []    # WebSocket messages from the client
        self.sockets = []     # open WebSocket connections (drop() closes them: a server restart)
        # One-time sign-in codes (docs/openapi.yaml, issue 19): code → {name, used, expired}.
        self.codes = {}
        self.device_tokens = []   # tokens handed out by POST /api/sign_in
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.split("?", 1)[0]
                fake.requests.append(self.path)
                if path == "/api/games":
                    if fake.games is None:
                        return self.json({"error": "unavailable", "message": "down"}, 503)
                    return self.json({"games": fake.games})
                if path == "/ws":
                    return fake.websocket(self)
                if path.startswith("/api/races/"):
                    race = path[len("/api/races/"):]
                    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", race):
                        return self.json({"error": "bad_race", "message": "bad race id"}, 400)
                    if race not in fake.races:
                        return self.json({"error": "unknown_race", "message": "no such race"}, 404)
                    return self.json(fake.races[race])
                if path.startswith("/replay/"):
                    path = "/index.html"   # the client routes on location.pathname
                if path.startswith("/api/leaderboard"):
                    return self.json(fake.leaderboard())
                if path.startswith("/api/players/") and path.endswith("/assignments"):
                    return self.json({"assignments": []})   # a player in no class (issue 46)
                if path.startswith("/api/players/") and path.endswith("/classes"):
                    return self.json({"classes": []})
                if path.startswith("/api/players/"):
                    game = fake.game(self.path)
                    return self.json({"name": "Me", "created_at": "2026-01-01T00:00:00Z", "game": game["id"], "recent": [],
                                      "highscores": {m: {"score": 0} for m in game["modes"]}})
                file = (WEB / (path.lstrip("/") or "index.html")).resolve()
                if WEB not in file.parents or not file.is_file():
                    self.send_error(404)
                    return
                body = file.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", TYPES.get(file.suffix, "application/octet-stream"))
                self.send_header("Content-Security-Policy", CSP)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                path = self.path.split("?", 1)[0]
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                fake.posts.append((path, self.headers.get("Authorization"), body))
                if path.startswith("/api/players/") and path.endswith("/sign_in_codes"):
                    name = path[len("/api/players/"):-len("/sign_in_codes")]
                    if self.headers.get("Authorization") != f"Bearer {ISSUED_TOKEN}":
                        return self.json({"error": "wrong_token", "message": "wrong token"}, 401)
                    code = fake.new_code(name)
                    return self.json({"code": code, "expires_at": "2099-01-01T00:00:00.000Z",
                                      "link": f"/?sign_in={code}"}, 201)
                if path == "/api/sign_in":
                    return self.json(*fake.redeem(body))
                self.send_error(404)

            def json(self, obj, status=200):
                body = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def new_code(self, name, expired=False):
        """A fresh code for `name` (8 letters of the contract's alphabet), valid once."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
        self.codes[code] = {"name": name, "used": False, "expired": expired}
        return code

    def redeem(self, body):
        """POST /api/sign_in: (JSON, status) as the contract says (§6)."""
        raw = body.get("code") if isinstance(body, dict) else None
        if not isinstance(raw, str):
            return {"error": "bad_sign_in_code", "message": "code missing"}, 400
        code = raw.upper().replace(" ", "").replace("-", "")
        if len(code) != 8 or any(c not in CODE_ALPHABET for c in code):
            return {"error": "bad_sign_in_code", "message": "not a code"}, 400
        entry = self.codes.get(code)
        if entry is None:
            return {"error": "unknown_sign_in_code", "message": "unknown code"}, 404
        if entry["used"]:
            return {"error": "sign_in_code_used", "message": "used"}, 410
        if entry["expired"]:
            return {"error": "sign_in_code_expired", "message": "expired"}, 410
        entry["used"] = True
        token = f"{len(self.device_tokens) + 1:064x}"
        self.device_tokens.append(token)
        return {"name": entry["name"], "token": token}, 200

    def drop(self):
        """Closes every WebSocket, as a server restart does."""
        for sock in list(self.sockets):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def game(self, path):
        """The catalog entry a request names with ?game= (MindPad without one)."""
        query = path.split("?", 1)[1] if "?" in path else ""
        wanted = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("game", "mindpad")
        return next((g for g in self.games if g["id"] == wanted), MINDPAD)

    def leaderboard(self):
        entry = lambda rank, name, score: {"rank": rank, "name": name, "score": score, "time_ms": 61000,
                                           "achieved_at": "2026-01-01T00:00:00Z"}
        if self.board_empty:
            return {"mode": "normal", "period": "all", "period_start": "1970-01-01", "entries": []}
        return {"mode": "normal", "period": "all", "period_start": "1970-01-01",
                "entries": [entry(1, self.hostile, 99), entry(2, "Me", 50)], "me": entry(2, "Me", 50)}

    def room(self, phase, members_ready=True, game="mindpad", mode="normal", solo=False):
        members = [{"player_id": "p1", "name": "Me", "role": "racer", "ready": False, "connected": True, "host": True}]
        if not solo:
            members.append({"player_id": "p2", "name": self.hostile, "role": "racer", "ready": members_ready,
                            "connected": True, "host": False})
        return {"game": game, "round": 1, "mode": mode, "phase": phase, "host": "p1", "max_players": 1 if solo else 8,
                "members": members}

    def websocket(self, handler):
        key = handler.headers["Sec-WebSocket-Key"]
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        handler.send_response(101)
        handler.send_header("Upgrade", "websocket")
        handler.send_header("Connection", "Upgrade")
        handler.send_header("Sec-WebSocket-Accept", accept)
        handler.send_header("Sec-WebSocket-Protocol", "mindpad.v1")
        handler.end_headers()
        handler.wfile.flush()
        sock = handler.connection
        sock.settimeout(None)
        self.sockets.append(sock)
        send = lambda obj: send_frame(sock, obj)
        racers = lambda status: [
            {"player_id": "p1", "name": "Me", "question_index": 0, "score": 0, "correct": 0, "wrong": 0, "status": status},
            {"player_id": "p2", "name": self.hostile, "question_index": 1, "score": 3, "correct": 1, "wrong": 0, "status": "playing"},
        ]
        send({"type": "welcome", "protocol": "mindpad.v1", "limits": {}})
        room = {}
        try:
            while True:
                op, data = recv_frame(sock)
                if op == 8:
                    return
                if op != 1:
                    continue
                msg = json.loads(data)
                self.received.append(msg)
                kind = msg.get("type")
                if self.run is not None and room.get("max_players") == 1 and kind in ("start", "points", "clear", "undo", "submit"):
                    self.scripted_run(send, msg, room)
                    continue
                if room.get("game") == "quick_pick" and kind in ("start", "submit"):
                    self.quick_pick(send, msg, room)
                    continue
                if kind == "identify":
                    reply = {"type": "identified", "player_id": "p1", "name": msg["name"], "new": "token" not in msg}
                    if "token" not in msg:
                        reply["token"] = ISSUED_TOKEN
                    send(reply)
                elif kind == "join_room" and msg.get("code") == "WTCH":
                    self.spectate(send)
                elif kind == "create_room":
                    room = self.room("lobby", game=msg.get("game", "mindpad"), mode=msg["mode"],
                                     solo=msg.get("max_players") == 1)
                    send({"type": "room", "code": "KBRW", "you": "p1", "room": room})
                elif kind == "start":
                    send({"type": "countdown", "round": 1, "starts_in_ms": 0})
                    send({"type": "race_started", "round": 1, "mode": "normal"})
                    send({"type": "question", "question": "r1q0", "prompt": {
                        "text": "4 × 2 = ?", "ascii_text": "4 * 2 = ?", "lhs": 4, "operation": "*", "rhs": 2,
                        "masked_result": "?", "hidden_position": 0, "difficulty": 1}})
                    send({"type": "progress", "round": 1, "mode": "normal", "racers": racers("playing")})
                elif kind == "points":
                    send({"type": "guess", "question": "r1q0", "digit": 8, "confidence": 0.9, "points": 1})
                elif kind == "submit":
                    send({"type": "graded", "question": "r1q0", "answer": 8, "confidence": 0.9, "correct": True,
                          "expected": 8, "points": 3, "score": 3, "run_over": True})
                    result = {"player_id": "p1", "name": "Me", "score": 3, "correct": 1, "wrong": 0, "answered": 1,
                              "duration_ms": 4000, "score_reached_ms": 4000, "completed": True, "race": "w8r4c3z9t2qa"}
                    answers = [{"seq": 0, "question": "r1q0", "prompt": {"text": "4 × 2 = ?", "lhs": 4, "operation": "*",
                                "rhs": 2, "masked_result": "?", "hidden_position": 0}, "answer": 8, "expected": 8,
                                "correct": True, "points": 3, "input": "drawn", "confidence": 0.9, "asked_ms": 0,
                                "answered_ms": 4000}]
                    send({"type": "finished", "result": dict(result, answers=answers)})
                    other = dict(result, player_id="p2", name=self.hostile, score=9, duration_ms=9000)
                    send({"type": "standings", "round": 1, "mode": "normal", "race": "w8r4c3z9t2qa",
                          "entries": [dict(other, rank=1), dict(result, rank=2)]})
                    send({"type": "room_updated", "code": "KBRW", "room": dict(room, phase="finished")})
                elif kind == "leave_room":
                    send({"type": "left_room", "code": "KBRW"})
        except (ConnectionError, OSError):
            return
        finally:
            if sock in self.sockets:
                self.sockets.remove(sock)

    def spectate(self, send):
        """Joining room WTCH: a running race of Ann (leading) and the hostile name (who left),
        watched by this client (contract §3: `spectating` after `room`)."""
        mode = self.spectate_mode
        members = [{"player_id": "p1", "name": "Ann", "role": "racer", "ready": True, "connected": True, "host": True},
                   {"player_id": "p2", "name": self.hostile, "role": "racer", "ready": True, "connected": False, "host": False},
                   {"player_id": "p3", "name": "Me", "role": "spectator", "ready": False, "connected": True, "host": False}]
        room = {"game": "mindpad", "round": 1, "mode": mode, "phase": "running", "host": "p1", "max_players": 2,
                "members": members, "ends_in_ms": 60000 if mode == "time_attack" else None}
        progress = {"type": "progress", "round": 1, "mode": mode, "racers": [
            {"player_id": "p1", "name": "Ann", "question_index": 4, "score": 4, "correct": 4, "wrong": 0, "status": "playing"},
            {"player_id": "p2", "name": self.hostile, "question_index": 2, "score": 1, "correct": 1, "wrong": 1,
             "status": "abandoned"}]}
        send({"type": "room", "code": "WTCH", "you": "p3", "room": room, "progress": progress})
        send({"type": "spectating", "round": 1, "question_index": 4, "racer": "p1", "prompt": {
            "text": "47 + 38 = 8?", "ascii_text": "47 + 38 = 8?", "lhs": 47, "operation": "+", "rhs": 38,
            "masked_result": "8?", "hidden_position": 1, "difficulty": 2}})

    RUN_RACE = "k3v9q2m7x1cd"

    def scripted_run(self, send, msg, room):
        """A solo Normal MindPad run of `self.run`'s questions, in the contract's shapes: race ids,
        `finished.result.answers` (§2), and afterwards the race at GET /api/races/{race} with
        the strokes as received (§5)."""
        st = self.run_state
        kind = msg["type"]
        if kind == "start":
            st.clear()
            st.update(index=0, started=time.monotonic(), asked=0, strokes={}, answers=[], score=0)
            send({"type": "countdown", "round": 1, "starts_in_ms": 0})
            send({"type": "race_started", "round": 1, "mode": "normal", "race": self.RUN_RACE})
            self.ask(send)
            return
        i = st["index"]
        qid = f"r1q{i}"
        lhs, op, rhs, read = self.run[i]
        if kind == "clear":
            st["strokes"][qid] = []
            return
        if kind == "undo":
            strokes = st["strokes"].get(qid) or []
            if msg.get("question") == qid and strokes and msg.get("stroke") == len(strokes) - 1:
                strokes.pop()
            return
        if kind == "points":
            if msg.get("question") != qid:
                return
            strokes = st["strokes"].setdefault(qid, [])
            while len(strokes) <= msg["stroke"]:
                strokes.append([])
            strokes[msg["stroke"]].extend(msg["points"])
            send({"type": "guess", "question": qid, "digit": read, "confidence": 0.93, "points": sum(map(len, strokes))})
            return
        prompt, expected = mindpad_prompt(lhs, op, rhs)
        correct = read == expected
        points = 3 if correct else 0
        st["score"] += points
        last = i == len(self.run) - 1
        answered = int((time.monotonic() - st["started"]) * 1000)
        st["answers"].append({"seq": i, "question": qid, "prompt": prompt, "answer": read, "expected": expected,
                              "correct": correct, "points": points, "input": "drawn", "confidence": 0.93,
                              "asked_ms": st["asked"], "answered_ms": answered,
                              "strokes": st["strokes"].get(qid) or None})
        send({"type": "graded", "question": qid, "answer": read, "confidence": 0.93, "correct": correct,
              "expected": expected, "points": points, "score": st["score"], "run_over": last})
        if not last:
            st["index"] = i + 1
            st["asked"] = answered
            self.ask(send)
            return
        answers = st["answers"]
        right = sum(a["correct"] for a in answers)
        result = {"player_id": "p1", "name": "Me", "score": st["score"], "correct": right, "wrong": len(answers) - right,
                  "answered": len(answers), "duration_ms": answered, "score_reached_ms": answered, "completed": True,
                  "race": self.RUN_RACE, "answers": [{k: v for k, v in a.items() if k != "strokes"} for a in answers]}
        self.races[self.RUN_RACE] = {
            "race": self.RUN_RACE, "game": "mindpad", "mode": "normal", "room": "KBRW",
            "racers": [{"name": "Me", "score": st["score"], "correct": right, "answered": len(answers),
                        "duration_ms": answered, "finished_at": "2026-11-23T16:00:00.000Z", "completed": True,
                        "answers": answers}]}
        send({"type": "finished", "result": result})
        send({"type": "standings", "round": 1, "mode": "normal", "race": self.RUN_RACE, "entries": [
            dict({k: v for k, v in result.items() if k != "answers"}, rank=1)]})
        send({"type": "result_saved", "round": 1, "mode": "normal", "game": "mindpad", "stored": "database",
              "personal_best": False})

    def ask(self, send):
        st = self.run_state
        lhs, op, rhs, _ = self.run[st["index"]]
        send({"type": "question", "question": f"r1q{st['index']}", "prompt": mindpad_prompt(lhs, op, rhs)[0]})

    def quick_pick(self, send, msg, room):
        """A solo quick_pick run of one question: option 1 (11) is the largest."""
        if msg["type"] == "start":
            send({"type": "countdown", "round": 1, "starts_in_ms": 0})
            send({"type": "race_started", "round": 1, "mode": room["mode"]})
            send({"type": "question", "question": "r1q0", "prompt": QUICK_PICK_PROMPT})
            return
        answer = msg.get("answer", {})
        correct = answer == {"option_index": 1}
        send({"type": "graded", "question": "r1q0", "answer": answer, "correct": correct,
              "expected": {"option_index": 1}, "points": 1 if correct else 0, "score": 1 if correct else 0,
              "run_over": True})
        result = {"player_id": "p1", "name": "Me", "score": 1 if correct else 0, "correct": 1 if correct else 0,
                  "wrong": 0 if correct else 1, "answered": 1, "duration_ms": 2500, "score_reached_ms": 2500,
                  "completed": True, "race": "q9p1c7k2m4xe"}
        answers = [{"seq": 0, "question": "r1q0", "prompt": QUICK_PICK_PROMPT, "answer": answer, "correct": correct,
                    "expected": {"option_index": 1}, "points": 1 if correct else 0, "input": "tap",
                    "asked_ms": 0, "answered_ms": 2500}]
        send({"type": "finished", "result": dict(result, answers=answers)})
        send({"type": "standings", "round": 1, "mode": room["mode"], "race": "q9p1c7k2m4xe", "entries": [dict(result, rank=1)]})
        send({"type": "result_saved", "round": 1, "mode": room["mode"], "game": "quick_pick", "stored": "database",
              "personal_best": True})
