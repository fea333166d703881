"""Issue 21's scenario on loopback: rooms routed to their owner through
HAProxy, one session per player across instances, one instance drained and
another SIGKILLed mid-race, every result counted in PostgreSQL, the third
instance's race untouched."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import N, Player, answer, browser_helpers as bh, sql, wait_for

INSTANCES = {f"i{i}" for i in range(1, N + 1)}


def results_by_name(names):
    """{name: number of stored results} for these players (0 for none)."""
    rows = sql("SELECT p.name, count(g.result_id) FROM players p LEFT JOIN game_results g ON g.player_id = p.id "
               "WHERE p.name = ANY (string_to_array(:'names', ',')) GROUP BY p.name;", names=",".join(names))
    got = {name: int(n) for name, n in rows}
    return {name: got.get(name, 0) for name in names}


def ready_all(host, others, size):
    """Every other racer says ready; returns once the host's lobby shows `size` members, the others all ready."""
    for p in others:
        p.send({"type": "ready", "ready": True})

    def lobby_ready():
        msg = host.expect("room_updated", "room")
        members = msg["room"]["members"]
        return len(members) == size and all(m["ready"] and m["connected"] for m in members if not m["host"])
    wait_for(lobby_ready, 30, f"{size} members ready in {host.name}'s lobby")


def join_by_link(drv, code, prefix):
    """A player opens the invite link in Chromium (through HAProxy), names themself and is ready."""
    name = bh.unique_name(prefix)
    bh.open_app(drv, f"/?room={code}")
    bh.onboard(drv, name)
    bh.wait_scene(drv, "lobby", 20)
    assert bh.el(drv, "#lobby-code").text == code
    bh.el(drv, "#lobby-ready").click()
    return name


def create_on(instance, mode, prefix, drv=None):
    """Two racers connected straight to `instance` (?instance=), a room of `mode`
    there (and a third in Chromium by its link), ready to start."""
    a, b = Player(prefix + "a").connect(instance), Player(prefix + "b").connect(instance)
    assert a.instance == b.instance == instance
    room = a.room_request({"type": "create_room", "mode": mode})
    assert room["type"] == "room" and not a.moves, room
    got = b.room_request({"type": "join_room", "code": room["code"]})
    assert got["type"] == "room" and not b.moves, got
    if drv:
        join_by_link(drv, room["code"], prefix + "web")
    ready_all(a, [b], 3 if drv else 2)
    return room["code"], a, b


def type_answer(drv):
    """The browser racer answers the current question by typing its digit (keyboard play)."""
    qid, text = bh.current_question(drv)
    drv.find_element(By.TAG_NAME, "body").send_keys(str(bh.hidden_digit(text)), Keys.ENTER)
    bh.wait(drv, lambda d: bh.el(d, "#feedback").get_attribute("data-question") == qid, 10, "the typed answer graded")


