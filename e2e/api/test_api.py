"""The live server against docs/openapi.yaml: every answer must match the
documented status, headers and schema. Data that only games produce
(highscores) is inserted with psql into the same database."""
import json
import os
import subprocess
import uuid

import pytest
import requests
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

BASE = os.environ["MINDPAD_URL"]
ADMIN = os.environ["MINDPAD_ADMIN_TOKEN"]
def load_spec():
    """docs/openapi.yaml with its server pointed at the live one."""
    import yaml
    with open(os.environ["OPENAPI_SPEC"], encoding="utf-8") as f:
        document = yaml.safe_load(f)
    document["servers"] = [{"url": BASE}]
    return OpenAPI.from_dict(document)


SPEC = load_spec()


def call(method, path, **kwargs):
    """Sends a request and validates the request and the response against the spec."""
    response = requests.request(method, BASE + path, timeout=10, **kwargs)
    request = RequestsOpenAPIRequest(response.request)
    SPEC.validate_response(request, RequestsOpenAPIResponse(response))
    return response


def psql(sql, *params):
    """Runs SQL with psql variables (quoted by psql, never pasted)."""
    args = ["psql", os.environ["DATABASE_URL"], "-v", "ON_ERROR_STOP=1", "-Atq"]
    for i, p in enumerate(params):
        args += ["-v", f"p{i}={p}"]
    return subprocess.run(args, input=sql, text=True, capture_output=True, check=True).stdout.strip()


def register(prefix="P"):
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    r = call("POST", "/api/players", json={"name": name})
    assert r.status_code == 201
    return name, r.json()["token"]


def give_best(name, mode, score, time_ms, game="mindpad", lower_first=False):
    """An all-time best on a board where more is better (rank_key = -score), or less (rank_key = score)."""
    psql(
        """INSERT INTO highscores (player_id, game, mode, period, period_start, score, rank_key, duration_ms,
                                   achieved_at, result_id)
           SELECT id, :'p4', :'p1', 'all', DATE '1970-01-01', :'p2'::int,
                  CASE WHEN :'p5'::boolean THEN :'p2'::int ELSE -(:'p2'::int) END, :'p3'::int, now(), gen_random_uuid()
           FROM players WHERE name_key = lower(:'p0')""",
        name, mode, score, time_ms, game, "true" if lower_first else "false",
    )


def give_path_round(name, started_at, seconds, steps, rows=4, columns=5):
    """A path-finder result with its round as the result write stores them (migration 0018: the
    round is the result's detail, times from the race start): the race starts a second before the
    grid is shown at `started_at` and is stored when the goal is reached; `seconds` None: a round
    never finished (stored 30 s in, the racer gone)."""
    shown = 1000
    reached = None if seconds is None else shown + round(seconds * 1000)
    score = 0 if reached is None else round(steps * (reached - shown) / (rows * columns))
    duration = 30_000 if reached is None else reached
    detail = {"path": {"rows": rows, "columns": columns, "goal": {"row": 2, "column": 2}, "steps": steps, "best_steps": 2,
                       "tries": 0, "grid_shown_ms": shown, "goal_reached_ms": reached,
                       "rank_value": None if reached is None else score / 1000, "route": None}}
    psql(
        """INSERT INTO game_results (result_id, player_id, game, mode, score, correct, answered, duration_ms, finished_at,
                                     completed, detail)
           SELECT gen_random_uuid(), id, 'path_finder', 'normal', :'p2'::int, :'p3'::int, 1, :'p4'::int,
                  :'p1'::timestamptz + make_interval(secs => (:'p4'::int - 1000) / 1000.0), :'p5'::boolean, :'p6'::jsonb
           FROM players WHERE name_key = lower(:'p0')""",
        name, started_at, score, 0 if reached is None else 1, duration, "f" if reached is None else "t", json.dumps(detail),
    )


def test_health():
    r = call("GET", "/healthz")
    assert r.status_code == 200
    assert r.json()["database"] == "ok"


def test_registration_rules():
    name, token = register()
    assert len(token) == 64
    assert call("POST", "/api/players", json={"name": name.upper()}).status_code == 409
    bad = call("POST", "/api/players", json={"name": "<img src=x onerror=alert(1)>"})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_name"
    assert call("POST", "/api/players", data="{not json", headers={"Content-Type": "application/json"}).status_code == 400
    assert call("POST", "/api/players", data="x" * 70_000).status_code == 413


def test_sql_looking_names_are_stored_and_shown_verbatim():
    name = f"DROP TABLE p_{uuid.uuid4().hex[:4]}--"
    assert call("POST", "/api/players", json={"name": name}).status_code == 201
    profile = call("GET", "/api/players/" + requests.utils.quote(name))
    assert profile.status_code == 200
    assert profile.json()["name"] == name
    assert psql("SELECT count(*) FROM players WHERE name = :'p0'", name) == "1"


