"""The client's state module (web/js/state.js) in real Chromium, without the
page's DOM: recorded server messages in (the example transcript of
docs/protocol.md, and hand-written sequences), state out. Every state is
deep-frozen before the next message, so a reducer that changed the state it
was given would throw."""
import json
import pathlib
import re

import pytest

from conftest import BASE_URL, wait

PROTOCOL = pathlib.Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

# Applies [message, now] pairs; returns, after each, the state and what the selectors say about it.
RUN = """
const events = arguments[0], done = arguments[arguments.length - 1];
import('/js/state.js').then((m) => {
  const freeze = (o) => {
    if (o && typeof o === 'object' && !Object.isFrozen(o)) { Object.freeze(o); Object.values(o).forEach(freeze); }
    return o;
  };
  let s = freeze(m.initialState());
  const out = [];
  for (const [msg, now] of events) {
    const before = s;
    s = freeze(m.apply(s, freeze(msg), now));
    out.push({state: s, same: s === before, solo: m.isSolo(s), may: m.mayAnswer(s), host: m.isHost(s),
              role: m.myRole(s), lanes: m.lanes(s)});
  }
  done({steps: out});
}).catch((e) => done({error: String(e && e.stack || e)}));
"""


@pytest.fixture
def page(blank_page):
    return blank_page


def run(drv, events):
    """[(message, now)] → a list of steps ({state, same, solo, may, host, role, lanes})."""
    result = drv.execute_async_script(RUN, [[m, now] for m, now in events])
    assert "error" not in result, result.get("error")
    return result["steps"]


def transcript(player, example="a two-player Time Attack race"):
    """What `player` receives and sends in one of docs/protocol.md's example
    transcripts (its heading's words), in order. A `submit` the player sends
    becomes the local event the page records for it."""
    events = []
    inside = False
    for line in PROTOCOL.read_text().splitlines():
        if line.startswith("## "):
            inside = line == f"## Example transcript: {example}"
            continue
        m = re.match(r"^(ann|bo) (←|→) (\{.*\})$", line)
        if not inside or not m or m.group(1) != player:
            continue
        msg = json.loads(m.group(3))
        if m.group(2) == "←":
            events.append(msg)
        elif msg["type"] == "submit":
            events.append({"type": "local/submit"})
        elif msg["type"] == "choose":
            events.append({"type": "local/choose"})
    assert len(events) > 10, f"the transcript of {player} was not found in {PROTOCOL}"
    return events


def step_after(steps, events, type_, nth=0):
    """The step right after the nth message of a type."""
    idx = [i for i, e in enumerate(events) if e["type"] == type_][nth]
    return steps[idx]


