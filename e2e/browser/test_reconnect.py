"""The network drops mid-game: the page says the server cannot be reached,
reconnects with backoff on its own, and resumes the same race."""
import pytest

from conftest import (BASE_URL, answer, current_question, draw_digit, el, hidden_digit, new_player, snap, wait,
                      wait_scene)
from proxy import Proxy


@pytest.fixture
def proxy():
    host, port = BASE_URL.split("//", 1)[1].rsplit(":", 1)
    p = Proxy(host, int(port))
    yield p
    p.close()


def normal_race_through(proxy, drv, name):
    """A new player, over the proxy, in a solo Normal MindPad race."""
    import conftest
    old = conftest.BASE_URL
    conftest.BASE_URL = f"http://127.0.0.1:{proxy.port}"
    try:
        new_player(drv, name)
    finally:
        conftest.BASE_URL = old
    wait_scene(drv, "menu")
    el(drv, "#btn-normal").click()
    wait_scene(drv, "game")


def test_reconnect_resumes_the_race(browser, proxy):
    drv = browser()
    normal_race_through(proxy, drv, "Net")
    qid, text, digit, correct, got = answer(drv, None)
    assert correct, f"{text}: drew {digit}, read {got}"
    wait(drv, lambda d: el(d, "#question").get_attribute("data-id") not in (None, qid), 10, "second question")
    q2 = el(drv, "#question").get_attribute("data-id")
    score = el(drv, "#game-score").text

    proxy.cut()
    wait(drv, lambda d: el(d, "#conn-banner").is_displayed(), 10, "the connection banner")
    wait(drv, lambda d: "cannot be reached" in el(d, "#conn-text").text, 15, "the unreachable message")
    snap(drv, "18-connection-lost")
    proxy.restore()
    # Backoff brings it back by itself (attempts at ~0.5, 1, 2, 4, 8 s).
    wait(drv, lambda d: not el(d, "#conn-banner").is_displayed(), 15, "reconnected")
    wait(drv, lambda d: el(d, "#player-name").text != "", 10, "identified again")
    assert el(drv, "#question").get_attribute("data-id") == q2
    assert el(drv, "#game-score").text == score
    qid, text, digit, correct, got = answer(drv, qid)
    assert qid == q2 and correct, f"{text}: drew {digit}, read {got}"
    el(drv, "#game-quit").click()
    wait_scene(drv, "menu")


def test_a_submit_pressed_while_the_link_is_down_is_sent_when_it_is_back(browser, proxy):
    """The player writes the digit and presses Submit with the connection gone: once the page has
    reconnected and the server gives the same question again, the drawing and then the submit go
    again by themselves, and the answer is graded without a second press."""
    drv = browser()
    normal_race_through(proxy, drv, "Blip")
    wait(drv, lambda d: current_question(d)[0] not in (None, ""), 10, "the first question")
    qid, text = current_question(drv)
    digit = hidden_digit(text)
    draw_digit(drv, digit)
    wait(drv, lambda d: el(d, "#guess").get_attribute("data-digit") == str(digit), 10, f"the live guess {digit}")

    proxy.cut()
    wait(drv, lambda d: el(d, "#conn-banner").is_displayed(), 10, "the connection banner")
    assert not el(drv, "#conn-wait").is_displayed(), "no answer waits yet"
    el(drv, "#btn-submit").click()
    assert el(drv, "#btn-submit").get_attribute("disabled") is not None, "Submit waits for its answer"
    assert el(drv, "#feedback").get_attribute("data-question") != qid, "graded with no server"
    assert el(drv, "#conn-wait").text == "Your answer is sent as soon as the connection is back."
    snap(drv, "18-connection-lost-answer-waits")
    proxy.restore()

    wait(drv, lambda d: not el(d, "#conn-banner").is_displayed(), 15, "reconnected")
    wait(drv, lambda d: el(d, "#feedback").get_attribute("data-question") == qid, 10, "the grade of the submit made offline")
    fb = el(drv, "#feedback")
    assert fb.get_attribute("data-correct") == "true", f"{text}: drew {digit}, read {fb.get_attribute('data-answer')}"
    assert el(drv, "#game-score").text != "0"
    wait(drv, lambda d: current_question(d)[0] not in (None, "", qid), 10, "the next question")
    el(drv, "#game-quit").click()
    wait_scene(drv, "menu")
