"""My handwriting (issue 43): the reader learns each player's hand. The menu
opens the settings; they show from how many of the player's drawings it has
learned (a sure answer graded right is learned), switch the learning off
(the server forgets the hand) and on again, and forget. Against the real
server and database, in both languages and at phone size."""
from conftest import answer, el, new_player, snap, wait, wait_scene


def status(drv):
    return el(drv, "#handwriting-status").text


def test_the_reader_learns_a_hand_and_the_player_switches_it_off_and_forgets_it(browser):
    drv = browser()
    name = new_player(drv, "Hand")
    wait_scene(drv, "menu")
    assert el(drv, "#btn-handwriting").is_displayed()
    snap(drv, "menu-handwriting-en")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: el(d, "#btn-handwriting").text == "我的笔迹", 5, "the link in Chinese")
    snap(drv, "menu-handwriting-zh")
    el(drv, "#lang-switch").click()
    el(drv, "#btn-handwriting").click()
    wait_scene(drv, "handwriting")
    wait(drv, lambda d: "0" in status(d), 5, "nothing learned yet")
    assert el(drv, "#handwriting-learns").is_selected()
    assert not el(drv, "#handwriting-forget").is_enabled()   # nothing to forget

    # A few answers written as the browser tests draw them (read surely and right):
    # learned. The hand is stored when the player leaves; a reload identifies again
    # and brings it back.
    el(drv, "#handwriting-back").click()
    wait_scene(drv, "menu")
    el(drv, "#btn-normal").click()
    qid = None
    for _ in range(10):
        qid = answer(drv, qid)[0]
    wait_scene(drv, "results", 15)
    el(drv, "#results-menu").click()
    wait_scene(drv, "menu")
    drv.get(drv.current_url)
    wait_scene(drv, "menu", 20)
    el(drv, "#btn-handwriting").click()
    wait_scene(drv, "handwriting")
    wait(drv, lambda d: any(ch.isdigit() and ch != "0" for ch in status(d)), 20, "drawings learned")
    assert el(drv, "#handwriting-forget").is_enabled()
    snap(drv, "handwriting-en")
    el(drv, "#lang-switch").click()
    wait(drv, lambda d: "学习" in status(d), 5, "the status in Chinese")
    snap(drv, "handwriting-zh")
    el(drv, "#lang-switch").click()

    # Forget: nothing learned, still on.
    el(drv, "#handwriting-forget").click()
    wait(drv, lambda d: "0 " in status(d) and el(d, "#handwriting-learns").is_enabled(), 10, "forgotten")
    assert el(drv, "#handwriting-learns").is_selected()
    # Off: says so; the checkbox stays off after a reload.
    el(drv, "#handwriting-learns").click()
    wait(drv, lambda d: status(d).startswith("Off"), 10, "switched off")
    drv.get(drv.current_url)
    wait_scene(drv, "menu", 20)
    el(drv, "#btn-handwriting").click()
    wait_scene(drv, "handwriting")
    wait(drv, lambda d: status(d).startswith("Off"), 10, "still off after a reload")
    assert not el(drv, "#handwriting-learns").is_selected()
    assert name