def test_ann_plays_the_documented_race(page):
    events = transcript("ann")
    steps = run(page, [(e, 1000 + 10 * i) for i, e in enumerate(events)])
    now = lambda type_, nth=0: 1000 + 10 * [i for i, e in enumerate(events) if e["type"] == type_][nth]

    s = step_after(steps, events, "identified")["state"]
    assert s["identified"] is True and s["player"] == {"id": "p1", "name": "Ann"}

    first_room = step_after(steps, events, "room")
    s = first_room["state"]
    assert s["room"]["code"] == "KBRW" and s["room"]["you"] == "p1"
    assert first_room["host"] is True and first_room["solo"] is False
    assert s["race"]["game"] == "mindpad" and s["race"]["mode"] == "time_attack" and s["race"]["round"] == 1
    assert s["race"]["running"] is False and first_room["may"] is False

    s = step_after(steps, events, "countdown")["state"]
    assert s["countdown"] == {"endsAt": now("countdown") + 300}

    s = step_after(steps, events, "race_started")["state"]
    assert s["race"]["running"] is True and s["countdown"] is None
    assert s["race"]["startedAt"] == now("race_started")
    assert s["race"]["endsAt"] == now("race_started") + 5000

    asked = step_after(steps, events, "question")
    s = asked["state"]
    assert s["race"]["question"]["id"] == "r1q0" and s["race"]["question"]["index"] == 0
    assert s["race"]["question"]["prompt"]["lhs"] == 4 and s["race"]["question"]["prompt"]["operation"] == "*"
    assert asked["may"] is True and asked["role"] == "racer"

    s = step_after(steps, events, "guess")["state"]
    assert s["race"]["guess"]["digit"] == 8 and s["race"]["guess"]["points"] == 76

    s = step_after(steps, events, "local/submit")["state"]
    assert s["race"]["submitting"] is True

    s = step_after(steps, events, "graded")["state"]
    assert s["race"]["submitting"] is False and s["race"]["score"] == 1
    assert s["race"]["graded"]["correct"] is True and s["race"]["graded"]["expected"] == 8

    s = step_after(steps, events, "question", 1)["state"]
    assert s["race"]["question"]["id"] == "r1q1" and s["race"]["question"]["index"] == 1
    assert s["race"]["guess"] is None, "a new question starts without a guess"

    # Time Attack lanes are points relative to the leader's (Ann 1, Bo 0 here).
    lanes = step_after(steps, events, "progress", 1)["lanes"]
    assert [(l["name"], l["score"], l["me"], l["share"]) for l in lanes] == [("Ann", 1, True, 1), ("Bo", 0, False, 0)]

    done = step_after(steps, events, "finished")
    assert done["state"]["race"]["result"]["score"] == 1 and done["may"] is False

    s = step_after(steps, events, "standings")["state"]
    assert s["race"]["running"] is False
    assert [(e["rank"], e["name"]) for e in s["race"]["standings"]["entries"]] == [(1, "Ann"), (2, "Bo")]

    final = steps[-1]["state"]
    assert final["race"]["saved"] == {"game": "mindpad", "personalBest": True, "stored": "database"}
    assert final["room"]["room"]["phase"] == "finished"
    assert final["race"]["result"]["score"] == 1, "the finished room keeps this player's result"


def test_ann_plays_the_documented_addone_race_with_her_fish(page):
    """The Add-One transcript: a keypad answer, a refused one (nothing lost), a
    written number read as a whole with each digit's box, the keypad count."""
    events = transcript("ann", "a solo Add-One race with a fish and the keypad")
    steps = run(page, [(e, 1000 + 10 * i) for i, e in enumerate(events)])
    s = step_after(steps, events, "room")["state"]
    assert s["race"]["game"] == "addone" and s["race"]["mode"] == "time_attack"
    s = step_after(steps, events, "question")["state"]
    assert s["race"]["question"]["prompt"] == {"digits": "97"}
    s = step_after(steps, events, "graded")["state"]
    assert s["race"]["graded"]["answer"] == "08" and s["race"]["graded"]["expected"] == "08" and s["race"]["score"] == 1
    refused = step_after(steps, events, "error")
    assert refused["state"]["race"]["submitting"] is False and refused["may"] is True, "a refused keypad answer may be sent again"
    s = step_after(steps, events, "guess")["state"]
    assert s["race"]["guess"]["number"] == "46"
    assert [d["box"] for d in s["race"]["guess"]["digits"]] == [[40, 40, 170, 270], [275, 40, 375, 260]]
    s = step_after(steps, events, "finished")["state"]
    assert s["race"]["result"]["keypad_answers"] == 1 and s["race"]["result"]["score"] == 2
    assert steps[-2]["state"]["race"]["saved"]["game"] == "addone"
    assert steps[-1]["state"]["room"] is None