def test_the_catalog_lists_every_game_with_what_a_menu_needs():
    r = call("GET", "/api/games")
    assert r.status_code == 200
    games = r.json()["games"]
    mindpad = next(g for g in games if g["id"] == "mindpad")
    assert mindpad["modes"] == ["normal", "survival", "time_attack"]
    assert mindpad["normal_length"] == 10
    assert mindpad["answer_input"] == "drawn_digit"
    assert mindpad["names"]["en"] and mindpad["names"]["zh"]
    # Not a documented operation, so not validated against the spec.
    assert requests.post(BASE + "/api/games", timeout=10).status_code == 405


def test_each_game_has_its_own_boards():
    """A best of another game (stored by an older or newer server) never shows on MindPad's boards."""
    name, _ = register("G")
    give_best(name, "survival", 77, 10_000, game="other_game")
    board = call("GET", "/api/leaderboard?mode=survival&around=" + requests.utils.quote(name))
    assert board.status_code == 200 and board.json()["game"] == "mindpad"
    assert board.json().get("me") is None
    assert all(e["name"] != name for e in board.json()["entries"])
    # The server hosts no such game, so it is refused by name.
    r = call("GET", "/api/leaderboard?game=other_game&mode=survival")
    assert r.status_code == 400 and r.json()["error"] == "unknown_game"
    profile = call("GET", "/api/players/" + requests.utils.quote(name) + "?game=mindpad").json()
    assert profile["game"] == "mindpad" and profile["highscores"]["survival"]["score"] == 0


def test_profile_and_unknown_player():
    name, _ = register("小明")
    give_best(name, "survival", 120, 50_000)
    r = call("GET", "/api/players/" + requests.utils.quote(name))
    assert r.status_code == 200
    body = r.json()
    assert body["name"] == name
    assert body["highscores"]["survival"]["score"] == 120
    assert body["highscores"]["normal"]["score"] == 0
    assert call("GET", "/api/players/nobody" + uuid.uuid4().hex[:6]).status_code == 404
    assert call("GET", "/api/players/" + requests.utils.quote("a;b")).status_code == 400


def test_leaderboards_and_around_me():
    mode = "time_attack"
    # The suite runs on its own throwaway database (make test): this test
    # owns the time_attack board and starts it empty.
    psql("DELETE FROM highscores WHERE mode = 'time_attack'")
    names = [register("L")[0] for _ in range(4)]
    for i, n in enumerate(names):
        give_best(n, mode, 1000 + i, 150_000)
    top = call("GET", f"/api/leaderboard?mode={mode}&period=all&limit=2")
    assert top.status_code == 200
    body = top.json()
    assert [e["rank"] for e in body["entries"]] == [1, 2]
    assert body["entries"][0]["name"] == names[-1]
    around = call("GET", f"/api/leaderboard?mode={mode}&limit=1&around=" + requests.utils.quote(names[1]))
    assert around.status_code == 200
    mine = around.json()["me"]
    assert mine["name"] == names[1] and mine["rank"] == 3
    assert [e["rank"] for e in around.json()["around"]] == [1, 2, 3, 4]
    for period in ("day", "week"):
        r = call("GET", f"/api/leaderboard?mode={mode}&period={period}")
        assert r.status_code == 200 and "next_reset" in r.json()


@pytest.mark.parametrize("query,code", [
    ("mode=chess", "unknown_mode"),
    ("game=chess", "unknown_game"),
    ("game=MindPad", "unknown_game"),
    ("period=year", "unknown_period"),
    ("limit=0", "bad_limit"),
    ("limit=many", "bad_limit"),
    ("around=%3Cscript%3E", "invalid_name"),
])
def test_leaderboard_refusals(query, code):
    r = call("GET", "/api/leaderboard?" + query)
    assert r.status_code == 400
    assert r.json()["error"] == code


def test_player_resets_own_highscores():
    name, token = register("R")
    give_best(name, "normal", 200, 40_000)
    path = f"/api/players/{name}/highscores/reset"
    assert call("POST", path).status_code == 401
    assert call("POST", path, headers={"Authorization": "Bearer " + "0" * 64}).status_code == 401
    ok = call("POST", path, headers={"Authorization": f"Bearer {token}"})
    assert ok.status_code == 200 and ok.json()["highscores_reset"] == 1
    assert call("GET", f"/api/players/{name}").json()["highscores"]["normal"]["score"] == 0


