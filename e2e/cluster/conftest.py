"""The cluster under test: HAProxy (scripts/haproxy-config.sh) in front of
three `mindpad serve` instances i1..i3 on loopback, one test database; a
small mindpad.v1 client; the browser helpers of e2e/browser."""
import importlib.util
import json
import os
import pathlib
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

import pytest
import websocket

ROOT = pathlib.Path(os.environ.get("MINDPAD_ROOT", pathlib.Path(__file__).resolve().parents[2]))
BIN = os.environ.get("MINDPAD_BIN", str(ROOT / ".build/debug/mindpad"))
DATABASE_URL = os.environ["DATABASE_URL"]
ARTIFACTS = pathlib.Path(os.environ.get("MINDPAD_ARTIFACTS", ROOT / "e2e/artifacts/cluster"))
N = 3
# A Time Attack race this long gives time to drain and kill mid-race; short races keep the suite quick.
TIME_ATTACK_SECONDS = 15
ADMIN_TOKEN = f"cluster-admin-{uuid.uuid4().hex}"


def free_ports(count):
    """`count` consecutive free ports (the generator numbers the instances from a base port),
    below the kernel's ephemeral range: HAProxy's and the tests' own outgoing connections take
    ports from that range at any moment, and an instance started (or restarted) later on a
    port one of them holds could not listen."""
    try:
        low = int(pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    top = low if low > 12000 + count else 60000
    for _ in range(200):
        base = random.randrange(10000, top - count)
        socks = []
        try:
            for p in range(base, base + count):
                s = socket.socket()
                s.bind(("127.0.0.1", p))
                socks.append(s)
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise RuntimeError("no free ports")


# One port more than the instances: a test adds an instance (i{N+1}).
BASE_PORT = free_ports(N + 2)
LISTEN_PORT = BASE_PORT + N + 1
URL = f"http://127.0.0.1:{LISTEN_PORT}"
# The browser helpers read the app's address when imported.
os.environ["MINDPAD_URL"] = URL
os.environ.setdefault("MINDPAD_ARTIFACTS", str(ARTIFACTS))
_spec = importlib.util.spec_from_file_location("browser_helpers", ROOT / "e2e/browser/conftest.py")
browser_helpers = importlib.util.module_from_spec(_spec)
sys.path.append(str(ROOT / "e2e/browser"))   # its own imports (digits.py)
_spec.loader.exec_module(browser_helpers)
browser = browser_helpers.browser   # the fixture


def wait_for(cond, timeout, what):
    """Polls `cond` until it returns something true; fails naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


def sql(query, **params):
    """Rows of `query` run by psql; `:'name'` in it is the parameter `name`, quoted by psql."""
    args = ["psql", DATABASE_URL, "-XAtq", "-F", "\t", "-v", "ON_ERROR_STOP=1"]
    for k, v in params.items():
        args += ["-v", f"{k}={v}"]
    out = subprocess.run(args, input=query, capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


class Cluster:
    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = {}
        self.logs = {}
        self.stats = str(tmp / "haproxy.sock")
        self.haproxy = None

    def port(self, instance):
        return BASE_PORT + int(instance[1:]) - 1

    def start(self, instance):
        """Starts (or restarts, with the same data dir) one instance and waits for its /healthz."""
        data = self.tmp / f"data-{instance}"
        data.mkdir(exist_ok=True)
        env = dict(os.environ, MINDPAD_INSTANCE=instance, DATABASE_URL=DATABASE_URL,
                   MINDPAD_TIME_ATTACK_SECONDS=str(TIME_ATTACK_SECONDS), MINDPAD_COUNTDOWN_SECONDS="1",
                   MINDPAD_WEATHER_PROVIDER="none", MINDPAD_TRUSTED_PROXIES="127.0.0.1",
                   MINDPAD_DRAIN_SECONDS="60", MINDPAD_ADMIN_TOKEN=ADMIN_TOKEN)
        log = open(ARTIFACTS / f"{instance}.log", "a")
        self.logs[instance] = log
        self.procs[instance] = subprocess.Popen(
            [BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port(instance)), "--web-root", str(ROOT / "web"),
             "--migrations", str(ROOT / "Migrations"), "--data-dir", str(data)],
            env=env, stdout=log, stderr=subprocess.STDOUT)

    def healthz(self, instance):
        """(HTTP status, `status` field) of the instance's /healthz; (None, None) when it does not answer."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port(instance)}/healthz", timeout=2) as r:
                return r.status, json.load(r).get("status")
        except urllib.error.HTTPError as e:
            return e.code, json.load(e).get("status")
        except OSError:
            return None, None

    def drain(self, instance):
        """`POST /api/admin/drain` on the instance itself: (status, body)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port(instance)}/api/admin/drain", method="POST",
                                         headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        with urllib.request.urlopen(request, timeout=5) as r:
            return r.status, json.load(r)

    def wait_healthy(self, instance):
        proc = self.procs[instance]

        def up():
            assert proc.poll() is None, f"{instance} exited with {proc.returncode} (see {ARTIFACTS}/{instance}.log)"
            return self.healthz(instance)[0] == 200
        wait_for(up, 60, f"{instance} to answer /healthz")

    def start_balancer(self, instances=N):
        """Starts HAProxy for i1..i`instances`; when it runs already, reloads it
        the documented way (`haproxy -sf`: the new process takes the port, the
        old one keeps its open connections until they end)."""
        cfg = self.tmp / f"haproxy-{instances}.cfg"
        env = dict(os.environ, HAPROXY_STATS_SOCKET=self.stats, HAPROXY_MAXCONN="2000")
        cfg.write_text(subprocess.run([str(ROOT / "scripts/haproxy-config.sh"), str(instances), str(BASE_PORT), str(LISTEN_PORT)],
                                      env=env, capture_output=True, text=True, check=True).stdout)
        log = self.logs.get("haproxy") or open(ARTIFACTS / "haproxy.log", "a")
        self.logs["haproxy"] = log
        old = [self.haproxy] if self.haproxy else []
        self.old_balancers = getattr(self, "old_balancers", []) + old
        reload = ["-sf", str(old[0].pid)] if old else []
        self.haproxy = subprocess.Popen(["haproxy", "-db", "-f", str(cfg), *reload], stdout=log, stderr=subprocess.STDOUT)

    def states(self):
        """HAProxy's view of each server: {"i1": "UP", "i2": "DOWN", …} (the stats socket's `show stat`)."""
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(self.stats)
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            s.close()
        except OSError:
            return {}
        lines = data.decode().splitlines()
        if not lines:
            return {}
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","))) for line in lines[1:] if line]
        return {r["svname"]: r["status"] for r in rows if r["pxname"] == "instances" and r["svname"].startswith("i")}

    def wait_states(self, want, what):
        return wait_for(lambda: all(self.states().get(k, "").startswith(v) for k, v in want.items()), 15, what)

    def kill(self, instance):
        proc = self.procs[instance]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def stop(self):
        balancers = [("haproxy", p) for p in [self.haproxy, *getattr(self, "old_balancers", [])]]
        for name, proc in list(self.procs.items()) + balancers:
            if proc is None or proc.poll() is not None:
                continue
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in self.logs.values():
            log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        for i in range(1, N + 1):
            c.start(f"i{i}")
        for i in range(1, N + 1):
            c.wait_healthy(f"i{i}")
        c.start_balancer()
        c.wait_states({f"i{i}": "UP" for i in range(1, N + 1)}, "HAProxy to see every instance up")
        yield c
    finally:
        c.stop()


class Player:
    """A mindpad.v1 client through HAProxy: identifies with its token, follows
    `moved` (at most 3 hops, as the web client), keeps every message it got."""

    def __init__(self, prefix):
        self.name = f"{prefix}{uuid.uuid4().hex[:6]}"
        self.token = None
        self.instance = None      # where the current connection is (identified.instance)
        self.first_instance = None
        self.ws = None
        self.seen = []            # every message, in order
        self.moves = []           # the `moved` messages followed

    def connect(self, instance=None):
        query = f"?instance={instance}" if instance else ""
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{LISTEN_PORT}/ws{query}",
                                              subprotocols=["mindpad.v1"], timeout=20)
        self.expect("welcome")
        msg = {"type": "identify", "name": self.name}
        if self.token:
            msg["token"] = self.token
        self.send(msg)
        got = self.expect("identified")
        self.token = got.get("token") or self.token
        self.instance = got.get("instance")
        if self.first_instance is None:
            self.first_instance = self.instance
        return self

    def send(self, msg):
        self.ws.send(json.dumps(msg))

    def recv(self, timeout):
        """The next message, or None at the socket's close."""
        self.ws.settimeout(timeout)
        try:
            raw = self.ws.recv()
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            return None
        if not raw:
            return None
        msg = json.loads(raw)
        self.seen.append(msg)
        return msg

    def expect(self, *types, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.name}: no {types} within {timeout} s (last: {self.seen[-3:]})"
            msg = self.recv(left)
            assert msg is not None, f"{self.name}: connection closed waiting for {types} (last: {self.seen[-3:]})"
            if msg["type"] in types:
                return msg

    def last_index(self, type):
        """Where the last message of `type` is in `seen` (0 if none came)."""
        return max((i for i, m in enumerate(self.seen) if m["type"] == type), default=0)

    def expect_all(self, *types, since=0, timeout=20):
        """Reads until every one of `types` has come since `since` (an index
        of `seen`), in any order: a racer's `result_saved` follows its own
        `finished`, so it may come before or after the room's `standings`."""
        deadline = time.monotonic() + timeout
        while not set(types) <= {m["type"] for m in self.seen[since:]}:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.name}: not all of {types} within {timeout} s (last: {self.seen[-3:]})"
            msg = self.recv(left)
            assert msg is not None, f"{self.name}: connection closed waiting for {types} (last: {self.seen[-3:]})"

    def close_code(self, timeout=30):
        """Reads until the socket closes; returns the close frame's code (None: closed without one)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(deadline - time.monotonic())
            # The raw frames: the library's own reading answers a close
            # frame, which fails when the server has already gone.
            try:
                frame = self.ws.recv_frame()
            except (websocket.WebSocketConnectionClosedException, ConnectionError):
                return None
            if frame.opcode == websocket.ABNF.OPCODE_CLOSE:
                return int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None
            if frame.opcode == websocket.ABNF.OPCODE_TEXT:
                self.seen.append(json.loads(frame.data))
        raise AssertionError(f"{self.name}: the server did not close within {timeout} s")

    def room_request(self, msg):
        """create_room/join_room, following `moved` like the web client; the answer (room or error)."""
        for _ in range(4):
            self.send(msg)
            got = self.expect("room", "moved", "error")
            if got["type"] != "moved":
                return got
            assert len(self.moves) < 3, f"{self.name}: moved more than 3 times: {self.moves}"
            self.moves.append(got)
            self.ws.close()
            self.connect(got["instance"])
        raise AssertionError("unreachable")

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def mindpad_digit(prompt):
    """The hidden digit of a MindPad prompt (lhs, operation, rhs, hidden_position)."""
    a, op, b = prompt["lhs"], prompt["operation"], prompt["rhs"]
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0}[op]
    return str(result)[prompt["hidden_position"]]


def answer(player, count, timeout=20):
    """Answers `count` questions right, typed (keypad); returns the `graded` messages."""
    graded = []
    for _ in range(count):
        q = player.expect("question", timeout=timeout)
        player.send({"type": "submit", "question": q["question"], "answer": mindpad_digit(q["prompt"])})
        graded.append(player.expect("graded", timeout=timeout))
    return graded