def test_ann_is_offered_a_choice_and_picks(page):
    """Issue 43's transcript: the guess with its choices, the `choice` that answers the
    submit (not graded, the submit answered), a refused pick that keeps the offer, the
    pick graded (the offer gone), the choice kept in the run's answers."""
    events = transcript("ann", "a choice instead of a refusal")
    steps = run(page, [(e, 1000 + 10 * i) for i, e in enumerate(events)])
    s = step_after(steps, events, "guess")["state"]
    assert s["race"]["guess"]["choices"] == [1, 7] and s["race"]["guess"]["digit"] == 1
    s = step_after(steps, events, "choice")["state"]
    assert s["race"]["choice"] == {"type": "choice", "question": "r1q0", "options": [1, 7]}
    assert s["race"]["submitting"] is False and s["race"]["graded"] is None
    s = step_after(steps, events, "local/choose")["state"]
    assert s["race"]["submitting"] is True and s["race"]["choice"]["options"] == [1, 7]
    refused = step_after(steps, events, "error")
    assert refused["state"]["race"]["submitting"] is False and refused["state"]["race"]["choice"]["options"] == [1, 7]
    assert refused["may"] is True
    s = step_after(steps, events, "graded")["state"]
    assert s["race"]["choice"] is None and s["race"]["graded"]["answer"] == 7 and s["race"]["score"] == 1
    s = step_after(steps, events, "finished")["state"]
    assert s["race"]["result"]["answers"][0]["choice"] == [{"place": 0, "options": [1, 7], "tapped": 7}]
    # A pick withdrawn (the pad cleared, a refusal other than bad_choice, a new question): no choice.
    more = events[:[i for i, e in enumerate(events) if e["type"] == "choice"][0] + 1]
    tail = [{"type": "local/cleared"}, {"type": "choice", "question": "r1q0", "options": [1, 7]},
            {"type": "error", "request": "choose", "code": "no_choice"},
            {"type": "choice", "question": "r1q9", "options": [1, 7]}]
    steps = run(page, [(e, 1000 + 10 * i) for i, e in enumerate(more + tail)])
    assert steps[len(more) - 1]["state"]["race"]["choice"] is not None
    assert steps[len(more)]["state"]["race"]["choice"] is None
    assert steps[len(more) + 1]["state"]["race"]["choice"] is not None
    assert steps[len(more) + 2]["state"]["race"]["choice"] is None
    assert steps[len(more) + 3]["state"]["race"]["choice"] is None, "a choice for another question is not ours"


def test_bo_misreads_then_leaves(page):
    events = transcript("bo")
    steps = run(page, [(e, 50 * i) for i, e in enumerate(events)])
    s = step_after(steps, events, "graded")["state"]
    assert s["race"]["graded"]["answer"] == 9 and s["race"]["graded"]["expected"] == 8
    assert s["race"]["graded"]["correct"] is False and s["race"]["score"] == 0
    joined = step_after(steps, events, "room")
    assert joined["host"] is False and joined["state"]["room"]["you"] == "p2"
    s = step_after(steps, events, "result_saved")["state"]
    assert s["race"]["saved"]["personalBest"] is False
    rematch = step_after(steps, events, "room_updated", len([e for e in events if e["type"] == "room_updated"]) - 1)
    assert rematch["state"]["room"]["room"]["round"] == 2 and rematch["state"]["room"]["room"]["phase"] == "lobby"
    assert steps[-1]["state"]["room"] is None and steps[-1]["state"]["race"]["running"] is False


def room_msg(phase, you="p1", code="KBRW", game="mindpad", mode="normal", round_=1, max_players=2, role="racer", **extra):
    members = [{"player_id": "p1", "name": "Ann", "role": role, "ready": False, "connected": True, "host": you == "p1"},
               {"player_id": "p9", "name": "Cy", "role": "racer", "ready": True, "connected": True, "host": you != "p1"}]
    room = {"game": game, "round": round_, "mode": mode, "phase": phase, "host": "p1" if you == "p1" else "p9",
            "max_players": max_players, "members": members, **extra}
    return {"type": "room", "code": code, "you": "p1", "room": room}


def question(qid, prompt=None):
    return {"type": "question", "question": qid, "prompt": prompt or {"lhs": 1, "operation": "+", "rhs": 1,
                                                                       "masked_result": "?", "hidden_position": 0}}


def progress(mode, *racers):
    return {"type": "progress", "round": 1, "mode": mode, "racers": [
        {"player_id": pid, "name": pid, "question_index": qi, "score": sc, "correct": sc, "wrong": 0, "status": st}
        for pid, qi, sc, st in racers]}