def test_path_rounds_are_the_last_five_ranked_as_the_original():
    name, _ = register("W")
    path = "/api/players/" + requests.utils.quote(name) + "/path_rounds"
    empty = call("GET", path)
    assert empty.status_code == 200 and empty.json() == {"player": name, "rounds": []}
    # Six rounds, one never finished (the racer left): the last five completed ones are ranked
    # (issue 45), so the oldest is among them and the unfinished one is not.
    for minute, (steps, seconds) in enumerate([(9, 12.5), (7, 30.0), (12, 8.0), (5, None), (6, 10.0), (20, 20.0)]):
        give_path_round(name, f"2026-11-18T12:0{minute}:00Z", seconds, steps)
    rounds = call("GET", path).json()["rounds"]
    # steps × seconds / 20 cells: 3.0, 4.8, 5.625, 10.5, 20.0.
    assert [r["steps"] for r in rounds] == [6, 12, 9, 7, 20]
    assert [r["rank"] for r in rounds] == [1, 2, 3, 4, 5]
    assert [r["rank_value"] for r in rounds] == [3.0, 4.8, 5.625, 10.5, 20.0]
    assert rounds[0]["started_at"] == "2026-11-18T12:04:00.000Z" and rounds[0]["ended_at"] == "2026-11-18T12:04:10.000Z"
    assert rounds[0]["seconds"] == 10.0 and rounds[0]["grid_size"] == 20
    assert all(r["ended_at"] is not None and r["seconds"] is not None for r in rounds)
    assert call("GET", "/api/players/nobody" + uuid.uuid4().hex[:6] + "/path_rounds").status_code == 404
    assert call("GET", "/api/players/" + requests.utils.quote("a;b") + "/path_rounds").status_code == 400


def test_the_path_finder_board_is_lower_first_with_rank_values():
    if not any(g["id"] == "path_finder" for g in call("GET", "/api/games").json()["games"]):
        pytest.skip("this server does not host the path finder")
    psql("DELETE FROM highscores WHERE game = 'path_finder'")
    for score in [9400, 3111, 12000]:
        give_best(register("B")[0], "normal", score, 20_000, game="path_finder", lower_first=True)
    entries = call("GET", "/api/leaderboard?game=path_finder&mode=normal").json()["entries"]
    assert [e["score"] for e in entries] == [3111, 9400, 12000]
    assert [e["rank_value"] for e in entries] == [3.111, 9.4, 12.0]
    give_best(register("M")[0], "normal", 50, 20_000)
    assert all("rank_value" not in e for e in call("GET", "/api/leaderboard?mode=normal").json()["entries"])


def fish_path(name, fish_id=None):
    path = "/api/players/" + requests.utils.quote(name) + "/fish"
    return path if fish_id is None else path + "/" + fish_id


def test_fish_kinds_and_a_players_fish():
    kinds = call("GET", "/api/fish/kinds")
    assert kinds.status_code == 200
    assert kinds.json()["kinds"][:5] == ["goldfish", "clownfish", "angelfish", "pufferfish", "betta"]
    name, token = register("F")
    auth = {"Authorization": f"Bearer {token}"}
    assert call("GET", fish_path(name), headers=auth).json() == {"fish": []}
    made = [call("POST", fish_path(name), headers=auth, json={"name": n, "kind": k})
            for n, k in [("Bubbles", "goldfish"), ("DROP TABLE fish--", "pufferfish")]]
    assert [m.status_code for m in made] == [201, 201]
    assert [f["name"] for f in call("GET", fish_path(name), headers=auth).json()["fish"]] == ["Bubbles", "DROP TABLE fish--"]
    # Stored as typed, and the table is still there (a database kept across runs holds other players' too).
    assert psql("SELECT count(*) FROM fish f JOIN players p ON p.id = f.player_id WHERE f.name = :'p0' AND p.name = :'p1'",
                "DROP TABLE fish--", name) == "1"
    first = made[0].json()["id"]
    assert call("DELETE", fish_path(name, first), headers=auth).status_code == 204
    gone = call("DELETE", fish_path(name, first), headers=auth)
    assert gone.status_code == 404 and gone.json()["error"] == "unknown_fish"
    assert [f["id"] for f in call("GET", fish_path(name), headers=auth).json()["fish"]] == [made[1].json()["id"]]
    # The player's own reset and the operator's leave fish alone.
    psql("UPDATE fish SET best_score = 9 WHERE id = :'p0'::uuid", made[1].json()["id"])
    assert call("POST", f"/api/players/{name}/highscores/reset", headers=auth).status_code == 200
    assert call("POST", "/api/admin/reset", headers={"Authorization": f"Bearer {ADMIN}"}, json={"player": name}).status_code == 200
    assert call("GET", fish_path(name), headers=auth).json()["fish"][0]["best_score"] == 9


def test_fish_are_private():
    name, token = register("Q")
    other_name, other = register("Q")
    assert call("GET", fish_path(name)).status_code == 401
    assert call("GET", fish_path(name), headers={"Authorization": f"Bearer {other}"}).status_code == 401
    assert call("GET", fish_path("nobody" + uuid.uuid4().hex[:6]), headers={"Authorization": f"Bearer {token}"}).status_code == 404
    mine = call("POST", fish_path(name), headers={"Authorization": f"Bearer {token}"}, json={"name": "Mine", "kind": "betta"})
    theirs = call("DELETE", fish_path(other_name, mine.json()["id"]), headers={"Authorization": f"Bearer {other}"})
    assert theirs.status_code == 404


