"""The menu is built from the catalog of games (GET /api/games): the games,
then the chosen game's modes; races and boards follow the chosen game.
Against the real server (which hosts MindPad alone) and a scripted one
(fake_server.py) that hosts three games, one of them answered by taps."""
import json
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import conftest
from conftest import INJECTED, assert_no_alert, el, new_player, snap, wait, wait_scene
from fake_server import MINDPAD, QUICK_PICK, FakeServer

XSS = "<img src=x onerror=alert(1)>"
HOSTILE_GAME = {"id": "path", "names": {"en": XSS, "zh": XSS}, "modes": ["time_attack"], "normal_length": 3,
                "answer_input": "spoken", "board_order": "lower_first"}   # an input no client takes


def game_cards(drv):
    return [(c.find_element(By.CSS_SELECTOR, "input").get_attribute("value"),
             c.find_element(By.CSS_SELECTOR, ".game-name").text)
            for c in drv.find_elements(By.CSS_SELECTOR, "#menu-games-list .game-card")]


def chosen_game(drv):
    return drv.find_element(By.CSS_SELECTOR, "#menu-games-list input:checked").get_attribute("value")


def mode_buttons(drv):
    return [b.get_attribute("id") for b in drv.find_elements(By.CSS_SELECTOR, "#menu-modes .mode-btn")]


def test_menu_lists_the_catalogs_games_and_their_modes(browser):
    with urllib.request.urlopen(conftest.BASE_URL + "/api/games", timeout=5) as r:
        games = json.load(r)["games"]
    assert games, "the server hosts at least one game"
    # Games with levels (the kids' exercises) are in the kids' corner, one button away (test_kids.py).
    kids = [g for g in games if g.get("levels")]
    games = [g for g in games if not g.get("levels")]
    drv = browser()
    new_player(drv, "Menu")
    wait_scene(drv, "menu")
    assert game_cards(drv) == [(g["id"], g["names"]["en"]) for g in games]
    assert el(drv, "#btn-kids").is_displayed() == bool(kids)
    assert chosen_game(drv) == games[0]["id"]
    assert mode_buttons(drv) == [f"btn-{m}" for m in games[0]["modes"]]
    if "normal" in games[0]["modes"]:
        assert el(drv, "#btn-normal small").text.startswith(f"{games[0]['normal_length']} questions")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: game_cards(d) == [(g["id"], g["names"]["zh"]) for g in games], 5, "Chinese game names")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: game_cards(d)[0][1] == games[0]["names"]["en"], 5, "English game names")


@pytest.fixture
def three_games():
    fake = FakeServer(games=(MINDPAD, QUICK_PICK, HOSTILE_GAME))
    old = conftest.BASE_URL
    conftest.BASE_URL = f"http://127.0.0.1:{fake.port}"
    yield fake
    conftest.BASE_URL = old
    fake.close()


def test_each_game_offers_only_its_modes_everywhere(browser, three_games):
    fake = three_games
    drv = browser()
    new_player(drv, "Me")
    wait_scene(drv, "menu")
    assert game_cards(drv) == [("mindpad", "MindPad"), ("quick_pick", "Quick Pick"), ("path", XSS)]
    assert chosen_game(drv) == "mindpad"
    assert mode_buttons(drv) == ["btn-normal", "btn-survival", "btn-time_attack"]
    assert el(drv, "#btn-normal small").text == "10 questions, no time limit"

    # Quick Pick, chosen with the keyboard: two modes, a Normal of 5; the choice is remembered.
    drv.execute_script("document.querySelector('#menu-games-list input:checked').focus()")
    ActionChains(drv).send_keys(Keys.ARROW_RIGHT).perform()
    wait(drv, lambda d: mode_buttons(d) == ["btn-normal", "btn-time_attack"], 5, "quick_pick's modes")
    assert drv.switch_to.active_element.get_attribute("value") == "quick_pick", "the focus stays on the game"
    assert el(drv, "#btn-normal small").text == "5 questions, no time limit"
    assert "Tap the answer" in drv.find_elements(By.CSS_SELECTOR, "#menu-games-list .game-card")[1].text
    snap(drv, "19-menu-games")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#btn-normal small").text == "5 道题，不限时", 5, "Chinese menu")
    assert game_cards(drv)[1] == ("quick_pick", "快选")
    snap(drv, "20-menu-games-zh")
    el(drv, "#lang-switch").click()
    drv.refresh()
    wait_scene(drv, "menu", 20)
    assert chosen_game(drv) == "quick_pick" and mode_buttons(drv) == ["btn-normal", "btn-time_attack"]

    # A game this browser cannot play says so, its modes disabled; its hostile name stays text.
    drv.find_element(By.CSS_SELECTOR, "#menu-games-list input[value=path]").find_element(By.XPATH, "..").click()
    wait(drv, lambda d: mode_buttons(d) == ["btn-time_attack"], 5, "path's modes")
    assert not el(drv, "#btn-time_attack").is_enabled()
    assert "Not playable in this browser yet" in drv.find_elements(By.CSS_SELECTOR, "#menu-games-list .game-card")[2].text
    assert drv.find_elements(By.CSS_SELECTOR, INJECTED) == []
    drv.find_element(By.CSS_SELECTOR, "#menu-games-list input[value=quick_pick]").find_element(By.XPATH, "..").click()
    wait(drv, lambda d: mode_buttons(d) == ["btn-normal", "btn-time_attack"], 5, "quick_pick again")

    # Races offer the chosen game's modes.
    el(drv, "#btn-race").click()
    wait_scene(drv, "race")
    assert el(drv, "#race-game").text == "Quick Pick"
    modes = [i.get_attribute("value") for i in drv.find_elements(By.CSS_SELECTOR, "input[name=race-mode]")]
    assert modes == ["normal", "time_attack"]
    drv.find_element(By.CSS_SELECTOR, "#scene-race .back").click()
    wait_scene(drv, "menu")

    # Boards ask for the chosen game and show its modes; another game is a tab away.
    el(drv, "#btn-leaderboards").click()
    wait_scene(drv, "leaderboards")
    tabs = lambda d, which: [b.text for b in d.find_elements(By.CSS_SELECTOR, f"#lb-{which} [role=tab]")]
    wait(drv, lambda d: any("game=quick_pick&mode=normal" in p for p in fake.requests), 5, "quick_pick's board")
    assert tabs(drv, "games") == ["MindPad", "Quick Pick", XSS]
    assert el(drv, "#lb-games [aria-selected=true]").text == "Quick Pick"
    assert tabs(drv, "modes") == ["Normal", "Time Attack"]
    el(drv, "#lb-games [data-value=mindpad]").click()
    wait(drv, lambda d: tabs(d, "modes") == ["Normal", "Survival", "Time Attack"], 5, "MindPad's modes")
    wait(drv, lambda d: any("game=mindpad&mode=normal" in p for p in fake.requests), 5, "MindPad's board")
    drv.find_element(By.CSS_SELECTOR, "#scene-leaderboards .back").click()
    el(drv, "#btn-highscores").click()
    wait_scene(drv, "highscores")
    rows = lambda d: [r.get_attribute("data-mode") for r in d.find_elements(By.CSS_SELECTOR, "#hs-body tr")]
    wait(drv, lambda d: rows(d) == ["normal", "time_attack"], 5, "quick_pick's highscores")
    assert any(p.startswith("/api/players/") and p.endswith("?game=quick_pick") for p in fake.requests)
    assert drv.find_elements(By.CSS_SELECTOR, INJECTED) == []
    assert_no_alert(drv)