def test_reconnect_keeps_the_question_and_takes_the_servers_score(page):
    events = [
        room_msg("running", ends_in_ms=9000),
        question("r1q3"),
        {"type": "guess", "question": "r1q3", "digit": 4, "confidence": 0.9, "points": 12},
        {"type": "local/disconnected"},
        {"type": "identified", "player_id": "p1", "name": "Ann"},
        dict(room_msg("running", ends_in_ms=4000), progress=progress("normal", ("p1", 3, 3, "playing"))),
        question("r1q3"),
        {"type": "local/resume_timeout"},
    ]
    steps = run(page, [(e, 100 * i) for i, e in enumerate(events)])
    assert steps[3]["state"]["identified"] is False
    assert steps[4]["state"]["room"]["resumed"] is False, "after identifying again the room awaits the server's word"
    back = steps[5]["state"]
    assert back["room"]["resumed"] is True
    assert back["race"]["question"]["id"] == "r1q3", "the question in progress is kept"
    assert back["race"]["score"] == 3 and back["race"]["endsAt"] == 500 + 4000
    assert back["race"]["startedAt"] == 0, "the race clock is not restarted"
    assert steps[6]["state"]["race"]["guess"]["digit"] == 4, "the same question re-sent keeps the guess"
    assert steps[7]["same"] is True, "the server did resume us: the timeout changes nothing"


def test_not_resumed_after_a_reconnect_drops_the_room(page):
    events = [room_msg("lobby"), {"type": "identified", "player_id": "p1", "name": "Ann"}, {"type": "local/resume_timeout"}]
    steps = run(page, [(e, 0) for e in events])
    assert steps[1]["state"]["room"] is not None
    assert steps[2]["state"]["room"] is None


def test_normal_lanes_use_the_games_length_from_the_catalog(page):
    catalog = {"type": "local/catalog", "games": [
        {"id": "mindpad", "modes": ["normal"], "normal_length": 10, "answer_input": "drawn_digit"},
        {"id": "quick_pick", "modes": ["normal"], "normal_length": 5, "answer_input": "choice"}]}
    racers = [("p1", 2, 2, "playing"), ("p9", 4, 4, "completed")]
    for game, share in (("mindpad", 0.2), ("quick_pick", 0.4)):
        steps = run(page, [(catalog, 0), (room_msg("running", game=game), 0), (progress("normal", *racers), 0)])
        lanes = steps[-1]["lanes"]
        assert [l["share"] for l in lanes] == [share, 1], (game, lanes)
        assert steps[-1]["state"]["race"]["game"] == game


def test_guesses_errors_and_spectators(page):
    events = [
        room_msg("running"),
        question("r1q0"),
        {"type": "guess", "question": "r1q9", "digit": 7, "confidence": 0.9, "points": 3},
        {"type": "local/submit"},
        {"type": "error", "code": "empty_drawing", "message": "…", "request": "submit"},
        {"type": "something_new", "x": 1},
        {"type": "graded", "question": "r1q0", "answer": 2, "correct": True, "expected": 2, "points": 1, "score": 1,
         "run_over": True},
    ]
    steps = run(page, [(e, 0) for e in events])
    assert steps[2]["same"] is True, "a guess for another question is ignored"
    assert steps[3]["state"]["race"]["submitting"] is True and steps[4]["state"]["race"]["submitting"] is False
    assert steps[5]["same"] is True, "an unknown message changes nothing"
    assert steps[6]["state"]["race"]["runOver"] is True and steps[6]["may"] is False

    watching = run(page, [(room_msg("running", role="spectator"), 0), (question("r1q0"), 0)])
    assert watching[-1]["role"] == "spectator" and watching[-1]["may"] is False
    solo = run(page, [(room_msg("lobby", max_players=1), 0)])
    assert solo[-1]["solo"] is True


MEANING = """
const events = arguments[0], done = arguments[arguments.length - 1];
import('/js/state.js').then((m) => {
  let s = m.initialState();
  for (const e of events) s = m.apply(s, e, 0);
  done({meaning: m.lanesMeaning(s), lanes: m.lanes(s), watched: m.watched(s)});
});
"""