def test_rooms_follow_their_owner_through_a_drain_and_a_crash(cluster, browser):
    # Six racers: leastconn spreads their first connections over the instances.
    racers = [Player(f"R{i}").connect() for i in range(6)]
    assert {r.first_instance for r in racers} == INSTANCES, [r.first_instance for r in racers]

    # One creates a Time Attack room on its instance; the others join by code
    # and end up on the owner, those elsewhere through `moved`.
    host = racers[0]
    room = host.room_request({"type": "create_room", "mode": "time_attack"})
    assert room["type"] == "room", room
    code, owner = room["code"], host.instance
    for r in racers[1:]:
        got = r.room_request({"type": "join_room", "code": code})
        assert got["type"] == "room" and got["code"] == code, got
        assert r.instance == owner
        assert [m["instance"] for m in r.moves] == ([owner] if r.first_instance != owner else [])
    assert sum(1 for r in racers if r.moves) == sum(1 for r in racers if r.first_instance != owner) >= 2

    # The seventh opens the invite link in Chromium, through HAProxy.
    drv = browser()
    seventh = join_by_link(drv, code, "Web")
    ready_all(host, racers[1:], 7)

    # The two other instances: one will be killed, one survives; a room on
    # each (the one to be killed with a racer in Chromium too).
    killed, survivor = sorted(INSTANCES - {owner})
    drv_k = browser()
    code_k, k1, k2 = create_on(killed, "normal", "K", drv_k)
    code_s, s1, s2 = create_on(survivor, "time_attack", "S")

    for h in (host, k1, s1):
        h.send({"type": "start"})
    for p in racers + [k1, k2, s1, s2]:
        p.expect("race_started")
    bh.wait_scene(drv, "game", 20)

    # Mid-race: answers everywhere; k1 finishes its Normal run (10 questions),
    # so its result is acknowledged (`finished` waits for the journal).
    for p in racers + [s1, s2, k2]:
        answer(p, 2)
    type_answer(drv)
    answer(k1, 10)
    k1.expect("finished")

    # One player, one session, cluster-wide: s2 identifying on another
    # instance replaces its session on the survivor (NOTIFY), and
    # reconnecting there within the grace resumes it in its room.
    twin = Player("T")
    twin.name, twin.token = s2.name, s2.token
    twin.connect(owner)
    replaced = s2.expect("error")
    assert replaced["code"] == "replaced", replaced
    assert s2.close_code() == 4001
    twin.close()
    s2.connect(survivor)
    resumed = s2.expect("room")
    assert resumed["code"] == code_s and resumed["room"]["phase"] == "running", resumed

    # Drain the owner of the big room (the admin call) while it races.
    assert cluster.drain(owner) == (202, {"draining": True, "rooms": 1})
    wait_for(lambda: cluster.healthz(owner) == (503, "draining"), 10, f"{owner}'s /healthz to say draining")
    cluster.wait_states({owner: "DOWN"}, f"HAProxy to take {owner} out of the balance")
    # New rooms go elsewhere: a plain connection is balanced to the others;
    # one that asks for the draining owner still reaches it (persistence) and
    # is sent on with `moved` (no instance).
    for ask in (None, owner):
        newcomer = Player("N").connect(ask)
        assert newcomer.instance == (ask or newcomer.instance) and newcomer.instance in INSTANCES
        got = newcomer.room_request({"type": "create_room", "mode": "normal"})
        assert got["type"] == "room" and newcomer.instance != owner, got
        assert [m["instance"] for m in newcomer.moves] == ([None] if ask else [])
        newcomer.send({"type": "leave_room"})
        newcomer.expect("left_room")
        newcomer.close()

    # SIGKILL the instance of the Normal room while k2 is still racing.
    cluster.kill(killed)
    assert k2.close_code(10) is None, "k2's connection drops with its instance (no close frame)"
    # The reconnect path: asking for the dead instance lands elsewhere
    # (redispatch); asking for the room there says it is lost.
    k2.connect(killed)
    assert k2.instance in INSTANCES - {killed}
    lost = k2.room_request({"type": "join_room", "code": code_k})
    assert lost["type"] == "error" and lost["code"] == "room_lost", lost
    # The web client's reconnect path does the same and says so.
    bh.wait(drv_k, lambda d: bh.scene(d) == "menu" and "went away" in bh.el(d, "#toast").text, 20,
            "the menu and the room_lost message in the killed room's browser")
    bh.snap(drv_k, "40-cluster-room-lost")

    # The drained room's race runs to its end; every racer hears its result
    # stored, then the instance closes them with 1012 and exits cleanly.
    for p in racers:
        p.expect_all("standings", "result_saved", since=p.last_index("race_started"), timeout=30)
        assert p.close_code() == 1012
    assert cluster.procs[owner].wait(30) == 0
    # The browser keeps its standings (no rematch: the room is gone) and is connected again elsewhere.
    bh.wait_scene(drv, "standings", 20)
    bh.wait(drv, lambda d: all(bh.el(d, sel).get_attribute("hidden") is not None
                               for sel in ("#standings-rematch", "#standings-wait")), 10, "rematch and its wait hidden")
    bh.wait(drv, lambda d: bh.el(d, "#conn-banner").get_attribute("hidden") is not None
            and d.execute_script("return document.body.dataset.scene") == "standings", 10, "connected again")
    bh.snap(drv, "41-cluster-drained-standings")

    # The survivor's race was not touched: it ends with both results stored.
    for p in (s1, s2):
        p.expect_all("standings", "result_saved", since=p.last_index("race_started"), timeout=30)
        assert not [m for m in p.seen if m["type"] == "error" and m["code"] != "replaced"], p.seen

    # The killed instance restarts on the same data dir: whatever it had
    # acknowledged and not stored is replayed from its journal.
    cluster.start(killed)
    cluster.wait_healthy(killed)

    names_a = [r.name for r in racers] + [seventh]
    want = {**{n: 1 for n in names_a}, s1.name: 1, s2.name: 1, k1.name: 1, k2.name: 0}
    wait_for(lambda: results_by_name(list(want)) == want, 20, f"every result stored: {want}")
    # The directory lists the survivor's room (still open, its racers in it)
    # and neither the drained room nor the killed instance's.
    listed = sql("SELECT code, instance FROM room_directory WHERE code = ANY (string_to_array(:'codes', ','));",
                 codes=f"{code},{code_k},{code_s}")
    assert listed == [[code_s, survivor]], listed