@pytest.mark.parametrize("body,code", [
    ("{not json", "bad_json"),
    ('["Bubbles", "betta"]', "bad_json"),
    ('{"name": 7, "kind": "betta"}', "invalid_name"),
    ('{"name": "Robert\'); DROP TABLE fish;--", "kind": "betta"}', "invalid_name"),
    ('{"name": "<b>x</b>", "kind": "betta"}', "invalid_name"),
    ('{"name": "ABCDEFGHIJKLMNOPQRSTU", "kind": "betta"}', "invalid_name"),
    ('{"name": "Bubbles", "kind": "shark"}', "unknown_kind"),
    ('{"name": "Bubbles"}', "unknown_kind"),
])
def test_fish_refusals(body, code):
    name, token = register("B")
    r = call("POST", fish_path(name), data=body,
             headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == code
    assert call("GET", fish_path(name), headers={"Authorization": f"Bearer {token}"}).json() == {"fish": []}


def test_a_fish_id_must_be_a_uuid():
    name, token = register("U")
    r = requests.delete(BASE + fish_path(name, "not-a-uuid"), headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 400 and r.json()["error"] == "bad_fish"


def test_twenty_fish_at_most():
    name, token = register("T")
    auth = {"Authorization": f"Bearer {token}"}
    for i in range(20):
        assert call("POST", fish_path(name), headers=auth, json={"name": f"Fish {i}", "kind": "angelfish"}).status_code == 201
    more = call("POST", fish_path(name), headers=auth, json={"name": "One more", "kind": "angelfish"})
    assert more.status_code == 409 and more.json()["error"] == "too_many_fish"
    assert len(call("GET", fish_path(name), headers=auth).json()["fish"]) == 20


def test_weather_answers_from_the_clock_without_a_provider():
    r = call("GET", "/api/weather")
    assert r.status_code == 200
    body = r.json()
    assert body["source"] == "clock" and body["observed_at"] is None
    assert body["look"] in ("sunny", "night") and body["place"] == "Rochester, NY"


def test_admin_reset_scopes_and_audit():
    name, _ = register("A")
    give_best(name, "normal", 300, 30_000)
    give_best(name, "survival", 10, 30_000)
    auth = {"Authorization": f"Bearer {ADMIN}"}
    one = call("POST", "/api/admin/reset", headers=auth, json={"player": name, "mode": "normal"})
    assert one.status_code == 200
    assert one.json()["scope"] == "player_mode" and one.json()["highscores_reset"] == 1
    by_player = call("POST", "/api/admin/reset", headers=auth, json={"player": name})
    assert by_player.json()["highscores_reset"] == 1
    assert call("POST", "/api/admin/reset", headers=auth, json={"mode": "chess"}).status_code == 400
    assert call("POST", "/api/admin/reset", headers=auth, json={"game": "chess"}).status_code == 400
    give_best(name, "survival", 11, 30_000)
    one_game = call("POST", "/api/admin/reset", headers=auth, json={"game": "mindpad", "player": name})
    assert one_game.status_code == 200 and one_game.json()["game"] == "mindpad"
    assert one_game.json()["highscores_reset"] == 1
    assert call("POST", "/api/admin/reset", headers=auth, json={"player": "ghost" + uuid.uuid4().hex[:6]}).status_code == 404
    assert call("POST", "/api/admin/reset", headers=auth, data="[oops").status_code == 400
    everything = call("POST", "/api/admin/reset", headers=auth)
    assert everything.status_code == 200 and everything.json()["scope"] == "all"
    audit = psql("SELECT scope || ',' || requester FROM admin_resets ORDER BY id DESC LIMIT 3").splitlines()
    assert audit == ["all,127.0.0.1", "player,127.0.0.1", "player,127.0.0.1"]
    assert psql("SELECT coalesce(game, '-') FROM admin_resets ORDER BY id DESC LIMIT 2").splitlines() == ["-", "mindpad"]


def test_a_single_instance_does_not_drain():
    """Draining is for an instance of a cluster: this server (no MINDPAD_INSTANCE) refuses and goes on."""
    assert call("POST", "/api/admin/drain").status_code == 401
    refused = call("POST", "/api/admin/drain", headers={"Authorization": f"Bearer {ADMIN}"})
    assert refused.status_code == 409 and refused.json()["error"] == "not_clustered"
    health = call("GET", "/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok"


def levels_path(name, reset=False):
    return "/api/players/" + requests.utils.quote(name) + "/levels" + ("/reset" if reset else "")


def give_level(name, game, level, correct, time_ms, passed):
    """A level_progress row as the result write leaves it."""
    psql(
        """INSERT INTO level_progress (player_id, game, level, best_correct, best_duration_ms, passed_at, updated_at)
           SELECT id, :'p1', :'p2'::int, :'p3'::int, :'p4'::int, CASE WHEN :'p5' THEN now() END, now()
           FROM players WHERE name_key = lower(:'p0')""",
        name, game, level, correct, time_ms, "true" if passed else "false",
    )


def progress_rows(name):
    return int(psql("""SELECT count(*) FROM level_progress l JOIN players p ON p.id = l.player_id
                       WHERE p.name_key = lower(:'p0')""", name))


def levelled_games():
    """The catalog's games with levels, in menu order."""
    return [g for g in call("GET", "/api/games").json()["games"] if g.get("levels")]


def test_level_progress_lists_every_game_with_levels():
    name, token = register("K")
    auth = {"Authorization": f"Bearer {token}"}
    games = levelled_games()
    fresh = call("GET", levels_path(name), headers=auth)
    assert fresh.status_code == 200
    assert fresh.json() == {"games": [{"game": g["id"], "unlocked": 1, "levels": []} for g in games]}
    if not games:
        pytest.skip("this server hosts no game with levels yet")
    game = games[0]["id"]
    give_level(name, game, 1, 9, 41_000, True)
    give_level(name, game, 2, 5, 52_000, False)
    mine = call("GET", levels_path(name) + "?game=" + game, headers=auth)
    assert mine.status_code == 200
    assert mine.json() == {"games": [{"game": game, "unlocked": 2, "levels": [
        {"level": 1, "best_correct": 9, "best_duration_ms": 41_000, "passed": True},
        {"level": 2, "best_correct": 5, "best_duration_ms": 52_000, "passed": False},
    ]}]}
    everything = call("GET", levels_path(name), headers=auth).json()["games"]
    assert [g["game"] for g in everything] == [g["id"] for g in games]
    reset = call("POST", levels_path(name, reset=True) + "?game=" + game, headers=auth)
    assert reset.status_code == 200 and reset.json() == {"reset": 2}
    assert call("GET", levels_path(name) + "?game=" + game, headers=auth).json()["games"][0]["unlocked"] == 1


def test_level_progress_is_private_and_refuses_bad_input():
    name, token = register("V")
    _, other = register("V")
    auth = {"Authorization": f"Bearer {token}"}
    for method, path in [("GET", levels_path(name)), ("POST", levels_path(name, reset=True))]:
        assert call(method, path).status_code == 401
    # Another player's token is a wrong one (counted: the suite keeps below the limit of 5).
    assert call("GET", levels_path(name), headers={"Authorization": f"Bearer {other}"}).status_code == 401
    for method, path in [("GET", levels_path(name)), ("POST", levels_path(name, reset=True))]:
        nobody = call(method, levels_path("nobody" + uuid.uuid4().hex[:6], reset=method == "POST"), headers=auth)
        assert nobody.status_code == 404 and nobody.json()["error"] == "unknown_player"
        for query, code in [("game=chess", "unknown_game"), ("game=mindpad", "no_levels"), ("game=", "unknown_game"),
                            ("game=mindpad&game=mindpad", "duplicate_parameter")]:
            r = call(method, path + "?" + query, headers=auth)
            assert r.status_code == 400 and r.json()["error"] == code, (method, query, r.text)
    assert requests.delete(BASE + levels_path(name), headers=auth, timeout=10).status_code == 405


def test_player_levels_reset_takes_every_game_and_nothing_else():
    name, token = register("Z")
    auth = {"Authorization": f"Bearer {token}"}
    give_best(name, "normal", 200, 40_000)
    # Rows of any game id: the reset of every game takes them whatever the server hosts.
    give_level(name, "retired_game", 1, 10, 30_000, True)
    give_level(name, "retired_game", 2, 3, 30_000, False)
    r = call("POST", levels_path(name, reset=True), headers=auth)
    assert r.status_code == 200 and r.json() == {"reset": 2}
    assert progress_rows(name) == 0
    assert call("GET", f"/api/players/{name}").json()["highscores"]["normal"]["score"] == 200
    assert call("POST", levels_path(name, reset=True), headers=auth).json() == {"reset": 0}


def test_highscore_resets_leave_level_progress_alone_unless_asked():
    name, token = register("H")
    auth = {"Authorization": f"Bearer {token}"}
    admin = {"Authorization": f"Bearer {ADMIN}"}
    own = f"/api/players/{name}/highscores/reset"
    give_best(name, "normal", 100, 40_000)
    give_level(name, "mindpad", 1, 8, 40_000, True)
    plain = call("POST", own, headers=auth)
    assert plain.status_code == 200 and "levels_reset" not in plain.json()
    assert call("POST", own + "?levels=false", headers=auth).status_code == 200
    assert call("POST", "/api/admin/reset", headers=admin, json={"player": name}).status_code == 200
    assert call("POST", "/api/admin/reset", headers=admin, json={"player": name, "levels": False}).status_code == 200
    assert call("POST", "/api/admin/reset", headers=admin, json={"player": name, "levels": None}).status_code == 200
    assert progress_rows(name) == 1
    for query in ("levels=yes", "levels=TRUE", "levels=1", "levels=true&levels=true"):
        bad = call("POST", own + "?" + query, headers=auth)
        assert bad.status_code == 400 and bad.json()["error"] in ("bad_levels", "duplicate_parameter"), query
    for value in ("yes", 1, [True]):
        bad = call("POST", "/api/admin/reset", headers=admin, json={"player": name, "levels": value})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_levels", value
    assert progress_rows(name) == 1
    # Asked: the player's own reset of one game takes that game's progress only.
    give_level(name, "addone", 1, 2, 40_000, False)
    asked = call("POST", own + "?game=mindpad&levels=true", headers=auth)
    assert asked.status_code == 200 and asked.json()["levels_reset"] == 1
    assert progress_rows(name) == 1
    # The operator's, asked, takes the rest of this player's progress, whatever the mode.
    give_level(name, "mindpad", 1, 8, 40_000, True)
    other, _ = register("H")
    give_level(other, "mindpad", 1, 9, 40_000, True)
    by_admin = call("POST", "/api/admin/reset", headers=admin, json={"player": name, "mode": "survival", "levels": True})
    assert by_admin.status_code == 200 and by_admin.json()["levels_reset"] == 2
    assert progress_rows(name) == 0 and progress_rows(other) == 1



def give_race_run(name, race, score, duration_ms, answers, finished_at="2026-11-23T16:00:00Z"):
    """A MindPad result of `race` and its answers, as the result write
    stores them: `answers` are (correct, input, asked_ms, answered_ms, strokes JSON or None)."""
    result = psql(
        """INSERT INTO game_results (result_id, player_id, game, mode, score, correct, answered, duration_ms, room_id,
                                     race_id, finished_at)
           SELECT gen_random_uuid(), id, 'mindpad', 'normal', :'p1'::int, 0, 10, :'p2'::int, 'ROOM42', :'p3', :'p4'::timestamptz
           FROM players WHERE name_key = lower(:'p0') RETURNING result_id""",
        name, score, duration_ms, race, finished_at,
    )
    for seq, (correct, kind, asked, answered, strokes) in enumerate(answers):
        psql(
            """INSERT INTO result_answers (result_id, seq, question_id, prompt, answer, expected, correct, points, input,
                                           confidence, asked_ms, answered_ms, strokes, finished_at)
               SELECT result_id, :'p1'::smallint, 'r1q' || :'p1', '{"a":3,"op":"+","b":4}', '7', '7', :'p2'::boolean,
                      CASE WHEN :'p2'::boolean THEN 10 ELSE 0 END, :'p3',
                      CASE WHEN :'p3' = 'drawn' THEN 0.9 END, :'p4'::int, :'p5'::int, NULLIF(:'p6', '')::jsonb, finished_at
               FROM game_results WHERE result_id = :'p0'::uuid""",
            result, seq, "true" if correct else "false", kind, asked, answered, strokes or "",
        )


def test_an_answer_picked_among_readings_offered_keeps_its_choice():
    """Issue 43: a drawn answer the player picked among the readings offered
    (`result_answers.choice`, migration 0014) is replayed with what was offered
    and tapped, in the spec's shape; the other answers have no `choice`."""
    race = "e2e" + uuid.uuid4().hex[:9]
    ann, _ = register("Ann")
    strokes = "[[[10,60,0],[40,40,60],[40,90,120]]]"
    give_race_run(ann, race, 10, 41_000, [(True, "drawn", 1000, 3000, strokes), (False, "keypad", 3000, 4000, None)])
    choice = [{"place": 0, "options": [1, 7], "tapped": 7}]
    psql("""UPDATE result_answers SET answer = '7', choice = :'p1'::jsonb
            WHERE seq = 0 AND result_id = (SELECT result_id FROM game_results WHERE race_id = :'p0')""", race, json.dumps(choice))
    r = call("GET", "/api/races/" + race)
    assert r.status_code == 200
    picked, typed = r.json()["racers"][0]["answers"]
    assert picked["choice"] == choice and picked["answer"] == 7 and picked["input"] == "drawn"
    assert "choice" not in typed
    # Only a drawn answer may have one.
    bad = subprocess.run(["psql", os.environ["DATABASE_URL"], "-v", "ON_ERROR_STOP=1", "-Atq", "-v", f"p0={race}"],
                         input="""UPDATE result_answers SET choice = '[{"place":0,"options":[1,7],"tapped":7}]'
                                  WHERE seq = 1 AND result_id = (SELECT result_id FROM game_results WHERE race_id = :'p0')""",
                         text=True, capture_output=True)
    assert bad.returncode != 0 and "result_answers_choice_check" in bad.stderr


def test_a_race_is_replayed_with_every_answer_and_its_strokes():
    race = "e2e" + uuid.uuid4().hex[:9]
    ann, _ = register("Ann")
    bo, _ = register("Bo")
    strokes = "[[[10,10,0],[20,40.5,120]],[[5,5,300],[6,6,420]]]"
    give_race_run(ann, race, 10, 41_000, [(True, "drawn", 1000, 3000, strokes), (False, "keypad", 3000, 4000, None)])
    give_race_run(bo, race, 20, 50_000, [])
    r = call("GET", "/api/races/" + race)
    assert r.status_code == 200
    body = r.json()
    assert (body["race"], body["game"], body["mode"], body["room"]) == (race, "mindpad", "normal", "ROOM42")
    assert [x["name"] for x in body["racers"]] == [bo, ann]
    drawn, typed = body["racers"][1]["answers"]
    assert drawn["strokes"] == json.loads(strokes) and drawn["confidence"] == 0.9 and drawn["prompt"] == {"a": 3, "op": "+", "b": 4}
    assert typed["strokes"] is None and "confidence" not in typed and typed["input"] == "keypad"
    assert body["racers"][0]["answers"] == []
    missing = call("GET", "/api/races/nosuchrace00")
    assert missing.status_code == 404 and missing.json()["error"] == "unknown_race"
    bad = call("GET", "/api/races/" + requests.utils.quote("a;b", safe=""))
    assert bad.status_code == 400 and bad.json()["error"] == "bad_race"
    # The replay link is the web client's page (not an API operation).
    page = requests.get(BASE + "/replay/" + race, timeout=10)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert requests.get(BASE + "/replay/a/b", timeout=10).status_code == 404


def test_suspicious_races_flag_fast_and_repeated_answers_for_the_operator():
    fast_race, copy_race, clean_race = ("e2e" + uuid.uuid4().hex[:9] for _ in range(3))
    quick, _ = register("Fast")
    copier, _ = register("Copy")
    honest, _ = register("Fair")
    human = "[[[0,0,0],[8,0,100],[16,1,200]],[[40,0,300],[35,12,400],[30,24,520]]]"
    give_race_run(honest, clean_race, 10, 40_000, [(True, "drawn", 0, 2500, human)], "2030-01-01T00:00:00Z")
    give_race_run(quick, fast_race, 10, 40_000, [(True, "drawn", 0, 2000, "[[[0,0,0],[9,9,20]]]")], "2030-01-01T00:01:00Z")
    moved = "[[[100,-50,900],[108,-50,1000],[116,-49,1100]],[[140,-50,1200],[135,-38,1300],[130,-26,1420]]]"
    give_race_run(copier, copy_race, 10, 40_000, [(True, "drawn", 0, 2500, human), (True, "drawn", 2500, 5000, moved)],
                  "2030-01-01T00:02:00Z")
    assert call("GET", "/api/admin/suspicious_races").status_code == 401
    r = call("GET", "/api/admin/suspicious_races?limit=100", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200
    races = {x["race"]: x for x in r.json()["races"]}
    assert [f["reason"] for f in races[copy_race]["flags"]] == ["repeated_strokes"]
    assert [f["reason"] for f in races[fast_race]["flags"]] == ["fast_correct"]
    assert races[fast_race]["replay"] == "/replay/" + fast_race
    assert clean_race not in races
    listed = [x["race"] for x in r.json()["races"]]
    assert listed.index(copy_race) < listed.index(fast_race)


def test_a_code_signs_the_player_in_on_another_device_once():
    name, token = register("D")
    made = call("POST", f"/api/players/{name}/sign_in_codes", headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201
    code = made.json()["code"]
    assert made.json()["link"] == "/?sign_in=" + code
    signed = call("POST", "/api/sign_in", json={"code": code[:4].lower() + "-" + code[4:]})
    assert signed.status_code == 200 and signed.json()["name"] == name
    device = signed.json()["token"]
    assert device != token
    assert call("GET", fish_path(name), headers={"Authorization": f"Bearer {device}"}).status_code == 200
    # The one refused code of the suite (it counts like a wrong token: the suite keeps below 5).
    again = call("POST", "/api/sign_in", json={"code": code})
    assert again.status_code == 410 and again.json()["error"] == "sign_in_code_used"
    bad = call("POST", "/api/sign_in", json={"code": "0OIL"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_sign_in_code"

def test_zz_admin_guessing_is_refused_then_limited():
    """Runs last: it blocks this address on this server for five minutes."""
    audited = psql("SELECT count(*) FROM admin_resets")
    for _ in range(5):
        r = call("POST", "/api/admin/reset", headers={"Authorization": "Bearer guess"})
        assert r.status_code == 401
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
    blocked = call("POST", "/api/admin/reset", headers={"Authorization": f"Bearer {ADMIN}"})
    assert blocked.status_code == 429
    assert int(blocked.headers["Retry-After"]) > 0
    assert psql("SELECT count(*) FROM admin_resets") == audited


def test_a_path_finder_replay_carries_its_round_and_route():
    """Issue 45: a path-finder run in the replay has its round (`path`: grid, goal, counts and
    the robot's route, `[row, column, ms]` from the race start, the start cell first), in the
    spec's shape; a round stored without a route says null."""
    race = "e2e" + uuid.uuid4().hex[:9]
    ann, _ = register("Ann")
    bo, _ = register("Bo")
    route = [[1, 1, 4000], [2, 1, 5000], [2, 2, 6000]]
    # Stored as the path finder stores a round (migration 0018): its detail, the route in the replay part.
    detail = {"path": {"rows": 4, "columns": 5, "goal": {"row": 2, "column": 2}, "steps": 2, "best_steps": 2, "tries": 1,
                       "grid_shown_ms": 4000, "goal_reached_ms": 6000, "rank_value": 1.0, "route": None}}
    for name, kept in ((ann, json.dumps({"path": {"route": route}})), (bo, "")):
        psql(
            """INSERT INTO game_results (result_id, player_id, game, mode, score, correct, answered, duration_ms, race_id,
                                         finished_at, completed, detail, replay_detail)
               SELECT gen_random_uuid(), id, 'path_finder', 'normal', 1000, 1, 1, 6000, :'p1', now(), true,
                      :'p2'::jsonb, NULLIF(:'p3', '')::jsonb
               FROM players WHERE name_key = lower(:'p0')""",
            name, race, json.dumps(detail), kept,
        )
    r = call("GET", "/api/races/" + race)
    assert r.status_code == 200
    paths = {x["name"]: x["path"] for x in r.json()["racers"]}
    assert paths[ann] == {"rows": 4, "columns": 5, "goal": {"row": 2, "column": 2}, "steps": 2, "best_steps": 2, "tries": 1,
                          "grid_shown_ms": 4000, "goal_reached_ms": 6000, "rank_value": 1.0, "route": route}
    assert paths[bo]["route"] is None


def test_a_teachers_classes_are_hers_alone():
    """Issue 46: a teacher signs up and in (the real password hash, 600,000 rounds), makes classes
    with join codes, and another teacher, a player, or no token at all gets nothing of them."""
    name = "T" + uuid.uuid4().hex[:8]
    made = call("POST", "/api/teachers", json={"name": name, "password": "a long passphrase"})
    assert made.status_code == 201
    token = made.json()["token"]
    assert call("POST", "/api/teachers", json={"name": name.lower(), "password": "another one!"}).status_code == 409
    assert call("POST", "/api/teachers", json={"name": "U" + name, "password": "short"}).json()["error"] == "invalid_password"
    signed = call("POST", "/api/teachers/sign_in", json={"name": name, "password": "a long passphrase"})
    assert signed.status_code == 200 and signed.json()["name"] == name and signed.json()["token"] != token
    wrong = call("POST", "/api/teachers/sign_in", json={"name": name, "password": "not the one"})
    assert wrong.status_code == 401
    auth = {"Authorization": f"Bearer {signed.json()['token']}"}
    klass = call("POST", "/api/classes", headers=auth, json={"name": "<i>3B</i>"})
    assert klass.status_code == 201
    body = klass.json()
    assert body["name"] == "<i>3B</i>" and len(body["join_code"]) == 6
    listed = call("GET", "/api/classes", headers=auth).json()["classes"]
    assert [c["id"] for c in listed] == [body["id"]]
    other = call("POST", "/api/teachers", json={"name": "O" + name[1:], "password": "a long passphrase"}).json()["token"]
    theirs = {"Authorization": f"Bearer {other}"}
    assert call("GET", "/api/classes/" + body["id"], headers=theirs).status_code == 404
    assert call("DELETE", "/api/classes/" + body["id"], headers=theirs).status_code == 404
    assert call("GET", "/api/classes", headers=theirs).json() == {"classes": []}
    assert call("GET", "/api/classes/" + body["id"]).status_code == 401
    assert call("DELETE", "/api/classes/" + body["id"], headers=auth).status_code == 204
    assert call("GET", "/api/classes/" + body["id"], headers=auth).status_code == 404


def test_pupils_join_a_class_with_its_code():
    """Issue 46: the teacher's list, a pupil taking their name with the code, another joining
    under their own name and let in; in the spec's shapes."""
    teacher = call("POST", "/api/teachers", json={"name": "R" + uuid.uuid4().hex[:8], "password": "a long passphrase"})
    auth = {"Authorization": f"Bearer {teacher.json()['token']}"}
    klass = call("POST", "/api/classes", headers=auth, json={"name": "3B"}).json()
    listed = call("POST", f"/api/classes/{klass['id']}/pupils", headers=auth, json={"names": ["Ann", "Bo"]})
    assert [p["name"] for p in listed.json()["pupils"]] == ["Ann", "Bo"]
    code = klass["join_code"]
    assert call("GET", f"/api/class_codes/{code.lower()}").json() == {"class": "3B", "names": ["Ann", "Bo"]}
    ann, ann_token = register("A")
    took = call("POST", f"/api/players/{ann}/classes", headers={"Authorization": f"Bearer {ann_token}"},
                json={"code": code, "name": "Ann"})
    assert took.status_code == 200 and took.json() == {"class": "3B", "name": "Ann", "approved": True}
    cy, cy_token = register("C")
    waits = call("POST", f"/api/players/{cy}/classes", headers={"Authorization": f"Bearer {cy_token}"}, json={"code": code})
    assert waits.json() == {"class": "3B", "name": cy, "approved": False}
    approved = call("POST", f"/api/classes/{klass['id']}/pupils/{cy}/approve", headers=auth)
    assert approved.json() == {"name": cy, "joined": True, "approved": True}
    mine = call("GET", f"/api/players/{cy}/classes", headers={"Authorization": f"Bearer {cy_token}"}).json()
    assert mine == {"classes": [{"class": "3B", "name": cy, "approved": True, "lesson": None}]}
    assert call("DELETE", f"/api/classes/{klass['id']}/pupils/Bo", headers=auth).status_code == 204
    assert call("GET", f"/api/class_codes/{code}").json()["names"] == []