def test_lanes_say_what_they_measure_and_keep_who_left_where_they_stopped(page):
    catalog = {"type": "local/catalog", "games": [{"id": "mindpad", "modes": ["normal", "survival"], "normal_length": 10,
                                                   "answer_input": "drawn_digit"}]}
    racers = [("p1", 3, 60, "playing"), ("p9", 7, 120, "abandoned")]
    normal = page.execute_async_script(MEANING, [catalog, room_msg("running"), progress("normal", *racers)])
    assert normal["meaning"] == {"key": "lanes.meaning.normal", "n": 10}
    assert [(l["share"], l["left"]) for l in normal["lanes"]] == [(0.3, False), (0.7, True)]
    # Survival is open-ended: points relative to the leader, who may be the one who left.
    survival = page.execute_async_script(MEANING, [catalog, room_msg("running", mode="survival"), progress("survival", *racers)])
    assert survival["meaning"] == {"key": "lanes.meaning.score", "n": None}
    assert [l["share"] for l in survival["lanes"]] == [0.5, 1]
    # A path finder's racers: how close to the goal.
    path = page.execute_async_script(MEANING, [room_msg("running", game="path_finder"),
                                               {**progress("normal", ("p1", 0, 0, "playing")), "racers": [
                                                   {"player_id": "p1", "name": "Ann", "question_index": 0, "score": 0,
                                                    "correct": 0, "wrong": 0, "status": "playing", "remaining": 3}]}])
    assert path["meaning"]["key"] == "lanes.meaning.path"


def test_a_spectator_is_told_the_leaders_question_and_a_racer_is_not(page):
    spectating = {"type": "spectating", "round": 1, "question_index": 3, "racer": "p9",
                  "prompt": {"lhs": 4, "operation": "*", "rhs": 2, "masked_result": "?", "hidden_position": 0}}
    seen = page.execute_async_script(MEANING, [room_msg("running", role="spectator"), spectating])
    assert seen["watched"] == {"round": 1, "index": 3, "prompt": spectating["prompt"], "racer": "p9", "racerName": "Cy"}
    racer = page.execute_async_script(MEANING, [room_msg("running"), spectating])
    assert racer["watched"] is None
    # The next round starts without the last round's view.
    fresh = page.execute_async_script(MEANING, [room_msg("running", role="spectator"), spectating,
                                                {"type": "race_started", "round": 2, "mode": "normal"}])
    assert fresh["watched"] is None


def test_an_old_runs_last_words_are_not_the_new_races(page):
    """Issue 45: after leaving mid-race, the old run's `finished` and `result_saved`
    (which the server sends before `left_room`) change nothing; a new room's race
    takes only its own `finished` (by its race id)."""
    you = "p1"
    member = {"player_id": you, "name": "Ann", "role": "racer", "ready": False, "connected": True, "host": True}
    room = {"game": "mindpad", "round": 1, "mode": "time_attack", "phase": "running", "ends_in_ms": 9000, "host": you,
            "max_players": 1, "members": [member]}
    old = {"race": "oldrace00001", "player_id": you, "name": "Ann", "score": 1, "correct": 1, "wrong": 0, "answered": 1,
           "duration_ms": 4000, "score_reached_ms": 900, "completed": False, "keypad_answers": 0, "answers": []}
    new = {**old, "race": "newrace00002", "score": 3, "completed": True}
    lobby = {**room, "mode": "normal", "phase": "lobby", "round": 1}
    events = [
        {"type": "room", "code": "KBRW", "you": you, "room": room, "race": "oldrace00001"},
        {"type": "question", "question": "r1q1", "prompt": {"text": "2 + 2 = ?"}},
        {"type": "local/leave"},
        {"type": "finished", "result": old},
        {"type": "result_saved", "round": 1, "mode": "time_attack", "game": "mindpad", "stored": "database", "personal_best": True},
        {"type": "left_room", "code": "KBRW"},
        {"type": "room", "code": "TPSM", "you": you, "room": lobby},
        {"type": "race_started", "round": 1, "mode": "normal", "race": "newrace00002"},
        {"type": "finished", "result": old},
        {"type": "standings", "round": 1, "mode": "time_attack", "race": "oldrace00001", "entries": []},
        {"type": "finished", "result": new},
    ]
    steps = run(page, [(e, 1000 + i) for i, e in enumerate(events)])
    # Left: the old run's finished and result_saved leave the state as it was.
    assert steps[3]["same"] and steps[4]["same"]
    assert steps[5]["state"]["race"]["result"] is None and steps[5]["state"]["race"]["saved"] is None
    # In the new race: the old race's finished and standings are not its own; its own is taken.
    assert steps[7]["state"]["race"]["id"] == "newrace00002"
    assert steps[8]["same"] and steps[9]["same"]
    assert steps[10]["state"]["race"]["result"]["race"] == "newrace00002"