def test_an_added_instance_takes_new_rooms_and_moves_none(cluster):
    """Adding an instance (README, docs/decisions/0002): start it, regenerate
    the configuration with one more server, reload HAProxy. A room open
    before the reload stays on its instance, its racers' connections survive
    the reload and race to the end; new connections are balanced onto the
    new instance, and a room opened there is its own."""
    for name in sorted(INSTANCES):
        if cluster.procs[name].poll() is not None:
            cluster.start(name)
            cluster.wait_healthy(name)
    before = sorted(INSTANCES)[0]
    code, a, b = create_on(before, "normal", "Old")

    added = f"i{N + 1}"
    cluster.start(added)
    cluster.wait_healthy(added)
    cluster.start_balancer(N + 1)
    cluster.wait_states({name: "UP" for name in sorted(INSTANCES | {added})}, f"HAProxy reloaded with {added} up")

    # New players, plain /ws: leastconn hands the empty new instance its share.
    newcomers = [Player("New").connect() for _ in range(2 * (N + 1))]
    on_added = [p for p in newcomers if p.instance == added]
    assert on_added, [p.instance for p in newcomers]
    room = on_added[0].room_request({"type": "create_room", "mode": "normal"})
    assert room["type"] == "room" and not on_added[0].moves, room
    # Joining it from another instance is `moved` to the new one.
    elsewhere = next(p for p in newcomers if p.instance != added)
    joined = elsewhere.room_request({"type": "join_room", "code": room["code"]})
    assert joined["type"] == "room" and [m["instance"] for m in elsewhere.moves] == [added], elsewhere.moves

    # The room from before the reload did not move, and races to its end on
    # the connections it had.
    listed = sql("SELECT code, instance FROM room_directory WHERE code = ANY (string_to_array(:'codes', ','))"
                 " ORDER BY instance;", codes=f"{code},{room['code']}")
    assert listed == sorted([[code, before], [room["code"], added]], key=lambda r: r[1]), listed
    a.send({"type": "start"})
    for p in (a, b):
        p.expect("race_started")
    for p in (a, b):
        answer(p, 10)
    for p in (a, b):
        p.expect_all("standings", "result_saved", since=p.last_index("race_started"), timeout=30)
        assert not [m for m in p.seen if m["type"] == "error"], p.seen
    for p in newcomers + [a, b]:
        p.close()


