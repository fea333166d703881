"""Issue 45, the first screen: it says what the visitor came for. A child sent to the kids'
corner (`/?game=kids`) is greeted as one, with pictures, and lands in the corner; a friend
invited to an Add-One race (the lobby's link names its game) is told the room and the game;
anyone else hears of every game, not only MindPad; and the kids' "Change name" says that the
name is the player in every game, and the old name keeps its scores. Screenshots in English and
Chinese at 1280×800, 390×844 and 844×390."""
from selenium.webdriver.common.by import By

from conftest import BASE_URL, DESKTOP, PHONE, el, onboard, open_app, scene, snap, unique_name, viewport, wait, wait_scene
from test_kids import axe_check

LANDSCAPE = (844, 390)


def shots(drv, name):
    """The first screen at the three sizes, in English then Chinese (and back)."""
    for lang in ("en", "zh"):
        snap(drv, f"{name}-{lang}")
        viewport(drv, LANDSCAPE, True)
        drv.save_screenshot(str(__import__("conftest").ARTIFACTS / f"{name}-{lang}-landscape.png"))
        viewport(drv, DESKTOP, False)
        el(drv, "#lang-switch").click()
        wait(drv, lambda d, l=lang: d.execute_script("return document.documentElement.lang") == ("zh-Hans" if l == "en" else "en"),
             5, "the other language")


def test_a_child_sent_to_the_kids_corner(browser):
    drv = browser()
    open_app(drv, "/?game=kids")
    wait_scene(drv, "onboard")
    assert el(drv, "#onboard-title").text == "Hello! Come and play"
    assert "Counting, colours" in el(drv, "#onboard-lead").text and "grown-up" in el(drv, "#onboard-lead").text
    assert el(drv, "#onboard-pictures").is_displayed()
    axe_check(drv, "the kids' first screen")
    shots(drv, "entry-01-kids")
    assert el(drv, "#onboard-title").text == "Hello! Come and play"
    name = unique_name("Tot")
    onboard(drv, name)
    wait_scene(drv, "kids-hello")
    assert el(drv, "#kids-hello-title").text == f"Hello, {name}!"
    assert "game=" not in drv.current_url

    # The kids' "Change name" says what it does: the player in every game; the old name keeps its scores.
    el(drv, "#kids-start").click()
    wait_scene(drv, "kids-games")
    el(drv, "#kids-rename").click()
    wait_scene(drv, "onboard")
    assert el(drv, "#onboard-title").text == "Play under another name"
    lead = el(drv, "#onboard-lead").text
    assert "in every game" in lead and f"{name}'s scores and levels stay with {name}" in lead, lead
    shots(drv, "entry-03-rename")
    el(drv, "#onboard-cancel").click()
    wait_scene(drv, "kids-games")


def test_a_friend_invited_to_an_addone_race_and_anyone_else(browser):
    host = browser()
    open_app(host)
    onboard(host, unique_name("Host"))
    wait_scene(host, "menu")
    host.execute_script("import('/js/controller.js').then((m) => m.send({type: 'create_room', game: 'addone', mode: 'time_attack'}))")
    wait_scene(host, "lobby")
    link = el(host, "#lobby-link").get_attribute("value")
    code = el(host, "#lobby-code").text
    assert link == f"{BASE_URL}/?room={code}&game=addone", link

    friend = browser()
    open_app(friend, link[len(BASE_URL):])
    wait_scene(friend, "onboard")
    assert el(friend, "#onboard-title").text == f"You are invited to a race: room {code}"
    assert el(friend, "#onboard-lead").text.startswith("Add-One Fish: Add one to every digit"), el(friend, "#onboard-lead").text
    axe_check(friend, "the invited first screen")
    shots(friend, "entry-02-invited")
    onboard(friend, unique_name("Pal"))
    wait_scene(friend, "lobby")

    # Anyone else: every game, not only MindPad.
    other = browser()
    open_app(other)
    wait_scene(other, "onboard")
    assert el(other, "#onboard-title").text == "Welcome to MindPad"
    lead = el(other, "#onboard-lead").text
    assert all(g in lead for g in ("MindPad", "Add-One Fish", "Path Finder", "kids' corner")), lead
    assert not el(other, "#onboard-pictures").is_displayed()
    snap(other, "entry-00-plain")