def test_a_choice_game_is_played_with_taps(browser, three_games):
    """A scripted server plays one question of quick_pick: the game scene shows
    the prompt's text and big options instead of the pad, and a tap submits the
    option's index."""
    fake = three_games
    drv = browser()
    new_player(drv, "Me")
    wait_scene(drv, "menu")
    drv.find_element(By.CSS_SELECTOR, "#menu-games-list input[value=quick_pick]").find_element(By.XPATH, "..").click()
    wait(drv, lambda d: mode_buttons(d) == ["btn-normal", "btn-time_attack"], 5, "quick_pick's modes")
    el(drv, "#btn-normal").click()
    wait_scene(drv, "game")
    wait(drv, lambda d: el(d, "#question").get_attribute("data-id") == "r1q0", 5, "the question")
    assert el(drv, "#question").text == "Tap the largest"
    options = drv.find_elements(By.CSS_SELECTOR, "#choices button.choice")
    assert [o.text for o in options] == ["3", "11", "7"]
    assert not el(drv, "#pad-area").is_displayed()
    snap(drv, "21-choice-game")
    options[1].click()
    wait_scene(drv, "results")
    creates = [m for m in fake.received if m["type"] == "create_room"]
    assert creates == [{"type": "create_room", "game": "quick_pick", "mode": "normal", "max_players": 1}]
    submits = [m for m in fake.received if m["type"] == "submit"]
    assert submits == [{"type": "submit", "question": "r1q0", "answer": {"option_index": 1}}]
    assert not any(m["type"] in ("points", "clear") for m in fake.received), "a tap sends no strokes"
    assert el(drv, "#results-mode").text == "Quick Pick · Normal"
    assert el(drv, "#results-correct").text == "1 / 1"
    wait(drv, lambda d: el(d, "#results-best").is_displayed(), 5, "personal best")
    snap(drv, "22-choice-results")
    # Back to MindPad: the pad is the input again, the options gone.
    el(drv, "#results-menu").click()
    wait_scene(drv, "menu")
    drv.find_element(By.CSS_SELECTOR, "#menu-games-list input[value=mindpad]").find_element(By.XPATH, "..").click()
    wait(drv, lambda d: len(mode_buttons(d)) == 3, 5, "MindPad's modes")
    el(drv, "#btn-normal").click()
    wait_scene(drv, "game")
    wait(drv, lambda d: el(d, "#question").text == "4 × 2 = ?", 5, "MindPad's question")
    assert el(drv, "#pad-area").is_displayed()
    assert not el(drv, "#choices").is_displayed()
    assert drv.find_elements(By.CSS_SELECTOR, "#choices button") == []


def test_the_menu_says_when_the_games_cannot_be_loaded(browser):
    fake = FakeServer(games=None)
    old = conftest.BASE_URL
    conftest.BASE_URL = f"http://127.0.0.1:{fake.port}"
    try:
        drv = browser()
        new_player(drv, "Me")
        wait_scene(drv, "menu")
        wait(drv, lambda d: el(d, "#menu-games-status").text == "The list of games could not be loaded.", 5, "the failure")
        assert mode_buttons(drv) == [] and game_cards(drv) == []
        assert el(drv, "#btn-race").is_displayed(), "the rest of the menu still works"
        fake.games = [MINDPAD, QUICK_PICK]
        el(drv, "#menu-games-retry").click()
        wait(drv, lambda d: [g for g, _ in game_cards(d)] == ["mindpad", "quick_pick"], 5, "the games")
        assert not el(drv, "#menu-games-retry").is_displayed() and not el(drv, "#menu-games-status").is_displayed()
        assert mode_buttons(drv) == ["btn-normal", "btn-survival", "btn-time_attack"]
        # The console saw the refused requests and nothing else (reading the log empties it).
        severe = [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        assert severe and all("/api/games" in m and "503" in m for m in severe), severe
    finally:
        conftest.BASE_URL = old
        fake.close()