def api(method, path, body=None, token=None):
    """A call of the HTTP API through HAProxy; the JSON answer."""
    import json
    import urllib.request
    from conftest import URL
    req = urllib.request.Request(URL + path, data=None if body is None else json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


class Projector(Player):
    """A teacher's projector: a connection that never identifies; it opens the class's lesson."""

    def connect(self, instance=None):
        import websocket
        from conftest import LISTEN_PORT
        query = f"?instance={instance}" if instance else ""
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{LISTEN_PORT}/ws{query}", subprotocols=["mindpad.v1"], timeout=20)
        self.expect("welcome")
        return self

    def host(self, token, class_id):
        self.send({"type": "host_lesson", "token": token, "class": class_id, "game": "mindpad", "mode": "normal"})
        lesson = self.expect("lesson")
        self.instance = lesson["instance"]
        return lesson


def test_a_lesson_survives_its_instance_draining(cluster):
    """Issue 46: a class's lesson races on an instance that drains. The race
    runs to its end and every pupil's result is stored; the projector,
    closed with 1012, opens the lesson anew on another instance; the pupils,
    closed too, find it through their classes and are all in it again."""
    import uuid
    up = {name for name, state in cluster.states().items() if state.startswith("UP")}
    assert len(up) >= 2, cluster.states()
    run = uuid.uuid4().hex[:4]
    teacher = api("POST", "/api/teachers", {"name": f"Rao{run}", "password": "a good passphrase"})["token"]
    klass = api("POST", "/api/classes", {"name": "3B"}, teacher)
    api("POST", f"/api/classes/{klass['id']}/pupils", {"names": ["Ann", "Bo", "Cy", "Di"]}, teacher)
    pupils = []
    for roster in ("Ann", "Bo", "Cy", "Di"):
        p = Player(roster).connect()
        api("POST", f"/api/players/{p.name}/classes", {"code": klass["join_code"], "name": roster}, p.token)
        pupils.append(p)

    projector = Projector("Projector").connect()
    lesson = projector.host(teacher, klass["id"])
    code, owner = lesson["room"], lesson["instance"]
    assert owner in up
    for p in pupils:
        assert api("GET", f"/api/players/{p.name}/classes", token=p.token)["classes"][0]["lesson"] == code
        got = p.room_request({"type": "join_room", "code": code})
        assert got["type"] == "room" and got["code"] == code and p.instance == owner, got
    projector.send({"type": "lesson", "action": "start"})
    for p in pupils:
        p.expect("race_started")
        answer(p, 2)

    # The lesson's instance drains mid-race: the pupils finish their runs, every result is stored, everyone is closed.
    assert cluster.drain(owner) == (202, {"draining": True, "rooms": 1})
    for p in pupils:
        answer(p, 8)
    for p in pupils:
        p.expect_all("standings", "result_saved", since=p.last_index("race_started"), timeout=30)
        assert p.close_code() == 1012
    assert projector.close_code() == 1012
    stored = sql("SELECT count(*) FROM game_results r JOIN class_races c ON c.race_id = r.race_id "
                 "WHERE c.class_id = :'id'::uuid AND r.correct = 10 AND r.completed;", id=klass["id"])
    assert stored == [["4"]], stored
    cluster.wait_states({owner: "DOWN"}, f"HAProxy to take {owner} out")

    # The projector opens the lesson anew elsewhere; every pupil finds it and is in it again.
    projector.connect()
    again = projector.host(teacher, klass["id"])
    assert again["instance"] != owner and again["room"] != code, again
    for p in pupils:
        p.connect()
        found = api("GET", f"/api/players/{p.name}/classes", token=p.token)["classes"][0]["lesson"]
        assert found == again["room"], (found, again)
        got = p.room_request({"type": "join_room", "code": found})
        assert got["type"] == "room" and got["code"] == again["room"], got
    want = {p.name for p in pupils}
    members = set()
    while members != want:
        members = {m["name"] for m in projector.expect("room_updated")["room"]["members"]}
    assert cluster.procs[owner].wait(30) == 0
