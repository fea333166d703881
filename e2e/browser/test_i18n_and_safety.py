"""Language switch, the first-visit flow, plain-text names, and the
connection-lost message."""
import pathlib
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (INJECTED, assert_no_alert, el, new_player, onboard, open_app, scene, snap, wait,
                      wait_scene)

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"
XSS = "<img src=x onerror=alert(1)>"


def visible_text(drv):
    return drv.execute_script("return document.body.innerText")


def test_switch_language_is_remembered(browser):
    drv = browser()
    name = new_player(drv, "Lang")
    wait_scene(drv, "menu")
    assert el(drv, "#btn-normal").text.startswith("Normal")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#btn-normal").text.startswith("普通模式"), 5, "Chinese menu")
    assert drv.execute_script("return document.documentElement.lang") == "zh-Hans"
    assert el(drv, "#menu-hello").text == f"你好，{name}"
    snap(drv, "15-menu-zh")
    # Every visible text of the menu is translated: no English words left but the brand and name.
    leftover = re.findall(r"[A-Za-z]{3,}", visible_text(drv).replace(name, "").replace("MindPad", "").replace("English", ""))
    assert not leftover, leftover
    # The choice survives a reload.
    drv.refresh()
    wait_scene(drv, "menu", 20)
    assert el(drv, "#btn-time_attack").text.startswith("计时模式")
    el(drv, "#btn-leaderboards").click()
    wait_scene(drv, "leaderboards")
    wait(drv, lambda d: el(d, "#lb-reset").text != "", 10, "reset line")
    assert el(drv, "#lb-periods [data-value=day]").text == "今日"
    snap(drv, "16-leaderboards-zh")
    # Keyboard: arrow keys move between the tabs and load them.
    el(drv, "#lb-modes [aria-selected=true]").send_keys(Keys.ARROW_RIGHT)
    wait(drv, lambda d: el(d, "#lb-modes [aria-selected=true]").get_attribute("data-value") == "survival", 5, "tab")
    el(drv, "#lb-modes [aria-selected=true]").send_keys(Keys.ARROW_RIGHT)
    # Back to English.
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#lb-periods [data-value=day]").text == "Today", 5, "English tabs")
    leftover = re.findall(r"[\u4e00-\u9fff]+", visible_text(drv).replace("中文", ""))
    assert not leftover, leftover


def test_first_visit_and_keyboard_menu(browser):
    drv = browser()
    open_app(drv)
    wait_scene(drv, "onboard")
    snap(drv, "00-first-visit")
    # Keyboard only: type the name, Enter, then Tab to a menu button and press Enter.
    box = el(drv, "#name-input")
    box.send_keys("Key" + "board" + drv.session_id[:4])
    box.send_keys(Keys.ENTER)
    wait_scene(drv, "menu")
    token = drv.execute_script("return localStorage.getItem('mindpad.tokens')")
    assert token and len(token) > 64
    active = drv.switch_to.active_element
    assert active.get_attribute("id") == "btn-normal"
    active.send_keys(Keys.TAB)
    assert drv.switch_to.active_element.get_attribute("id") == "btn-survival"
    drv.switch_to.active_element.send_keys(Keys.TAB, Keys.TAB, Keys.TAB)
    assert drv.switch_to.active_element.get_attribute("id") == "btn-highscores"
    drv.switch_to.active_element.send_keys(Keys.ENTER)
    wait_scene(drv, "highscores")
    # The name can be changed later; the old name stays ours (its token kept).
    drv.find_element(By.CSS_SELECTOR, "#scene-highscores .back").click()
    wait_scene(drv, "menu")
    old = el(drv, "#player-name").text
    el(drv, "#btn-change-name").click()
    wait_scene(drv, "onboard")
    onboard(drv, old + "x")
    wait(drv, lambda d: scene(d) == "menu" and el(d, "#player-name").text == old + "x", 10, "renamed")
    el(drv, "#btn-change-name").click()
    onboard(drv, old)
    wait(drv, lambda d: scene(d) == "menu" and el(d, "#player-name").text == old, 10, "old name back")
    # Joining a room that does not exist says so.
    el(drv, "#btn-race").click()
    wait_scene(drv, "race")
    el(drv, "#join-code").send_keys("zzzz", Keys.ENTER)
    wait(drv, lambda d: el(d, "#join-error").text == "There is no room with that code.", 10, "join error")


def test_hostile_name_is_plain_text(browser):
    drv = browser()
    open_app(drv)
    onboard(drv, XSS)
    # The server refuses the name; the page shows it back as text, never as markup.
    wait(drv, lambda d: XSS in el(d, "#onboard-error").text, 10, "the refusal")
    assert drv.find_elements(By.CSS_SELECTOR, INJECTED) == []
    assert_no_alert(drv)
    assert el(drv, "#name-input").get_attribute("value") == XSS
    snap(drv, "17-hostile-name")
    # Also in Chinese.
    el(drv, "#lang-switch").click()
    onboard(drv, XSS)
    wait(drv, lambda d: "无法使用" in el(d, "#onboard-error").text and XSS in el(d, "#onboard-error").text, 10, "zh refusal")
    assert drv.find_elements(By.CSS_SELECTOR, INJECTED) == []
    assert_no_alert(drv)
    el(drv, "#lang-switch").click()


def test_names_are_never_inserted_as_html():
    """Every scene inserts other players' names with textContent / createTextNode."""
    scripts = sorted(WEB.glob("js/**/*.js"))
    assert len(scripts) >= 20, scripts   # the scenes, kinds and inputs are checked too
    for js in scripts:
        src = js.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in src, f"{js.name} uses {sink}"


def test_hostile_names_from_other_players_stay_text(browser):
    """Other players' names, as a server could send them, in the lobby, the
    race lanes, the standings and the leaderboard: always text."""
    import conftest
    from fake_server import FakeServer
    from conftest import draw_digit
    fake = FakeServer(XSS)
    old = conftest.BASE_URL
    conftest.BASE_URL = f"http://127.0.0.1:{fake.port}"
    try:
        drv = browser()
        new_player(drv, "Me")
        wait_scene(drv, "menu")
        el(drv, "#btn-race").click()
        el(drv, "#race-create").click()
        wait_scene(drv, "lobby")
        names = [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#lobby-members .name")]
        assert names[1] == XSS
        el(drv, "#lobby-start").click()
        wait_scene(drv, "game")
        wait(drv, lambda d: XSS in [e.text for e in d.find_elements(By.CSS_SELECTOR, "#lanes-list .name")], 10, "lanes")
        draw_digit(drv, 8)
        wait(drv, lambda d: el(d, "#btn-submit").is_enabled(), 5, "Submit enabled")
        el(drv, "#btn-submit").click()
        wait_scene(drv, "standings")
        assert el(drv, "#podium .rank-1 .name").text == XSS
        assert el(drv, "#standings-list .standing .name").text == XSS
        el(drv, "#standings-menu").click()
        wait_scene(drv, "menu")
        el(drv, "#btn-leaderboards").click()
        wait(drv, lambda d: XSS in [e.text for e in d.find_elements(By.CSS_SELECTOR, "#lb-body td.name")], 10, "board")
        assert drv.find_elements(By.CSS_SELECTOR, INJECTED) == []
        assert_no_alert(drv)
    finally:
        conftest.BASE_URL = old
        fake.close()
